import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { SAMPLES } from '../helpers/paths.js';
import { fsResourceLoader } from '../../src/node/fs.js';
import {
  ispriteHandler,
  ispriteFromModel,
  ispriteToModel,
  readIsprite,
  writeIsprite,
  validateIsprite,
} from '../../src/formats/isprite/index.js';
import { FORMATS } from '../../src/registry.js';
import { detectFormat } from '../../src/detect.js';
import { makeHeroDocument } from '../../scripts/samples/isprite.js';

describe('ISPRITE and the common model', () => {
  it('is registered first and found by its magic and extensions', () => {
    expect(FORMATS[0]).toBe(ispriteHandler);
    const bytes = writeIsprite(makeHeroDocument());
    expect(detectFormat(bytes, 'x.bin')).toBe(ispriteHandler);
    expect(detectFormat(new Uint8Array(0), 'x.sprite')).toBe(ispriteHandler);
    expect(detectFormat(new Uint8Array(0), 'x.isprite')).toBe(ispriteHandler);
  });

  it('toModel: sequences become animations named by path, with durations, parts and shapes', async () => {
    const doc = readIsprite(readFileSync(path.join(SAMPLES, 'isprite/hero.isprite')));
    const m = await ispriteToModel(doc, fsResourceLoader(path.join(SAMPLES, 'isprite')));
    expect(m.notes).toEqual([]);
    expect(m.name).toBe('Hero');
    expect(m.sheets).toHaveLength(1);
    expect(m.sheets[0]!.path).toBe('hero');
    expect(m.sheets[0]!.nearest).toBe(true);
    expect(m.sheets[0]!.image!.width).toBeGreaterThan(100);
    expect(m.animations.map((a) => a.name)).toEqual(['idle', 'walk', 'Armed/attack', 'Armed/idle']);
    const idle = m.animations[0]!;
    expect(idle.loopTo).toBe(0);
    expect(idle.frames[0]!.durationMs).toBe(400); // hold 4 at 10 fps
    const body = idle.frames[0]!.parts[0]!;
    // A simple element: upper-left at (-8, -24), pivot at the slice centre.
    expect(body).toEqual({ sheet: 0, sx: 0, sy: 0, sw: 16, sh: 24, x: 0, y: -12, originX: 8, originY: 12 });
    expect(idle.frames[0]!.shapes).toEqual([
      { type: 'point', name: 'hand', x: 5, y: -12 },
      { type: 'rect', name: 'hurtbox', x: -6, y: -23, width: 12, height: 23 },
    ]);
    const attack = m.animations[2]!;
    expect(attack.loopTo).toBeNull();
    expect(attack.next).toBe('Armed/idle'); // "idle" found in Armed first
    expect(attack.frames.map((f) => f.durationMs)).toEqual([1000 / 15, 2000 / 15, 3000 / 15]); // MET+ 15 fps
    expect(attack.frames[1]!.events).toEqual(['swing']);
    const sword = attack.frames[0]!.parts[0]!;
    expect(sword).toMatchObject({ x: -3.5, y: -13.5, originX: 2, originY: 12.5, rotation: -60, name: 'sword' });
  });

  it('toModel without the sheet says so in a note', async () => {
    const doc = makeHeroDocument();
    const m = await ispriteToModel(doc, {
      load: async () => {
        throw new Error('no');
      },
      exists: async () => false,
    });
    expect(m.notes).toEqual(['texture 0 "hero" not found (looked for hero.png); the sheet has no pixels']);
  });

  it('fromModel: back to a valid sprite that draws the same parts', async () => {
    const m = await ispriteToModel(makeHeroDocument());
    const doc = ispriteFromModel(m);
    const bytes = writeIsprite(doc);
    expect(validateIsprite(bytes).filter((d) => d.severity === 'error')).toEqual([]);
    expect(doc.frameRate).toBe(15); // 400 ms, 200 ms and 66.7 ms frames all fit 15 fps
    expect(doc.slices).toHaveLength(10);
    expect(doc.tree.map((n) => n.name)).toEqual(['idle', 'walk', 'Armed']);
    const again = await ispriteToModel(readIsprite(bytes));
    expect(again.animations.map((a) => a.name)).toEqual(m.animations.map((a) => a.name));
    for (let i = 0; i < m.animations.length; i++) {
      const a = m.animations[i]!;
      const b = again.animations[i]!;
      expect(b.loopTo).toBe(a.loopTo);
      expect(b.frames.map((f) => Math.round(f.durationMs))).toEqual(a.frames.map((f) => Math.round(f.durationMs)));
      expect(b.frames.map((f) => f.parts)).toEqual(a.frames.map((f) => f.parts));
      expect(b.frames.map((f) => f.shapes)).toEqual(a.frames.map((f) => f.shapes));
    }
    expect(again.animations[2]!.next).toBe('Armed/idle');
  });

  it('a frame rate of 0 gives frames that last forever, with a note', async () => {
    const doc = makeHeroDocument();
    doc.frameRate = 0;
    doc.extraMeta = null;
    const m = await ispriteToModel(doc);
    expect(m.animations[0]!.frames[0]!.durationMs).toBe(Infinity);
    expect(m.notes).toContain('a frame rate of 0 (the application steps by hand) gives frames that last forever');
    // and back: sequences the application steps by hand (rate 0, erratum 6), frames that last forever again
    const back = ispriteFromModel(m);
    expect(back.frames[0]!.holdTime).toBe(1);
    const again = await ispriteToModel(back);
    expect(again.animations.every((a) => a.frames.every((f) => f.durationMs === Infinity))).toBe(true);
    expect(validateIsprite(writeIsprite(back)).filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('directions: an animation with directions is a group of direction sequences, read back as the same animation', async () => {
    const frame = { durationMs: 100, parts: [] };
    const m = await ispriteToModel(
      ispriteFromModel({
        kind: 'sprite',
        name: 'x',
        sheets: [],
        animations: [
          { name: 'walk', direction: 'north', frames: [frame], loopTo: 0 },
          { name: 'walk', direction: 'south', frames: [frame], loopTo: 0 },
          { name: 'Armed/idle', frames: [frame], loopTo: 0 },
        ],
      }),
    );
    expect(m.animations.map((a) => [a.name, a.direction])).toEqual([
      ['walk', 'north'],
      ['walk', 'south'],
      ['Armed/idle', undefined],
    ]);
  });

  it('fromModel refuses a level', () => {
    expect(() => ispriteFromModel({ kind: 'level', layers: [], tilesets: [] })).toThrow(/holds a sprite, not a level/);
  });
});
