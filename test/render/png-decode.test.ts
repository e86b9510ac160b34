/**
 * The PNG reader (src/render/png.ts) against pngjs on PNGs built here by hand: every colour type
 * and bit depth the PNG spec allows (11.2.2), interlaced or not, each scanline with a random filter
 * type (9.2), tRNS, the image data split over several IDATs; with node's zlib and with fflate
 * (the browsers' inflater). Then its one-line errors and bounded inflate.
 */
import { createRequire } from 'node:module';
import * as zlib from 'node:zlib';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { FormatError } from '../../src/binary/errors.js';
import { nodeInflate } from '../../src/node/zlib.js';
import { crc32 } from '../../src/render/apng.js';
import { decodeIndexedPng } from '../../src/render/indexed.js';
import { type RawInflate, setRawInflate } from '../../src/render/inflate.js';
import { decodePng } from '../../src/render/png.js';

const require = createRequire(import.meta.url);
const { PNG } = require('pngjs') as { PNG: { sync: { read(b: Buffer): { data: Buffer } } } };

const DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
];

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const v = new DataView(out.buffer);
  v.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  v.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

interface Spec {
  width: number;
  height: number;
  colorType: number;
  depth: number;
  interlaced: boolean;
  /** One sample a channel a pixel, within the depth. */
  samples: number[];
  filters: number[];
  paletteSize: number;
  palette: number[];
  trns: number;
  idats: number;
  level: number;
}

/** The scanlines of the image (each pass's rows, filter type first), filtered as `filters` says. */
function scanlines(s: Spec): Uint8Array {
  const ch = CHANNELS[s.colorType]!;
  const bits = ch * s.depth;
  const bpp = Math.max(1, bits >> 3);
  const rows: Uint8Array[] = [];
  let f = 0;
  for (const [x0, y0, dx, dy] of s.interlaced ? ADAM7 : [[0, 0, 1, 1]]) {
    const pw = Math.ceil((s.width - x0!) / dx!);
    const ph = Math.ceil((s.height - y0!) / dy!);
    if (pw <= 0 || ph <= 0) continue;
    const stride = Math.ceil((pw * bits) / 8);
    let prev = new Uint8Array(stride);
    for (let py = 0; py < ph; py++) {
      const row = new Uint8Array(stride);
      for (let px = 0; px < pw; px++) {
        const pixel = (y0! + py * dy!) * s.width + x0! + px * dx!;
        for (let c = 0; c < ch; c++) {
          const v = s.samples[pixel * ch + c]!;
          if (s.depth === 16) {
            row[(px * ch + c) * 2] = v >> 8;
            row[(px * ch + c) * 2 + 1] = v & 255;
          } else if (s.depth === 8) row[px * ch + c] = v;
          else {
            const bit = px * s.depth;
            row[bit >> 3]! |= v << (8 - s.depth - (bit & 7));
          }
        }
      }
      const type = s.filters[f++ % s.filters.length]!;
      const out = new Uint8Array(stride + 1);
      out[0] = type;
      for (let i = 0; i < stride; i++) {
        const a = i >= bpp ? row[i - bpp]! : 0;
        const b = prev[i]!;
        const c = i >= bpp ? prev[i - bpp]! : 0;
        const pred = [0, a, b, (a + b) >> 1, paeth(a, b, c)][type]!;
        out[1 + i] = (row[i]! - pred) & 255;
      }
      rows.push(out);
      prev = row;
    }
  }
  return concat(rows);
}

function buildPng(s: Spec, zdata: Uint8Array = zlib.deflateSync(scanlines(s), { level: s.level })): Uint8Array {
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, s.width);
  v.setUint32(4, s.height);
  ihdr.set([s.depth, s.colorType, 0, 0, s.interlaced ? 1 : 0], 8);
  const chunks = [new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr)];
  if (s.colorType === 3) {
    chunks.push(chunk('PLTE', new Uint8Array(s.palette.slice(0, s.paletteSize * 3))));
    if (s.trns > 0) chunks.push(chunk('tRNS', new Uint8Array(s.palette.slice(768, 768 + Math.min(s.trns, s.paletteSize)))));
  } else if ((s.colorType === 0 || s.colorType === 2) && s.trns > 0) {
    // the transparent colour: the first pixel's, so that some pixels match
    const key = new Uint8Array(s.colorType === 0 ? 2 : 6);
    for (let c = 0; c < key.length / 2; c++) {
      key[c * 2] = s.samples[c]! >> 8;
      key[c * 2 + 1] = s.samples[c]! & 255;
    }
    chunks.push(chunk('tRNS', key));
  }
  const cut = Math.ceil(zdata.length / s.idats);
  for (let o = 0; o < zdata.length; o += cut) chunks.push(chunk('IDAT', zdata.subarray(o, o + cut)));
  chunks.push(chunk('IEND', new Uint8Array(0)));
  return concat(chunks);
}

const spec: fc.Arbitrary<Spec> = fc
  .record({
    width: fc.integer({ min: 1, max: 19 }),
    height: fc.integer({ min: 1, max: 13 }),
    colorType: fc.constantFrom(0, 2, 3, 4, 6),
    pick: fc.nat(),
    interlaced: fc.boolean(),
    seed: fc.array(fc.nat({ max: 65535 }), { minLength: 1, maxLength: 64 }),
    filters: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 9 }),
    paletteSize: fc.integer({ min: 1, max: 256 }),
    palette: fc.uint8Array({ minLength: 1024, maxLength: 1024 }),
    trns: fc.integer({ min: 0, max: 300 }),
    idats: fc.integer({ min: 1, max: 4 }),
    level: fc.integer({ min: 0, max: 9 }),
    smooth: fc.boolean(),
  })
  .map((r) => {
    const depths = DEPTHS[r.colorType]!;
    const depth = depths[r.pick % depths.length]!;
    const max = r.colorType === 3 ? Math.min((1 << depth) - 1, r.paletteSize - 1) : 2 ** depth - 1;
    const n = r.width * r.height * CHANNELS[r.colorType]!;
    // random samples, or a few distinct values (runs, as in sprite sheets: the filters then predict)
    const samples = Array.from({ length: n }, (_, i) => {
      const v = r.seed[(r.smooth ? i >> 3 : i) % r.seed.length]!;
      return r.colorType === 3 ? v % (max + 1) : v & max;
    });
    return { ...r, depth, samples, palette: [...r.palette] };
  });

/** pngjs's pixels; it makes a pixel of the tRNS colour all zeros where sprat keeps its colour (alpha 0 either way). */
function pngjsPixels(png: Uint8Array): Uint8Array {
  return new Uint8Array(PNG.sync.read(Buffer.from(png)).data);
}

function ours(png: Uint8Array, keyed: boolean): Uint8Array {
  const d = decodePng(png).data.slice();
  if (keyed) for (let o = 0; o < d.length; o += 4) if (d[o + 3] === 0) d.fill(0, o, o + 3);
  return d;
}

const INFLATERS: [string, RawInflate | null][] = [
  ['node zlib', nodeInflate],
  ['fflate', null],
];

describe.each(INFLATERS)('decodePng with %s', (_, inflate) => {
  afterEach(() => setRawInflate(null));

  it('equals pngjs on random images of every colour type, bit depth, interlace and filter', () => {
    setRawInflate(inflate);
    fc.assert(
      fc.property(spec, (s) => {
        const png = buildPng(s);
        const keyed = s.trns > 0 && (s.colorType === 0 || s.colorType === 2);
        expect(ours(png, keyed)).toEqual(pngjsPixels(png));
      }),
      { numRuns: 120 },
    );
  });

  it('reads the palette indices of 8-bit indexed images, interlaced or not', () => {
    setRawInflate(inflate);
    fc.assert(
      fc.property(
        spec.filter((s) => s.colorType === 3 && s.depth === 8),
        (s) => {
          expect([...decodeIndexedPng(buildPng(s)).indices]).toEqual(s.samples);
        },
      ),
      { numRuns: 30 },
    );
  });

  const rgba = (): Spec => ({
    width: 5,
    height: 4,
    colorType: 6,
    depth: 8,
    interlaced: false,
    samples: Array.from({ length: 80 }, (_, i) => (i * 37) & 255),
    filters: [0, 1, 2, 3, 4],
    paletteSize: 1,
    palette: [],
    trns: 0,
    idats: 2,
    level: 6,
  });

  it('ignores deflate data past the image (inflating no more than the image), and refuses less', () => {
    setRawInflate(inflate);
    const s = rgba();
    const raw = scanlines(s);
    const longer = buildPng(s, zlib.deflateSync(concat([raw, new Uint8Array(5000).fill(7)])));
    expect([...decodePng(longer).data]).toEqual(s.samples);
    const shorter = buildPng(s, zlib.deflateSync(raw.subarray(0, raw.length - 3)));
    expect(() => decodePng(shorter)).toThrow(/^the image data is shorter than the image \(81 of 84 bytes inflated\) \(at byte \d+\)$/);
  });

  it('gives one-line FormatErrors with the place for broken zlib data, filter types and headers', () => {
    setRawInflate(inflate);
    const s = rgba();
    const good = buildPng(s);
    const firstIdat = 8 + 25 + 8;
    const fails = (png: Uint8Array, re: RegExp) => {
      let err: unknown;
      try {
        decodePng(png);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(FormatError);
      expect((err as Error).message).toMatch(re);
      expect((err as Error).message).not.toContain('\n');
    };
    fails(buildPng(s, new Uint8Array([0x78, 0x9c, 0xff, 0xff, 0xff, 0xff])), new RegExp(`does not inflate .*\\(at byte ${firstIdat}\\)$`));
    fails(buildPng(s, new Uint8Array([0x78, 0x9d, 3, 0])), new RegExp(`bad zlib header\\) \\(at byte ${firstIdat}\\)$`));
    const raw = scanlines(s);
    raw[0] = 9;
    fails(buildPng(s, zlib.deflateSync(raw)), /^unknown scanline filter type 9 on row 0 of the image data$/);
    const rgb4 = good.slice();
    rgb4[24] = 4;
    fails(rgb4, /^bit depth 4 is not allowed for colour type 6 \(at byte 24\)$/);
    fails(buildPng({ ...s, colorType: 3, depth: 8, samples: new Array(20).fill(0), paletteSize: 0 }), /PLTE chunk is 0 bytes long/);
  });
});
