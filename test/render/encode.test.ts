import fc from 'fast-check';
import { decode, decodeApng, encode } from 'fast-png';
import { GifReader } from 'omggif';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/binary/errors.js';
import { crc32, delayFraction, encodeApng, pngChunk } from '../../src/render/apng.js';
import { ditherAlpha, encodeGif, gifDelays, partialAlpha } from '../../src/render/gif.js';
import { createImage, type RgbaImage } from '../../src/render/image.js';
import { encodeRender, imageNotes } from '../../src/render/output.js';
import { decodePng, encodePng } from '../../src/render/png.js';

const channel = fc.integer({ min: 0, max: 255 });

/** Frames of one size; `colours` limits how many distinct colours there are; alpha is 0 or 255 unless `alpha`. */
function frames(opts: { colours?: number; alpha?: boolean } = {}): fc.Arbitrary<RgbaImage[]> {
  return fc
    .record({ w: fc.integer({ min: 1, max: 20 }), h: fc.integer({ min: 1, max: 20 }), n: fc.integer({ min: 1, max: 4 }) })
    .chain(({ w, h, n }) => {
      const colour = opts.colours
        ? fc.integer({ min: 0, max: opts.colours - 1 }).map((k) => [(k * 37) & 255, (k * 91) & 255, (k * 53 + k) & 255])
        : fc.tuple(channel, channel, channel);
      const px = fc.tuple(colour, opts.alpha ? channel : fc.constantFrom(0, 255, 255, 255));
      return fc.array(fc.array(px, { minLength: w * h, maxLength: w * h }), { minLength: n, maxLength: n }).map((fs) =>
        fs.map((pixels) => {
          const img = createImage(w, h);
          pixels.forEach(([[r, g, b], a], i) => img.data.set([r!, g!, b!, a], i * 4));
          return img;
        }),
      );
    });
}

function decodeGif(bytes: Uint8Array): { frames: Uint8Array[]; delays: number[]; loops: number | null; reader: GifReader } {
  const reader = new GifReader(bytes);
  const out: Uint8Array[] = [];
  const delays: number[] = [];
  for (let i = 0; i < reader.numFrames(); i++) {
    const px = new Uint8Array(reader.width * reader.height * 4);
    reader.decodeAndBlitFrameRGBA(i, px);
    out.push(px);
    delays.push(reader.frameInfo(i).delay);
  }
  return { frames: out, delays, loops: reader.loopCount(), reader };
}

/** What a GIF can hold of a pixel: transparent (all zero) below alpha 128, else opaque. */
function gifView(img: RgbaImage): number[] {
  const out: number[] = [];
  for (let i = 0; i < img.data.length; i += 4) {
    if (img.data[i + 3]! < 128) out.push(0, 0, 0, 0);
    else out.push(img.data[i]!, img.data[i + 1]!, img.data[i + 2]!, 255);
  }
  return out;
}

describe('GIF', () => {
  it('round-trips frames of at most 255 colours exactly, with 1-bit transparency', () => {
    fc.assert(
      fc.property(frames({ colours: 200, alpha: true }), (fs) => {
        const gif = decodeGif(
          encodeGif(
            fs,
            fs.map(() => 100),
          ),
        );
        expect(gif.frames.length).toBe(fs.length);
        fs.forEach((f, i) => expect([...gif.frames[i]!]).toEqual(gifView(f)));
      }),
      { numRuns: 60 },
    );
  });

  it('quantizes many colours to a close palette', () => {
    const img = createImage(64, 64);
    for (let y = 0; y < 64; y++) for (let x = 0; x < 64; x++) img.data.set([x * 4, y * 4, (x + y) * 2, 255], (y * 64 + x) * 4);
    const gif = decodeGif(encodeGif([img, img], [50, 50]));
    let err = 0;
    for (let i = 0; i < img.data.length; i++) err = Math.max(err, Math.abs(gif.frames[1]![i]! - img.data[i]!));
    expect(err).toBeLessThan(24);
    expect(gif.reader.frameInfo(0).palette_size).toBeLessThanOrEqual(256);
  });

  it('writes delays in centiseconds without drift, and loop counts', () => {
    expect(gifDelays([33, 33, 34, 33, 33, 34], 6)).toEqual([3, 4, 3, 3, 4, 3]);
    expect(gifDelays([100, 100], 2)).toEqual([10, 10]);
    // Delays raised to the 2 cs minimum are taken back from the next frames, keeping the total right.
    expect(gifDelays([0, 5, 1000], 3)).toEqual([2, 2, 97]);
    expect(gifDelays([], 2)).toEqual([10, 10]);
    const delays = [33, 33, 34, 33, 33, 34, 33, 33, 34, 25, 25, 41];
    const cs = gifDelays(delays, delays.length);
    expect(Math.abs(cs.reduce((a, b) => a + b, 0) * 10 - delays.reduce((a, b) => a + b, 0))).toBeLessThanOrEqual(5);
    const f = createImage(2, 2);
    f.data.fill(255);
    const g = decodeGif(encodeGif([f, f, f], [40, 120, 1000], 0));
    expect(g.delays).toEqual([4, 12, 100]);
    expect(g.loops).toBe(0);
    expect(decodeGif(encodeGif([f, f], [100, 100], 1)).loops).toBeNull();
    expect(decodeGif(encodeGif([f, f], [100, 100], 3)).loops).toBe(2);
  });

  it('places frames of different sizes on one canvas and refuses empty input', () => {
    const a = createImage(3, 1);
    a.data.fill(255);
    const b = createImage(1, 2);
    b.data.fill(255);
    const g = decodeGif(encodeGif([a, b], [100, 100]));
    expect([g.reader.width, g.reader.height]).toEqual([3, 2]);
    expect([...g.frames[1]!.subarray(4, 8)]).toEqual([0, 0, 0, 0]);
    expect(() => encodeGif([], [])).toThrow(FormatError);
    expect(() => encodeGif([createImage(0, 3)], [100])).toThrow(FormatError);
  });
});

/** A decoded APNG frame as RGBA values, whatever its colour type. */
function apngRgba(apng: { channels: number; palette?: number[][] }, data: ArrayLike<number>): number[] {
  const px = [...(data as Uint8Array)];
  if (apng.palette) return px.flatMap((i) => [...apng.palette![i]!.slice(0, 3), apng.palette![i]![3] ?? 255]);
  if (apng.channels === 3) return px.flatMap((v, j) => (j % 3 === 2 ? [v, 255] : [v]));
  return px;
}

describe('APNG', () => {
  it('round-trips frames exactly through fast-png decodeApng, with delays and plays', () => {
    fc.assert(
      fc.property(
        frames({ alpha: true }),
        fc.array(fc.integer({ min: 1, max: 5000 }), { minLength: 4, maxLength: 4 }),
        fc.integer({ min: 0, max: 9 }),
        (fs, ds, loops) => {
          const apng = decodeApng(encodeApng(fs, ds, loops));
          expect(apng.numberOfFrames).toBe(fs.length);
          expect(apng.numberOfPlays).toBe(loops);
          fs.forEach((f, i) => {
            const fr = apng.frames[i]!;
            expect(apngRgba(apng, fr.data)).toEqual([...f.data]);
            expect((fr.delayNumber / fr.delayDenominator) * 1000).toBeCloseTo(ds[i]!, 9);
          });
        },
      ),
      { numRuns: 60 },
    );
  });

  it('round-trips many-coloured frames exactly (RGB or RGBA)', () => {
    fc.assert(
      fc.property(frames({ alpha: true }), fc.boolean(), (fs, opaque) => {
        for (const f of fs) for (let i = 0; i < f.data.length; i++) f.data[i] = opaque && i % 4 === 3 ? 255 : (i * 97 + f.data[i]!) & 255;
        const apng = decodeApng(encodeApng(fs, []));
        fs.forEach((f, i) => expect(apngRgba(apng, apng.frames[i]!.data)).toEqual([...f.data]));
      }),
      { numRuns: 30 },
    );
  });

  it('chooses palette, RGB or RGBA, and writes a first frame any PNG decoder can read', () => {
    const f = createImage(3, 2);
    f.data.set([1, 2, 3, 255, 4, 5, 6, 255, 7, 8, 9, 255, 10, 11, 12, 255, 13, 14, 15, 255, 16, 17, 18, 255]);
    const bytes = encodeApng([f, f], [100, 100]);
    expect(decode(bytes).palette?.length).toBe(6);
    expect(decodePng(bytes)).toEqual(f);
    const many = createImage(20, 20);
    for (let p = 0; p < 400; p++) many.data.set([p & 255, p >> 8, (p * 3) & 255, 255], p * 4);
    expect(decode(encodeApng([many], [])).channels).toBe(3);
    many.data[3] = 7;
    expect(decode(encodeApng([many], [])).channels).toBe(4);
    expect(decode(encodePng(f)).channels).toBe(4);
    expect(decode(encodePng(f, { compact: true })).palette?.length).toBe(6);
  });

  it('gives delays as exact fractions of a second', () => {
    expect(delayFraction(100)).toEqual([1, 10]);
    expect(delayFraction(16)).toEqual([2, 125]);
    expect(delayFraction(1234)).toEqual([617, 500]);
    expect(delayFraction(0)).toEqual([0, 1]);
    expect(delayFraction(1000 / 60)).toEqual([1, 60]);
    expect(delayFraction(120000)).toEqual([120, 1]);
    const [n, d] = delayFraction(123456.7);
    expect(n).toBeLessThanOrEqual(65535);
    expect(Math.abs((n / d) * 1000 - 123456.7)).toBeLessThan(5);
  });

  it('computes the PNG CRC-32', () => {
    expect(crc32(new TextEncoder().encode('IEND'))).toBe(0xae426082);
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });
});

/** The 4x4 Bayer matrix, as ditherAlpha's notes give it. */
const BAYER = [
  [0, 8, 2, 10],
  [12, 4, 14, 6],
  [3, 11, 1, 9],
  [15, 7, 13, 5],
];

describe('GIF with dithered alpha', () => {
  it('makes 50 % alpha a checkerboard and 25 % one pixel in four, in every frame alike', () => {
    const half = createImage(8, 8);
    for (let i = 0; i < 64; i++) half.data.set([200, 40, 10, 128], i * 4);
    const quarter = createImage(8, 8);
    for (let i = 0; i < 64; i++) quarter.data.set([200, 40, 10, 64], i * 4);
    const gif = decodeGif(encodeGif([half, quarter, half], [100, 100, 100], 0, { dither: true }));
    const opaque = (k: number) => Array.from({ length: 64 }, (_, i) => gif.frames[k]![i * 4 + 3] === 255);
    expect(opaque(0)).toEqual(Array.from({ length: 64 }, (_, i) => ((i % 8) + Math.floor(i / 8)) % 2 === 0));
    expect(opaque(2)).toEqual(opaque(0));
    expect(opaque(1).filter(Boolean)).toHaveLength(16);
    expect(opaque(1)).toEqual(Array.from({ length: 64 }, (_, i) => BAYER[Math.floor(i / 8) % 4]![i % 4]! < 4));
    // The opaque pixels keep their colour.
    for (let i = 0; i < 64; i++) if (opaque(0)[i]) expect([...gif.frames[0]!.subarray(i * 4, i * 4 + 3)]).toEqual([200, 40, 10]);
    // Without it, 50 % is opaque and 25 % transparent.
    const plain = decodeGif(encodeGif([half, quarter], [100, 100]));
    expect(plain.frames[0]!.every((v, i) => i % 4 !== 3 || v === 255)).toBe(true);
    expect(plain.frames[1]!.every((v) => v === 0)).toBe(true);
  });

  it('keeps alpha 0 and 255 and colours as without it; k of 16 pixels of a 4x4 cell are opaque at alpha k/16', () => {
    fc.assert(
      fc.property(frames({ colours: 200, alpha: true }), (fs) => {
        const dithered = decodeGif(
          encodeGif(
            fs,
            fs.map(() => 100),
            0,
            { dither: true },
          ),
        );
        fs.forEach((f, k) => {
          const d = ditherAlpha(f);
          expect([...dithered.frames[k]!]).toEqual(gifView(d));
          for (let i = 0; i < f.width * f.height; i++) {
            const a = f.data[i * 4 + 3]!;
            const x = i % f.width;
            const y = Math.floor(i / f.width);
            const want = a === 0 ? 0 : a === 255 ? 255 : a / 255 > (BAYER[y % 4]![x % 4]! + 0.5) / 16 ? 255 : 0;
            expect(d.data[i * 4 + 3]).toBe(want);
            expect([...d.data.subarray(i * 4, i * 4 + 3)]).toEqual([...f.data.subarray(i * 4, i * 4 + 3)]);
          }
        });
      }),
      { numRuns: 40 },
    );
    for (let k = 0; k <= 16; k++) {
      const cell = createImage(4, 4);
      for (let i = 0; i < 16; i++) cell.data.set([9, 9, 9, Math.min(255, Math.max(1, Math.round((k * 255) / 16)))], i * 4);
      const opaque = [...ditherAlpha(cell).data].filter((v, i) => i % 4 === 3 && v === 255).length;
      expect(opaque).toBe(k === 0 ? 0 : k);
    }
  });

  it('partialAlpha counts the pixels of alpha neither 0 nor 255 and names their frames', () => {
    const a = createImage(3, 1);
    a.data.set([1, 1, 1, 255, 1, 1, 1, 0, 1, 1, 1, 254]);
    const b = createImage(2, 1);
    b.data.set([1, 1, 1, 255, 1, 1, 1, 255]);
    const c = createImage(2, 1);
    c.data.set([1, 1, 1, 1, 1, 1, 1, 128]);
    expect(partialAlpha([a, b, c, c])).toEqual({ pixels: 5, frames: [0, 2, 3] });
    expect(partialAlpha([b])).toEqual({ pixels: 0, frames: [] });
  });
});

describe('imageNotes', () => {
  const soft = createImage(2, 1);
  soft.data.set([9, 9, 9, 128, 9, 9, 9, 255]);
  const hard = createImage(2, 1);
  hard.data.set([9, 9, 9, 0, 9, 9, 9, 255]);
  it('says once, for GIF, how many pixels of partial alpha in which frames, and what was done with them', () => {
    const result = { frames: [soft, soft, hard, soft, soft, soft], what: 'the north view of "walker"' };
    expect(imageNotes(result, 'gif')).toEqual([
      'GIF has no partial transparency: 5 pixels of partial alpha in frames 0-1, 3-5 of the north view of "walker" were made opaque (alpha 50 % or more) or transparent (less); use .apng or --dither',
    ]);
    expect(imageNotes(result, 'gif', { dither: true })).toEqual([
      'GIF has no partial transparency: 5 pixels of partial alpha in frames 0-1, 3-5 of the north view of "walker" were dithered to opaque and transparent (--dither); use .apng to keep their alpha',
    ]);
    expect(imageNotes({ frames: [soft] }, 'gif')[0]).toMatch(/: 1 pixel of partial alpha in the picture was made/);
    expect(imageNotes({ frames: [hard, soft] }, 'gif')[0]).toMatch(/in frame 1 of the animation/);
  });
  it('says nothing without partial alpha, or for PNG and APNG', () => {
    expect(imageNotes({ frames: [hard, hard] }, 'gif')).toEqual([]);
    expect(imageNotes({ frames: [soft] }, 'png')).toEqual([]);
    expect(imageNotes({ frames: [soft, soft] }, 'apng')).toEqual([]);
  });
});

describe('encodeRender', () => {
  const f = createImage(2, 2);
  f.data.fill(200);
  const g = createImage(2, 2);
  g.data.fill(255);
  it('writes the first frame as PNG and every frame as GIF or APNG', () => {
    expect(decodePng(encodeRender({ frames: [f, g] }, 'png'))).toEqual(f);
    const a = decodeApng(encodeRender({ frames: [f, g], delaysMs: [30, 70], loops: 2 }, 'apng'));
    expect(a.frames.map((x) => x.delayNumber / x.delayDenominator)).toEqual([0.03, 0.07]);
    expect(a.numberOfPlays).toBe(2);
    const gif = decodeGif(encodeRender({ frames: [f, g] }, 'gif'));
    expect(gif.delays).toEqual([10, 10]);
    expect(gif.loops).toBe(0);
  });
  it('refuses nothing to draw', () => {
    expect(() => encodeRender({ frames: [] }, 'png')).toThrow(FormatError);
    expect(() => encodeRender({ frames: [createImage(0, 0)] }, 'gif')).toThrow(FormatError);
  });
});

/** Inserts a chunk right after IHDR. */
function withChunk(png: Uint8Array, type: string, data: number[]): Uint8Array {
  const chunk = pngChunk(type, new Uint8Array(data));
  const at = 8 + 25;
  const out = new Uint8Array(png.length + chunk.length);
  out.set(png.subarray(0, at));
  out.set(chunk, at);
  out.set(png.subarray(at), at + chunk.length);
  return out;
}

describe('decodePng', () => {
  it('round-trips RGBA', () => {
    fc.assert(
      fc.property(frames({ alpha: true }), ([f]) => {
        expect(decodePng(encodePng(f!))).toEqual(f);
      }),
      { numRuns: 30 },
    );
  });

  it('applies palette transparency (tRNS) at 8 and 4 bits', () => {
    const palette = [
      [10, 20, 30, 0],
      [40, 50, 60, 128],
      [70, 80, 90, 255],
    ];
    const png8 = encode({ width: 3, height: 1, data: new Uint8Array([0, 1, 2]), depth: 8, channels: 1, palette });
    expect([...decodePng(png8).data]).toEqual([10, 20, 30, 0, 40, 50, 60, 128, 70, 80, 90, 255]);
    const png4 = encode({ width: 3, height: 1, data: new Uint8Array([0x01, 0x20]), depth: 4, channels: 1, palette });
    expect([...decodePng(png4).data]).toEqual([10, 20, 30, 0, 40, 50, 60, 128, 70, 80, 90, 255]);
  });

  it('applies the grey and RGB transparent colour (tRNS) at 2, 8 and 16 bits', () => {
    const grey8 = withChunk(encode({ width: 3, height: 1, data: new Uint8Array([5, 9, 200]), depth: 8, channels: 1 }), 'tRNS', [0, 9]);
    expect([...decodePng(grey8).data]).toEqual([5, 5, 5, 255, 9, 9, 9, 0, 200, 200, 200, 255]);
    const grey2 = withChunk(encode({ width: 4, height: 1, data: new Uint8Array([0b00011011]), depth: 2, channels: 1 }), 'tRNS', [0, 2]);
    expect([...decodePng(grey2).data]).toEqual([0, 0, 0, 255, 85, 85, 85, 255, 170, 170, 170, 0, 255, 255, 255, 255]);
    const grey16 = withChunk(
      encode({ width: 2, height: 1, data: new Uint16Array([0x1234, 0xffff]), depth: 16, channels: 1 }),
      'tRNS',
      [0x12, 0x34],
    );
    expect([...decodePng(grey16).data]).toEqual([18, 18, 18, 0, 255, 255, 255, 255]);
    const rgb8 = withChunk(
      encode({ width: 3, height: 1, data: new Uint8Array([1, 2, 3, 1, 2, 4, 1, 2, 3]), depth: 8, channels: 3 }),
      'tRNS',
      [0, 1, 0, 2, 0, 3],
    );
    // (fast-png refuses an RGB tRNS on images of fewer than 3 pixels, hence 3 pixels here.)
    expect([...decodePng(rgb8).data]).toEqual([1, 2, 3, 0, 1, 2, 4, 255, 1, 2, 3, 0]);
    const rgb16 = withChunk(
      encode({ width: 3, height: 1, data: new Uint16Array([256, 512, 768, 257, 512, 768, 0, 0, 0]), depth: 16, channels: 3 }),
      'tRNS',
      [1, 0, 2, 0, 3, 0],
    );
    expect([...decodePng(rgb16).data]).toEqual([1, 2, 3, 0, 1, 2, 3, 255, 0, 0, 0, 255]);
  });

  it('scales 16-bit samples with rounding', () => {
    const png = encode({ width: 2, height: 1, data: new Uint16Array([0x8181, 0x80ff, 0xffff, 0x7f80]), depth: 16, channels: 2 });
    expect([...decodePng(png).data]).toEqual([129, 129, 129, 128, 255, 255, 255, 127]);
  });

  it('rejects bad or hostile input with FormatError only', () => {
    const good = encodePng(createImage(4, 4));
    expect(() => decodePng(new Uint8Array(10))).toThrow(FormatError);
    // A 100000 × 100000 header over a few bytes of data: refused before allocating.
    const huge = good.slice();
    new DataView(huge.buffer).setUint32(16, 100000);
    new DataView(huge.buffer).setUint32(20, 100000);
    expect(() => decodePng(huge)).toThrow(/impossible/);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: good.length - 1 }), fc.integer({ min: 0, max: 255 }), (i, v) => {
        const bad = good.slice();
        bad[i] = v;
        try {
          decodePng(bad);
        } catch (e) {
          expect(e).toBeInstanceOf(FormatError);
        }
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        try {
          decodePng(bytes);
        } catch (e) {
          expect(e).toBeInstanceOf(FormatError);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('decodePng, interlaced', () => {
  it('reads Adam7-interlaced images', () => {
    fc.assert(
      fc.property(frames({ alpha: true }), ([f]) => {
        const png = encode({ width: f!.width, height: f!.height, data: f!.data, depth: 8, channels: 4 }, { interlace: 'Adam7' });
        expect(decodePng(png)).toEqual(f);
      }),
      { numRuns: 20 },
    );
  });
});
