/**
 * No silent change in timing: a conversion that changes a frame's duration
 * says so, naming both values and the frames (Aseprite -> ISPRITE
 * turned a 1 ms frame into 1000 ms; Aseprite -> Solarus used one delay for
 * all frames, with no note).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readIsprite } from '../../src/formats/isprite/read.js';
import { timingNotes } from '../../src/model/timing.js';
import { encodePng } from '../../src/render/png.js';
import { runCli } from '../helpers/cli.js';
import { FIXTURES, patternImage } from '../interop/helpers.js';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-timing-'));
  fs.writeFileSync(path.join(dir, 'hero.png'), encodePng(patternImage(63, 16, 1)));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The hero fixture with the given frame durations (ms) and one forward tag over all four frames. */
function heroWith(name: string, durations: number[]): string {
  const doc = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'hero-aseprite-hash.json'), 'utf8'));
  Object.values(doc.frames).forEach((f, i) => ((f as { duration: number }).duration = durations[i]!));
  doc.meta.frameTags = [{ name: 'walk', from: 0, to: 3, direction: 'forward', color: '#000000ff' }];
  fs.writeFileSync(path.join(dir, name), JSON.stringify(doc));
  return name;
}

const notesOf = (stderr: string) => stderr.split('\n').filter((l) => l.includes(': note: '));

describe('Aseprite -> ISPRITE timing', () => {
  it('a 1 ms frame becomes the nearest an ISPRITE holds (one frame at 255 fps), never 1000 ms, and a note names both values', async () => {
    const src = heroWith('fast.json', [1, 1, 1, 1]);
    const r = await runCli(['convert', src, 'fast.isprite'], dir);
    expect(r.code).toBe(0);
    const doc = readIsprite(new Uint8Array(fs.readFileSync(path.join(dir, 'fast.isprite'))));
    expect(doc.frameRate).toBe(255);
    expect(doc.frames.map((f) => f.holdTime)).toEqual([1, 1, 1, 1]);
    expect(notesOf(r.stderr)).toEqual([
      'fast.json: note: isprite: frame durations rounded to whole frames at 255 fps (ISPRITE holds each frame 1 to 65535 frames): 1 ms -> 3.92 ms ("walk" frames 0, 1, 2, 3)',
    ]);
  });

  it('durations a frame rate holds exactly convert without a note', async () => {
    const src = heroWith('exact.json', [100, 150, 100, 250]);
    const r = await runCli(['convert', src, 'exact.isprite'], dir);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/isprite: frame durations/);
    const doc = readIsprite(new Uint8Array(fs.readFileSync(path.join(dir, 'exact.isprite'))));
    expect(doc.frames.map((f) => (f.holdTime * 1000) / doc.frameRate)).toEqual([100, 150, 100, 250]);
  });

  it('mixed durations that no rate holds exactly are each noted with the value they became', async () => {
    const src = heroWith('mixed.json', [1, 100, 100, 7]);
    const r = await runCli(['convert', src, 'mixed.isprite'], dir);
    expect(r.code).toBe(0);
    const notes = notesOf(r.stderr).filter((l) => l.includes('isprite: frame durations'));
    expect(notes.length).toBeGreaterThan(0);
    expect(notes.join('\n')).toMatch(/1 ms -> [\d.]+ ms \("walk" frame 0\)/);
    const doc = readIsprite(new Uint8Array(fs.readFileSync(path.join(dir, 'mixed.isprite'))));
    expect((doc.frames[0]!.holdTime * 1000) / doc.frameRate).toBeLessThan(10);
  });
});

describe('-> Aseprite timing', () => {
  it('durations that are not whole milliseconds are rounded with a note (ISPRITE at 255 fps -> Aseprite)', async () => {
    await runCli(['convert', heroWith('quick.json', [1, 1, 1, 1]), 'quick.isprite'], dir);
    const r = await runCli(['convert', 'quick.isprite', 'quick-back.json', '--to', 'aseprite'], dir);
    expect(r.code).toBe(0);
    expect(notesOf(r.stderr)).toContain(
      'quick.isprite: note: aseprite: Aseprite stores whole milliseconds, at least 1: 3.92 ms -> 4 ms ("walk" frames 0, 1, 2, 3)',
    );
  });
});

describe('Aseprite -> Solarus timing', () => {
  it('one frame_delay per animation: the most common duration, and a note for every frame that changes', async () => {
    const src = heroWith('walk.json', [100, 150, 100, 250]);
    const r = await runCli(['convert', src, 'walk.dat', '--to', 'solarus-lua'], dir);
    expect(r.code).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'walk.dat'), 'utf8')).toContain('frame_delay = 100,');
    const notes = notesOf(r.stderr).filter((l) => l.includes('frame_delay'));
    expect(notes).toEqual([
      'walk.json: note: solarus-lua: Solarus has one frame_delay per animation: 150 ms -> 100 ms ("walk" frame 1)',
      'walk.json: note: solarus-lua: Solarus has one frame_delay per animation: 250 ms -> 100 ms ("walk" frame 3)',
    ]);
  });

  it('equal durations convert without a timing note', async () => {
    const src = heroWith('even.json', [80, 80, 80, 80]);
    const r = await runCli(['convert', src, 'even.dat', '--to', 'solarus-lua'], dir);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/frame_delay/);
    expect(fs.readFileSync(path.join(dir, 'even.dat'), 'utf8')).toContain('frame_delay = 80,');
  });
});

describe('-> CTHG timing', () => {
  it('every frame becomes one 90 ms tick: a note for each other duration; 90 ms frames convert without one', async () => {
    const r = await runCli(['convert', heroWith('ct.json', [90, 90, 100, 90]), 'ct.dat', '--to', 'cthg'], dir);
    expect(r.code).toBe(0);
    expect(notesOf(r.stderr).filter((l) => l.includes('tick'))).toEqual([
      'ct.json: note: cthg: every CTHG frame lasts one game tick (90 ms): 100 ms -> 90 ms ("walk" frame 2)',
    ]);
  });
});

describe('timingNotes', () => {
  it('groups equal changes, names directions, and says "forever"', () => {
    expect(
      timingNotes('x', 'why', [
        { at: { animation: 'a', direction: '0', frame: 0 }, fromMs: 10, toMs: 20 },
        { at: { animation: 'a', direction: '0', frame: 2 }, fromMs: 10, toMs: 20 },
        { at: { animation: 'b', frame: 1 }, fromMs: Infinity, toMs: 65535 },
        { at: { animation: 'b', frame: 2 }, fromMs: 33.3333333, toMs: 33.3333334 },
      ]),
    ).toEqual(['x: why: 10 ms -> 20 ms ("a" direction 0 frames 0, 2)', 'x: why: forever -> 65535 ms ("b" frame 1)']);
  });
});

describe('-> Hallgeir', () => {
  it('notes 0 ms frames written as frames that hold; frames of several sizes are drawn into a new texture of one frame size', async () => {
    const { spriteFromModel } = await import('../../src/formats/hallgeir/convert.js');
    const part = (sw: number) => ({ sheet: 0, sx: 0, sy: 0, sw, sh: 8, x: 0, y: 0 });
    const model: import('../../src/model/types.js').SpriteModel = {
      kind: 'sprite',
      name: 'h',
      sheets: [{ path: 'h.png', image: patternImage(10, 8) }],
      animations: [
        {
          name: 'a',
          loopTo: 0,
          frames: [
            { durationMs: 0, parts: [part(8)] },
            { durationMs: 100, parts: [part(10)] },
          ],
        },
      ],
    };
    const doc = spriteFromModel(model);
    expect(doc.animations[0]!.frames.map((f) => [f.delay, f.next])).toEqual([
      [0, -1],
      [0.1, 0],
    ]);
    expect(doc.bakedTexture).toBeDefined();
    expect(model.notes).toEqual([
      'hallgeir-sprite: the frames were drawn into a new texture beside the sprite, named after it (.png), in frames of 10x8: read the sprite with --frame-size 10x8',
      'hallgeir-sprite: frames of 0 ms are written as frames that hold forever: "a" frame 0',
    ]);
  });
});
