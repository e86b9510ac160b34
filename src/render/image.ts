import { canvasAlloc, canvasMemory } from './simd.js';

/**
 * An RGBA image: `width` × `height` pixels, 4 bytes each (R, G, B, A),
 * row by row from the top, straight (not premultiplied) alpha.
 */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** The result of `render`: one image, or several frames to animate. */
export interface RenderResult {
  frames: RgbaImage[];
  /** Per-frame delay in milliseconds (same length as frames); absent for a still image. */
  delaysMs?: number[];
  /** How many times an animation plays (0 = forever). */
  loops?: number;
  /** What was drawn, for messages ("frame 3", "the north view of \"fan\""), when the format says. */
  what?: string;
  /** What the user should know about how it was drawn (`render` prints each as a note). */
  notes?: string[];
  /** What could not be drawn (a missing file, each named once): `render` prints each as a warning; `--strict` makes it the error. */
  warnings?: string[];
}

export function createImage(width: number, height: number): RgbaImage {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 0 || height < 0) {
    throw new RangeError(`bad image size ${width}x${height}`);
  }
  return { width, height, data: new Uint8Array(width * height * 4) };
}

/**
 * An image to draw onto (a game screen, a sheet being built): as
 * createImage, but where WebAssembly SIMD is available its pixels live in a
 * WebAssembly memory of its own (fixed size, so `data` stays valid), and
 * drawImage onto it does not copy them in and out of the kernels' memory.
 * `data.buffer` is then that memory's: larger than the pixels, and it cannot
 * be transferred to a worker (copy `data` for that). `sourceBytes`: room
 * for sources placed in its memory (placeOnCanvas). Falls back to
 * createImage.
 */
export function createCanvasImage(width: number, height: number, sourceBytes = 0): RgbaImage {
  const img = createImage(0, 0);
  if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0) return createImage(width, height);
  const bytes = width * height * 4;
  // Room for the source texels of a draw: half the canvas, 1-16 MiB (bigger sources are copied as for other images),
  // and for the sources to place there (placeOnCanvas).
  const extra = Number.isInteger(sourceBytes) && sourceBytes > 0 ? sourceBytes : 0;
  const data = canvasMemory(bytes, Math.min(16 << 20, Math.max(1 << 20, bytes >> 1)) + extra);
  if (!data) return createImage(width, height);
  img.width = width;
  img.height = height;
  img.data = data;
  return img;
}

/**
 * A copy of `image` placed in the memory of the canvas image `canvas`
 * (createCanvasImage; give it `sourceBytes` to make room): drawImage onto
 * `canvas` then reads its texels where they are instead of copying them for
 * each draw (as Skia draws an SkImage already in its memory). A snapshot:
 * later changes to `image` do not reach it. The room goes with the canvas
 * (it is not freed before). Returns `image` itself where there is no room,
 * no WebAssembly SIMD, `canvas` is not a canvas image or `image` is at an
 * odd byte offset: drawing it then gives the same pixels.
 */
export function placeOnCanvas(canvas: RgbaImage, image: RgbaImage): RgbaImage {
  const n = image.width * image.height * 4;
  // (Not a source at an odd byte offset: the compositor's opaque-quad shortcut depends on the alignment, so the copy could draw differently.)
  if (n === 0 || image.data.length < n || image.data.byteOffset % 4 !== 0) return image;
  const data = canvasAlloc(canvas.data, n);
  if (!data) return image;
  data.set(image.data.subarray(0, n));
  return { width: image.width, height: image.height, data };
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

/** The image enlarged `factor` times with nearest-neighbour sampling (pixel art stays sharp). */
export function upscaleImage(src: RgbaImage, factor: number): RgbaImage {
  if (!Number.isInteger(factor) || factor < 1) throw new RangeError(`bad upscale factor ${factor}`);
  if (factor === 1) return src;
  const out = createImage(src.width * factor, src.height * factor);
  const s = new Uint32Array(src.data.buffer, src.data.byteOffset, src.width * src.height);
  const d = new Uint32Array(out.data.buffer);
  for (let y = 0; y < src.height; y++) {
    const row = d.subarray(y * factor * out.width, (y * factor + 1) * out.width);
    for (let x = 0; x < src.width; x++) row.fill(s[y * src.width + x]!, x * factor, (x + 1) * factor);
    for (let k = 1; k < factor; k++) d.copyWithin((y * factor + k) * out.width, y * factor * out.width, (y * factor + 1) * out.width);
  }
  return out;
}
