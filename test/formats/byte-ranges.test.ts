/**
 * Byte ranges of the inspect JSON's parts (the viewer's field tree): ISPRITE
 * chunks and records, CTHG header and blocks.
 */
import { describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { byteRanges, load } from '../../src/api.js';
import { CORPUS, SAMPLES } from '../helpers/paths.js';

const ascii = (b: Uint8Array, at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n));

describe('byteRanges', () => {
  it('ISPRITE: each chunk from its id to its end, the records inside their chunk', () => {
    const file = path.join(SAMPLES, 'isprite/hero.isprite');
    const bytes = new Uint8Array(fs.readFileSync(file));
    const loaded = load(bytes, file);
    const r = byteRanges(loaded, bytes);
    const json = loaded.handler.inspectJson(loaded.doc) as { frames: unknown[]; slices: unknown[] };
    for (const [key, id] of [
      ['/meta', 'META'],
      ['/textures', 'TEX '],
      ['/slices', 'SLIC'],
      ['/tree', 'TIER'],
      ['/frames', 'FRAM'],
    ] as const)
      expect(ascii(bytes, r[key]![0], 4), key).toBe(id);
    const ends = Object.entries(r)
      .filter(([k]) => /^\/[a-zA-Z]+$/.test(k) && !['/version', '/nonStandard', '/workFile', '/nonStandardId', '/frameRate'].includes(k))
      .map(([, v]) => v[1]);
    expect(ends.reduce((m, v) => Math.max(m, v), 0)).toBe(bytes.length);
    const rate = r['/frameRate']!;
    expect(rate[1] - rate[0]).toBe(1);
    expect(bytes[rate[0]]).toBe(10);
    const fram = r['/frames']!;
    for (let i = 0; i < json.frames.length; i++) {
      const f = r[`/frames/${i}`]!;
      expect(f[0]).toBeGreaterThan(fram[0]);
      expect(f[1]).toBeLessThanOrEqual(fram[1]);
      if (i > 0) expect(f[0]).toBe(r[`/frames/${i - 1}`]![1]);
    }
    expect(r[`/frames/${json.frames.length - 1}`]![1]).toBe(fram[1]);
    expect(Object.keys(r).filter((k) => k.startsWith('/slices/'))).toHaveLength(json.slices.length);
  });

  it('CTHG: the header and every block, back to back to the end of the file, each starting with its ID', () => {
    for (const file of [
      path.join(SAMPLES, 'cthg/fan.dat'),
      ...fs
        .readdirSync(path.join(CORPUS, 'cthg'))
        .filter((f) => f.endsWith('.dat'))
        .map((f) => path.join(CORPUS, 'cthg', f)),
    ]) {
      const bytes = new Uint8Array(fs.readFileSync(file));
      const loaded = load(bytes, file);
      const r = byteRanges(loaded, bytes);
      expect(r['/header']).toEqual([6, 26]);
      const blocks = Object.entries(r)
        .filter(([k]) => /^\/(animations|frames|sprites)\/\d+$/.test(k))
        .sort((a, b) => a[1][0] - b[1][0]);
      let at = 26;
      for (const [k, [s, e]] of blocks) {
        expect(s, k).toBe(at);
        expect(ascii(bytes, s, 2), k).toBe(k.startsWith('/animations') ? 'CA' : k.startsWith('/frames') ? 'FR' : 'SP');
        at = e;
      }
      expect(at, file).toBe(bytes.length);
      const e = r['/frames/0/elements/0']!;
      expect(e).toEqual([r['/frames/0']![0] + 6, r['/frames/0']![0] + 18]);
    }
  });

  it('formats that do not say give {}', () => {
    const file = path.join(SAMPLES, 'interop/dungeon.tmj');
    const bytes = new Uint8Array(fs.readFileSync(file));
    expect(byteRanges(load(bytes, file), bytes)).toEqual({});
  });
});
