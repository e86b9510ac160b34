declare module 'omggif' {
  export class GifReader {
    constructor(buf: Uint8Array);
    width: number;
    height: number;
    numFrames(): number;
    loopCount(): number | null;
    frameInfo(i: number): {
      x: number;
      y: number;
      width: number;
      height: number;
      delay: number;
      disposal: number;
      transparent_index: number | null;
      palette_size: number | null;
    };
    decodeAndBlitFrameRGBA(i: number, pixels: Uint8Array): void;
  }
}
