/**
 * `sprat new` ("Sprites from frames"): a sprite in every sprite
 * format from a folder of frames or a sheet, then read, validated, drawn.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OptionError } from '../../src/binary/errors.js';
import { load, newSprite, preview, validate } from '../../src/api.js';
import { getFormat } from '../../src/registry.js';
import { animationsFor, gridCells, gutterCells, parseAnimations, spriteFromFrames } from '../../src/model/frames.js';
import { bakeFrame } from '../../src/model/bake.js';
import { opaqueBounds } from '../../src/render/compose.js';
import { cropImage, createImage, type RgbaImage } from '../../src/render/image.js';
import { decodePng, encodePng } from '../../src/render/png.js';
import { fsResourceLoader } from '../../src/node/fs.js';
import { runCli } from '../helpers/cli.js';
import { SAMPLES } from '../helpers/paths.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'sprat-new-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// The Solarus sample's sheet: 8 x 3 cells of 16x16 (a slime walking in four directions, hurt).
const SHEET = path.join(SAMPLES, 'solarus/sprites/enemies/slime.png');
const sheet = decodePng(new Uint8Array(readFileSync(SHEET)));
const cells = gridCells(sheet.width, sheet.height, { width: 16, height: 16 });
const cellImage = (i: number) => cropImage(sheet, cells[i]!.x, cells[i]!.y, 16, 16);

// A folder of frames named so that name order is not character order (f2 before f10): cells 0-7 and 16-17, then cell 0 again.
const FRAMES = path.join(tmp, 'frames');
mkdirSync(FRAMES);
const FOLDER_CELLS = [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 0];
FOLDER_CELLS.forEach((c, k) => writeFileSync(path.join(FRAMES, `f${k + 1}.png`), encodePng(cellImage(c))));
writeFileSync(path.join(FRAMES, 'notes.txt'), 'not a frame');

/** The visible pixels of an image, with where they start. */
function visible(img: RgbaImage, originX: number, originY: number) {
  const b = opaqueBounds(img);
  if (!b) return { x: 0, y: 0, w: 0, h: 0, data: [] as number[] };
  return { x: b.x - originX, y: b.y - originY, w: b.width, h: b.height, data: [...cropImage(img, b.x, b.y, b.width, b.height).data] };
}

/** Reads OUT back through its format's reader and the common model: frame `j` of model animation `a`, drawn. */
async function frameOf(out: string, a: number, j: number, options: Record<string, string> = {}) {
  const loaded = load(new Uint8Array(readFileSync(out)), out, undefined, options);
  const model = await loaded.handler.toModel!(loaded.doc, fsResourceLoader(path.dirname(out)), options);
  if (model.kind !== 'sprite') throw new Error('not a sprite');
  const b = bakeFrame(model, model.animations[a]!.frames[j]!);
  return visible(b.image, b.originX, b.originY);
}

describe('the animation description (--animation)', () => {
  it('reads names, directions, ranges up and down, durations carried forward, loop flags', () => {
    expect(parseAnimations('walk:0-3@100;idle/north:5+4-3@250+9,once ; hit:2@80,loop=0;spin:1-2,loop=1')).toEqual([
      { name: 'walk', loopTo: 0, frames: [0, 1, 2, 3].map((frame) => ({ frame, durationMs: 100 })) },
      {
        name: 'idle',
        direction: 'north',
        loopTo: null,
        frames: [
          { frame: 5, durationMs: 250 },
          { frame: 4, durationMs: 250 },
          { frame: 3, durationMs: 250 },
          { frame: 9, durationMs: 250 },
        ],
      },
      { name: 'hit', loopTo: 0, frames: [{ frame: 2, durationMs: 80 }] },
      { name: 'spin', loopTo: 1, frames: [1, 2].map((frame) => ({ frame, durationMs: 100 })) },
    ]);
  });

  it('an item without a duration takes the next one given, else the last one before it, else 100 ms', () => {
    const ms = (text: string) => parseAnimations(text)[0]!.frames.map((f) => f.durationMs);
    expect(ms('a:0-1+2@150')).toEqual([150, 150, 150]);
    expect(ms('a:0@500+1')).toEqual([500, 500]);
    expect(ms('a:0+1@50+2+3@70+4')).toEqual([50, 50, 70, 70, 70]);
    expect(ms('a:0-2')).toEqual([100, 100, 100]);
  });

  it('refuses what it cannot read, naming it (OptionError: exit 2)', () => {
    for (const [text, message] of [
      ['', /no animation given/],
      ['walk', /"walk" has no ":"/],
      [':0-3', /no animation name/],
      ['walk:', /has no frames/],
      ['walk:a-b', /"a-b" in animation "walk" is not FRAME/],
      ['walk:0@0', /at least 1 ms/],
      ['walk:0-1,loop=2', /loop=2 in animation "walk": it has 2 frames/],
      ['walk:0,bounce', /unknown flag "bounce"/],
      ['walk:0;walk:1', /"walk" is given twice/],
      ['walk:0-99999999', /too many frames/],
    ] as const) {
      expect(() => parseAnimations(text), text).toThrow(OptionError);
      expect(() => parseAnimations(text), text).toThrow(message);
    }
    expect(() => animationsFor('walk:0-4', 4)).toThrow(/uses frame 4, but there are 4 frames \(0 to 3\)/);
    expect(() => animationsFor('walk/rows:0-4', 5)).toThrow(/need a sheet/);
  });

  it('without a description: one looping animation of every frame; NAME/rows: one direction per sheet row', () => {
    expect(animationsFor(undefined, 2)).toEqual([
      { name: 'default', loopTo: 0, frames: [0, 1].map((frame) => ({ frame, durationMs: 100 })) },
    ]);
    const rows = animationsFor('walk/rows:0-1+8-9+16@60,loop=1', 24, (i) => cells[i]!.row);
    expect(rows.map((a) => [a.direction, a.frames.map((f) => f.frame), a.loopTo])).toEqual([
      ['0', [0, 1], 1],
      ['1', [8, 9], 1],
      ['2', [16], 0],
    ]);
  });
});

describe('cells and frames', () => {
  it('a grid with margin and spacing; gutters found automatically', () => {
    expect(gridCells(20, 12, { width: 4, height: 4 }, 1, 2)).toEqual([
      { x: 1, y: 1, width: 4, height: 4, row: 0 },
      { x: 7, y: 1, width: 4, height: 4, row: 0 },
      { x: 13, y: 1, width: 4, height: 4, row: 0 },
      { x: 1, y: 7, width: 4, height: 4, row: 1 },
      { x: 7, y: 7, width: 4, height: 4, row: 1 },
      { x: 13, y: 7, width: 4, height: 4, row: 1 },
    ]);
    expect(() => gridCells(3, 3, { width: 4, height: 4 })).toThrow(/no whole cell fits the 3x3 sheet/);
    const img = createImage(10, 6);
    const dot = (x: number, y: number) => img.data.set([255, 0, 0, 255], (y * 10 + x) * 4);
    [
      [0, 0],
      [1, 1],
      [4, 0],
      [8, 1],
      [2, 4],
      [2, 5],
    ].forEach(([x, y]) => dot(x!, y!));
    expect(gutterCells(img)).toEqual([
      { x: 0, y: 0, width: 2, height: 2, row: 0 },
      { x: 4, y: 0, width: 1, height: 2, row: 0 },
      { x: 8, y: 0, width: 1, height: 2, row: 0 },
      { x: 2, y: 4, width: 1, height: 2, row: 1 },
    ]);
    expect(() => gutterCells(createImage(3, 3))).toThrow(/no visible pixel/);
  });

  it('identical frames are stored once, trimmed, each placed around the origin', () => {
    const frames = [0, 1, 0, 1, 16].map(cellImage);
    const model = spriteFromFrames(frames, animationsFor(undefined, frames.length), {
      name: 's',
      sheetPath: 's.png',
      origin: { x: 8, y: 13 },
    });
    const parts = model.animations[0]!.frames.map((f) => f.parts[0]!);
    expect(parts[2]).toEqual(parts[0]);
    expect(parts[3]).toEqual(parts[1]);
    expect(new Set(parts.map((p) => `${p.sx},${p.sy}`)).size).toBe(3);
    frames.forEach((f, k) => {
      const b = bakeFrame(model, model.animations[0]!.frames[k]!);
      expect(visible(b.image, b.originX, b.originY), `frame ${k}`).toEqual(visible(f, 8, 13));
    });
    // Trimmed: no part is the whole 16x16 cell (the slime does not fill it).
    expect(parts.every((p) => p.sw < 16 || p.sh < 16)).toBe(true);
  });
});

// Each format, with an animation description it can hold, and the options reading it back needs.
const CASES = [
  { to: 'isprite', out: 'a.isprite', anim: 'walk:0-3@100;hurt:8-9@60,once', read: {} },
  { to: 'solarus', out: 'b.dat', anim: 'walk/0:0-3@100;walk/1:4-7@100;hurt:8-9@60,once', read: {} },
  { to: 'solarus-lua', out: 'c.dat', anim: 'walk/0:0-3@100;walk/1:4-7@100;hurt:8-9@60,once', read: {} },
  { to: 'hallgeir-sprite', out: 'd.spr', anim: 'walk:0-3@100;hurt:8-9@60,once', read: { 'frame-size': '16x16' } },
  { to: 'cthg', out: 'e.dat', anim: 'walk/north:0-3@90;walk/east:4-7@90;hurt:8-9@90,once', read: {} },
  { to: 'aseprite', out: 'f.json', anim: 'walk:0-3@100;hurt:8-9@60,once', read: {} },
  { to: 'texturepacker', out: 'g.json', anim: 'walk:0-3@100;hurt:8-9@60,once', read: {} },
] as const;

describe('sprat new, into every sprite format', () => {
  for (const c of CASES) {
    it(`${c.to}: from a folder of frames; reads back, validates, renders, every frame's pixels in place`, async () => {
      const dir = path.join(tmp, c.to);
      mkdirSync(dir);
      const out = path.join(dir, c.out);
      const r = await runCli(['new', FRAMES, out, '--to', c.to, '--animation', c.anim, '--origin', '8,13']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^wrote ${out.replace(/[.\\]/g, '\\$&')}\n`));
      expect(r.stderr).toMatch(/note: (frame 10 is|frames 4-7, 10 are) in no animation: left out\n/);
      const v = validate(new Uint8Array(readFileSync(out)), out, undefined, c.read);
      expect(v.format).toBe(c.to);
      expect(v.valid, JSON.stringify(v.diagnostics)).toBe(true);
      // The frames back, through the format's own reader: each as the input file drew it (Hallgeir: no origin, so at 0,0).
      const origin = c.to === 'hallgeir-sprite' ? [0, 0] : [8, 13];
      const used = [0, 1, 2, 3];
      for (const [j, f] of used.entries()) {
        const src = visible(cellImage(FOLDER_CELLS[f]!), origin[0]!, origin[1]!);
        expect(await frameOf(out, 0, j, c.read), `${c.to} walk frame ${j}`).toEqual(src);
      }
      const render = await runCli([
        'render',
        out,
        '-o',
        path.join(dir, 'walk.gif'),
        ...Object.entries(c.read).flatMap(([k, v]) => [`--${k}`, v]),
        ...(c.to === 'hallgeir-sprite' || c.to === 'isprite' || c.to === 'aseprite' || c.to === 'texturepacker'
          ? ['--animation', 'walk']
          : []),
      ]);
      expect(render.code, render.stderr).toBe(0);
      expect(existsSync(path.join(dir, 'walk.gif'))).toBe(true);
      // The viewer plays it: its preview (web/preview.ts is api.preview) offers the walk animation with its 4 frames and delays.
      const loaded = load(new Uint8Array(readFileSync(out)), out, undefined, c.read);
      const shown = await preview(loaded, fsResourceLoader(dir), c.read);
      const walk = shown.animations.find((a) => /walk/.test(a.label));
      expect(walk, `${c.to}: ${shown.animations.map((a) => a.label).join(', ')} ${shown.note ?? ''}`).toBeDefined();
      expect(walk!.frames.length).toBeGreaterThanOrEqual(4);
      expect(walk!.delaysMs.length).toBe(walk!.frames.length);
      expect(walk!.next(0)).toBe(1);
    });
  }

  it('the frames are stored once: the ISPRITE sprite has 10 slices for 11 frame files (the last repeats the first)', async () => {
    const out = path.join(tmp, 'once.isprite');
    expect((await runCli(['new', FRAMES, out, '--anim', 'all:0-10'])).code).toBe(0);
    const doc = load(new Uint8Array(readFileSync(out)), out).doc as { slices: unknown[] };
    expect(doc.slices.length).toBe(10);
    expect(new Set((doc.slices as { x: number; y: number }[]).map((s) => `${s.x},${s.y}`)).size).toBe(10);
  });

  it('--anim, the old spelling of --animation, is an alias: the same file; --help names it', async () => {
    mkdirSync(path.join(tmp, 'alias-a'));
    mkdirSync(path.join(tmp, 'alias-b'));
    const a = path.join(tmp, 'alias-a', 'hero.isprite');
    const b = path.join(tmp, 'alias-b', 'hero.isprite');
    expect((await runCli(['new', FRAMES, a, '--animation', 'walk:0-3@100'])).code).toBe(0);
    expect((await runCli(['new', FRAMES, b, '--anim', 'walk:0-3@100'])).code).toBe(0);
    expect(readFileSync(b)).toEqual(readFileSync(a));
    const bad = await runCli(['new', FRAMES, path.join(tmp, 'alias-c.isprite'), '--anim', 'walk']);
    expect([bad.code, bad.stderr.split('\n').length]).toEqual([2, 2]);
    expect((await runCli(['new', '--help'])).stdout).toMatch(/\n {2}--animation SPEC +the animations, [^\n]*\(also --anim\)\n/);
  });

  it('from a sheet: --cell with one Solarus direction per row (NAME/rows), and from its transparent gutters', async () => {
    const out = path.join(tmp, 'rows.dat');
    const r = await runCli([
      'new',
      SHEET,
      out,
      '--to',
      'solarus-lua',
      '--cell',
      '16x16',
      '--anim',
      'walking/rows:0-1+8-9+16-17@150',
      '--origin',
      '8,13',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const loaded = load(new Uint8Array(readFileSync(out)), out);
    const sheetDoc = loaded.doc as { animations: { name: string; frameDelay: number; directions: unknown[] }[] };
    expect(sheetDoc.animations.map((a) => [a.name, a.frameDelay, a.directions.length])).toEqual([['walking', 150, 3]]);
    expect(await frameOf(out, 2, 1)).toEqual(visible(cellImage(17), 8, 13));
    const auto = path.join(tmp, 'auto.json');
    const g = await runCli(['new', SHEET, auto, '--to', 'aseprite']);
    expect(g.code, g.stderr).toBe(0);
    expect(validate(new Uint8Array(readFileSync(auto)), auto).valid).toBe(true);
  });

  it('sheet formats: each frame keeps its cell as the canvas (sourceSize), trimmed inside it, the origin as the pivot', async () => {
    const out = path.join(tmp, 'cells-tp.json');
    const r = await runCli(['new', SHEET, out, '--to', 'texturepacker', '--cell', '16x16', '--anim', 'walk:0-3', '--origin', '8,13']);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(readFileSync(out, 'utf8'));
    const frames = Object.values(doc.frames) as {
      trimmed: boolean;
      spriteSourceSize: Record<string, number>;
      sourceSize: object;
      pivot: object;
    }[];
    frames.forEach((f, k) => {
      expect(f.sourceSize).toEqual({ w: 16, h: 16 });
      expect(f.pivot).toEqual({ x: 8 / 16, y: 13 / 16 });
      const b = opaqueBounds(cellImage(k))!;
      expect(f.spriteSourceSize).toEqual({ x: b.x, y: b.y, w: b.width, h: b.height });
      expect(f.trimmed).toBe(true);
    });
  });

  it('the library: newSprite gives the files to write (the sheet beside a Hallgeir sprite, which names it)', async () => {
    const frames = [0, 1].map(cellImage);
    const { files, notes } = await newSprite({ frames, animations: 'a:0-1' }, getFormat('hallgeir-sprite')!, 'slime.spr');
    expect(files.map((f) => f.name)).toEqual(['slime.spr', 'slime.png']);
    expect(notes).toContain('hallgeir-sprite: the frame size is not stored; read the sprite with --frame-size 16x16');
    const cthg = await newSprite({ frames, animations: 'a:0-1' }, getFormat('cthg')!, 'slime.dat');
    expect(cthg.files.map((f) => f.name)).toEqual(['slime.dat']);
  });

  it('mistakes: exit 2 for the command line, 1 for the input, nothing written', async () => {
    const out = path.join(tmp, 'bad', 'x.isprite');
    mkdirSync(path.dirname(out));
    const usage = [
      ['new', FRAMES, out, '--anim', 'walk:0-99'],
      ['new', FRAMES, out, '--anim', 'walk'],
      ['new', FRAMES, out, '--origin', 'middle'],
      ['new', FRAMES, path.join(tmp, 'bad', 'x.dat')],
      ['new', FRAMES, out, '--margin', '2'],
      ['new', FRAMES, out, '--cell', '16x16'],
      ['new', FRAMES, out, '--style', 'editor'],
      ['new', FRAMES],
    ];
    for (const argv of usage) {
      const r = await runCli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr, argv.join(' ')).toMatch(/^sprat: error: [^\n]*\n$/);
    }
    const empty = path.join(tmp, 'empty');
    mkdirSync(empty);
    for (const argv of [
      ['new', empty, out],
      ['new', path.join(tmp, 'missing'), out],
      ['new', SHEET, out, '--cell', '200x16'],
      ['new', path.join(FRAMES, 'notes.txt'), out],
    ]) {
      const r = await runCli(argv);
      expect(r.code, argv.join(' ')).toBe(argv.includes('--cell') ? 2 : 1);
      expect(r.stderr, argv.join(' ')).toMatch(/^sprat: error: [^\n]*\n$/);
    }
    expect(existsSync(out)).toBe(false);
    // A sheet beside OUT that exists is not replaced without --overwrite.
    writeFileSync(path.join(tmp, 'bad', 'x.png'), 'mine');
    const clash = await runCli(['new', FRAMES, out]);
    expect(clash.code).toBe(1);
    expect(readFileSync(path.join(tmp, 'bad', 'x.png'), 'utf8')).toBe('mine');
    expect(existsSync(out)).toBe(false);
  });

  it('budgets: cells are counted before they are made (--max-items), frames within --max-pixels: one error line, exit 1', async () => {
    const out = path.join(tmp, 'budget.isprite');
    const cellsRun = await runCli(['new', SHEET, out, '--cell', '1x1', '--max-items', '1000']);
    expect(cellsRun.code).toBe(1);
    expect(cellsRun.stderr).toMatch(/^sprat: error: [^\n]*--max-items[^\n]*\n$/);
    const pixels = await runCli(['new', FRAMES, out, '--max-pixels', '1000']);
    expect(pixels.code).toBe(1);
    expect(pixels.stderr).toMatch(/^sprat: error: [^\n]*--max-pixels[^\n]*\n$/);
    expect(existsSync(out)).toBe(false);
  });
});
