/**
 * One image decoder for every picture a document names (sheets, textures,
 * tilesets, palettes): the format is picked by content, and the RGBA size
 * in the header is checked against --max-pixels before anything is decoded.
 * More formats plug in by adding a row to IMAGE_DECODERS.
 */
import { FormatError } from '../binary/errors.js';
import { DEFAULT_LIMITS, type Limits } from '../binary/limits.js';
import { bmpSize, decodeBmp, isBmp } from './bmp.js';
import type { RgbaImage } from './image.js';
import { checkDecodeSize, decodePng, isPng, pngSize } from './png.js';

export interface ImageDecoder {
  /** Short name (`png`, `bmp`): the FormatError's format. */
  name: string;
  /** True when the bytes start like this format. */
  sniff(bytes: Uint8Array): boolean;
  /** The size in the header, read without decoding. */
  size(bytes: Uint8Array): { width: number; height: number };
  /** Decodes to straight-alpha RGBA; checks the header size against `maxPixels` first. */
  decode(bytes: Uint8Array, maxPixels: number): RgbaImage;
}

export const IMAGE_DECODERS: readonly ImageDecoder[] = [
  { name: 'png', sniff: isPng, size: pngSize, decode: decodePng },
  { name: 'bmp', sniff: isBmp, size: bmpSize, decode: decodeBmp },
];

/** The decoder for these bytes, or undefined. */
export function imageDecoderFor(bytes: Uint8Array): ImageDecoder | undefined {
  return IMAGE_DECODERS.find((d) => d.sniff(bytes));
}

/**
 * Decodes a PNG or BMP image (picked by content, not by name). `name` is
 * for the message when the bytes are neither. Throws FormatError for a bad
 * image, LimitError when the header's size passes `limits.maxPixels`.
 */
export function decodeImage(bytes: Uint8Array, name: string, limits: Pick<Limits, 'maxPixels'> = DEFAULT_LIMITS): RgbaImage {
  const d = imageDecoderFor(bytes);
  if (!d) throw new FormatError('image', `"${name}" is neither a PNG nor a BMP image`);
  // The size from the header first, so that the message names the image.
  let size: { width: number; height: number } | undefined;
  try {
    size = d.size(bytes);
  } catch {
    // A header too short or broken for its size: the decoder says what is wrong.
  }
  if (size && size.width > 0 && size.height > 0) checkDecodeSize(d.name, size.width, size.height, limits.maxPixels, 16, name);
  return d.decode(bytes, limits.maxPixels);
}
