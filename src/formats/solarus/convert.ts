/**
 * Between a Solarus sheet and the common SpriteModel: each animation and
 * direction becomes a model animation (direction "0", "1", ...) whose frames
 * are one part each, cut from the sheet grid, pivoting on the origin.
 */
import { FormatError, isFormatError, OptionError } from '../../binary/errors.js';
import type { LevelModel, ModelAnimation, ModelSheet, SpriteModel } from '../../model/types.js';
import type { CommandOptions, ResourceLoader } from '../types.js';
import { listed, NOTE_NAMES } from '../options.js';
import { describeLocation } from '../../binary/errors.js';
import { renderModelAnimation } from '../../model/bake.js';
import type { RgbaImage } from '../../render/image.js';
import { drawSheet } from '../../model/pack.js';
import { budgetFrom, type Budget } from '../../binary/limits.js';
import {
  BAKED_IMAGE,
  FIELD_NAMES,
  MAX_INT,
  frameRect,
  positionsOf,
  type SolarusAnimation,
  type SolarusDirection,
  type SolarusSheet,
  type SolarusSyntax,
} from './model.js';
import { sheetCache } from './resources.js';
import { timingNotes, type FrameAt } from '../../model/timing.js';
import { animationsOf } from './compact.js';
import { compassNumbers } from '../../model/directions.js';

export async function sheetToModel(
  format: SolarusSyntax,
  sheet: SolarusSheet,
  resources: ResourceLoader,
  options: CommandOptions = {},
): Promise<SpriteModel> {
  // nb_frames is a number in the text: 10^9 frames fit in 40 bytes. Count them before making any.
  const budget = budgetFrom(options);
  // The animations made once (a sheet read from a file stays compact).
  const all = animationsOf(sheet);
  for (const a of all) {
    a.directions.forEach((d, k) =>
      budget.spend('maxItems', d.frameCount, `the ${d.frameCount} frames of animation "${a.name}" direction ${k}`),
    );
  }
  const sheets: ModelSheet[] = [];
  const index = new Map<string, number>();
  const notes: string[] = [];
  const loadSheet = sheetCache(format, resources, options);
  for (const a of all) {
    if (index.has(a.image)) continue;
    index.set(a.image, sheets.length);
    const s: ModelSheet = { path: a.image, nearest: true };
    try {
      s.image = await loadSheet(a.image);
    } catch (e) {
      if (!isFormatError(e) && !(e instanceof OptionError)) throw e;
      s.loadError = e.message;
      notes.push(`image "${a.image}" not loaded: ${e.message}`);
    }
    sheets.push(s);
  }
  const animations: ModelAnimation[] = [];
  for (const [i, a] of all.entries()) {
    const where = a.directions.some((d) => d.columns > d.frameCount) || a.loopOnFrame >= 0 ? positionsOf(sheet, i) : undefined;
    a.directions.forEach((d, k) => {
      if (d.columns > d.frameCount) {
        const at = where?.directions[k];
        notes.push(
          `animation "${a.name}" direction ${k}: num_columns ${d.columns} > num_frames ${d.frameCount} (one row; Solarus 1.x rejects this, so it is written as ${d.frameCount})${at ? ` (${describeLocation(at)})` : ''}`,
        );
      }
      const loopOk = a.loopOnFrame >= 0 && a.loopOnFrame < d.frameCount;
      if (a.loopOnFrame >= d.frameCount) {
        const at = where?.loopOnFrame;
        notes.push(
          `animation "${a.name}" direction ${k}: loop_on_frame ${a.loopOnFrame} is out of range and was dropped${at ? ` (${describeLocation(at)})` : ''}`,
        );
      }
      const frames = [];
      for (let j = 0; j < d.frameCount; j++) {
        const r = frameRect(d, j);
        frames.push({
          durationMs: a.frameDelay > 0 ? a.frameDelay : Infinity,
          parts: [
            { sheet: index.get(a.image)!, sx: r.x, sy: r.y, sw: r.width, sh: r.height, x: 0, y: 0, originX: d.originX, originY: d.originY },
          ],
          // The direction's frame box around its origin (what the sheet formats write as the untrimmed size).
          canvas: { x: -d.originX, y: -d.originY, width: r.width, height: r.height },
        });
      }
      animations.push({ name: a.name, direction: String(k), frames, loopTo: loopOk ? a.loopOnFrame : null });
    });
  }
  const model: SpriteModel = { kind: 'sprite', name: 'sprite', sheets, animations };
  if (all.some((a) => a.loopOnFrame === -1)) {
    notes.push('animations with loop_on_frame -1 disappear after their last frame in Solarus; the model stops on the last frame');
  }
  if (notes.length) model.notes = notes;
  return model;
}

/**
 * Between the two Solarus syntaxes, without the common model: both hold the
 * same SolarusSheet, so every field is kept as it is (num_columns above
 * num_frames too) and no image is loaded. Undefined for any other target.
 * Going to the Lua syntax notes what Solarus 1.x rejects (docs/spec/solarus.md, rule 6);
 * a name or image the line syntax cannot write is refused when writing.
 */
export function convertSyntax(sheet: SolarusSheet, target: string): { doc: SolarusSheet; notes: string[] } | undefined {
  if (target !== 'solarus' && target !== 'solarus-lua') return undefined;
  const notes: string[] = [];
  if (target === 'solarus-lua') {
    animationsOf(sheet).forEach((a, i) => {
      a.directions.forEach((d, k) => {
        if (d.columns <= d.frameCount) return;
        const at = positionsOf(sheet, i)?.directions[k];
        notes.push(
          `animation "${a.name}" direction ${k}: num_columns ${d.columns} > num_frames ${d.frameCount}, which Solarus 1.x rejects (kept: one row)${at ? ` (${describeLocation(at)})` : ''}`,
        );
      });
    });
  }
  return { doc: sheet, notes };
}

function cannot(format: string, reason: string): never {
  throw new FormatError(format, `cannot write this sprite as a Solarus sheet: ${reason}`);
}

/**
 * Rebuilds a Solarus sheet from a SpriteModel: exactly when every frame is one
 * plain rectangle on a grid of one sheet (as Solarus sheets are), else by
 * redrawing every frame into a new sheet (`bakedImage`) when the model's sheets
 * have their pixels.
 */
export function modelToSheet(format: SolarusSyntax, model: SpriteModel | LevelModel, options: CommandOptions = {}): SolarusSheet {
  const opts = { clamp: options.clamp === true };
  if (model.kind !== 'sprite') cannot(format, 'it is a level, not a sprite');
  const sheet = modelToSheetFrames(format, model, options);
  const notes = delayNotes(format, model, sheet);
  for (const n of orderDirections(format, model, sheet)) notes.push(n);
  // A delay the engine's C int cannot hold: refused when written, or clamped with a note.
  for (const a of sheet.animations) {
    if (opts.clamp && a.frameDelay > MAX_INT) {
      notes.push(
        `animation "${a.name}" ${FIELD_NAMES[format].frameDelay} ${a.frameDelay} clamped to ${MAX_INT} (the engine reads a C int)`,
      );
      a.frameDelay = MAX_INT;
    }
  }
  if (notes.length) model.notes = [...(model.notes ?? []), ...notes];
  return sheet;
}

/**
 * The one frame_delay of each animation (Solarus has no per-frame or
 * per-direction delays): the duration most of its frames (over all its
 * directions) have, whole milliseconds, the earliest on a tie; 0 (the first
 * frame shows forever) when every frame lasts forever.
 */
export function frameDelayOf(model: SpriteModel, name: string): number {
  const counts = new Map<number, number>();
  for (const m of model.animations) {
    if (m.name !== name) continue;
    for (const f of m.frames) {
      const d = Number.isFinite(f.durationMs) ? Math.max(0, Math.round(f.durationMs)) : 0;
      counts.set(d, (counts.get(d) ?? 0) + 1);
    }
  }
  let best = 0;
  let most = 0;
  for (const [d, n] of counts) {
    if (n > most) {
      best = d;
      most = n;
    }
  }
  return best;
}

/**
 * Directions are numbered by their place in the sheet. Model directions
 * named 0 … n-1 go to that place (whatever order the model lists them in);
 * compass names (CTHG's views) go to their number by the one table of
 * src/model/directions.ts when they fill 0 … n-1 (the CTHG writer maps them
 * back by it); other names ("left", ...) keep the model's order. A note says
 * which number each name became.
 */
function orderDirections(format: SolarusSyntax, model: SpriteModel, sheet: SolarusSheet): string[] {
  const notes: string[] = [];
  // Animations with no direction, written as their direction 0: reading the sheet back gives them one.
  const undirected: string[] = [];
  const compassed: string[] = [];
  for (const a of sheet.animations) {
    const labels = model.animations.filter((m) => m.name === a.name).map((m) => m.direction);
    if (labels.length === a.directions.length && labels.every((l) => l === undefined)) {
      // Several of one name (two Aseprite tags "fall") become its directions 0, 1, ...
      undirected.push(
        `${JSON.stringify(a.name)}${labels.length > 1 ? ` (${labels.length} of that name: directions 0 to ${labels.length - 1})` : ''}`,
      );
    }
    if (labels.length !== a.directions.length || labels.every((l) => l === undefined)) continue;
    const n = labels.length;
    let numbers = labels.map((l) => (l !== undefined && /^\d+$/.test(l) ? Number(l) : -1));
    // Compass names (CTHG's views) by the one table both ways (src/model/directions.ts), with a note saying which number each became.
    const compass = labels.every((l) => l !== undefined) ? compassNumbers(labels as string[]) : undefined;
    if (compass) numbers = compass;
    if (new Set(numbers).size === n && numbers.every((k) => k >= 0 && k < n)) {
      const dirs = a.directions.slice();
      numbers.forEach((k, i) => (a.directions[k] = dirs[i]!));
      if (compass) compassed.push(`"${a.name}" ${labels.map((l, i) => `${l} -> ${numbers[i]}`).join(', ')}`);
      continue;
    }
    notes.push(
      `${format}: animation "${a.name}": directions ${labels.map((l, i) => `${l ?? '(none)'} -> ${i}`).join(', ')} (Solarus numbers its directions)`,
    );
  }
  if (undirected.length) {
    notes.push(`${format}: animations with no direction are written as direction 0: ${listed(undirected, NOTE_NAMES)}`);
  }
  if (compassed.length) {
    notes.push(
      `${format}: compass directions are written as Solarus numbers them (0 east, 1 north, 2 west, 3 south; one direction: 0): ${listed(compassed, NOTE_NAMES)}`,
    );
  }
  return notes;
}

/** A note for every frame whose duration the sheet's one frame_delay per animation changes. */
function delayNotes(format: SolarusSyntax, model: SpriteModel, sheet: SolarusSheet): string[] {
  const delays = new Map(sheet.animations.map((a) => [a.name, a.frameDelay]));
  const changes: { at: FrameAt; fromMs: number; toMs: number }[] = [];
  for (const m of model.animations) {
    const d = delays.get(m.name);
    if (d === undefined) continue;
    m.frames.forEach((f, j) => {
      // frame_delay 0: the first frame shows forever (the model reads every frame of it so).
      const toMs = d === 0 ? Infinity : d;
      changes.push({ at: { animation: m.name, direction: m.direction, frame: j }, fromMs: f.durationMs, toMs });
    });
  }
  return timingNotes(format, 'Solarus has one frame_delay per animation', changes);
}

function modelToSheetFrames(format: SolarusSyntax, model: SpriteModel, options: CommandOptions): SolarusSheet {
  try {
    return gridSheet(format, model);
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    const missing = model.animations.some((m) => m.frames.some((f) => f.parts.some((p) => !model.sheets[p.sheet]?.image)));
    if (missing || model.animations.length === 0) {
      throw new FormatError(format, `${e.message}, and the sheets' pixels are not available to redraw the frames`);
    }
    return bakedSheet(format, model, budgetFrom(options));
  }
}

/** Every model animation drawn into one new sheet: one row per direction, frames left to right. */
function bakedSheet(format: SolarusSyntax, model: SpriteModel, budget: Budget): SolarusSheet {
  const rows = model.animations.map((m, i) => {
    const baked = renderModelAnimation(model, i, budget);
    const first = baked.frames[0];
    if (!first) cannot(format, `animation "${m.name}" has no frames`);
    return { m, baked, w: first.width, h: first.height };
  });
  let width = 1;
  let height = 0;
  const items: { image: RgbaImage; x: number; y: number }[] = [];
  for (const r of rows) {
    width = Math.max(width, r.w * r.baked.frames.length);
    r.baked.frames.forEach((f, j) => items.push({ image: f, x: j * r.w, y: height }));
    height += r.h;
  }
  const image = drawSheet(items, width, Math.max(1, height), budget);
  const byName = new Map<string, SolarusAnimation>();
  const animations: SolarusAnimation[] = [];
  let y = 0;
  for (const { m, baked, w, h } of rows) {
    const n = baked.frames.length;
    const d: SolarusDirection = {
      x: 0,
      y,
      frameWidth: w,
      frameHeight: h,
      originX: baked.originX,
      originY: baked.originY,
      frameCount: n,
      columns: n,
    };
    y += h;
    let a = byName.get(m.name);
    if (!a) {
      const frameDelay = frameDelayOf(model, m.name);
      a = { name: m.name, image: BAKED_IMAGE, frameDelay, loopOnFrame: m.loopTo === null ? -1 : m.loopTo, directions: [] };
      byName.set(m.name, a);
      animations.push(a);
    }
    a.directions.push(d);
  }
  return { animations, bakedImage: image };
}

function gridSheet(format: SolarusSyntax, model: SpriteModel): SolarusSheet {
  const byName = new Map<string, SolarusAnimation>();
  const animations: SolarusAnimation[] = [];
  for (const m of model.animations) {
    const where = `animation "${m.name}"${m.direction !== undefined ? ` direction ${m.direction}` : ''}`;
    if (m.frames.length === 0) cannot(format, `${where} has no frames`);
    const parts = m.frames.map((f, j) => {
      if (f.parts.length !== 1) cannot(format, `${where} frame ${j} has ${f.parts.length} parts (Solarus frames are one rectangle)`);
      const p = f.parts[0]!;
      if (
        p.flipX ||
        p.flipY ||
        (p.rotation ?? 0) !== 0 ||
        (p.scaleX ?? 1) !== 1 ||
        (p.scaleY ?? 1) !== 1 ||
        p.rotatedInSheet ||
        (p.opacity ?? 1) !== 1
      ) {
        cannot(format, `${where} frame ${j} is flipped, rotated, scaled or translucent`);
      }
      return p;
    });
    const p0 = parts[0]!;
    const sheet = model.sheets[p0.sheet];
    if (!sheet) cannot(format, `${where} names sheet ${p0.sheet}, which does not exist`);
    // src_image names a PNG file; a sheet whose pixels are here but whose name is no such file (a native .aseprite's cels in memory, an ISPRITE
    // texture named without its extension; `tileset` is the map's tileset, as named) is redrawn into a new sheet instead (modelToSheetFrames).
    if (sheet.image && sheet.path !== 'tileset' && !/\.png$/i.test(sheet.path))
      cannot(format, `${where} draws from "${sheet.path}", which is not a PNG file name`);
    const originX = (p0.originX ?? 0) - p0.x;
    const originY = (p0.originY ?? 0) - p0.y;
    // The grid: columns = frames on the first row.
    let columns = 1;
    while (columns < parts.length && parts[columns]!.sy === p0.sy && parts[columns]!.sx === p0.sx + columns * p0.sw) columns++;
    const d: SolarusDirection = {
      x: p0.sx,
      y: p0.sy,
      frameWidth: p0.sw,
      frameHeight: p0.sh,
      originX,
      originY,
      frameCount: parts.length,
      columns,
    };
    parts.forEach((p, j) => {
      const r = frameRect(d, j);
      if (p.sheet !== p0.sheet || p.sx !== r.x || p.sy !== r.y || p.sw !== r.width || p.sh !== r.height) {
        cannot(format, `${where} frame ${j} is not on the grid of frame 0 (Solarus frames are equal rectangles, row by row)`);
      }
      if ((p.originX ?? 0) - p.x !== originX || (p.originY ?? 0) - p.y !== originY)
        cannot(format, `${where} frame ${j} has another origin than frame 0`);
    });
    for (const v of [d.x, d.y, d.frameWidth, d.frameHeight, d.originX, d.originY]) {
      if (!Number.isInteger(v)) cannot(format, `${where} has a non-integer position or size`);
    }
    if (d.frameWidth < 1 || d.frameHeight < 1) cannot(format, `${where} has an empty frame`);
    const frameDelay = frameDelayOf(model, m.name);
    const loopOnFrame = m.loopTo === null ? -1 : m.loopTo;
    let a = byName.get(m.name);
    if (!a) {
      a = { name: m.name, image: sheet.path, frameDelay, loopOnFrame, directions: [] };
      byName.set(m.name, a);
      animations.push(a);
    } else if (a.image !== sheet.path) {
      cannot(format, `the directions of animation "${m.name}" use different images`);
    }
    a.directions.push(d);
  }
  return { animations };
}
