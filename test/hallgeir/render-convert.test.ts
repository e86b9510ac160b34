import { describe, expect, it } from 'vitest';
import { FormatError, OptionError } from '../../src/binary/errors.js';
import {
  readSprite,
  renderMap,
  renderSprite,
  spriteFromModel,
  spriteToModel,
  writeHallgeir,
  type HallgeirSprite,
} from '../../src/formats/hallgeir/index.js';
import { createImage, type RgbaImage } from '../../src/render/image.js';
import { encodePng } from '../../src/render/png.js';
import { encodeBmp24, makeHallgeirSample } from '../../scripts/samples/hallgeir.js';
import { mapBytes, objectBytes, spriteBytes } from './bytes.js';
import { memoryLoader } from './memory.js';
import { ispriteFromModel } from '../../src/formats/isprite/convert.js';

/** A 4×2 texture: column c of 2×2 frames has red = 100 + c. */
function texture(): RgbaImage {
  const img = createImage(4, 2);
  for (let y = 0; y < 2; y++) for (let x = 0; x < 4; x++) img.data.set([100 + (x >> 1), y, 0, 255], (y * 4 + x) * 4);
  return img;
}

const px = (img: RgbaImage, x: number, y: number) => [...img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4)];

const sprite: HallgeirSprite = {
  kind: 'sprite',
  littleEndian: true,
  name: 's',
  texture: 'tex',
  animations: [
    {
      name: 'loop',
      frames: [
        { x: 0, y: 0, delay: 0.1, next: 1 },
        { x: 2, y: 0, delay: 0.2, next: 0 },
        { x: 0, y: 0, delay: 1, next: 0 },
      ],
    },
    { name: 'once', frames: [{ x: 2, y: 0, delay: 0.5, next: -1 }] },
  ],
};

describe('render a sprite', () => {
  it('needs --frame-size', async () => {
    await expect(renderSprite(sprite, {}, memoryLoader({ 'tex.png': encodePng(texture()) }))).rejects.toThrow(/--frame-size WxH/);
  });

  it('draws one frame, or the animation along its chain, from a PNG or BMP texture', async () => {
    const variants: Record<string, Uint8Array>[] = [
      { 'tex.png': encodePng(texture()) },
      { 'tex.bmp': encodeBmp24(texture()) },
      { tex: encodePng(texture()) },
    ];
    for (const files of variants) {
      const loader = memoryLoader(files);
      const one = await renderSprite(sprite, { 'frame-size': '2x2', animation: 'loop', frame: '1' }, loader);
      expect(one.frames).toHaveLength(1);
      expect([one.frames[0]!.width, one.frames[0]!.height]).toEqual([2, 2]);
      expect(px(one.frames[0]!, 0, 1)).toEqual([101, 1, 0, 255]);
      const all = await renderSprite(sprite, { frameSize: '2x2' }, loader);
      expect(all.frames.map((f) => px(f, 0, 0)[0])).toEqual([100, 101]);
      expect(all.delaysMs).toEqual([100, 200]);
      expect(all.loops).toBe(0);
    }
    const once = await renderSprite(sprite, { 'frame-size': '2x2', animation: 'once' }, memoryLoader({ 'tex.png': encodePng(texture()) }));
    expect(once.loops).toBe(1);
    expect(once.delaysMs).toEqual([500]);
  });

  it('errors for unknown animations, frames out of range, missing textures', async () => {
    const loader = memoryLoader({ 'tex.png': encodePng(texture()) });
    await expect(renderSprite(sprite, { 'frame-size': '2x2', animation: 'nope' }, loader)).rejects.toThrow(
      /option --animation "nope" names no animation/,
    );
    await expect(renderSprite(sprite, { 'frame-size': '2x2', frame: '3' }, loader)).rejects.toThrow(
      /option --frame 3 is past the last frame/,
    );
    await expect(renderSprite(sprite, { 'frame-size': '2x2' }, memoryLoader({}))).rejects.toThrow(
      /texture "tex" not found \(looked for tex, tex.png, tex.bmp\)/,
    );
    await expect(renderSprite(sprite, { 'frame-size': '2x' }, loader)).rejects.toThrow(OptionError);
  });
});

describe('render a map', () => {
  it('draws frame 0 of the first animation of each object at its position', async () => {
    const files: Record<string, Uint8Array> = {};
    for (const f of makeHallgeirSample().files) files[f.name] = f.bytes;
    const { frames } = await renderMap(
      {
        kind: 'map',
        littleEndian: true,
        textures: [
          { path: 'hero.png', name: 'hero' },
          { path: 'coin.bmp', name: 'coin' },
        ],
        objects: [
          { x: 8, y: 16, object: 'hero.obj' },
          { x: 40, y: 16, object: 'coin.obj' },
        ],
      },
      {},
      memoryLoader(files),
    );
    const img = frames[0]!;
    expect([img.width, img.height]).toEqual([56, 32]);
    expect(px(img, 0, 0)[3]).toBe(0);
    expect(px(img, 8 + 6, 16 + 8)).toEqual([40, 90, 200, 255]); // the hero's shirt
    expect(px(img, 40, 16)).toEqual([40, 40, 60, 255]); // the coin's tile corner
    expect(px(img, 40 + 8, 16 + 8)).toEqual([255, 215, 0, 255]);
  });

  it('resolves objects, sprites and textures in folders; map texture names win over files', async () => {
    const tex = createImage(2, 2);
    tex.data.fill(255);
    const other = createImage(2, 2);
    for (let i = 3; i < other.data.length; i += 4) other.data[i] = 255;
    const files = {
      'levels/../objects/thing.obj': new Uint8Array(0),
      'objects/thing.obj': objectBytes(false, 'Thing', 'thing'),
      'objects/thing.spr': spriteBytes(true, 'thing', 'thing_tex', [{ name: 'a', frames: [{ x: 0, y: 0, delay: 1, next: 0 }] }]),
      'gfx/thing.bmp': encodeBmp24(tex),
      'objects/thing_tex.png': encodePng(other),
    };
    const map = {
      kind: 'map' as const,
      littleEndian: true,
      textures: [{ path: 'gfx\\thing.bmp', name: 'thing_tex' }],
      objects: [{ x: 1, y: 1, object: 'objects\\thing.obj' }],
    };
    const { frames } = await renderMap(map, { 'frame-size': '2x2' }, memoryLoader(files));
    expect([frames[0]!.width, frames[0]!.height]).toEqual([3, 3]);
    expect(px(frames[0]!, 1, 1)).toEqual([255, 255, 255, 255]);
    // Without the map texture, the sprite's texture is a file beside the sprite.
    const { frames: f2 } = await renderMap({ ...map, textures: [] }, {}, memoryLoader(files));
    expect(px(f2[0]!, 1, 1)).toEqual([0, 0, 0, 255]);
  });

  it('names what is missing or broken', async () => {
    const map = { kind: 'map' as const, littleEndian: true, textures: [], objects: [{ x: 0, y: 0, object: 'a.obj' }] };
    await expect(renderMap(map, {}, memoryLoader({}))).rejects.toThrow(/object "a.obj" not found \(looked for a.obj\)/);
    await expect(renderMap(map, {}, memoryLoader({ 'a.obj': new Uint8Array([3, 0, 0, 0, 111, 98, 106, 9]) }))).rejects.toThrow(
      /object "a.obj": .*\(at byte 7\)/,
    );
    await expect(renderMap(map, {}, memoryLoader({ 'a.obj': objectBytes(true, 'a', 'b') }))).rejects.toThrow(/sprite "b" not found/);
    const empty = await renderMap({ ...map, objects: [] }, {}, memoryLoader({}));
    expect([empty.frames[0]!.width, empty.frames[0]!.height]).toEqual([1, 1]);
  });
});

describe('to and from the common model', () => {
  it('follows the next-frame chain, reports dropped frames and timing error', async () => {
    const model = await spriteToModel(sprite, memoryLoader({ 'tex.png': encodePng(texture()) }), { 'frame-size': '2x2' });
    expect(model.sheets[0]!.path).toBe('tex.png');
    expect(model.sheets[0]!.image?.width).toBe(4);
    expect(model.animations[0]!.loopTo).toBe(0);
    expect(model.animations[0]!.frames.map((f) => [f.durationMs, f.parts[0]!.sx])).toEqual([
      [100, 0],
      [200, 2],
    ]);
    expect(model.animations[1]).toMatchObject({ name: 'once', loopTo: null, frames: [{ durationMs: Infinity }] });
    expect(model.notes).toEqual(['animation "loop": frame 2 never shown by playback, dropped']);
    const odd = await spriteToModel(
      {
        ...sprite,
        animations: [
          {
            name: 'x',
            frames: [
              { x: 0, y: 0, delay: 0.1, next: 1 },
              { x: 0, y: 0, delay: 1 / 257, next: 0 },
            ],
          },
        ],
      },
      memoryLoader({}),
      { frameSize: '2x2' },
    );
    expect(odd.notes!.some((n) => /largest error is [\d.]+ ms/.test(n))).toBe(true);
    expect(odd.notes!.some((n) => /texture was not loaded/.test(n))).toBe(true);
    await expect(spriteToModel(sprite, memoryLoader({}), {})).rejects.toThrow(/--frame-size/);
  });

  it('contract: converting to ISPRITE, delays become hold times at the frame rate whose largest error is reported', async () => {
    const frames = [
      { x: 0, y: 0, delay: 0.1, next: 1 },
      { x: 0, y: 0, delay: 0.25, next: 2 },
      { x: 0, y: 0, delay: 0.0123, next: 0 },
    ];
    const model = await spriteToModel({ ...sprite, animations: [{ name: 'x', frames }] }, memoryLoader({}), { frameSize: '2x2' });
    const note = model.notes!.find((n) => /largest error/.test(n))!;
    expect(note).toMatch(/the best is 80 fps, where the largest error is 0\.2 ms/);
    const doc = ispriteFromModel(model);
    expect(doc.frameRate).toBe(80);
    // exact delays keep their exact rate
    const exact = await spriteToModel(
      { ...sprite, animations: [{ name: 'x', frames: [{ x: 0, y: 0, delay: 0.0125, next: 0 }] }] },
      memoryLoader({}),
      { frameSize: '2x2' },
    );
    expect(ispriteFromModel(exact).frameRate).toBe(80);
  });

  it('a sprite from the model plays the same chain', async () => {
    const model = await spriteToModel(sprite, memoryLoader({}), { 'frame-size': '2x2' });
    const back = spriteFromModel(model);
    expect(back.animations[0]!.frames).toEqual([
      { x: 0, y: 0, delay: 0.1, next: 1 },
      { x: 2, y: 0, delay: 0.2, next: 0 },
    ]);
    expect(back.animations[1]!.frames).toEqual([{ x: 2, y: 0, delay: 0, next: -1 }]);
    expect(back.texture).toBe('tex');
    expect(readSprite(writeHallgeir(back))).toEqual(back);
    const twoParts = {
      ...model,
      animations: [
        {
          ...model.animations[0]!,
          frames: [{ durationMs: 1, parts: [model.animations[0]!.frames[0]!.parts[0]!, model.animations[0]!.frames[0]!.parts[0]!] }],
        },
      ],
    };
    // Two parts are drawn into one new texture: that needs the sheet's pixels, which were not loaded here.
    expect(() => spriteFromModel(twoParts)).toThrow(/cannot be written as a Hallgeir sprite: texture "tex" not found/);
    expect(() => spriteFromModel({ kind: 'level', layers: [], tilesets: [] })).toThrow(FormatError);
  });
});

it('map objects may reference a missing map texture name: falls back, then errors', async () => {
  const files = {
    'o.obj': objectBytes(true, 'o', 's'),
    's.spr': spriteBytes(true, 's', 'nowhere', [{ name: 'a', frames: [{ x: 0, y: 0, delay: 1, next: 0 }] }]),
  };
  await expect(
    renderMap({ kind: 'map', littleEndian: true, textures: [], objects: [{ x: 0, y: 0, object: 'o.obj' }] }, {}, memoryLoader(files)),
  ).rejects.toThrow(/texture "nowhere" not found \(looked for nowhere, nowhere.png, nowhere.bmp\); it is not a texture of the map either/);
  expect(mapBytes(true, [], []).length).toBe(11);
});

it('refuses drawings too large to hold in memory', async () => {
  const loader = memoryLoader({ 'tex.png': encodePng(texture()) });
  await expect(renderSprite(sprite, { 'frame-size': '65536x65536', frame: '0' }, loader)).rejects.toThrow(
    /\(65536x65536\) would need \d+ pixels, more than the limit of \d+ \(raise it with --max-pixels\)/,
  );
  const map = { kind: 'map' as const, littleEndian: true, textures: [], objects: [{ x: 2000000000, y: 0, object: 'o.obj' }] };
  const files = {
    'o.obj': objectBytes(true, 'o', 's'),
    's.spr': spriteBytes(true, 's', 'tex', [{ name: 'a', frames: [{ x: 0, y: 0, delay: 1, next: 0 }] }]),
    'tex.png': encodePng(texture()),
  };
  await expect(renderMap(map, {}, memoryLoader(files))).rejects.toThrow(/the map \(\d+x\d+\) would need \d+ pixels.*--max-pixels/);
});
