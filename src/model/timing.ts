/**
 * Turning delays in seconds into hold times at a whole frame rate (for
 * frame-based formats such as ISPRITE, whose frames last a whole number of
 * playback frames at an 8-bit frames-per-second rate).
 */

export interface FrameRateChoice {
  /** Frames per second, 1 … maxFps. */
  fps: number;
  /** For each delay: frames to hold it at `fps` (1 … maxHold); 0 for a delay that is not positive and finite. */
  holdTimes: number[];
  /** The largest |holdTime / fps − delay| over the positive finite delays, in seconds (0 when all are exact). */
  maxError: number;
  /** True when every positive finite delay is exact at `fps`. */
  exact: boolean;
}

export interface FrameRateOptions {
  /** Highest frame rate to consider (default 255, the largest ISPRITE can store). */
  maxFps?: number;
  /** Largest hold time (default 65535, ISPRITE's u16). */
  maxHold?: number;
  /** Frame rate to use when there is no positive finite delay (default 30). */
  fallbackFps?: number;
}

/** Relative tolerance under which delay × fps counts as a whole number (decimal delays like 0.1 are not exact in binary). */
const EXACT_TOLERANCE = 1e-9;

function holdAt(d: number, fps: number, maxHold: number): number {
  if (!(d > 0) || !Number.isFinite(d)) return 0;
  return Math.min(maxHold, Math.max(1, Math.round(d * fps)));
}

/** The largest error at `fps` over `delays` (positive and finite), and whether every one is exact. */
function errorAt(delays: readonly number[], fps: number, maxHold: number): { maxError: number; exact: boolean } {
  let maxError = 0;
  let exact = true;
  for (const d of delays) {
    const ideal = d * fps;
    const h = holdAt(d, fps, maxHold);
    if (Math.abs(ideal - h) > EXACT_TOLERANCE * Math.max(1, ideal)) {
      exact = false;
      maxError = Math.max(maxError, Math.abs(h / fps - d));
    }
  }
  return { maxError, exact };
}

/**
 * Chooses the frame rate for a set of delays (seconds): the smallest rate at
 * which every delay is a whole number of frames, when there is one up to
 * `maxFps`; otherwise the rate with the smallest largest error (the smaller
 * rate on ties). Delays that are not positive and finite (frames that hold
 * forever) are left out and get hold time 0.
 *
 * Each rate is judged over the distinct delays only, and hold times are made
 * once, for the rate chosen: a quarter of a million frames of the same delay
 * cost one delay per rate, not 255 arrays of a quarter of a million holds.
 */
export function chooseFrameRate(delaysSeconds: readonly number[], options: FrameRateOptions = {}): FrameRateChoice {
  const maxFps = Math.max(1, Math.floor(options.maxFps ?? 255));
  const maxHold = Math.max(1, Math.floor(options.maxHold ?? 65535));
  const distinct = [...new Set(delaysSeconds.filter((d) => d > 0 && Number.isFinite(d)))];
  if (distinct.length === 0) {
    const fps = Math.min(maxFps, Math.max(1, Math.floor(options.fallbackFps ?? 30)));
    return { fps, holdTimes: delaysSeconds.map(() => 0), maxError: 0, exact: true };
  }
  let best: { fps: number; maxError: number; exact: boolean } | undefined;
  for (let fps = 1; fps <= maxFps; fps++) {
    const r = errorAt(distinct, fps, maxHold);
    if (r.exact) {
      best = { fps, ...r };
      break;
    }
    if (!best || r.maxError < best.maxError) best = { fps, ...r };
  }
  const { fps, maxError, exact } = best!;
  return { fps, holdTimes: delaysSeconds.map((d) => holdAt(d, fps, maxHold)), maxError: exact ? 0 : maxError, exact };
}

/** A duration for a note: milliseconds with at most two decimals, or "forever". */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return 'forever';
  return `${Math.round(ms * 100) / 100} ms`;
}

/** Where a frame is, for notes: `"walk" frame 2`, `"walk" direction 1 frame 2`. */
export interface FrameAt {
  animation: string;
  direction?: string;
  frame: number;
}

function animLabel(at: FrameAt): string {
  return at.direction !== undefined ? `"${at.animation}" direction ${at.direction}` : `"${at.animation}"`;
}

/** "frames 0, 1, 3" of one animation, shortening long lists. */
function framesList(frames: number[]): string {
  const shown = frames.slice(0, 8).join(', ');
  return `frame${frames.length > 1 ? 's' : ''} ${shown}${frames.length > 8 ? `, … (${frames.length} in all)` : ''}`;
}

/** How many distinct timing changes a conversion lists one by one. */
const MAX_TIMING_NOTES = 10;

/**
 * Notes for a conversion that changes frame durations: one per distinct
 * change (`1 ms -> 3.92 ms`), naming the frames it touches, e.g.
 * `isprite: frame durations rounded to whole frames at 255 fps: 1 ms ->
 * 3.92 ms ("walk" frames 0, 1)`. `why` says what forces the change.
 * Changes smaller than 1 µs are not changes. Empty when nothing changed.
 */
export function timingNotes(format: string, why: string, changes: readonly { at: FrameAt; fromMs: number; toMs: number }[]): string[] {
  const byPair = new Map<string, { fromMs: number; toMs: number; where: Map<string, number[]> }>();
  for (const c of changes) {
    const same = c.fromMs === c.toMs || (Number.isFinite(c.fromMs) && Number.isFinite(c.toMs) && Math.abs(c.fromMs - c.toMs) < 1e-3);
    if (same) continue;
    const key = `${formatMs(c.fromMs)}\u0000${formatMs(c.toMs)}`;
    let e = byPair.get(key);
    if (!e) byPair.set(key, (e = { fromMs: c.fromMs, toMs: c.toMs, where: new Map() }));
    const label = animLabel(c.at);
    const list = e.where.get(label);
    if (list) list.push(c.at.frame);
    else e.where.set(label, [c.at.frame]);
  }
  const notes: string[] = [];
  for (const e of byPair.values()) {
    if (notes.length === MAX_TIMING_NOTES) {
      notes.push(`${format}: ${byPair.size - MAX_TIMING_NOTES} more frame durations changed (${why})`);
      break;
    }
    const where = [...e.where].slice(0, 4).map(([a, f]) => `${a} ${framesList(f)}`);
    if (e.where.size > 4) where.push(`${e.where.size - 4} more animations`);
    notes.push(`${format}: ${why}: ${formatMs(e.fromMs)} -> ${formatMs(e.toMs)} (${where.join('; ')})`);
  }
  return notes;
}
