/**
 * Conversions through the common SpriteModel. To the model, each animation
 * becomes the frames its next-frame chain visits from frame 0 (docs/spec/hallgeir.md's
 * "converting to ISPRITE"): frames in chain order, `loopTo` the position of
 * the first frame visited again, or null when the chain ends on a frame that
 * holds forever (duration Infinity). Frames the chain never reaches are
 * dropped and reported in the notes, as is the largest timing error at the
 * best whole frame rate when no rate up to 255 fps makes every delay exact.
 */
import { FormatError, isFormatError } from '../../binary/errors.js';
import { Budget, budgetFrom } from '../../binary/limits.js';
import { bakeFrame } from '../../model/bake.js';
import { drawSheet, packRects } from '../../model/pack.js';
import type { RgbaImage } from '../../render/image.js';
import { hashBytes, sameBytes } from '../../model/frames.js';
import type { LevelModel, ModelAnimation, ModelSheet, SpriteModel } from '../../model/types.js';
import { chooseFrameRate } from '../../model/timing.js';
import type { CommandOptions, ResourceLoader } from '../types.js';
import { listed, NOTE_NAMES } from '../options.js';
import type { HallgeirAnimation, HallgeirFrame, HallgeirSprite } from './model.js';
import { framesOf, type FrameTable } from './compact.js';
import { frameChain } from './play.js';
import { loadTextureByName, requireFrameSize } from './resources.js';

const FORMAT = 'hallgeir-sprite';

function holds(frames: FrameTable, j: number): boolean {
  return frames.next(j) === -1 || !(frames.delay(j) > 0);
}

/** Formats a number of milliseconds briefly (at most 3 decimals). */
function ms(x: number): string {
  return String(Math.round(x * 1000) / 1000);
}

export async function spriteToModel(doc: HallgeirSprite, resources: ResourceLoader, options: CommandOptions = {}): Promise<SpriteModel> {
  const size = requireFrameSize(options, FORMAT, 'converting a sprite');
  const notes: string[] = [];
  const sheet: ModelSheet = { path: doc.texture, nearest: true };
  try {
    const t = await loadTextureByName(resources, '', doc.texture, FORMAT, options);
    sheet.path = t.path;
    sheet.image = t.image;
  } catch (e) {
    if (!isFormatError(e)) throw e;
    sheet.loadError = e.message;
    notes.push(`the texture was not loaded (${e.message}); the sheet has no pixels`);
  }
  const animations: ModelAnimation[] = [];
  const delays: number[] = [];
  for (const a of doc.animations) {
    const { chain, loopTo, dropped } = frameChain(a);
    const frames = framesOf(a);
    if (frames.length === 0) notes.push(`animation ${JSON.stringify(a.name)} has no frames`);
    if (dropped.length) {
      notes.push(
        `animation ${JSON.stringify(a.name)}: frame${dropped.length === 1 ? '' : 's'} ${dropped.join(', ')} never shown by playback, dropped`,
      );
    }
    animations.push({
      name: a.name,
      loopTo,
      frames: chain.map((j) => {
        const held = holds(frames, j);
        const delay = frames.delay(j);
        if (!held) delays.push(delay);
        return {
          durationMs: held ? Infinity : delay * 1000,
          parts: [{ sheet: 0, sx: frames.x(j), sy: frames.y(j), sw: size.width, sh: size.height, x: 0, y: 0 }],
          // The frame size, the origin at its corner (what the sheet formats write as the untrimmed size).
          canvas: { x: 0, y: 0, width: size.width, height: size.height },
        };
      }),
    });
  }
  const rate = chooseFrameRate(delays);
  if (!rate.exact) {
    notes.push(
      `no whole frame rate up to 255 fps makes every delay exact: for frame-based targets the best is ${rate.fps} fps, where the largest error is ${ms(rate.maxError * 1000)} ms`,
    );
  }
  return { kind: 'sprite', name: doc.name, sheets: [sheet], animations, notes };
}

function cannot(reason: string): never {
  throw new FormatError(FORMAT, `cannot be written as a Hallgeir sprite: ${reason}`);
}

const label = (a: ModelAnimation): string => (a.direction ? `${a.name}_${a.direction}` : a.name);

/**
 * True when every frame is one upright, opaque rectangle of one named texture
 * at the frame's corner, all of one size: the sprite can name that texture.
 * Anything else (trimmed sheet frames at an offset, several parts, a native
 * .aseprite's cels with no file) is drawn into a new texture (`bakeTexture`).
 */
function namesItsTexture(model: SpriteModel): boolean {
  let sheet: number | undefined;
  let size: string | undefined;
  for (const a of model.animations)
    for (const fr of a.frames) {
      if (fr.parts.length !== 1) return false;
      const p = fr.parts[0]!;
      if (sheet === undefined) sheet = p.sheet;
      else if (p.sheet !== sheet) return false;
      const s = `${p.sw}x${p.sh}`;
      if (size === undefined) size = s;
      else if (s !== size) return false;
      if (p.flipX || p.flipY || p.rotatedInSheet || (p.rotation ?? 0) !== 0 || (p.scaleX ?? 1) !== 1 || (p.scaleY ?? 1) !== 1) return false;
      if ((p.opacity ?? 1) !== 1) return false;
      if (p.x - (p.originX ?? 0) !== 0 || p.y - (p.originY ?? 0) !== 0) return false;
      if (!Number.isInteger(p.sx) || !Number.isInteger(p.sy) || !Number.isInteger(p.sw) || !Number.isInteger(p.sh)) return false;
    }
  return !!model.sheets[sheet ?? 0]?.path;
}

/** A box as [x0, y0, x1, y1] in sprite space. */
type Box = [number, number, number, number];

interface BakedTexture {
  image: RgbaImage;
  /** Each animation's frames' cells (upper-left corners) in `image`. */
  cells: { x: number; y: number }[][];
  /** The frame size (every cell's). */
  width: number;
  height: number;
  /** The sprite origin's place in a cell before baking: where the cell's corner was in sprite space. */
  x0: number;
  y0: number;
}

/**
 * Every frame drawn (the one picture pipeline, src/model/bake.ts) into a
 * cell of one frame size: the union of the frames' canvases (their untrimmed
 * boxes) and what they show, and the sprite origin, so a trimmed frame is
 * untrimmed to its canvas. Identical cells are stored once, laid out by the
 * one packer (src/model/pack.ts).
 */
function bakeTexture(model: SpriteModel, budget: Budget): BakedTexture {
  const used = new Set<number>();
  for (const a of model.animations) for (const f of a.frames) for (const p of f.parts) used.add(p.sheet);
  model.sheets.forEach((s, i) => {
    if (used.has(i) && !s.image) cannot(s.loadError ?? `the pixels of "${s.path}" (drawn into its new texture) were not loaded`);
  });
  let box: Box = [0, 0, 0, 0];
  const grow = (x0: number, y0: number, x1: number, y1: number) => {
    box = [Math.min(box[0], x0), Math.min(box[1], y0), Math.max(box[2], x1), Math.max(box[3], y1)];
  };
  const baked = model.animations.map((a) =>
    a.frames.map((f) => {
      const b = bakeFrame(model, f, budget);
      const ox = Math.round(b.originX);
      const oy = Math.round(b.originY);
      if (f.canvas)
        grow(
          Math.floor(f.canvas.x),
          Math.floor(f.canvas.y),
          Math.ceil(f.canvas.x + f.canvas.width),
          Math.ceil(f.canvas.y + f.canvas.height),
        );
      if (b.image.width && b.image.height) grow(-ox, -oy, b.image.width - ox, b.image.height - oy);
      return { image: b.image, ox, oy };
    }),
  );
  const width = Math.max(1, box[2] - box[0]);
  const height = Math.max(1, box[3] - box[1]);
  // Identical cells once: the same pixels at the same place in the cell.
  const uniques: { image: RgbaImage; dx: number; dy: number }[] = [];
  const byKey = new Map<string, number>();
  const index = baked.map((frames) =>
    frames.map(({ image, ox, oy }) => {
      const dx = -ox - box[0];
      const dy = -oy - box[1];
      const key = `${dx},${dy},${image.width}x${image.height}:${hashBytes(image.data)}`;
      let u = byKey.get(key);
      if (u === undefined || !sameBytes(uniques[u]!.image.data, image.data)) {
        u = uniques.push({ image, dx, dy }) - 1;
        byKey.set(key, u);
      }
      return u;
    }),
  );
  const packed = packRects(
    uniques.map(() => ({ w: width, h: height })),
    { padding: 1 },
  );
  const image = drawSheet(
    uniques.map((u, i) => ({ image: u.image, x: packed.positions[i]!.x + u.dx, y: packed.positions[i]!.y + u.dy })),
    Math.max(1, packed.width),
    Math.max(1, packed.height),
    budget,
  );
  const cells = index.map((frames) => frames.map((u) => packed.positions[u]!));
  return { image, cells, width, height, x0: box[0], y0: box[1] };
}

/** `cell`: where frame i is in the texture. */
function animationFromModel(a: ModelAnimation, cell: (i: number) => { x: number; y: number }): HallgeirAnimation {
  const n = a.frames.length;
  const frames = a.frames.map((fr, i): HallgeirFrame => {
    const { x, y } = cell(i);
    const forever = !Number.isFinite(fr.durationMs) || fr.durationMs <= 0;
    const last = i === n - 1;
    const next = forever ? -1 : last ? (a.loopTo !== null && a.loopTo >= 0 && a.loopTo < n ? a.loopTo : -1) : i + 1;
    return { x, y, delay: forever ? 0 : fr.durationMs / 1000, next };
  });
  return { name: label(a), frames };
}

/**
 * The frame size of the Hallgeir sprite `spriteFromModel` writes for `model`
 * (the file does not store it: reading the sprite back needs it as
 * --frame-size); undefined for a sprite with no frames.
 */
export function hallgeirFrameSizeOf(model: SpriteModel, budget: Budget = new Budget()): { width: number; height: number } | undefined {
  const first = model.animations.flatMap((a) => a.frames)[0];
  if (!first) return undefined;
  if (namesItsTexture(model)) return { width: first.parts[0]!.sw, height: first.parts[0]!.sh };
  const t = bakeTexture(model, budget);
  return { width: t.width, height: t.height };
}

export function spriteFromModel(model: SpriteModel | LevelModel, options: CommandOptions = {}): HallgeirSprite {
  if (model.kind !== 'sprite') cannot('it is a level, not a sprite');
  const notes: string[] = [];
  let doc: HallgeirSprite;
  if (namesItsTexture(model)) {
    const first = model.animations.flatMap((a) => a.frames)[0]?.parts[0];
    const animations = model.animations.map((a) =>
      animationFromModel(a, (i) => ({ x: a.frames[i]!.parts[0]!.sx, y: a.frames[i]!.parts[0]!.sy })),
    );
    doc = { kind: 'sprite', littleEndian: true, name: model.name, texture: model.sheets[first?.sheet ?? 0]?.path ?? '', animations };
  } else {
    const t = bakeTexture(model, budgetFrom(options));
    const animations = model.animations.map((a, ai) => animationFromModel(a, (i) => t.cells[ai]![i]!));
    doc = { kind: 'sprite', littleEndian: true, name: model.name, texture: '', animations };
    Object.defineProperty(doc, 'bakedTexture', { value: t.image, enumerable: false, writable: true, configurable: true });
    notes.push(
      `hallgeir-sprite: the frames were drawn into a new texture beside the sprite, named after it (.png), in frames of ${t.width}x${t.height}: read the sprite with --frame-size ${t.width}x${t.height}`,
    );
    // A Hallgeir frame is drawn from its upper-left corner: pixels left of or above the origin move with it.
    if (t.x0 !== 0 || t.y0 !== 0) {
      const moved = model.animations.filter((a) => a.frames.some((f) => f.parts.length)).map((a) => JSON.stringify(label(a)));
      if (moved.length)
        notes.push(
          `hallgeir-sprite: a frame is drawn from its upper-left corner; the sprite origin moved there, ${-t.x0},${-t.y0} pixels up and left of where it was: ${listed(moved, NOTE_NAMES)}`,
        );
    }
  }
  // A sprite has no directions: an animation's direction becomes part of its name (animationFromModel).
  const named = model.animations.filter((a) => a.direction).map((a) => JSON.stringify(label(a)));
  if (named.length)
    notes.push(`hallgeir-sprite: a sprite has no directions; they are written into the animation names: ${listed(named, NOTE_NAMES)}`);
  // The last frame of an animation that stops has no next frame: the sprite holds it (a delay and no next frame reads as forever).
  const stops = model.animations
    .filter((a) => a.frames.length && !(a.loopTo !== null && a.loopTo >= 0 && a.loopTo < a.frames.length))
    .filter((a) => Number.isFinite(a.frames[a.frames.length - 1]!.durationMs))
    .map((a) => JSON.stringify(label(a)));
  if (stops.length) notes.push(`hallgeir-sprite: the last frame of an animation that stops holds forever: ${listed(stops, NOTE_NAMES)}`);
  // A sprite's animations end in themselves: no follow-up animation.
  const next = model.animations.filter((a) => a.next).map((a) => JSON.stringify(label(a)));
  if (next.length) notes.push(`hallgeir-sprite: follow-up animations ("next") were dropped: ${listed(next, NOTE_NAMES)}`);
  // A frame of 0 ms (or less) is written as one that holds (delay 0, no next frame): say so.
  const held = model.animations.flatMap((a) =>
    a.frames.flatMap((f, j) => (Number.isFinite(f.durationMs) && f.durationMs <= 0 ? [`"${a.name}" frame ${j}`] : [])),
  );
  if (held.length)
    notes.push(
      `hallgeir-sprite: frames of 0 ms are written as frames that hold forever: ${held.slice(0, 10).join(', ')}${held.length > 10 ? ', …' : ''}`,
    );
  if (notes.length) model.notes = [...(model.notes ?? []), ...notes];
  return doc;
}
