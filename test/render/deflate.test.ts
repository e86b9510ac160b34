/**
 * PNG writing with either zlib compressor (fflate's, the browser default,
 * and node's, which the command line and `sprat/node` install): the same
 * pixels, and scanline filters chosen as the minimum-sum heuristic chooses
 * them (checked against a plain reference of it).
 */
import fc from 'fast-check';
import { unzlibSync } from 'fflate';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeApng } from '../../src/render/apng.js';
import { fflateDeflate, getZlibDeflate, setZlibDeflate, type ZlibDeflate } from '../../src/render/deflate.js';
import { createImage, type RgbaImage } from '../../src/render/image.js';
import { decodePng, encodePng } from '../../src/render/png.js';
import { nodeDeflate } from '../../src/node/zlib.js';

const require = createRequire(import.meta.url);
const { PNG } = require('pngjs') as { PNG: { sync: { read(b: Buffer): { width: number; height: number; data: Buffer } } } };

const DEFLATES: [string, ZlibDeflate][] = [
  ['fflate', fflateDeflate],
  ['node zlib', nodeDeflate],
];

afterEach(() => setZlibDeflate(null));

const channel = fc.integer({ min: 0, max: 255 });

/** An image; `colours` limits the distinct colours (to reach the palette mode), `opaque` the alpha. */
function image(opts: { colours?: number; opaque?: boolean } = {}): fc.Arbitrary<RgbaImage> {
  return fc.record({ w: fc.integer({ min: 1, max: 40 }), h: fc.integer({ min: 1, max: 24 }) }).chain(({ w, h }) => {
    const colour = opts.colours
      ? fc.integer({ min: 0, max: opts.colours - 1 }).map((k) => [(k * 37) & 255, (k * 91) & 255, (k * 53) & 255, k & 1 ? 255 : 128])
      : fc.tuple(channel, channel, channel, opts.opaque ? fc.constant(255) : channel);
    return fc.array(colour, { minLength: w * h, maxLength: w * h }).map((px) => {
      const img = createImage(w, h);
      px.forEach((c, i) => img.data.set(c, i * 4));
      return img;
    });
  });
}

/** A smooth image (gradients plus small noise, runs of equal pixels): every filter competes, and ties happen. */
const smoothImage: fc.Arbitrary<RgbaImage> = fc
  .record({
    w: fc.integer({ min: 1, max: 64 }),
    h: fc.integer({ min: 1, max: 24 }),
    seed: fc.nat(),
    step: fc.integer({ min: 0, max: 9 }),
    noise: fc.integer({ min: 0, max: 3 }),
  })
  .map(({ w, h, seed, step, noise }) => {
    const img = createImage(w, h);
    let s = seed | 1;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        s = (Math.imul(s, 1103515245) + 12345) >>> 0;
        const r = noise ? (s >>> 16) % (noise + 1) : 0;
        img.data.set(
          [(x * step + r) & 255, (y * step) & 255, (x + y) * step + r * 3, x % 7 === 0 ? 255 : (200 + y) & 255],
          (y * w + x) * 4,
        );
      }
    }
    return img;
  });

const anyImage = fc.oneof(image(), image({ opaque: true }), image({ colours: 5 }), image({ colours: 300 }), smoothImage);

/** The pixels pngjs decodes (an independent decoder). */
function pngjsPixels(png: Uint8Array): Uint8Array {
  return new Uint8Array(PNG.sync.read(Buffer.from(png)).data);
}

/** The IDAT data of a one-IDAT PNG, inflated: the filtered scanlines. */
function scanlines(png: Uint8Array): { colourType: number; raw: Uint8Array } {
  const v = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let p = 8;
  let colourType = -1;
  for (;;) {
    const len = v.getUint32(p);
    const type = String.fromCharCode(...png.subarray(p + 4, p + 8));
    if (type === 'IHDR') colourType = png[p + 8 + 9]!;
    if (type === 'IDAT') return { colourType, raw: unzlibSync(png.subarray(p + 8, p + 8 + len)) };
    p += 12 + len;
  }
}

/** The minimum-sum filter heuristic, written plainly: every filter in full, the smallest sum of |signed byte| wins (the lowest on a tie). */
function referenceFilter(img: RgbaImage, bpp: 3 | 4): Uint8Array {
  const { width: w, height: h, data } = img;
  const n = w * bpp;
  const out = new Uint8Array(h * (n + 1));
  let prev = new Uint8Array(n);
  for (let y = 0; y < h; y++) {
    const cur = new Uint8Array(n);
    for (let x = 0; x < w; x++) for (let k = 0; k < bpp; k++) cur[x * bpp + k] = data[(y * w + x) * 4 + k]!;
    let best: number[] = [];
    let bestSum = Infinity;
    let bestF = 0;
    for (let f = 0; f < 5; f++) {
      const row: number[] = [];
      for (let i = 0; i < n; i++) {
        const a = i >= bpp ? cur[i - bpp]! : 0;
        const b = prev[i]!;
        const c = i >= bpp ? prev[i - bpp]! : 0;
        const p = a + b - c;
        const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
        const pred = [0, a, b, Math.floor((a + b) / 2), pa <= pb && pa <= pc ? a : pb <= pc ? b : c][f]!;
        row.push((cur[i]! - pred + 256) % 256);
      }
      const sum = row.reduce((s, v) => s + (v < 128 ? v : 256 - v), 0);
      if (sum < bestSum) [bestSum, best, bestF] = [sum, row, f];
    }
    out[y * (n + 1)] = bestF;
    out.set(best, y * (n + 1) + 1);
    prev = cur;
  }
  return out;
}

describe('PNG writing with fflate and node zlib', () => {
  it('decodes to the same pixels with either compressor, in every colour mode (sprat and pngjs decoding)', () => {
    fc.assert(
      fc.property(anyImage, fc.boolean(), (img, compact) => {
        for (const [, deflate] of DEFLATES) {
          setZlibDeflate(deflate);
          const png = encodePng(img, { compact });
          expect(decodePng(png)).toEqual(img);
          expect(Buffer.from(pngjsPixels(png)).equals(Buffer.from(img.data))).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('chooses each scanline filter by the minimum-sum heuristic, as a plain reference does', () => {
    fc.assert(
      fc.property(fc.oneof(image(), image({ opaque: true }), image({ colours: 300 }), smoothImage), fc.boolean(), (img, compact) => {
        const { colourType, raw } = scanlines(encodePng(img, { compact }));
        if (colourType === 3) return; // palette scanlines are unfiltered
        expect(Buffer.from(raw).equals(Buffer.from(referenceFilter(img, colourType === 2 ? 3 : 4)))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same filtered scanlines with either compressor; only the compressed bytes differ', () => {
    const img = createImage(64, 48);
    for (let i = 0; i < img.data.length; i++) img.data[i] = (i * 7 + (i >> 8)) & 255;
    const [a, b] = DEFLATES.map(([, d]) => {
      setZlibDeflate(d);
      return encodePng(img);
    });
    expect(Buffer.from(scanlines(a!).raw).equals(Buffer.from(scanlines(b!).raw))).toBe(true);
  });

  it('uses the compressor installed for APNG frames too', () => {
    const f = createImage(8, 8).data.fill(200);
    const frames = [{ width: 8, height: 8, data: f }, createImage(8, 8)];
    let calls = 0;
    setZlibDeflate((d, level) => {
      calls++;
      return nodeDeflate(d, level);
    });
    const png = encodeApng(frames, [100, 100]);
    expect(calls).toBe(2);
    expect(decodePng(png)).toEqual(frames[0]);
  });

  it('is fflate by default, node zlib once the command line or sprat/node is loaded', async () => {
    setZlibDeflate(null);
    expect(getZlibDeflate()).toBe(fflateDeflate);
    await import('../../src/cli/main.js');
    expect(getZlibDeflate()).toBe(nodeDeflate);
    setZlibDeflate(null);
    await import('../../src/node/index.js');
    expect(getZlibDeflate()).toBe(nodeDeflate);
  });
});
