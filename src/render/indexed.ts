/**
 * PNG details the RGBA decoder hides: the header's bit depth and colour
 * type, and the palette indices of an 8-bit indexed image (a CorsixTH
 * recolour map is read by index, its palette unused); and an 8-bit indexed
 * PNG encoder.
 */
import { encode } from 'fast-png';
import { FormatError } from '../binary/errors.js';
import { DEFAULT_LIMITS } from '../binary/limits.js';
import { pngSize, readPngSamples } from './png.js';

export const PNG_COLOR_TYPES: Record<number, string> = {
  0: 'greyscale',
  2: 'RGB',
  3: 'indexed (palette)',
  4: 'greyscale with alpha',
  6: 'RGBA',
};

/** The IHDR fields: size, bit depth, colour type (6 = RGBA, 3 = palette), interlace. Throws FormatError for a non-PNG. */
export function pngHeader(bytes: Uint8Array): { width: number; height: number; bitDepth: number; colorType: number } {
  const { width, height } = pngSize(bytes);
  return { width, height, bitDepth: bytes[24]!, colorType: bytes[25]! };
}

/** The palette indices of an 8-bit indexed PNG (one byte a pixel, rows from the top). */
export function decodeIndexedPng(
  bytes: Uint8Array,
  maxPixels: number = DEFAULT_LIMITS.maxPixels,
): { width: number; height: number; indices: Uint8Array } {
  const h = pngHeader(bytes);
  if (h.colorType !== 3 || h.bitDepth !== 8) throw new FormatError('png', 'not an 8-bit indexed PNG');
  const { raw, passes } = readPngSamples(bytes, maxPixels);
  const indices = new Uint8Array(h.width * h.height);
  for (const p of passes) {
    for (let y = 0; y < p.height; y++) {
      const s = p.offset + 1 + y * (p.stride + 1);
      const row = (p.y0 + y * p.dy) * h.width + p.x0;
      if (p.dx === 1) indices.set(raw.subarray(s, s + p.width), row);
      else for (let x = 0; x < p.width; x++) indices[row + x * p.dx] = raw[s + x]!;
    }
  }
  return { width: h.width, height: h.height, indices };
}

/** An 8-bit indexed PNG; `palette` holds [r, g, b] or [r, g, b, a] entries (at most 256). */
export function encodeIndexedPng(width: number, height: number, indices: Uint8Array, palette: readonly number[][]): Uint8Array {
  return encode({ width, height, data: indices, depth: 8, channels: 1, palette: palette as [number, number, number][] });
}
