import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { div255, drawImage, type DrawOptions } from '../../src/render/compose.js';
import type { RgbaImage } from '../../src/render/image.js';
import { compose, rotate, scale, translate } from '../../src/render/matrix.js';
import { drawArbitraries } from '../helpers/draw-arbitraries.js';
import { refBlend, refDrawImage } from './reference.js';

/** Alpha biased towards 0 and 255, as in real sprites. */
const channel = fc.integer({ min: 0, max: 255 });
const alpha = fc.oneof(fc.constant(0), fc.constant(255), channel);

function image(maxW: number, maxH: number, unaligned = fc.boolean()): fc.Arbitrary<RgbaImage> {
  return fc.record({ w: fc.integer({ min: 1, max: maxW }), h: fc.integer({ min: 1, max: maxH }), off: unaligned }).chain(({ w, h, off }) =>
    fc.array(fc.tuple(channel, channel, channel, alpha), { minLength: w * h, maxLength: w * h }).map((px) => {
      // Sometimes the pixels start at an odd byte offset of a larger buffer (no 32-bit view possible).
      const buf = new Uint8Array(w * h * 4 + (off ? 1 : 0));
      const data = off ? buf.subarray(1) : buf;
      px.forEach((p, i) => data.set(p, i * 4));
      return { width: w, height: h, data };
    }),
  );
}

const { small, options } = drawArbitraries({ maxShift: 20, maxMatrixShift: 16, maxSource: 14 });

function maxDiff(a: Uint8Array, b: Uint8Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

function copy(img: RgbaImage): RgbaImage {
  return { ...img, data: img.data.slice() };
}

describe('drawImage against the reference compositor', () => {
  // Nearest and blits are byte-exact; bilinear is exact except for opaque quads, where a shorter
  // (mathematically equal) formula may round the other way: within 1 per channel.
  it('gives the same bytes for random images, rectangles, transforms, opacities and filters', () => {
    fc.assert(
      fc.property(image(12, 12), image(24, 24), options, (src, dst, opts) => {
        const fast = copy(dst);
        const ref = copy(dst);
        drawImage(fast, src, opts);
        refDrawImage(ref, src, opts);
        if (opts.filter === 'nearest') expect([...fast.data]).toEqual([...ref.data]);
        else expect(maxDiff(fast.data, ref.data)).toBeLessThanOrEqual(1);
      }),
      { numRuns: 1500 },
    );
  });

  it('is exact for plain blits of larger images at integer offsets', () => {
    fc.assert(
      fc.property(image(40, 30), image(48, 40), small, small, fc.constantFrom(1, 0.3), (src, dst, x, y, op) => {
        const fast = copy(dst);
        const ref = copy(dst);
        drawImage(fast, src, { transform: translate(x, y), opacity: op });
        refDrawImage(ref, src, { transform: translate(x, y), opacity: op });
        expect(Buffer.from(fast.data).equals(Buffer.from(ref.data))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('stays within 1 of the reference for larger rotated and scaled bilinear draws', () => {
    fc.assert(
      fc.property(
        image(40, 30),
        fc.double({ min: -180, max: 180, noNaN: true }),
        fc.double({ min: 0.4, max: 2.5, noNaN: true }),
        fc.constantFrom(1, 0.6),
        (src, r, k, op) => {
          const dst = { width: 64, height: 64, data: new Uint8Array(64 * 64 * 4).fill(90) };
          const opts: DrawOptions = {
            transform: compose(translate(-20, -15), rotate(r), scale(k), translate(32, 32)),
            filter: 'bilinear',
            opacity: op,
          };
          const fast = copy(dst);
          const ref = copy(dst);
          drawImage(fast, src, opts);
          refDrawImage(ref, src, opts);
          expect(maxDiff(fast.data, ref.data)).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('stays within 1 of the reference for opaque hard-edged images (the fixed-point interior of bilinear rows)', () => {
    // Black/white texels make every interpolation error visible; long rows cross many 16-pixel anchors.
    const bw = fc.constantFrom(0, 255);
    const opaqueImage = fc.record({ w: fc.integer({ min: 2, max: 40 }), h: fc.integer({ min: 2, max: 40 }) }).chain(({ w, h }) =>
      fc.array(fc.tuple(bw, bw, bw), { minLength: w * h, maxLength: w * h }).map((px) => {
        const data = new Uint8Array(w * h * 4);
        px.forEach((p, i) => data.set([...p, 255], i * 4));
        return { width: w, height: h, data };
      }),
    );
    fc.assert(
      fc.property(
        opaqueImage,
        fc.oneof(fc.constantFrom(0, 90, 180, 1e-7, -1e-9), fc.double({ min: -180, max: 180, noNaN: true })),
        fc.constantFrom(0.3, 0.5, 1, 2, 1 / 3, 3, 4.5),
        fc.integer({ min: -40, max: 40 }),
        fc.integer({ min: 0, max: 4096 }),
        fc.constantFrom(1, 0.6),
        (src, r, k, t, f, op) => {
          const dst = { width: 96, height: 96, data: new Uint8Array(96 * 96 * 4).fill(200) };
          const m = compose(rotate(r), scale(k), translate(t + f / 4096 + 48, 48 - t / 2 + f / 8));
          const opts: DrawOptions = { transform: m, filter: 'bilinear', opacity: op };
          const fast = copy(dst);
          const ref = copy(dst);
          drawImage(fast, src, opts);
          refDrawImage(ref, src, opts);
          expect(maxDiff(fast.data, ref.data)).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: 80 },
    );
  });

  it('is exact for blits and nearest scales of wide images made of long opaque, transparent and soft runs', () => {
    // The word kernels copy opaque runs (a typed-array copy from 32 texels) and skip transparent
    // runs four texels at a time: runs of every length, onto opaque and see-through destinations.
    const run = fc.tuple(fc.constantFrom(0, 255, 255, 128, 1, 254), fc.integer({ min: 1, max: 70 }));
    const runsImage = fc
      .record({
        w: fc.integer({ min: 1, max: 120 }),
        h: fc.integer({ min: 1, max: 6 }),
        runs: fc.array(run, { minLength: 1, maxLength: 12 }),
      })
      .map(({ w, h, runs }) => {
        const data = new Uint8Array(w * h * 4);
        let i = 0;
        let k = 0;
        while (i < w * h) {
          const [a, len] = runs[k++ % runs.length]!;
          for (let j = 0; j < len && i < w * h; j++, i++) data.set([(i * 7) & 255, (i * 13) & 255, (i * 29) & 255, a], i * 4);
        }
        return { width: w, height: h, data };
      });
    const dstImage = fc.constantFrom(255, 0, 77).map((a) => {
      const data = new Uint8Array(130 * 8 * 4);
      for (let i = 0; i < data.length; i += 4) data.set([i & 255, (i >> 3) & 255, 50, a === 77 ? (i >> 2) & 255 : a], i);
      return { width: 130, height: 8, data };
    });
    fc.assert(
      fc.property(
        runsImage,
        dstImage,
        fc.integer({ min: -10, max: 20 }),
        fc.integer({ min: -3, max: 4 }),
        fc.constantFrom(1, 0.6),
        fc.constantFrom(1, 2, -1, 0.5),
        (src, dst, x, y, op, k) => {
          const opts: DrawOptions = {
            transform: k === 1 ? translate(x, y) : compose(scale(k, 1), translate(x + (k < 0 ? src.width : 0), y)),
            opacity: op,
          };
          const fast = copy(dst);
          const ref = copy(dst);
          drawImage(fast, src, opts);
          refDrawImage(ref, src, opts);
          expect(Buffer.from(fast.data).equals(Buffer.from(ref.data))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('draws an image onto itself as if from a copy', () => {
    fc.assert(
      fc.property(image(10, 10, fc.constant(false)), small, small, (img, x, y) => {
        const a = copy(img);
        const b = copy(img);
        drawImage(a, a, { transform: translate(x, y) });
        refDrawImage(b, copy(img), { transform: translate(x, y) });
        expect([...a.data]).toEqual([...b.data]);
      }),
      { numRuns: 100 },
    );
  });
});

describe('source-over rounding', () => {
  it('div255 is round(x / 255) for every product of two bytes', () => {
    for (let x = 0; x <= 65025; x++) if (div255(x) !== Math.round(x / 255)) throw new Error(`div255(${x})`);
  });

  it('the reference blend is within 0.5 of the real-valued source-over', () => {
    fc.assert(
      fc.property(fc.tuple(channel, channel, channel, channel), fc.tuple(channel, channel, channel, channel), (s, d) => {
        const px = new Uint8Array(d);
        refBlend(px, 0, s[0], s[1], s[2], s[3]);
        if (s[3] === 0) {
          expect([...px]).toEqual(d);
          return;
        }
        const sa = s[3] / 255;
        const da = d[3] / 255;
        const oa = sa + da * (1 - sa);
        expect(Math.abs(px[3]! - oa * 255)).toBeLessThanOrEqual(0.5);
        for (let c = 0; c < 3; c++) {
          const exact = (s[c]! * sa + d[c]! * da * (1 - sa)) / oa;
          expect(Math.abs(px[c]! - exact)).toBeLessThanOrEqual(0.5 + 1e-9);
        }
      }),
      { numRuns: 3000 },
    );
  });
});
