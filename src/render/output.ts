import { FormatError, numberRanges } from '../binary/errors.js';
import type { RenderResult } from './image.js';
import { encodeApng } from './apng.js';
import { encodeGif, partialAlpha, type GifOptions } from './gif.js';
import { encodePng } from './png.js';

export type ImageFormat = 'png' | 'gif' | 'apng';

/** How a render result is written (`sprat render`'s image options): `dither` for GIF (see encodeGif). */
export type ImageOptions = GifOptions;

/** The image format an output file name asks for (`.png`, `.gif`, `.apng`). */
export function imageFormatFor(fileName: string): ImageFormat | undefined {
  const m = /\.(png|gif|apng)$/i.exec(fileName);
  return m ? (m[1]!.toLowerCase() as ImageFormat) : undefined;
}

/** Frame delays for an animation: `result.delaysMs`, 100 ms for any frame it does not give. */
function delays(result: RenderResult): number[] {
  return result.frames.map((_, i) => result.delaysMs?.[i] ?? 100);
}

/**
 * Encodes a render result: PNG is a still image of the first frame (in
 * the smallest exact colour type: palette, RGB or RGBA); GIF
 * and APNG hold every frame, with `result.delaysMs` (default 100 ms each)
 * and `result.loops` (default 0 = forever). `options.dither` dithers
 * partial alpha in a GIF (imageNotes says what GIF changes).
 */
export function encodeRender(result: RenderResult, format: ImageFormat, options: ImageOptions = {}): Uint8Array {
  if (result.frames.length === 0) throw new FormatError('render', 'nothing to draw');
  const first = result.frames[0]!;
  if (result.frames.some((f) => f.width < 1 || f.height < 1)) {
    throw new FormatError('render', `nothing to draw: the image is empty (${first.width}x${first.height})`);
  }
  if (format === 'png') return encodePng(first, { compact: true });
  if (format === 'gif') return encodeGif(result.frames, delays(result), result.loops ?? 0, options);
  return encodeApng(result.frames, delays(result), result.loops ?? 0);
}

/**
 * What writing `result` as `format` loses, once, for `render` to print as
 * a note: GIF has one bit of transparency, so the pixels of partial alpha
 * (counted, with the frames that have them) are thresholded at 50 % or,
 * with `options.dither`, dithered. Frames are numbered as the result's, in
 * `result.what` when it says what was drawn. Nothing for PNG and APNG,
 * which keep alpha.
 */
export function imageNotes(result: RenderResult, format: ImageFormat, options: ImageOptions = {}): string[] {
  if (format !== 'gif') return [];
  const lost = partialAlpha(result.frames);
  if (lost.pixels === 0) return [];
  const pixels = `${lost.pixels} ${lost.pixels === 1 ? 'pixel' : 'pixels'} of partial alpha`;
  const what = result.what ?? (result.frames.length === 1 ? 'the picture' : 'the animation');
  const where =
    result.frames.length === 1
      ? `in ${what}`
      : `in ${lost.frames.length === 1 ? 'frame' : 'frames'} ${numberRanges(lost.frames)} of ${what}`;
  const were = lost.pixels === 1 ? 'was' : 'were';
  const how = options.dither
    ? `${were} dithered to opaque and transparent (--dither); use .apng to keep ${lost.pixels === 1 ? 'its' : 'their'} alpha`
    : `${were} made opaque (alpha 50 % or more) or transparent (less); use .apng or --dither`;
  return [`GIF has no partial transparency: ${pixels} ${where} ${how}`];
}
