/**
 * An RGBA image: `width` × `height` pixels, 4 bytes each (R, G, B, A),
 * row by row from the top, straight (not premultiplied) alpha.
 */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}

export function createImage(width: number, height: number): RgbaImage {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 0 || height < 0) {
    throw new RangeError(`bad image size ${width}x${height}`);
  }
  return { width, height, data: new Uint8Array(width * height * 4) };
}

/** A copy of the rectangle (x, y, w, h); pixels outside the source are transparent. */
export function cropImage(src: RgbaImage, x: number, y: number, w: number, h: number): RgbaImage {
  const out = createImage(w, h);
  for (let row = 0; row < h; row++) {
    const sy = y + row;
    if (sy < 0 || sy >= src.height) continue;
    const x0 = Math.max(0, x);
    const x1 = Math.min(src.width, x + w);
    if (x1 <= x0) continue;
    out.data.set(src.data.subarray((sy * src.width + x0) * 4, (sy * src.width + x1) * 4), (row * w + (x0 - x)) * 4);
  }
  return out;
}

export function fillImage(img: RgbaImage, r: number, g: number, b: number, a: number): void {
  const d = img.data;
  for (let i = 0; i < d.length; i += 4) {
    d[i] = r;
    d[i + 1] = g;
    d[i + 2] = b;
    d[i + 3] = a;
  }
}
