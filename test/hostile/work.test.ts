/**
 * Small files that ask for much work, not only much memory (the issue "Every budget kept"): each
 * row of its table, built here by small generators, in-process through the command line. Each either
 * succeeds or stops with the one budget error line before the work (no output written); the same
 * inputs run in child processes under a CPU-time and memory limit in sweep.test.ts (cases.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { limitError } from '../helpers/errors.js';
import { encodePng } from '../../src/render/png.js';
import { createImage } from '../../src/render/image.js';
import { asepriteBlendBomb, bigSpriteTile, distinctCellsPng, iccpBomb, solarus, tmxPolygon, tmxRectangles, withChunks } from './cases.js';

let dir = '';
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-work-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function put(name: string, data: string | Uint8Array): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, data);
  return p;
}

describe('every budget kept', () => {
  it('a PNG with two big iCCP profiles as a Solarus sheet and given to `new`: drawn, checked and made (the profiles never inflated)', async () => {
    const img = createImage(16, 16);
    img.data.fill(200);
    const bomb = iccpBomb(64);
    put('sheet.png', withChunks(encodePng(img), [bomb, bomb]));
    put('s.dat', 'a sheet.png 1 100 0\n0\t0\t16\t16\t0\t0\t1\t1\n');
    const r = await runCli(['render', 's.dat', '-o', 'out.png'], dir);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const c = await runCli(['check', 's.dat'], dir);
    expect(c.code, c.stdout + c.stderr).toBe(0);
    const n = await runCli(['new', 'sheet.png', 'made.json', '--to', 'aseprite'], dir);
    expect(n.code, n.stderr).toBe(0);
  });

  it('a small .aseprite of 64 frames of 16 full 1024x1024 layers in "screen": --max-work before any is blended', async () => {
    put('screen.aseprite', asepriteBlendBomb(1024, 64, 16));
    for (const args of [
      ['render', 'screen.aseprite', '-o', 'screen.gif'],
      ['convert', 'screen.aseprite', 'screen.json', '--to', 'texturepacker'],
    ]) {
      const r = await runCli(args, dir);
      limitError(r, 'max-work');
      expect(r.stderr).toMatch(/would need \d+ steps/);
    }
    expect(fs.existsSync(path.join(dir, 'screen.gif'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'screen.json'))).toBe(false);
    // the same file with fewer frames is drawn (each blend within the budget)
    put('small.aseprite', asepriteBlendBomb(64, 2, 2));
    const ok = await runCli(['render', 'small.aseprite', '-o', 'small.gif'], dir);
    expect(ok.code, ok.stderr).toBe(0);
  });

  it('a 5,000-point polygon on an 8000x8000 map: --max-work before anything is painted', async () => {
    put('poly.tmx', tmxPolygon(5000));
    const r = await runCli(['render', 'poly.tmx', '-o', 'poly.png'], dir);
    limitError(r, 'max-work');
    expect(fs.existsSync(path.join(dir, 'poly.png'))).toBe(false);
  });

  it('a 100-point polygon on an 8000x8000 map is drawn, within the budgets', async () => {
    put('poly100.tmx', tmxPolygon(100));
    const r = await runCli(['render', 'poly100.tmx', '-o', 'poly100.png'], dir);
    expect(r.code, r.stderr).toBe(0);
  });

  it('16 full-map rectangles: the draw budget runs out before the first is painted', async () => {
    put('rects.tmx', tmxRectangles(16));
    const r = await runCli(['render', 'rects.tmx', '-o', 'rects.png'], dir);
    limitError(r, 'max-draw-pixels');
    expect(r.stderr).toContain('drawing the map would need');
  });

  it('`new --cell 16x16` of an 8192x8192 sheet of 262,144 distinct cells: --max-work before a cell is cut', async () => {
    put('cells.png', distinctCellsPng());
    const r = await runCli(['new', 'cells.png', 'cells.json', '--cell', '16x16', '--to', 'aseprite'], dir);
    limitError(r, 'max-work');
    expect(r.stderr).toContain('splitting the sheet into 512x512 cells of 16x16');
    expect(fs.existsSync(path.join(dir, 'cells.json'))).toBe(false);
  });

  it('diff of two SpriteTile levels of 4.7M cells each: --max-items before either JSON is made', async () => {
    const a = bigSpriteTile(4_700_000, 2048);
    const b = a.slice();
    b[b.length - 1]! ^= 1;
    put('a.bytes', a);
    put('b.bytes', b);
    const r = await runCli(['diff', 'a.bytes', 'b.bytes'], dir);
    limitError(r, 'max-items');
    expect(r.stderr).toContain('the diff of A would need 4700160 items');
  });

  it('frame names made from a 20,000-character animation name: --max-json-bytes before the sheet is drawn (no Set comparing them in full)', async () => {
    put('x.png', encodePng(createImage(1, 1)));
    // 2,000 frames: 40 MB of TexturePacker frame names, each too long for V8 to hash but by its length (a
    // Set of the 1,000 made within a 20 MB budget compared ~10^10 characters).
    put('long.dat', solarus(2000, 'x.png', 1, 1, 1, 'n'.repeat(20_000)));
    const r = await runCli(['convert', 'long.dat', 'long.json', '--to', 'texturepacker', '--max-json-bytes', '20000000'], dir);
    limitError(r, 'max-json-bytes');
    expect(r.stderr).toMatch(/the names of \d+ frames would need \d+ bytes/);
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('long') || f.startsWith('.long'))).toEqual(['long.dat']);
    // With the budget raised for them, the names are made and written, once each in `frames` and in `animations`.
    const few = put('few.dat', solarus(50, 'x.png', 1, 1, 1, 'n'.repeat(20_000)));
    const ok = await runCli(['convert', few, 'few.json', '--to', 'texturepacker'], dir);
    expect(ok.code, ok.stderr).toBe(0);
    const json = JSON.parse(fs.readFileSync(path.join(dir, 'few.json'), 'utf8'));
    expect(Object.keys(json.frames)).toHaveLength(50);
    expect(new Set(Object.keys(json.frames)).size).toBe(50);
  });
});
