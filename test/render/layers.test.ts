/**
 * A level's layers (levels and maps): `--hide-layers` and
 * `--layer-opacity` for every format that draws layers (SpriteTile, Tiled,
 * Hallgeir maps), applied once in the pipeline, and the layer layout the
 * picture gives the viewer's layer list and cell inspector.
 */
import { afterAll, describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { load, renderLaidOut } from '../../src/api.js';
import { fsResourceLoader } from '../../src/node/fs.js';
import { decodePng } from '../../src/render/png.js';
import { runCli } from '../helpers/cli.js';
import { SAMPLES } from '../helpers/paths.js';

const out = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-layers-'));
afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

const LEVEL = path.join(SAMPLES, 'spritetile/level.bytes');
const TILESET = ['--tileset', `0=${path.join(SAMPLES, 'spritetile/tiles.png')}:16x16`];
const MAP = path.join(SAMPLES, 'interop/dungeon.tmj');
const HALLGEIR = path.join(SAMPLES, 'hallgeir/level1.map');

async function renderPng(file: string, args: string[]): Promise<{ code: number; stderr: string; data?: Uint8Array }> {
  const o = path.join(out, `r${Math.random().toString(36).slice(2)}.png`);
  const r = await runCli(['render', file, ...args, '-o', o]);
  return { code: r.code, stderr: r.stderr, data: r.code === 0 ? decodePng(fs.readFileSync(o)).data : undefined };
}

const opaque = (d: Uint8Array) => {
  let n = 0;
  for (let i = 3; i < d.length; i += 4) if (d[i]) n++;
  return n;
};

describe('render --hide-layers / --layer-opacity', () => {
  it('SpriteTile: hiding a layer leaves its cells out; hiding every layer draws nothing', async () => {
    const all = await renderPng(LEVEL, TILESET);
    const no0 = await renderPng(LEVEL, [...TILESET, '--hide-layers', '0']);
    const none = await renderPng(LEVEL, [...TILESET, '--hide-layers', '0,1']);
    expect([all.code, no0.code, none.code]).toEqual([0, 0, 0]);
    expect(no0.data).not.toEqual(all.data);
    expect(opaque(none.data!)).toBe(0);
    // Opacity 0 is hidden; opacity 1 is as the file says.
    expect((await renderPng(LEVEL, [...TILESET, '--layer-opacity', '0=0'])).data).toEqual(no0.data);
    expect((await renderPng(LEVEL, [...TILESET, '--layer-opacity', '0=1,1=1'])).data).toEqual(all.data);
    const half = await renderPng(LEVEL, [...TILESET, '--layer-opacity', '0=0.5']);
    expect(half.data).not.toEqual(all.data);
    expect(half.data).not.toEqual(no0.data);
  });

  it('Tiled and Hallgeir maps take them too', async () => {
    for (const file of [MAP, HALLGEIR]) {
      const all = await renderPng(file, []);
      const none = await renderPng(file, ['--hide-layers', '0']);
      expect([all.code, none.code, none.stderr]).toEqual([0, 0, '']);
      expect(opaque(all.data!)).toBeGreaterThan(0);
      expect(opaque(none.data!)).toBe(0);
    }
  });

  it('a layer the picture does not have, or a bad value, is a usage error (exit 2)', async () => {
    const past = await renderPng(MAP, ['--hide-layers', '3']);
    expect(past.code).toBe(2);
    expect(past.stderr).toMatch(/option --hide-layers 3 is past the last layer \(the picture has 2 layers: 0-1\)/);
    expect((await renderPng(LEVEL, ['--layer-opacity', '0=2'])).code).toBe(2);
    expect((await renderPng(LEVEL, ['--layer-opacity', 'ground'])).code).toBe(2);
    expect((await renderPng(LEVEL, ['--hide-layers', '-1'])).code).toBe(2);
    // Formats without layers do not take them.
    expect((await renderPng(path.join(SAMPLES, 'isprite/hero.isprite'), ['--hide-layers', '0'])).code).toBe(2);
  });
});

describe('the layers a level picture describes (the viewer inspector)', () => {
  const laidOut = async (file: string, options: Record<string, string> = {}) => {
    const loaded = load(fs.readFileSync(file), file);
    return renderLaidOut(loaded, options, fsResourceLoader(path.dirname(file)));
  };

  it('SpriteTile: the grid the renderer drew (16 px cells from the tileset, row 0 at the bottom) and every cell field', async () => {
    const { result, layers } = await laidOut(LEVEL, { tileset: `0=${path.join(SAMPLES, 'spritetile/tiles.png')}:16x16` });
    expect(layers.map((l) => l.name)).toEqual(['layer 0 (z 1)', 'layer 1 (z 0)']);
    const g = layers[0]!.grid!;
    expect(g).toEqual({ x: 0, y: 128, cellWidth: 16, cellHeight: 16, columns: 12, rows: 8, bottomUp: true });
    expect(result.frames[0]!.height).toBe(g.rows * g.cellHeight);
    expect(layers[0]!.cell!(1, 1)).toMatchObject({ set: 0, tile: 1, flipX: true, collider: true, order: 0, trigger: 0 });
    expect(layers[0]!.cell!(99, 0)).toBeUndefined();
    // Without a tileset: the flat colour cells the renderer picked.
    expect((await laidOut(LEVEL)).layers[0]!.grid!.cellWidth).toBe(16);
  });

  it('Tiled: the map grid and each cell as set, tile and orientation', async () => {
    const { layers } = await laidOut(MAP);
    expect(layers.map((l) => [l.name, l.grid?.cellWidth, l.grid?.columns, l.grid?.rows])).toEqual([
      ['Ground', 8, 4, 3],
      ['Objects', undefined, undefined, undefined],
    ]);
    expect(layers[1]!.objects).toEqual([]); // the sample's object layer is empty
    expect(layers[0]!.cell!(1, 1)).toEqual({ set: 0, tile: 0, rotation: 180 });
  });

  it('Hallgeir map: the objects with their boxes and fields', async () => {
    const { layers } = await laidOut(HALLGEIR);
    expect(layers[0]!.objects!.map((o) => [o.fields.object, o.x, o.y, o.width, o.height])).toEqual([
      ['hero.obj', 8, 16, 16, 16],
      ['coin.obj', 40, 16, 16, 16],
      ['coin.obj', 64, 16, 16, 16],
    ]);
  });
});
