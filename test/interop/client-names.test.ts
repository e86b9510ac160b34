/**
 * What PixiJS 8 and Phaser 3 look up in sprat's sheet exports:
 * Aseprite frame names by `--filename-format` (default "{frame}", the keys
 * Phaser's createFromAseprite reads), TexturePacker `anchor` beside `pivot`,
 * and an array layout whose frame names are the indices PixiJS gives them.
 * The clients themselves load these files in test/interop/clients.test.ts.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { asepriteHandler, formatFrameName, type AsepriteDoc } from '../../src/interop/aseprite/index.js';
import { texturePackerHandler, type TexturePackerDoc } from '../../src/interop/texturepacker/index.js';
import type { SpriteModel } from '../../src/model/types.js';
import { runCli } from '../helpers/cli.js';
import { SAMPLES } from '../helpers/paths.js';
import { patternImage } from './helpers.js';

function model(): SpriteModel {
  const img = patternImage(24, 8, 5);
  const part = (sx: number) => ({ sheet: 0, sx, sy: 0, sw: 6, sh: 8, x: -3, y: -8 });
  return {
    kind: 'sprite',
    name: 'knight',
    sheets: [{ path: 'knight', image: img }],
    animations: [
      {
        name: 'walk',
        frames: [0, 6, 12].map((sx, i) => ({ durationMs: 80, parts: [part(sx)], label: `w${i}` })),
        loopTo: 0,
      },
      { name: 'idle', frames: [{ durationMs: 200, parts: [part(18)], label: 'still' }], loopTo: 0 },
    ],
  };
}

const json = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes));

describe('Aseprite frame names (--filename-format)', () => {
  it('defaults to {frame}: the keys "0".."N" Phaser createFromAseprite looks up', async () => {
    const doc = (await asepriteHandler.fromModel!(model())) as AsepriteDoc;
    expect(doc.frames.map((f) => f.filename)).toEqual(['0', '1', '2', '3']);
    expect(doc.meta.frameTags.map((t) => [t.name, t.from, t.to])).toEqual([
      ['walk', 0, 2],
      ['idle', 3, 3],
    ]);
    expect(doc.frames.map((f) => f.duration)).toEqual([80, 80, 80, 200]);
  });

  it("names frames as Aseprite's placeholders do", async () => {
    const names = async (format: string) =>
      ((await asepriteHandler.fromModel!(model(), { 'filename-format': format })) as AsepriteDoc).frames.map((f) => f.filename);
    expect(await names('{title} {frame}.{extension}')).toEqual([
      'knight 0.aseprite',
      'knight 1.aseprite',
      'knight 2.aseprite',
      'knight 3.aseprite',
    ]);
    expect(await names('{tag}/{tagframe01}')).toEqual(['walk/01', 'walk/02', 'walk/03', 'idle/01']);
    expect(await names('{frame000}-{duration}')).toEqual(['000-80', '001-80', '002-80', '003-200']);
    expect(await names('{label}')).toEqual(['w0', 'w1', 'w2', 'still']);
    // Names that collide get " (2)", ... and a note.
    const m = model();
    expect(((await asepriteHandler.fromModel!(m, { 'filename-format': '{tag}' })) as AsepriteDoc).frames.map((f) => f.filename)).toEqual([
      'walk',
      'walk (2)',
      'walk (3)',
      'idle',
    ]);
    expect(m.notes?.join('\n')).toMatch(/--filename-format "\{tag\}" gives 2 frame\(s\) a name already taken/);
    expect(formatFrameName('{frame1}|{name}|{path}|{layer}', { title: 't', frame: 9, tag: '', tagFrame: 0, duration: 1, label: 'x' })).toBe(
      '10|t.aseprite|.|Layer 1',
    );
  });

  it('refuses an unknown placeholder or an empty format (exit 2)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-names-'));
    try {
      const src = path.join(SAMPLES, 'interop/hero.json');
      const r = await runCli(['convert', src, path.join(dir, 'a.json'), '--to', 'aseprite', '--filename-format', '{frame} {colour}']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^sprat: error: option --filename-format .*unknown placeholder \{colour\}/);
      const e = await runCli(['convert', src, path.join(dir, 'a.json'), '--to', 'aseprite', '--filename-format', '']);
      expect(e.code).toBe(2);
      expect(fs.readdirSync(dir)).toEqual([]);
      const ok = await runCli([
        'convert',
        src,
        path.join(dir, 'a.json'),
        '--to',
        'aseprite',
        '--filename-format',
        '{title} {frame}.{extension}',
      ]);
      expect(ok.code).toBe(0);
      expect(Object.keys(json(fs.readFileSync(path.join(dir, 'a.json'))).frames)[0]).toMatch(/^hero 0\.aseprite$/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('an Aseprite export re-keyed for Phaser (aseprite -> aseprite)', () => {
  it('takes --filename-format and --layout when given, else keeps the file as it was', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-names-'));
    try {
      const src = path.join(SAMPLES, 'interop/hero.json');
      const before = json(fs.readFileSync(src));
      const r = await runCli(['convert', src, path.join(dir, 'p.json'), '--filename-format', '{frame}']);
      expect(r.code).toBe(0);
      const after = json(fs.readFileSync(path.join(dir, 'p.json')));
      expect(Object.keys(after.frames)).toEqual(Object.keys(before.frames).map((_, i) => String(i)));
      expect(after.meta.frameTags).toEqual(before.meta.frameTags);
      expect(Object.values(after.frames)).toEqual(Object.values(before.frames));
      const same = await runCli(['convert', src, path.join(dir, 's.json')]);
      expect(same.code).toBe(0);
      expect(Object.keys(json(fs.readFileSync(path.join(dir, 's.json'))).frames)).toEqual(Object.keys(before.frames));
      const arr = await runCli(['convert', src, path.join(dir, 'a.json'), '--layout', 'array', '--filename-format', '{title}-{frame1}']);
      expect(arr.code).toBe(0);
      expect(json(fs.readFileSync(path.join(dir, 'a.json'))).frames.map((f: { filename: string }) => f.filename)).toEqual(
        Object.keys(before.frames).map((_, i) => `hero-${i + 1}`),
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('TexturePacker for PixiJS 8 and Phaser 3', () => {
  it('writes anchor (PixiJS) and pivot (TexturePacker) on every frame; reads anchor before pivot', async () => {
    const doc = (await texturePackerHandler.fromModel!(model())) as TexturePackerDoc;
    const files = await texturePackerHandler.writeFiles!(doc, 'k.json');
    const j = json(files[0]!.bytes);
    for (const f of Object.values(j.frames) as { anchor: unknown; pivot: unknown }[]) {
      expect(f.anchor).toEqual(f.pivot);
      expect(f.anchor).toEqual({ x: 0.5, y: 1 });
    }
    // A file with only `anchor` (as PixiJS users write them) gets its origin from it.
    const only = {
      ...j,
      frames: Object.fromEntries(Object.entries(j.frames).map(([k, f]) => [k, { ...(f as object), pivot: undefined }])),
    };
    const back = texturePackerHandler.read(new TextEncoder().encode(JSON.stringify(only))) as TexturePackerDoc;
    expect(back.frames[0]!.anchor).toEqual({ x: 0.5, y: 1 });
    expect(back.frames[0]!.pivot).toBeUndefined();
  });

  it('array layout: frame names are the indices PixiJS names them by, and animations list them', async () => {
    const doc = (await texturePackerHandler.fromModel!(model(), { layout: 'array' })) as TexturePackerDoc;
    const j = json((await texturePackerHandler.writeFiles!(doc, 'k.json'))[0]!.bytes);
    expect(j.frames.map((f: { filename: string }) => f.filename)).toEqual(['0', '1', '2', '3']);
    expect(j.animations).toEqual({ walk: ['0', '1', '2'], idle: ['3'] });
    // A PixiJS-style array file whose animations name frames by index reads too.
    const pixi = {
      frames: [
        { filename: 'a.png', frame: { x: 0, y: 0, w: 2, h: 2 } },
        { filename: 'b.png', frame: { x: 2, y: 0, w: 2, h: 2 } },
      ],
      animations: { run: ['1', 'a.png'] },
      meta: { image: 'x.png' },
    };
    const read = texturePackerHandler.read(new TextEncoder().encode(JSON.stringify(pixi))) as TexturePackerDoc;
    expect(read.animations).toEqual([['run', ['b.png', 'a.png']]]);
  });
});
