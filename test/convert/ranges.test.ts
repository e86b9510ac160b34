/**
 * No silent change: a value that does not fit its field is refused, naming
 * the field and the value (exit 1), or clamped with a note under --clamp;
 * never wrapped (Tiled -> SpriteTile wrapped order 70000 to 4464,
 * trigger 300 to 44, scrollX 2^32+1 to 1, previewSize 3e9 to -1294967296).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FormatError } from '../../src/binary/errors.js';
import { ByteWriter, fitInt } from '../../src/binary/writer.js';
import { readSpriteTile } from '../../src/formats/spritetile/read.js';
import { runCli } from '../helpers/cli.js';
import { SAMPLES } from '../helpers/paths.js';

let dir: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-ranges-'));
  fs.copyFileSync(path.join(SAMPLES, 'spritetile/level.bytes'), path.join(dir, 'level.bytes'));
  const r = await runCli(['convert', 'level.bytes', 'level.tmj'], dir);
  expect(r.code).toBe(0);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

type Prop = { name: string; type: string; value: unknown };

/** The sample level as Tiled JSON with some values changed. */
function tiledWith(name: string, edit: { props?: Record<string, number>; cell?: Record<string, number> }): string {
  const map = JSON.parse(fs.readFileSync(path.join(dir, 'level.tmj'), 'utf8'));
  const layer = map.layers[0];
  const props: Prop[] = layer.properties;
  for (const [k, v] of Object.entries(edit.props ?? {})) props.find((p) => p.name === k)!.value = v;
  if (edit.cell) {
    const cells = props.find((p) => p.name === 'sprat:cells')!;
    const recs = JSON.parse(cells.value as string);
    Object.assign(recs['5'].extra, edit.cell);
    cells.value = JSON.stringify(recs);
  }
  fs.writeFileSync(path.join(dir, name), JSON.stringify(map));
  return name;
}

describe('writers refuse values that do not fit their fields', () => {
  const cases: [string, Parameters<typeof tiledWith>[1], RegExp][] = [
    ['order', { cell: { order: 70000 } }, /layer 0 cell \(\d+, \d+\) order 70000 does not fit the file's 16-bit field \(-32768 to 32767\)/],
    ['trigger', { cell: { trigger: 300 } }, /layer 0 cell \(\d+, \d+\) trigger 300 does not fit the file's 8-bit field \(0 to 255\)/],
    [
      'scrollX',
      { props: { scrollX: 2 ** 32 + 1 } },
      /layer 0 scrollX 4294967297 does not fit the file's 32-bit field \(-2147483648 to 2147483647\)/,
    ],
    ['previewSize', { props: { previewSize: 3e9 } }, /layer 0 previewSize 3000000000 does not fit the file's 32-bit field/],
    ['tileSizeX', { props: { tileSizeX: 1e40 } }, /layer 0 tileSizeX 1e\+40 does not fit the file's 32-bit float field/],
  ];
  for (const [what, edit, message] of cases) {
    it(`Tiled -> SpriteTile: ${what} out of range is exit 1 naming the field and the value, and nothing is written`, async () => {
      const name = tiledWith(`${what}.tmj`, edit);
      const r = await runCli(['convert', name, `${what}.bytes`], dir);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^sprat: error: ${what}\\.tmj: .*`));
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(fs.existsSync(path.join(dir, `${what}.bytes`))).toBe(false);
    });
  }

  it('--clamp clamps each value to its field and notes every change', async () => {
    const name = tiledWith('clamp.tmj', { props: { scrollX: 2 ** 32 + 1, previewSize: 3e9 }, cell: { order: 70000, trigger: 300 } });
    const r = await runCli(['convert', name, 'clamp.bytes', '--clamp'], dir);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      "clamp.tmj: note: layer 0 scrollX 4294967297 clamped to 2147483647 (the file's 32-bit field (-2147483648 to 2147483647))\n",
    );
    expect(r.stderr).toContain('clamp.tmj: note: layer 0 previewSize 3000000000 clamped to 2147483647');
    expect(r.stderr).toMatch(/clamp\.tmj: note: layer 0 cell \(\d+, \d+\) order 70000 clamped to 32767/);
    expect(r.stderr).toMatch(/clamp\.tmj: note: layer 0 cell \(\d+, \d+\) trigger 300 clamped to 255/);
    const level = readSpriteTile(new Uint8Array(fs.readFileSync(path.join(dir, 'clamp.bytes'))));
    const l = level.layers![0]!;
    expect([l.scrollX, l.previewSize]).toEqual([2147483647, 2147483647]);
    expect(Math.max(...l.order)).toBe(32767);
    expect(Math.max(...l.trigger)).toBe(255);
  });

  it('values in range convert unchanged, without notes about clamping', async () => {
    const name = tiledWith('fine.tmj', { props: { scrollX: -5, previewSize: 128 }, cell: { order: -32768, trigger: 255 } });
    const r = await runCli(['convert', name, 'fine.bytes'], dir);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/clamp/);
    const l = readSpriteTile(new Uint8Array(fs.readFileSync(path.join(dir, 'fine.bytes')))).layers![0]!;
    expect([l.scrollX, l.previewSize, Math.min(...l.order), Math.max(...l.trigger)]).toEqual([-5, 128, -32768, 255]);
  });
});

describe('ByteWriter checks every integer against its field', () => {
  it('refuses instead of wrapping, naming the field when it has a name', () => {
    const w = new ByteWriter({ format: 'test' });
    expect(() => w.u16(70000)).toThrow(FormatError);
    expect(() => w.u8(-1)).toThrow(/does not fit the file's 8-bit field \(0 to 255\)/);
    expect(() => w.i32(2 ** 31)).toThrow(/32-bit field/);
    expect(() => w.u32(1.5)).toThrow(/not a whole number/);
    expect(() => w.i16(Number.NaN)).toThrow(/not a whole number/);
    expect(() => w.f32(1e40)).toThrow(/32-bit float field/);
    expect(() => w.int('u16', 70000, 'layer 2 order')).toThrow("layer 2 order 70000 does not fit the file's 16-bit field (0 to 65535)");
    expect(w.length).toBe(0);
    w.u8(255)
      .i8(-128)
      .u16(65535)
      .i16(-32768)
      .u32(0xffffffff)
      .i32(-(2 ** 31));
    expect(w.length).toBe(14);
  });

  it('clamps named fields with a note under a clamping policy; unnamed ones still refuse', () => {
    const notes: string[] = [];
    const w = new ByteWriter({ format: 'test', range: { clamp: true, note: (m) => notes.push(m) } });
    w.int('u16', 70000, 'frame 3 delay').int('i8', -200.4, 'x');
    expect(Array.from(w.finish())).toEqual([0xff, 0xff, 0x80]);
    expect(notes).toEqual([
      "frame 3 delay 70000 clamped to 65535 (the file's 16-bit field (0 to 65535))",
      "x -200.4 clamped to -128 (the file's 8-bit field (-128 to 127))",
    ]);
    expect(() => w.u16(70000)).toThrow(FormatError);
    expect(() => w.int('u8', Number.NaN, 'y')).toThrow(/y NaN is not a whole number/);
  });

  it('fitInt returns a value that fits as it is', () => {
    expect(fitInt('t', 'i16', -32768, 'v')).toBe(-32768);
    expect(() => fitInt('t', 'i16', 32768, 'v')).toThrow('v 32768 does not fit');
  });
});

describe('ISPRITE from the model: fixed-point fields', () => {
  it('a position outside the 24-bit fixed-point range is refused naming it, or clamped with a note', async () => {
    const { ispriteFromModel } = await import('../../src/formats/isprite/convert.js');
    const model = () => ({
      kind: 'sprite' as const,
      name: 's',
      sheets: [{ path: 'a' }],
      animations: [
        { name: 'far', loopTo: 0, frames: [{ durationMs: 100, parts: [{ sheet: 0, sx: 0, sy: 0, sw: 4, sh: 4, x: 40000, y: 0 }] }] },
      ],
      notes: [] as string[],
    });
    expect(() => ispriteFromModel(model())).toThrow(
      `animation "far" frame 0 part 0 x 40000 does not fit the file's fixed-point field (-32768 to 32767.99609375)`,
    );
    const m = model();
    const doc = ispriteFromModel(m, { clamp: true });
    expect(doc.frames[0]!.elements[0]).toMatchObject({ x: 32767.99609375 });
    expect(m.notes).toContain(`animation "far" frame 0 part 0 x 40000 clamped to 32767.99609375 (the file's fixed-point field)`);
  });
});
