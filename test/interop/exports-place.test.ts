/**
 * Sheet exports place each frame as engines that read only `frame`,
 * `spriteSourceSize` and `sourceSize` draw it: on the source's canvas, the
 * trimmed box where Aseprite's `--trim` and TexturePacker write it.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { asepriteHandler, type AsepriteDoc } from '../../src/interop/aseprite/index.js';
import { texturePackerHandler, type TexturePackerDoc } from '../../src/interop/texturepacker/index.js';
import { bakeFrame } from '../../src/model/bake.js';
import type { ModelFrame, SpriteModel } from '../../src/model/types.js';
import { opaqueBounds } from '../../src/render/compose.js';
import { createImage, type RgbaImage } from '../../src/render/image.js';
import { decodePng } from '../../src/render/png.js';
import { runCli } from '../helpers/cli.js';
import { CORPUS, SAMPLES } from '../helpers/paths.js';
import { memoryLoader, patternImage } from './helpers.js';

const INTEROP = path.join(CORPUS, 'interop');
const PEACHY = path.join(INTEROP, 'josh-perry+peachy/examples');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-exports-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

interface Rec {
  frame: { x: number; y: number; w: number; h: number };
  rotated: boolean;
  trimmed: boolean;
  spriteSourceSize: { x: number; y: number; w: number; h: number };
  sourceSize: { w: number; h: number };
  duration?: number;
  pivot?: { x: number; y: number };
}
interface Sheet {
  frames: Rec[];
  meta: Record<string, any>;
  image: RgbaImage;
}

/** A JSON sheet and its PNG, frames in file order. */
function readSheet(json: string): Sheet {
  const j = JSON.parse(fs.readFileSync(json, 'utf8'));
  const frames: Rec[] = Array.isArray(j.frames) ? j.frames : Object.values(j.frames);
  const png = path.join(path.dirname(json), path.basename(json, '.json') + '.png');
  return { frames, meta: j.meta, image: decodePng(new Uint8Array(fs.readFileSync(png))) };
}

/** A frame as an engine draws it: the sheet's `frame` rectangle at `spriteSourceSize` on a `sourceSize` canvas. */
function onCanvas(s: Sheet, r: Rec): RgbaImage {
  expect(r.rotated).toBe(false);
  const img = createImage(r.sourceSize.w, r.sourceSize.h);
  for (let y = 0; y < r.frame.h; y++) {
    for (let x = 0; x < r.frame.w; x++) {
      const tx = r.spriteSourceSize.x + x;
      const ty = r.spriteSourceSize.y + y;
      if (tx < 0 || ty < 0 || tx >= img.width || ty >= img.height) continue;
      const from = ((r.frame.y + y) * s.image.width + r.frame.x + x) * 4;
      // Transparent pixels are all alike (Aseprite's PNG keeps colour in some).
      if (s.image.data[from + 3] === 0) continue;
      img.data.set(s.image.data.subarray(from, from + 4), (ty * img.width + tx) * 4);
    }
  }
  return img;
}

/** What Aseprite's `--trim` writes for a frame of this picture on its canvas. */
function trimmedPlace(img: RgbaImage): { trimmed: boolean; spriteSourceSize: Rec['spriteSourceSize'] } {
  const b = opaqueBounds(img);
  const sss = b ? { x: b.x, y: b.y, w: b.width, h: b.height } : { x: 0, y: 0, w: 1, h: 1 };
  return { trimmed: sss.x !== 0 || sss.y !== 0 || sss.w !== img.width || sss.h !== img.height, spriteSourceSize: sss };
}

async function convert(input: string, out: string, ...args: string[]): Promise<Sheet> {
  const r = await runCli(['convert', input, out, ...args]);
  expect(r.stderr.split('\n').filter((l) => /error/.test(l))).toEqual([]);
  expect(r.code).toBe(0);
  return readSheet(out);
}

describe("sprat's Aseprite JSON of an .aseprite matches Aseprite's own export of it", () => {
  // josh-perry+peachy: each .json + .png is Aseprite's export of the .aseprite beside it (untrimmed).
  for (const name of ['countAndColours', 'man', 'sound', 'spinner', 'faces']) {
    it(`${name}.aseprite`, async () => {
      const theirs = readSheet(path.join(PEACHY, `${name}.json`));
      const ours = await convert(
        path.join(PEACHY, `${name}.aseprite`),
        path.join(tmp, `${name}-ase.json`),
        '--to',
        'aseprite',
        '--layout',
        'array',
      );
      // The frames in the order the tags play them (sprat may store a tag's frames in another order).
      const played = (sheet: Sheet) => sheet.frames.map((r) => ({ r, key: Buffer.from(onCanvas(sheet, r).data).toString('base64') }));
      const theirFrames = played(theirs);
      for (const { r: o, key } of played(ours)) {
        const t = theirFrames.find((f) => f.key === key);
        expect(t, "every frame sprat writes is one of Aseprite's, at the same pixels").toBeDefined();
        expect(o.sourceSize).toEqual(t!.r.sourceSize);
        expect(o.duration).toBe(t!.r.duration);
        expect(o.rotated).toBe(false);
        // Trimmed as `aseprite --trim` writes it.
        expect({ trimmed: o.trimmed, spriteSourceSize: o.spriteSourceSize }).toEqual(trimmedPlace(onCanvas(theirs, t!.r)));
        expect([o.frame.w, o.frame.h]).toEqual([o.spriteSourceSize.w, o.spriteSourceSize.h]);
      }
      // Every Aseprite frame is written.
      const ourKeys = new Set(played(ours).map((f) => f.key));
      for (const f of theirFrames) expect(ourKeys.has(f.key)).toBe(true);
      const tagNames = (m: Record<string, any>) => (m.frameTags ?? []).map((t: { name: string }) => t.name);
      for (const n of tagNames(theirs.meta)) expect(tagNames(ours.meta)).toContain(n);
      expect(ours.meta.layers).toEqual(theirs.meta.layers);
      expect([ours.meta.app, ours.meta.format, ours.meta.scale]).toEqual(['https://www.aseprite.org/', 'RGBA8888', '1']);
      // The origin is the canvas's corner, as Aseprite has it: no origin slice.
      expect(ours.meta.slices.filter((s: { name: string }) => s.name === 'origin')).toEqual([]);
    });
  }

  it('a 32x32 canvas drawn in its middle keeps its canvas and offset (Aseprite JSON and TexturePacker)', async () => {
    const file = path.join(INTEROP, 'AristurtleDev+AsepriteDotNet/tests/AsepriteDotNet.Tests/Files/rgba-pixel-test.aseprite');
    for (const to of ['aseprite', 'texturepacker']) {
      const s = await convert(file, path.join(tmp, `rgba-${to}.json`), '--to', to);
      expect(s.frames[0]).toMatchObject({
        trimmed: true,
        spriteSourceSize: { x: 8, y: 8, w: 16, h: 16 },
        sourceSize: { w: 32, h: 32 },
      });
      if (to === 'texturepacker') expect(s.frames[0]!.pivot).toEqual({ x: 0, y: 0 });
    }
  });

  it('lists the layers of the file by name, with groups, opacity and blend modes; hidden ones left out', async () => {
    const file = path.join(INTEROP, 'elgopher+aseprite-file/src/test/resources/layers.aseprite');
    const s = await convert(file, path.join(tmp, 'layers.json'), '--to', 'aseprite');
    const layers = s.meta.layers as { name: string; group?: string; opacity?: number; blendMode?: string }[];
    expect(layers.map((l) => l.name)).not.toContain('Layer 1');
    const model = (await (
      await import('../../src/interop/aseprite/file.js')
    ).aseHandler.toModel!(
      (await import('../../src/interop/aseprite/file.js')).aseHandler.read(new Uint8Array(fs.readFileSync(file))),
      memoryLoader({}),
    )) as SpriteModel;
    const visible = model.layers!.filter((l) => l.visible !== false);
    expect(model.layers!.length).toBeGreaterThan(visible.length);
    expect(layers.map((l) => [l.name, l.group])).toEqual(visible.map((l) => [l.name, l.group]));
    expect(layers.some((l) => l.group !== undefined)).toBe(true);
    expect(layers.some((l) => l.blendMode !== undefined && l.blendMode !== 'normal')).toBe(true);
    expect(layers.some((l) => l.opacity !== undefined && l.opacity < 255)).toBe(true);
    // Read back: the same layers in the model (opacity 0-1).
    const back = (await asepriteHandler.toModel!(
      asepriteHandler.read(new Uint8Array(fs.readFileSync(path.join(tmp, 'layers.json')))),
      memoryLoader({ 'layers.png': new Uint8Array(fs.readFileSync(path.join(tmp, 'layers.png'))) }),
    )) as SpriteModel;
    expect(back.layers).toEqual(
      visible.map((l) => {
        const o: Record<string, unknown> = { name: l.name };
        if (l.opacity !== undefined) o.opacity = Math.round(l.opacity * 255) / 255;
        if (l.blendMode !== undefined) o.blendMode = l.blendMode;
        if (l.group !== undefined) o.group = l.group;
        return o;
      }),
    );
  });
});

describe("sprat's TexturePacker JSON places frames as TexturePacker does", () => {
  it('gold_anim.json (trimmed TexturePacker) through Aseprite JSON and back keeps every canvas and trim', async () => {
    const src = path.join(INTEROP, 'pixijs+particle-emitter/docs/examples/images/gold_anim.json');
    const theirs = readSheet(src);
    const ase = await convert(src, path.join(tmp, 'gold-ase.json'), '--to', 'aseprite');
    const back = await convert(path.join(tmp, 'gold-ase.json'), path.join(tmp, 'gold-tp.json'), '--to', 'texturepacker');
    for (const s of [ase, back]) {
      expect(s.frames.length).toBe(theirs.frames.length);
      s.frames.forEach((o, i) => {
        const t = theirs.frames[i]!;
        expect([o.trimmed, o.spriteSourceSize, o.sourceSize]).toEqual([t.trimmed, t.spriteSourceSize, t.sourceSize]);
        expect(Buffer.from(onCanvas(s, o).data).equals(Buffer.from(onCanvas(theirs, t).data))).toBe(true);
      });
    }
    back.frames.forEach((o, i) => expect(o.pivot).toEqual(theirs.frames[i]!.pivot));
  });

  it('a 16x16 sprite keeps its 16x16 sourceSize', async () => {
    const file = path.join(PEACHY, 'man.aseprite');
    const s = await convert(file, path.join(tmp, 'man-tp.json'), '--to', 'texturepacker');
    for (const f of s.frames) {
      expect(f.sourceSize).toEqual({ w: 16, h: 24 });
      expect(f.trimmed).toBe(f.spriteSourceSize.w !== 16 || f.spriteSourceSize.h !== 24);
    }
  });
});

describe('formats whose frames have a natural box export it as the canvas', () => {
  it('Solarus: each direction frame width x height around its origin', async () => {
    const s = await convert(path.join(SAMPLES, 'solarus/sprites/slime.dat'), path.join(tmp, 'slime-tp.json'), '--to', 'texturepacker');
    // slime.dat: 16x16 frames, origin (8, 13).
    for (const f of s.frames) {
      expect(f.sourceSize).toEqual({ w: 16, h: 16 });
      expect(f.pivot).toEqual({ x: 8 / 16, y: 13 / 16 });
    }
    expect(s.frames.some((f) => f.trimmed && f.spriteSourceSize.y > 0)).toBe(true);
    const a = await convert(path.join(SAMPLES, 'solarus/sprites/slime.dat'), path.join(tmp, 'slime-ase.json'), '--to', 'aseprite');
    for (const f of a.frames) expect(f.sourceSize).toEqual({ w: 16, h: 16 });
    expect(a.meta.slices[0].keys[0].pivot).toEqual({ x: 8, y: 13 });
  });

  it('Hallgeir: the frame size', async () => {
    const s = await convert(
      path.join(SAMPLES, 'hallgeir/hero.spr'),
      path.join(tmp, 'hero-tp.json'),
      '--to',
      'texturepacker',
      '--frame-size',
      '16x16',
    );
    for (const f of s.frames) {
      expect(f.sourceSize).toEqual({ w: 16, h: 16 });
      expect(f.pivot).toEqual({ x: 0, y: 0 });
    }
  });
});

describe('the canvas round trip through the sheet formats', () => {
  const sheet = patternImage(40, 40, 3);
  /** A model whose frames draw a part of the sheet, each on its own canvas around the origin. */
  const arb = fc.array(
    fc.record({
      sx: fc.integer({ min: 0, max: 30 }),
      sy: fc.integer({ min: 0, max: 30 }),
      sw: fc.integer({ min: 1, max: 10 }),
      sh: fc.integer({ min: 1, max: 10 }),
      dx: fc.integer({ min: 0, max: 6 }),
      dy: fc.integer({ min: 0, max: 6 }),
      ox: fc.integer({ min: -4, max: 12 }),
      oy: fc.integer({ min: -4, max: 12 }),
      pw: fc.integer({ min: 0, max: 6 }),
      ph: fc.integer({ min: 0, max: 6 }),
    }),
    { minLength: 1, maxLength: 5 },
  );
  for (const handler of [asepriteHandler, texturePackerHandler] as const) {
    it(`${handler.name}: write, read back: the same canvases and pixels`, async () => {
      await fc.assert(
        fc.asyncProperty(arb, async (list) => {
          const frames: ModelFrame[] = list.map((f) => ({
            durationMs: 100,
            // The part sits inside the canvas, `dx`/`dy` in from its corner; the origin `ox`/`oy` in from it.
            parts: [{ sheet: 0, sx: f.sx, sy: f.sy, sw: f.sw, sh: f.sh, x: f.dx - f.ox, y: f.dy - f.oy }],
            canvas: { x: -f.ox, y: -f.oy, width: f.dx + f.sw + f.pw, height: f.dy + f.sh + f.ph },
          }));
          const model: SpriteModel = {
            kind: 'sprite',
            name: 'gen',
            sheets: [{ path: 'gen.png', image: sheet, nearest: true }],
            animations: [{ name: 'a', frames, loopTo: 0 }],
          };
          const doc = handler.fromModel!(model, {}) as AsepriteDoc | TexturePackerDoc;
          const files = await handler.writeFiles!(doc as never, 'gen.json', {});
          const loader = memoryLoader(Object.fromEntries(files.map((f) => [f.name, f.bytes])));
          const json = files.find((f) => f.name.endsWith('.json'))!.bytes;
          const back = (await handler.toModel!(handler.read(json) as never, loader)) as SpriteModel;
          const got = back.animations[0]!.frames;
          expect(got.length).toBe(frames.length);
          const shared = handler.name === 'aseprite';
          // Aseprite: one canvas, the union of the frames' (a sprite has one canvas); TexturePacker: each frame's own.
          const union = frames.reduce(
            (u, f) => {
              const c = f.canvas!;
              return [Math.min(u[0]!, c.x), Math.min(u[1]!, c.y), Math.max(u[2]!, c.x + c.width), Math.max(u[3]!, c.y + c.height)];
            },
            [Infinity, Infinity, -Infinity, -Infinity],
          );
          got.forEach((g, i) => {
            const want = shared
              ? { x: union[0], y: union[1], width: union[2]! - union[0]!, height: union[3]! - union[1]! }
              : frames[i]!.canvas;
            expect(g.canvas).toEqual(want);
            const a = bakeFrame(model, frames[i]!);
            const b = bakeFrame(back, g);
            expect([b.originX, b.originY, b.image.width, b.image.height]).toEqual([a.originX, a.originY, a.image.width, a.image.height]);
            expect(Buffer.from(b.image.data).equals(Buffer.from(a.image.data))).toBe(true);
          });
          // Written again, the same frame records.
          const again = handler.fromModel!(back, {}) as AsepriteDoc | TexturePackerDoc;
          expect(again.frames.map((f) => [f.trimmed, f.spriteSourceSize, f.sourceSize])).toEqual(
            doc.frames.map((f) => [f.trimmed, f.spriteSourceSize, f.sourceSize]),
          );
        }),
        { numRuns: 40 },
      );
    });
  }
});
