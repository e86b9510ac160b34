/**
 * What a sprite plays, and what changed in it between two models: per
 * animation and direction, the frames' pixels placed relative to the sprite
 * origin, their durations ("shown forever" included) and the loop. This is
 * `sprat diff --playback`, and how the round-trip matrix judges a conversion
 * (src/model/matrix.ts): two files of any formats play the same when their
 * models (each format's `toModel`) compare with no change here.
 *
 * Pixels are drawn through the model's bake code (src/model/bake.ts, the one
 * picture pipeline) and compared by content on the union of the two frames'
 * boxes, with every fully transparent pixel the same pixel: a trimmed frame,
 * a canvas moved or grown, or parts cut another way are no difference.
 */
import { FormatError } from '../binary/errors.js';
import { Budget } from '../binary/limits.js';
import type { RgbaImage } from '../render/image.js';
import { bakeFrame } from './bake.js';
import type { ModelAnimation, ModelFrame, SpriteModel } from './types.js';

/** How playback moves through the frames (Aseprite's tag direction), when the model says. */
export interface PlaybackMode {
  direction: 'forward' | 'reverse' | 'pingpong' | 'pingpong_reverse';
  repeat?: number;
}

/** One frame as it plays: its pixels, where the origin is inside them, and how long it shows. */
export interface PlaybackFrame {
  /** Milliseconds; Infinity: shown forever. */
  durationMs: number;
  /** Just big enough for the frame's parts (0 × 0 when it has none). */
  image: RgbaImage;
  originX: number;
  originY: number;
}

/** One (animation, direction) as it plays. */
export interface PlaybackTrack {
  animation: string;
  /** The direction or view label, when the source has several per animation. */
  direction?: string;
  frames: PlaybackFrame[];
  /** The frame playback returns to after the last; null: it stops on the last frame. */
  loopTo: number | null;
  /** The animation that plays when this one ends (ISPRITE follow-ups). */
  next?: string;
  /** The Aseprite tag direction and repeat count, when the model has them. */
  mode?: PlaybackMode;
}

export interface PlaybackSummary {
  tracks: PlaybackTrack[];
}

export interface PlaybackOptions {
  /** Spent by the drawing (`--max-pixels`, `--max-draw-pixels`); one budget may be shared by several calls. */
  budget?: Budget;
  /** Durations closer than this are the same (default 0.001 ms: a 1 µs float error is no change). */
  durationToleranceMs?: number;
  /** Colour channels closer than this are the same pixel (default 0: exact). */
  pixelTolerance?: number;
}

/** Where a change is: the animation, and the direction when the animation has one. */
export interface PlaybackAt {
  animation: string;
  direction?: string;
}

/** One way two models play differently. */
export type PlaybackChange =
  | (PlaybackAt & { kind: 'added' | 'removed' })
  | (PlaybackAt & { kind: 'frame-count'; from: number; to: number })
  | (PlaybackAt & { kind: 'duration'; frame: number; from: number; to: number })
  | (PlaybackAt & { kind: 'loop'; from: string; to: string })
  | (PlaybackAt & { kind: 'next'; from: string | null; to: string | null })
  /** `frame` is the first frame whose pixels differ, `pixels` how many of its pixels do; `frames` how many frames differ. */
  | (PlaybackAt & { kind: 'pixels'; frame: number; pixels: number; frames: number });

/** The kinds of change, in the order a report lists them. */
export const PLAYBACK_CHANGE_KINDS = ['added', 'removed', 'frame-count', 'duration', 'loop', 'next', 'pixels'] as const;
export type PlaybackChangeKind = (typeof PLAYBACK_CHANGE_KINDS)[number];

/** The mode of an animation, when the model carries one (`ModelAnimation.playback`, Aseprite's tag direction and repeat). */
function modeOf(anim: ModelAnimation): PlaybackMode | undefined {
  const m = (anim as { playback?: PlaybackMode }).playback;
  if (!m || (m.direction === 'forward' && (m.repeat === undefined || m.repeat === 0))) return undefined;
  return m;
}

/**
 * Each track's key: its animation, direction and which of the tracks of that
 * name and direction it is (a source may hold two, e.g. two Aseprite tags
 * named "fall"): the first is matched with the first, the second with the
 * second.
 */
function trackKeys(s: PlaybackSummary): string[] {
  const seen = new Map<string, number>();
  return s.tracks.map((t) => {
    const k = JSON.stringify([t.animation, t.direction ?? null]);
    const n = seen.get(k) ?? 0;
    seen.set(k, n + 1);
    return `${k}#${n}`;
  });
}

/** A cache key for a frame's drawing: frames with the same parts draw the same pixels. */
function partsKey(frame: ModelFrame): string {
  return JSON.stringify(frame.parts);
}

/**
 * What a sprite plays: every animation (and direction) but the frames no
 * animation plays (`unused`), each frame drawn relative to the origin. A
 * frame drawn from a sheet whose pixels were not loaded is a FormatError
 * naming the sheet and why: its pixels cannot be told.
 */
export function playbackOf(model: SpriteModel, options: PlaybackOptions = {}): PlaybackSummary {
  const budget = options.budget ?? new Budget();
  const drawn = new Map<string, { image: RgbaImage; originX: number; originY: number }>();
  const tracks: PlaybackTrack[] = [];
  for (const anim of model.animations) {
    if (anim.unused) continue;
    const frames: PlaybackFrame[] = [];
    for (const f of anim.frames) {
      for (const p of f.parts) {
        const sheet = model.sheets[p.sheet];
        if (!sheet?.image)
          throw new FormatError(
            'playback',
            sheet
              ? `animation "${anim.name}": the pixels of "${sheet.path}" were not loaded${sheet.loadError ? ` (${sheet.loadError})` : ''}`
              : `animation "${anim.name}": a part names sheet ${p.sheet}, and the sprite has ${model.sheets.length}`,
          );
      }
      const key = partsKey(f);
      let d = drawn.get(key);
      if (!d) {
        const b = bakeFrame(model, f, budget);
        d = { image: b.image, originX: b.originX, originY: b.originY };
        drawn.set(key, d);
      }
      frames.push({ durationMs: f.durationMs, ...d });
    }
    const mode = modeOf(anim);
    tracks.push({
      animation: anim.name,
      ...(anim.direction !== undefined ? { direction: anim.direction } : {}),
      frames,
      loopTo: anim.loopTo,
      ...(anim.next !== undefined ? { next: anim.next } : {}),
      ...(mode ? { mode } : {}),
    });
  }
  return { tracks };
}

/** A pixel as one number, every fully transparent pixel 0; outside the image is transparent. */
function pixelAt(f: PlaybackFrame, x: number, y: number): number {
  const ix = x + f.originX;
  const iy = y + f.originY;
  if (ix < 0 || iy < 0 || ix >= f.image.width || iy >= f.image.height) return 0;
  const o = (iy * f.image.width + ix) * 4;
  const d = f.image.data;
  const a = d[o + 3]!;
  return a === 0 ? 0 : ((d[o]! << 24) | (d[o + 1]! << 16) | (d[o + 2]! << 8) | a) >>> 0;
}

function closePixels(p: number, q: number, tolerance: number): boolean {
  if (p === q) return true;
  if (tolerance <= 0 || p === 0 || q === 0) return false;
  for (let s = 0; s < 32; s += 8) if (Math.abs(((p >>> s) & 255) - ((q >>> s) & 255)) > tolerance) return false;
  return true;
}

/** How many pixels of two frames differ, on the union of their boxes in sprite space. */
export function differingPixels(a: PlaybackFrame, b: PlaybackFrame, tolerance = 0): number {
  if (a.image === b.image && a.originX === b.originX && a.originY === b.originY) return 0;
  const boxes = [a, b].filter((f) => f.image.width > 0 && f.image.height > 0);
  if (!boxes.length) return 0;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const f of boxes) {
    x0 = Math.min(x0, -f.originX);
    y0 = Math.min(y0, -f.originY);
    x1 = Math.max(x1, f.image.width - f.originX);
    y1 = Math.max(y1, f.image.height - f.originY);
  }
  let n = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (!closePixels(pixelAt(a, x, y), pixelAt(b, x, y), tolerance)) n++;
  return n;
}

function sameDuration(a: number, b: number, tolerance: number): boolean {
  if (a === b) return true;
  return Number.isFinite(a) && Number.isFinite(b) && Math.abs(a - b) < tolerance;
}

/** A tag's repeat count in words: `once`, `3 times`. */
export function repeatText(repeat: number): string {
  return repeat === 1 ? 'once' : `${repeat} times`;
}

/**
 * The loop as it plays, in words: `loops to frame 0`, `stops on the last
 * frame`, with a pingpong or repeat count. Loops that cannot be seen are the
 * same as stopping: a one-frame animation, or one that reaches a frame shown
 * forever before its end (every frame after it, and the loop, never play).
 */
export function loopText(track: Pick<PlaybackTrack, 'frames' | 'loopTo' | 'mode'>): string {
  const seen = track.frames.length > 1 && track.frames.every((f) => Number.isFinite(f.durationMs));
  const base = !seen || track.loopTo === null ? 'stops on the last frame' : `loops to frame ${track.loopTo}`;
  const m = track.mode;
  if (!m) return base;
  return `${base}, ${m.direction.replace('_', ' ')}${m.repeat ? `, ${repeatText(m.repeat)}` : ''}`;
}

/**
 * How `b` plays differently from `a`: animations and directions added or
 * removed (matched by animation name and direction label), then per
 * direction the frame count, each frame's duration (over the frames both
 * have), the loop, the follow-up animation, and the pixels (one change per
 * direction: the first frame that differs, its differing pixels and how many
 * frames differ). `[]` when they play the same.
 */
export function comparePlayback(a: SpriteModel, b: SpriteModel, options: PlaybackOptions = {}): PlaybackChange[] {
  const budget = options.budget ?? new Budget();
  return comparePlaybackSummaries(playbackOf(a, { ...options, budget }), playbackOf(b, { ...options, budget }), options);
}

/** `comparePlayback` of two summaries already drawn. */
export function comparePlaybackSummaries(a: PlaybackSummary, b: PlaybackSummary, options: PlaybackOptions = {}): PlaybackChange[] {
  const durationTolerance = options.durationToleranceMs ?? 1e-3;
  const pixelTolerance = options.pixelTolerance ?? 0;
  const keysA = trackKeys(a);
  const keysB = trackKeys(b);
  const inB = new Map(b.tracks.map((t, i) => [keysB[i]!, t]));
  const inA = new Set(keysA);
  const out: PlaybackChange[] = [];
  const at = (t: PlaybackTrack): PlaybackAt => ({
    animation: t.animation,
    ...(t.direction !== undefined ? { direction: t.direction } : {}),
  });
  for (const [i, ta] of a.tracks.entries()) {
    const tb = inB.get(keysA[i]!);
    if (!tb) {
      out.push({ kind: 'removed', ...at(ta) });
      continue;
    }
    const where = at(ta);
    if (ta.frames.length !== tb.frames.length) out.push({ kind: 'frame-count', ...where, from: ta.frames.length, to: tb.frames.length });
    const n = Math.min(ta.frames.length, tb.frames.length);
    for (let i = 0; i < n; i++) {
      const da = ta.frames[i]!.durationMs;
      const db = tb.frames[i]!.durationMs;
      if (!sameDuration(da, db, durationTolerance)) out.push({ kind: 'duration', ...where, frame: i, from: da, to: db });
    }
    // The frames are the frames as played (a ping-pong or repeated Aseprite tag is expanded when read):
    // the tag direction and repeat (`mode`) describe them, and are not a difference of their own.
    const la = loopText({ frames: ta.frames, loopTo: ta.loopTo });
    const lb = loopText({ frames: tb.frames, loopTo: tb.loopTo });
    if (la !== lb) out.push({ kind: 'loop', ...where, from: la, to: lb });
    if ((ta.next ?? null) !== (tb.next ?? null)) out.push({ kind: 'next', ...where, from: ta.next ?? null, to: tb.next ?? null });
    let first = -1;
    let pixels = 0;
    let frames = 0;
    for (let i = 0; i < n; i++) {
      const d = differingPixels(ta.frames[i]!, tb.frames[i]!, pixelTolerance);
      if (!d) continue;
      frames++;
      if (first < 0) {
        first = i;
        pixels = d;
      }
    }
    if (first >= 0) out.push({ kind: 'pixels', ...where, frame: first, pixels, frames });
  }
  b.tracks.forEach((tb, i) => {
    if (!inA.has(keysB[i]!)) out.push({ kind: 'added', ...at(tb) });
  });
  return out;
}

function durationText(ms: number): string {
  return Number.isFinite(ms) ? `${Math.round(ms * 1000) / 1000} ms` : 'forever';
}

/** Where a change is, as a diff line begins: `animation walking, direction 1`. */
export function playbackAtText(c: PlaybackAt): string {
  return `animation ${c.animation}${c.direction !== undefined ? `, direction ${c.direction}` : ''}`;
}

/**
 * One change as a line: `animation walking, direction 1: frame 3 duration
 * 100 -> 120 ms`, `animation walking, direction 1, frame 2: 14 pixels
 * differ`, `+ animation jump`, `- animation walk, direction 3`.
 */
export function playbackChangeText(c: PlaybackChange): string {
  const where = playbackAtText(c);
  switch (c.kind) {
    case 'added':
      return `+ ${where}`;
    case 'removed':
      return `- ${where}`;
    case 'frame-count':
      return `${where}: ${c.from} -> ${c.to} frames`;
    case 'duration': {
      const unit = Number.isFinite(c.from) && Number.isFinite(c.to);
      const from = unit ? String(Math.round(c.from * 1000) / 1000) : durationText(c.from);
      return `${where}: frame ${c.frame} duration ${from} -> ${durationText(c.to)}`;
    }
    case 'loop':
      return `${where}: ${c.from} -> ${c.to}`;
    case 'next':
      return `${where}: next ${c.from === null ? 'none' : JSON.stringify(c.from)} -> ${c.to === null ? 'none' : JSON.stringify(c.to)}`;
    case 'pixels':
      return `${where}, frame ${c.frame}: ${c.pixels} pixel${c.pixels === 1 ? '' : 's'} differ${c.pixels === 1 ? 's' : ''}${c.frames > 1 ? ` (and ${c.frames - 1} more frame${c.frames > 2 ? 's' : ''})` : ''}`;
  }
}

/** A JSON-safe change: a duration shown forever is the string "forever". */
export function playbackChangeJson(c: PlaybackChange): Record<string, unknown> {
  if (c.kind !== 'duration') return { ...c };
  const j = (ms: number) => (Number.isFinite(ms) ? ms : 'forever');
  return { ...c, from: j(c.from), to: j(c.to) };
}
