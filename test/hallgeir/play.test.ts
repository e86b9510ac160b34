import { describe, expect, it } from 'vitest';
import {
  HallgeirPlayer,
  frameAt,
  frameAtTimes,
  frameChain,
  playRecords,
  type HallgeirAnimation,
} from '../../src/formats/hallgeir/index.js';

const anim = (...frames: [number, number][]): HallgeirAnimation => ({
  name: 'a',
  frames: frames.map(([delay, next], i) => ({ x: i, y: 0, delay, next })),
});

describe('playback timing', () => {
  it('starts at frame 0 at time 0 and moves on when a frame has lasted its delay', () => {
    const a = anim([0.5, 1], [0.25, 0]);
    expect(frameAt(a, 0)).toBe(0);
    expect(frameAt(a, 0.4999)).toBe(0);
    expect(frameAt(a, 0.5)).toBe(1); // a frame whose end equals the time has ended
    expect(frameAt(a, 0.7499)).toBe(1);
    expect(frameAt(a, 0.75)).toBe(0);
    expect(frameAt(a, 1.25)).toBe(1);
  });

  it('adds delays in order as doubles: 0.1 + 0.1 + 0.1 > 0.3', () => {
    const a = anim([0.1, 1], [0.1, 2], [0.1, 3], [0.1, 3]);
    expect(0.1 + 0.1 + 0.1).toBeGreaterThan(0.3);
    expect(frameAt(a, 0.2)).toBe(2); // 0.1 + 0.1 === 0.2 exactly: ended
    expect(frameAt(a, 0.3)).toBe(2); // the third frame ends at 0.30000000000000004
    expect(frameAt(a, 0.30000000000000004)).toBe(3);
  });

  it('play takes t / 1000 for millisecond times', () => {
    const a = anim([0.1, 1], [0.1, 2], [0.1, 3], [0.1, 0]);
    const { records } = playRecords(a, 500, 100);
    expect(records).toEqual([
      { time: 0, frame: 0 },
      { time: 100, frame: 1 },
      { time: 200, frame: 2 },
      { time: 300, frame: 2 }, // 300 / 1000 = 0.3 < 0.30000000000000004
      { time: 400, frame: 0 }, // 0.4 === ((0.1 + 0.1) + 0.1) + 0.1
    ]);
  });

  it('catches up: a late step may skip frames, time carries over', () => {
    const a = anim([0.1, 1], [0.1, 2], [0.1, 0]);
    expect(frameAtTimes(a, [0, 0.25, 0.31, 0.65])).toEqual([0, 2, 0, 0]);
    const p = new HallgeirPlayer(a);
    expect(p.advance(0.55)).toBe(2); // 0.5 <= 0.55 < 0.6
    expect(p.start).toBeCloseTo(0.5, 12);
  });

  it('-1 holds the frame forever, whatever its delay', () => {
    const a = anim([0.1, 1], [0.1, -1]);
    expect(frameAtTimes(a, [0, 0.1, 1, 1e9])).toEqual([0, 1, 1, 1]);
  });

  it('a delay <= 0 holds the frame forever, whatever its next', () => {
    expect(frameAtTimes(anim([0.1, 1], [0, 0]), [0, 0.1, 5])).toEqual([0, 1, 1]);
    expect(frameAtTimes(anim([-2, 1], [1, 0]), [0, 100])).toEqual([0, 0]);
  });

  it('a frame whose next is itself stays (and keeps time)', () => {
    expect(frameAtTimes(anim([0.1, 1], [0.2, 1]), [0, 0.1, 10])).toEqual([0, 1, 1]);
  });

  it('an animation without frames plays nothing', () => {
    expect(playRecords({ name: 'e', frames: [] }, 300, 100).records).toEqual([
      { time: 0, frame: null },
      { time: 100, frame: null },
      { time: 200, frame: null },
    ]);
  });

  it('does not hang on tiny delays and huge times', () => {
    const a = anim([1e-9, 1], [2e-9, 0]);
    const f = frameAt(a, 1e6);
    expect([0, 1]).toContain(f);
    // Delays below the precision of the time: the cycle adds nothing, the frame stays.
    const stuck = new HallgeirPlayer(anim([5e-324, 0]));
    stuck.advance(1);
    expect(stuck.stuck).toBe(true);
  });

  it('records for t = 0, S, 2S ... < N', () => {
    const { records } = playRecords(anim([1, 0]), 1000, 300);
    expect(records.map((r) => r.time)).toEqual([0, 300, 600, 900]);
    expect(playRecords(anim([1, 0]), 0, 100).records).toEqual([]);
  });
});

describe('frameChain', () => {
  it('follows next from frame 0 to the first frame seen again', () => {
    expect(frameChain(anim([1, 2], [1, 0], [1, 1]))).toEqual({ chain: [0, 2, 1], loopTo: 0, dropped: [] });
    expect(frameChain(anim([1, 1], [1, 2], [1, 1], [1, 0]))).toEqual({ chain: [0, 1, 2], loopTo: 1, dropped: [3] });
  });

  it('ends without a loop at -1 or a delay <= 0', () => {
    expect(frameChain(anim([1, 1], [1, -1], [1, 0]))).toEqual({ chain: [0, 1], loopTo: null, dropped: [2] });
    expect(frameChain(anim([1, 1], [0, 0]))).toEqual({ chain: [0, 1], loopTo: null, dropped: [] });
    expect(frameChain(anim([0, 1], [1, 0]))).toEqual({ chain: [0], loopTo: null, dropped: [1] });
    expect(frameChain({ name: 'e', frames: [] })).toEqual({ chain: [], loopTo: null, dropped: [] });
  });
});

describe('playback against a naive reference', () => {
  it('matches stepping from zero for each time', async () => {
    const fc = (await import('fast-check')).default;
    const naive = (a: HallgeirAnimation, t: number): number => {
      let j = 0;
      let end = 0;
      for (;;) {
        const f = a.frames[j]!;
        if (f.next === -1 || !(f.delay > 0)) return j;
        if (end + f.delay > t) return j;
        end += f.delay;
        j = f.next;
      }
    };
    const arb = fc.integer({ min: 1, max: 6 }).chain((n) =>
      fc.record({
        name: fc.constant('a'),
        frames: fc.array(
          fc.record({
            x: fc.constant(0),
            y: fc.constant(0),
            delay: fc.oneof(fc.constantFrom(0.1, 0.05, 1 / 3, 0.15, 0, -1), fc.double({ min: 0.01, max: 0.5, noNaN: true })),
            next: fc.integer({ min: -1, max: n - 1 }),
          }),
          { minLength: n, maxLength: n },
        ),
      }),
    );
    fc.assert(
      fc.property(arb, fc.integer({ min: 1, max: 97 }), (a, step) => {
        const { records } = playRecords(a, 2000, step);
        for (const r of records) expect(r.frame).toBe(naive(a, r.time / 1000));
      }),
      { numRuns: 100 },
    );
  });
});
