import { decode, encode } from 'fast-png';
import { FormatError } from '../binary/errors.js';
import { createImage, type RgbaImage } from './image.js';

/** Encodes an RGBA image as an 8-bit RGBA PNG. */
export function encodePng(img: RgbaImage): Uint8Array {
  return encode({ width: img.width, height: img.height, data: img.data, channels: 4, depth: 8 });
}

/** Decodes any PNG (grey, grey+alpha, RGB, RGBA, palette; 1-16 bits) to 8-bit RGBA. */
export function decodePng(bytes: Uint8Array): RgbaImage {
  let png;
  try {
    png = decode(bytes);
  } catch (e) {
    throw new FormatError('png', `not a readable PNG image: ${(e as Error).message}`);
  }
  const { width, height } = png;
  const out = createImage(width, height);
  const n = width * height;
  const src = png.data;
  const shift = png.depth === 16 ? 8 : 0;
  const px = (i: number) => (shift ? src[i]! >> shift : src[i]!);
  if (png.palette) {
    const pal = png.palette;
    const bits = png.depth;
    const rowBytes = Math.ceil((width * bits) / 8);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        let idx: number;
        if (bits === 8) idx = src[y * rowBytes + x]!;
        else {
          const bit = x * bits;
          const byte = src[y * rowBytes + (bit >> 3)]!;
          idx = (byte >> (8 - bits - (bit & 7))) & ((1 << bits) - 1);
        }
        const c = pal[idx] ?? [0, 0, 0, 0];
        const o = (y * width + x) * 4;
        out.data[o] = c[0]!;
        out.data[o + 1] = c[1]!;
        out.data[o + 2] = c[2]!;
        out.data[o + 3] = c.length > 3 ? c[3]! : 255;
      }
    }
    return out;
  }
  const ch = png.channels;
  if (png.depth < 8) {
    // Low bit-depth grey: expand to 8 bits.
    const bits = png.depth;
    const rowBytes = Math.ceil((width * bits) / 8);
    const scale = 255 / ((1 << bits) - 1);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const bit = x * bits;
        const byte = src[y * rowBytes + (bit >> 3)]!;
        const v = Math.round(((byte >> (8 - bits - (bit & 7))) & ((1 << bits) - 1)) * scale);
        const o = (y * width + x) * 4;
        out.data[o] = out.data[o + 1] = out.data[o + 2] = v;
        out.data[o + 3] = 255;
      }
    }
    return out;
  }
  for (let i = 0; i < n; i++) {
    const o = i * 4;
    const s = i * ch;
    if (ch >= 3) {
      out.data[o] = px(s);
      out.data[o + 1] = px(s + 1);
      out.data[o + 2] = px(s + 2);
      out.data[o + 3] = ch === 4 ? px(s + 3) : 255;
    } else {
      const v = px(s);
      out.data[o] = out.data[o + 1] = out.data[o + 2] = v;
      out.data[o + 3] = ch === 2 ? px(s + 1) : 255;
    }
  }
  return out;
}
