/**
 * render of an ISPRITE whose frames draw from two texture files, one missing: the graphics on the other
 * drawn, the missing texture one warning (src/formats/resources.ts MissingFiles); --strict, or no texture
 * left, is the error; check still reports it.
 */
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type IspriteDocument, writeIsprite } from '../../src/formats/isprite/index.js';
import { createImage } from '../../src/render/image.js';
import { decodePng, encodePng } from '../../src/render/png.js';
import { runCli } from '../helpers/cli.js';

const dir = fs.mkdtempSync(path.join(tmpdir(), 'sprat-isprite-missing-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const red = createImage(8, 8);
for (let i = 0; i < 64; i++) red.data.set([255, 0, 0, 255], i * 4);
fs.writeFileSync(path.join(dir, 'a.png'), encodePng(red));
const graphic = (slice: number, x: number) =>
  ({ type: 'graphic', expanded: false, name: null, slice, x, y: 0, flipX: false, flipY: false }) as const;
const doc: IspriteDocument = {
  version: [1, 0],
  nonStandard: false,
  workFile: false,
  nonStandardId: '',
  frameRate: 30,
  meta: null,
  extraMeta: null,
  textures: [
    { path: 'a', nearest: true },
    { path: 'b', nearest: true },
  ],
  slices: [
    { texture: 0, rotated: false, x: 0, y: 0, width: 8, height: 8 },
    { texture: 1, rotated: false, x: 0, y: 0, width: 8, height: 8 },
  ],
  names: [],
  tree: [
    { kind: 'sequence', name: 'both', loopPoint: null, followUp: '', frames: [0] },
    { kind: 'sequence', name: 'b-only', loopPoint: null, followUp: '', frames: [1] },
  ],
  frames: [
    { holdTime: 1, loopPoint: false, label: '', triggers: '', notes: '', elements: [graphic(0, 0), graphic(1, 8)] },
    { holdTime: 1, loopPoint: false, label: '', triggers: '', notes: '', elements: [graphic(1, 0)] },
  ],
  unknownChunks: [],
};
fs.writeFileSync(path.join(dir, 's.isprite'), writeIsprite(doc));

describe('isprite: a texture file missing', () => {
  it('render: the graphics on the other texture drawn, one warning; the missing one leaves its place clear', async () => {
    const r = await runCli(['render', 's.isprite', '--animation', 'both', '-o', 'both.png'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^s\.isprite: warning: .*"b".* not found .*; not drawn: the graphics on it\n$/);
    const img = decodePng(fs.readFileSync(path.join(dir, 'both.png')));
    expect([img.width, img.height]).toEqual([16, 8]);
    expect([...img.data.subarray(0, 4)]).toEqual([255, 0, 0, 255]);
    expect([...img.data.subarray(8 * 4, 8 * 4 + 4)]).toEqual([0, 0, 0, 0]);
  });

  it('nothing left to draw, or --strict: the error, nothing written; check reports it', async () => {
    for (const args of [
      ['--animation', 'b-only'],
      ['--animation', 'both', '--strict'],
    ]) {
      const r = await runCli(['render', 's.isprite', '-o', 'no.png', ...args], dir);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toMatch(/^sprat: error: s\.isprite: .*"b".* not found/);
      expect(fs.existsSync(path.join(dir, 'no.png'))).toBe(false);
    }
    const k = await runCli(['check', 's.isprite'], dir);
    expect(k.code).toBe(1);
  });
});
