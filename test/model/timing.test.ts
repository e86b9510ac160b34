import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chooseFrameRate } from '../../src/model/timing.js';

describe('chooseFrameRate', () => {
  it('picks the smallest rate that makes every delay exact', () => {
    expect(chooseFrameRate([0.1, 0.1])).toEqual({ fps: 10, holdTimes: [1, 1], maxError: 0, exact: true });
    expect(chooseFrameRate([0.1, 0.05, 0.25])).toEqual({ fps: 20, holdTimes: [2, 1, 5], maxError: 0, exact: true });
    expect(chooseFrameRate([1 / 3, 0.5])).toEqual({ fps: 6, holdTimes: [2, 3], maxError: 0, exact: true });
    expect(chooseFrameRate([2, 3])).toEqual({ fps: 1, holdTimes: [2, 3], maxError: 0, exact: true });
  });

  it('decimal delays count as exact despite binary rounding', () => {
    const r = chooseFrameRate([0.3, 0.7, 0.15]);
    expect(r.exact).toBe(true);
    expect(r.fps).toBe(20);
    expect(r.holdTimes).toEqual([6, 14, 3]);
  });

  it('reports the largest error when no rate is exact', () => {
    const r = chooseFrameRate([0.1, 1 / 257]);
    expect(r.exact).toBe(false);
    expect(r.maxError).toBeGreaterThan(0);
    for (let i = 0; i < 2; i++) expect(r.holdTimes[i]).toBeGreaterThanOrEqual(1);
    // No other rate does better.
    for (let fps = 1; fps <= 255; fps++) {
      const err = Math.max(...[0.1, 1 / 257].map((d) => Math.abs(Math.max(1, Math.round(d * fps)) / fps - d)));
      expect(err).toBeGreaterThanOrEqual(r.maxError - 1e-15);
    }
    expect(r.maxError).toBeCloseTo(Math.max(...[0.1, 1 / 257].map((d, i) => Math.abs(r.holdTimes[i]! / r.fps - d))), 15);
  });

  it('leaves out delays that are not positive and finite', () => {
    expect(chooseFrameRate([0.5, 0, -1, Infinity, NaN])).toEqual({ fps: 2, holdTimes: [1, 0, 0, 0, 0], maxError: 0, exact: true });
    expect(chooseFrameRate([])).toEqual({ fps: 30, holdTimes: [], maxError: 0, exact: true });
    expect(chooseFrameRate([0], { fallbackFps: 12 }).fps).toBe(12);
  });

  it('respects maxFps and maxHold', () => {
    expect(chooseFrameRate([0.01], { maxFps: 60 }).exact).toBe(false);
    expect(chooseFrameRate([0.01], { maxFps: 100 }).fps).toBe(100);
    const r = chooseFrameRate([10000], { maxHold: 65535 });
    expect(r.fps).toBe(1);
    expect(r.holdTimes).toEqual([10000]);
    const capped = chooseFrameRate([100000], { maxHold: 65535 });
    expect(capped.holdTimes[0]).toBe(65535);
    expect(capped.exact).toBe(false);
  });

  it('holds of an exact choice reproduce the delays', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 200 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 60 }),
        (frames, fps) => {
          const delays = frames.map((n) => n / fps);
          const r = chooseFrameRate(delays);
          expect(r.exact).toBe(true);
          expect(r.fps).toBeLessThanOrEqual(fps);
          r.holdTimes.forEach((h, i) => expect(h / r.fps).toBeCloseTo(delays[i]!, 9));
        },
      ),
      { numRuns: 200 },
    );
  });
  it('judging distinct delays only gives what judging every delay at every rate gives', () => {
    // the plain reference: every rate, every delay
    const reference = (delays: number[]) => {
      let best: { fps: number; holdTimes: number[]; maxError: number; exact: boolean } | undefined;
      for (let fps = 1; fps <= 255; fps++) {
        let maxError = 0;
        let exact = true;
        const holdTimes = delays.map((d) => {
          if (!(d > 0) || !Number.isFinite(d)) return 0;
          const h = Math.min(65535, Math.max(1, Math.round(d * fps)));
          if (Math.abs(d * fps - h) > 1e-9 * Math.max(1, d * fps)) {
            exact = false;
            maxError = Math.max(maxError, Math.abs(h / fps - d));
          }
          return h;
        });
        if (exact) return { fps, holdTimes, maxError: 0, exact };
        if (!best || maxError < best.maxError) best = { fps, holdTimes, maxError, exact };
      }
      return best!;
    };
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.integer({ min: 1, max: 3000 }).map((ms) => ms / 1000),
            fc.constant(Infinity),
            fc.constant(0),
          ),
          {
            minLength: 1,
            maxLength: 30,
          },
        ),
        (delays) => {
          fc.pre(delays.some((d) => d > 0 && Number.isFinite(d)));
          expect(chooseFrameRate(delays)).toEqual(reference(delays));
        },
      ),
    );
  });

  it('a quarter of a million frames of one delay get their holds from one judgement per rate', () => {
    const r = chooseFrameRate(new Array<number>(1 << 18).fill(0.001));
    expect(r.fps).toBe(255);
    expect(r.holdTimes.length).toBe(1 << 18);
    expect(r.holdTimes.every((h) => h === 1)).toBe(true);
  });
});
