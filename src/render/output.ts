import { FormatError } from '../binary/errors.js';
import type { RenderResult } from './image.js';
import { encodeApng } from './apng.js';
import { encodeGif } from './gif.js';
import { encodePng } from './png.js';

export type ImageFormat = 'png' | 'gif' | 'apng';

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
 * and `result.loops` (default 0 = forever).
 */
export function encodeRender(result: RenderResult, format: ImageFormat): Uint8Array {
  if (result.frames.length === 0) throw new FormatError('render', 'nothing to draw');
  const first = result.frames[0]!;
  if (result.frames.some((f) => f.width < 1 || f.height < 1)) {
    throw new FormatError('render', `nothing to draw: the image is empty (${first.width}x${first.height})`);
  }
  if (format === 'png') return encodePng(first, { compact: true });
  if (format === 'gif') return encodeGif(result.frames, delays(result), result.loops ?? 0);
  return encodeApng(result.frames, delays(result), result.loops ?? 0);
}
