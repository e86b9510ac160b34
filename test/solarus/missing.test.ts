/**
 * render of a Solarus sprite whose animations draw from a missing image, a file that is no image, or the
 * map's tileset (`src_image = "tileset"`, the Solarus sprite data file format) without --tileset: what can
 * be drawn is, each missing file one warning (src/formats/resources.ts MissingFiles); --strict keeps the
 * error; check still reports it.
 */
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createImage, type RgbaImage } from '../../src/render/image.js';
import { decodePng, encodePng } from '../../src/render/png.js';
import { runCli } from '../helpers/cli.js';
import { CORPUS } from '../helpers/paths.js';

const tmp = fs.mkdtempSync(path.join(tmpdir(), 'sprat-solarus-missing-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const at = (...p: string[]) => path.join(tmp, ...p);

function filled(w: number, h: number, rgba: [number, number, number, number]): RgbaImage {
  const img = createImage(w, h);
  for (let i = 0; i < w * h; i++) img.data.set(rgba, i * 4);
  return img;
}
const RED = encodePng(filled(8, 8, [255, 0, 0, 255]));
const BLUE = encodePng(filled(8, 8, [0, 0, 255, 255]));
const CLEAR = encodePng(createImage(8, 8));

// The sprite: "a" drawn from x.png, "b" from the map's tileset; in both syntaxes.
const SHEETS = {
  solarus: 'a x.png 1 100 -1\n0 0 8 8 0 0 1 1\n\nb tileset 1 100 -1\n0 0 8 8 0 0 1 1\n',
  'solarus-lua':
    'animation{\n  name = "a",\n  src_image = "x.png",\n  directions = {\n    { x = 0, y = 0, frame_width = 8, frame_height = 8 },\n  },\n}\n\n' +
    'animation{\n  name = "b",\n  src_image = "tileset",\n  directions = {\n    { x = 0, y = 0, frame_width = 8, frame_height = 8 },\n  },\n}\n',
};
const NO_QUEST =
  "the sprite is in no quest (no folder above it holds quest.dat or sprites/): give the quest's sprites/ folder with --images DIR";
const X_MISSING = `s.dat: warning: image "x.png" not found (looked for x.png); ${NO_QUEST}; not drawn: animation "a"\n`;
const TILESET_MISSING =
  's.dat: warning: the animation draws from the map\'s tileset ("tileset"): give its image with --tileset IMAGE; not drawn: animation "b"\n';

for (const [format, text] of Object.entries(SHEETS)) {
  describe(`${format}: an animation drawn from a missing image or the map's tileset`, () => {
    const dir = at(format);
    fs.mkdirSync(dir);
    const render = (...args: string[]) => runCli(['render', 's.dat', ...args], dir);
    const file = (name: string) => decodePng(fs.readFileSync(path.join(dir, name)));
    fs.writeFileSync(path.join(dir, 's.dat'), text);
    fs.writeFileSync(path.join(dir, 'red.png'), RED);
    fs.writeFileSync(path.join(dir, 'blue.png'), BLUE);
    fs.writeFileSync(path.join(dir, 'clear.png'), CLEAR);

    it('x.png there: the default animation draws as before, silently; --sheet draws "a", warns of the tileset once', async () => {
      fs.writeFileSync(path.join(dir, 'x.png'), RED);
      expect(await render('-o', 'a.png')).toEqual({ code: 0, stdout: '', stderr: '' });
      expect(file('a.png')).toEqual(decodePng(RED));
      const r = await render('-o', 'sheet.png', '--sheet');
      expect([r.code, r.stderr]).toEqual([0, TILESET_MISSING]);
      // Row "b" keeps its label and empty frame box: the sheet drawn with a clear tileset.
      expect((await render('-o', 'sheet-clear.png', '--sheet', '--tileset', 'clear.png')).stderr).toBe('');
      expect(file('sheet.png')).toEqual(file('sheet-clear.png'));
      // --animation b has nothing to draw: the error as before.
      const b = await render('-o', 'b.png', '--animation', 'b');
      expect([b.code, b.stderr]).toEqual([
        2,
        `sprat: error: s.dat: the animation draws from the map's tileset ("tileset"): give its image with --tileset IMAGE\n`,
      ]);
      expect(fs.existsSync(path.join(dir, 'b.png'))).toBe(false);
    });

    it('--strict: the missing tileset is the error, exit 2, nothing written', async () => {
      const r = await render('-o', 'strict.png', '--sheet', '--strict');
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^sprat: error: s\.dat: the animation draws from the map's tileset/);
      expect(fs.existsSync(path.join(dir, 'strict.png'))).toBe(false);
    });

    it('x.png absent, --tileset given: the default is "b", the first animation that can be drawn, with a warning and a note', async () => {
      fs.rmSync(path.join(dir, 'x.png'), { force: true });
      const r = await render('-o', 'd.png', '--tileset', 'blue.png');
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe(
        `${X_MISSING}s.dat: note: animation "a" cannot be drawn without its image: drew animation "b", the first that can be\n`,
      );
      expect(file('d.png')).toEqual(decodePng(BLUE));
      // The sheet: row "a" left empty, as drawn with a clear x.png.
      const s = await render('-o', 'sheet-b.png', '--sheet', '--tileset', 'blue.png');
      expect([s.code, s.stderr]).toEqual([0, X_MISSING]);
      fs.writeFileSync(path.join(dir, 'x.png'), CLEAR);
      expect((await render('-o', 'sheet-b-clear.png', '--sheet', '--tileset', 'blue.png')).stderr).toBe('');
      expect(file('sheet-b.png')).toEqual(file('sheet-b-clear.png'));
      fs.rmSync(path.join(dir, 'x.png'));
    });

    it('x.png absent: the selected animation, or a sprite with nothing that can be drawn, is the error', async () => {
      fs.rmSync(path.join(dir, 'x.png'), { force: true });
      const err = `sprat: error: s.dat: image "x.png" not found (looked for x.png); ${NO_QUEST}\n`;
      for (const args of [[], ['--sheet'], ['--animation', 'a', '--tileset', 'blue.png'], ['--tileset', 'blue.png', '--strict']]) {
        const r = await render('-o', 'none.png', ...args);
        expect([r.code, r.stderr], args.join(' ')).toEqual([1, err]);
        expect(fs.existsSync(path.join(dir, 'none.png'))).toBe(false);
      }
    });

    it('not an image: a warning naming it, the rest drawn', async () => {
      fs.writeFileSync(path.join(dir, 'x.png'), 'not a png');
      const r = await render('-o', 'notimage.png', '--sheet', '--tileset', 'blue.png');
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/^s\.dat: warning: image "x\.png": .*; not drawn: animation "a"\n$/);
      fs.rmSync(path.join(dir, 'x.png'));
    });

    it('check still reports the missing image as an error', async () => {
      const r = await runCli(['check', 's.dat'], dir);
      expect(r.code).toBe(1);
      expect(r.stdout + r.stderr).toContain('"x.png" not found');
    });
  });
}

describe('each missing file is one warning, however many animations draw from it', () => {
  it('--sheet: two missing files of five animations, two lines', async () => {
    const dir = at('many');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'x.png'), RED);
    const anim = (name: string, image: string) => `${name} ${image} 1 100 -1\n0 0 8 8 0 0 1 1\n`;
    fs.writeFileSync(
      path.join(dir, 's.dat'),
      [anim('a', 'x.png'), anim('c', 'y.png'), anim('d', 'tileset'), anim('e', 'y.png'), anim('f', 'tileset')].join('\n'),
    );
    const r = await runCli(['render', 's.dat', '-o', 'o.png', '--sheet'], dir);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      `s.dat: warning: image "y.png" not found (looked for y.png); ${NO_QUEST}; not drawn: animation "c", animation "e"\n` +
        's.dat: warning: the animation draws from the map\'s tileset ("tileset"): give its image with --tileset IMAGE; not drawn: animation "d", animation "f"\n',
    );
  });
});

describe('batch render of a real quest (the quest editor’s initial quest) with sheets missing', () => {
  const QUEST = path.join(CORPUS, 'solarus', 'quest-editor-initial');
  const quest = at('quest');
  fs.cpSync(QUEST, quest, { recursive: true });
  const SPRITES = path.join(quest, 'data', 'sprites');
  // The first animation of sword.dat and sword1.dat; five animations of eldran.dat after its first.
  fs.rmSync(path.join(SPRITES, 'main_heroes', 'sword_brandish.png'));
  fs.rmSync(path.join(SPRITES, 'main_heroes', 'eldran_miscellaneous.png'));
  const tileset = path.join(quest, 'data', 'tilesets', 'castle.tiles.png');
  const sprites = (fs.readdirSync(SPRITES, { recursive: true }) as string[]).filter((f) => f.endsWith('.dat')).length;

  it('every file rendered (the first animation that can be drawn), the missing sheet warned once a file', async () => {
    const r = await runCli(['render', 'data/sprites', '-o', path.join(tmp, 'pics'), '--tileset', tileset], quest);
    expect(sprites).toBe(55);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^render: 55 written, 0 unchanged, 0 failed/m);
    const warnings = r.stderr.split('\n').filter((l) => l.includes(': warning: '));
    expect(warnings).toHaveLength(2);
    for (const f of ['sword.dat', 'sword1.dat'])
      expect(warnings.filter((l) => l.includes(`/${f}: warning: image "main_heroes/sword_brandish.png" not found`))).toHaveLength(1);
    expect(r.stderr.match(/: note: animation "[^"]*" cannot be drawn without its image/g)).toHaveLength(2);
  }, 120_000);

  it('--sheet: every sheet drawn, each missing file named once in each file that uses it', async () => {
    const r = await runCli(['render', 'data/sprites', '-o', path.join(tmp, 'sheets'), '--sheet', '--tileset', tileset], quest);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^render: 55 written, 0 unchanged, 0 failed/m);
    const warnings = r.stderr.trimEnd().split('\n');
    expect(warnings).toHaveLength(3);
    expect(warnings.filter((l) => /\/eldran\.dat: warning: image "main_heroes\/eldran_miscellaneous\.png" not found/.test(l))).toHaveLength(
      1,
    );
    // The eldran sheet: its other rows drawn, those rows empty, as with a clear image in place of the missing one.
    const missing = decodePng(fs.readFileSync(path.join(QUEST, 'data/sprites/main_heroes/eldran_miscellaneous.png')));
    const clear = path.join(SPRITES, 'main_heroes', 'eldran_miscellaneous.png');
    fs.writeFileSync(clear, encodePng(createImage(missing.width, missing.height)));
    const whole = await runCli(
      ['render', 'data/sprites/main_heroes/eldran.dat', '-o', path.join(tmp, 'eldran-clear.png'), '--sheet'],
      quest,
    );
    fs.rmSync(clear);
    expect(whole.stderr).toBe('');
    const a = decodePng(fs.readFileSync(path.join(tmp, 'sheets', 'main_heroes', 'eldran.png')));
    const b = decodePng(fs.readFileSync(path.join(tmp, 'eldran-clear.png')));
    // Compared as bytes: a deep equal of 40 million numbers takes minutes.
    expect([a.width, a.height]).toEqual([b.width, b.height]);
    expect(Buffer.from(a.data).equals(Buffer.from(b.data))).toBe(true);
  }, 120_000);

  it("without --tileset: the sprites drawn only from the map's tileset fail alone (nothing to draw), the others are written", async () => {
    const r = await runCli(['render', 'data/sprites', '-o', path.join(tmp, 'no-tileset')], quest);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^render: 45 written, 0 unchanged, 10 failed/m);
  }, 120_000);
});
