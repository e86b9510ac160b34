import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkPixelData, decodePixels, encodePixels } from '../../src/formats/cthg/index.js';
import { FormatError } from '../../src/binary/errors.js';
import type { RgbaImage } from '../../src/render/image.js';

/** Images with mixed alpha (0, 255, a few partial values) and runs, plus a recolour map. */
const imageArb = fc
  .record({ width: fc.integer({ min: 0, max: 40 }), height: fc.integer({ min: 0, max: 6 }) })
  .chain(({ width, height }) =>
    fc.record({
      width: fc.constant(width),
      height: fc.constant(height),
      pixels: fc.array(
        fc.record({
          rgb: fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 })),
          a: fc.constantFrom(0, 255, 255, 255, 128, 40),
          layer: fc.constantFrom(0, 0, 0, 1, 2),
          repeat: fc.integer({ min: 1, max: 80 }),
        }),
        { maxLength: 30 },
      ),
    }),
  )
  .map(({ width, height, pixels }) => {
    const n = width * height;
    const img: RgbaImage = { width, height, data: new Uint8Array(n * 4) };
    const map = new Uint8Array(n);
    let i = 0;
    for (const p of pixels) {
      for (let k = 0; k < p.repeat && i < n; k++, i++) {
        img.data.set([...p.rgb, p.a], i * 4);
        map[i] = p.layer;
      }
    }
    return { img, map };
  });

/** What decoding the encoding must give, with the grey ramp for recoloured pixels. */
function expected(img: RgbaImage, map: Uint8Array | null): Uint8Array {
  const out = new Uint8Array(img.data.length);
  for (let i = 0; i < img.width * img.height; i++) {
    const [r, g, b, a] = img.data.subarray(i * 4, i * 4 + 4);
    if (map?.[i]) {
      const m = Math.max(r!, g!, b!);
      out.set([m, m, m, a!], i * 4);
    } else if (a === 0) out.set([0, 0, 0, 0], i * 4);
    else out.set([r!, g!, b!, a!], i * 4);
  }
  return out;
}

/** Splits RLE data into runs: [type, count]. */
function runs(data: Uint8Array): [number, number, number | undefined][] {
  const out: [number, number, number | undefined][] = [];
  let p = 0;
  while (p < data.length) {
    const t = data[p]! >> 6;
    const c = data[p]! & 63;
    out.push([t, c, t === 1 ? data[p + 1] : t === 3 ? data[p + 2] : undefined]);
    p += t === 0 ? 1 + 3 * c : t === 1 ? 2 + 3 * c : t === 2 ? 1 : 3 + c;
  }
  return out;
}

describe('CTHG pixel codec', () => {
  it('decode(encode(x)) gives the pixels back (transparent pixels lose colour; recolour: max channel)', () => {
    fc.assert(
      fc.property(imageArb, fc.boolean(), ({ img, map }, useMap) => {
        const m = useMap ? map : null;
        const data = encodePixels(img, { recolour: m });
        checkPixelData(data, 0, data.length, img.width, img.height);
        const layers = new Int16Array(img.width * img.height);
        const back = decodePixels(data, img.width, img.height, undefined, layers);
        expect(back.data).toEqual(expected(img, m));
        for (let i = 0; i < layers.length; i++) expect(layers[i]).toBe(m?.[i] ? m[i] : -1);
      }),
      { numRuns: 150 },
    );
  });

  it("chooses runs as CorsixTH's encoder: maximal same-alpha runs of at most 63, never 0, split at recolour changes", () => {
    fc.assert(
      fc.property(imageArb, fc.boolean(), ({ img, map }, useMap) => {
        const m = useMap ? map : null;
        const data = encodePixels(img, { recolour: m });
        let i = 0;
        const n = img.width * img.height;
        for (const [t, c, a] of runs(data)) {
          expect(c).toBeGreaterThan(0);
          expect(c).toBeLessThanOrEqual(63);
          const alpha = img.data[i * 4 + 3]!;
          const recol = !!m?.[i];
          expect(t).toBe(recol ? 3 : alpha === 255 ? 0 : alpha === 0 ? 2 : 1);
          if (a !== undefined) expect(a).toBe(alpha);
          for (let k = 0; k < c; k++) {
            expect(img.data[(i + k) * 4 + 3]).toBe(alpha);
            if (m) expect(m[i + k]).toBe(recol ? m[i] : 0);
          }
          const end = i + c;
          // Maximal: the next pixel would have broken the run (or the run is full).
          if (c < 63 && end < n) {
            const breaks = img.data[end * 4 + 3] !== alpha || (m ? (recol ? m[end] !== m[i] : m[end] !== 0) : false);
            expect(breaks).toBe(true);
          }
          i = end;
        }
        expect(i).toBe(n);
      }),
      { numRuns: 150 },
    );
  });

  it('encoding is stable: encode(decode(encode(x))) == encode(x) without recolour', () => {
    fc.assert(
      fc.property(imageArb, ({ img }) => {
        const d1 = encodePixels(img);
        const d2 = encodePixels(decodePixels(d1, img.width, img.height));
        expect(d2).toEqual(d1);
      }),
      { numRuns: 200 },
    );
  });

  it('decoding arbitrary bytes gives pixels or a FormatError, never anything else', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 60 }), fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 12 }), (data, w, h) => {
        let checked: unknown = null;
        try {
          checkPixelData(data, 0, data.length, w, h);
        } catch (e) {
          checked = e;
          expect(e).toBeInstanceOf(FormatError);
        }
        try {
          decodePixels(data, w, h);
          expect(checked).toBeNull();
        } catch (e) {
          expect(e).toBeInstanceOf(FormatError);
          expect(checked).not.toBeNull();
        }
      }),
      { numRuns: 500 },
    );
  });

  it('applies recolour tables and the run alpha; layer numbers can be renumbered', () => {
    const img: RgbaImage = { width: 3, height: 1, data: Uint8Array.from([10, 20, 30, 200, 5, 5, 5, 200, 9, 9, 9, 255]) };
    const data = encodePixels(img, { recolour: Uint8Array.from([1, 1, 0]), layerNumbers: Array.from({ length: 256 }, (_, i) => i + 4) });
    expect([...data]).toEqual([0xc2, 5, 200, 30, 5, 0x01, 9, 9, 9]);
    const table = new Uint8Array(768);
    table.set([1, 2, 3], 30 * 3);
    table.set([4, 5, 6], 5 * 3);
    const out = decodePixels(data, 3, 1, new Map([[5, table]]));
    expect([...out.data]).toEqual([1, 2, 3, 200, 4, 5, 6, 200, 9, 9, 9, 255]);
  });
});
