/**
 * Changing a sprite's values in place (FormatHandler.edits, src/edit.ts): a
 * frame's hold time and an element's position (graphics, attachment points,
 * collision rectangles and circles; docs/spec/isprite.md). The changed
 * document is written by the one writer, which writes every other value as
 * it was read.
 */
import { FormatError } from '../../binary/errors.js';
import { FIXED24_MAX, FIXED24_MIN } from '../../binary/fixed.js';
import type { CommandOptions, EditablePart, EditableValue } from '../types.js';
import { checkEditValues, editable, intPart } from '../edits.js';
import { elementsOf } from './compact.js';
import type { IspriteDocument, IspriteElement, IspriteFrame } from './model.js';
import { pickSequence } from './render.js';

/** One change to a sprite: `frame` is the frame ID (its index in `frames`), `element` its index in the frame. */
export type IspriteEdit =
  | { field: 'holdTime'; frame: number; value: number }
  | { field: 'position'; frame: number; element: number; x: number; y: number };

/** The hold time a frame may have: 0 is invalid (docs/spec/isprite.md), the field a u16. */
const HOLD_MIN = 1;
const HOLD_MAX = 0xffff;
const FIXED_STEP = 1 / 256;

const holdPart = (f: IspriteFrame): EditablePart => intPart('ticks', f.holdTime, HOLD_MIN, HOLD_MAX);
const positionParts = (e: { x: number; y: number }): EditablePart[] => [
  { name: 'x', value: e.x, min: FIXED24_MIN, max: FIXED24_MAX, step: FIXED_STEP },
  { name: 'y', value: e.y, min: FIXED24_MIN, max: FIXED24_MAX, step: FIXED_STEP },
];

/** A new document with frame `id` replaced (as a plain frame: the reader's compact one is left as it is). */
function withFrame(doc: IspriteDocument, id: number, frame: IspriteFrame): IspriteDocument {
  const frames = doc.frames.slice();
  frames[id] = frame;
  return { ...doc, frames };
}

function plainFrame(f: IspriteFrame, elements: IspriteElement[]): IspriteFrame {
  return { holdTime: f.holdTime, loopPoint: f.loopPoint, label: f.label, triggers: f.triggers, notes: f.notes, elements };
}

function elementWords(doc: IspriteDocument, e: IspriteElement, k: number): string {
  const name = e.name !== null ? doc.names[e.name] : undefined;
  return `element ${k} (${e.type}${name !== undefined ? ` "${name}"` : ''})`;
}

/**
 * The document with one value changed (`doc` is left as it is). Refuses,
 * with a one-line FormatError, a frame or element the document does not
 * have (or an element with no position: one of a kind this version does not
 * know), a hold time outside 1-65535, and a position that is not a multiple
 * of 1/256 within the fixed-point range.
 */
export function editIsprite(doc: IspriteDocument, edit: IspriteEdit): IspriteDocument {
  const id = edit.frame;
  const f = Number.isInteger(id) ? doc.frames[id] : undefined;
  if (!f) throw new FormatError('isprite', `no frame ${id} in the sprite (${doc.frames.length} frames)`);
  if (edit.field === 'holdTime') {
    checkEditValues('isprite', `frame ${id} hold time`, [holdPart(f)], [edit.value]);
    return withFrame(doc, id, plainFrame({ ...f, holdTime: edit.value }, elementsOf(f).slice()));
  }
  const elements = elementsOf(f).slice();
  const k = edit.element;
  const e = Number.isInteger(k) ? elements[k] : undefined;
  if (!e) throw new FormatError('isprite', `frame ${id} has no element ${k} (${elements.length} elements)`);
  if (e.type === 'unknown') throw new FormatError('isprite', `frame ${id} ${elementWords(doc, e, k)} has no position to set`);
  checkEditValues('isprite', `frame ${id} ${elementWords(doc, e, k)} position`, positionParts(e), [edit.x, edit.y]);
  elements[k] = { ...e, x: edit.x, y: edit.y };
  return withFrame(doc, id, plainFrame(f, elements));
}

/**
 * What can be changed in the picture `view` shows (a sequence, as
 * `renderViews` gives it) at position `position`: that frame's hold time
 * and each of its elements' positions. None for a picture that is not one
 * frame per position (an attached sprite, `--frame-id`).
 */
export function ispriteEdits(doc: IspriteDocument, view: CommandOptions, position: number): EditableValue<IspriteDocument>[] {
  if (view.attach !== undefined || view['frame-id'] !== undefined) return [];
  let ids: readonly number[];
  try {
    ids = pickSequence(doc, view).frames;
  } catch {
    return [];
  }
  const id = ids[position];
  const f = id === undefined ? undefined : doc.frames[id];
  if (id === undefined || !f) return [];
  const out: EditableValue<IspriteDocument>[] = [
    editable('isprite', `frame ${id} holdTime`, `frame ${id} hold time`, [holdPart(f)], ([v]) =>
      editIsprite(doc, { field: 'holdTime', frame: id, value: v! }),
    ),
  ];
  elementsOf(f).forEach((e, k) => {
    if (e.type === 'unknown') return;
    out.push(
      editable(
        'isprite',
        `frame ${id} element ${k} position`,
        `frame ${id} ${elementWords(doc, e, k)} position`,
        positionParts(e),
        ([x, y]) => editIsprite(doc, { field: 'position', frame: id, element: k, x: x!, y: y! }),
      ),
    );
  });
  return out;
}
