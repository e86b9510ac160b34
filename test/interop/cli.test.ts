import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePng, decodePng } from '../../src/render/png.js';
import { runCli } from '../helpers/cli.js';
import { FIXTURES, patternImage } from './helpers.js';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-interop-'));
  fs.mkdirSync(path.join(dir, 'out'));
  for (const f of ['hero-aseprite-hash.json', 'coins-pixi.json', 'dungeon.tmj']) fs.copyFileSync(path.join(FIXTURES, f), path.join(dir, f));
  fs.writeFileSync(path.join(dir, 'hero.png'), encodePng(patternImage(63, 16, 1)));
  fs.writeFileSync(path.join(dir, 'coins.png'), encodePng(patternImage(42, 18, 2)));
  fs.writeFileSync(path.join(dir, 'tiles.png'), encodePng(patternImage(16, 16, 3)));
  fs.writeFileSync(path.join(dir, 'props.png'), encodePng(patternImage(10, 28, 4)));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const read = (name: string) => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));

describe('sprat CLI with the interchange formats', () => {
  it('converts Aseprite to TexturePacker (JSON + PNG next to it)', async () => {
    const r = await runCli(['convert', 'hero-aseprite-hash.json', 'out/hero-tp.json', '--to', 'texturepacker'], dir);
    expect(r.stderr).toBe(
      'hero-aseprite-hash.json: note: texturepacker: does not store how animations loop (players loop from the first frame; sprat reads it back from meta.sprat): idle\n' +
        'hero-aseprite-hash.json: note: texturepacker: has no tag direction or repeat (the frames are written as they play; sprat reads the mode back from meta.sprat): walk, back, idle\n',
    );
    expect(r.code).toBe(0);
    const json = read('out/hero-tp.json');
    expect(json.meta.image).toBe('hero-tp.png');
    expect(Object.keys(json.animations)).toEqual(['walk', 'back', 'idle']);
    expect(json.animations.walk).toEqual(['hero 0.aseprite', 'hero 1.aseprite', 'hero 2.aseprite', 'hero 1.aseprite']);
    const png = decodePng(fs.readFileSync(path.join(dir, 'out/hero-tp.png')));
    expect([png.width, png.height]).toEqual([json.meta.size.w, json.meta.size.h]);
    const v = await runCli(['validate', 'out/hero-tp.json'], dir);
    expect(v.stdout).toBe('out/hero-tp.json: ok\n');
    const i = await runCli(['inspect', 'out/hero-tp.json', '--json'], dir);
    expect(JSON.parse(i.stdout).format).toBe('texturepacker');
  });

  it('converts TexturePacker back to Aseprite, array layout', async () => {
    const r = await runCli(['convert', 'coins-pixi.json', 'coins-ase.json', '--to', 'aseprite', '--layout', 'array'], dir);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/note: texturepacker: frame durations are not stored/);
    const json = read('coins-ase.json');
    expect(Array.isArray(json.frames)).toBe(true);
    expect(json.meta.frameTags.map((t: any) => t.name)).toEqual(['coin', 'flash']);
    const i = await runCli(['inspect', 'coins-ase.json'], dir);
    expect(i.stdout).toMatch(/^Aseprite sheet \(array layout\), 3 frame\(s\)/);
  });

  it('re-encodes a Tiled map and converts it through the model', async () => {
    let r = await runCli(['convert', 'dungeon.tmj', 'copy.tmj'], dir);
    expect(r.code).toBe(0);
    expect(read('copy.tmj')).toEqual(read('dungeon.tmj'));
    r = await runCli(['inspect', 'dungeon.tmj'], dir);
    expect(r.stdout).toMatch(/^Tiled orthogonal map 4x3/);
  });

  it('renders an animation from a sheet', async () => {
    const r = await runCli(['render', 'hero-aseprite-hash.json', '-o', 'idle.png', '--animation', 'idle'], dir);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const png = decodePng(fs.readFileSync(path.join(dir, 'idle.png')));
    expect([png.width, png.height]).toEqual([16, 16]);
    const one = await runCli(['render', 'coins-pixi.json', '-o', 'coin1.png', '--animation', 'coin', '--frame', '1'], dir);
    expect(one.code).toBe(0);
    expect(decodePng(fs.readFileSync(path.join(dir, 'coin1.png'))).width).toBe(16);
    const far = await runCli(['render', 'coins-pixi.json', '-o', 'coin9.png', '--frame', '9'], dir);
    expect(far.code).toBe(2);
    expect(far.stderr).toMatch(/option --frame 9 is past the last frame \(animation "coin" has 3 frames: 0-2\)/);
    const bad = await runCli(['render', 'hero-aseprite-hash.json', '-o', 'x.png', '--animation', 'nope'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/option --animation "nope" names no animation/);
  });

  it('renders a Tiled map from its tileset images', async () => {
    const r = await runCli(['render', 'dungeon.tmj', '-o', 'dungeon.png'], dir);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const png = decodePng(fs.readFileSync(path.join(dir, 'dungeon.png')));
    expect([png.width, png.height]).toEqual([32, 24]);
  });

  it('reports bad JSON in one line with line and column, exit 1', async () => {
    fs.writeFileSync(path.join(dir, 'broken.json'), '{\n  "frames": {\n    "a": {"frame": [1, 2,]}\n}\n');
    const r = await runCli(['inspect', 'broken.json', '--format', 'aseprite'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('sprat: error: broken.json: not valid JSON: unexpected character "]", expected a value (at line 3, column 26)\n');
    const v = await runCli(['validate', 'broken.json', '--format', 'texturepacker'], dir);
    expect(v.code).toBe(1);
    expect(v.stdout).toMatch(/^broken.json: error: not valid JSON/);
  });

  it('reports a badly shaped document in one line ending with its line and column, exit 1', async () => {
    const cases: [string, string, string, string][] = [
      [
        'aseprite',
        '{"frames": [],\n "meta": {"frameTags": [\n   {"name": "t", "from": 0, "to": 0}]}}',
        '$.meta.frameTags[0]: a tag in a sheet without frames',
        '(at line 3, column 4)',
      ],
      [
        'texturepacker',
        '{"frames": {"a": {"frame": {"x": 0, "y": 0, "w": 1, "h": 1}}},\n "animations": {"run": ["b"]}}',
        '$.animations.run[0]: names no frame "b"',
        '(at line 2, column 25)',
      ],
      [
        'tiled',
        '{"width": 1, "height": 1, "tilewidth": 8,\n "tileheight": 0}',
        '$.tileheight: must be at least 1, found 0',
        '(at line 2, column 16)',
      ],
    ];
    for (const [format, text, reason, where] of cases) {
      fs.writeFileSync(path.join(dir, 'shape.json'), text);
      const r = await runCli(['inspect', 'shape.json', '--format', format], dir);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`sprat: error: shape.json: ${reason} ${where}\n`);
      const v = await runCli(['validate', 'shape.json', '--format', format], dir);
      expect(v.code).toBe(1);
      expect(v.stdout).toBe(`shape.json: error: ${reason} ${where}\n`);
    }
  });

  it('a sheet that cannot be loaded when rendering is placed at meta.image', async () => {
    fs.writeFileSync(path.join(dir, 'nosheet.json'), '{"frames": [],\n "meta": {"app": "aseprite", "image": "nope.png"}}');
    const r = await runCli(['render', 'nosheet.json', '-o', 'nosheet.png'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'sprat: error: nosheet.json: $.meta.image: the sheet "nope.png" not found (looked for nope.png) (at line 2, column 39)\n',
    );
    expect(fs.existsSync(path.join(dir, 'nosheet.png'))).toBe(false);
  });

  it('refuses to convert a sprite into a Tiled map', async () => {
    const r = await runCli(['convert', 'hero-aseprite-hash.json', 'm.tmj', '--to', 'tiled'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('sprat: error: hero-aseprite-hash.json: a sprite cannot be written as a Tiled map\n');
    expect(fs.existsSync(path.join(dir, 'm.tmj'))).toBe(false);
  });
});
