import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePng } from '../../src/render/png.js';
import { runCli } from '../helpers/cli.js';
import { SAMPLES } from '../helpers/paths.js';
import { Builder, mapBytes, objectBytes, spriteBytes } from './bytes.js';

let dir: string;
const walk = {
  name: 'walk',
  frames: [
    { x: 0, y: 0, delay: 0.1, next: 1 },
    { x: 32, y: 0, delay: 0.1, next: 0 },
  ],
};

beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'sprat-hallgeir-'));
  await fsp.writeFile(path.join(dir, 'hero.spr'), spriteBytes(true, 'hero', 'hero_tex', [walk]));
  await fsp.writeFile(path.join(dir, 'hero-be.spr'), spriteBytes(false, 'hero', 'hero_tex', [walk]));
  await fsp.writeFile(path.join(dir, 'goomba.obj'), objectBytes(true, 'goomba', 'goomba'));
  await fsp.writeFile(
    path.join(dir, 'level.map'),
    mapBytes(true, [{ path: 'gfx/tiles.bmp', name: 'tiles' }], [{ x: 32, y: 64, object: 'objects/goomba.obj' }]),
  );
  await fsp.writeFile(path.join(dir, 'bad.spr'), spriteBytes(true, 'h', 't', [{ name: 'a', frames: [{ x: 0, y: 0, delay: 1, next: 5 }] }]));
  await fsp.writeFile(path.join(dir, 'trailing.obj'), new Builder(true).id('obj').str('a').str('b').raw(0, 0).bytes());
});

afterAll(async () => {
  await fsp.rm(dir, { recursive: true, force: true });
});

const cli = (...argv: string[]) => runCli(argv, dir);

describe('sprat inspect --json (the contract examples)', () => {
  it('sprite', async () => {
    const r = await cli('inspect', 'hero.spr', '--json');
    expect(r.code).toBe(0);
    expect(JSON.stringify(JSON.parse(r.stdout))).toBe(
      JSON.stringify({
        format: 'hallgeir-sprite',
        littleEndian: true,
        name: 'hero',
        texture: 'hero_tex',
        animations: [
          {
            name: 'walk',
            frames: [
              { x: 0, y: 0, delay: 0.1, next: 1 },
              { x: 32, y: 0, delay: 0.1, next: 0 },
            ],
          },
        ],
      }),
    );
    const be = await cli('inspect', 'hero-be.spr', '--json');
    expect(JSON.parse(be.stdout).littleEndian).toBe(false);
  });

  it('object and map', async () => {
    expect(JSON.stringify(JSON.parse((await cli('inspect', 'goomba.obj', '--json')).stdout))).toBe(
      '{"format":"hallgeir-object","littleEndian":true,"name":"goomba","sprite":"goomba"}',
    );
    expect(JSON.stringify(JSON.parse((await cli('inspect', 'level.map', '--json')).stdout))).toBe(
      '{"format":"hallgeir-map","littleEndian":true,"textures":[{"path":"gfx/tiles.bmp","name":"tiles"}],"objects":[{"x":32,"y":64,"object":"objects/goomba.obj"}]}',
    );
  });

  it('a readable summary without --json', async () => {
    const r = await cli('inspect', 'hero-be.spr');
    expect(r.stdout).toMatch(/^Hallgeir sprite "hero" \(big-endian\)\n/);
    expect(r.stdout).toContain('"walk": 2 frames, loops back to frame 0');
  });
});

describe('sprat validate', () => {
  it('ok files and errors naming the byte', async () => {
    const r = await cli('validate', 'hero.spr', 'hero-be.spr', 'goomba.obj', 'level.map');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('hero.spr: ok\nhero-be.spr: ok\ngoomba.obj: ok\nlevel.map: ok\n');
    const bad = await cli('validate', 'bad.spr', 'trailing.obj');
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe(
      'bad.spr: error: frame 0 of animation "a": next frame 5 is not -1 or a frame of the animation (0-0) (at byte 42)\n' +
        'trailing.obj: error: 2 unexpected bytes after the last field (at byte 13)\n',
    );
  });

  it('inspect of a broken file: one error line, exit 1', async () => {
    const r = await cli('inspect', 'bad.spr');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^sprat: error: bad\.spr: .*\(at byte 42\)\n$/);
  });
});

describe('sprat convert', () => {
  it('re-encodes in the byte order read, or the one asked for', async () => {
    expect((await cli('convert', 'hero-be.spr', 'same.spr')).code).toBe(0);
    expect(new Uint8Array(await fsp.readFile(path.join(dir, 'same.spr')))).toEqual(spriteBytes(false, 'hero', 'hero_tex', [walk]));
    expect((await cli('convert', 'hero.spr', 'big.spr', '--endian', 'big')).code).toBe(0);
    expect(new Uint8Array(await fsp.readFile(path.join(dir, 'big.spr')))).toEqual(spriteBytes(false, 'hero', 'hero_tex', [walk]));
    expect((await cli('convert', 'big.spr', 'little.spr', '--endian', 'little')).code).toBe(0);
    expect(new Uint8Array(await fsp.readFile(path.join(dir, 'little.spr')))).toEqual(spriteBytes(true, 'hero', 'hero_tex', [walk]));
    expect((await cli('convert', 'level.map', 'level-be.map', '--endian', 'big')).code).toBe(0);
    expect(new Uint8Array(await fsp.readFile(path.join(dir, 'level-be.map')))).toEqual(
      mapBytes(false, [{ path: 'gfx/tiles.bmp', name: 'tiles' }], [{ x: 32, y: 64, object: 'objects/goomba.obj' }]),
    );
    const bad = await cli('convert', 'hero.spr', 'x.spr', '--endian', 'middle');
    expect(bad.code).toBe(2); // a wrong option value is a command-line error
    expect(bad.stderr).toMatch(/option --endian must be one of auto, little, big, not /);
  });
});

describe('sprat play', () => {
  it('prints {"time", "frame"} for t = 0, S, 2S ... < N', async () => {
    const r = await cli('play', 'hero.spr', '--animation', 'walk', '--ms', '500', '--step-ms', '100', '--json');
    expect(r.code).toBe(0);
    // The third frame ends at 0.1 + 0.1 + 0.1 = 0.30000000000000004 > 0.3: still showing at 300 ms.
    expect(r.stdout).toBe(
      '[\n  {"time":0,"frame":0},\n  {"time":100,"frame":1},\n  {"time":200,"frame":0},\n  {"time":300,"frame":0},\n  {"time":400,"frame":0}\n]\n',
    );
    const le = await cli('play', 'hero-be.spr', '--ms', '150', '--step-ms', '50', '--endian', 'big', '--json');
    expect(JSON.parse(le.stdout)).toEqual([
      { time: 0, frame: 0 },
      { time: 50, frame: 0 },
      { time: 100, frame: 1 },
    ]);
  });

  it('a timeline without --json; errors for unknown animations', async () => {
    const r = await cli('play', 'hero.spr', '--ms', '200', '--step-ms', '100');
    expect(r.stdout).toBe('animation "walk", 2 steps of 100 ms\n       0 ms  frame 0\n     100 ms  frame 1\n');
    const bad = await cli('play', 'hero.spr', '--animation', 'run', '--json');
    // README: exit 2 when the command line is wrong (as for Solarus and CTHG)
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('sprat: error: hero.spr: option --animation "run" names no animation (the sprite has: walk)\n');
  });
});

describe('sprat render', () => {
  it('a sprite frame and a map from the bundled sample', async () => {
    const sample = path.join(SAMPLES, 'hallgeir');
    const out = path.join(dir, 'coin.png');
    const r = await cli('render', path.join(sample, 'coin.spr'), '--frame-size', '16x16', '--animation', 'spin', '--frame', '1', '-o', out);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const img = decodePng(new Uint8Array(await fsp.readFile(out)));
    expect([img.width, img.height]).toEqual([16, 16]);
    const m = await cli('render', path.join(sample, 'level1.map'), '-o', path.join(dir, 'map.png'));
    expect(m.code).toBe(0);
    const map = decodePng(new Uint8Array(await fsp.readFile(path.join(dir, 'map.png'))));
    expect([map.width, map.height]).toEqual([80, 32]);
  });

  it('an object as its sprite', async () => {
    const out = path.join(dir, 'hero-obj.png');
    const r = await cli('render', path.join(SAMPLES, 'hallgeir', 'hero.obj'), '--frame-size', '16x16', '-o', out);
    expect(r.stderr).toBe('');
    const img = decodePng(new Uint8Array(await fsp.readFile(out)));
    expect([img.width, img.height]).toEqual([16, 16]);
  });

  it('a sprite without --frame-size is an error, and nothing is written', async () => {
    const r = await cli('render', path.join(SAMPLES, 'hallgeir', 'hero.spr'), '-o', 'none.png');
    expect(r.code).toBe(2); // a missing option is a command-line error
    expect(r.stderr).toMatch(/needs --frame-size WxH/);
    await expect(fsp.access(path.join(dir, 'none.png'))).rejects.toThrow();
  });
});
