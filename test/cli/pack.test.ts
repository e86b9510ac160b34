/**
 * `sprat pack` (src/cli/pack.ts) through runCli: a folder of PNG frames to
 * every --to format, a sprite file keeping its animations, --scale,
 * --multipack, --trim-threshold, --changed, and one-line errors.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { decode } from 'fast-png';
import { TextureAtlas } from '@esotericsoftware/spine-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTexturePacker } from '../../src/interop/texturepacker/index.js';
import { createImage } from '../../src/render/image.js';
import { encodePng } from '../../src/render/png.js';
import { runCli } from '../helpers/cli.js';
import { ROOT } from '../helpers/paths.js';

let dir: string;
const read = (p: string) => fs.readFileSync(path.join(dir, p));

/** A 12 x 10 frame with a patterned 5 x 4 box at (2 + i, 3). */
function framePng(i: number): Uint8Array {
  const img = createImage(12, 10);
  for (let y = 3; y < 7; y++) for (let x = 2 + i; x < 7 + i; x++) img.data.set([x * 20, y * 30, i * 60, 255], (y * 12 + x) * 4);
  return encodePng(img);
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-pack-'));
  fs.mkdirSync(path.join(dir, 'frames'));
  for (let i = 0; i < 3; i++) fs.writeFileSync(path.join(dir, 'frames', `walk_${i}.png`), framePng(i));
  fs.writeFileSync(path.join(dir, 'frames', 'idle.png'), framePng(0));
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('sprat pack', () => {
  it('a folder of PNGs: trimmed frames, walk_N as animation "walk", the alias stored once (texturepacker)', async () => {
    fs.mkdirSync(path.join(dir, 'tp'), { recursive: true });
    const r2 = await runCli(['pack', 'frames', '-o', 'tp/hero.json', '--trim'], dir);
    expect(r2.stderr).toBe('');
    expect(r2.code).toBe(0);
    expect(r2.stdout).toContain('wrote tp/hero.json');
    expect(r2.stdout).toContain('wrote tp/hero.png');
    const doc = readTexturePacker(read('tp/hero.json'));
    expect(doc.frames.map((f) => f.filename)).toEqual(['idle', 'walk_0', 'walk_1', 'walk_2']);
    expect(doc.frames[1]).toMatchObject({ trimmed: true, spriteSourceSize: { x: 2, y: 3, w: 5, h: 4 }, sourceSize: { w: 12, h: 10 } });
    // idle is walk_0's pixels: one rectangle.
    expect(doc.frames[0]!.frame).toEqual(doc.frames[1]!.frame);
    expect(doc.animations).toEqual([['walk', ['walk_0', 'walk_1', 'walk_2']]]);
    const page = decode(read('tp/hero.png'));
    expect([page.width, page.height]).toEqual([doc.meta.size!.w, doc.meta.size!.h]);
  });

  it('--trim-threshold N also cuts edges of alpha N or less; --trim cuts alpha 0 only; a value past 254 is exit 2', async () => {
    // A 10 x 8 canvas: a faint (alpha 10) 6 x 6 box at (1, 1) around an opaque 2 x 3 core at (3, 2).
    const img = createImage(10, 8);
    for (let y = 1; y < 7; y++) for (let x = 1; x < 7; x++) img.data.set([200, 100, 50, 10], (y * 10 + x) * 4);
    for (let y = 2; y < 5; y++) for (let x = 3; x < 5; x++) img.data.set([x * 40, y * 50, 90, 255], (y * 10 + x) * 4);
    fs.mkdirSync(path.join(dir, 'faint', 'in'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'faint', 'in', 'glow.png'), encodePng(img));
    const box = async (out: string, extra: string[]) => {
      const r = await runCli(['pack', 'faint/in', '-o', `faint/${out}.json`, ...extra], dir);
      expect(r.code, r.stderr).toBe(0);
      return readTexturePacker(read(`faint/${out}.json`)).frames[0]!.spriteSourceSize;
    };
    expect(await box('zero', ['--trim'])).toEqual({ x: 1, y: 1, w: 6, h: 6 });
    expect(await box('nine', ['--trim-threshold', '9'])).toEqual({ x: 1, y: 1, w: 6, h: 6 });
    expect(await box('ten', ['--trim', '--trim-threshold', '10'])).toEqual({ x: 3, y: 2, w: 2, h: 3 });
    expect(await box('ten-alone', ['--trim-threshold=10'])).toEqual({ x: 3, y: 2, w: 2, h: 3 });
    const bad = await runCli(['pack', 'faint/in', '-o', 'faint/bad.json', '--trim-threshold', '255'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr.split('\n')).toEqual([expect.stringMatching(/^sprat: error: .*trim-threshold.*254/), '']);
  });

  it('a folder: files `check` does not read are left out, and a bad sprite in it is named in the one error line', async () => {
    const d = path.join(dir, 'mixed');
    fs.mkdirSync(path.join(d, 'sprites'), { recursive: true });
    fs.writeFileSync(path.join(d, 'walk_0.png'), framePng(0));
    fs.writeFileSync(path.join(d, 'README.md'), '# notes: not a sprite\n');
    fs.mkdirSync(path.join(dir, 'mixed-out'));
    const ok = await runCli(['pack', 'mixed', '-o', 'mixed-out/a.json'], dir);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    fs.writeFileSync(path.join(d, 'sprites', 'bad.dat'), 'walking hero.png 1 100\n');
    const bad = await runCli(['pack', 'mixed', '-o', 'mixed-out/b.json'], dir);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^sprat: error: mixed\/sprites\/bad\.dat: .*\(at line 1, column \d+\)\n$/);
    expect(fs.existsSync(path.join(dir, 'mixed-out', 'b.json'))).toBe(false);
  });

  it('writes every --to format, the same bytes each time', async () => {
    const want: Record<string, string[]> = {
      texturepacker: ['a.json', 'a.png'],
      aseprite: ['a.json', 'a.png'],
      godot4: ['a.tres', 'a.png'],
      godot3: ['a.tres', 'a.png'],
      libgdx: ['a.atlas', 'a.png'],
      starling: ['a.xml', 'a.png'],
      cocos2d: ['a.plist', 'a.png'],
      phaser3: ['a.json', 'a.png'],
      pixi: ['a.json', 'a.png'],
      css: ['a.css', 'a.png'],
    };
    for (const [to, files] of Object.entries(want)) {
      const out = path.join('all', to, files[0]!);
      fs.mkdirSync(path.join(dir, 'all', to), { recursive: true });
      const r = await runCli(['pack', 'frames', '-o', out, '--to', to, '--trim', '--padding', '1'], dir);
      expect([to, r.code, r.stderr.split('\n').filter((l) => l.includes('error'))]).toEqual([to, 0, []]);
      expect(fs.readdirSync(path.join(dir, 'all', to)).sort(), to).toEqual([...files].sort());
      // The same pack again writes the same bytes: --changed finds nothing to write.
      const again = await runCli(['pack', 'frames', '-o', out, '--to', to, '--trim', '--padding', '1', '--changed'], dir);
      expect([to, again.code, again.stdout]).toEqual([to, 0, expect.stringContaining('up to date')]);
    }
  });

  it('the extension picks the format; an unknown one or --to is a one-line error with exit 2', async () => {
    fs.mkdirSync(path.join(dir, 'ext'), { recursive: true });
    const r = await runCli(['pack', 'frames', '-o', 'ext/a.atlas'], dir);
    expect(r.code).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'ext', 'a.atlas'), 'utf8')).toContain('a.png');
    const bad = await runCli(['pack', 'frames', '-o', 'ext/a.json', '--to', 'godto4'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^sprat: error: .*did you mean "godot4"\?.*\n$/);
    const noExt = await runCli(['pack', 'frames', '-o', 'ext/a.bin'], dir);
    expect([noExt.code, noExt.stderr.split('\n').length]).toEqual([2, 2]);
    const rotate = await runCli(['pack', 'frames', '-o', 'ext/b.tres', '--to', 'godot4', '--rotate'], dir);
    expect(rotate.code).toBe(2);
    expect(rotate.stderr).toContain('--rotate: godot4 cannot say a frame is stored rotated');
    const missing = await runCli(['pack', 'nothing-here', '-o', 'ext/c.json'], dir);
    expect(missing).toMatchObject({ code: 1, stderr: 'sprat: error: nothing-here: no such file or folder\n' });
  });

  it('--rotate: libgdx stores frames a quarter turn counterclockwise (`rotate: true`); phaser3 and starling refuse it, saying why', async () => {
    fs.mkdirSync(path.join(dir, 'turn'), { recursive: true });
    // The trimmed boxes are 5 x 4: only turned do they fit a page 4 wide.
    const r = await runCli(['pack', 'frames', '-o', 'turn/a.atlas', '--trim', '--rotate', '--max-size', '4x16'], dir);
    expect(r.code, r.stderr).toBe(0);
    const regions = new TextureAtlas(fs.readFileSync(path.join(dir, 'turn/a.atlas'), 'utf8')).regions;
    expect(regions.map((g) => [g.name, g.index, g.degrees, g.width, g.height])).toEqual([
      ['idle', 0, 90, 5, 4],
      ['walk', 0, 90, 5, 4],
      ['walk', 1, 90, 5, 4],
      ['walk', 2, 90, 5, 4],
    ]);
    for (const [to, why] of [
      ['phaser3', 'phaser3 stores frames upright (Phaser 3 draws a frame its file marks `rotated` mirrored and stretched)'],
      ['starling', "starling stores frames upright (Phaser 3's load.atlasXML reads no `rotated`, though Starling does)"],
    ]) {
      const no = await runCli(['pack', 'frames', '-o', `turn/${to}.out`, '--to', to!, '--rotate'], dir);
      expect(no).toMatchObject({
        code: 2,
        stderr: `sprat: error: --rotate: ${why}; formats that can: texturepacker, libgdx, cocos2d, pixi\n`,
      });
    }
    expect(fs.readdirSync(path.join(dir, 'turn')).sort()).toEqual(['a.atlas', 'a.png']);
  });

  it('--to template writes through an Eta template file (--template), which it needs', async () => {
    fs.mkdirSync(path.join(dir, 'tpl'), { recursive: true });
    const solar = path.join(ROOT, 'docs/templates/solar2d.lua.eta');
    const r = await runCli(['pack', 'frames', '-o', 'tpl/hero.lua', '--to', 'template', '--template', solar, '--trim'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'tpl/hero.lua'), 'utf8')).toContain('walk_0');
    const none = await runCli(['pack', 'frames', '-o', 'tpl/x.lua', '--to', 'template'], dir);
    expect(none).toMatchObject({ code: 2, stderr: 'sprat: error: --to template needs --template FILE\n' });
  });

  it('a sprite file: its animations are kept', async () => {
    fs.mkdirSync(path.join(dir, 'sprite'), { recursive: true });
    const r = await runCli(
      ['pack', path.join(ROOT, 'samples/isprite/hero.isprite'), '-o', 'sprite/hero.json', '--trim', '--to', 'pixi'],
      dir,
    );
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(read('sprite/hero.json').toString()) as {
      frames: Record<string, unknown>;
      animations: Record<string, string[]>;
    };
    const anims = doc.animations;
    expect(Object.keys(anims).length).toBeGreaterThan(1);
    for (const list of Object.values(anims)) for (const n of list) expect(doc.frames[n], n).toBeDefined();
  });

  it("never replaces a file the input uses: a page named as the sprite's sheet is refused, nothing written", async () => {
    fs.mkdirSync(path.join(dir, 'own'), { recursive: true });
    for (const f of ['hero.isprite', 'hero.png']) fs.copyFileSync(path.join(ROOT, 'samples/isprite', f), path.join(dir, 'own', f));
    const sheet = read('own/hero.png');
    const r = await runCli(['pack', 'own/hero.isprite', '-o', 'own/hero.json', '--overwrite'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n').filter((l) => l.includes('error'))).toEqual([
      'sprat: error: own/hero.png: is the input or a file it uses; pack never overwrites those (choose another output name)',
    ]);
    expect(read('own/hero.png').equals(sheet)).toBe(true);
    expect(fs.existsSync(path.join(dir, 'own', 'hero.json'))).toBe(false);
  });

  it('--scale 1,0.5 writes a data file and pages per scale', async () => {
    fs.mkdirSync(path.join(dir, 'scaled'), { recursive: true });
    const r = await runCli(['pack', 'frames', '-o', 'scaled/atlas.json', '--scale', '1,0.5'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readdirSync(path.join(dir, 'scaled')).sort()).toEqual(['atlas.json', 'atlas.png', 'atlas@0.5x.json', 'atlas@0.5x.png']);
    const half = readTexturePacker(read('scaled/atlas@0.5x.json'));
    expect([half.meta.image, half.meta.scale, half.frames[0]!.sourceSize]).toEqual(['atlas@0.5x.png', '0.5', { w: 6, h: 5 }]);
    const bad = await runCli(['pack', 'frames', '-o', 'scaled/b.json', '--scale', '1,x'], dir);
    expect(bad.code).toBe(2);
  });

  it('--multipack spreads the frames over pages of --max-size; without it, one error naming --max-size', async () => {
    fs.mkdirSync(path.join(dir, 'multi'), { recursive: true });
    const args = ['pack', 'frames', '-o', 'multi/m.json', '--max-size', '12x10'];
    const one = await runCli(args, dir);
    expect(one.code).toBe(2);
    expect(one.stderr).toMatch(/^sprat: error: .*--max-size.*--multipack.*\n$/);
    const r = await runCli([...args, '--multipack'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readdirSync(path.join(dir, 'multi')).sort()).toEqual(['m-1.json', 'm-1.png', 'm-2.json', 'm-2.png', 'm.json', 'm.png']);
  });

  it('--changed writes only the files whose bytes the pack changes: none when nothing changed, a deleted or hand-edited page', async () => {
    const d = path.join(dir, 'changed');
    fs.mkdirSync(path.join(d, 'in'), { recursive: true });
    for (let i = 0; i < 3; i++) fs.writeFileSync(path.join(d, 'in', `walk_${i}.png`), framePng(i));
    const args = ['pack', 'changed/in', '-o', 'changed/c.json', '--trim', '--changed'];
    const first = await runCli(args, dir);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('wrote changed/c.png');
    const files = ['c.json', 'c.png'];
    const bytes = () => files.map((f) => fs.readFileSync(path.join(d, f)));
    const times = () => files.map((f) => fs.statSync(path.join(d, f)).mtimeMs);
    const packed = bytes();
    // Known old times on the outputs: a file written again shows a new one.
    const old = new Date('2001-02-03T04:05:06Z');
    const age = () => {
      for (const f of files) fs.utimesSync(path.join(d, f), old, old);
    };
    age();
    const oldTimes = times();
    const upToDate = 'changed/c.json: up to date (every file the pack writes is there, byte for byte), nothing written\n';
    expect(await runCli(args, dir)).toMatchObject({ code: 0, stdout: upToDate, stderr: '' });
    // An input newer than the outputs but the same pixels: still nothing to write.
    const later = new Date(old.getTime() + 86_400_000);
    fs.utimesSync(path.join(d, 'in', 'walk_1.png'), later, later);
    expect(await runCli(args, dir)).toMatchObject({ code: 0, stdout: upToDate });
    expect(times()).toEqual(oldTimes);
    expect(bytes()).toEqual(packed);

    // The page deleted: written again (it is not there to replace), the data file left as it is.
    fs.rmSync(path.join(d, 'c.png'));
    const redone = await runCli(args, dir);
    expect(redone.code, redone.stderr).toBe(0);
    expect(redone.stdout).toContain('wrote changed/c.png');
    expect(redone.stdout).not.toContain('wrote changed/c.json');
    expect(bytes()).toEqual(packed);
    expect(times()[0]).toBe(oldTimes[0]);

    // The page drawn over by hand: the pack's page again (replacing a page takes --overwrite, as for convert).
    fs.writeFileSync(path.join(d, 'c.png'), framePng(2));
    age();
    const refused = await runCli(args, dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/c\.png.*already exists .*--overwrite/);
    const fixed = await runCli([...args, '--overwrite'], dir);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stdout).toContain('wrote changed/c.png');
    expect(fixed.stdout).not.toContain('wrote changed/c.json');
    expect(bytes()).toEqual(packed);
    expect(times()[0]).toBe(oldTimes[0]);

    // An input's pixels changed: the data file and the page both.
    fs.writeFileSync(path.join(d, 'in', 'walk_1.png'), framePng(0));
    const repacked = await runCli([...args, '--overwrite'], dir);
    expect(repacked.code, repacked.stderr).toBe(0);
    expect(repacked.stdout).toMatch(/wrote changed\/c\.json\n.*wrote changed\/c\.png/s);
    expect(bytes()[1]!.equals(packed[1]!)).toBe(false);
    expect(await runCli(args, dir)).toMatchObject({ code: 0, stdout: upToDate });
  });
});
