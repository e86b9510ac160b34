import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../src/detect.js';
import { texturePackerHandler, type TexturePackerDoc } from '../../src/interop/texturepacker/index.js';
import { renderModelAnimation, renderModelFrame } from '../../src/model/bake.js';
import type { SpriteModel } from '../../src/model/types.js';
import { createImage, type RgbaImage } from '../../src/render/image.js';
import { decodePng, encodePng } from '../../src/render/png.js';
import { fixture, memoryLoader, patternImage, pixel } from './helpers.js';

/** The coins sheet: coin_02 (10x12 upright) is stored turned 90° clockwise at (12, 1) as 12x10. */
const coin1 = patternImage(10, 12, 10);
const coin2 = patternImage(10, 12, 20);
const coin3 = patternImage(16, 16, 30);
function blit(dst: RgbaImage, src: RgbaImage, x0: number, y0: number) {
  for (let y = 0; y < src.height; y++)
    for (let x = 0; x < src.width; x++)
      dst.data.set(src.data.subarray((y * src.width + x) * 4, (y * src.width + x) * 4 + 4), ((y0 + y) * dst.width + x0 + x) * 4);
}
const sheet = createImage(42, 18);
blit(sheet, coin1, 1, 1);
for (let y = 0; y < 12; y++)
  for (let x = 0; x < 10; x++) {
    // upright (x, y) → stored (H - 1 - y, x) with H = 12
    const s = (y * 10 + x) * 4;
    sheet.data.set(coin2.data.subarray(s, s + 4), ((1 + x) * 42 + 12 + (11 - y)) * 4);
  }
blit(sheet, coin3, 25, 1);
const loader = memoryLoader({ 'coins.png': encodePng(sheet) });

describe('texturepacker: reading a PixiJS spritesheet', () => {
  it('reads frames, pivots, animations and meta', () => {
    const bytes = fixture('coins-pixi.json');
    expect(detectFormat(bytes, 'coins.json')?.name).toBe('texturepacker');
    const doc = texturePackerHandler.read(bytes) as TexturePackerDoc;
    expect(doc.frames.map((f) => [f.filename, f.rotated, f.trimmed])).toEqual([
      ['coin_01.png', false, true],
      ['coin_02.png', true, true],
      ['coin_03.png', false, false],
    ]);
    expect(doc.animations).toEqual([
      ['coin', ['coin_01.png', 'coin_02.png', 'coin_03.png']],
      ['flash', ['coin_03.png']],
    ]);
    expect(doc.meta.image).toBe('coins.png');
    expect(doc.meta.scale).toBe('1');
    expect(texturePackerHandler.validate(bytes)).toEqual([]);
    expect(texturePackerHandler.inspectText(doc)).toMatch(/1 rotated, 2 trimmed/);
  });

  it('turns rotated frames upright and puts the origin at the pivot', async () => {
    const model = (await texturePackerHandler.toModel!(texturePackerHandler.read(fixture('coins-pixi.json')), loader)) as SpriteModel;
    expect(model.animations.map((a) => a.name)).toEqual(['coin', 'flash']);
    expect(model.notes?.[0]).toMatch(/100 ms assumed/);
    const f1 = renderModelFrame(model, 0, 1);
    expect([f1.image.width, f1.image.height]).toEqual([10, 12]);
    expect(f1.image.data).toEqual(coin2.data);
    // Trim offset (3, 2) minus the pivot (8, 8).
    expect([f1.originX, f1.originY]).toEqual([5, 6]);
    const a = renderModelAnimation(model, 0);
    expect([a.frames[0]!.width, a.frames[0]!.height]).toEqual([16, 16]);
    expect(pixel(a.frames[1]!, 3, 2)).toEqual(pixel(coin2, 0, 0));
    expect(pixel(a.frames[1]!, 12, 13)).toEqual(pixel(coin2, 9, 11));
    expect(a.frames[2]!.data).toEqual(coin3.data);
  });

  it('names the JSON path of bad values and unknown animation frames', () => {
    const bad = (t: string) => () => texturePackerHandler.read(new TextEncoder().encode(t));
    expect(bad('{"frames": {"a": {"frame": {"x":0,"y":0,"w":1,"h":1}}}, "animations": {"run": ["a", "b"]}, "meta": {}}')).toThrow(
      /\$\.animations\.run\[1\]: names no frame "b"/,
    );
    expect(bad('{"frames": {"a b": {"frame": {"x":0,"y":0,"w":1,"h":1}, "pivot": {"x": "0"}}}, "meta": {}}')).toThrow(
      /\$\.frames\["a b"\]\.pivot\.x: expected a number, found a string/,
    );
    expect(bad('{"textures": [], "meta": {}}')).toThrow(/\$\.textures: a multiatlas without textures/);
  });
});

describe('texturepacker: writing', () => {
  it('round-trips through JSON hash + PNG with the pivot as origin', async () => {
    const img = patternImage(12, 12, 4);
    const model: SpriteModel = {
      kind: 'sprite',
      name: 'gem',
      sheets: [{ path: 'gem', image: img }],
      animations: [
        {
          name: 'spin',
          frames: [
            { durationMs: 40, parts: [{ sheet: 0, sx: 0, sy: 0, sw: 5, sh: 7, x: -2, y: -7 }] },
            { durationMs: 60, parts: [{ sheet: 0, sx: 5, sy: 0, sw: 7, sh: 5, x: -3, y: -5, rotatedInSheet: true }] },
          ],
          loopTo: 0,
        },
      ],
    };
    const expected = renderModelAnimation(model, 0);
    const doc = await texturePackerHandler.fromModel!(model);
    const files = await texturePackerHandler.writeFiles!(doc, 'gem.json');
    expect(files.map((f) => f.name)).toEqual(['gem.json', 'gem.png']);
    const json = JSON.parse(new TextDecoder().decode(files[0]!.bytes));
    expect(Object.keys(json)).toEqual(['frames', 'animations', 'meta']);
    expect(json.animations).toEqual({ spin: ['spin/0000', 'spin/0001'] });
    expect(Object.keys(json.frames['spin/0000'])).toEqual([
      'frame',
      'rotated',
      'trimmed',
      'spriteSourceSize',
      'sourceSize',
      'pivot',
      'anchor',
      'duration',
    ]);
    expect(detectFormat(files[0]!.bytes, 'gem.json')?.name).toBe('texturepacker');
    const back = (await texturePackerHandler.toModel!(
      texturePackerHandler.read(files[0]!.bytes),
      memoryLoader({ 'gem.png': files[1]!.bytes }),
    )) as SpriteModel;
    expect(back.notes).toBeUndefined();
    expect(back.animations[0]!.frames.map((f) => f.durationMs)).toEqual([40, 60]);
    const got = renderModelAnimation(back, 0);
    expect([got.originX, got.originY]).toEqual([expected.originX, expected.originY]);
    got.frames.forEach((f, k) => expect(f).toEqual(expected.frames[k]));
    expect(decodePng(files[1]!.bytes).width).toBeGreaterThan(0);
  });
});
