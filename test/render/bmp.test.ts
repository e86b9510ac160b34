import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/binary/errors.js';
import { decodeBmp } from '../../src/render/bmp.js';
import { LimitError } from '../../src/binary/limits.js';

type Px = [number, number, number, number];

interface BmpSpec {
  width: number;
  height: number;
  bpp: 1 | 4 | 8 | 24 | 32;
  topDown?: boolean;
  headerSize?: number;
  compression?: number;
  palette?: Px[];
  /** Palette index (bpp <= 8) or colour per pixel. */
  pixel: (x: number, y: number) => number | Px;
  gap?: number;
  masks?: number[];
}

function bmp(s: BmpSpec): Uint8Array {
  const headerSize = s.headerSize ?? 40;
  const pal = s.bpp <= 8 ? (s.palette ?? []) : [];
  const masksAfter = headerSize === 40 && s.masks ? s.masks.length * 4 : 0;
  const stride = Math.ceil((s.width * s.bpp) / 32) * 4;
  const dataAt = 14 + headerSize + masksAfter + pal.length * 4 + (s.gap ?? 0);
  const out = new Uint8Array(dataAt + stride * s.height);
  const v = new DataView(out.buffer);
  out[0] = 0x42;
  out[1] = 0x4d;
  v.setUint32(2, out.length, true);
  v.setUint32(10, dataAt, true);
  v.setUint32(14, headerSize, true);
  v.setInt32(18, s.width, true);
  v.setInt32(22, s.topDown ? -s.height : s.height, true);
  v.setUint16(26, 1, true);
  v.setUint16(28, s.bpp, true);
  v.setUint32(30, s.compression ?? 0, true);
  v.setUint32(46, pal.length, true);
  if (s.masks) s.masks.forEach((m, i) => v.setUint32((headerSize === 40 ? 54 : 54) + i * 4, m >>> 0, true));
  pal.forEach((c, i) => out.set([c[2], c[1], c[0], 0], 14 + headerSize + masksAfter + i * 4));
  for (let y = 0; y < s.height; y++) {
    const row = dataAt + (s.topDown ? y : s.height - 1 - y) * stride;
    for (let x = 0; x < s.width; x++) {
      const p = s.pixel(x, y);
      if (typeof p === 'number') {
        const bit = x * s.bpp;
        out[row + (bit >> 3)]! |= p << (8 - s.bpp - (bit & 7));
      } else if (s.bpp === 24) out.set([p[2], p[1], p[0]], row + x * 3);
      else out.set([p[2], p[1], p[0], p[3]], row + x * 4);
    }
  }
  return out;
}

const colour = (x: number, y: number): Px => [x * 40, y * 50, 200, 255];
function expectPixels(img: { width: number; height: number; data: Uint8Array }, f: (x: number, y: number) => Px): void {
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++)
      expect([...img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4)], `${x},${y}`).toEqual(f(x, y));
}

function err(bytes: Uint8Array): FormatError {
  try {
    decodeBmp(bytes);
  } catch (e) {
    expect(e).toBeInstanceOf(FormatError);
    return e as FormatError;
  }
  throw new Error('expected a FormatError');
}

describe('decodeBmp', () => {
  it('24-bit bottom-up and top-down', () => {
    for (const topDown of [false, true]) {
      const img = decodeBmp(bmp({ width: 5, height: 3, bpp: 24, topDown, pixel: colour }));
      expect([img.width, img.height]).toEqual([5, 3]);
      expectPixels(img, colour);
    }
  });

  it('palette images of 1, 4 and 8 bits', () => {
    const palette: Px[] = [
      [0, 0, 0, 255],
      [255, 0, 0, 255],
      [0, 255, 0, 255],
      [0, 0, 255, 255],
    ];
    for (const bpp of [1, 4, 8] as const) {
      const n = bpp === 1 ? 2 : 4;
      const idx = (x: number, y: number) => (x + y) % n;
      const img = decodeBmp(bmp({ width: 9, height: 4, bpp, palette: palette.slice(0, n), pixel: idx }));
      expectPixels(img, (x, y) => palette[idx(x, y)]!);
    }
  });

  it('32-bit: a zero reserved byte everywhere means opaque; bit fields with alpha keep it', () => {
    const px = (x: number, y: number): Px => [x * 10, y * 10, 7, 0];
    expectPixels(decodeBmp(bmp({ width: 3, height: 2, bpp: 32, pixel: px })), (x, y) => [x * 10, y * 10, 7, 255]);
    const alpha = (x: number, y: number): Px => [x * 10, y * 10, 7, x * 100];
    const v5 = bmp({
      width: 3,
      height: 2,
      bpp: 32,
      headerSize: 124,
      compression: 3,
      masks: [0xff0000, 0xff00, 0xff, 0xff000000],
      pixel: alpha,
    });
    expectPixels(decodeBmp(v5), alpha);
    const v3 = bmp({ width: 3, height: 2, bpp: 32, headerSize: 40, compression: 3, masks: [0xff0000, 0xff00, 0xff], pixel: px });
    expectPixels(decodeBmp(v3), (x, y) => [x * 10, y * 10, 7, 255]);
  });

  it('an image over --max-pixels is a LimitError before decoding; past 2^29 pixels a FormatError', () => {
    const img = bmp({ width: 4, height: 4, bpp: 24, pixel: colour });
    expect(() => decodeBmp(img, 15)).toThrow(LimitError);
    expect(() => decodeBmp(img, 15)).toThrow(
      /decoding a 4x4 BMP image would need 16 pixels, more than the limit of 15 \(raise it with --max-pixels\)/,
    );
    expect(decodeBmp(img, 16).width).toBe(4);
    // 1-bit, 2^15 x 2^15 = 2^30 pixels in 128 MiB of data: refused from the header.
    const head = bmp({
      width: 1,
      height: 1,
      bpp: 1,
      palette: [
        [0, 0, 0, 255],
        [255, 255, 255, 255],
      ],
      pixel: () => 0,
    });
    const big = new Uint8Array(head.length + (1 << 27));
    big.set(head);
    new DataView(big.buffer).setInt32(18, 1 << 15, true);
    new DataView(big.buffer).setInt32(22, 1 << 15, true);
    expect(() => decodeBmp(big, Number.MAX_SAFE_INTEGER)).toThrow(/too large to decode/);
  });

  it('pixel data after a gap', () => {
    expectPixels(decodeBmp(bmp({ width: 2, height: 2, bpp: 24, gap: 10, pixel: colour })), colour);
  });

  it('errors name the offset', () => {
    expect(err(new Uint8Array([1, 2, 3])).offset).toBe(0);
    const good = bmp({ width: 4, height: 4, bpp: 24, pixel: colour });
    expect(err(good.subarray(0, good.length - 1)).message).toMatch(/pixel data needs 48 bytes at 54/);
    const rle = bmp({ width: 4, height: 4, bpp: 8, compression: 1, palette: [[0, 0, 0, 255]], pixel: () => 0 });
    expect(err(rle).offset).toBe(30);
    const b16 = good.slice();
    new DataView(b16.buffer).setUint16(28, 16, true);
    expect(err(b16).message).toMatch(/16 bits per pixel/);
    const huge = good.slice();
    new DataView(huge.buffer).setInt32(18, 1 << 20, true);
    new DataView(huge.buffer).setInt32(22, 1 << 20, true);
    // A size the data cannot hold: refused for the data, before anything is allocated.
    expect(err(huge).message).toMatch(/pixel data needs 3298534883328 bytes at 54, the file has 48/);
    const wide = good.slice();
    new DataView(wide.buffer).setInt32(18, 1000, true);
    expect(err(wide).offset).toBe(54);
  });

  it('random and damaged input: an image or a FormatError', () => {
    const good = bmp({
      width: 6,
      height: 5,
      bpp: 8,
      palette: [
        [1, 2, 3, 255],
        [4, 5, 6, 255],
      ],
      pixel: (x) => x & 1,
    });
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.nat(), (at, v, cut) => {
        const b = good.slice(0, Math.max(2, cut % (good.length + 1)));
        b[at % b.length] = v;
        try {
          const img = decodeBmp(b);
          expect(img.data.length).toBe(img.width * img.height * 4);
        } catch (e) {
          expect(e).toBeInstanceOf(FormatError);
        }
      }),
      { numRuns: 500 },
    );
  });
});
