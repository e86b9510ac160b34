import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/binary/errors.js';
import { detectFormat } from '../../src/detect.js';
import { asepriteHandler, tagSequence, type AsepriteDoc } from '../../src/interop/aseprite/index.js';
import { renderModelAnimation, renderModelFrame } from '../../src/model/bake.js';
import type { SpriteModel } from '../../src/model/types.js';
import { createImage, cropImage } from '../../src/render/image.js';
import { decodePng, encodePng } from '../../src/render/png.js';
import { fixture, memoryLoader, patternImage, pixel } from './helpers.js';

const sheet = patternImage(63, 16, 1);
const loader = memoryLoader({ 'hero.png': encodePng(sheet) });

describe('aseprite: reading the JSON export', () => {
  it('reads the hash layout with frameTags and durations', async () => {
    const bytes = fixture('hero-aseprite-hash.json');
    expect(detectFormat(bytes, 'hero.json')?.name).toBe('aseprite');
    const doc = asepriteHandler.read(bytes) as AsepriteDoc;
    expect(doc.layout).toBe('hash');
    expect(doc.frames.map((f) => f.filename)).toEqual(['hero 0.aseprite', 'hero 1.aseprite', 'hero 2.aseprite', 'hero 3.aseprite']);
    expect(doc.frames.map((f) => f.duration)).toEqual([100, 150, 100, 250]);
    expect(doc.meta.frameTags.map((t) => [t.name, t.direction, t.repeat])).toEqual([
      ['walk', 'pingpong', undefined],
      ['back', 'reverse', undefined],
      ['idle', 'forward', 2],
    ]);
    expect(asepriteHandler.validate(bytes)).toEqual([]);
    const j = asepriteHandler.inspectJson(doc) as Record<string, any>;
    expect(j.format).toBe('aseprite');
    expect(j.meta.frameTags[2].repeat).toBe('2');
    expect(asepriteHandler.inspectText(doc)).toMatch(/4 frame\(s\)/);
  });

  it('plays tags in the direction they name', async () => {
    const model = (await asepriteHandler.toModel!(asepriteHandler.read(fixture('hero-aseprite-hash.json')), loader)) as SpriteModel;
    const labels = (i: number) => model.animations[i]!.frames.map((f) => f.label);
    expect(model.animations.map((a) => a.name)).toEqual(['walk', 'back', 'idle']);
    expect(labels(0)).toEqual(['hero 0.aseprite', 'hero 1.aseprite', 'hero 2.aseprite', 'hero 1.aseprite']);
    expect(labels(1)).toEqual(['hero 2.aseprite', 'hero 1.aseprite', 'hero 0.aseprite']);
    expect(labels(2)).toEqual(['hero 3.aseprite', 'hero 3.aseprite']);
    expect(model.animations[2]!.loopTo).toBeNull();
    expect(model.animations[0]!.loopTo).toBe(0);
    expect(model.animations[0]!.frames.map((f) => f.durationMs)).toEqual([100, 150, 100, 150]);
    expect(tagSequence({ name: 'x', from: 2, to: 5, direction: 'pingpong_reverse' })).toEqual([5, 4, 3, 2, 3, 4]);
    expect(tagSequence({ name: 'x', from: 2, to: 2, direction: 'pingpong' })).toEqual([2]);
  });

  it('places trimmed frames on the source canvas', async () => {
    const model = (await asepriteHandler.toModel!(asepriteHandler.read(fixture('hero-aseprite-hash.json')), loader)) as SpriteModel;
    const a = renderModelAnimation(model, 0);
    expect([a.frames[0]!.width, a.frames[0]!.height]).toEqual([16, 16]);
    // Frame 2 is trimmed: 12x14 at (2, 1) of the 16x16 canvas.
    const f2 = a.frames[2]!;
    expect(pixel(f2, 0, 0)[3]).toBe(0);
    expect(pixel(f2, 2, 1)).toEqual(pixel(sheet, 34, 0));
    expect(pixel(f2, 13, 14)).toEqual(pixel(sheet, 45, 13));
  });

  it('reads the array layout and the origin slice pivot', async () => {
    const doc = asepriteHandler.read(fixture('hero-aseprite-array.json')) as AsepriteDoc;
    expect(doc.layout).toBe('array');
    const model = (await asepriteHandler.toModel!(doc, loader)) as SpriteModel;
    expect(model.animations[0]!.frames.map((f) => f.label)).toEqual([
      'hero 2.aseprite',
      'hero 1.aseprite',
      'hero 0.aseprite',
      'hero 1.aseprite',
    ]);
    const f = renderModelFrame(model, 0, 2);
    expect([f.originX, f.originY]).toEqual([8, 15]);
  });

  it('names the missing sheet', async () => {
    const doc = asepriteHandler.read(fixture('hero-aseprite-hash.json'));
    await expect(asepriteHandler.toModel!(doc, memoryLoader({}))).rejects.toThrow(/the sheet "hero.png" not found \(looked for hero.png\)/);
  });
});

describe('aseprite: structural errors name the JSON path', () => {
  const bad = (text: string) => () => asepriteHandler.read(new TextEncoder().encode(text));
  it('errors', () => {
    expect(bad('{"frames": {"a": {"frame": {"x": 0, "y": 0, "w": "3", "h": 1}}}, "meta": {}}')).toThrow(
      /\$\.frames\.a\.frame\.w: expected a number/,
    );
    expect(bad('{"frames": [], "meta": {"frameTags": [{"name": "x", "from": 0, "to": 0}]}}')).toThrow(/frameTags\[0\]/);
    expect(
      bad(
        '{"frames": [{"frame": {"x":0,"y":0,"w":1,"h":1}}], "meta": {"frameTags": [{"name": "x", "from": 0, "to": 0, "direction": "sideways"}]}}',
      ),
    ).toThrow(/\$\.meta\.frameTags\[0\]\.direction: unknown direction "sideways"/);
    expect(bad('{"frames": [{"frame": {"x":0,"y":0,"w":1,"h":1}}], "meta": {"frameTags": [{"name": "x", "from": 0, "to": 4}]}}')).toThrow(
      /to: must be at most 0/,
    );
    try {
      bad('{\n  "frames": {,\n}')();
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(FormatError);
      expect((e as FormatError).line).toBe(2);
      expect((e as FormatError).column).toBe(14);
    }
  });
});

function sampleModel(): SpriteModel {
  const img = patternImage(20, 10, 3);
  return {
    kind: 'sprite',
    name: 'knight',
    sheets: [{ path: 'knight', image: img }],
    animations: [
      {
        name: 'walk',
        frames: [
          { durationMs: 80, parts: [{ sheet: 0, sx: 0, sy: 0, sw: 6, sh: 8, x: -3, y: -8 }] },
          { durationMs: 120, parts: [{ sheet: 0, sx: 6, sy: 0, sw: 6, sh: 8, x: -3, y: -7 }] },
          { durationMs: 80, parts: [{ sheet: 0, sx: 0, sy: 0, sw: 6, sh: 8, x: -3, y: -8 }] },
        ],
        loopTo: 0,
      },
      {
        name: 'hit',
        direction: 'east',
        frames: [
          {
            durationMs: 50,
            parts: [
              { sheet: 0, sx: 12, sy: 0, sw: 8, sh: 4, x: -4, y: -4, flipX: true, originX: 4 },
              { sheet: 0, sx: 12, sy: 4, sw: 4, sh: 4, x: 2, y: -6, rotation: 90, opacity: 0.5 },
            ],
          },
        ],
        loopTo: null,
      },
    ],
  };
}

describe('aseprite: writing', () => {
  it('round-trips a model through JSON + PNG, frame by frame', async () => {
    const model = sampleModel();
    const expected = model.animations.map((_, i) => renderModelAnimation(model, i));
    const doc = await asepriteHandler.fromModel!(model);
    expect(model.notes?.join('\n')).toMatch(/baked/);
    const files = await asepriteHandler.writeFiles!(doc, 'out/knight.json');
    expect(files.map((f) => f.name)).toEqual(['out/knight.json', 'knight.png']);
    const json = JSON.parse(new TextDecoder().decode(files[0]!.bytes));
    expect(json.meta.image).toBe('knight.png');
    expect(json.meta.frameTags).toEqual([
      { name: 'walk', from: 0, to: 2, direction: 'forward', color: '#000000ff' },
      { name: 'hit/east', from: 3, to: 3, direction: 'forward', color: '#000000ff', repeat: '1' },
    ]);
    // Identical frames share one rectangle of the sheet.
    expect(json.frames['0'].frame).toEqual(json.frames['2'].frame);
    const png = decodePng(files[1]!.bytes);
    expect(json.meta.size).toEqual({ w: png.width, h: png.height });
    const back = (await asepriteHandler.toModel!(
      asepriteHandler.read(files[0]!.bytes),
      memoryLoader({ 'knight.png': files[1]!.bytes }),
    )) as SpriteModel;
    // The tag "hit/east" is animation "hit", direction "east" again (meta.sprat).
    expect(back.animations.map((a) => [a.name, a.direction, a.loopTo, a.frames.map((f) => f.durationMs)])).toEqual([
      ['walk', undefined, 0, [80, 120, 80]],
      ['hit', 'east', null, [50]],
    ]);
    back.animations.forEach((_, i) => {
      const got = renderModelAnimation(back, i);
      expect([got.originX, got.originY]).toEqual([expected[i]!.originX, expected[i]!.originY]);
      got.frames.forEach((f, k) => expect(f).toEqual(expected[i]!.frames[k]));
    });
  });

  it('gives back the same tags and frames for an Aseprite file (ping-pong, reverse, repeat)', async () => {
    const src = asepriteHandler.read(fixture('hero-aseprite-hash.json')) as AsepriteDoc;
    const model = (await asepriteHandler.toModel!(src, loader)) as SpriteModel;
    const out = (await asepriteHandler.fromModel!(model, { 'filename-format': '{label}' })) as AsepriteDoc;
    expect(out.meta.frameTags.map(({ color: _c, ...t }) => t)).toEqual(src.meta.frameTags.map(({ color: _c, ...t }) => t));
    expect(out.frames.map((f) => [f.filename, f.duration, f.spriteSourceSize, f.sourceSize])).toEqual(
      src.frames.map((f) => [f.filename, f.duration, f.spriteSourceSize, f.sourceSize]),
    );
    // A tag over frames already written in reverse order reuses them.
    const m2 = (await asepriteHandler.toModel!(asepriteHandler.read(fixture('hero-aseprite-array.json')), loader)) as SpriteModel;
    const src2 = asepriteHandler.read(fixture('hero-aseprite-array.json')) as AsepriteDoc;
    const out2 = (await asepriteHandler.fromModel!(m2, { 'filename-format': '{label}' })) as AsepriteDoc;
    // The fourth frame is in no tag: kept, in no tag (no frame dropped).
    expect(out2.frames.map((f) => f.filename).sort()).toEqual(src2.frames.map((f) => f.filename).sort());
    expect(out2.frames[3]!.filename).toBe('hero 3.aseprite');
    // The tag's own direction (pingpong_reverse: 2 1 0 1), read into the model's playback mode, is written back as it was.
    expect(out2.meta.frameTags).toEqual([{ name: 'walk', from: 0, to: 2, direction: 'pingpong_reverse', color: '#000000ff' }]);
  });

  it('writes the array layout on request and sheets identical for identical models', async () => {
    const a = await asepriteHandler.writeFiles!(await asepriteHandler.fromModel!(sampleModel(), { layout: 'array' }), 'a.json');
    const b = await asepriteHandler.writeFiles!(await asepriteHandler.fromModel!(sampleModel(), { layout: 'array' }), 'a.json');
    // (the JSON file is made in chunks: its bytes compared, not its chunk function)
    const files = (list: typeof a) => list.map((f) => ({ name: f.name, bytes: f.bytes }));
    expect(files(a)).toEqual(files(b));
    const json = JSON.parse(new TextDecoder().decode(a[0]!.bytes));
    expect(Array.isArray(json.frames)).toBe(true);
    expect(json.frames[0].filename).toBe('0');
    expect((asepriteHandler.read(a[0]!.bytes) as AsepriteDoc).layout).toBe('array');
  });

  it('clamps frames shown forever and refuses levels and unloaded sheets', async () => {
    const m = sampleModel();
    m.animations[0]!.frames[0]!.durationMs = Infinity;
    const doc = (await asepriteHandler.fromModel!(m)) as AsepriteDoc;
    expect(doc.frames[0]!.duration).toBe(65535);
    expect(m.notes?.some((n) => /65535/.test(n))).toBe(true);
    await expect(async () => asepriteHandler.fromModel!({ kind: 'level', layers: [], tilesets: [] })).rejects.toThrow(FormatError);
    const noPixels = sampleModel();
    delete noPixels.sheets[0]!.image;
    await expect(async () => asepriteHandler.fromModel!(noPixels)).rejects.toThrow(/were not loaded/);
  });

  it('writes an empty frame as one transparent pixel', async () => {
    const m: SpriteModel = {
      kind: 'sprite',
      name: 'e',
      sheets: [],
      animations: [{ name: 'x', frames: [{ durationMs: 10, parts: [] }], loopTo: 0 }],
    };
    const files = await asepriteHandler.writeFiles!(await asepriteHandler.fromModel!(m), 'e.json');
    expect(decodePng(files[1]!.bytes)).toEqual(createImage(1, 1));
    void cropImage;
  });
});
