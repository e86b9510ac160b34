/**
 * src/render/qtraster.ts, the port of Qt's raster engine that draws Tiled's
 * shape objects (compared with tmxrasterizer itself in
 * test/interop/tiled-objects.test.ts): its pieces on cases worked by hand.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createImage } from '../../src/render/image.js';
import { grayRaster, outlineContours, QTransform, QtPainter, rasterizeLine, strokeOutline } from '../../src/render/qtraster.js';

const CLIP = { x0: 0, y0: 0, x1: 8, y1: 8 };

function spans(run: (sink: (x: number, y: number, len: number, c: number) => void) => void): Map<string, number> {
  const out = new Map<string, number>();
  run((x, y, len, c) => {
    for (let i = 0; i < len; i++) out.set(`${x + i},${y}`, c);
  });
  return out;
}

describe('qtraster', () => {
  it('gray raster: a square covers its pixels wholly (255), a half pixel half (128), even-odd holes stay empty', () => {
    const sq = (x: number, y: number, s: number) => [x, y, x + s, y, x + s, y + s, x, y + s].map((v) => v * 64);
    const full = spans((sink) => grayRaster([sq(1, 1, 2)], false, CLIP, sink));
    expect([...full.values()]).toEqual([255, 255, 255, 255]);
    const half = spans((sink) => grayRaster([[64, 64, 96, 64, 96, 128, 64, 128]], false, CLIP, sink));
    expect(half.get('1,1')).toBe(128);
    const ring = spans((sink) => grayRaster([sq(0, 0, 4), sq(1, 1, 2)], true, CLIP, sink));
    expect(ring.has('1,1')).toBe(false);
    expect(ring.get('0,0')).toBe(255);
  });

  it('outline mapper: points rounded to 26.6 fixed point', () => {
    expect(
      outlineContours([
        { op: 'M', x: 0.5, y: 0.25 },
        { op: 'L', x: 1.999, y: 0 },
      ]),
    ).toEqual([[32, 16, 128, 0]]);
  });

  it('QTransform: quarter turns are exact, translations add as Qt adds them', () => {
    const t = new QTransform().translate(10, 20).rotate(90).translate(2, 3);
    expect(t.map(1, 0)).toEqual([7, 23]);
    expect(new QTransform().noShear()).toBe(true);
  });

  it('rectangle fill (QRasterizer): whole pixels at 255, a fractional edge by its width in 1/255', () => {
    const c = spans((sink) => rasterizeLine(1, 2, 3.5, 2, 2 / 2.5, CLIP, sink));
    expect(c.get('1,1')).toBe(255);
    expect(c.get('2,2')).toBe(255);
    expect(c.get('3,1')).toBe(127);
    expect(c.has('4,1')).toBe(false);
  });

  it('stroker: a closed square of width 2 gives two loops; a point, one round dot', () => {
    const square = strokeOutline(
      [
        { op: 'M', x: 2, y: 2 },
        { op: 'L', x: 6, y: 2 },
        { op: 'L', x: 6, y: 6 },
        { op: 'L', x: 2, y: 6 },
        { op: 'L', x: 2, y: 2 },
      ],
      2,
    );
    expect(square.filter((e) => e.op === 'M')).toHaveLength(2);
    const dot = strokeOutline(
      [
        { op: 'M', x: 4, y: 4 },
        { op: 'L', x: 4 + 1 / 63, y: 4 },
      ],
      8,
    );
    expect(dot.filter((e) => e.op === 'C')).toHaveLength(4);
  });

  it('painter: an opaque pen over a whole-pixel rectangle outline paints its straight colour', () => {
    const img = createImage(8, 8);
    const p = new QtPainter(img, 0, 0, CLIP);
    p.pen = { colour: [255, 0, 0, 255], width: 2 };
    p.drawRect(2, 2, 4, 4);
    expect([...img.data.subarray((2 * 8 + 3) * 4, (2 * 8 + 3) * 4 + 4)]).toEqual([255, 0, 0, 255]);
    // Inside, off the line: untouched.
    expect(img.data[(4 * 8 + 4) * 4 + 3]).toBe(0);
  });
});

describe('gray raster: cells in place or only the cells edges cross', () => {
  it('give the same coverage for any contours, by either fill rule (fast-check)', () => {
    const point = fc.integer({ min: -200, max: 1400 });
    const contour = fc.array(fc.tuple(point, point), { minLength: 2, maxLength: 12 }).map((ps) => ps.flat());
    fc.assert(
      fc.property(fc.array(contour, { minLength: 1, maxLength: 3 }), fc.boolean(), (contours, evenOdd) => {
        const clip = { x0: 0, y0: 0, x1: 16, y1: 16 };
        const dense = spans((sink) => grayRaster(contours, evenOdd, clip, sink));
        const sparse = spans((sink) => grayRaster(contours, evenOdd, clip, sink, 0));
        expect(sparse).toEqual(dense);
      }),
      { numRuns: 300 },
    );
  });

  it('a stroke round a big box keeps only its cells: the 8000x8000 ring is drawn without 1 GiB of cells', () => {
    const ring = [0, 0, 512000, 0, 512000, 512000, 0, 512000];
    const inner = [64, 64, 64, 511936, 511936, 511936, 511936, 64];
    let pixels = 0;
    grayRaster([ring, inner], false, { x0: 0, y0: 0, x1: 8000, y1: 8000 }, (_x, _y, len) => {
      pixels += len;
    });
    // the one-pixel frame: 4 x 8000 - 4 pixels
    expect(pixels).toBe(4 * 8000 - 4);
  });
});
