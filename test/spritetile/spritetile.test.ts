import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { errorOf } from '../helpers/errors.js';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { compress, decompress } from '../../src/lzf/index.js';
import { FormatError } from '../../src/binary/errors.js';
import {
  addLayer,
  createLevel,
  getCell,
  inspectJson,
  inspectText,
  levelFromModel,
  levelToModel,
  parseLevel,
  readSpriteTile,
  resizeLayer,
  serializeLevel,
  setCell,
  sniffSpriteTile,
  spritetileHandler,
  validateSpriteTile,
  writeSpriteTile,
  type SpriteTileLevel,
} from '../../src/formats/spritetile/index.js';
import { CORPUS } from '../helpers/paths.js';
import { buildRaw, i32Data, layersData } from './build.js';

const dir = path.join(CORPUS, 'spritetile');
const files = readdirSync(dir).filter((f) => f.endsWith('.bytes'));
const load = (f: string): Uint8Array => new Uint8Array(readFileSync(path.join(dir, f)));

describe('SpriteTile corpus', () => {
  it('has 16 levels', () => expect(files.length).toBe(16));
  for (const f of files) {
    it(`${f}: reads, validates, and writes back byte for byte`, () => {
      const bytes = load(f);
      expect(sniffSpriteTile(bytes)).toBe(true);
      const level = readSpriteTile(bytes);
      expect(level.version).toBe(2);
      expect(level.littleEndian).toBe(true);
      expect(level.layers!.length).toBeGreaterThan(0);
      expect(validateSpriteTile(bytes)).toEqual([]);
      const same = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a).equals(Buffer.from(b));
      expect(same(serializeLevel(level), decompress(bytes))).toBe(true);
      expect(Buffer.from(writeSpriteTile(level)).equals(Buffer.from(bytes))).toBe(true);
      for (const lzf of ['liblzf', 'best'] as const) {
        expect(same(decompress(writeSpriteTile(level, { lzf })), decompress(bytes))).toBe(true);
      }
      // tag sizes cover every byte after the table
      const json = inspectJson(level) as { tags: { offset: number; size: number }[] };
      const total = json.tags.reduce((s, t) => s + t.size, 0);
      expect(total + 24 + json.tags.length * 11).toBe(decompress(bytes).length);
    });
  }

  it('prints inspect JSON with the contract keys in order', () => {
    const level = readSpriteTile(load('stormsword-grassLevel-d4719a8.bytes'));
    const j = inspectJson(level) as Record<string, any>;
    expect(Object.keys(j)).toEqual(['format', 'littleEndian', 'version', 'numSets', 'tilesPerSet', 'tags', 'layers']);
    expect(j.format).toBe('spritetile');
    expect(j.tilesPerSet).toBe(1024);
    expect(j.tags[0]).toEqual({ name: 'prvsize', offset: 90, size: 4 });
    expect(j.tags[2]).toEqual({ name: 'lvlayrs', offset: 98, size: 35098 });
    expect(Object.keys(j.layers[0])).toEqual([
      'tileSizeX',
      'tileSizeY',
      'scrollX',
      'scrollY',
      'previewSize',
      'z',
      'layerLock',
      'addBorder',
      'width',
      'height',
      'cells',
    ]);
    expect(Object.keys(j.layers[0].cells)).toEqual(['tile', 'flags', 'order', 'trigger']);
    expect(j.layers[0].cells.tile.length).toBe(j.layers[0].width * j.layers[0].height);
    expect(inspectText(level)).toMatch(/layer 0: 50x50 tiles of 0.32x0.32/);
  });

  it('reads numsets from the space-soldier levels', () => {
    const level = readSpriteTile(load('space-soldier-Level-287e768.bytes'));
    expect(level.tags.map((t) => t.name)).toContain('numsets');
    expect([32, 16, 8, 4, 2]).toContain(level.numSets);
  });
});

describe('SpriteTile levels made in code', () => {
  function sample(): SpriteTileLevel {
    const level = createLevel(16);
    const a = addLayer(level, { width: 4, height: 3, tileSizeX: 0.5, z: 1 });
    setCell(level, a, 0, 0, { set: 2, tile: 14, rotation: 45.2, flipX: true, collider: true, order: -3, trigger: 9 });
    setCell(level, a, 3, 2, { set: 15, tile: 2047, flipY: true });
    addLayer(level, { width: 2, height: 2 });
    return level;
  }

  it('decodes cells as the spec describes', () => {
    const level = createLevel();
    const l = addLayer(level, { width: 1, height: 1 });
    setCell(level, l, 0, 0, { set: 2, tile: 14, rotation: 45.2, flipX: true, collider: true });
    expect(l.tiles[0]).toBe(2062);
    expect(l.flags[0]).toBe(37090);
    const c = getCell(level, l, 0, 0);
    expect([c.set, c.tile, c.rotation, c.flipX, c.flipY, c.collider]).toEqual([2, 14, 45.2, true, false, true]);
  });

  it('writes and reads back, both byte orders, versions 2 and 3', () => {
    for (const littleEndian of [true, false]) {
      for (const version of [2, 3]) {
        const level = sample();
        level.littleEndian = littleEndian;
        level.version = version;
        const back = readSpriteTile(writeSpriteTile(level));
        expect(back.littleEndian).toBe(littleEndian);
        expect(back.version).toBe(version);
        expect(back.numSets).toBe(16);
        expect(back.layers).toEqual(level.layers);
        expect(getCell(back, back.layers![0]!, 3, 2)).toMatchObject({ set: 15, tile: 2047, flipY: true });
        expect(writeSpriteTile(back)).toEqual(writeSpriteTile(level));
      }
    }
  });

  it('resizes layers keeping the lower-left cells', () => {
    const level = sample();
    const l = level.layers![0]!;
    resizeLayer(l, 2, 5);
    expect(getCell(level, l, 0, 0)).toMatchObject({ set: 2, tile: 14 });
    expect(getCell(level, l, 1, 4).empty).toBe(true);
    expect(readSpriteTile(writeSpriteTile(level)).layers![0]!.width).toBe(2);
  });

  it('round-trips through the common model', () => {
    const level = sample();
    const model = levelToModel(level);
    expect(model.layers[0]!.cells[2 * 4 + 0]).toMatchObject({ tile: 14, flipX: true, rotation: 45.2 });
    const back = levelFromModel(model);
    expect(back.layers).toEqual(level.layers);
    expect(back.numSets).toBe(16);
    expect(writeSpriteTile(back)).toEqual(writeSpriteTile(level));
  });

  it('random levels survive write and read', () => {
    const cell = fc.tuple(
      fc.integer({ min: -1, max: 32767 }),
      fc.integer({ min: 0, max: 0xffff }),
      fc.integer({ min: -32768, max: 32767 }),
      fc.integer({ min: 0, max: 255 }),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 0, max: 6 }),
        fc.array(cell, { maxLength: 36 }),
        fc.boolean(),
        (w, h, cells, le) => {
          const level = createLevel();
          level.littleEndian = le;
          const l = addLayer(level, { width: w, height: h });
          for (let i = 0; i < w * h; i++) {
            const c = cells[i % Math.max(1, cells.length)];
            if (!c) break;
            l.tiles[i] = c[0];
            l.flags[i] = (c[1] & 0xf800) | ((c[1] & 0x7ff) % 1801);
            l.order[i] = c[2];
            l.trigger[i] = c[3];
          }
          const back = readSpriteTile(writeSpriteTile(level, { lzf: 'best' }));
          expect(back.layers).toEqual(level.layers);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('big layers (split with WebAssembly)', () => {
  it('read the same as small ones, both byte orders', () => {
    for (const littleEndian of [true, false]) {
      const level = createLevel(8);
      level.littleEndian = littleEndian;
      const l = addLayer(level, { width: 90, height: 70 });
      for (let i = 0; i < l.tiles.length; i++) {
        l.tiles[i] = i % 11 === 0 ? -1 : (i * 37) % 32768;
        l.flags[i] = ((i * 7) % 1801) | (i % 3 ? 0x8000 : 0) | (i % 5 ? 0x1000 : 0) | (i % 13 ? 0x6000 : 0);
        l.order[i] = ((i * 101) % 65536) - 32768;
        l.trigger[i] = i & 255;
      }
      const back = readSpriteTile(writeSpriteTile(level));
      const b = back.layers![0]!;
      expect(Buffer.from(b.tiles.buffer, b.tiles.byteOffset, b.tiles.byteLength).equals(Buffer.from(l.tiles.buffer))).toBe(true);
      expect(Array.from(b.flags.subarray(0, 50))).toEqual(Array.from(l.flags.subarray(0, 50)));
      expect(Array.from(b.order.subarray(6000))).toEqual(Array.from(l.order.subarray(6000)));
      expect(Array.from(b.trigger.subarray(100, 400))).toEqual(Array.from(l.trigger.subarray(100, 400)));
      expect(Buffer.from(serializeLevel(back)).equals(Buffer.from(serializeLevel(level)))).toBe(true);
    }
  });

  it('read big files (decoded and split in WebAssembly memory) like parseLevel does', () => {
    const level = createLevel();
    const l = addLayer(level, { width: 120, height: 100 });
    addLayer(level, { width: 3, height: 3 });
    let s = 9;
    for (let i = 0; i < l.tiles.length; i++) {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      l.tiles[i] = ((s >>> 17) % 3000) - 1;
      l.flags[i] = (s >>> 5) % 1801;
      l.trigger[i] = s & 255;
    }
    level.opaque.set('prvsize', new Uint8Array([1, 2, 3, 4]));
    level.tags.push({ name: 'prvsize', offset: 0 });
    const file = writeSpriteTile(level);
    expect(file.length).toBeGreaterThan(4096);
    const a = readSpriteTile(file);
    const b = parseLevel(decompress(file));
    expect(a.layers![0]!.tiles).toEqual(b.layers![0]!.tiles);
    expect(a.layers![0]!.flags).toEqual(l.flags);
    expect(a.layers![1]!.tiles).toEqual(b.layers![1]!.tiles);
    expect(a.opaque.get('prvsize')).toEqual(new Uint8Array([1, 2, 3, 4]));
    expect(Buffer.from(writeSpriteTile(a)).equals(Buffer.from(file))).toBe(true);
    // a bad cell and a damaged stream, through the same path
    l.tiles[7000] = -5;
    const bad = errorOf(() => readSpriteTile(writeSpriteTile(level)));
    expect(bad.message).toMatch(/^in the decompressed level: .*cell 7000 has tile value -5.*\(at byte \d+\)$/);
    expect(bad.offset).toBe(35 + 11 + 4 + 47 + 7000 * 7);
    const cut = errorOf(() => readSpriteTile(file.subarray(0, file.length - 1)));
    expect(cut.format).toBe('lzf');
    expect(cut.message).toMatch(/^damaged LZF stream in the file: .*\(at byte \d+\)$/);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }), (muts) => {
        const f = file.slice();
        for (const [i, v] of muts) f[i % 300] = v; // the header, tag table and first layer
        try {
          readSpriteTile(f, { limit: 1 << 22 });
        } catch (e) {
          expect(e).toBeInstanceOf(FormatError);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('report bad cells at the same offsets', () => {
    for (const [tile, flags, msg, extra] of [
      [-2, 0, /cell 5000 has tile value -2/, 0],
      [5, 1801, /cell 5000 has rotation 1801/, 2],
    ] as const) {
      const level = createLevel();
      const l = addLayer(level, { width: 100, height: 60 });
      l.tiles[5000] = tile;
      l.flags[5000] = flags;
      const e = errorOf(() => parseLevel(serializeLevel(level)));
      const at = 35 + 4 + 47 + 5000 * 7 + extra;
      expect(e.message).toMatch(msg);
      expect(e.offset).toBe(at);
    }
  });
});

describe('SpriteTile tags and odd files', () => {
  it('keeps a groups file (no lvlayrs) byte for byte and warns', () => {
    const raw = buildRaw({
      tags: [
        { name: 'grpsets', data: new Uint8Array([1, 2, 3, 4, 5]) },
        { name: 'rndsets', data: new Uint8Array([9]) },
        { name: 'tersets', data: new Uint8Array([]) },
      ],
    });
    const file = compress(raw, 'clzf2');
    const level = readSpriteTile(file);
    expect(level.layers).toBeNull();
    expect(writeSpriteTile(level)).toEqual(file);
    const d = validateSpriteTile(file);
    expect(d).toHaveLength(1);
    expect(d[0]!.severity).toBe('warning');
    expect(d[0]!.message).toMatch(/not a level/);
    expect((inspectJson(level) as any).layers).toEqual([]);
  });

  it('keeps data order when it differs from table order, and shared offsets', () => {
    const layers = layersData([{ width: 1, height: 1 }]);
    const ns = i32Data(8);
    const tableEnd = 24 + 3 * 11;
    const raw = buildRaw({
      tags: [
        { name: 'lvlayrs', data: layers, offset: tableEnd + 4 },
        { name: 'numsets', data: ns, offset: tableEnd },
        { name: 'zzshare', data: new Uint8Array(0), offset: tableEnd },
      ],
    });
    // data must be numsets then layers: rebuild by hand
    const fixed = new Uint8Array(tableEnd + 4 + layers.length);
    fixed.set(raw.subarray(0, tableEnd));
    fixed.set(ns, tableEnd);
    fixed.set(layers, tableEnd + 4);
    const level = parseLevel(fixed);
    expect(level.numSets).toBe(8);
    expect(level.dataOrder).toEqual([['numsets', 'zzshare'], ['lvlayrs']]);
    expect(serializeLevel(level)).toEqual(fixed);
  });

  it('checks layerLock in validate only', () => {
    const raw = buildRaw({ tags: [{ name: 'lvlayrs', data: layersData([{ width: 1, height: 1, layerLock: 7 }]) }] });
    const level = parseLevel(raw);
    expect(level.layers![0]!.layerLock).toBe(7);
    const d = validateSpriteTile(compress(raw));
    expect(d[0]!.severity).toBe('error');
    expect(d[0]!.message).toMatch(/^in the decompressed level: .*layerLock 7.*\(at byte 70\)$/);
  });
});

describe('SpriteTile bad input', () => {
  const good = (): Uint8Array => buildRaw({ tags: [{ name: 'lvlayrs', data: layersData([{ width: 2, height: 1 }]) }] });
  const cases: [string, () => Uint8Array, RegExp, number][] = [
    ['wrong magic', () => buildRaw({ magic: 'SpriteTileLevez', tags: [] }), /SpriteTileLevel/, 0],
    ['unknown version', () => buildRaw({ version: 4, tags: [{ name: 'lvlayrs', data: layersData([]) }] }), /version 4/, 16],
    ['bad endianness byte', () => buildRaw({ endianByte: 2, tags: [] }), /endianness byte 2/, 15],
    ['no tags', () => buildRaw({ tags: [] }), /at least one tag/, 20],
    ['negative tag count', () => buildRaw({ tags: [], count: -1 }), /tag count -1/, 20],
    ['huge tag count', () => buildRaw({ tags: [], count: 1e9 }), /tag count/, 20],
    ['bad numsets', () => buildRaw({ tags: [{ name: 'numsets', data: i32Data(12) }] }), /numsets is 12/, 35],
    [
      'numsets too long',
      () => buildRaw({ tags: [{ name: 'numsets', data: new Uint8Array(6).fill(0).map((_, i) => (i === 0 ? 8 : 0)) }] }),
      /left over/,
      39,
    ],
    ['numsets too short', () => buildRaw({ tags: [{ name: 'numsets', data: new Uint8Array(2) }] }), /needs 4/, 35],
    [
      'layer larger than its data',
      () => buildRaw({ tags: [{ name: 'lvlayrs', data: layersData([{ width: 5, height: 5, extraCells: -20 }]) }] }),
      /5x5 tiles/,
      78,
    ],
    [
      'layers past their extent',
      () =>
        buildRaw({
          tags: [
            { name: 'lvlayrs', data: layersData([{ width: 3, height: 1 }]) },
            { name: 'prvsize', data: i32Data(1), offset: 24 + 22 + 4 + 47 + 7 },
          ],
        }),
      /only 7 bytes/,
      89,
    ],
    [
      'bytes left in lvlayrs',
      () => buildRaw({ tags: [{ name: 'lvlayrs', data: layersData([{ width: 1, height: 1 }], true, 3) }] }),
      /3 bytes left over/,
      93,
    ],
    [
      'tile below -1',
      () =>
        buildRaw({
          tags: [
            {
              name: 'lvlayrs',
              data: layersData([
                {
                  width: 2,
                  height: 1,
                  cells: [
                    [-1, 0, 0, 0],
                    [-2, 0, 0, 0],
                  ],
                },
              ]),
            },
          ],
        }),
      /tile value -2/,
      93,
    ],
    [
      'rotation over 360',
      () => buildRaw({ tags: [{ name: 'lvlayrs', data: layersData([{ width: 1, height: 1, cells: [[1, 1801, 0, 0]] }]) }] }),
      /rotation 1801/,
      88,
    ],
    [
      'wrong lyrdata marker',
      () => buildRaw({ tags: [{ name: 'lvlayrs', data: layersData([{ width: 1, height: 1, marker: 'lyrdatx' }]) }] }),
      /lyrdata/,
      39,
    ],
    ['negative width', () => buildRaw({ tags: [{ name: 'lvlayrs', data: layersData([{ width: -1, height: 1 }]) }] }), /width -1/, 78],
    ['negative layer count', () => buildRaw({ tags: [{ name: 'lvlayrs', data: i32Data(-3) }] }), /layer count -3/, 35],
    [
      'duplicate tag',
      () =>
        buildRaw({
          tags: [
            { name: 'prvsize', data: i32Data(1) },
            { name: 'prvsize', data: i32Data(1) },
          ],
        }),
      /twice/,
      35,
    ],
    ['offset inside the table', () => buildRaw({ tags: [{ name: 'prvsize', data: i32Data(1), offset: 30 }] }), /offset 30/, 31],
    ['offset past the end', () => buildRaw({ tags: [{ name: 'prvsize', data: i32Data(1), offset: 100 }] }), /offset 100/, 31],
    ['negative offset', () => buildRaw({ tags: [{ name: 'prvsize', data: i32Data(1), offset: -5 }] }), /offset -5/, 31],
    // found by the long fuzz run: a tag name holding a line break made a two-line error
    [
      'tag name with a line break',
      () => buildRaw({ tags: [{ name: '\n\0\0\0prv', data: i32Data(1), offset: 1702521203 }] }),
      /tag "\\n\\x00\\x00\\x00prv" has offset 1702521203/,
      31,
    ],
  ];
  it('reads the good base case', () => expect(parseLevel(good()).layers![0]!.width).toBe(2));
  for (const [what, make, msg, offset] of cases) {
    it(`${what}: FormatError naming the offset in the decompressed level`, () => {
      const e = errorOf(() => readSpriteTile(compress(make())));
      expect(e.format).toBe('spritetile');
      expect(e.message).toMatch(msg);
      expect(e.offset).toBe(offset);
      // README: the message ends with `(at byte N)`; the words say the offset is inside the decompressed data
      expect(e.message).toMatch(new RegExp(`^in the decompressed level: .*\\(at byte ${offset}\\)$`));
      expect(validateSpriteTile(compress(make()))[0]!.severity).toBe('error');
    });
  }

  it('damaged LZF and bombs: FormatError from lzf, naming the file offset', () => {
    const file = compress(good());
    const e = errorOf(() => readSpriteTile(file.subarray(0, file.length - 2)));
    expect(e.format).toBe('lzf');
    expect(e.message).toMatch(/^damaged LZF stream in the file: .*\(at byte \d+\)$/);
    const bomb = new Uint8Array(2 + 3 * 5000);
    bomb.set([0, 1]);
    for (let i = 0; i < 5000; i++) bomb.set([0xe0, 255, 0], 2 + i * 3);
    expect(errorOf(() => readSpriteTile(bomb, { limit: 100_000 })).message).toMatch(/limit/);
    expect(sniffSpriteTile(bomb)).toBe(false);
    expect(sniffSpriteTile(new Uint8Array([0x20, 0]))).toBe(false);
  });

  it('random mutations give FormatError only', () => {
    const base = decompress(load('stormsword-grassLevel-d4719a8.bytes')).slice(0, 600);
    const file = load('space-soldier-TutorialLevel-51a81b4.bytes');
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }), fc.nat(), (muts, cut) => {
        const d = base.slice();
        const f = file.slice();
        for (const [i, v] of muts) {
          d[i % d.length] = v;
          f[(i >> 3) % f.length] = v;
        }
        for (const input of [compress(d), compress(d.subarray(0, cut % d.length)), f, f.subarray(0, cut % f.length)]) {
          try {
            readSpriteTile(input, { limit: 1 << 20 });
          } catch (e) {
            expect(e).toBeInstanceOf(FormatError);
          }
          expect(Array.isArray(spritetileHandler.validate(input))).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
