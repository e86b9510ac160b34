import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatLines, readLines } from '../../src/formats/solarus/index.js';
import { decodePng } from '../../src/render/png.js';
import { cropImage } from '../../src/render/image.js';
import { runCli } from '../helpers/cli.js';
import { SAMPLES } from '../helpers/paths.js';
import { ZSDX } from './helpers.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'sprat-solarus-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
// A quest layout: sprites/enemies/slime.png beside sprites/slime.dat; a copy one folder down for the parent lookup.
cpSync(path.join(SAMPLES, 'solarus'), path.join(tmp, 'quest'), { recursive: true });
const SPRITES = path.join(tmp, 'quest', 'sprites');
cpSync(path.join(SPRITES, 'slime.dat'), path.join(SPRITES, 'enemies', 'slime_nested.dat'));
const OLD = path.join(ZSDX, 'old', 'hud', 'magic_bar.dat');
const NEW = path.join(ZSDX, 'new', 'hud', 'magic_bar.dat');

describe('sprat with Solarus files', () => {
  it('inspect --json prints the contract shape, keys in order, for both syntaxes', async () => {
    const r = await runCli(['inspect', OLD, '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(Object.keys(j)).toEqual(['format', 'animations']);
    expect(j.format).toBe('solarus');
    expect(JSON.stringify(j.animations[1])).toBe(
      '{"name":"decreasing","image":"hud/magic_bar.png","frameDelay":200,"loopOnFrame":0,"directions":[{"x":0,"y":0,"frameWidth":46,"frameHeight":8,"originX":0,"originY":0,"frameCount":3,"columns":1},{"x":46,"y":0,"frameWidth":88,"frameHeight":8,"originX":0,"originY":0,"frameCount":3,"columns":1}]}',
    );
    const l = JSON.parse((await runCli(['inspect', NEW, '--json'])).stdout);
    expect(l).toEqual({ ...j, format: 'solarus-lua' });
    const t = await runCli(['inspect', NEW]);
    expect(t.stdout).toMatch(/Lua syntax\): 2 animations/);
  });

  it('validate: ok, and one error line naming line and column', async () => {
    const bad = path.join(tmp, 'bad.dat');
    writeFileSync(bad, 'walk hero.png 1 100 -1\n0 0 16 sixteen 8 8 2 2\n');
    const r = await runCli(['validate', OLD, NEW, bad]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      `${OLD}: ok\n${NEW}: ok\n${bad}: error: frame_height must be a whole number, not "sixteen" (at line 2, column 8)\n`,
    );
    const badLua = path.join(tmp, 'bad.lua');
    writeFileSync(badLua, 'animation{\n  name = "a",\n  os.execute("x"),\n}\n');
    const r2 = await runCli(['validate', badLua]);
    expect(r2.code).toBe(1);
    expect(r2.stdout).toMatch(/error: .* \(at line 3, column 5\)\n$/);
    const loop = path.join(tmp, 'loop.dat');
    writeFileSync(loop, 'a b.png 1 100 3\n0 0 8 8 0 0 3 3\n');
    expect((await runCli(['validate', loop])).stdout).toMatch(
      /error: animation "a": loop_on_frame 3 is not a frame of direction 0 .*\(at line 1, column 15\)/,
    );
    const i = await runCli(['inspect', loop]);
    expect(i.code).toBe(0);
    expect(i.stderr).toMatch(/warning: .*loop_on_frame 3/);
  });

  it('README: a .dat file is CTHG when it starts with CTHG, else Solarus (Lua when its first statement is an animation call, else the line syntax)', async () => {
    const cases: [string, string][] = [
      ['one.dat', 'foo\n'],
      ['brace.dat', '{"a": 1}\n'],
      ['comment.dat', '-- a comment\nx = 1\n'],
    ];
    for (const [name, text] of cases) {
      const f = path.join(tmp, name);
      writeFileSync(f, text);
      const r = await runCli(['inspect', f]);
      expect(r.code, name).toBe(1);
      expect(r.stderr, name).toMatch(/^sprat: error: .*: line cut short: .*\(at line 1, column \d+\)\n$/);
    }
    const lua = path.join(tmp, 'lua.dat');
    writeFileSync(
      lua,
      '-- c\nanimation({ name = "a", src_image = "a.png", directions = { { x = 0, y = 0, frame_width = 8, frame_height = 8 } } })\n',
    );
    expect(JSON.parse((await runCli(['inspect', lua, '--json'])).stdout).format).toBe('solarus-lua');
    const cthg = path.join(tmp, 'c.dat');
    writeFileSync(cthg, 'CTHG');
    expect((await runCli(['inspect', cthg])).stderr).toMatch(/^sprat: error: .*c\.dat: .*\(at byte \d+\)\n$/);
  });

  it('an error while reading is one line with line and column, exit 1', async () => {
    const bad = path.join(tmp, 'cut.dat');
    writeFileSync(bad, 'walk hero.png 2 100 -1\n0 0 16 16 8 8 2 2\n');
    const r = await runCli(['inspect', bad]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `sprat: error: ${bad}: end of file inside animation "walk" (line 1): 2 directions announced, 1 found (at line 3, column 1)\n`,
    );
  });

  it('play --json follows the engine rules', async () => {
    const r = await runCli(['play', OLD, '--animation', 'decreasing', '--direction', '1', '--ms', '1000', '--step-ms', '150', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([0, 0, 1, 2, 0, 0, 1].map((frame, k) => ({ time: k * 150, frame })));
    const once = await runCli(['play', path.join(SPRITES, 'slime.dat'), '--animation', 'hurt', '--ms', '200', '--step-ms', '50', '--json']);
    expect(JSON.parse(once.stdout)).toEqual([
      { time: 0, frame: 0 },
      { time: 50, frame: 0 },
      { time: 100, frame: 1 },
      { time: 150, frame: null },
    ]);
    const text = await runCli(['play', OLD, '--animation', 'decreasing']);
    expect(text.stdout).toMatch(/^animation "decreasing" direction 0/);
    const missing = await runCli(['play', OLD, '--animation', 'nope']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/option --animation "nope" names no animation \(the sheet has: normal, decreasing\)/);
    expect((await runCli(['play', OLD, '--direction', '5'])).code).toBe(2);
    expect((await runCli(['play', OLD, '--step-ms', '0'])).code).toBe(2);
    expect((await runCli(['render', OLD, '--frame', '9', '-o', path.join(tmp, 'never.png')])).code).toBe(2);
  });

  it('render draws a frame from the sheet (own folder, then the parent folder)', async () => {
    const sheet = decodePng(readFileSync(path.join(SPRITES, 'enemies', 'slime.png')));
    for (const file of ['slime.dat', 'slime_lua.dat', 'enemies/slime_nested.dat']) {
      const out = path.join(tmp, 'frame.png');
      const r = await runCli(['render', path.join(SPRITES, file), '--animation', 'walking', '--direction', '2', '--frame', '3', '-o', out]);
      expect(r.code, r.stderr).toBe(0);
      expect(decodePng(readFileSync(out))).toEqual(cropImage(sheet, 64 + 16, 16, 16, 16));
      rmSync(out);
    }
  });

  it('render --sheet draws a labelled grid; a whole direction gives all its frames', async () => {
    const out = path.join(tmp, 'sheet.png');
    const r = await runCli(['render', path.join(SPRITES, 'slime.dat'), '--sheet', '-o', out]);
    expect(r.code, r.stderr).toBe(0);
    const img = decodePng(readFileSync(out));
    expect(img.width).toBeGreaterThan(4 * 18);
    expect(img.height).toBe(4 + 9 * 20);
    const first = path.join(tmp, 'dir.png');
    expect((await runCli(['render', path.join(SPRITES, 'slime.dat'), '--animation', 'walking', '-o', first])).code).toBe(0);
    expect(decodePng(readFileSync(first)).width).toBe(16);
  });

  it('render: missing images, --images and --tileset', async () => {
    const r = await runCli(['render', OLD, '-o', path.join(tmp, 'x.png')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/image "hud\/magic_bar.png" not found/);
    const ts = path.join(tmp, 'door.dat');
    writeFileSync(ts, 'closed tileset 1 0 -1\n16 0 16 16 0 0 1 1\n');
    const noTileset = await runCli(['render', ts, '-o', path.join(tmp, 'y.png')]);
    expect(noTileset.code).toBe(2);
    expect(noTileset.stderr).toMatch(/--tileset IMAGE/);
    const png = path.join(SPRITES, 'enemies', 'slime.png');
    const ok = await runCli(['render', ts, '--tileset', png, '-o', path.join(tmp, 'y.png')]);
    expect(ok.code, ok.stderr).toBe(0);
    const elsewhere = path.join(tmp, 'elsewhere.dat');
    cpSync(path.join(SPRITES, 'slime.dat'), elsewhere);
    const im = await runCli(['render', elsewhere, '--images', SPRITES, '--frame', '0', '-o', path.join(tmp, 'z.png')]);
    expect(im.code, im.stderr).toBe(0);
  });

  it('convert: line syntax to Lua as the official converter, and back', async () => {
    const lua = path.join(tmp, 'magic_bar.lua');
    const r = await runCli(['convert', OLD, lua]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(lua)).toEqual(readFileSync(NEW));
    const asDat = path.join(tmp, 'magic_bar_lua.dat');
    expect((await runCli(['convert', OLD, asDat, '--to', 'solarus-lua'])).code).toBe(0);
    expect(readFileSync(asDat)).toEqual(readFileSync(NEW));
    const back = path.join(tmp, 'magic_bar.dat');
    expect((await runCli(['convert', NEW, back, '--to', 'solarus'])).code).toBe(0);
    // In the contract's layout (null: not the layout of the old file, which the sheet read from it remembers).
    expect(readFileSync(back, 'utf8')).toBe(formatLines(readLines(readFileSync(OLD)), null));
    // Same format re-encodes; the .dat output of a Lua input stays Lua.
    const again = path.join(tmp, 'again.dat');
    expect((await runCli(['convert', NEW, again])).code).toBe(0);
    expect(readFileSync(again)).toEqual(readFileSync(NEW));
  });

  it('convert to Lua notes columns > frames', async () => {
    const wide = path.join(tmp, 'wide.dat');
    writeFileSync(wide, 'a b.png 1 100 -1\n0 0 8 8 0 0 3 7\n');
    const r = await runCli(['convert', wide, path.join(tmp, 'wide.lua')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /note: animation "a" direction 0: num_columns 7 > num_frames 3, which Solarus 1.x rejects .*\(at line 2, column 1\)\n/,
    );
    // Kept as it is (the model path turned it into num_columns 3).
    expect(readFileSync(path.join(tmp, 'wide.lua'), 'utf8')).toContain('num_frames = 3, num_columns = 7 }');
  });
});
