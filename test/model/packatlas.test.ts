/**
 * packAtlas (src/model/packatlas.ts): every frame read back from its page
 * (trim and rotation undone) is its source canvas; stored rectangles with
 * their extrusion and padding never overlap and stay inside the border;
 * extrusion repeats the edge; identical frames are stored once; the page
 * size rules and multipack hold.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OptionError } from '../../src/binary/errors.js';
import { Budget, LimitError } from '../../src/binary/limits.js';
import type { Atlas, AtlasFrame } from '../../src/model/atlas.js';
import { type AtlasSourceFrame, packAtlas, type PackAtlasOptions } from '../../src/model/packatlas.js';
import { createImage, type RgbaImage } from '../../src/render/image.js';
import { getAtlasExporter } from '../../src/registry.js';

const px = (img: RgbaImage, x: number, y: number) => [...img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4)];

/** The frame's canvas as an engine draws it from the page: stored pixels placed back on `sourceSize`, turned back when rotated. */
function readBack(atlas: Atlas, f: AtlasFrame): RgbaImage {
  const out = createImage(f.sourceSize.w, f.sourceSize.h);
  const page = atlas.pages[f.page]!.image;
  const { x: ox, y: oy, w, h } = f.spriteSourceSize;
  for (let cy = 0; cy < h; cy++)
    for (let cx = 0; cx < w; cx++) {
      // Stored turned a quarter clockwise: content (cx, cy) is at stored (h - 1 - cy, cx); counterclockwise: (cy, w - 1 - cx).
      const ccw = atlas.turn === 'counterclockwise';
      const sx = f.rotated ? f.frame.x + (ccw ? cy : h - 1 - cy) : f.frame.x + cx;
      const sy = f.rotated ? f.frame.y + (ccw ? w - 1 - cx : cx) : f.frame.y + cy;
      out.data.set(px(page, sx, sy), ((oy + cy) * out.width + ox + cx) * 4);
    }
  return out;
}

/** Differences between two canvases, transparent pixels equal whatever their colour. */
function differences(a: RgbaImage, b: RgbaImage): number {
  if (a.width !== b.width || a.height !== b.height) return Infinity;
  let n = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    if (a.data[i + 3] === 0 && b.data[i + 3] === 0) continue;
    for (let c = 0; c < 4; c++) if (a.data[i + c] !== b.data[i + c]) n++;
  }
  return n;
}

/** A w x h canvas with an opaque patterned box (seeded) inside a transparent margin. */
function frame(name: string, w: number, h: number, box: { x: number; y: number; w: number; h: number }, seed: number): AtlasSourceFrame {
  const img = createImage(w, h);
  for (let y = box.y; y < Math.min(h, box.y + box.h); y++)
    for (let x = box.x; x < Math.min(w, box.x + box.w); x++)
      img.data.set(
        [(seed * 53 + x * 31) & 255, (seed * 17 + y * 43) & 255, (x * y * 11 + seed) & 255, 128 + ((x + y + seed) % 128)],
        (y * w + x) * 4,
      );
  return { name, image: img };
}

const frameArb = fc
  .record({
    w: fc.integer({ min: 1, max: 12 }),
    h: fc.integer({ min: 1, max: 12 }),
    bx: fc.nat(4),
    by: fc.nat(4),
    bw: fc.nat(12),
    bh: fc.nat(12),
    seed: fc.nat(3),
  })
  .map((r) => ({ ...r, box: { x: Math.min(r.bx, r.w - 1), y: Math.min(r.by, r.h - 1), w: r.bw, h: r.bh } }));

const optionsArb = fc.record({
  trim: fc.constantFrom<PackAtlasOptions['trim']>(false, true, { alphaThreshold: 0 }),
  rotate: fc.boolean(),
  extrude: fc.nat(2),
  padding: fc.nat(2),
  border: fc.nat(2),
  pot: fc.boolean(),
  square: fc.boolean(),
  // Rotated frames turned clockwise (no exporter) or counterclockwise (libgdx's turn).
  exporter: fc.constantFrom(undefined, getAtlasExporter('libgdx')!),
});

function checkAtlas(atlas: Atlas, sources: readonly AtlasSourceFrame[], o: PackAtlasOptions): void {
  const e = o.extrude ?? 0;
  const pad = o.padding ?? 0;
  const border = o.border ?? 0;
  for (const [i, f] of atlas.frames.entries()) {
    expect(differences(readBack(atlas, f), sources[i]!.image), f.name).toBe(0);
    if (!o.trim) expect(f.trimmed).toBe(false);
  }
  for (const p of atlas.pages) {
    if (o.pot) expect([p.image.width, p.image.height].map((n) => Math.log2(n) % 1)).toEqual([0, 0]);
    if (o.square) expect(p.image.width).toBe(p.image.height);
  }
  // Stored rectangles (aliases share theirs): inside the border with their extrusion, apart by the padding.
  const storedFrames = atlas.frames.filter((f) => f.aliasOf === undefined);
  const rect = (f: AtlasFrame) => {
    const w = f.rotated ? f.frame.h : f.frame.w;
    const h = f.rotated ? f.frame.w : f.frame.h;
    return { x0: f.frame.x - e, y0: f.frame.y - e, x1: f.frame.x + w + e, y1: f.frame.y + h + e };
  };
  for (const [i, a] of storedFrames.entries()) {
    const r = rect(a);
    const page = atlas.pages[a.page]!.image;
    expect(r.x0 >= border && r.y0 >= border && r.x1 <= page.width - border && r.y1 <= page.height - border, a.name).toBe(true);
    for (const b of storedFrames.slice(i + 1)) {
      if (b.page !== a.page) continue;
      const q = rect(b);
      const apart = r.x1 + pad <= q.x0 || q.x1 + pad <= r.x0 || r.y1 + pad <= q.y0 || q.y1 + pad <= r.y0;
      expect(apart, `${a.name} and ${b.name}`).toBe(true);
    }
    // Every extrusion pixel repeats the nearest stored edge pixel.
    const sx1 = r.x1 - e - 1;
    const sy1 = r.y1 - e - 1;
    for (let y = r.y0; y < r.y1; y++)
      for (let x = r.x0; x < r.x1; x++) {
        const cx = Math.min(Math.max(x, r.x0 + e), sx1);
        const cy = Math.min(Math.max(y, r.y0 + e), sy1);
        if (cx !== x || cy !== y) expect(px(page, x, y), `${a.name} extrusion at ${x},${y}`).toEqual(px(page, cx, cy));
      }
  }
  // An alias points at the first frame with the same stored pixels, and at its rectangle.
  for (const f of atlas.frames)
    if (f.aliasOf !== undefined) {
      const first = atlas.frames[f.aliasOf]!;
      expect(first.aliasOf).toBeUndefined();
      expect([first.page, first.frame, first.rotated]).toEqual([f.page, f.frame, f.rotated]);
    }
}

describe('packAtlas', () => {
  it('every frame reads back as its source; rectangles apart, inside the border; extrusion repeats the edge (property)', () => {
    fc.assert(
      fc.property(fc.array(frameArb, { minLength: 1, maxLength: 8 }), optionsArb, (specs, o) => {
        const sources = specs.map((s, i) => frame(`f${i}`, s.w, s.h, s.box, s.seed));
        const [atlas] = packAtlas(sources, o);
        checkAtlas(atlas!, sources, o);
      }),
      { numRuns: 40 },
    );
  });

  it('trims to the visible box, keeping its place on the canvas (sourceSize, spriteSourceSize)', () => {
    const [atlas] = packAtlas([frame('a', 10, 8, { x: 3, y: 2, w: 4, h: 3 }, 1)], { trim: true });
    expect(atlas!.frames[0]).toMatchObject({
      trimmed: true,
      frame: { w: 4, h: 3 },
      spriteSourceSize: { x: 3, y: 2, w: 4, h: 3 },
      sourceSize: { w: 10, h: 8 },
    });
    expect([atlas!.pages[0]!.image.width, atlas!.pages[0]!.image.height]).toEqual([4, 3]);
  });

  it('an alpha threshold cuts faint edges off; an empty frame keeps one transparent pixel', () => {
    const f = frame('a', 6, 6, { x: 1, y: 1, w: 4, h: 4 }, 2);
    for (let x = 1; x < 5; x++) f.image.data[(1 * 6 + x) * 4 + 3] = 10; // the faint top row goes
    f.image.data[(3 * 6 + 2) * 4 + 3] = 10; // a faint pixel inside the box stays
    const [atlas] = packAtlas([f, { name: 'empty', image: createImage(5, 5) }], { trim: { alphaThreshold: 16 } });
    expect(atlas!.frames[0]!.spriteSourceSize).toEqual({ x: 1, y: 2, w: 4, h: 3 });
    expect(atlas!.frames[1]!.spriteSourceSize).toEqual({ x: 0, y: 0, w: 1, h: 1 });
  });

  it('identical trimmed pixels are stored once, at other places on their canvases', () => {
    const a = frame('a', 8, 8, { x: 0, y: 0, w: 3, h: 3 }, 1);
    const b = createImage(8, 8);
    // The same 3x3 pixels at (4, 5).
    for (let y = 0; y < 3; y++) b.data.set(a.image.data.subarray(y * 32, y * 32 + 12), ((y + 5) * 8 + 4) * 4);
    const [atlas] = packAtlas([a, { name: 'b', image: b }, frame('c', 4, 4, { x: 0, y: 0, w: 4, h: 4 }, 3)], { trim: true });
    expect(atlas!.frames[1]!.aliasOf).toBe(0);
    expect(atlas!.frames[1]!.spriteSourceSize).toMatchObject({ x: 4, y: 5 });
    expect(atlas!.frames[1]!.frame).toEqual(atlas!.frames[0]!.frame);
    expect(atlas!.frames[2]!.aliasOf).toBeUndefined();
    checkAtlas(atlas!, [a, { name: 'b', image: b }, frame('c', 4, 4, { x: 0, y: 0, w: 4, h: 4 }, 3)], { trim: true });
  });

  it('obeys the largest page and splits onto several pages with multipack; without it, one error naming --max-size', () => {
    const sources = Array.from({ length: 12 }, (_, i) => frame(`f${i}`, 10, 10, { x: 0, y: 0, w: 10, h: 10 }, i));
    const o = { maxWidth: 32, maxHeight: 32, padding: 1, multipack: true, pot: true };
    const [atlas] = packAtlas(sources, o);
    expect(atlas!.pages.length).toBeGreaterThan(1);
    expect(atlas!.pages.map((p) => p.file)).toEqual(atlas!.pages.map((_, i) => (i ? `atlas-${i}.png` : 'atlas.png')));
    for (const p of atlas!.pages) expect(p.image.width <= 32 && p.image.height <= 32).toBe(true);
    checkAtlas(atlas!, sources, o);
    expect(() => packAtlas(sources, { ...o, multipack: false })).toThrow(OptionError);
    expect(() => packAtlas(sources, { ...o, multipack: false })).toThrow(
      'the 12 frames do not fit on one 32x32 page: allow a larger page (--max-size) or pack onto several pages (--multipack)',
    );
    expect(() => packAtlas([frame('big', 40, 5, { x: 0, y: 0, w: 40, h: 5 }, 1)], o)).toThrow(
      'frame "big" (40x5) does not fit on a 32x32 page: allow a larger page (--max-size)',
    );
  });

  it('rotates only for an exporter that can say so', () => {
    const sources = [frame('tall', 2, 12, { x: 0, y: 0, w: 2, h: 12 }, 1)];
    expect(() => packAtlas(sources, { rotate: true, exporter: getAtlasExporter('godot4')! })).toThrow(
      'godot4 cannot say a frame is stored rotated: pack without rotation',
    );
    const [atlas] = packAtlas(sources, { rotate: true, exporter: getAtlasExporter('pixi')!, maxWidth: 12, maxHeight: 4 });
    expect(atlas!.frames[0]!.rotated).toBe(true);
    expect(atlas!.turn).toBeUndefined();
    checkAtlas(atlas!, sources, { rotate: true });
    // libgdx's rotated frames turn the other way: stored so, and the atlas says so.
    const opts = { rotate: true, exporter: getAtlasExporter('libgdx')!, maxWidth: 16, maxHeight: 4, extrude: 1 };
    const [left] = packAtlas(sources, opts);
    expect([left!.frames[0]!.rotated, left!.turn]).toEqual([true, 'counterclockwise']);
    checkAtlas(left!, sources, opts);
  });

  it('one atlas per scale, each frame scaled first; page files named @SCALEx', () => {
    const sources = [frame('a', 8, 6, { x: 2, y: 2, w: 4, h: 2 }, 1)];
    const atlases = packAtlas(sources, { trim: true, scale: [1, 0.5] });
    expect(atlases.map((a) => [a.scale, a.pages[0]!.file])).toEqual([
      [1, 'atlas.png'],
      [0.5, 'atlas@0.5x.png'],
    ]);
    expect(atlases[1]!.frames[0]!.sourceSize).toEqual({ w: 4, h: 3 });
    expect(() => packAtlas(sources, { scale: [0] })).toThrow(OptionError);
  });

  it('animations by frame name, durations carried to the frames; the same input gives the same atlas', () => {
    const sources = [0, 1, 2].map((i) => frame(`walk_${i}`, 5, 5, { x: i, y: 0, w: 3, h: 3 }, i));
    const anims = [{ name: 'walk', frames: [{ frame: 'walk_0', durationMs: 80 }, 'walk_1', 'walk_2'], loop: false }];
    const [a] = packAtlas(sources, { trim: true }, anims);
    expect(a!.animations).toEqual([{ name: 'walk', frames: [0, 1, 2], loop: false }]);
    expect(a!.frames.map((f) => f.durationMs)).toEqual([80, undefined, undefined]);
    const [b] = packAtlas(sources, { trim: true }, anims);
    expect(b).toEqual(a);
    expect(() => packAtlas(sources, {}, [{ name: 'x', frames: ['nope'] }])).toThrow(
      'animation "x" names a frame "nope" that is not packed',
    );
  });

  it('charges the budget before making pages', () => {
    const sources = [frame('a', 64, 64, { x: 0, y: 0, w: 64, h: 64 }, 1)];
    const budget = new Budget({ ...new Budget().limits, maxPixels: 1000 });
    expect(() => packAtlas(sources, { budget })).toThrow(LimitError);
  });
});
