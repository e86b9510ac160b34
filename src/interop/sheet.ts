/**
 * Turns a SpriteModel into one packed sheet for the sheet formats (Aseprite,
 * TexturePacker): every frame is composed into one image (bake.ts), trimmed
 * to its opaque pixels, identical images are stored once, and all frames
 * share one canvas ("sourceSize") that holds every frame around a common
 * sprite origin.
 */
import { FormatError } from '../binary/errors.js';
import { bakeFrame } from '../model/bake.js';
import type { ModelFrame, SpriteModel } from '../model/types.js';
import { opaqueBounds } from '../render/compose.js';
import { cropImage, createImage, type RgbaImage } from '../render/image.js';
import { drawSheet, packShelves } from '../model/pack.js';
import { Budget } from '../binary/limits.js';
import { animationList } from './sheetextras.js';

export interface SheetFrame {
  animation: number;
  index: number;
  /** Rectangle in the packed sheet. */
  frame: { x: number; y: number; w: number; h: number };
  /** Where the rectangle goes on the common canvas. */
  spriteSourceSize: { x: number; y: number; w: number; h: number };
  trimmed: boolean;
  durationMs: number;
}

export interface BuiltSheet {
  image: RgbaImage;
  frames: SheetFrame[];
  /** The common canvas size. */
  sourceSize: { w: number; h: number };
  /** The sprite origin on the common canvas. */
  originX: number;
  originY: number;
}

/** Notes about what a flat sheet cannot say, added once each. */
export function sheetLossNotes(model: SpriteModel, format: string): string[] {
  const notes: string[] = [];
  let composed = false;
  let transformed = false;
  let shapes = false;
  let events = false;
  for (const a of model.animations) {
    for (const f of a.frames) {
      if (f.parts.length > 1) composed = true;
      for (const p of f.parts) {
        if (p.flipX || p.flipY || p.rotation || (p.scaleX ?? 1) !== 1 || (p.scaleY ?? 1) !== 1 || (p.opacity ?? 1) !== 1) {
          transformed = true;
        }
      }
      if (f.shapes?.length) shapes = true;
      if (f.events?.length) events = true;
    }
  }
  if (composed) notes.push(`${format}: frames made of several parts were composed into one image each`);
  if (transformed) notes.push(`${format}: flipped, rotated, scaled or translucent parts were baked into the frame images`);
  if (shapes) notes.push(`${format}: points and collision shapes were dropped`);
  if (events) notes.push(`${format}: frame events were dropped`);
  const next = model.animations.filter((a) => a.next);
  if (next.length)
    notes.push(
      `${format}: players do not read follow-up animations ("next"; sprat reads them back from meta.sprat): ${animationList(next)}`,
    );
  return notes;
}

export function buildSheet(model: SpriteModel, format: string, budget: Budget = new Budget()): BuiltSheet {
  // The sheets some frame draws from, found in one pass over the parts (not one pass per sheet: a CTHG file has a sheet per sprite).
  const used = new Set<number>();
  for (const a of model.animations) for (const f of a.frames) for (const p of f.parts) used.add(p.sheet);
  model.sheets.forEach((s, i) => {
    if (used.has(i) && !s.image)
      // Why they were not loaded names the image (and where it was looked for) already.
      throw new FormatError(format, `cannot write the sheet: ${s.loadError ?? `the pixels of "${s.path}" were not loaded`}`);
  });
  type Unique = { image: RgbaImage; key: string };
  const uniques: Unique[] = [];
  const byKey = new Map<string, number>();
  const placed: { animation: number; index: number; unique: number; x: number; y: number; durationMs: number }[] = [];
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  model.animations.forEach((a, ai) => {
    a.frames.forEach((f, fi) => {
      const baked = bakeFrame(model, f, budget);
      const ob = opaqueBounds(baked.image);
      // A frame with nothing visible keeps one transparent pixel at the origin.
      const img = ob ? cropImage(baked.image, ob.x, ob.y, ob.width, ob.height) : createImage(1, 1);
      const x = ob ? ob.x - baked.originX : 0;
      const y = ob ? ob.y - baked.originY : 0;
      const k = `${img.width}x${img.height}:${hashBytes(img.data)}`;
      let u = byKey.get(k);
      if (u === undefined || !sameBytes(uniques[u]!.image.data, img.data)) {
        u = uniques.length;
        uniques.push({ image: img, key: k });
        byKey.set(k, u);
      }
      placed.push({ animation: ai, index: fi, unique: u, x, y, durationMs: f.durationMs });
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x + img.width);
      y1 = Math.max(y1, y + img.height);
    });
  });
  if (x0 === Infinity) x0 = y0 = x1 = y1 = 0;
  const packed = packShelves(
    uniques.map((u) => ({ w: u.image.width, h: u.image.height })),
    1,
  );
  const items = uniques.map((u, i) => ({ image: u.image, ...packed.positions[i]! }));
  const image = drawSheet(items, Math.max(1, packed.width), Math.max(1, packed.height), budget);
  const sourceSize = { w: x1 - x0, h: y1 - y0 };
  const frames: SheetFrame[] = placed.map((p) => {
    const img = uniques[p.unique]!.image;
    const pos = packed.positions[p.unique]!;
    const sss = { x: p.x - x0, y: p.y - y0, w: img.width, h: img.height };
    return {
      animation: p.animation,
      index: p.index,
      frame: { x: pos.x, y: pos.y, w: img.width, h: img.height },
      spriteSourceSize: sss,
      trimmed: sss.x !== 0 || sss.y !== 0 || sss.w !== sourceSize.w || sss.h !== sourceSize.h,
      durationMs: p.durationMs,
    };
  });
  return { image, frames, sourceSize, originX: 0 - x0, originY: 0 - y0 };
}

function hashBytes(d: Uint8Array): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < d.length; i++) h = Math.imul(h ^ d[i]!, 0x01000193);
  return (h >>> 0).toString(16);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A name for each animation frame that is unique in the document: the frame label when that is unique, else generated. */
export function frameNames(model: SpriteModel, generate: (anim: string, index: number, overall: number) => string): string[][] {
  const labels = new Map<string, number>();
  const labelOf = (f: ModelFrame) => f.name ?? f.label;
  for (const a of model.animations)
    for (const f of a.frames) {
      const l = labelOf(f);
      if (l) labels.set(l, (labels.get(l) ?? 0) + 1);
    }
  const used = new Set<string>();
  let overall = 0;
  return model.animations.map((a) => {
    const animName = a.direction ? `${a.name}/${a.direction}` : a.name;
    return a.frames.map((f, i) => {
      const l = labelOf(f);
      let name = l && labels.get(l) === 1 ? l : generate(animName, i, overall);
      overall++;
      let n = 2;
      const base = name;
      while (used.has(name)) name = `${base} (${n++})`;
      used.add(name);
      return name;
    });
  });
}
