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

function animationFromModel(a: ModelAnimation, sheetIndex: { value: number | undefined }): HallgeirAnimation {
  const n = a.frames.length;
  const frames = a.frames.map((fr, i): HallgeirFrame => {
    const where = `animation ${JSON.stringify(a.name)}, frame ${i}`;
    if (fr.parts.length !== 1) cannot(`${where} has ${fr.parts.length} parts (a frame here is one rectangle of the texture)`);
    const p = fr.parts[0]!;
    if (sheetIndex.value === undefined) sheetIndex.value = p.sheet;
    else if (p.sheet !== sheetIndex.value) cannot(`${where} uses a second sheet (a sprite has one texture)`);
    if (
      p.flipX ||
      p.flipY ||
      p.rotatedInSheet ||
      (p.rotation ?? 0) !== 0 ||
      (p.scaleX ?? 1) !== 1 ||
      (p.scaleY ?? 1) !== 1 ||
      (p.opacity ?? 1) !== 1
    ) {
      cannot(`${where} is flipped, rotated, scaled or translucent`);
    }
    if (p.x - (p.originX ?? 0) !== 0 || p.y - (p.originY ?? 0) !== 0) cannot(`${where} is drawn at an offset`);
    if (!Number.isInteger(p.sx) || !Number.isInteger(p.sy)) cannot(`${where} has a source rectangle off the pixel grid`);
    const forever = !Number.isFinite(fr.durationMs) || fr.durationMs <= 0;
    const last = i === n - 1;
    const next = forever ? -1 : last ? (a.loopTo !== null && a.loopTo >= 0 && a.loopTo < n ? a.loopTo : -1) : i + 1;
    return { x: p.sx, y: p.sy, delay: forever ? 0 : fr.durationMs / 1000, next };
  });
  return { name: a.direction ? `${a.name}_${a.direction}` : a.name, frames };
}

export function spriteFromModel(model: SpriteModel | LevelModel): HallgeirSprite {
  if (model.kind !== 'sprite') cannot('it is a level, not a sprite');
  const sheetIndex: { value: number | undefined } = { value: undefined };
  const animations = model.animations.map((a) => animationFromModel(a, sheetIndex));
  const sheet = model.sheets[sheetIndex.value ?? 0];
  // The sprite names its texture file: pixels with no file (a native .aseprite's cels) cannot be named.
  if (sheet && !sheet.path)
    cannot('its frames are pixels with no texture file to name (convert to Aseprite or TexturePacker JSON, which write their sheet)');
  const notes: string[] = [];
  // A sprite has no directions: an animation's direction becomes part of its name (animationFromModel).
  const named = model.animations.filter((a) => a.direction).map((a) => JSON.stringify(`${a.name}_${a.direction}`));
  if (named.length)
    notes.push(`hallgeir-sprite: a sprite has no directions; they are written into the animation names: ${listed(named, NOTE_NAMES)}`);
  // The last frame of an animation that stops has no next frame: the sprite holds it (a delay and no next frame reads as forever).
  const stops = model.animations
    .filter((a) => a.frames.length && !(a.loopTo !== null && a.loopTo >= 0 && a.loopTo < a.frames.length))
    .filter((a) => Number.isFinite(a.frames[a.frames.length - 1]!.durationMs))
    .map((a) => JSON.stringify(a.direction ? `${a.name}_${a.direction}` : a.name));
  if (stops.length) notes.push(`hallgeir-sprite: the last frame of an animation that stops holds forever: ${listed(stops, NOTE_NAMES)}`);
  // A frame of 0 ms (or less) is written as one that holds (delay 0, no next frame): say so.
  const held = model.animations.flatMap((a) =>
    a.frames.flatMap((f, j) => (Number.isFinite(f.durationMs) && f.durationMs <= 0 ? [`"${a.name}" frame ${j}`] : [])),
  );
  if (held.length)
    notes.push(
      `hallgeir-sprite: frames of 0 ms are written as frames that hold forever: ${held.slice(0, 10).join(', ')}${held.length > 10 ? ', …' : ''}`,
    );
  // The frame size is not stored: reading the sprite back needs it.
  const sizes = new Set(model.animations.flatMap((a) => a.frames.map((f) => `${f.parts[0]!.sw}x${f.parts[0]!.sh}`)));
  if (sizes.size > 1) {
    notes.push(
      `hallgeir-sprite: the frames have several sizes (${[...sizes].slice(0, 5).join(', ')}); a Hallgeir sprite has one, given when it is read (--frame-size)`,
    );
  }
  if (notes.length) model.notes = [...(model.notes ?? []), ...notes];
  return { kind: 'sprite', littleEndian: true, name: model.name, texture: sheet?.path ?? '', animations };
}
