import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Budget, LimitError, limitsFrom } from '../../src/binary/limits.js';
import { comparePlayback, playbackChangeText, playbackOf } from '../../src/model/playback.js';
import type { ModelFrame, SpriteModel } from '../../src/model/types.js';
import { patternImage } from '../interop/helpers.js';

const sheet = patternImage(16, 8, 3);

function model(frames: ModelFrame[], more: Partial<SpriteModel['animations'][number]> = {}): SpriteModel {
  return {
    kind: 'sprite',
    name: 't',
    sheets: [{ path: 's.png', image: sheet }],
    animations: [{ name: 'walk', direction: '1', frames, loopTo: 0, ...more }],
  };
}
const part = (sx: number, x = 0, y = 0) => ({ sheet: 0, sx, sy: 0, sw: 4, sh: 4, x, y });
const frame = (sx: number, durationMs = 100): ModelFrame => ({ durationMs, parts: [part(sx)] });

describe('playbackOf / comparePlayback', () => {
  it('a model plays as itself (fast-check: any frames, durations and loop)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ sx: fc.integer({ min: 0, max: 12 }), d: fc.oneof(fc.integer({ min: 1, max: 900 }), fc.constant(Infinity)) }), {
          minLength: 1,
          maxLength: 5,
        }),
        fc.option(fc.integer({ min: 0, max: 4 })),
        (fs, loop) => {
          const m = model(
            fs.map((f) => frame(f.sx, f.d)),
            { loopTo: loop === null ? null : Math.min(loop, fs.length - 1) },
          );
          expect(comparePlayback(m, structuredClone(m))).toEqual([]);
        },
      ),
    );
  });

  it('parts cut another way that draw the same pixels are no difference (a frame split in two, a trimmed sheet)', () => {
    const a = model([{ durationMs: 100, parts: [{ sheet: 0, sx: 0, sy: 0, sw: 8, sh: 4, x: -4, y: -2 }] }]);
    const b = model([
      {
        durationMs: 100,
        parts: [
          { sheet: 0, sx: 0, sy: 0, sw: 4, sh: 4, x: -4, y: -2 },
          { sheet: 0, sx: 4, sy: 0, sw: 4, sh: 4, x: 0, y: -2 },
        ],
      },
    ]);
    expect(comparePlayback(a, b)).toEqual([]);
    // moved one pixel: the pixels differ
    const c = model([{ durationMs: 100, parts: [{ sheet: 0, sx: 0, sy: 0, sw: 8, sh: 4, x: -3, y: -2 }] }]);
    const [ch] = comparePlayback(a, c);
    expect(ch).toMatchObject({ kind: 'pixels', animation: 'walk', direction: '1', frame: 0, frames: 1 });
    expect(ch?.kind === 'pixels' && ch.pixels).toBeGreaterThan(0);
  });

  it('names each kind of change: frame count, duration (forever too), loop, next, added and removed', () => {
    const a = model([frame(0), frame(4), frame(8)], { next: 'idle' });
    const b = model([frame(0), frame(4, 120)], { loopTo: null });
    b.animations.push({ name: 'jump', frames: [frame(0)], loopTo: null });
    const changes = comparePlayback(a, b);
    expect(changes.map(playbackChangeText)).toEqual([
      'animation walk, direction 1: 3 -> 2 frames',
      'animation walk, direction 1: frame 1 duration 100 -> 120 ms',
      'animation walk, direction 1: loops to frame 0 -> stops on the last frame',
      'animation walk, direction 1: next "idle" -> none',
      '+ animation jump',
    ]);
    const forever = comparePlayback(model([frame(0, Infinity)]), model([frame(0, 250)]));
    expect(forever.map(playbackChangeText)).toEqual(['animation walk, direction 1: frame 0 duration forever -> 250 ms']);
    expect(comparePlayback(b, a).map(playbackChangeText)).toContain('- animation jump');
  });

  it('pixels: one change per direction with the first differing frame and how many differ', () => {
    const a = model([frame(0), frame(4), frame(8)]);
    const b = model([frame(0), frame(5), frame(9)]);
    const changes = comparePlayback(a, b);
    expect(changes).toEqual([{ kind: 'pixels', animation: 'walk', direction: '1', frame: 1, pixels: 16, frames: 2 }]);
    expect(playbackChangeText(changes[0]!)).toBe('animation walk, direction 1, frame 1: 16 pixels differ (and 1 more frame)');
  });

  it('loops that cannot be seen are no difference: one frame, or a frame shown forever', () => {
    expect(comparePlayback(model([frame(0)]), model([frame(0)], { loopTo: null }))).toEqual([]);
    expect(comparePlayback(model([frame(0), frame(4, Infinity)]), model([frame(0), frame(4, Infinity)], { loopTo: null }))).toEqual([]);
  });

  it('frames no animation plays are not played; a sheet without pixels is an error naming it', () => {
    const a = model([frame(0)]);
    a.animations.push({ name: 'spare', frames: [frame(4)], loopTo: null, unused: true });
    expect(playbackOf(a).tracks.map((t) => t.animation)).toEqual(['walk']);
    const b = model([frame(0)]);
    b.sheets[0] = { path: 'gone.png', loadError: 'no file gone.png' };
    expect(() => playbackOf(b)).toThrow(/"gone.png" were not loaded \(no file gone.png\)/);
  });

  it('two animations of one name and direction are matched in order (two Aseprite tags named "fall")', () => {
    const a = model([frame(0)]);
    a.animations.push({ name: 'walk', direction: '1', frames: [frame(4)], loopTo: 0 });
    expect(comparePlayback(a, structuredClone(a))).toEqual([]);
    const b = structuredClone(a);
    b.animations[1]!.frames[0]!.durationMs = 200;
    expect(comparePlayback(a, b)).toEqual([{ kind: 'duration', animation: 'walk', direction: '1', frame: 0, from: 100, to: 200 }]);
    const c = structuredClone(a);
    c.animations.pop();
    expect(comparePlayback(a, c)).toEqual([{ kind: 'removed', animation: 'walk', direction: '1' }]);
  });

  it('the drawing spends the budget it is given', () => {
    const m = model([frame(0), frame(4)]);
    expect(() => playbackOf(m, { budget: new Budget({ ...limitsFrom({}), maxPixels: 8 }) })).toThrow(LimitError);
  });
});
