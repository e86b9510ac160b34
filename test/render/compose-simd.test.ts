// The WebAssembly SIMD kernels (src/render/compose.wat) against the
// JavaScript paths of drawImage (the reference for them): the same bytes for
// every kernel and option combination.
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { composeSimdAvailable, type DrawOptions, drawImage, setComposeKernels } from '../../src/render/compose.js';
import { createCanvasImage, createImage, placeOnCanvas, type RgbaImage } from '../../src/render/image.js';
import { compose, rotate, scale, translate } from '../../src/render/matrix.js';
import { drawArbitraries } from '../helpers/draw-arbitraries.js';

/** Random RGB from a linear congruential sequence seeded by `seed`, each pixel's alpha from its random word. */
function fillPixels(data: Uint8Array, seed: number, alpha: (r: number) => number): void {
  let r = seed | 0;
  for (let i = 0; i < data.length; i += 4) {
    r = (Math.imul(r, 1103515245) + 12345) | 0;
    data[i] = r & 255;
    data[i + 1] = (r >> 8) & 255;
    data[i + 2] = (r >> 16) & 255;
    data[i + 3] = alpha(r);
  }
}

const channel = fc.integer({ min: 0, max: 255 });
const alpha = fc.oneof(fc.constant(0), fc.constant(255), channel);

function image(maxW: number, maxH: number, unaligned = fc.boolean()): fc.Arbitrary<RgbaImage> {
  return fc.record({ w: fc.integer({ min: 1, max: maxW }), h: fc.integer({ min: 1, max: maxH }), off: unaligned }).chain(({ w, h, off }) =>
    fc.array(fc.tuple(channel, channel, channel, alpha), { minLength: w * h, maxLength: w * h }).map((px) => {
      // Sometimes at an odd byte offset of a larger buffer (the JavaScript paths then take byte loops).
      const buf = new Uint8Array(w * h * 4 + (off ? 1 : 0));
      const data = off ? buf.subarray(1) : buf;
      px.forEach((p, i) => data.set(p, i * 4));
      return { width: w, height: h, data };
    }),
  );
}

/** A destination: opaque (the SIMD blend), see-through, or mixed. */
function canvas(maxW: number, maxH: number): fc.Arbitrary<RgbaImage> {
  return fc
    .record({
      w: fc.integer({ min: 1, max: maxW }),
      h: fc.integer({ min: 1, max: maxH }),
      kind: fc.constantFrom('opaque', 'clear', 'mixed'),
      seed: fc.integer(),
      off: fc.boolean(),
    })
    .map(({ w, h, kind, seed, off }) => {
      // Sometimes at an odd byte offset (the JavaScript paths then take byte loops and no bilinear runs).
      const data = off ? new Uint8Array(w * h * 4 + 1).subarray(1) : new Uint8Array(w * h * 4);
      fillPixels(data, seed, (r) => (kind === 'opaque' ? 255 : kind === 'clear' ? 0 : [0, 255, (r >> 24) & 255][(r >>> 29) % 3]!));
      return { width: w, height: h, data };
    });
}

const { options } = drawArbitraries({ maxShift: 30, maxMatrixShift: 30, maxSource: 40 });

/** A copy at the same alignment (byte offset mod 4). */
function copy(img: RgbaImage): RgbaImage {
  const off = img.data.byteOffset % 4;
  const data = new Uint8Array(img.data.length + off).subarray(off);
  data.set(img.data);
  return { ...img, data };
}

/** The draw through the JavaScript paths and through the WebAssembly kernels. */
function both(dst: RgbaImage, src: RgbaImage, opts: DrawOptions): [Uint8Array, Uint8Array] {
  const js = copy(dst);
  const wasm = copy(dst);
  const was = setComposeKernels('js');
  try {
    drawImage(js, src, opts);
    setComposeKernels('wasm');
    drawImage(wasm, src, opts);
  } finally {
    setComposeKernels(was);
  }
  return [js.data, wasm.data];
}

function expectSame(a: Uint8Array, b: Uint8Array): void {
  if (Buffer.from(a).equals(Buffer.from(b))) return;
  let i = 0;
  while (a[i] === b[i]) i++;
  expect(`${[...b.subarray(i & ~3, (i & ~3) + 4)]} at byte ${i}`).toBe(`${[...a.subarray(i & ~3, (i & ~3) + 4)]} at byte ${i}`);
}

const run = composeSimdAvailable() ? describe : describe.skip;

run('WebAssembly SIMD compositor kernels against the JavaScript paths', () => {
  afterEach(() => setComposeKernels('auto'));

  it('gives the same bytes for random images, rectangles, transforms, opacities and filters', () => {
    fc.assert(
      fc.property(image(40, 30), canvas(48, 40), options, (src, dst, opts) => {
        const [js, wasm] = both(dst, src, opts);
        expectSame(js, wasm);
      }),
      { numRuns: 1500 },
    );
  });

  it('is exact for blits of every width (remainder lanes) at integer offsets, clipped at every edge', () => {
    fc.assert(
      fc.property(
        image(37, 9, fc.constant(false)),
        canvas(41, 12),
        fc.integer({ min: -40, max: 45 }),
        fc.integer({ min: -10, max: 13 }),
        fc.constantFrom(1, 0.3, 0.999),
        (src, dst, x, y, op) => {
          const [js, wasm] = both(dst, src, { transform: translate(x, y), opacity: op });
          expectSame(js, wasm);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('is exact for mostly opaque sources onto mostly opaque canvases (the eight-texel paths), with and without opacity', () => {
    fc.assert(
      fc.property(
        image(45, 8, fc.constant(false)),
        canvas(50, 10),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: -12, max: 20 }),
        fc.integer({ min: -3, max: 5 }),
        fc.constantFrom(1, 0.5, 0.3, 0.999, 0.001),
        (src, dst, holes, x, y, op) => {
          // Opaque but for a few texels (and destination pixels) of another alpha.
          for (let i = 3; i < src.data.length; i += 4) if ((i >> 2) % (holes + 1) !== holes || !holes) src.data[i] = 255;
          for (let i = 3; i < dst.data.length; i += 4) if ((i >> 2) % 37 !== 5) dst.data[i] = 255;
          const [js, wasm] = both(dst, src, { transform: translate(x, y), opacity: op });
          expectSame(js, wasm);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('is exact for nearest and bilinear draws of larger images (rotations, scales, flips, quarter turns)', () => {
    fc.assert(
      fc.property(
        fc.tuple(image(70, 50), fc.boolean()).map(([img, opaque]) => {
          // Half of them opaque: the fixed-point interior of bilinear rows.
          if (opaque) for (let i = 3; i < img.data.length; i += 4) img.data[i] = 255;
          return img;
        }),
        canvas(96, 96),
        fc.oneof(fc.constantFrom(0, 90, 180, 270, 1e-7), fc.double({ min: -180, max: 180, noNaN: true })),
        fc.constantFrom(-2, -1, 0.3, 0.5, 1, 1.3, 2, 3),
        fc.constantFrom(1, 0.6),
        fc.constantFrom('nearest' as const, 'bilinear' as const),
        fc.integer({ min: 0, max: 4096 }),
        (src, dst, r, k, op, filter, f) => {
          const opts: DrawOptions = {
            transform: compose(
              translate(-src.width / 2, -src.height / 2),
              rotate(r),
              scale(k, Math.abs(k)),
              translate(48 + f / 4096, 40 - f / 8192),
            ),
            filter,
            opacity: op,
          };
          const [js, wasm] = both(dst, src, opts);
          expectSame(js, wasm);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('is exact for soft-edged bilinear draws (rim pixels two at a time, a lone one at the end of a run)', () => {
    // A disc with an opaque middle and a soft rim (faint alphas that round to 0 or that the opacity table drops
    // included), random colours: rows of the run meet rim pixels in even and odd numbers.
    const disc = fc
      .record({ n: fc.integer({ min: 4, max: 64 }), rim: fc.double({ min: 0.5, max: 12, noNaN: true }), seed: fc.integer() })
      .map(({ n, rim, seed }) => {
        const data = new Uint8Array(n * n * 4);
        let r = seed | 0;
        const c = n / 2;
        for (let y = 0; y < n; y++) {
          for (let x = 0; x < n; x++) {
            r = (Math.imul(r, 1103515245) + 12345) | 0;
            const o = (y * n + x) * 4;
            const d = c - Math.hypot(x + 0.5 - c, y + 0.5 - c);
            data[o] = r & 255;
            data[o + 1] = (r >> 8) & 255;
            data[o + 2] = (r >> 16) & 255;
            data[o + 3] = d >= rim ? 255 : d > 0 ? Math.max(1, Math.round((d / rim) * 255)) : (r >>> 31) * ((r >> 24) & 3);
          }
        }
        return { width: n, height: n, data } as RgbaImage;
      });
    fc.assert(
      fc.property(
        disc,
        canvas(96, 96),
        fc.double({ min: -180, max: 180, noNaN: true }),
        fc.constantFrom(0.7, 1, 1.3, 2.5),
        fc.constantFrom(1, 0.5, 0.01),
        fc.integer({ min: 0, max: 4096 }),
        (src, dst, r, k, op, f) => {
          const opts: DrawOptions = {
            transform: compose(translate(-src.width / 2, -src.height / 2), rotate(r), scale(k), translate(48 + f / 4096, 44)),
            filter: 'bilinear',
            opacity: op,
          };
          const [js, wasm] = both(dst, src, opts);
          expectSame(js, wasm);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('is exact for opaque bilinear quads two at a time and the opacity blended with them (long rows, 16-pixel blocks)', () => {
    // Mostly opaque sources (opaque quads in pairs, broken by holes of other alphas) drawn rotated and scaled onto
    // destinations that are opaque but for a few pixels (the opacity blended in the run where both pixels of a pair
    // are opaque, left to `over` where not), with opacities near 0, 1/2 and 1.
    const source = fc
      .record({
        w: fc.integer({ min: 2, max: 90 }),
        h: fc.integer({ min: 2, max: 40 }),
        holes: fc.integer({ min: 0, max: 60 }),
        seed: fc.integer(),
      })
      .map(({ w, h, holes, seed }) => {
        const data = new Uint8Array(w * h * 4);
        fillPixels(data, seed, (r) => (holes && (r >>> 8) % 61 < holes % 7 ? [0, (r >>> 24) & 255][(r >>> 4) & 1]! : 255));
        return { width: w, height: h, data } as RgbaImage;
      });
    fc.assert(
      fc.property(
        source,
        fc.record({ w: fc.integer({ min: 1, max: 140 }), h: fc.integer({ min: 1, max: 60 }), gaps: fc.integer({ min: 0, max: 40 }) }),
        fc.double({ min: -180, max: 180, noNaN: true }),
        fc.double({ min: 0.4, max: 3, noNaN: true }),
        fc.oneof(fc.constantFrom(1, 0.5, 1 / 255, 254 / 255, 0.998), fc.double({ min: 0, max: 1, noNaN: true })),
        fc.integer({ min: 0, max: 4096 }),
        (src, { w, h, gaps }, r, k, op, f) => {
          const data = new Uint8Array(w * h * 4);
          for (let i = 0; i < data.length; i += 4) {
            data[i] = (i * 7) & 255;
            data[i + 1] = (i * 13) & 255;
            data[i + 2] = (i * 29) & 255;
            data[i + 3] = gaps && (i >> 2) % (gaps + 3) === 1 ? (i >> 3) & 255 : 255;
          }
          const dst: RgbaImage = { width: w, height: h, data };
          const opts: DrawOptions = {
            transform: compose(translate(-src.width / 2, -src.height / 2), rotate(r), scale(k), translate(w / 2 + f / 4096, h / 2)),
            filter: 'bilinear',
            opacity: op,
          };
          const [js, wasm] = both(dst, src, opts);
          expectSame(js, wasm);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('draws nothing for empty rectangles, zero-size images and huge offsets, as the JavaScript paths', () => {
    const src: RgbaImage = { width: 8, height: 8, data: new Uint8Array(256).fill(200) };
    const dst: RgbaImage = { width: 16, height: 16, data: new Uint8Array(1024).fill(90) };
    const zero: RgbaImage = { width: 0, height: 0, data: new Uint8Array(0) };
    const cases: [RgbaImage, RgbaImage, DrawOptions][] = [
      [dst, src, { sw: 0 }],
      [dst, zero, {}],
      [zero, src, {}],
      [dst, src, { transform: translate(1e9, 5) }],
      [dst, src, { transform: translate(-1e9, -1e9) }],
      [dst, src, { transform: compose(rotate(30), translate(2 ** 40, 0)), filter: 'bilinear' }],
      [dst, src, { transform: compose(scale(1e-9, 1), translate(3, 3)) }],
      [dst, src, { sx: 1e12, sw: 4, transform: rotate(10) }],
      [dst, src, { sx: -1e12, sw: 2e12, transform: compose(rotate(10), translate(4, 4)), filter: 'bilinear' }],
      [dst, src, { sx: -1e12, sw: 2e12, transform: compose(rotate(10), translate(4, 4)) }],
    ];
    for (const [d, s, o] of cases) {
      const [js, wasm] = both(d, s, o);
      expectSame(js, wasm);
    }
  });

  it('copes with a source that is the destination, and with sources at odd byte offsets', () => {
    const buf = new Uint8Array(40 * 30 * 4 + 1);
    for (let i = 0; i < buf.length; i++) buf[i] = (i * 37) & 255;
    const odd: RgbaImage = { width: 40, height: 30, data: buf.subarray(1) };
    const dst: RgbaImage = { width: 40, height: 30, data: buf.slice(0, 40 * 30 * 4) };
    for (const opts of [
      { transform: translate(3, 2) },
      { transform: compose(rotate(33), translate(12, -4)), filter: 'bilinear' as const },
      { transform: compose(rotate(33), translate(12, -4)) },
      { transform: compose(scale(-2, 2), translate(60, 0)), opacity: 0.7 },
    ]) {
      const [js, wasm] = both(dst, odd, opts);
      expectSame(js, wasm);
      const self = copy(dst);
      const [js2, wasm2] = both(self, self, opts);
      expectSame(js2, wasm2);
    }
  });

  it("are used by default ('auto') for large draws, with the same pixels", () => {
    const src: RgbaImage = { width: 64, height: 64, data: new Uint8Array(64 * 64 * 4) };
    for (let i = 0; i < src.data.length; i++) src.data[i] = (i * 7919) & 255;
    const dst: RgbaImage = { width: 200, height: 200, data: new Uint8Array(200 * 200 * 4).fill(255) };
    const a = copy(dst);
    const b = copy(dst);
    setComposeKernels('js');
    drawImage(a, src, { transform: compose(rotate(20), translate(60, 20)), filter: 'bilinear', opacity: 0.8 });
    setComposeKernels('auto');
    drawImage(b, src, { transform: compose(rotate(20), translate(60, 20)), filter: 'bilinear', opacity: 0.8 });
    expectSame(a.data, b.data);
  });
});

describe('without WebAssembly SIMD', () => {
  it('draws with the JavaScript kernels, whatever the mode', async () => {
    const validate = WebAssembly.validate;
    vi.resetModules();
    // An engine without SIMD rejects the module when validating it.
    WebAssembly.validate = () => false;
    try {
      const c = await import('../../src/render/compose.js');
      expect(c.composeSimdAvailable()).toBe(false);
      const src: RgbaImage = { width: 64, height: 64, data: new Uint8Array(64 * 64 * 4) };
      for (let i = 0; i < src.data.length; i++) src.data[i] = (i * 31) & 255;
      const a: RgbaImage = { width: 100, height: 100, data: new Uint8Array(100 * 100 * 4).fill(255) };
      const b = copy(a);
      c.setComposeKernels('wasm');
      c.drawImage(a, src, { transform: compose(rotate(20), translate(30, 10)), filter: 'bilinear', opacity: 0.7 });
      c.setComposeKernels('js');
      c.drawImage(b, src, { transform: compose(rotate(20), translate(30, 10)), filter: 'bilinear', opacity: 0.7 });
      expectSame(b.data, a.data);
      expect(a.data.some((v) => v !== 255)).toBe(true);
    } finally {
      WebAssembly.validate = validate;
      vi.resetModules();
    }
  });
});

run('canvas images (createCanvasImage)', () => {
  afterEach(() => setComposeKernels('auto'));

  it('live in WebAssembly memory, stay valid across draws, and get the same pixels as plain images', () => {
    fc.assert(
      fc.property(
        image(60, 40),
        fc.integer({ min: 1, max: 90 }),
        fc.integer({ min: 1, max: 70 }),
        fc.array(options, { minLength: 1, maxLength: 4 }),
        (src, w, h, draws) => {
          const canvas = createCanvasImage(w, h);
          expect(canvas.data.buffer.byteLength).toBeGreaterThan(canvas.data.length); // its own memory, with scratch room
          const view = canvas.data;
          const plain = createImage(w, h);
          for (let i = 0; i < plain.data.length; i++) plain.data[i] = canvas.data[i] = (i * 13) & 255;
          setComposeKernels('js');
          for (const o of draws) drawImage(plain, src, o);
          setComposeKernels('wasm');
          for (const o of draws) drawImage(canvas, src, o);
          // The canvas onto itself, and a big source that does not fit the scratch area.
          setComposeKernels('js');
          drawImage(plain, plain, { transform: compose(rotate(15), translate(3, 1)), filter: 'bilinear' });
          setComposeKernels('wasm');
          drawImage(canvas, canvas, { transform: compose(rotate(15), translate(3, 1)), filter: 'bilinear' });
          expect(view).toBe(canvas.data);
          expect(view.length).toBe(w * h * 4);
          expectSame(plain.data, canvas.data);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('draws sources placed in the canvas memory (placeOnCanvas) in place, with the same pixels as plain images', () => {
    fc.assert(
      fc.property(
        fc.array(image(50, 40), { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 90 }),
        fc.integer({ min: 1, max: 70 }),
        fc.array(fc.tuple(fc.nat(), options), { minLength: 1, maxLength: 5 }),
        (srcs, w, h, draws) => {
          const canvas = createCanvasImage(w, h, 1 << 16);
          const placed = srcs.map((s) => placeOnCanvas(canvas, s));
          for (const [i, s] of placed.entries()) {
            // Aligned sources are copied into the canvas memory; others are left where they are.
            expect(s.data.buffer === canvas.data.buffer).toBe(srcs[i]!.data.byteOffset % 4 === 0);
            expectSame(srcs[i]!.data, s.data);
          }
          const plain = createImage(w, h);
          for (let i = 0; i < plain.data.length; i++) plain.data[i] = canvas.data[i] = (i * 29) & 255;
          for (const [i, o] of draws) {
            setComposeKernels('js');
            drawImage(plain, srcs[i % srcs.length]!, o);
            setComposeKernels('wasm');
            drawImage(canvas, placed[i % srcs.length]!, o);
          }
          expectSame(plain.data, canvas.data);
          // The placed copies are snapshots, untouched by the draws.
          for (const [i, s] of placed.entries()) expectSame(srcs[i]!.data, s.data);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads a source beside the destination in the same memory in place, and copies one that overlaps it', () => {
    const canvas = createCanvasImage(64, 64);
    const plain = createImage(64, 64);
    for (let i = 0; i < plain.data.length; i++) plain.data[i] = canvas.data[i] = (i * 53) & 255;
    const half = (img: RgbaImage, top: boolean): RgbaImage => ({
      width: 64,
      height: 32,
      data: img.data.subarray(top ? 0 : 64 * 32 * 4, top ? 64 * 32 * 4 : 64 * 64 * 4),
    });
    const rows = (img: RgbaImage): RgbaImage => ({ width: 64, height: 40, data: img.data.subarray(64 * 12 * 4, 64 * 52 * 4) });
    for (const opts of [
      { transform: translate(3, 2) },
      { transform: translate(-5, 1), opacity: 0.4 },
      { transform: compose(rotate(33), translate(12, -4)), filter: 'bilinear' as const },
      { transform: compose(rotate(-20), translate(2, 9)) },
      { transform: compose(scale(-2, 2), translate(60, 0)), opacity: 0.7 },
      { transform: compose(rotate(90), translate(40, 0)) },
    ]) {
      setComposeKernels('js');
      drawImage(half(plain, false), half(plain, true), opts);
      drawImage(half(plain, true), rows(plain), opts);
      setComposeKernels('wasm');
      drawImage(half(canvas, false), half(canvas, true), opts);
      drawImage(half(canvas, true), rows(canvas), opts);
      expectSame(plain.data, canvas.data);
    }
  });

  it('draws a source whose view reaches the scratch area after the pixels from a snapshot, as the JavaScript paths', () => {
    const canvas = createCanvasImage(40, 30);
    const plain = createImage(40, 30);
    for (let i = 0; i < plain.data.length; i++) plain.data[i] = canvas.data[i] = (i * 31) & 255;
    // 20 × 10 texels right after the pixels, in the scratch area (a view of data.buffer).
    const view = new Uint8Array(canvas.data.buffer, 40 * 30 * 4, 200 * 4);
    for (let i = 0; i < 800; i++) view[i] = (i * 7) & 255;
    const snapshot: RgbaImage = { width: 20, height: 10, data: view.slice() };
    for (const opts of [
      { transform: translate(3, 2), opacity: 0.6 },
      { transform: compose(rotate(33), translate(12, -4)), filter: 'bilinear' as const },
    ]) {
      setComposeKernels('js');
      drawImage(plain, snapshot, opts);
      setComposeKernels('wasm');
      for (let i = 0; i < 800; i++) view[i] = (i * 7) & 255; // the scratch bytes as before (an earlier draw used them)
      drawImage(canvas, { width: 20, height: 10, data: view }, opts);
      expectSame(plain.data, canvas.data);
    }
  });

  it('places a source only where there is room, else returns it (same pixels either way)', () => {
    const canvas = createCanvasImage(8, 8);
    const big = createImage(1200, 1200);
    for (let i = 0; i < big.data.length; i++) big.data[i] = (i * 11) & 255;
    expect(placeOnCanvas(canvas, big)).toBe(big);
    const plainDst = createImage(8, 8);
    expect(placeOnCanvas(plainDst, createImage(2, 2)).data.buffer).not.toBe(plainDst.data.buffer);
    const small = createImage(4, 4);
    const placed = placeOnCanvas(canvas, small);
    expect(placed).not.toBe(small);
    expect(placed.data.buffer).toBe(canvas.data.buffer);
  });

  it('draws sources bigger than the scratch area through the shared memory, and views of part of a canvas', () => {
    const canvas = createCanvasImage(40, 30);
    const plain = createImage(40, 30);
    const big = createImage(1200, 1200); // 5.8 MB of texels: more than the canvas's scratch area
    for (let i = 0; i < big.data.length; i++) big.data[i] = (i * 7) & 255;
    setComposeKernels('js');
    drawImage(plain, big, { transform: compose(scale(0.03), rotate(10)), filter: 'bilinear', opacity: 0.8 });
    setComposeKernels('wasm');
    drawImage(canvas, big, { transform: compose(scale(0.03), rotate(10)), filter: 'bilinear', opacity: 0.8 });
    expectSame(plain.data, canvas.data);
    // An image over rows 10-19 of the canvas (a view at a byte offset).
    const part = { width: 40, height: 10, data: canvas.data.subarray(40 * 10 * 4, 40 * 20 * 4) };
    const partPlain = { width: 40, height: 10, data: plain.data.subarray(40 * 10 * 4, 40 * 20 * 4) };
    setComposeKernels('js');
    drawImage(partPlain, big, { sx: 5, sy: 5, sw: 30, sh: 30, transform: translate(3, -2), opacity: 0.5 });
    setComposeKernels('wasm');
    drawImage(part, big, { sx: 5, sy: 5, sw: 30, sh: 30, transform: translate(3, -2), opacity: 0.5 });
    expectSame(plain.data, canvas.data);
  });
});
