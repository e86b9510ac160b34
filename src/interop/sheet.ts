/**
 * Turns a SpriteModel into one packed sheet for the sheet formats (Aseprite,
 * TexturePacker): every frame is composed into one image (bake.ts), trimmed
 * to its opaque pixels, and identical images are stored once. Each frame is
 * placed on its canvas ("sourceSize") as Aseprite and TexturePacker write
 * trimmed frames: `spriteSourceSize` is the visible box inside the canvas,
 * so engines that read only those two (Phaser, PixiJS) draw it in place.
 * The canvas is the model frame's own (`ModelFrame.canvas`: the source's
 * untrimmed box), grown to hold what the frame shows; frames without one
 * share the union of their visible boxes around the sprite origin.
 */
import { FormatError } from '../binary/errors.js';
import { bakeFrame } from '../model/bake.js';
import type { ModelFrame, ModelRect, SpriteModel } from '../model/types.js';
import { opaqueBounds } from '../render/compose.js';
import { cropImage, createImage, type RgbaImage } from '../render/image.js';
import { drawSheet, packRects } from '../model/pack.js';
import { hashBytes, sameBytes } from '../model/frames.js';
import { Budget } from '../binary/limits.js';
import { StringMap, StringSet } from '../binary/string-map.js';
import { animationList } from './sheetextras.js';

export interface SheetFrame {
  animation: number;
  index: number;
  /** Rectangle in the packed sheet. */
  frame: { x: number; y: number; w: number; h: number };
  /** Where the rectangle goes on the frame's canvas. */
  spriteSourceSize: { x: number; y: number; w: number; h: number };
  /** The frame's canvas size. */
  sourceSize: { w: number; h: number };
  /** The sprite origin on the frame's canvas. */
  originX: number;
  originY: number;
  /** The visible box is smaller than the canvas. */
  trimmed: boolean;
  durationMs: number;
}

export interface BuiltSheet {
  image: RgbaImage;
  frames: SheetFrame[];
  /** The canvas of the frames without one of their own (with `shared`, of every frame). */
  sourceSize: { w: number; h: number };
  /** The sprite origin on that canvas. */
  originX: number;
  originY: number;
}

/** A box as [x0, y0, x1, y1]; empty as [Infinity, Infinity, -Infinity, -Infinity]. */
type Box = [number, number, number, number];
const EMPTY: Box = [Infinity, Infinity, -Infinity, -Infinity];
const grow = (b: Box, x0: number, y0: number, x1: number, y1: number): Box => [
  Math.min(b[0], x0),
  Math.min(b[1], y0),
  Math.max(b[2], x1),
  Math.max(b[3], y1),
];
/** A model canvas on whole pixels (a fractional origin widens it to the pixels it touches). */
const canvasBox = (c: ModelRect): Box => [
  Math.floor(c.x),
  Math.floor(c.y),
  Math.ceil(c.x + Math.max(0, c.width)),
  Math.ceil(c.y + Math.max(0, c.height)),
];

/** Notes about what a flat sheet cannot say, added once each. */
export function sheetLossNotes(model: SpriteModel, format: string): string[] {
  const notes: string[] = [];
  let composed = false;
  let transformed = false;
  for (const a of model.animations) {
    for (const f of a.frames) {
      if (f.parts.length > 1) composed = true;
      for (const p of f.parts) {
        if (p.flipX || p.flipY || p.rotation || (p.scaleX ?? 1) !== 1 || (p.scaleY ?? 1) !== 1 || (p.opacity ?? 1) !== 1) {
          transformed = true;
        }
      }
    }
  }
  if (composed) notes.push(`${format}: frames made of several parts were composed into one image each`);
  if (transformed) notes.push(`${format}: flipped, rotated, scaled or translucent parts were baked into the frame images`);
  // Carried in meta.sprat for the animations (tags, `animations` entries); frames no animation plays have no entry.
  for (const [what, holds] of [
    ['points and collision shapes', (f: ModelFrame) => !!f.shapes?.length],
    ['frame events', (f: ModelFrame) => !!f.events?.length],
  ] as const) {
    const played = model.animations.filter((a) => !a.unused && a.frames.some(holds));
    const unused = model.animations.filter((a) => a.unused && a.frames.some(holds));
    if (played.length)
      notes.push(`${format}: players do not read ${what} (sprat reads them back from meta.sprat): ${animationList(played)}`);
    if (unused.length) notes.push(`${format}: ${what} of frames no animation plays were dropped: ${animationList(unused)}`);
  }
  const next = model.animations.filter((a) => a.next);
  if (next.length)
    notes.push(
      `${format}: players do not read follow-up animations ("next"; sprat reads them back from meta.sprat): ${animationList(next)}`,
    );
  return notes;
}

/**
 * `shared`: every frame on one canvas (Aseprite: a sprite has one canvas),
 * the union of the frames' canvases and visible boxes; otherwise each frame
 * on its own (TexturePacker's per-frame `sourceSize`).
 */
export function buildSheet(model: SpriteModel, format: string, budget: Budget = new Budget(), shared = false): BuiltSheet {
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
  const placed: { animation: number; index: number; unique: number; x: number; y: number; canvas?: Box; durationMs: number }[] = [];
  // The canvas of frames without their own: the union of their visible boxes (with `shared`, of everything).
  let common: Box = EMPTY;
  model.animations.forEach((a, ai) => {
    a.frames.forEach((f, fi) => {
      const baked = bakeFrame(model, f, budget);
      const ob = opaqueBounds(baked.image);
      // A frame with nothing visible keeps one transparent pixel at the origin (or the canvas's corner).
      const img = ob ? cropImage(baked.image, ob.x, ob.y, ob.width, ob.height) : createImage(1, 1);
      let canvas = f.canvas ? canvasBox(f.canvas) : undefined;
      const x = ob ? ob.x - baked.originX : canvas && canvas[2] > canvas[0] ? canvas[0] : 0;
      const y = ob ? ob.y - baked.originY : canvas && canvas[3] > canvas[1] ? canvas[1] : 0;
      const k = `${img.width}x${img.height}:${hashBytes(img.data)}`;
      let u = byKey.get(k);
      if (u === undefined || !sameBytes(uniques[u]!.image.data, img.data)) {
        u = uniques.length;
        uniques.push({ image: img, key: k });
        byKey.set(k, u);
      }
      // A canvas too small for what the frame shows grows to hold it (nothing is cut off).
      if (canvas) canvas = grow(canvas, x, y, x + img.width, y + img.height);
      if (shared || !canvas)
        common = canvas ? grow(common, canvas[0], canvas[1], canvas[2], canvas[3]) : grow(common, x, y, x + img.width, y + img.height);
      placed.push({ animation: ai, index: fi, unique: u, x, y, canvas: shared ? undefined : canvas, durationMs: f.durationMs });
    });
  });
  if (common[0] === Infinity) common = [0, 0, 0, 0];
  const packed = packRects(
    uniques.map((u) => ({ w: u.image.width, h: u.image.height })),
    { padding: 1 },
  );
  const items = uniques.map((u, i) => ({ image: u.image, ...packed.positions[i]! }));
  const image = drawSheet(items, Math.max(1, packed.width), Math.max(1, packed.height), budget);
  const frames: SheetFrame[] = placed.map((p) => {
    const img = uniques[p.unique]!.image;
    const pos = packed.positions[p.unique]!;
    const c = p.canvas ?? common;
    const sourceSize = { w: c[2] - c[0], h: c[3] - c[1] };
    const sss = { x: p.x - c[0], y: p.y - c[1], w: img.width, h: img.height };
    return {
      animation: p.animation,
      index: p.index,
      frame: { x: pos.x, y: pos.y, w: img.width, h: img.height },
      spriteSourceSize: sss,
      sourceSize,
      originX: -c[0],
      originY: -c[1],
      trimmed: sss.x !== 0 || sss.y !== 0 || sss.w !== sourceSize.w || sss.h !== sourceSize.h,
      durationMs: p.durationMs,
    };
  });
  return { image, frames, sourceSize: { w: common[2] - common[0], h: common[3] - common[1] }, originX: -common[0], originY: -common[1] };
}

/**
 * A name for each animation frame that is unique in the document: the frame label when that is unique, else
 * generated. Each name is written in the sheet's JSON at least once, so their length is charged to the
 * `--max-json-bytes` budget as they are made, each before it is compared (a generated name is a cheap
 * concatenation until then: 2^18 names of a 100 KB animation name would be 26 GB).
 */
export function frameNames(
  model: SpriteModel,
  generate: (anim: string, index: number, overall: number) => string,
  budget: Budget = new Budget(),
): string[][] {
  let size = 0;
  const labels = new StringMap<number>();
  const labelOf = (f: ModelFrame) => f.name ?? f.label;
  for (const a of model.animations)
    for (const f of a.frames) {
      const l = labelOf(f);
      if (l) labels.set(l, (labels.get(l) ?? 0) + 1);
    }
  const used = new StringSet();
  let overall = 0;
  return model.animations.map((a) => {
    const animName = a.direction ? `${a.name}/${a.direction}` : a.name;
    return a.frames.map((f, i) => {
      const l = labelOf(f);
      let name = l && labels.get(l) === 1 ? l : generate(animName, i, overall);
      overall++;
      size += name.length;
      budget.check('maxJsonBytes', size, `the names of ${overall} frames`);
      let n = 2;
      const base = name;
      while (used.has(name)) name = `${base} (${n++})`;
      used.add(name);
      return name;
    });
  });
}

/**
 * A sprite's frames for `packAtlas` (src/model/packatlas.ts): each model
 * frame composed by the same bake `buildSheet` uses, on its canvas (the
 * frame's own, else the union of every frame's visible box around the
 * origin, as buildSheet's shared canvas), the origin as its pivot; names
 * `ANIMATION/INDEX` (`frameNames`, labels where unique); the animations in
 * play order with their durations (a frame shown forever: 0) and loop flag.
 */
export function spriteAtlasFrames(
  model: SpriteModel,
  budget: Budget = new Budget(),
): {
  frames: { name: string; image: RgbaImage; durationMs: number; pivot: { x: number; y: number } }[];
  animations: { name: string; frames: string[]; loop: boolean }[];
} {
  const names = frameNames(model, (anim, i) => `${anim}/${i}`, budget);
  const played = model.animations.map((a, ai) => ({ a, ai })).filter(({ a }) => !a.unused && a.frames.length > 0);
  const baked = played.map(({ a }) => a.frames.map((f) => ({ f, b: bakeFrame(model, f, budget) })));
  let common: Box = EMPTY;
  for (const list of baked)
    for (const { b } of list)
      if (b.image.width && b.image.height)
        common = grow(common, -b.originX, -b.originY, b.image.width - b.originX, b.image.height - b.originY);
  if (common[0] === Infinity) common = [0, 0, 1, 1];
  const frames: { name: string; image: RgbaImage; durationMs: number; pivot: { x: number; y: number } }[] = [];
  const animations = played.map(({ a, ai }, k) => {
    const list = baked[k]!;
    const frameList = list.map(({ f, b }, fi) => {
      let c = f.canvas ? canvasBox(f.canvas) : common;
      if (b.image.width && b.image.height) c = grow(c, -b.originX, -b.originY, b.image.width - b.originX, b.image.height - b.originY);
      const w = c[2] - c[0];
      const h = c[3] - c[1];
      budget.spend('maxPixels', w * h, `frame ${fi} of "${a.name}" (${w}x${h})`);
      const image = createImage(w, h);
      const dx = -b.originX - c[0];
      const dy = -b.originY - c[1];
      for (let y = 0; y < b.image.height; y++)
        image.data.set(b.image.data.subarray(y * b.image.width * 4, (y + 1) * b.image.width * 4), ((y + dy) * w + dx) * 4);
      const name = names[ai]![fi]!;
      frames.push({
        name,
        image,
        durationMs: Number.isFinite(f.durationMs) ? f.durationMs : 0,
        pivot: { x: w ? -c[0] / w : 0, y: h ? -c[1] / h : 0 },
      });
      return name;
    });
    return { name: a.direction ? `${a.name}/${a.direction}` : a.name, frames: frameList, loop: a.loopTo !== null };
  });
  return { frames, animations };
}
