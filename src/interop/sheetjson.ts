/**
 * What the Aseprite and TexturePacker JSON sheets share: the frame records
 * (frame, rotated, trimmed, spriteSourceSize, sourceSize), in a "hash"
 * (object keyed by file name) or an "array" (records with `filename`).
 */
import type { Diagnostic } from '../binary/errors.js';
import { diagnostic } from '../binary/errors.js';
import type { ModelPart } from '../model/types.js';
import { has, type JsonReader, key } from './json.js';

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface SheetJsonFrame {
  filename: string;
  /** The upright size; a rotated frame takes h × w pixels of the sheet. */
  frame: Rect;
  rotated: boolean;
  trimmed: boolean;
  spriteSourceSize: Rect;
  sourceSize: { w: number; h: number };
  /** Milliseconds (Aseprite; TexturePacker files written by sprat). */
  duration?: number;
  /** Normalised pivot (TexturePacker). */
  pivot?: { x: number; y: number };
  /** Normalised anchor (what PixiJS reads; Phaser reads it before `pivot`). */
  anchor?: { x: number; y: number };
  /** Which of the document's sheets holds it (a Phaser multiatlas, a TexturePacker multipack); default the first. */
  sheet?: number;
}

export function readFrames(
  r: JsonReader,
  value: unknown,
  path: string,
  extra?: (o: Record<string, unknown>, path: string, f: SheetJsonFrame) => void,
): { layout: 'hash' | 'array'; frames: SheetJsonFrame[] } {
  const one = (v: unknown, p: string, filename: string): SheetJsonFrame => {
    const o = r.obj(v, p);
    const frame = r.rect(o.frame, `${p}.frame`);
    const rotated = r.optBool(o, 'rotated', p) ?? false;
    const trimmed = r.optBool(o, 'trimmed', p) ?? false;
    const spriteSourceSize = has(o, 'spriteSourceSize')
      ? r.rect(o.spriteSourceSize, `${p}.spriteSourceSize`)
      : { x: 0, y: 0, w: frame.w, h: frame.h };
    const sourceSize = has(o, 'sourceSize') ? r.size(o.sourceSize, `${p}.sourceSize`) : { w: frame.w, h: frame.h };
    const f: SheetJsonFrame = { filename, frame, rotated, trimmed, spriteSourceSize, sourceSize };
    const duration = r.optNum(o, 'duration', p, { min: 0 });
    if (duration !== undefined) f.duration = duration;
    extra?.(o, p, f);
    return f;
  };
  if (Array.isArray(value)) {
    return {
      layout: 'array',
      frames: value.map((v, i) => {
        const p = `${path}[${i}]`;
        const o = r.obj(v, p);
        return one(o, p, r.optStr(o, 'filename', p) ?? String(i));
      }),
    };
  }
  const o = r.obj(value, path);
  return { layout: 'hash', frames: Object.keys(o).map((k) => one(o[k], `${path}${key(k)}`, k)) };
}

/** The JSON record of a frame, keys in the order the tools write them. */
export function frameRecord(f: SheetJsonFrame, layout: 'hash' | 'array', withPivot: boolean): Record<string, unknown> {
  const rec: Record<string, unknown> = {};
  if (layout === 'array') rec.filename = f.filename;
  rec.frame = f.frame;
  rec.rotated = f.rotated;
  rec.trimmed = f.trimmed;
  rec.spriteSourceSize = f.spriteSourceSize;
  rec.sourceSize = f.sourceSize;
  if (withPivot && f.pivot) rec.pivot = f.pivot;
  if (withPivot && f.anchor) rec.anchor = f.anchor;
  if (f.duration !== undefined) rec.duration = f.duration;
  return rec;
}

/** The model part for a frame, with the sprite origin at (ox, oy) on the frame's source canvas. */
export function framePart(f: SheetJsonFrame, ox: number, oy: number): ModelPart {
  const part: ModelPart = {
    sheet: f.sheet ?? 0,
    sx: f.frame.x,
    sy: f.frame.y,
    sw: f.rotated ? f.frame.h : f.frame.w,
    sh: f.rotated ? f.frame.w : f.frame.h,
    x: f.spriteSourceSize.x - ox,
    y: f.spriteSourceSize.y - oy,
  };
  if (f.rotated) part.rotatedInSheet = true;
  return part;
}

/** Warnings about frames that reach outside the sheet, placed at the frame's `frame` value when `r` parsed the document. */
export function frameWarnings(
  frames: Iterable<SheetJsonFrame>,
  size: { w: number; h: number } | undefined,
  path: string,
  layout: 'hash' | 'array' = 'hash',
  r?: JsonReader,
): Diagnostic[] {
  if (!size) return [];
  const out: Diagnostic[] = [];
  let i = -1;
  for (const f of frames) {
    i++;
    const w = f.rotated ? f.frame.h : f.frame.w;
    const h = f.rotated ? f.frame.w : f.frame.h;
    if (f.frame.x < 0 || f.frame.y < 0 || f.frame.x + w > size.w || f.frame.y + h > size.h) {
      const p = `${path}${layout === 'array' ? `[${i}]` : key(f.filename)}.frame`;
      out.push(diagnostic('warning', `${p} reaches outside the ${size.w}x${size.h} sheet`, r?.at(p)));
    }
  }
  return out;
}
