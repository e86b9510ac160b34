import { describe, expect, it } from 'vitest';
import { Budget, LimitError, limitsFrom } from '../../src/binary/limits.js';
import { createImage, type RgbaImage } from '../../src/render/image.js';
import { scale, translate } from '../../src/render/matrix.js';
import { drawPicture, nextFrame, pictureCanvas, solidImage, type LazyImage } from '../../src/render/pipeline.js';

function solid(w: number, h: number, px: number[]): RgbaImage {
  const img = createImage(w, h);
  for (let i = 0; i < w * h; i++) img.data.set(px, i * 4);
  return img;
}

const at = (img: RgbaImage, x: number, y: number) => [...img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4)];

describe('drawPicture', () => {
  it('draws parts into the union of their bounds and reports the origin', () => {
    const a = solid(4, 4, [255, 0, 0, 255]);
    const b = solid(2, 2, [0, 0, 255, 255]);
    const r = drawPicture({
      frames: [
        {
          parts: [
            { image: a, transform: translate(-5, -3) },
            { image: b, transform: translate(2, 2) },
          ],
        },
      ],
    });
    const img = r.frames[0]!;
    expect([img.width, img.height, r.originX, r.originY]).toEqual([9, 7, 5, 3]);
    expect(at(img, 0, 0)).toEqual([255, 0, 0, 255]);
    expect(at(img, 7, 5)).toEqual([0, 0, 255, 255]);
    expect(at(img, 8, 0)).toEqual([0, 0, 0, 0]);
    expect(r.delaysMs).toBeUndefined();
    const empty = drawPicture({ frames: [{ parts: [] }] });
    expect([empty.frames[0]!.width, empty.frames[0]!.height]).toEqual([1, 1]);
  });

  it('gives all frames of an animation one canvas, with the delays and loops of the timing rule', () => {
    const a = solid(2, 2, [255, 255, 255, 255]);
    const r = drawPicture({
      frames: [
        { parts: [{ image: a, transform: translate(-4, 0) }], delayMs: 50 },
        { parts: [{ image: a, transform: translate(3, 5) }], delayMs: Infinity },
      ],
      loops: 0,
    });
    expect([r.originX, r.originY]).toEqual([4, 0]);
    expect(r.frames.map((f) => [f.width, f.height])).toEqual([
      [9, 7],
      [9, 7],
    ]);
    expect(r.frames[0]!.data[3]).toBe(255);
    expect(r.frames[1]!.data[3]).toBe(0);
    expect(r.frames[1]!.data[(5 * 9 + 7) * 4 + 3]).toBe(255);
    expect(r.delaysMs).toEqual([50, 0]);
    expect(r.loops).toBe(0);
    expect([nextFrame(0, 2, 0), nextFrame(1, 2, 0), nextFrame(1, 2, 1), nextFrame(0, 1, undefined)]).toEqual([1, 0, null, null]);
  });

  it('uses a given canvas as is, a frame extent instead of its parts, a background and overlays', () => {
    const pic = {
      frames: [{ parts: [{ image: solidImage(9, 9, 9), transform: scale(100) }], extent: { x: 0, y: 0, width: 3, height: 2 } }],
    };
    expect(pictureCanvas(pic)).toEqual({ x: 0, y: 0, width: 3, height: 2 });
    const r = drawPicture({
      frames: [{ parts: [], overlays: [{ kind: 'line', x0: 0, y0: 1, x1: 3, y1: 1, colour: [1, 2, 3, 255] }] }],
      canvas: { x: 0, y: 0, width: 4, height: 3 },
      background: [7, 7, 7, 255],
    });
    const img = r.frames[0]!;
    expect([img.width, img.height]).toEqual([4, 3]);
    expect(at(img, 0, 0)).toEqual([7, 7, 7, 255]);
    expect(at(img, 3, 1)).toEqual([1, 2, 3, 255]);
  });
});

describe('budgets', () => {
  it('spends --max-pixels for the canvases of all frames together, before allocating', () => {
    const a = createImage(1, 1);
    const frames = Array.from({ length: 1000 }, () => ({ parts: [{ image: a, transform: scale(1000) }] }));
    // 1000 frames of 1000x1000: 10^9 pixels; refused before any canvas is made.
    const t = Date.now();
    expect(() => drawPicture({ frames, what: 'the test' })).toThrow(LimitError);
    expect(() => drawPicture({ frames, what: 'the test' })).toThrow(
      /^the test \(1000 frames of 1000x1000\) would need 1000000000 pixels, more than the limit of 67108864 \(raise it with --max-pixels\)$/,
    );
    expect(Date.now() - t).toBeLessThan(1000);
    expect(() =>
      drawPicture({ frames: [{ parts: [{ image: a, transform: scale(100) }] }] }, new Budget(limitsFrom({ 'max-pixels': '9999' }))),
    ).toThrow(/100x100.*--max-pixels/);
    expect(
      drawPicture({ frames: [{ parts: [{ image: a, transform: scale(100) }] }] }, new Budget(limitsFrom({ 'max-pixels': '10000' })))
        .frames[0]!.width,
    ).toBe(100);
  });

  it('spends --max-draw-pixels for the clipped area of every draw, before drawing', () => {
    const big = solid(64, 64, [1, 1, 1, 255]);
    const parts = Array.from({ length: 10 }, () => ({ image: big, transform: scale(2) }));
    const budget = new Budget(limitsFrom({ 'max-draw-pixels': String(128 * 128 * 5) }));
    // Listed parts: all paid for before the first draw, so nothing is drawn.
    expect(() => drawPicture({ frames: [{ parts }] }, budget)).toThrow(
      /^drawing the picture \(128x128\) would need 163840 pixels.*--max-draw-pixels/,
    );
    expect(budget.left('maxDrawPixels')).toBe(128 * 128 * 5);
    // Parts from a generator: each paid for just before it is drawn.
    let made = 0;
    const lazyParts = {
      *[Symbol.iterator]() {
        for (const p of parts) {
          made++;
          yield p;
        }
      },
    };
    expect(() => drawPicture({ frames: [{ parts: lazyParts }], canvas: { x: 0, y: 0, width: 128, height: 128 } }, budget)).toThrow(
      /--max-draw-pixels/,
    );
    expect([made, budget.left('maxDrawPixels')]).toEqual([6, 0]);
    // Off-canvas parts cost nothing.
    const off = Array.from({ length: 10 }, () => ({ image: big, transform: translate(1000, 1000) }));
    const ok = new Budget(limitsFrom({ 'max-draw-pixels': '1' }));
    drawPicture({ frames: [{ parts: off }], canvas: { x: 0, y: 0, width: 4, height: 4 } }, ok);
  });

  it('decodes a lazy image once, after spending its pixels', () => {
    let decoded = 0;
    const lazy: LazyImage = { width: 2, height: 2, pixels: () => (decoded++, solid(2, 2, [5, 6, 7, 255])) };
    const r = drawPicture({ frames: [{ parts: [{ image: lazy }, { image: lazy, transform: translate(2, 0) }] }] });
    expect(decoded).toBe(1);
    expect(at(r.frames[0]!, 3, 1)).toEqual([5, 6, 7, 255]);
    const huge: LazyImage = {
      width: 100000,
      height: 100000,
      pixels: () => {
        throw new Error('decoded');
      },
    };
    expect(() => drawPicture({ frames: [{ parts: [{ image: huge }] }], canvas: { x: 0, y: 0, width: 1, height: 1 } })).toThrow(
      /--max-pixels/,
    );
  });
});
