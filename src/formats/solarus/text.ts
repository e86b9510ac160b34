import { diagnostic } from '../../binary/errors.js';
import { decodeUtf8 } from '../../binary/utf8.js';
import type { ParseOptions } from './model.js';

/** Decodes a sprite file's bytes (UTF-8; a BOM is skipped; bad sequences warn). */
export function decodeText(bytes: Uint8Array, opts: ParseOptions): string {
  const start = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const { text, valid } = decodeUtf8(start ? bytes.subarray(start) : bytes);
  if (!valid) {
    const i = text.indexOf('\ufffd');
    let line = 1;
    let lineStart = 0;
    for (let k = 0; k < i; k++) {
      if (text.charCodeAt(k) === 10) {
        line++;
        lineStart = k + 1;
      }
    }
    opts.warn?.(diagnostic('warning', `invalid UTF-8 (read as U+FFFD)`, { line, column: i - lineStart + 1 }));
  }
  return text;
}
