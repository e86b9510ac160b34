/**
 * Changing a file's values in place (FormatHandler.edits, src/edit.ts): an
 * element's offset from its frame's anchor (x, y: i16, docs/spec/cthg.md).
 * The writer keeps the file's block order and every other value, so the
 * changed document re-writes to the file's bytes but for the offset.
 */
import { FormatError } from '../../binary/errors.js';
import type { CommandOptions, EditablePart, EditableValue } from '../types.js';
import { checkEditValues, editable, intPart } from '../edits.js';
import type { CthgDocument, CthgElement } from './model.js';
import { selectView } from './play.js';

/** One change to a file: `frame` is the frame's index (FR block), `element` its index in the frame. */
export type CthgEdit = { field: 'offset'; frame: number; element: number; x: number; y: number };

const offsetParts = (e: CthgElement): EditablePart[] => [intPart('x', e.x, -32768, 32767), intPart('y', e.y, -32768, 32767)];

/**
 * The document with one element's offset changed (`doc` is left as it is);
 * a one-line FormatError for a frame or element it does not have, or an
 * offset outside the 16-bit range. A frame several animations share changes
 * in all of them.
 */
export function editCthg(doc: CthgDocument, edit: CthgEdit): CthgDocument {
  const f = Number.isInteger(edit.frame) ? doc.frames[edit.frame] : undefined;
  if (!f) throw new FormatError('cthg', `no frame ${edit.frame} in the file (${doc.frames.length} frames)`);
  const e = Number.isInteger(edit.element) ? f.elements[edit.element] : undefined;
  if (!e) throw new FormatError('cthg', `frame ${edit.frame} has no element ${edit.element} (${f.elements.length} elements)`);
  checkEditValues('cthg', `frame ${edit.frame} element ${edit.element} offset`, offsetParts(e), [edit.x, edit.y]);
  const elements = f.elements.slice();
  elements[edit.element] = { ...e, x: edit.x, y: edit.y };
  const frames = doc.frames.slice();
  frames[edit.frame] = { ...f, elements };
  return { ...doc, frames };
}

/** What can be changed in the view `view` shows (as `renderViews` gives it) at its frame `frame`: each element's offset. */
export function cthgEdits(doc: CthgDocument, view: CommandOptions, frame: number): EditableValue<CthgDocument>[] {
  if (view.sprite !== undefined) return [];
  let first: number;
  let count: number;
  try {
    const sel = selectView(doc, view);
    first = sel.first;
    count = sel.animation.frameCount;
  } catch {
    return [];
  }
  if (!Number.isInteger(frame) || frame < 0 || frame >= count) return [];
  const id = first + frame;
  const f = doc.frames[id];
  if (!f) return [];
  return f.elements.map((e, k) =>
    editable(
      'cthg',
      `frame ${id} element ${k} offset`,
      `frame ${id} element ${k} (sprite ${e.sprite ?? 'none'}) offset`,
      offsetParts(e),
      ([x, y]) => editCthg(doc, { field: 'offset', frame: id, element: k, x: x!, y: y! }),
    ),
  );
}
