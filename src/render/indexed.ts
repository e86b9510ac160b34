/**
 * PNG details the RGBA decoder hides: the header's bit depth and colour
 * type, and the palette indices of an 8-bit indexed image (a CorsixTH
 * recolour map is read by index, its palette unused); and an 8-bit indexed
 * PNG encoder.
 */
import { decode, encode } from 'fast-png';
import { FormatError } from '../binary/errors.js';
import { DEFAULT_LIMITS } from '../binary/limits.js';
import { checkDecodeSize, decodedChunks, pngSize } from './png.js';

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
  if (h.width === 0 || h.height === 0) throw FormatError.atByte('png', `bad image size ${h.width}x${h.height}`, 16);
  checkDecodeSize('png', h.width, h.height, maxPixels, 16);
  if (h.height * (h.width + 1) > bytes.length * 1100 + 4096) {
    throw FormatError.atByte('png', `image size ${h.width}x${h.height} is impossible for ${bytes.length} bytes of compressed data`, 16);
  }
  let png;
  try {
    png = decode(decodedChunks(bytes));
  } catch (e) {
    throw new FormatError('png', `not a readable PNG image: ${(e as Error)?.message ?? String(e)}`);
  }
  const n = h.width * h.height;
  if (png.data.length < n) throw new FormatError('png', 'the image data is shorter than the image');
  return { width: h.width, height: h.height, indices: Uint8Array.from(png.data.subarray(0, n)) };
}

/** An 8-bit indexed PNG; `palette` holds [r, g, b] or [r, g, b, a] entries (at most 256). */
export function encodeIndexedPng(width: number, height: number, indices: Uint8Array, palette: readonly number[][]): Uint8Array {
  return encode({ width, height, data: indices, depth: 8, channels: 1, palette: palette as [number, number, number][] });
}
