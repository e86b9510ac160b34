/**
 * `sprat new`: a sprite built from frames (separate images, or the cells of
 * a sheet) and a short description of its animations, as a SpriteModel that
 * every sprite format's `fromModel` writes.
 *
 * The animation description (`sprat new --animation`), one or more animations separated by
 * `;`:
 *
 *   NAME[/DIRECTION]:ITEMS[,loop|,loop=N|,once]
 *   ITEMS = ITEM+ITEM+...   ITEM = FRAME[-FRAME][@MS]
 *
 * FRAME is a frame number (0-based: the files in name order, or the cells
 * row by row); `A-B` counts up or down; `@MS` is the duration of the item's
 * frames in milliseconds; an item without one takes the next one given
 * (`0-3+8-11@150`: all 150), else the last one before it, else 100.
 * Animations loop to their first frame unless `once` (play once and stop on
 * the last frame) or `loop=N` (loop to frame N of the animation). DIRECTION
 * names a direction or view (Solarus directions "0".."3", CTHG views
 * north/east/south/west); `NAME/rows:ITEMS` on a sheet makes one direction
 * per sheet row the frames come from ("0", "1", ... in row order).
 * Example: `walk:0-7@100;idle:8@500+9@100,once;attack:10-13@80,loop=2`.
 */
import { numberRanges, OptionError } from '../binary/errors.js';
import { type Budget, WORK_STEPS } from '../binary/limits.js';
import { opaqueBounds } from '../render/compose.js';
import { cropImage, createImage, type RgbaImage } from '../render/image.js';
import { drawSheet, packRects } from './pack.js';
import type { ModelAnimation, SpriteModel } from './types.js';

export interface FrameSpec {
  /** Index into the frames. */
  frame: number;
  durationMs: number;
}

export interface AnimationSpec {
  name: string;
  direction?: string;
  frames: FrameSpec[];
  loopTo: number | null;
}

export const DEFAULT_FRAME_MS = 100;
const MAX_MS = 2147483647;

function bad(reason: string): never {
  throw new OptionError(`--animation: ${reason}`);
}

function wholeNumber(text: string, what: string, max = MAX_MS): number {
  if (!/^\d+$/.test(text)) bad(`${what} "${text}" is not a whole number`);
  const n = Number(text);
  if (n > max) bad(`${what} ${text} is too large`);
  return n;
}

/**
 * Checks the syntax of an animation description (no frame count yet): the
 * animations it names, with frame numbers unchecked. Throws OptionError.
 */
export function parseAnimations(text: string): AnimationSpec[] {
  const out: AnimationSpec[] = [];
  const seen = new Set<string>();
  const parts = text.split(';').map((s) => s.trim());
  if (parts.every((p) => p === '')) bad('no animation given');
  for (const part of parts) {
    if (part === '') continue;
    const colon = part.indexOf(':');
    if (colon < 0) bad(`"${part}" has no ":" (NAME:FRAMES, e.g. walk:0-7@100)`);
    const head = part.slice(0, colon).trim();
    const slash = head.indexOf('/');
    const name = (slash < 0 ? head : head.slice(0, slash)).trim();
    const direction = slash < 0 ? undefined : head.slice(slash + 1).trim();
    if (name === '') bad(`"${part}" has no animation name`);
    if (direction === '') bad(`"${part}" has an empty direction after "/"`);
    const key = `${name}\u0000${direction ?? ''}`;
    if (seen.has(key)) bad(`animation "${head}" is given twice`);
    seen.add(key);
    const [items = '', ...flags] = part
      .slice(colon + 1)
      .split(',')
      .map((s) => s.trim());
    if (items === '') bad(`animation "${head}" has no frames`);
    // Each item's frames and its own duration (-1: none given).
    const groups: { frames: FrameSpec[]; ms: number }[] = [];
    let count = 0;
    for (const item of items.split('+').map((s) => s.trim())) {
      const m = /^(\d+)(?:\s*-\s*(\d+))?(?:\s*@\s*(\S+))?$/.exec(item);
      if (!m) bad(`"${item}" in animation "${head}" is not FRAME, FRAME-FRAME or either with @MS`);
      let ms = -1;
      if (m[3] !== undefined) {
        ms = wholeNumber(m[3], 'the duration');
        if (ms < 1) bad(`the duration in "${item}" must be at least 1 ms`);
      }
      const a = wholeNumber(m[1]!, 'the frame number');
      const b = m[2] === undefined ? a : wholeNumber(m[2], 'the frame number');
      const step = b >= a ? 1 : -1;
      count += Math.abs(b - a) + 1;
      if (count > 1_000_000) bad(`animation "${head}" has too many frames`);
      const list: FrameSpec[] = [];
      for (let f = a; ; f += step) {
        list.push({ frame: f, durationMs: 0 });
        if (f === b) break;
      }
      groups.push({ frames: list, ms });
    }
    // An item without a duration takes the next one given after it, else the last one before it, else 100 ms.
    let next = -1;
    for (let k = groups.length - 1; k >= 0; k--) {
      const g = groups[k]!;
      if (g.ms >= 0) next = g.ms;
      else if (next >= 0) g.ms = next;
    }
    let previous = DEFAULT_FRAME_MS;
    const frames: FrameSpec[] = [];
    for (const g of groups) {
      if (g.ms < 0) g.ms = previous;
      previous = g.ms;
      for (const f of g.frames) frames.push({ frame: f.frame, durationMs: g.ms });
    }
    let loopTo: number | null = 0;
    for (const flag of flags) {
      if (flag === 'once') loopTo = null;
      else if (flag === 'loop') loopTo = 0;
      else if (flag.startsWith('loop=')) {
        loopTo = wholeNumber(flag.slice(5).trim(), 'the loop frame');
        if (loopTo >= frames.length)
          bad(`loop=${loopTo} in animation "${head}": it has ${frames.length} frame${frames.length === 1 ? '' : 's'}`);
      } else bad(`unknown flag "${flag}" in animation "${head}" (loop, loop=N or once)`);
    }
    out.push({ name, ...(direction !== undefined ? { direction } : {}), frames, loopTo });
  }
  return out;
}

/**
 * The animations for `count` frames: `text` parsed (every frame number
 * checked), or one looping animation `default` of every frame. `rowOf`
 * gives each frame's sheet row, for `NAME/rows`.
 */
export function animationsFor(text: string | undefined, count: number, rowOf?: (frame: number) => number): AnimationSpec[] {
  if (text === undefined) {
    return [{ name: 'default', frames: Array.from({ length: count }, (_, frame) => ({ frame, durationMs: DEFAULT_FRAME_MS })), loopTo: 0 }];
  }
  const out: AnimationSpec[] = [];
  for (const a of parseAnimations(text)) {
    for (const f of a.frames) {
      if (f.frame >= count)
        bad(
          `animation "${a.name}" uses frame ${f.frame}, but there ${count === 1 ? 'is 1 frame' : `are ${count} frames`} (0 to ${count - 1})`,
        );
    }
    if (a.direction !== 'rows') {
      out.push(a);
      continue;
    }
    if (!rowOf) bad(`animation "${a.name}/rows": directions by rows need a sheet, not a folder of frames`);
    // One direction per sheet row, in row order; the loop frame counts within each.
    const rows = new Map<number, FrameSpec[]>();
    for (const f of a.frames) {
      const r = rowOf(f.frame);
      const list = rows.get(r);
      if (list) list.push(f);
      else rows.set(r, [f]);
    }
    [...rows.entries()]
      .sort((x, y) => x[0] - y[0])
      .forEach(([, frames], k) => {
        const loopTo = a.loopTo === null ? null : a.loopTo < frames.length ? a.loopTo : 0;
        out.push({ name: a.name, direction: String(k), frames, loopTo });
      });
  }
  return out;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A cell of a sheet, with the row it is on. */
export interface Cell extends Rect {
  row: number;
}

/**
 * How many whole cells of `cell` size a `width` × `height` sheet holds with
 * `margin` pixels before the first column and row and `spacing` between cells:
 * the margin counts once, as Tiled's `Tileset::columnCountForWidth` and
 * `rowCountForHeight` count it (`(width - margin + spacing) / (tileWidth +
 * spacing)`), so a sheet without the right and bottom margin loses no cell.
 * The one grid count of a sheet or tileset image (Tiled's drawing and
 * converting, `sprat new --cell`).
 */
export function gridSize(
  width: number,
  height: number,
  cell: { width: number; height: number },
  margin = 0,
  spacing = 0,
): { columns: number; rows: number } {
  const count = (size: number, step: number) => (step > 0 ? Math.max(0, Math.floor((size - margin + spacing) / step)) : 0);
  return { columns: count(width, cell.width + spacing), rows: count(height, cell.height + spacing) };
}

/**
 * The cells of a grid: `cell` size, `margin` pixels before the grid (left
 * and top; the right and bottom ones may be missing), `spacing` pixels
 * between cells; row by row, whole cells only (`gridSize`).
 */
export function gridCells(
  width: number,
  height: number,
  cell: { width: number; height: number },
  margin = 0,
  spacing = 0,
  budget?: Budget,
): Cell[] {
  const { columns, rows } = gridSize(width, height, cell, margin, spacing);
  if (columns < 1 || rows < 1) {
    throw new OptionError(
      `--cell ${cell.width}x${cell.height}: no whole cell fits the ${width}x${height} sheet${margin || spacing ? ` with margin ${margin} and spacing ${spacing}` : ''}`,
    );
  }
  budget?.spend('maxItems', columns * rows, `the ${columns}x${rows} cells of the sheet`);
  budget?.spend(
    'maxWork',
    columns * rows * (WORK_STEPS.splitCell + cell.width * cell.height * WORK_STEPS.splitPixel),
    `splitting the sheet into ${columns}x${rows} cells of ${cell.width}x${cell.height}`,
  );
  const out: Cell[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      out.push({
        x: margin + c * (cell.width + spacing),
        y: margin + r * (cell.height + spacing),
        width: cell.width,
        height: cell.height,
        row: r,
      });
    }
  }
  return out;
}

/**
 * The cells of a sheet found from its transparent gutters: the bands of
 * rows holding any visible pixel, then, within each band, the bands of
 * columns holding one. Each cell is the band rectangle (so `--origin` is
 * relative to it); a sheet whose sprites do not touch the edges of equal
 * cells should be cut with `--cell` instead.
 */
export function gutterCells(image: RgbaImage, budget?: Budget): Cell[] {
  const { width, height, data } = image;
  const visible = (x: number, y: number) => data[(y * width + x) * 4 + 3]! !== 0;
  const bands = (n: number, test: (i: number) => boolean): [number, number][] => {
    const out: [number, number][] = [];
    let start = -1;
    for (let i = 0; i <= n; i++) {
      const on = i < n && test(i);
      if (on && start < 0) start = i;
      if (!on && start >= 0) {
        out.push([start, i]);
        start = -1;
      }
    }
    return out;
  };
  const cells: Cell[] = [];
  const rowBands = bands(height, (y) => {
    for (let x = 0; x < width; x++) if (visible(x, y)) return true;
    return false;
  });
  rowBands.forEach(([y0, y1], row) => {
    const colBands = bands(width, (x) => {
      for (let y = y0; y < y1; y++) if (visible(x, y)) return true;
      return false;
    });
    budget?.spend('maxItems', colBands.length, `the cells of row ${row} of the sheet`);
    budget?.spend(
      'maxWork',
      colBands.reduce((n, [x0, x1]) => n + WORK_STEPS.splitCell + (x1 - x0) * (y1 - y0) * WORK_STEPS.splitPixel, 0),
      `splitting row ${row} of the sheet into cells`,
    );
    for (const [x0, x1] of colBands) cells.push({ x: x0, y: y0, width: x1 - x0, height: y1 - y0, row });
  });
  if (cells.length === 0) throw new OptionError('the sheet has no visible pixel: no cell found (give --cell WxH)');
  return cells;
}

export interface BuildOptions {
  /** The sprite's name (the model's). */
  name: string;
  /** The path the model's one sheet gets (the atlas a format writes or names). */
  sheetPath: string;
  /** The sprite origin inside each frame (its cell), from the upper-left corner. */
  origin?: { x: number; y: number };
  /** Trim each frame to its visible pixels (default true); false keeps every frame at its full size. */
  trim?: boolean;
  budget?: Budget;
}

/** A quick hash of an image's bytes (FNV-1a), to find identical images; equal hashes are confirmed by `sameBytes`. */
export function hashBytes(d: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < d.length; i++) h = Math.imul(h ^ d[i]!, 0x01000193);
  return h >>> 0;
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function sameImage(a: RgbaImage, b: RgbaImage): boolean {
  return a.width === b.width && a.height === b.height && sameBytes(a.data, b.data);
}

/**
 * The sprite: one sheet packing every frame the animations use once (trimmed
 * to its visible pixels unless `trim` is false; identical images stored once;
 * 1 px between them), each model frame one part of it placed around the
 * origin. `notes` says which frames no animation uses (left out).
 */
export function spriteFromFrames(frames: readonly RgbaImage[], animations: readonly AnimationSpec[], options: BuildOptions): SpriteModel {
  const origin = options.origin ?? { x: 0, y: 0 };
  const trim = options.trim !== false;
  const budget = options.budget;
  const used = new Set<number>();
  for (const a of animations) for (const f of a.frames) used.add(f.frame);
  const uniques: RgbaImage[] = [];
  const byHash = new Map<number, number[]>();
  // Per frame used: its unique image and where that goes in the frame.
  const placed = new Map<number, { unique: number; dx: number; dy: number }>();
  for (const i of [...used].sort((a, b) => a - b)) {
    const img = frames[i]!;
    const ob = trim ? opaqueBounds(img) : { x: 0, y: 0, width: img.width, height: img.height };
    let cut: RgbaImage;
    if (!ob || ob.width === 0 || ob.height === 0) cut = createImage(1, 1);
    else if (ob.x === 0 && ob.y === 0 && ob.width === img.width && ob.height === img.height) cut = img;
    else {
      budget?.spend('maxPixels', ob.width * ob.height, `frame ${i} (${ob.width}x${ob.height})`);
      cut = cropImage(img, ob.x, ob.y, ob.width, ob.height);
    }
    const h = hashBytes(cut.data);
    const list = byHash.get(h) ?? [];
    let u = list.find((k) => sameImage(uniques[k]!, cut));
    if (u === undefined) {
      u = uniques.push(cut) - 1;
      list.push(u);
      byHash.set(h, list);
    }
    placed.set(i, { unique: u, dx: ob ? ob.x : 0, dy: ob ? ob.y : 0 });
  }
  const packed = packRects(
    uniques.map((u) => ({ w: u.width, h: u.height })),
    { padding: 1 },
  );
  const atlas = drawSheet(
    uniques.map((image, k) => ({ image, ...packed.positions[k]! })),
    Math.max(1, packed.width),
    Math.max(1, packed.height),
    budget,
  );
  const modelAnimations: ModelAnimation[] = animations.map((a) => ({
    name: a.name,
    ...(a.direction !== undefined ? { direction: a.direction } : {}),
    loopTo: a.loopTo,
    frames: a.frames.map((f) => {
      const p = placed.get(f.frame)!;
      const img = uniques[p.unique]!;
      const at = packed.positions[p.unique]!;
      return {
        durationMs: f.durationMs,
        parts: [{ sheet: 0, sx: at.x, sy: at.y, sw: img.width, sh: img.height, x: p.dx - origin.x, y: p.dy - origin.y }],
        // The frame's cell around the origin: the untrimmed box sheet exports write.
        canvas: { x: -origin.x, y: -origin.y, width: frames[f.frame]!.width, height: frames[f.frame]!.height },
      };
    }),
  }));
  const model: SpriteModel = {
    kind: 'sprite',
    name: options.name,
    sheets: [{ path: options.sheetPath, image: atlas, nearest: true }],
    animations: modelAnimations,
  };
  const unused = frames.map((_, i) => i).filter((i) => !used.has(i));
  if (unused.length) {
    model.notes = [
      `${unused.length === 1 ? 'frame' : 'frames'} ${numberRanges(unused)} ${unused.length === 1 ? 'is' : 'are'} in no animation: left out`,
    ];
  }
  return model;
}

/** The frames of a sheet: its cells cut out (each paid from the budget's pixels). */
export function cutCells(sheet: RgbaImage, cells: readonly Rect[], budget?: Budget): RgbaImage[] {
  return cells.map((c, i) => {
    budget?.spend('maxPixels', c.width * c.height, `cell ${i} (${c.width}x${c.height})`);
    return cropImage(sheet, c.x, c.y, c.width, c.height);
  });
}
