import { OptionError } from '../../src/binary/errors.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drawSheet, type PackInput, type PackOptions, packRects } from '../../src/model/pack.js';

/** The box a placed rectangle takes on its page: its extrusion around it, its size turned when rotated. */
function room(r: PackInput, p: { x: number; y: number; rotated: boolean }, extrude: number) {
  const w = p.rotated ? r.h : r.w;
  const h = p.rotated ? r.w : r.h;
  return { x0: p.x - extrude, y0: p.y - extrude, x1: p.x + w + extrude, y1: p.y + h + extrude };
}

/** Every rule packRects promises, checked on one layout. */
function checkLayout(rects: PackInput[], o: PackOptions) {
  const r = packRects(rects, o);
  expect(packRects(rects, o)).toEqual(r);
  const pad = o.padding ?? 0;
  const border = o.border ?? 0;
  const e = o.extrude ?? 0;
  for (const pg of r.pages) {
    if (o.pot) {
      expect(Math.log2(pg.width) % 1).toBe(0);
      expect(Math.log2(pg.height) % 1).toBe(0);
    }
    if (o.square) expect(pg.width).toBe(pg.height);
    if (o.maxWidth) expect(pg.width).toBeLessThanOrEqual(o.maxWidth);
    if (o.maxHeight) expect(pg.height).toBeLessThanOrEqual(o.maxHeight);
    if (o.fixedWidth) expect(pg.width).toBe(o.fixedWidth);
  }
  if (!o.multipack) expect(r.pages.length).toBeLessThanOrEqual(1);
  const boxes = rects.map((a, i) => (a.w && a.h ? room(a, r.placements[i]!, e) : null));
  boxes.forEach((b, i) => {
    if (!b) return;
    const p = r.placements[i]!;
    if (!o.rotate) expect(p.rotated).toBe(false);
    const pg = r.pages[p.page]!;
    expect(b.x0).toBeGreaterThanOrEqual(border);
    expect(b.y0).toBeGreaterThanOrEqual(border);
    expect(b.x1).toBeLessThanOrEqual(pg.width - border);
    expect(b.y1).toBeLessThanOrEqual(pg.height - border);
    for (let j = 0; j < i; j++) {
      const c = boxes[j];
      if (!c || r.placements[j]!.page !== p.page) continue;
      const apart = b.x0 >= c.x1 + pad || c.x0 >= b.x1 + pad || b.y0 >= c.y1 + pad || c.y0 >= b.y1 + pad;
      expect(apart).toBe(true);
    }
  });
  return r;
}

const rectsArb = fc.array(fc.record({ w: fc.integer({ min: 0, max: 40 }), h: fc.integer({ min: 0, max: 40 }) }), { maxLength: 40 });
const optionsArb = fc.record(
  {
    padding: fc.integer({ min: 0, max: 3 }),
    border: fc.integer({ min: 0, max: 3 }),
    extrude: fc.integer({ min: 0, max: 2 }),
    rotate: fc.boolean(),
    pot: fc.boolean(),
    square: fc.boolean(),
  },
  { requiredKeys: [] },
);

describe('the MaxRects packer', () => {
  it('never overlaps two rectangles (with padding and extrusion), keeps them inside the border and the size rules, deterministically', () => {
    fc.assert(
      fc.property(rectsArb, optionsArb, (rects, o) => {
        checkLayout(rects, o);
      }),
      { numRuns: 120 },
    );
  });

  it('keeps a largest page and spreads onto several pages with multipack', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ w: fc.integer({ min: 1, max: 30 }), h: fc.integer({ min: 1, max: 30 }) }), { minLength: 1, maxLength: 40 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 2 }),
        (rects, rotate, padding) => {
          const r = checkLayout(rects, { maxWidth: 64, maxHeight: 48, multipack: true, rotate, padding });
          const area = rects.reduce((a, b) => a + b.w * b.h, 0);
          if (area > 64 * 48) expect(r.pages.length).toBeGreaterThan(1);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('says when one page is not enough, or a rectangle is larger than the largest page', () => {
    const many = Array.from({ length: 20 }, () => ({ w: 30, h: 30 }));
    expect(() => packRects(many, { maxWidth: 64, maxHeight: 64 })).toThrow(OptionError);
    expect(() => packRects(many, { maxWidth: 64, maxHeight: 64 })).toThrow(/do not fit on one 64x64 page/);
    expect(() => packRects([{ w: 70, h: 10 }], { maxWidth: 64, maxHeight: 64 })).toThrow(/rectangle 0 \(70x10\) does not fit/);
    // Rotated it fits.
    expect(packRects([{ w: 70, h: 10 }], { maxWidth: 16, maxHeight: 80, rotate: true }).placements[0]!.rotated).toBe(true);
  });

  it('fixes the width, and packs equal squares without waste', () => {
    const sq = Array.from({ length: 64 }, () => ({ w: 16, h: 16 }));
    expect(packRects(sq)).toMatchObject({ width: 128, height: 128 });
    expect(checkLayout(sq, { fixedWidth: 100 }).width).toBe(100);
    // 1 px apart: 8 columns of 17 px less the last gap.
    expect(packRects(sq, { padding: 1 }).width * packRects(sq, { padding: 1 }).height).toBeLessThanOrEqual(135 * 135);
  });

  it('beats a shelf layout on mixed sizes', () => {
    let s = 1;
    const rnd = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) >>> 8) % 60;
    const rects = Array.from({ length: 150 }, () => ({ w: 1 + rnd(), h: 1 + rnd() }));
    const area = rects.reduce((a, b) => a + b.w * b.h, 0);
    const r = packRects(rects);
    expect(area / (r.width * r.height)).toBeGreaterThan(0.93);
  });
});

describe('drawSheet', () => {
  const img = (w: number, h: number) => {
    const data = new Uint8Array(w * h * 4);
    for (let i = 0; i < w * h; i++) data.set([i * 7, i * 13, i * 29, 255], i * 4);
    return { width: w, height: h, data };
  };
  const px = (im: { width: number; data: Uint8Array }, x: number, y: number) => [
    ...im.data.subarray((y * im.width + x) * 4, (y * im.width + x) * 4 + 4),
  ];

  it('stores a rotated image turned 90 degrees clockwise', () => {
    const src = img(3, 2);
    const sheet = drawSheet([{ image: src, x: 1, y: 1, rotated: true }], 4, 5);
    // Clockwise: source (x, y) lands at (x0 + h - 1 - y, y0 + x).
    for (let y = 0; y < 2; y++) for (let x = 0; x < 3; x++) expect(px(sheet, 1 + 2 - 1 - y, 1 + x)).toEqual(px(src, x, y));
  });

  it('repeats the edge pixels around an extruded image, rotated or not', () => {
    const src = img(3, 2);
    for (const rotated of [false, true]) {
      const e = 2;
      const sheet = drawSheet([{ image: src, x: e, y: e, rotated, extrude: e }], (rotated ? 2 : 3) + 2 * e, (rotated ? 3 : 2) + 2 * e);
      // The stored (page-space) picture: the nearest stored pixel for every pixel of the extruded box.
      const w = rotated ? 2 : 3;
      const h = rotated ? 3 : 2;
      const stored = (x: number, y: number) => (rotated ? px(src, y, 2 - 1 - x) : px(src, x, y));
      for (let y = -e; y < h + e; y++)
        for (let x = -e; x < w + e; x++) {
          const cx = Math.min(w - 1, Math.max(0, x));
          const cy = Math.min(h - 1, Math.max(0, y));
          expect(px(sheet, e + x, e + y)).toEqual(stored(cx, cy));
        }
    }
  });
});
