/**
 * Where the inspect JSON's parts lie in a CTHG file (the viewer's field
 * tree): the header, and each animation, frame, element and sprite block,
 * as byte ranges [start, end) keyed by JSON pointer (`/frames/3`). Blocks
 * carry no sizes, so they are walked again in the order the file gave them
 * (`blockOrder`), each block's size following from what it holds (as the
 * reader reads it). {} for a document not read from a file.
 */
import { VIEWS, type CthgDocument } from './model.js';

const utf8 = new TextEncoder();

export function cthgByteRanges(doc: CthgDocument): Record<string, [number, number]> {
  if (!doc.header || !doc.blockOrder) return {};
  const out: Record<string, [number, number]> = { '/version': [4, 6], '/header': [6, 26] };
  let at = 26;
  const next = { A: 0, F: 0, S: 0 };
  for (const kind of doc.blockOrder) {
    const start = at;
    if (kind === 'A') {
      const i = next.A++;
      const a = doc.animations[i];
      if (!a) return out;
      // ID, tile size, frame count, the name (u8 length, bytes), a u32 per view.
      at += 2 + 2 + 4 + 1 + (a.rawName ?? utf8.encode(a.name)).length + 4 * VIEWS.length;
      out[`/animations/${i}`] = [start, at];
    } else if (kind === 'F') {
      const i = next.F++;
      const f = doc.frames[i];
      if (!f) return out;
      at += 6;
      f.elements.forEach((_, j) => {
        out[`/frames/${i}/elements/${j}`] = [at, at + 12];
        at += 12;
      });
      out[`/frames/${i}`] = [start, at];
    } else if (kind === 'S') {
      const i = next.S++;
      const s = doc.sprites[i];
      if (!s) return out;
      at += 2 + 2 + 2 + 4 + s.data.length;
      out[`/sprites/${i}`] = [start, at];
    } else return out;
  }
  return out;
}
