/**
 * Playback, per docs/spec/hallgeir.md: an animation starts at frame 0 at time 0; a
 * frame lasts its delay in seconds, then the animation moves to its next
 * frame, time carrying over (lateness catches up). -1 or a delay <= 0 holds
 * the frame forever. Time is a double in seconds; a frame ends at the sum
 * of the delays so far, added in order, and a frame whose end equals the
 * current time has ended.
 */
import { frameCount, framesOf, type FrameTable } from './compact.js';
import type { HallgeirAnimation } from './model.js';

/** Steps simulated one by one in one `advance` before whole cycles are skipped. */
const STEP_BUDGET = 100_000;

export class HallgeirPlayer {
  /** The frame showing. */
  frame = 0;
  /** When the frame showing started, in seconds (the sum of the delays before it, added in order). */
  start = 0;
  /** True once a frame that holds forever is reached. */
  held = false;
  /** True when time could not advance at double precision (a whole cycle adds nothing); the frame then stays. */
  stuck = false;

  constructor(readonly animation: HallgeirAnimation) {
    if (frameCount(animation) === 0) this.held = true;
  }

  private holds(frames: FrameTable, j: number): boolean {
    return frames.next(j) === -1 || !(frames.delay(j) > 0);
  }

  /**
   * Moves to time t (seconds, not earlier than any time given before):
   * returns the frame showing at t, or null for an animation without frames.
   */
  advance(t: number): number | null {
    // The frames as they are now (the animation's `frames` may have changed since the last call).
    const frames = framesOf(this.animation);
    if (frames.length === 0) return null;
    let steps = 0;
    const budget = Math.max(STEP_BUDGET, 4 * frames.length);
    while (!this.held && !this.stuck) {
      if (this.holds(frames, this.frame)) {
        this.held = true;
        break;
      }
      const end = this.start + frames.delay(this.frame);
      if (end > t) break;
      this.start = end;
      this.frame = frames.next(this.frame);
      if (++steps >= budget) {
        steps = 0;
        this.skipCycles(frames, t);
      }
    }
    return this.frame;
  }

  /**
   * After many steps the chain is in a cycle (it has not reached a frame that
   * holds). Skips whole cycles while far from t, keeping the last few to be
   * added in order; stops advancing if a cycle adds nothing to the time.
   */
  private lastSkipStart = NaN;

  private skipCycles(frames: FrameTable, t: number): void {
    // A budget of steps covers at least one whole cycle: if the time has not moved since the last
    // check, a cycle adds nothing at double precision and never will.
    if (this.start === this.lastSkipStart) {
      this.stuck = true;
      return;
    }
    this.lastSkipStart = this.start;
    let period = 0;
    let j = this.frame;
    let n = 0;
    do {
      period += frames.delay(j);
      j = frames.next(j);
      n++;
    } while (j !== this.frame && j !== -1 && n <= frames.length);
    if (j !== this.frame) return; // not a cycle after all: keep stepping
    const k = Math.floor((t - this.start) / period) - 2;
    if (!Number.isFinite(k)) {
      this.stuck = true;
      return;
    }
    if (k > 0) this.start += k * period;
  }
}

/** The frame showing at each of the given times (seconds, ascending). */
export function frameAtTimes(animation: HallgeirAnimation, times: number[]): (number | null)[] {
  const p = new HallgeirPlayer(animation);
  return times.map((t) => p.advance(t));
}

/** The frame showing at time t (seconds). */
export function frameAt(animation: HallgeirAnimation, t: number): number | null {
  return new HallgeirPlayer(animation).advance(t);
}

export interface PlayRecord {
  time: number;
  frame: number | null;
}

/** `sprat play` records for t = 0, S, 2S, ... < N (milliseconds); each time is taken as t / 1000 seconds. */
export function playRecords(animation: HallgeirAnimation, ms: number, stepMs: number): { records: PlayRecord[]; stuck: boolean } {
  const p = new HallgeirPlayer(animation);
  const records: PlayRecord[] = [];
  for (let t = 0; t < ms; t += stepMs) records.push({ time: t, frame: p.advance(t / 1000) });
  return { records, stuck: p.stuck };
}

/**
 * The frames playback visits from frame 0, in order, until it reaches a
 * frame already visited (the loop point) or a frame that holds forever.
 */
export function frameChain(animation: HallgeirAnimation): { chain: number[]; loopTo: number | null; dropped: number[] } {
  const frames = framesOf(animation);
  const chain: number[] = [];
  const position = new Map<number, number>();
  let loopTo: number | null = null;
  let j = 0;
  while (frames.length > 0) {
    position.set(j, chain.length);
    chain.push(j);
    const next = frames.next(j);
    if (next === -1 || !(frames.delay(j) > 0)) break;
    const seen = position.get(next);
    if (seen !== undefined) {
      loopTo = seen;
      break;
    }
    j = next;
  }
  const dropped: number[] = [];
  for (let i = 0; i < frames.length; i++) if (!position.has(i)) dropped.push(i);
  return { chain, loopTo, dropped };
}
