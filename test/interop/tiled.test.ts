import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../src/detect.js';
import {
  bitsToOrientation,
  FLIP_D,
  FLIP_H,
  FLIP_V,
  orientationToBits,
  tiledHandler,
  type TiledDoc,
} from '../../src/interop/tiled/index.js';
import { gridSize } from '../../src/model/frames.js';
import type { LevelModel, ModelCell } from '../../src/model/types.js';
import { cropImage, createImage } from '../../src/render/image.js';
import { decodePng, encodePng } from '../../src/render/png.js';
import { fixture, memoryLoader, patternImage } from './helpers.js';

const H = FLIP_H >>> 0;
const V = FLIP_V;
const D = FLIP_D;

/** Pixel-level transforms of an n×n grid of labels, to check the table independently of the matrices. */
type Grid = number[][];
const grid = (): Grid => [0, 1, 2].map((y) => [0, 1, 2].map((x) => y * 3 + x));
const transpose = (g: Grid): Grid => g.map((row, y) => row.map((_, x) => g[x]![y]!));
const mirrorX = (g: Grid): Grid => g.map((row) => [...row].reverse());
const mirrorY = (g: Grid): Grid => [...g].reverse();
/** Counter-clockwise by 90°: the right column becomes the top row. */
const ccw90 = (g: Grid): Grid => g.map((_, y) => g.map((row) => row[2 - y]!));
function tiledRender(bits: number): Grid {
  let g = grid();
  if (bits & D) g = transpose(g);
  if (bits & H) g = mirrorX(g);
  if (bits & V) g = mirrorY(g);
  return g;
}
function modelRender(flipX: boolean, flipY: boolean, rotation: number): Grid {
  let g = grid();
  if (flipX) g = mirrorX(g);
  if (flipY) g = mirrorY(g);
  for (let i = 0; i < rotation / 90; i++) g = ccw90(g);
  return g;
}

describe('tiled: flip bits and rotations', () => {
  const TABLE: [number, boolean, boolean, number][] = [
    [0, false, false, 0],
    [H, true, false, 0],
    [V, false, true, 0],
    [(H | V) >>> 0, false, false, 180],
    [D, true, false, 90],
    [(D | H) >>> 0, false, false, 270],
    [D | V, false, false, 90],
    [(D | H | V) >>> 0, true, false, 270],
  ];

  it('decodes each flag combination to the simplest orientation (exact table)', () => {
    for (const [bits, flipX, flipY, rotation] of TABLE) {
      expect(bitsToOrientation(bits), bits.toString(16)).toEqual({ flipX, flipY, rotation });
      expect(tiledRender(bits), bits.toString(16)).toEqual(modelRender(flipX, flipY, rotation));
    }
  });

  it('rotations of 90/180/270 counter-clockwise are D|V, H|V and D|H', () => {
    expect(orientationToBits(false, false, 90)).toBe(D | V);
    expect(orientationToBits(false, false, 180)).toBe((H | V) >>> 0);
    expect(orientationToBits(false, false, 270)).toBe((D | H) >>> 0);
  });

  it('encodes all 16 flip/rotation combinations to bits that draw the same', () => {
    for (const fx of [false, true])
      for (const fy of [false, true])
        for (const rot of [0, 90, 180, 270]) {
          const bits = orientationToBits(fx, fy, rot);
          expect(tiledRender(bits), `${fx} ${fy} ${rot}`).toEqual(modelRender(fx, fy, rot));
        }
  });
});

const tiles = patternImage(16, 16, 2);
const props = patternImage(10, 28, 7);
const loader = memoryLoader({ 'tiles.png': encodePng(tiles), 'props.png': encodePng(props) });

describe('tiled: reading a map', () => {
  it('reads layers, GIDs with flip bits, tilesets and properties', () => {
    const bytes = fixture('dungeon.tmj');
    expect(detectFormat(bytes, 'dungeon.tmj')?.name).toBe('tiled');
    const doc = tiledHandler.read(bytes) as TiledDoc;
    expect(doc.width).toBe(4);
    expect(doc.layers.map((l) => l.type)).toEqual(['tilelayer', 'objectgroup']);
    expect(doc.tilesets.map((t) => [t.name, t.firstgid, t.margin, t.spacing])).toEqual([
      ['tiles', 1, 0, 0],
      ['props', 5, 1, 1],
    ]);
    expect(tiledHandler.validate(bytes)).toEqual([]);
    expect(tiledHandler.inspectText(doc)).toMatch(/10 non-empty cell\(s\), 7 flipped or rotated/);
    const j = tiledHandler.inspectJson(doc) as Record<string, any>;
    expect(j.format).toBe('tiled');
    expect(j.layers[0].data[2]).toBe(0x80000003);
  });

  it('converts to a LevelModel, rows top first, flips and rotations decoded', async () => {
    const model = (await tiledHandler.toModel!(tiledHandler.read(fixture('dungeon.tmj')), loader)) as LevelModel;
    expect(model.properties).toEqual({ music: 'cave.ogg', gravity: 9.5 });
    expect(model.notes?.join('\n')).toMatch(/objectgroup "Objects" left out/);
    const l = model.layers[0]!;
    expect([l.name, l.width, l.height, l.tileWidth, l.tileHeight]).toEqual(['Ground', 4, 3, 8, 8]);
    expect(l.properties).toEqual({ solid: true });
    const c = (set: number, tile: number, more: Partial<ModelCell> = {}): ModelCell => ({ set, tile, ...more });
    const E = c(-1, -1);
    expect(l.cells).toEqual([
      c(0, 0),
      c(0, 1),
      c(0, 2, { flipX: true }),
      E,
      c(0, 3, { flipY: true }),
      c(0, 0, { rotation: 180 }),
      c(0, 1, { flipX: true, rotation: 90 }),
      E,
      c(0, 2, { rotation: 270 }),
      c(0, 3, { rotation: 90 }),
      c(0, 0, { flipX: true, rotation: 270 }),
      c(1, 2),
    ]);
    expect(model.tilesets.map((t) => [t.name, t.tileWidth, t.imagePath])).toEqual([
      ['tiles', 8, 'tiles.png'],
      ['props', 8, 'props.png'],
    ]);
    // The props image (margin 1, spacing 1) is cut into a plain 1-column grid.
    const p = model.tilesets[1]!.image!;
    expect([p.width, p.height]).toEqual([8, 24]);
    expect(cropImage(p, 0, 16, 8, 8)).toEqual(cropImage(props, 1, 19, 8, 8));
  });

  it('cuts a tileset image with margin and spacing, the margin counted once (Tiled), when converting', async () => {
    // 3 × 2 tiles of 8 × 8 after a margin of 3, 1 apart, no right or bottom margin: 29 × 20.
    const img = patternImage(29, 20, 5);
    const map = {
      type: 'map',
      orientation: 'orthogonal',
      renderorder: 'right-down',
      width: 6,
      height: 1,
      tilewidth: 8,
      tileheight: 8,
      infinite: false,
      layers: [{ type: 'tilelayer', name: 'a', width: 6, height: 1, x: 0, y: 0, data: [1, 2, 3, 4, 5, 6] }],
      tilesets: [
        { firstgid: 1, name: 'e', image: 'e.png', imagewidth: 29, imageheight: 20, tilewidth: 8, tileheight: 8, margin: 3, spacing: 1 },
      ],
    };
    const doc = tiledHandler.read(new TextEncoder().encode(JSON.stringify(map)));
    const model = (await tiledHandler.toModel!(doc, memoryLoader({ 'e.png': encodePng(img) }))) as LevelModel;
    const cut = model.tilesets[0]!.image!;
    expect([cut.width, cut.height]).toEqual([24, 16]);
    expect(cropImage(cut, 16, 8, 8, 8)).toEqual(cropImage(img, 21, 12, 8, 8));
    expect(gridSize(29, 20, { width: 8, height: 8 }, 3, 1)).toEqual({ columns: 3, rows: 2 });
  });

  it('re-encodes a map to the same JSON values', async () => {
    const bytes = fixture('dungeon.tmj');
    const files = await tiledHandler.writeFiles!(tiledHandler.read(bytes), 'copy.tmj');
    expect(files.length).toBe(1);
    const a = JSON.parse(new TextDecoder().decode(bytes));
    const b = JSON.parse(new TextDecoder().decode(files[0]!.bytes));
    expect(b).toEqual(a);
  });

  it('reads base64 data, plain and zlib/gzip-compressed', async () => {
    const { zlibSync, gzipSync } = await import('fflate');
    const gids = new Uint32Array([1, 0x80000002, 0, 3]);
    const raw = new Uint8Array(gids.buffer);
    const b64 = (u: Uint8Array) => btoa(String.fromCharCode(...u));
    for (const [compression, data] of [
      ['', raw],
      ['zlib', zlibSync(raw)],
      ['gzip', gzipSync(raw)],
    ] as const) {
      const map = {
        type: 'map',
        width: 2,
        height: 2,
        tilewidth: 8,
        tileheight: 8,
        orientation: 'orthogonal',
        layers: [{ type: 'tilelayer', name: 'L', width: 2, height: 2, encoding: 'base64', compression, data: b64(data) }],
        tilesets: [{ firstgid: 1, name: 't', tilewidth: 8, tileheight: 8, columns: 2, tilecount: 4, image: 't.png' }],
      };
      const doc = tiledHandler.read(new TextEncoder().encode(JSON.stringify(map))) as TiledDoc;
      expect((doc.layers[0] as any).data, compression).toEqual(new Uint32Array([1, 0x80000002, 0, 3]));
    }
  });

  it('loads external .tsj tilesets relative to themselves (and .tsx: test/interop/tmx.test.ts)', async () => {
    const map = {
      type: 'map',
      width: 2,
      height: 1,
      tilewidth: 8,
      tileheight: 8,
      orientation: 'orthogonal',
      layers: [{ type: 'tilelayer', name: 'L', width: 2, height: 1, data: [3, 0x40000001] }],
      tilesets: [{ firstgid: 1, source: 'sets/ext.tsj' }],
    };
    const tsj = {
      name: 'ext',
      tilewidth: 8,
      tileheight: 8,
      columns: 2,
      tilecount: 4,
      image: '../tiles.png',
      imagewidth: 16,
      imageheight: 16,
      type: 'tileset',
    };
    const enc = (o: unknown) => new TextEncoder().encode(JSON.stringify(o));
    const doc = tiledHandler.read(enc(map)) as TiledDoc;
    const res = memoryLoader({ 'sets/ext.tsj': enc(tsj), 'sets/../tiles.png': encodePng(tiles) });
    const model = (await tiledHandler.toModel!(doc, res)) as LevelModel;
    expect(model.tilesets[0]!.name).toBe('ext');
    expect(model.tilesets[0]!.image).toEqual(tiles);
    expect(model.layers[0]!.cells).toEqual([
      { set: 0, tile: 2 },
      { set: 0, tile: 0, flipY: true },
    ]);
    expect(model.notes?.join()).toMatch(/external tileset "sets\/ext.tsj" is embedded/);
    const tsx = tiledHandler.read(enc({ ...map, tilesets: [{ firstgid: 1, source: 'a.tsx' }] }));
    await expect(tiledHandler.toModel!(tsx, res)).rejects.toThrow(/a\.tsx/);
  });

  it('names the JSON path of structural errors', () => {
    const bad = (o: unknown) => () => tiledHandler.read(new TextEncoder().encode(JSON.stringify(o)));
    const base = { type: 'map', width: 2, height: 1, tilewidth: 8, tileheight: 8, tilesets: [] };
    expect(bad({ ...base, layers: [{ type: 'tilelayer', name: 'a', width: 2, height: 1, data: [1] }] })).toThrow(
      /\$\.layers\[0\]\.data: has 1 entries for 2 cells/,
    );
    expect(bad({ ...base, layers: [{ type: 'tilelayer', name: 'a', width: 2, height: 1, data: [1, -1] }] })).toThrow(
      /\$\.layers\[0\]\.data\[1\]: must be at least 0/,
    );
    expect(
      bad({
        ...base,
        infinite: true,
        layers: [{ type: 'tilelayer', name: 'a', chunks: [{ x: 0, y: 0, width: 2, height: 1, data: [1] }] }],
      }),
    ).toThrow(/\$\.layers\[0\]\.chunks\[0\]\.data: has 1 entries for 2 cells/);
    expect(bad({ ...base, layers: [], tilesets: [{ firstgid: 0, tilewidth: 8, tileheight: 8 }] })).toThrow(/\$\.tilesets\[0\]\.firstgid/);
    expect(bad({ ...base, layers: [{ type: 'hexagons' }] })).toThrow(/\$\.layers\[0\]\.type: unknown layer type/);
  });
});

const cellArb = (sets: number): fc.Arbitrary<ModelCell> =>
  fc.oneof(
    fc.constant<ModelCell>({ set: -1, tile: -1 }),
    fc.record(
      {
        set: fc.integer({ min: 0, max: sets - 1 }),
        tile: fc.integer({ min: 0, max: 40 }),
        flipX: fc.constant(true),
        flipY: fc.constant(true),
        rotation: fc.oneof(
          fc.constantFrom(90, 180, 270),
          fc.integer({ min: 1, max: 359 }),
          fc.double({ min: 0.1, max: 359.8, noNaN: true }),
        ),
        extra: fc.dictionary(fc.constantFrom('order', 'trigger', 'collider'), fc.oneof(fc.integer(), fc.boolean()), { minKeys: 1 }),
      },
      { requiredKeys: ['set', 'tile'] },
    ),
  );

describe('tiled: LevelModel → Tiled → LevelModel loses nothing', () => {
  it('round-trips random levels (cells, flips, any rotation, extras, properties, tile sizes)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3 }),
        fc.array(fc.tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 4 }), fc.constantFrom(8, 16)), {
          minLength: 1,
          maxLength: 3,
        }),
        fc.infiniteStream(fc.constant(0)),
        fc.array(cellArb(3), { minLength: 20, maxLength: 20 }),
        async (nsets, dims, _s, pool) => {
          const tilesets = Array.from({ length: 3 }, (_, i) => ({
            name: `set${i}`,
            tileWidth: 8,
            tileHeight: 8,
            image: i < nsets ? patternImage(16, 8 * (i + 1), i) : undefined,
          }));
          let k = 0;
          const model: LevelModel = {
            kind: 'level',
            tilesets: tilesets.map((t) => (t.image ? t : { name: t.name, tileWidth: 8, tileHeight: 8 })),
            properties: { title: 'lvl', count: 3, on: true },
            layers: dims.map(([w, h, tw], li) => ({
              name: `layer ${li}`,
              width: w,
              height: h,
              tileWidth: tw,
              tileHeight: tw,
              properties: li === 0 ? { z: 2, scroll: 0.5 } : undefined,
              cells: Array.from({ length: w * h }, () => structuredClone(pool[k++ % pool.length]!)),
            })),
          };
          for (const l of model.layers) if (!l.properties) delete l.properties;
          const original = structuredClone(model);
          const doc = tiledHandler.fromModel!(model) as TiledDoc;
          const files = await tiledHandler.writeFiles!(doc, 'lvl.tmj');
          const resources: Record<string, Uint8Array> = {};
          for (const f of files.slice(1)) resources[f.name] = f.bytes;
          const back = (await tiledHandler.toModel!(tiledHandler.read(files[0]!.bytes), memoryLoader(resources))) as LevelModel;
          delete back.notes;
          expect(back.layers).toEqual(original.layers);
          expect(back.properties).toEqual(original.properties);
          // Sets in use come back at their numbers, with their pixels.
          back.tilesets.forEach((t, i) => {
            if (!t.image) return;
            const src = original.tilesets[i]!;
            expect(t.name).toBe(src.name);
            expect(t.image).toEqual(src.image);
          });
        },
      ),
      { numRuns: 60 },
    );
  });

  it('writes one tileset per set used, with its image next to the map', async () => {
    const model: LevelModel = {
      kind: 'level',
      tilesets: [
        { name: 'unused', tileWidth: 8, tileHeight: 8 },
        { name: 'ground tiles', tileWidth: 8, tileHeight: 8, image: patternImage(16, 16) },
      ],
      layers: [
        {
          name: 'g',
          width: 2,
          height: 1,
          tileWidth: 8,
          tileHeight: 8,
          cells: [
            { set: 1, tile: 3, rotation: 90 },
            { set: -1, tile: -1 },
          ],
        },
      ],
    };
    const files = await tiledHandler.writeFiles!(tiledHandler.fromModel!(model) as TiledDoc, 'maps/lvl.tmj');
    expect(files.map((f) => f.name)).toEqual(['maps/lvl.tmj', 'lvl-ground_tiles.png']);
    const json = JSON.parse(new TextDecoder().decode(files[0]!.bytes));
    expect(json.tilesets).toEqual([
      {
        columns: 2,
        firstgid: 1,
        image: 'lvl-ground_tiles.png',
        imageheight: 16,
        imagewidth: 16,
        margin: 0,
        name: 'ground tiles',
        properties: [{ name: 'sprat:set', type: 'int', value: 1 }],
        spacing: 0,
        tilecount: 4,
        tileheight: 8,
        tilewidth: 8,
      },
    ]);
    expect(json.layers[0].data).toEqual([(4 | D | V) >>> 0, 0]);
    expect(json.layers[0].properties).toBeUndefined();
    expect(decodePng(files[1]!.bytes)).toEqual(patternImage(16, 16));
    expect(model.notes?.join('\n')).toMatch(/1 tileset\(s\) no cell uses/);
    void createImage;
  });
});

describe('tiled: rendering through the level model', () => {
  it('draws tiles with their flips and rotations', async () => {
    const { renderLevelModel } = await import('../../src/model/bake-level.js');
    const model = (await tiledHandler.toModel!(tiledHandler.read(fixture('dungeon.tmj')), loader)) as LevelModel;
    const img = renderLevelModel(model);
    expect([img.width, img.height]).toEqual([32, 24]);
    const tile = (n: number) => cropImage(tiles, (n % 2) * 8, Math.floor(n / 2) * 8, 8, 8);
    const at = (col: number, row: number) => cropImage(img, col * 8, row * 8, 8, 8);
    const px = (i: ReturnType<typeof createImage>, x: number, y: number) =>
      Array.from(i.data.subarray((y * 8 + x) * 4, (y * 8 + x) * 4 + 4));
    expect(at(0, 0)).toEqual(tile(0));
    // (2, 0): tile 2 flipped horizontally.
    for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) expect(px(at(2, 0), x, y)).toEqual(px(tile(2), 7 - x, y));
    // (1, 2): tile 3 rotated 90° counter-clockwise (D|V): out(x, y) = in(7 - y, x).
    for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) expect(px(at(1, 2), x, y)).toEqual(px(tile(3), 7 - y, x));
    // (1, 1): H|V = 180°.
    for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) expect(px(at(1, 1), x, y)).toEqual(px(tile(0), 7 - x, 7 - y));
    // (3, 0) is empty.
    expect(at(3, 0)).toEqual(createImage(8, 8));
    // Without pixels, a flat colour per tile.
    const flat = renderLevelModel({ ...model, tilesets: [] });
    expect(Array.from(flat.data.subarray(0, 4))[3]).toBe(255);
  });
});

describe('tiled: odd names', () => {
  it('keeps a property named __proto__', async () => {
    const map = {
      type: 'map',
      width: 1,
      height: 1,
      tilewidth: 8,
      tileheight: 8,
      orientation: 'orthogonal',
      tilesets: [],
      properties: [{ name: '__proto__', type: 'int', value: 3 }],
      layers: [{ type: 'tilelayer', name: 'L', width: 1, height: 1, data: [0] }],
    };
    const model = (await tiledHandler.toModel!(
      tiledHandler.read(new TextEncoder().encode(JSON.stringify(map))),
      memoryLoader({}),
    )) as LevelModel;
    expect(Object.getOwnPropertyDescriptor(model.properties!, '__proto__')?.value).toBe(3);
  });
});
