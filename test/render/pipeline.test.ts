import { describe, expect, it, vi } from 'vitest';
import { Budget, LimitError, limitsFrom } from '../../src/binary/limits.js';
import { drawImage, setComposeKernels } from '../../src/render/compose.js';
import { createImage, fillImage, type RgbaImage } from '../../src/render/image.js';
import { compose, rotate, scale, translate } from '../../src/render/matrix.js';
import {
  drawPicture,
  type LazyImage,
  nextFrame,
  type Picture,
  type PicturePart,
  pictureCanvas,
  solidImage,
} from '../../src/render/pipeline.js';

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

describe('drawing on a surface (the SIMD kernels in place)', () => {
  /** A w × h sprite with a soft edge, opaque inside, transparent corners. */
  function disc(n: number, seed: number): RgbaImage {
    const img = createImage(n, n);
    const c = n / 2;
    for (let y = 0; y < n; y++) {
      for (let x = 0; x < n; x++) {
        const r = Math.hypot(x + 0.5 - c, y + 0.5 - c);
        img.data.set(
          [(x * seed) & 255, (y + seed) & 255, (x ^ y) & 255, r < c - 4 ? 255 : r < c ? Math.round(((c - r) / 4) * 255) : 0],
          (y * n + x) * 4,
        );
      }
    }
    return img;
  }

  it('gives the same frames as drawing each part onto a plain image with the JavaScript kernels, and leaves the sources alone', () => {
    const a = disc(96, 3);
    const b = disc(64, 7);
    const aCopy = a.data.slice();
    let decoded = 0;
    const lazy: LazyImage = {
      width: 64,
      height: 64,
      pixels: () => {
        decoded++;
        return b;
      },
    };
    const parts = (k: number): PicturePart[] => [
      { image: a, transform: translate(10 + k, 5) },
      {
        image: lazy,
        transform: compose(translate(-32, -32), rotate(25 + k * 10), scale(1.3), translate(90, 70)),
        filter: 'bilinear',
        opacity: 0.6,
      },
      { image: a, sx: 8, sy: 8, sw: 70, sh: 60, transform: compose(scale(-1.5, 1.5), translate(160, 20 + k)), opacity: 0.5 },
      { image: solidImage(9, 200, 30), transform: compose(scale(5, 4), translate(3, 3)) },
    ];
    const picture: Picture = {
      frames: [0, 1, 2].map((k) => ({
        parts: parts(k),
        overlays: [{ kind: 'line', x0: 0, y0: 0, x1: 40, y1: 30, colour: [255, 0, 255, 255] }],
      })),
      background: [20, 30, 40, 255],
      canvas: { x: 0, y: 0, width: 180, height: 150 },
    };
    const r = drawPicture(picture);
    expect(decoded).toBe(1);
    const was = setComposeKernels('js');
    try {
      for (let k = 0; k < 3; k++) {
        const want = createImage(180, 150);
        fillImage(want, 20, 30, 40, 255);
        for (const p of parts(k)) drawImage(want, p.image === lazy ? b : (p.image as RgbaImage), p);
        for (let i = 0; i <= 40; i++) {
          const x = Math.round((40 * i) / 40);
          const y = Math.round((30 * i) / 40);
          want.data.set([255, 0, 255, 255], (y * 180 + x) * 4);
        }
        const got = r.frames[k]!;
        // A plain image of its own (not a view of a WebAssembly memory).
        expect(got.data.buffer.byteLength).toBe(180 * 150 * 4);
        expect(Buffer.from(got.data).equals(Buffer.from(want.data))).toBe(true);
      }
    } finally {
      setComposeKernels(was);
    }
    expect(Buffer.from(a.data).equals(Buffer.from(aCopy))).toBe(true);
  });

  it('draws the same frames without WebAssembly SIMD (no surface)', async () => {
    const a = disc(100, 9);
    const picture: Picture = {
      frames: [{ parts: [{ image: a, transform: compose(rotate(17), translate(60, 10)), filter: 'bilinear', opacity: 0.7 }] }],
      background: [1, 2, 3, 255],
    };
    const want = drawPicture(picture).frames[0]!;
    const validate = WebAssembly.validate;
    vi.resetModules();
    WebAssembly.validate = () => false;
    try {
      const p = await import('../../src/render/pipeline.js');
      const got = p.drawPicture(picture).frames[0]!;
      expect(Buffer.from(got.data).equals(Buffer.from(want.data))).toBe(true);
    } finally {
      WebAssembly.validate = validate;
      vi.resetModules();
    }
  });

  it('draws many pictures in a row without running out of memory (each surface goes with its call)', () => {
    const a = disc(128, 5);
    for (let i = 0; i < 300; i++) {
      const r = drawPicture({
        frames: [{ parts: [{ image: a, transform: compose(rotate(i), translate(200, 200)), filter: 'bilinear' }] }],
        canvas: { x: 0, y: 0, width: 400, height: 400 },
      });
      expect(r.frames[0]!.data.buffer.byteLength).toBe(400 * 400 * 4);
    }
  });
});
