import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { makeCthgSample } from '../../scripts/samples/cthg.js';
import { buildCthg, decodePixels, readCthg, validateCthg, writeCthg } from '../../src/formats/cthg/index.js';
import { SAMPLES } from '../helpers/paths.js';
import { decodePng } from '../../src/render/png.js';

const DIR = path.join(SAMPLES, 'cthg');

describe('bundled CTHG sample', () => {
  const { files } = makeCthgSample();
  if (process.env.UPDATE_SAMPLES) {
    mkdirSync(DIR, { recursive: true });
    for (const f of files) writeFileSync(path.join(DIR, f.name), f.bytes);
  }

  it('the committed files equal the generator output (UPDATE_SAMPLES=1 to refresh)', () => {
    for (const f of files) {
      const p = path.join(DIR, f.name);
      expect(existsSync(p), p).toBe(true);
      expect(new Uint8Array(readFileSync(p))).toEqual(f.bytes);
    }
  });

  it('is valid, in the canonical order, with recolour runs and flags', () => {
    const dat = files.find((f) => f.name === 'fan.dat')!.bytes;
    expect(validateCthg(dat)).toEqual([]);
    const doc = readCthg(dat);
    expect(doc.animations[0]).toMatchObject({ name: 'desk_fan', frameCount: 4, views: { north: 0, east: 4, south: 8, west: 12 } });
    const recoloured = doc.sprites.filter((s) => {
      const layers = new Int16Array(s.width * s.height);
      decodePixels(s.data, s.width, s.height, undefined, layers);
      return layers.includes(1);
    });
    expect(recoloured.length).toBe(8);
    const flags = new Set(doc.frames.flatMap((f) => f.elements.map((e) => e.flags)));
    expect([...flags].sort()).toEqual([0, 2, 4, 8]);
  });

  it('fan.dat is what buildCthg makes from the committed fan.json and PNGs', async () => {
    const description = JSON.parse(readFileSync(path.join(DIR, 'fan.json'), 'utf8'));
    const doc = await buildCthg(description, async (p) => decodePng(new Uint8Array(readFileSync(path.join(DIR, p)))));
    expect(writeCthg(doc)).toEqual(new Uint8Array(readFileSync(path.join(DIR, 'fan.dat'))));
  });
});
