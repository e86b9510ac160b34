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

function holdsAt(delays: readonly number[], fps: number, maxHold: number): { holds: number[]; maxError: number; exact: boolean } {
  const holds: number[] = [];
  let maxError = 0;
  let exact = true;
  for (const d of delays) {
    if (!(d > 0) || !Number.isFinite(d)) {
      holds.push(0);
      continue;
    }
    const ideal = d * fps;
    const h = Math.min(maxHold, Math.max(1, Math.round(ideal)));
    holds.push(h);
    if (Math.abs(ideal - h) > EXACT_TOLERANCE * Math.max(1, ideal)) {
      exact = false;
      maxError = Math.max(maxError, Math.abs(h / fps - d));
    }
  }
  return { holds, maxError, exact };
}

/**
 * Chooses the frame rate for a set of delays (seconds): the smallest rate at
 * which every delay is a whole number of frames, when there is one up to
 * `maxFps`; otherwise the rate with the smallest largest error (the smaller
 * rate on ties). Delays that are not positive and finite (frames that hold
 * forever) are left out and get hold time 0.
 */
export function chooseFrameRate(delaysSeconds: readonly number[], options: FrameRateOptions = {}): FrameRateChoice {
  const maxFps = Math.max(1, Math.floor(options.maxFps ?? 255));
  const maxHold = Math.max(1, Math.floor(options.maxHold ?? 65535));
  const counted = delaysSeconds.filter((d) => d > 0 && Number.isFinite(d));
  if (counted.length === 0) {
    const fps = Math.min(maxFps, Math.max(1, Math.floor(options.fallbackFps ?? 30)));
    return { fps, holdTimes: delaysSeconds.map(() => 0), maxError: 0, exact: true };
  }
  let best: { fps: number; holds: number[]; maxError: number; exact: boolean } | undefined;
  for (let fps = 1; fps <= maxFps; fps++) {
    const r = holdsAt(delaysSeconds, fps, maxHold);
    if (r.exact) return { fps, holdTimes: r.holds, maxError: 0, exact: true };
    if (!best || r.maxError < best.maxError) best = { fps, ...r };
  }
  return { fps: best!.fps, holdTimes: best!.holds, maxError: best!.maxError, exact: false };
}
