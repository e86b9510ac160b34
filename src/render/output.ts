import { FormatError } from '../binary/errors.js';
import type { RenderResult } from '../formats/types.js';
import { encodePng } from './png.js';

export type ImageFormat = 'png' | 'gif' | 'apng';

/** The image format an output file name asks for (`.png`, `.gif`, `.apng`). */
export function imageFormatFor(fileName: string): ImageFormat | undefined {
  const m = /\.(png|gif|apng)$/i.exec(fileName);
  return m ? (m[1]!.toLowerCase() as ImageFormat) : undefined;
}

/** Encodes a render result: a still PNG (the first frame), or an animation. */
export function encodeRender(result: RenderResult, format: ImageFormat): Uint8Array {
  if (result.frames.length === 0) throw new FormatError('render', 'nothing to draw');
  if (format === 'png') return encodePng(result.frames[0]!);
  throw new FormatError('render', `${format.toUpperCase()} output is not available yet`);
}
