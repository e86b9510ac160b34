import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { LimitError } from '../../src/binary/limits.js';
import { SAMPLES } from '../helpers/paths.js';
import { FormatError } from '../../src/binary/errors.js';
import { convert, formatByName, load } from '../../src/api.js';
import { createLayer, createLevel, writeSpriteTile } from '../../src/formats/spritetile/index.js';
import type { ResourceLoader } from '../../src/formats/types.js';

/** Findings of the fuzzer, fixed: each input as the fuzzer found it or as small as it gets. */
const none: ResourceLoader = {
  load: () => Promise.reject(Object.assign(new Error('ENOENT'), { code: 'ENOENT' })),
  exists: async () => false,
};

const tiledMap = (layerWidth: number, layerHeight: string) =>
  new TextEncoder().encode(
    `{"type":"map","orientation":"orthogonal","renderorder":"right-down","width":1,"height":1,"tilewidth":8,"tileheight":8,"infinite":false,` +
      `"layers":[{"type":"tilelayer","name":"a","width":${layerWidth},"height":${layerHeight},"x":0,"y":0,"data":[]}],"tilesets":[]}`,
  );

describe('fuzz findings, fixed', () => {
  it('a Tiled layer 10^15 high is refused by the reader (Tiled sizes are 32-bit ints), not rendered into a RangeError', () => {
    expect(() => load(tiledMap(0, '1e15'), 'm.tmj', 'tiled')).toThrow(FormatError);
    expect(() => load(tiledMap(0, '1e15'), 'm.tmj', 'tiled')).toThrow(/must be at most 2147483647, found 1000000000000000/);
  });

  it('a 0-wide Tiled layer of 2^31-1 rows converts to SpriteTile without walking its empty rows', async () => {
    const loaded = load(tiledMap(0, '2147483647'), 'm.tmj', 'tiled');
    const t0 = performance.now();
    await convert(loaded, formatByName('spritetile'), 'out.bytes', none).catch((e) => {
      if (!(e instanceof FormatError)) throw e;
    });
    expect(performance.now() - t0).toBeLessThan(5000);
  });

  it('a 0-wide SpriteTile layer of 2^31-1 rows converts to Tiled without walking its empty rows', async () => {
    const level = createLevel(32);
    level.layers!.push(createLayer({ width: 0, height: 0x7fffffff }));
    const loaded = load(writeSpriteTile(level), 'l.bytes', 'spritetile');
    const t0 = performance.now();
    await convert(loaded, formatByName('tiled'), 'out.tmj', none).catch((e) => {
      if (!(e instanceof FormatError)) throw e;
    });
    expect(performance.now() - t0).toBeLessThan(5000);
  });
});

describe('fuzz findings, fixed: one-line errors', () => {
  it('a line break quoted from the input is escaped in a FormatError (Tiled layer type "a\\rb")', () => {
    const bytes = new TextEncoder().encode(
      '{"type":"map","orientation":"orthogonal","width":1,"height":1,"tilewidth":8,"tileheight":8,"layers":[{"type":"a\\rb\\n\\u2028","name":"x"}],"tilesets":[]}',
    );
    let message = '';
    try {
      load(bytes, 'm.tmj', 'tiled');
    } catch (e) {
      expect(e).toBeInstanceOf(FormatError);
      message = (e as Error).message;
    }
    expect(message).toContain('unknown layer type "a\\rb\\n\\u2028"');
    expect(message).not.toMatch(/[\r\n\u2028]/);
  });

  it('FormatError keeps tabs and printable text as they are', () => {
    expect(new FormatError('solarus', 'bad\ttoken "é"', { line: 2 }).message).toBe('bad\ttoken "é" (at line 2)');
  });
});

describe('fuzz findings, fixed: conversions to CTHG', () => {
  const tp = (frame: string, source: string) =>
    new TextEncoder().encode(
      `{"frames":{"a":{"frame":${frame},"rotated":false,"trimmed":true,"spriteSourceSize":{"x":0,"y":0,"w":16,"h":16},"sourceSize":${source}}},` +
        `"animations":{"a":["a"]},"meta":{"image":"hero.png","format":"RGBA8888","size":{"w":48,"h":16},"scale":"1"}}`,
    );
  const sheet: ResourceLoader = {
    load: async () => readFileSync(path.join(SAMPLES, 'interop/hero.png')),
    exists: async () => true,
  };

  it('a part of half a pixel is a FormatError, not a RangeError from the crop', async () => {
    const loaded = load(tp('{"x":0,"y":0,"w":0.5,"h":16}', '{"w":16,"h":16}'), 'a.json', 'texturepacker');
    await expect(convert(loaded, formatByName('cthg'), 'out.dat', sheet)).rejects.toThrow(/not a whole-pixel rectangle/);
  });

  it('a part of 10^6 x 10^6 pixels is a LimitError naming --max-pixels, before anything is allocated', async () => {
    const loaded = load(tp('{"x":0,"y":0,"w":1000000,"h":1000000}', '{"w":1000000,"h":1000000}'), 'a.json', 'texturepacker');
    const e = await convert(loaded, formatByName('cthg'), 'out.dat', sheet).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(LimitError);
    expect((e as Error).message).toMatch(/--max-pixels/);
  });

  it('a note quoting a name with a CR (a Solarus image "a\\rb" not found) stays one line', async () => {
    const loaded = load(
      new TextEncoder().encode(
        'animation{ name = "s", src_image = "a\\rb", directions = { { x = 0, y = 0, frame_width = 8, frame_height = 8 } } }\n',
      ),
      's.dat',
      'solarus-lua',
    );
    const { notes } = await convert(loaded, formatByName('isprite'), 'out.isprite', none).catch(() => ({ notes: ['(failed)'] }));
    expect(notes.join('|')).toMatch(/a\\rb/);
    for (const n of notes) expect(n).not.toMatch(/[\r\n]/);
  });
});
