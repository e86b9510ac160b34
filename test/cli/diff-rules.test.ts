/** The path rules of src/diff.ts on each format's JSON shapes, and hostile documents. */
import { afterAll, describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Budget, DEFAULT_LIMITS } from '../../src/binary/limits.js';
import { changeText, diffJson, singular, textForm, MAX_DIFF_DEPTH } from '../../src/diff.js';
import { createIsprite, writeIsprite, type IspriteNode } from '../../src/formats/isprite/index.js';
import { runCli } from '../helpers/cli.js';
import { SAMPLES } from '../helpers/paths.js';

const lines = (a: unknown, b: unknown) => diffJson(a, b).map(changeText);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-diff-rules-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('diff paths', () => {
  it('plural keys name their items', () => {
    expect(['animations', 'directions', 'properties', 'children', 'tileset', 'status', 'layers'].map(singular)).toEqual([
      'animation',
      'direction',
      'property',
      'child',
      'tileset',
      'status',
      'layer',
    ]);
  });

  it('ISPRITE: sequences and groups by name, at any depth; frames by index; short lists as one value', () => {
    const a = {
      tree: [
        { sequence: 'idle', loopPoint: 0, frames: [0, 1] },
        { group: 'Armed', children: [{ sequence: 'attack', loopPoint: null, frames: [6, 7, 8] }] },
      ],
      frames: [{ holdTime: 4, elements: [{ x: -8 }] }],
    };
    const b = {
      tree: [
        { group: 'Armed', children: [{ sequence: 'attack', loopPoint: 1, frames: [6, 7] }] },
        { sequence: 'idle', loopPoint: 0, frames: [0, 1] },
      ],
      frames: [
        { holdTime: 4, elements: [{ x: -7 }] },
        { holdTime: 1, elements: [] },
      ],
    };
    expect(lines(a, b)).toEqual([
      'group Armed, sequence attack: loopPoint null -> 1',
      'group Armed, sequence attack: frames [6, 7, 8] -> [6, 7]',
      'frame 0, element 0: x -8 -> -7',
      '+ frame 1',
    ]);
  });

  it('names shared by several items are told apart by their order; odd names are quoted', () => {
    const a = {
      animations: [
        { name: 'walk', d: 1 },
        { name: 'walk', d: 2 },
        { name: 'a, b', d: 3 },
      ],
    };
    const b = {
      animations: [
        { name: 'walk', d: 1 },
        { name: 'walk', d: 5 },
        { name: 'a, b', d: 4 },
      ],
    };
    expect(lines(a, b)).toEqual(['animation walk #2: d 2 -> 5', 'animation "a, b": d 3 -> 4']);
  });

  it('an object under a plural key is a list of named items (Aseprite frames, CTHG views)', () => {
    const a = { frames: { 'hero 0.aseprite': { duration: 100 } }, animations: [{ name: 'fan', views: { north: 0, east: 4 } }] };
    const b = { frames: { 'hero 0.aseprite': { duration: 150 } }, animations: [{ name: 'fan', views: { north: 0, east: 5 } }] };
    expect(lines(a, b)).toEqual(['frame hero 0.aseprite: duration 100 -> 150', 'animation fan, view east: 4 -> 5']);
  });

  it('level layers cell by cell: SpriteTile parallel arrays and Tiled data', () => {
    const st = (t: number) => ({ layers: [{ width: 3, height: 2, cells: { tile: [0, 0, 0, 0, t, 0], flags: [0, 0, 0, 0, 0, 0] } }] });
    expect(lines(st(1), st(2))).toEqual(['layer 0, cell (1, 1): tile 1 -> 2']);
    const tiled = (t: number) => ({ layers: [{ name: 'Ground', width: 2, height: 2, data: [1, 1, t, 1] }] });
    expect(lines(tiled(1), tiled(3))).toEqual(['layer Ground, tile (0, 1): 1 -> 3']);
    expect(textForm(tiled(1))).toContain('layer Ground, tile (0, 1): 1\n');
  });

  it('empty lists are lists of no items', () => {
    expect(lines({ animations: [] }, { animations: [{ name: 'jump' }] })).toEqual(['+ animation jump']);
    expect(lines({ animations: [{ name: 'jump' }] }, { animations: [] })).toEqual(['- animation jump']);
  });

  it('a grid is spent from --max-items; a tree nested past MAX_DIFF_DEPTH is one value', () => {
    const big = { layers: [{ width: 100, height: 100, data: new Array(10000).fill(0) }] };
    expect(() => diffJson(big, big, new Budget({ ...DEFAULT_LIMITS, maxItems: 5000 }))).toThrow(/--max-items/);
    let deep: Record<string, unknown> = { x: 1 };
    for (let i = 0; i < 5000; i++) deep = { inner: deep };
    const other = JSON.parse(JSON.stringify({ inner: { inner: { x: 2 } } }));
    expect(lines(deep, other)).toEqual(['inner, inner: - inner', 'inner, inner: + x 2']);
    expect(lines(deep, deep)).toEqual([]);
    expect(textForm(deep)).toContain(`(nested deeper than ${MAX_DIFF_DEPTH} levels)`);
  });
});

describe('sprat diff on hostile files', () => {
  it('an ISPRITE group tree 20000 deep: one line per change, no crash', async () => {
    const deep = createIsprite(12);
    let top: IspriteNode = { kind: 'group', name: 'g', children: [] };
    deep.tree.push(top);
    for (let i = 0; i < 20000; i++) {
      const c: IspriteNode = { kind: 'group', name: `g${i}`, children: [] };
      top.children.push(c);
      top = c;
    }
    fs.writeFileSync(path.join(tmp, 'deep.isprite'), writeIsprite(deep));
    fs.writeFileSync(path.join(tmp, 'flat.isprite'), writeIsprite(createIsprite(12)));
    const r = await runCli(['diff', 'flat.isprite', 'deep.isprite'], tmp);
    expect(r).toEqual({ code: 0, stdout: '+ group g\n', stderr: '' });
    const t = await runCli(['diff', '--textconv', 'deep.isprite'], tmp);
    expect(t.code).toBe(0);
    const d = await runCli(['diff', 'deep.isprite', 'deep.isprite', '--exit-code'], tmp);
    expect(d).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('a level past --max-items, or a diff past --max-json-bytes: one error line naming the option', async () => {
    const level = path.join(SAMPLES, 'spritetile/level.bytes');
    const r = await runCli(['diff', level, '--max-items', '10', '--format', 'spritetile', '--textconv']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^sprat: error: .*level\.bytes: .*--max-items\)\n$/);
    const slime = path.join(SAMPLES, 'solarus/sprites/slime.dat');
    const lua = path.join(SAMPLES, 'solarus/sprites/slime_lua.dat');
    const j = await runCli(['diff', slime, lua, '--max-json-bytes', '10']);
    expect(j.code).toBe(1);
    expect(j.stderr).toMatch(/^sprat: error: .*--max-json-bytes\)\n$/);
  });
});
