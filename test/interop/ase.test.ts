import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/binary/errors.js';
import { LimitError } from '../../src/binary/limits.js';
import { detectFormat } from '../../src/detect.js';
import { type AseDoc, readAse, sniffAse } from '../../src/interop/aseprite/ase.js';
import { aseHandler, aseModel } from '../../src/interop/aseprite/file.js';
import { BLEND_MODES } from '../../src/render/blend.js';
import type { RgbaImage } from '../../src/render/image.js';
import { drawPicture } from '../../src/render/pipeline.js';
import { aseFile, chunk, propertiesBlock, rgbaPixels, type WFile } from '../helpers/ase-writer.js';
import { runCli } from '../helpers/cli.js';
import { ROOT } from '../helpers/paths.js';
import { memoryLoader } from './helpers.js';

const require = createRequire(import.meta.url);
const loader = memoryLoader({});

/** Every frame of the selection as Aseprite flattens it. */
async function flatten(bytes: Uint8Array, options: Record<string, string> = {}): Promise<RgbaImage[]> {
  const doc = aseHandler.read(bytes);
  return drawPicture(await aseHandler.picture!(doc, options, loader)).frames;
}

function px(img: RgbaImage, x: number, y: number): number[] {
  const o = (y * img.width + x) * 4;
  return Array.from(img.data.subarray(o, o + 4));
}

const solid = (w: number, h: number, c: [number, number, number, number]) => rgbaPixels(w, h, () => c);

/** Two layers, one pixel each: backdrop below, source above with a blend mode. */
function twoLayers(
  backdrop: [number, number, number, number],
  src: [number, number, number, number],
  blend: number,
  opts: { layerOpacity?: number; celOpacity?: number } = {},
): WFile {
  return {
    width: 1,
    height: 1,
    layers: [{ name: 'under' }, { name: 'over', blend, opacity: opts.layerOpacity ?? 255 }],
    frames: [
      {
        cels: [
          { layer: 0, w: 1, h: 1, pixels: solid(1, 1, backdrop) },
          { layer: 1, w: 1, h: 1, pixels: solid(1, 1, src), opacity: opts.celOpacity ?? 255 },
        ],
      },
    ],
  };
}

// Aseprite's formulas, written out again for the tests: on an opaque backdrop with an opaque
// source at full opacity, the new blend method gives the blend function itself.
const mul = (a: number, b: number) => Math.round((a * b) / 255);
const div = (a: number, b: number) => Math.floor((a * 255 + Math.floor(b / 2)) / b);
const hard = (b: number, s: number) => (s < 128 ? mul(b, 2 * s) : b + (2 * s - 255) - mul(b, 2 * s - 255));
function hslRef(mode: string, bk: number[], sc: number[]): number[] {
  const lum = (c: number[]) => 0.3 * c[0]! + 0.59 * c[1]! + 0.11 * c[2]!;
  const sat = (c: number[]) => Math.max(...c) - Math.min(...c);
  const clip = (c: number[]) => {
    const l = lum(c);
    const n = Math.min(...c);
    const x = Math.max(...c);
    if (n < 0) c = c.map((v) => l + ((v - l) * l) / (l - n));
    if (x > 1) c = c.map((v) => l + ((v - l) * (1 - l)) / (x - l));
    return c;
  };
  const setLum = (c: number[], l: number) => {
    const d = l - lum(c);
    return clip(c.map((v) => v + d));
  };
  const setSat = (c: number[], s: number) => {
    const mn = Math.min(...c);
    const range = Math.max(...c) - mn;
    return range > 0 ? c.map((v) => ((v - mn) * s) / range) : [0, 0, 0];
  };
  const b = bk.map((v) => v / 255);
  const s = sc.map((v) => v / 255);
  const out =
    mode === 'hue'
      ? setLum(setSat(s, sat(b)), lum(b))
      : mode === 'saturation'
        ? setLum(setSat(b, sat(s)), lum(b))
        : mode === 'color'
          ? setLum(s, lum(b))
          : setLum(b, lum(s));
  return out.map((v) => Math.trunc(255 * v) | 0);
}
function reference(mode: string, b: number, s: number): number {
  switch (mode) {
    case 'normal':
      return s;
    case 'multiply':
      return mul(b, s);
    case 'screen':
      return b + s - mul(b, s);
    case 'overlay':
      return hard(s, b);
    case 'darken':
      return Math.min(b, s);
    case 'lighten':
      return Math.max(b, s);
    case 'color_dodge':
      return b === 0 ? 0 : b >= 255 - s ? 255 : div(b, 255 - s);
    case 'color_burn':
      return b === 255 ? 255 : 255 - b >= s ? 0 : 255 - div(255 - b, s);
    case 'hard_light':
      return hard(b, s);
    case 'soft_light': {
      const bb = b / 255;
      const ss = s / 255;
      const d = bb <= 0.25 ? ((16 * bb - 12) * bb + 4) * bb : Math.sqrt(bb);
      const r = ss <= 0.5 ? bb - (1 - 2 * ss) * bb * (1 - bb) : bb + (2 * ss - 1) * (d - bb);
      return Math.floor(r * 255 + 0.5);
    }
    case 'difference':
      return Math.abs(b - s);
    case 'exclusion':
      return b + s - 2 * mul(b, s);
    case 'addition':
      return Math.min(255, b + s);
    case 'subtract':
      return Math.max(0, b - s);
    case 'divide':
      return b === 0 ? 0 : b >= s ? 255 : div(b, s);
  }
  throw new Error(mode);
}

describe('ase: a real file (ase-parser 0.0.19, MIT: indexed.aseprite)', () => {
  const file = require.resolve('ase-parser/indexed.aseprite');
  const bytes = new Uint8Array(fs.readFileSync(file));

  it('is found by its magic and reads as ase-parser reads it', () => {
    expect(sniffAse(bytes)).toBe(true);
    expect(detectFormat(bytes, 'x.bin')?.name ?? detectFormat(bytes, 'x.bin')).toBeTruthy();
    const doc = readAse(bytes);
    const Aseprite = require('ase-parser');
    const other = new Aseprite(Buffer.from(bytes), 'indexed.aseprite');
    other.parse();
    expect(doc.header.width).toBe(other.width);
    expect(doc.header.height).toBe(other.height);
    expect(doc.header.colorDepth).toBe(other.colorDepth);
    expect(doc.header.transparentIndex).toBe(other.paletteIndex);
    expect(doc.frames.length).toBe(other.numFrames);
    expect(doc.layers.map((l) => [l.name, l.opacity, l.childLevel])).toEqual(
      other.layers.map((l: { name: string; opacity: number; layerChildLevel: number }) => [l.name, l.opacity, l.layerChildLevel]),
    );
    const colors = other.palette.colors.map((c: { red: number; green: number; blue: number; alpha: number }) => [
      c.red,
      c.green,
      c.blue,
      c.alpha,
    ]);
    expect(doc.palettes[0]!.slice(0, colors.length).map((c) => [c.r, c.g, c.b, c.a])).toEqual(colors);
    const cels = other.frames[0].cels;
    expect(doc.frames[0]!.cels.map((c) => [c.layer, c.x, c.y, c.width, c.height, Array.from(c.data!)])).toEqual(
      cels.map((c: { layerIndex: number; xpos: number; ypos: number; w: number; h: number; rawCelData: Buffer }) => [
        c.layerIndex,
        c.xpos,
        c.ypos,
        c.w,
        c.h,
        Array.from(c.rawCelData),
      ]),
    );
  });

  it('flattens as Aseprite does: each visible layer over the one below, index 0 transparent', async () => {
    const [img] = await flatten(bytes);
    const doc = readAse(bytes);
    const pal = doc.palettes[0]!;
    // Expected from the raw indices: the top layer's pixel unless it is the transparent index, then the lower's.
    const [lower, upper] = doc.frames[0]!.cels;
    for (let y = 0; y < img!.height; y += 7) {
      for (let x = 0; x < img!.width; x += 5) {
        const at = (c: typeof lower) => {
          const cx = x - c!.x;
          const cy = y - c!.y;
          return cx >= 0 && cy >= 0 && cx < c!.width && cy < c!.height ? c!.data![cy * c!.width + cx]! : 0;
        };
        const i = at(upper) !== 0 ? at(upper) : at(lower);
        const want = i === 0 ? [0, 0, 0, 0] : [pal[i]!.r, pal[i]!.g, pal[i]!.b, pal[i]!.a];
        expect(px(img!, x, y), `${x},${y}`).toEqual(want);
      }
    }
  });

  it('converts to every sprite format sprat writes', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ase-'));
    for (const out of ['hero.json', 'knight.isprite', 'slime.lua']) {
      const args = ['convert', file, path.join(dir, out)];
      if (out === 'hero.json') args.push('--to', 'aseprite');
      if (out === 'slime.lua') args.push('--to', 'solarus-lua');
      const r = await runCli(args);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/note: .*not carried over: .*indexed colour mode/);
    }
    const back = await runCli(['render', path.join(dir, 'hero.json'), '-o', path.join(dir, 'back.png')]);
    expect(back.code, back.stderr).toBe(0);
  });
});

describe('ase: colour modes', () => {
  it('RGBA, grayscale (v, a -> v, v, v, a) and indexed (palette, transparent index)', async () => {
    const rgba = aseFile({
      width: 2,
      height: 1,
      layers: [{ name: 'a' }],
      frames: [{ cels: [{ layer: 0, w: 2, h: 1, pixels: Uint8Array.from([1, 2, 3, 4, 9, 8, 7, 255]) }] }],
    });
    expect((await flatten(rgba))[0]!.data).toEqual(Uint8Array.from([1, 2, 3, 4, 9, 8, 7, 255]));
    const gray = aseFile({
      width: 2,
      height: 1,
      depth: 16,
      layers: [{ name: 'a' }],
      frames: [{ cels: [{ layer: 0, w: 2, h: 1, pixels: Uint8Array.from([100, 255, 30, 128]) }] }],
    });
    expect((await flatten(gray))[0]!.data).toEqual(Uint8Array.from([100, 100, 100, 255, 30, 30, 30, 128]));
    const palette: [number, number, number, number][] = [
      [0, 0, 0, 255],
      [255, 0, 0, 255],
      [0, 255, 0, 128],
      [10, 20, 30, 255],
    ];
    const indexed = aseFile({
      width: 3,
      height: 1,
      depth: 8,
      transparentIndex: 3,
      palette,
      layers: [{ name: 'a' }],
      frames: [{ cels: [{ layer: 0, w: 3, h: 1, pixels: Uint8Array.from([1, 2, 3]) }] }],
    });
    expect((await flatten(indexed))[0]!.data).toEqual(Uint8Array.from([255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 0, 0]));
    // With a visible background layer, the canvas starts as the transparent index's colour.
    const bg = aseFile({
      width: 2,
      height: 1,
      depth: 8,
      transparentIndex: 3,
      palette,
      layers: [{ name: 'bg', flags: 1 | 8 }],
      frames: [{ cels: [{ layer: 0, w: 1, h: 1, pixels: Uint8Array.from([1]) }] }],
    });
    expect((await flatten(bg))[0]!.data).toEqual(Uint8Array.from([255, 0, 0, 255, 10, 20, 30, 255]));
  });

  it('a palette chunk in a later frame changes that frame onwards', async () => {
    const file = aseFile({
      width: 1,
      height: 1,
      depth: 8,
      palette: [
        [0, 0, 0, 255],
        [1, 1, 1, 255],
      ],
      layers: [{ name: 'a' }],
      frames: [
        { cels: [{ layer: 0, w: 1, h: 1, pixels: Uint8Array.from([1]) }] },
        {
          cels: [{ layer: 0, kind: 'linked', link: 0 }],
          palette: [
            [0, 0, 0, 255],
            [9, 9, 9, 255],
          ],
        },
      ],
    });
    const frames = await flatten(file);
    expect(px(frames[0]!, 0, 0)).toEqual([1, 1, 1, 255]);
    expect(px(frames[1]!, 0, 0)).toEqual([9, 9, 9, 255]);
  });
});

describe('ase: cels', () => {
  const p = rgbaPixels(2, 2, (x, y) => [x * 100, y * 100, 50, 255]);
  it('raw, compressed and linked cels give the same pixels; positions and frame durations are kept', async () => {
    const file = aseFile({
      width: 4,
      height: 4,
      layers: [{ name: 'a' }],
      frames: [
        { duration: 50, cels: [{ layer: 0, kind: 'raw', x: 1, y: 1, w: 2, h: 2, pixels: p }] },
        { duration: 70, cels: [{ layer: 0, kind: 'compressed', x: 1, y: 1, w: 2, h: 2, pixels: p }] },
        { duration: 90, cels: [{ layer: 0, kind: 'linked', x: 1, y: 1, link: 0 }] },
      ],
    });
    const doc = readAse(file);
    expect(doc.frames.map((f) => f.duration)).toEqual([50, 70, 90]);
    expect(doc.frames.map((f) => f.cels[0]!.type)).toEqual(['raw', 'compressed', 'linked']);
    const frames = await flatten(file);
    for (const f of frames) {
      expect(px(f, 0, 0)).toEqual([0, 0, 0, 0]);
      expect(px(f, 2, 2)).toEqual([100, 100, 50, 255]);
    }
  });

  it('compressed tilemap cels are drawn from the tileset (tile 0 empty, flips)', async () => {
    // Tileset: tile 0 empty, tile 1 a 2x2 gradient.
    const tiles = new Uint8Array(2 * 4 * 4);
    tiles.set(
      rgbaPixels(2, 2, (x, y) => [x ? 200 : 100, y ? 200 : 100, 0, 255]),
      2 * 2 * 4,
    );
    const file = aseFile({
      width: 6,
      height: 2,
      tilesets: [{ id: 0, tiles: 2, tw: 2, th: 2, name: 'ts', pixels: tiles }],
      layers: [{ name: 'map', type: 2, tileset: 0 }],
      frames: [{ cels: [{ layer: 0, kind: 'tilemap', w: 3, h: 1, tiles: [1, 0, 1 | 0x20000000] }] }],
    });
    const doc = readAse(file);
    expect(doc.frames[0]!.cels[0]!.type).toBe('tilemap');
    const [img] = await flatten(file);
    expect(px(img!, 0, 0)).toEqual([100, 100, 0, 255]);
    expect(px(img!, 1, 1)).toEqual([200, 200, 0, 255]);
    expect(px(img!, 2, 0)).toEqual([0, 0, 0, 0]);
    // X-flipped: the right column shows the left one.
    expect(px(img!, 5, 0)).toEqual([100, 100, 0, 255]);
    expect(px(img!, 4, 0)).toEqual([200, 100, 0, 255]);
  });

  it('z-index moves a cel among the layers (NOTE.5)', async () => {
    const file = aseFile({
      width: 1,
      height: 1,
      layers: [{ name: 'a' }, { name: 'b' }],
      frames: [
        {
          cels: [
            { layer: 0, w: 1, h: 1, pixels: solid(1, 1, [255, 0, 0, 255]), zIndex: 1 },
            { layer: 1, w: 1, h: 1, pixels: solid(1, 1, [0, 0, 255, 255]) },
          ],
        },
      ],
    });
    // a: order 0 + 1 = 1, b: 1 + 0; tie: smaller z-index first, so a is drawn last.
    expect(px((await flatten(file))[0]!, 0, 0)).toEqual([255, 0, 0, 255]);
  });
});

describe('ase: blend modes and opacity, with Aseprite integer arithmetic', () => {
  const backdrops: [number, number, number][] = [
    [0, 0, 0],
    [200, 100, 30],
    [255, 255, 255],
    [64, 128, 250],
  ];
  const sources: [number, number, number][] = [
    [10, 20, 255],
    [128, 127, 0],
    [255, 255, 255],
    [90, 200, 40],
  ];
  for (const [mode, name] of BLEND_MODES.entries()) {
    it(`${name}: opaque over opaque is the blend function`, async () => {
      for (const b of backdrops) {
        for (const s of sources) {
          const [img] = await flatten(aseFile(twoLayers([...b, 255], [...s, 255], mode)));
          const want = ['hue', 'saturation', 'color', 'luminosity'].includes(name)
            ? hslRef(name, b, s)
            : b.map((bv, i) => reference(name, bv, s[i]!));
          expect(px(img!, 0, 0), `${name} ${b} ${s}`).toEqual([...want, 255]);
        }
      }
    });
  }

  it('normal: cel opacity x layer opacity, and Aseprite rounding for translucent pixels', async () => {
    // Sa = MUL_UN8(MUL_UN8(200, MUL_UN8(128, 200)), ...) as render.cpp multiplies them.
    const [img] = await flatten(aseFile(twoLayers([10, 200, 30, 180], [250, 0, 100, 200], 0, { layerOpacity: 200, celOpacity: 128 })));
    const opacity = mul(128, 200);
    const Sa = mul(200, opacity);
    const Ba = 180;
    const Ra = Sa + Ba - mul(Ba, Sa);
    const c = (b: number, s: number) => b + Math.trunc(((s - b) * Sa) / Ra);
    expect(px(img!, 0, 0)).toEqual([c(10, 250), c(200, 0), c(30, 100), Ra]);
  });

  it('layer opacity counts only with header flag 1', async () => {
    const file = twoLayers([0, 0, 0, 255], [255, 255, 255, 255], 0, { layerOpacity: 0 });
    expect(px((await flatten(aseFile(file)))[0]!, 0, 0)).toEqual([0, 0, 0, 255]);
    expect(px((await flatten(aseFile({ ...file, flags: 0 })))[0]!, 0, 0)).toEqual([255, 255, 255, 255]);
  });

  it('a blend over a transparent backdrop is normal', async () => {
    const [img] = await flatten(aseFile(twoLayers([0, 0, 0, 0], [90, 80, 70, 255], 1)));
    expect(px(img!, 0, 0)).toEqual([90, 80, 70, 255]);
  });
});

describe('ase: layers and groups', () => {
  const red = solid(1, 1, [255, 0, 0, 255]);
  const blue = solid(1, 1, [0, 0, 255, 255]);
  const base = (layers: WFile['layers'], flags = 1): Uint8Array =>
    aseFile({
      width: 1,
      height: 1,
      flags,
      layers,
      frames: [
        {
          cels: layers
            .map((l, i) => (l.type === 1 ? null : { layer: i, w: 1, h: 1, pixels: i === 0 ? red : blue }))
            .filter((c) => c !== null),
        },
      ],
    });

  it('hidden and reference layers are not drawn; a hidden group hides its children', async () => {
    expect(px((await flatten(base([{ name: 'a' }, { name: 'b', flags: 2 }])))[0]!, 0, 0)).toEqual([255, 0, 0, 255]);
    expect(px((await flatten(base([{ name: 'a' }, { name: 'ref', flags: 3 | 64 }])))[0]!, 0, 0)).toEqual([255, 0, 0, 255]);
    const grouped = base([{ name: 'a' }, { name: 'g', type: 1, flags: 2 }, { name: 'b', childLevel: 1 }]);
    expect(readAse(grouped).layers[2]!.parent).toBe(1);
    expect(px((await flatten(grouped))[0]!, 0, 0)).toEqual([255, 0, 0, 255]);
  });

  it('group opacity: ignored unless header flag 2 (composite groups), then the group is blended as one image', async () => {
    const layers = [{ name: 'a' }, { name: 'g', type: 1, opacity: 128 }, { name: 'b', childLevel: 1 }];
    expect(px((await flatten(base(layers, 1)))[0]!, 0, 0)).toEqual([0, 0, 255, 255]);
    const Sa = 128;
    const c = (b: number, s: number) => b + Math.trunc(((s - b) * Sa) / 255);
    expect(px((await flatten(base(layers, 3)))[0]!, 0, 0)).toEqual([c(255, 0), 0, c(0, 255), 255]);
  });
});

describe('ase: tags, slices, user data', () => {
  const frames = [0, 1, 2, 3].map((i) => ({
    duration: 10 * (i + 1),
    cels: [{ layer: 0, w: 1, h: 1, pixels: solid(1, 1, [i * 10, 0, 0, 255]) }],
  }));
  const props = propertiesBlock([
    ['hp', 6, [10, 0, 0, 0]],
    ['name', 0x0d, [2, 0, 104, 105]],
    ['ok', 1, [1]],
  ]);
  const file = aseFile({
    width: 4,
    height: 4,
    layers: [{ name: 'body', userData: { text: 'layer text' } }],
    frames,
    spriteUserData: { text: 'sprite', color: [1, 2, 3, 4], properties: props },
    tags: [
      { from: 0, to: 3, name: 'walk' },
      { from: 0, to: 2, direction: 1, name: 'back', userData: { color: [255, 0, 0, 255], text: 'tag data' } },
      { from: 0, to: 3, direction: 2, repeat: 2, name: 'bounce' },
      { from: 1, to: 3, direction: 3, name: 'rev' },
    ],
    slices: [
      { name: 'origin', keys: [{ frame: 0, x: 1, y: 1, w: 2, h: 2, pivot: [1, 1] }] },
      { name: 'button', keys: [{ frame: 0, x: 0, y: 0, w: 4, h: 4, center: [1, 1, 2, 2] }], userData: { text: 'nine' } },
    ],
  });

  it('reads tags (direction, repeat), slices (9-slice, pivot) and user data (text, colour, properties)', () => {
    const doc = readAse(file);
    expect(doc.tags.map((t) => [t.name, t.direction, t.repeat])).toEqual([
      ['walk', 'forward', 0],
      ['back', 'reverse', 0],
      ['bounce', 'pingpong', 2],
      ['rev', 'pingpong_reverse', 0],
    ]);
    expect(doc.tags[1]!.userData).toEqual({ text: 'tag data', color: [255, 0, 0, 255] });
    expect(doc.slices[1]!.keys[0]!.center).toEqual({ x: 1, y: 1, width: 2, height: 2 });
    expect(doc.slices[0]!.keys[0]!.pivot).toEqual({ x: 1, y: 1 });
    expect(doc.userData).toEqual({
      text: 'sprite',
      color: [1, 2, 3, 4],
      properties: [{ key: 0, values: { hp: 10, name: 'hi', ok: true } }],
    });
    expect(doc.layers[0]!.userData).toEqual({ text: 'layer text' });
    const json = aseHandler.inspectJson(doc) as { tags: unknown[]; userData: unknown };
    expect(json.userData).toEqual({
      text: 'sprite',
      color: [1, 2, 3, 4],
      properties: [{ key: 0, values: { hp: 10, name: 'hi', ok: true } }],
    });
  });

  it('tags become animations as the JSON export maps them; the origin slice pivot is the origin', () => {
    const model = aseModel(readAse(file));
    const anim = (n: string) => model.animations.find((a) => a.name === n)!;
    const labels = (n: string) => anim(n).frames.map((f) => f.label);
    expect(labels('walk')).toEqual(['0', '1', '2', '3']);
    expect(anim('walk').loopTo).toBe(0);
    expect(labels('back')).toEqual(['2', '1', '0']);
    // Aseprite's playback: repeat 2 of a ping-pong is two passes, up then down (doc/playback_tests.cpp).
    expect(labels('bounce')).toEqual(['0', '1', '2', '3', '2', '1', '0']);
    expect(anim('bounce').loopTo).toBe(null);
    expect(labels('rev')).toEqual(['3', '2', '1', '2']);
    expect(anim('walk').frames.map((f) => f.durationMs)).toEqual([10, 20, 30, 40]);
    // Origin (2, 2): the frame's upper-left corner at (-2, -2).
    expect(anim('walk').frames[0]!.parts[0]).toMatchObject({ x: -2, y: -2 });
    // The "button" slice is each frame's rectangle (its 9-patch centre and text with it), so not a loss.
    expect(model.notes?.join('\n')).toMatch(/user data on 2 object/);
    expect(model.notes?.join('\n')).not.toMatch(/slices/);
    expect(anim('walk').frames[0]!.shapes).toEqual([
      { type: 'rect', name: 'button', x: -2, y: -2, width: 4, height: 4, center: { x: 1, y: 1, width: 2, height: 2 }, userData: 'nine' },
    ]);
  });

  it('render --animation draws a tag in its direction', async () => {
    const imgs = await flatten(file, { animation: 'rev' });
    expect(imgs.map((i) => px(i, 0, 0)[0])).toEqual([30, 20, 10, 20]);
    await expect(flatten(file, { animation: 'nope' })).rejects.toThrow(/nope/);
  });
});

describe('ase: the command line', () => {
  const file = aseFile({
    width: 2,
    height: 2,
    layers: [{ name: 'a' }],
    frames: [{ cels: [{ layer: 0, w: 2, h: 2, pixels: solid(2, 2, [1, 2, 3, 255]) }] }],
    tags: [{ from: 0, to: 0, name: 'idle' }],
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ase-cli-'));
  const f = path.join(dir, 'x.aseprite');
  fs.writeFileSync(f, file);

  it('inspect, validate, render, convert', async () => {
    const i = await runCli(['inspect', '--json', f]);
    expect(i.code, i.stderr).toBe(0);
    expect(JSON.parse(i.stdout).format).toBe('ase');
    expect((await runCli(['validate', f])).stdout).toMatch(/ok/);
    const r = await runCli(['render', f, '-o', path.join(dir, 'x.png')]);
    expect(r.code, r.stderr).toBe(0);
    const c = await runCli(['convert', f, path.join(dir, 'y.isprite')]);
    expect(c.code, c.stderr).toBe(0);
    // OUT.json without --to: Aseprite's JSON sheet export.
    const j = await runCli(['convert', f, path.join(dir, 'sheet.json')]);
    expect(j.code, j.stderr).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'sheet.json'), 'utf8')).meta.frameTags[0].name).toBe('idle');
  });

  it('a truncated or corrupt file is one error line naming the byte (exit 1)', async () => {
    const bad = path.join(dir, 'bad.aseprite');
    fs.writeFileSync(bad, file.subarray(0, file.length - 10));
    const r = await runCli(['validate', bad]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/at byte \d+/);
    const bad2 = path.join(dir, 'bad2.ase');
    const b = Uint8Array.from(file);
    b[12] = 24; // colour depth
    fs.writeFileSync(bad2, b);
    const r2 = await runCli(['render', bad2, '-o', path.join(dir, 'y.png')]);
    expect(r2.code).toBe(1);
    expect(r2.stderr).toMatch(/^sprat: error: .*color depth 24 .*\(at byte 12\)\n$/);
  });
});

describe('ase: hostile input', () => {
  const seed = aseFile({
    width: 3,
    height: 3,
    depth: 8,
    palette: [
      [0, 0, 0, 255],
      [255, 0, 0, 255],
    ],
    layers: [{ name: 'a' }, { name: 'g', type: 1 }, { name: 'b', childLevel: 1, blend: 3 }],
    frames: [
      {
        cels: [
          { layer: 0, w: 3, h: 3, pixels: new Uint8Array(9).fill(1) },
          { layer: 2, kind: 'raw', w: 1, h: 1, pixels: Uint8Array.from([1]) },
        ],
      },
      { cels: [{ layer: 0, kind: 'linked', link: 0 }] },
    ],
    tags: [{ from: 0, to: 1, name: 't' }],
    slices: [{ name: 's', keys: [{ frame: 0, x: 0, y: 0, w: 1, h: 1, pivot: [0, 0] }] }],
    spriteUserData: { text: 'x', properties: propertiesBlock([['v', 0x11, [2, 0, 0, 0, 3, 0, 1, 0, 2, 0]]]) },
  });

  it('the seed reads', () => {
    expect(readAse(seed).frames.length).toBe(2);
  });

  it('corrupted files give a FormatError (or a LimitError), never a crash or a hang', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(seed.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }),
        fc.option(fc.nat(seed.length), { nil: undefined }),
        async (edits, cut) => {
          const b = Uint8Array.from(seed);
          for (const [at, v] of edits) b[at] = v;
          const bytes = cut === undefined ? b : b.subarray(0, cut);
          const diags = aseHandler.validate(bytes);
          expect(Array.isArray(diags)).toBe(true);
          let doc: AseDoc;
          try {
            doc = aseHandler.read(bytes, { options: { 'max-pixels': '100000' } });
          } catch (e) {
            if (e instanceof FormatError || e instanceof LimitError) return;
            throw e;
          }
          aseHandler.inspectJson(doc);
          try {
            drawPicture(await aseHandler.picture!(doc, { 'max-pixels': '1000000' }, loader));
          } catch (e) {
            if (!(e instanceof FormatError || e instanceof LimitError)) throw e;
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('thousands of nested groups draw without deep recursion, composed or not', async () => {
    const n = 5000;
    const layers: WFile['layers'] = Array.from({ length: n }, (_, i) => ({ name: `g${i}`, type: 1, childLevel: i }));
    layers.push({ name: 'leaf', childLevel: n });
    for (const flags of [1, 3]) {
      const file = aseFile({
        width: 1,
        height: 1,
        flags,
        layers,
        frames: [{ cels: [{ layer: n, w: 1, h: 1, pixels: solid(1, 1, [5, 6, 7, 255]) }] }],
      });
      const doc = readAse(file);
      expect(doc.layers[n]!.parent).toBe(n - 1);
      expect(aseHandler.inspectText(doc)).toMatch(/leaf/);
      expect(px((await flatten(file))[0]!, 0, 0)).toEqual([5, 6, 7, 255]);
    }
  });

  it('many tags, each with user data, and many linked cels read in linear time', () => {
    const tags = Array.from({ length: 20000 }, (_, i) => ({ from: 0, to: 0, name: `t${i}`, userData: { text: `${i}` } }));
    const layers = Array.from({ length: 2000 }, (_, i) => ({ name: `l${i}` }));
    const first = { cels: layers.map((_, i) => ({ layer: i, kind: 'raw' as const, w: 1, h: 1, pixels: solid(1, 1, [1, 1, 1, 1]) })) };
    const linked = { cels: layers.map((_, i) => ({ layer: i, kind: 'linked' as const, link: 0 })) };
    const file = aseFile({ width: 1, height: 1, layers, tags, frames: [first, linked, linked] });
    const t0 = performance.now();
    const doc = readAse(file);
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(doc.tags[19999]!.userData?.text).toBe('19999');
    expect(doc.frames[2]!.cels[1999]!.data).toBe(doc.frames[0]!.cels[1999]!.data);
  });

  it('huge claimed sizes fail before allocating', () => {
    // A 65535x65535 compressed cel.
    const big = aseFile({
      width: 1,
      height: 1,
      layers: [{ name: 'a' }],
      frames: [{ cels: [{ layer: 0, w: 65535, h: 65535, pixels: new Uint8Array(4) }] }],
    });
    expect(() => readAse(big)).toThrow(LimitError);
    // A chunk claiming more bytes than its frame holds.
    const b = Uint8Array.from(seed);
    const frameEnd = 128 + (b[128]! | (b[129]! << 8));
    expect(frameEnd).toBeGreaterThan(144);
    b[144] = 0xff;
    b[145] = 0xff;
    expect(() => readAse(b)).toThrow(/claims \d+ bytes.*\(at byte 144\)/);
  });

  it('an external files chunk whose entries are 14 bytes plus their name reads (regression: counted as 18)', () => {
    const entry = [1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3, 0, 97, 47, 98];
    const body = Uint8Array.from([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ...entry]);
    const f = aseFile({ width: 1, height: 1, layers: [{ name: 'a' }], frames: [{ cels: [], chunks: [[0x2008, body]] }] });
    expect(readAse(f).externalFiles).toEqual([{ id: 1, type: 2, name: 'a/b' }]);
  });

  it('a tileset in an external file is a warning (its tiles are not drawn)', () => {
    const body = Uint8Array.from([
      0,
      0,
      0,
      0,
      1,
      0,
      0,
      0,
      1,
      0,
      0,
      0,
      2,
      0,
      2,
      0,
      1,
      0,
      ...new Array(14).fill(0),
      1,
      0,
      120,
      7,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
    ]);
    const f = aseFile({ width: 1, height: 1, layers: [{ name: 'a' }], frames: [{ cels: [], chunks: [[0x2023, body]] }] });
    expect(
      aseHandler
        .validate(f)
        .map((d) => d.message)
        .join(),
    ).toMatch(/tileset "x" is in an external file.*\(at byte \d+\)/);
    expect(readAse(f).tilesets[0]!.external).toEqual({ file: 7, id: 0 });
  });

  it('an unknown chunk is skipped with a warning', () => {
    const f = aseFile({ width: 1, height: 1, layers: [{ name: 'a' }], frames: [{ cels: [], chunks: [[0x7777, new Uint8Array(3)]] }] });
    const warnings: string[] = [];
    readAse(f, { warn: (r) => warnings.push(r) });
    expect(warnings.join()).toMatch(/unknown chunk type 0x7777/);
    expect(chunk(1, new Uint8Array(0)).length).toBe(6);
  });
});

describe('ase: byte ranges for the viewer', () => {
  it('name the header, frames, cels and layers of the inspect JSON, each range inside the file', () => {
    const file = aseFile({
      width: 2,
      height: 2,
      layers: [{ name: 'a' }, { name: 'b' }],
      frames: [
        { cels: [{ layer: 0, w: 1, h: 1, pixels: solid(1, 1, [1, 2, 3, 4]) }] },
        { cels: [{ layer: 1, w: 1, h: 1, pixels: solid(1, 1, [1, 2, 3, 4]) }] },
      ],
    });
    const doc = readAse(file);
    const json = aseHandler.inspectJson(doc) as Record<string, unknown>;
    const ranges = aseHandler.byteRanges!(doc, file);
    expect(Object.keys(ranges).sort()).toEqual([
      '/frames/0',
      '/frames/0/cels/0',
      '/frames/1',
      '/frames/1/cels/0',
      '/header',
      '/layers/0',
      '/layers/1',
    ]);
    for (const [pointer, [a, b]] of Object.entries(ranges)) {
      let v: unknown = json;
      for (const k of pointer.split('/').slice(1)) v = (v as Record<string, unknown>)[k];
      expect(v, pointer).toBeDefined();
      expect(0 <= a && a < b && b <= file.length, pointer).toBe(true);
    }
    expect(ranges['/frames/1']![0]).toBe(ranges['/frames/0']![1]);
  });
});

describe('ase: inspect --json matches schemas/ase.inspect.schema.json', () => {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  const dir = path.join(ROOT, 'schemas');
  for (const f of fs.readdirSync(dir).filter((n) => n.endsWith('.schema.json')))
    ajv.addSchema(JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')));
  const check = (json: unknown, what: string) => {
    for (const id of ['ase.inspect.schema.json', 'inspect.schema.json']) {
      const v = ajv.getSchema(`https://sprat.invalid/schemas/${id}`)!;
      if (!v(json)) throw new Error(`${what} does not match ${id}: ${ajv.errorsText(v.errors)}`);
    }
  };

  it('the real file and synthetic files with every optional part', () => {
    check(
      aseHandler.inspectJson(readAse(new Uint8Array(fs.readFileSync(require.resolve('ase-parser/indexed.aseprite'))))),
      'indexed.aseprite',
    );
    const tiles = new Uint8Array(2 * 4 * 4);
    const full = aseFile({
      width: 4,
      height: 4,
      flags: 3,
      colorProfile: [1, 1],
      palette: [[1, 2, 3, 4]],
      spriteUserData: {
        text: 't',
        color: [1, 2, 3, 4],
        properties: propertiesBlock([['p', 0x10, [1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0]]]),
      },
      tilesets: [{ id: 0, tiles: 2, tw: 2, th: 2, name: 'ts', pixels: tiles }],
      layers: [
        { name: 'a', userData: { text: 'x' } },
        { name: 'g', type: 1 },
        { name: 'm', type: 2, tileset: 0, childLevel: 1 },
      ],
      frames: [
        {
          cels: [
            { layer: 0, w: 1, h: 1, pixels: solid(1, 1, [1, 1, 1, 1]), userData: { color: [0, 0, 0, 0] } },
            { layer: 2, kind: 'tilemap', w: 1, h: 1, tiles: [1] },
          ],
        },
        { cels: [{ layer: 0, kind: 'linked', link: 0 }] },
      ],
      tags: [{ from: 0, to: 1, name: 't', repeat: 3, userData: { text: 'd' } }],
      slices: [{ name: 's', keys: [{ frame: 0, x: -1, y: 0, w: 1, h: 1, center: [0, 0, 1, 1], pivot: [0, 0] }], userData: { text: 's' } }],
    });
    const json = aseHandler.inspectJson(readAse(full)) as Record<string, unknown>;
    expect(Object.keys(json)).toContain('colorProfile');
    check(json, 'the synthetic file');
    const v = ajv.getSchema('https://sprat.invalid/schemas/ase.inspect.schema.json')!;
    expect(v({ ...json, extra: 1 })).toBe(false);
  });
});
