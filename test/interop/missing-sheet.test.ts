/**
 * render of a sheet document (Phaser multiatlas, Aseprite JSON) with a missing PNG: the frames on the other
 * sheets are drawn, the missing one named once as a warning (src/formats/resources.ts MissingFiles); a
 * selection with nothing left to draw, and --strict, are the error; convert and check still refuse it.
 */
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createImage } from '../../src/render/image.js';
import { decodePng, encodePng } from '../../src/render/png.js';
import { runCli } from '../helpers/cli.js';

const dir = fs.mkdtempSync(path.join(tmpdir(), 'sprat-missing-sheet-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const red = createImage(8, 8);
for (let i = 0; i < 64; i++) red.data.set([255, 0, 0, 255], i * 4);
fs.writeFileSync(path.join(dir, 'a.png'), encodePng(red));
const frame = (name: string) =>
  `{"filename":"${name}","rotated":false,"trimmed":false,"sourceSize":{"w":8,"h":8},"spriteSourceSize":{"x":0,"y":0,"w":8,"h":8},"frame":{"x":0,"y":0,"w":8,"h":8}}`;
const texture = (image: string, ...frames: string[]) =>
  `{"image":"${image}","format":"RGBA8888","size":{"w":8,"h":8},"scale":1,"frames":[${frames.map(frame).join(',')}]}`;
fs.writeFileSync(
  path.join(dir, 'atlas.json'),
  `{"textures":[\n${texture('a.png', 'walk-0')},\n${texture('b.png', 'walk-1')},\n${texture('b.png', 'walk-2')}\n],"meta":{"app":"https://www.codeandweb.com/texturepacker","version":"3.0"}}\n`,
);
const WARNING =
  'atlas.json: warning: $.textures[1].image: the sheet "b.png" not found (looked for b.png) (at line 3, column 10); not drawn: the frames on it\n';

describe('a Phaser multiatlas with one of its sheets missing', () => {
  it('render: the frames on the other sheet drawn, the missing sheet one warning though two textures name it', async () => {
    const r = await runCli(['render', 'atlas.json', '-o', 'walk.apng'], dir);
    expect([r.code, r.stderr]).toEqual([0, WARNING]);
    const one = await runCli(['render', 'atlas.json', '-o', 'walk0.png', '--frame', '0'], dir);
    expect([one.code, one.stderr]).toEqual([0, WARNING]);
    expect(decodePng(fs.readFileSync(path.join(dir, 'walk0.png')))).toEqual(red);
  });

  it('a frame with nothing left to draw, and --strict, are the error; nothing written', async () => {
    const err = 'sprat: error: atlas.json: $.textures[1].image: the sheet "b.png" not found (looked for b.png) (at line 3, column 10)\n';
    for (const args of [['--frame', '1'], ['--strict']]) {
      const r = await runCli(['render', 'atlas.json', '-o', 'no.png', ...args], dir);
      expect([r.code, r.stderr], args.join(' ')).toEqual([1, err]);
      expect(fs.existsSync(path.join(dir, 'no.png'))).toBe(false);
    }
  });

  it('convert still refuses it (a sheet written without those frames would drop them) and check reports it', async () => {
    const c = await runCli(['convert', 'atlas.json', 'out.json', '--to', 'aseprite'], dir);
    expect(c.code).toBe(1);
    expect(c.stderr).toContain('"b.png" not found');
    const k = await runCli(['check', 'atlas.json'], dir);
    expect(k.code).toBe(1);
    expect(k.stdout + k.stderr).toContain('b.png');
  });
});

describe('an Aseprite JSON export whose one sheet is missing', () => {
  it('render: nothing to draw, the error as before', async () => {
    fs.writeFileSync(
      path.join(dir, 'ase.json'),
      `{"frames":{"f0":${frame('f0').replace(/"filename":"f0",/, '')}},"meta":{"app":"https://www.aseprite.org/","version":"1.3","image":"gone.png","size":{"w":8,"h":8},"frameTags":[]}}\n`,
    );
    const r = await runCli(['render', 'ase.json', '-o', 'ase.png'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^sprat: error: ase\.json: \$\.meta\.image: the sheet "gone\.png" not found/);
  });
});
