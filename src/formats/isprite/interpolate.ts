/**
 * Frame interpolation (optional per the document): "you may choose to
 * linearly interpolate the positions and orientations of an element, based
 * an element on the following frame with the same name, so long as these two
 * elements are the only ones with that name in both frames."
 *
 * docs/spec/isprite.md widens it to position, rotation, scale and opacity. What is
 * interpolated, by element type:
 * - graphic: x, y, rotation, scaleX, scaleY, opacity (a simple graphic uses
 *   the document's defaults: rotation 0, scale 1, opacity 65535, origin the
 *   slice centre);
 * - attachment point: x, y, rotation, scaleX, scaleY, opacity;
 * - rectangle: x, y (its upper-left corner) and rotation; width and height are not;
 * - circle: x, y; the radius is not;
 * - unknown elements: copied.
 * Names are compared as strings (exactly); unnamed elements never pair. The
 * two elements must be of the same type. Values are interpolated as stored
 * (a rotation from 350 to 10 turns back through 180; store 370 to turn
 * forward). Opacity is rounded to a whole number.
 */
import { expandedFields, type IspriteDocument, type IspriteElement, type IspriteFrame } from './model.js';

function lerp(a: number, b: number, t: number): number {
  return a + (b - a) * t;
}

/** The element's name as a string, or null when unnamed (null or an index with no name). */
export function elementName(doc: IspriteDocument, e: IspriteElement): string | null {
  return e.name === null ? null : (doc.names[e.name] ?? null);
}

function nameCounts(doc: IspriteDocument, frame: IspriteFrame | null | undefined): Map<string, number> {
  const m = new Map<string, number>();
  for (const e of frame?.elements ?? []) {
    const n = elementName(doc, e);
    if (n !== null) m.set(n, (m.get(n) ?? 0) + 1);
  }
  return m;
}

/** A copy of an element with a simple graphic's missing fields filled with the document's defaults. */
export function expandElement(doc: IspriteDocument, e: IspriteElement): IspriteElement {
  if (e.type !== 'graphic') return { ...e };
  return { ...e, ...expandedFields(e, doc) };
}

/**
 * The elements of `current` (copies, graphics with every field present),
 * each interpolated at `t` (clamped to 0 … 1) toward its partner in `next`.
 */
export function interpolateFrames(
  doc: IspriteDocument,
  current: IspriteFrame | null | undefined,
  next: IspriteFrame | null | undefined,
  t: number,
): IspriteElement[] {
  const elements = current?.elements ?? [];
  const out = elements.map((e) => expandElement(doc, e));
  if (!next || !(t > 0)) return out;
  if (t > 1) t = 1;
  const here = nameCounts(doc, current);
  const there = nameCounts(doc, next);
  const partners = new Map<string, IspriteElement>();
  for (const e of next.elements) {
    const n = elementName(doc, e);
    if (n !== null && there.get(n) === 1) partners.set(n, expandElement(doc, e));
  }
  for (let i = 0; i < out.length; i++) {
    const a = out[i]!;
    const n = elementName(doc, a);
    if (n === null || here.get(n) !== 1) continue;
    const b = partners.get(n);
    if (!b || b.type !== a.type) continue;
    if (a.type === 'graphic' && b.type === 'graphic') {
      a.x = lerp(a.x, b.x, t);
      a.y = lerp(a.y, b.y, t);
      a.rotation = lerp(a.rotation!, b.rotation!, t);
      a.scaleX = lerp(a.scaleX!, b.scaleX!, t);
      a.scaleY = lerp(a.scaleY!, b.scaleY!, t);
      a.opacity = Math.round(lerp(a.opacity!, b.opacity!, t));
    } else if (a.type === 'attachment' && b.type === 'attachment') {
      a.x = lerp(a.x, b.x, t);
      a.y = lerp(a.y, b.y, t);
      a.rotation = lerp(a.rotation, b.rotation, t);
      a.scaleX = lerp(a.scaleX, b.scaleX, t);
      a.scaleY = lerp(a.scaleY, b.scaleY, t);
      a.opacity = Math.round(lerp(a.opacity, b.opacity, t));
    } else if (a.type === 'rect' && b.type === 'rect') {
      a.x = lerp(a.x, b.x, t);
      a.y = lerp(a.y, b.y, t);
      a.rotation = lerp(a.rotation, b.rotation, t);
    } else if (a.type === 'circle' && b.type === 'circle') {
      a.x = lerp(a.x, b.x, t);
      a.y = lerp(a.y, b.y, t);
    }
  }
  return out;
}
