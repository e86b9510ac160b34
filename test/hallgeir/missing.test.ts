/**
 * render of a Hallgeir map whose objects draw from a missing texture: the other objects drawn, the texture
 * one warning however many objects use it (src/formats/resources.ts MissingFiles); --strict, and a sprite or
 * object whose one texture is missing, are the error; check still reports it.
 */
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeImage } from '../../src/render/decode.js';
import { createImage, cropImage } from '../../src/render/image.js';
import { decodePng, encodePng } from '../../src/render/png.js';
import { runCli } from '../helpers/cli.js';
import { SAMPLES } from '../helpers/paths.js';

const dir = fs.mkdtempSync(path.join(tmpdir(), 'sprat-hallgeir-missing-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
fs.cpSync(path.join(SAMPLES, 'hallgeir'), dir, { recursive: true });
const coin = decodeImage(fs.readFileSync(path.join(dir, 'coin.bmp')), 'coin.bmp');
const WARNING =
  'level1.map: warning: texture "coin": file "coin.bmp" not found (looked for coin.bmp, coin.bmp.png, coin.bmp.bmp); not drawn: object "coin.obj"\n';

describe('hallgeir: a map with a missing texture', () => {
  it('draws the other objects, one warning for the texture two objects use; pixels as with a clear texture', async () => {
    // The map drawn with a clear coin texture: the hero's pixels, nothing where the coins are.
    fs.writeFileSync(path.join(dir, 'coin.bmp'), encodePng(createImage(coin.width, coin.height)));
    const clear = await runCli(['render', 'level1.map', '-o', 'clear.png'], dir);
    expect(clear.stderr).toBe('');
    fs.rmSync(path.join(dir, 'coin.bmp'));
    const r = await runCli(['render', 'level1.map', '-o', 'rest.png'], dir);
    expect([r.code, r.stderr]).toEqual([0, WARNING]);
    const rest = decodePng(fs.readFileSync(path.join(dir, 'rest.png')));
    const all = decodePng(fs.readFileSync(path.join(dir, 'clear.png')));
    expect(rest.width).toBeLessThanOrEqual(all.width);
    expect(cropImage(all, 0, 0, rest.width, rest.height)).toEqual(rest);
  });

  it('--strict: the missing texture is the error, nothing written; an object drawn from it alone is the error', async () => {
    const s = await runCli(['render', 'level1.map', '-o', 'strict.png', '--strict'], dir);
    expect(s.code).toBe(1);
    expect(s.stderr).toMatch(/^sprat: error: level1\.map: texture "coin": file "coin\.bmp" not found/);
    expect(fs.existsSync(path.join(dir, 'strict.png'))).toBe(false);
    const o = await runCli(['render', 'coin.obj', '-o', 'coin.png', '--frame-size', '16x16'], dir);
    expect([o.code, o.stderr]).toEqual([1, 'sprat: error: coin.obj: texture "coin" not found (looked for coin, coin.png, coin.bmp)\n']);
  });

  it('check still reports it', async () => {
    const k = await runCli(['check', 'level1.map'], dir);
    expect(k.code).toBe(1);
    expect(k.stdout + k.stderr).toContain('coin.bmp');
  });
});
