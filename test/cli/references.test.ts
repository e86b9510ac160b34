/**
 * Issue 9, "files are sacred": convert (and render) never replace a file the
 * input names, even when the conversion loads none of them (a same-format
 * re-encode, the Solarus line <-> Lua direct conversion), even with
 * --overwrite. Each format says which files its document names
 * (FormatHandler.references), found as it finds them when it loads them.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { SAMPLES } from '../helpers/paths.js';

let dir: string;
const at = (...p: string[]) => path.join(dir, ...p);
const sum = (p: string) =>
  createHash('sha256')
    .update(fs.readFileSync(at(p)))
    .digest('hex');
const copy = (from: string, to: string) => {
  fs.mkdirSync(path.dirname(at(to)), { recursive: true });
  fs.copyFileSync(path.join(SAMPLES, from), at(to));
};

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-refs-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** `sprat convert IN OUT ...` (with and without --overwrite) is refused with exit 1, one error line naming OUT, and OUT unchanged. */
async function refused(args: string[], out: string, command = 'convert') {
  const before = sum(out);
  const files = fs.readdirSync(dir, { recursive: true }).map(String).sort();
  for (const extra of [[], ['--overwrite']]) {
    const argv = command === 'convert' ? ['convert', args[0]!, out, ...args.slice(1), ...extra] : [...args, '-o', out, '--force'];
    const r = await runCli(argv, dir);
    expect([r.code, r.stdout, r.stderr]).toEqual([
      1,
      '',
      `sprat: error: ${out}: is the input or a file it uses; ${command} never overwrites those (choose another output name)\n`,
    ]);
    expect(sum(out)).toBe(before);
    expect(fs.readdirSync(dir, { recursive: true }).map(String).sort()).toEqual(files);
    if (command !== 'convert') break;
  }
}

describe('a same-format convert never replaces a file the input names', () => {
  it('ISPRITE: its texture', async () => {
    copy('isprite/hero.isprite', 'hero.isprite');
    copy('isprite/hero.png', 'hero.png');
    await refused(['hero.isprite', '--to', 'isprite'], 'hero.png');
    // A name other than the texture is written.
    expect((await runCli(['convert', 'hero.isprite', 'copy.isprite'], dir)).code).toBe(0);
    // Found by existence only, never decoded: a texture that is not an image is protected all the same.
    fs.writeFileSync(at('hero.png'), 'not a png');
    await refused(['hero.isprite', '--to', 'isprite'], 'hero.png');
  });

  it("Solarus (line and Lua syntax): the sheet in the quest's sprites/ folder", async () => {
    copy('solarus/sprites/slime.dat', 'quest/data/sprites/slime.dat');
    copy('solarus/sprites/slime_lua.dat', 'quest/data/sprites/slime_lua.dat');
    copy('solarus/sprites/enemies/slime.png', 'quest/data/sprites/enemies/slime.png');
    fs.writeFileSync(at('quest', 'data', 'quest.dat'), 'quest{}');
    const sheet = path.join('quest', 'data', 'sprites', 'enemies', 'slime.png');
    await refused(['quest/data/sprites/slime.dat', '--to', 'solarus'], sheet);
    await refused(['quest/data/sprites/slime_lua.dat', '--to', 'solarus-lua'], sheet);
  });

  it('Solarus line -> Lua and back (the direct conversion, which loads nothing)', async () => {
    copy('solarus/sprites/slime.dat', 'quest/data/sprites/slime.dat');
    copy('solarus/sprites/slime_lua.dat', 'quest/data/sprites/slime_lua.dat');
    copy('solarus/sprites/enemies/slime.png', 'quest/data/sprites/enemies/slime.png');
    fs.writeFileSync(at('quest', 'data', 'quest.dat'), 'quest{}');
    const sheet = path.join('quest', 'data', 'sprites', 'enemies', 'slime.png');
    await refused(['quest/data/sprites/slime.dat', '--to', 'solarus-lua'], sheet);
    await refused(['quest/data/sprites/slime_lua.dat', '--to', 'solarus'], sheet);
  });

  it('Hallgeir sprite: its texture', async () => {
    for (const f of ['hero.spr', 'hero.png']) copy(`hallgeir/${f}`, f);
    await refused(['hero.spr', '--to', 'hallgeir-sprite'], 'hero.png');
  });

  it("Hallgeir object: its sprite and the sprite's texture", async () => {
    for (const f of ['hero.obj', 'hero.spr', 'hero.png']) copy(`hallgeir/${f}`, f);
    await refused(['hero.obj', '--to', 'hallgeir-object'], 'hero.spr');
    await refused(['hero.obj', '--to', 'hallgeir-object'], 'hero.png');
  });

  it("Hallgeir map: each object, its sprite and the sprite's texture", async () => {
    for (const f of fs.readdirSync(path.join(SAMPLES, 'hallgeir'))) copy(`hallgeir/${f}`, f);
    for (const f of ['coin.obj', 'coin.spr', 'coin.bmp', 'hero.obj', 'hero.spr', 'hero.png'])
      await refused(['level1.map', '--to', 'hallgeir-map'], f);
  });

  it('Aseprite and TexturePacker: the sheet meta.image names', async () => {
    copy('interop/hero.json', 'hero.json');
    copy('interop/hero.png', 'hero.png');
    await refused(['hero.json', '--to', 'aseprite'], 'hero.png');
    fs.mkdirSync(at('tp'));
    const made = await runCli(['convert', 'hero.json', 'tp/hero.json', '--to', 'texturepacker'], dir);
    expect(made.code).toBe(0);
    const image = (JSON.parse(fs.readFileSync(at('tp', 'hero.json'), 'utf8')) as { meta: { image: string } }).meta.image;
    await refused(['tp/hero.json', '--to', 'texturepacker'], path.join('tp', image));
  });

  it('Tiled: tileset images, an external tileset and its image', async () => {
    for (const f of ['dungeon.tmj', 'tiles.png', 'props.png']) copy(`interop/${f}`, f);
    await refused(['dungeon.tmj', '--to', 'tiled'], 'tiles.png');
    await refused(['dungeon.tmj', '--to', 'tiled'], 'props.png');
    // The first tileset moved to ext/tiles.tsj, its image beside it.
    const map = JSON.parse(fs.readFileSync(at('dungeon.tmj'), 'utf8')) as { tilesets: Record<string, unknown>[] };
    const { firstgid, ...tileset } = map.tilesets[0]!;
    map.tilesets[0] = { firstgid, source: 'ext/tiles.tsj' };
    fs.mkdirSync(at('ext'));
    fs.writeFileSync(at('ext', 'tiles.tsj'), JSON.stringify(tileset));
    fs.renameSync(at('tiles.png'), at('ext', 'tiles.png'));
    fs.writeFileSync(at('map.tmj'), JSON.stringify(map));
    await refused(['map.tmj', '--to', 'tiled'], path.join('ext', 'tiles.tsj'));
    await refused(['map.tmj', '--to', 'tiled'], path.join('ext', 'tiles.png'));
  });

  it('CTHG and SpriteTile name no file: a same-format convert writes', async () => {
    copy('cthg/fan.dat', 'fan.dat');
    copy('spritetile/level.bytes', 'level.bytes');
    expect((await runCli(['convert', 'fan.dat', 'copy.dat', '--to', 'cthg'], dir)).code).toBe(0);
    expect((await runCli(['convert', 'level.bytes', 'copy.bytes', '--to', 'spritetile'], dir)).code).toBe(0);
  });
});

describe('render never replaces a file the input names, drawn or not', () => {
  it('a Solarus sheet of an animation it does not draw', async () => {
    copy('solarus/sprites/enemies/slime.png', 'quest/data/sprites/enemies/slime.png');
    copy('solarus/sprites/enemies/slime.png', 'quest/data/sprites/enemies/other.png');
    fs.writeFileSync(at('quest', 'data', 'quest.dat'), 'quest{}');
    const text = fs.readFileSync(path.join(SAMPLES, 'solarus', 'sprites', 'slime.dat'), 'utf8');
    fs.writeFileSync(at('quest', 'data', 'sprites', 'slime.dat'), text.replace(/^hurt enemies\/slime\.png/m, 'hurt enemies/other.png'));
    const other = path.join('quest', 'data', 'sprites', 'enemies', 'other.png');
    await refused(['render', 'quest/data/sprites/slime.dat', '--animation', 'stopped'], other, 'render');
  });
});

// A sheet drawn from an image and from the map's tileset (`src_image = "tileset"`), as Zelda-like quests'
// bushes are (the Solarus sprite data file format: "tileset" names the map's tileset image).
const MIXED = {
  line: ['a x.png 1 100 -1\n0 0 8 8 0 0 1 1\n', 'b tileset 1 100 -1\n0 0 8 8 0 0 1 1\n'],
  lua: [
    'animation{\n  name = "on_ground",\n  src_image = "x.png",\n  directions = {\n    { x = 0, y = 0, frame_width = 8, frame_height = 8 },\n  },\n}\n',
    'animation{\n  name = "stopped",\n  src_image = "tileset",\n  directions = {\n    { x = 0, y = 0, frame_width = 8, frame_height = 8 },\n  },\n}\n',
  ],
};

describe("an animation drawn from the map's tileset names no file without --tileset", () => {
  for (const [syntax, parts] of Object.entries(MIXED)) {
    it(`Solarus ${syntax} syntax: convert .dat -> .dat outside a quest, in either order, with the image there or not`, async () => {
      const to = syntax === 'line' ? 'solarus' : 'solarus-lua';
      for (const order of [parts, [...parts].reverse()]) {
        fs.writeFileSync(at('s.dat'), order.join(syntax === 'line' ? '\n' : ''));
        for (const image of [false, true]) {
          if (image) copy('solarus/sprites/enemies/slime.png', 'x.png');
          fs.rmSync(at('o.dat'), { force: true });
          const r = await runCli(['convert', 's.dat', 'o.dat'], dir);
          expect([r.code, r.stdout, r.stderr]).toEqual([0, 'wrote o.dat\n', '']);
          expect(fs.readFileSync(at('o.dat'), 'utf8')).toBe(fs.readFileSync(at('s.dat'), 'utf8'));
        }
        // The image sheet is still a file the input names; so is the --tileset image when one is given.
        await refused(['s.dat', '--to', to], 'x.png');
        fs.writeFileSync(at('ts.png'), 'not a png');
        await refused(['s.dat', '--to', to, '--tileset', 'ts.png'], 'ts.png');
        fs.rmSync(at('x.png'));
      }
    });
  }
});
