/**
 * GIF writer on top of gifenc (LZW and the GIF container; its PnnQuant
 * quantizer when there are too many colours).
 *
 * Decisions:
 * - One global palette for the whole animation, so colours do not flicker
 *   between frames. When all frames together use at most 255 colours (256
 *   without transparency) the palette is exactly those colours and the GIF
 *   is lossless; otherwise gifenc's PnnQuant picks 255 (or 256) colours from
 *   the opaque pixels of every frame (sampled when there are very many;
 *   colours binned to 4 bits per channel, which keeps it fast), and each
 *   pixel takes the palette colour nearest to the first colour seen in its
 *   5-6-5-bit bucket (a cache shared by all frames).
 * - Transparency is one bit: alpha < 128 is the transparent index (the
 *   last palette entry), anything else is drawn opaque. With `dither`, a
 *   pixel of partial alpha is opaque where its alpha passes the 4x4 Bayer
 *   threshold of its canvas position (ordered dither: 50 % alpha is a
 *   checkerboard, 25 % one pixel in four; the same pattern in every frame,
 *   so a still picture does not shimmer); colours are chosen as without it.
 *   gifenc has no dithering of its own. `partialAlpha` counts the pixels
 *   this changes, so that the caller can say so. Every frame covers
 *   the whole canvas; with transparency frames are disposed to background,
 *   so each frame shows exactly its own pixels.
 * - Delays are whole centiseconds. Each frame's delay is the rounded
 *   cumulative time minus what was already written, so rounding never
 *   drifts by more than 5 ms over the whole animation. Delays are at least
 *   2 cs, because browsers show 0 and 1 cs as 10 cs.
 * - `loops` is the number of plays (0 = forever): the NETSCAPE loop count
 *   is loops - 1 (extra repetitions), and a single play has no NETSCAPE block.
 */
import * as gifencNs from 'gifenc';
import { FormatError } from '../binary/errors.js';
import type { RgbaImage } from './image.js';
import { commonCanvas } from './apng.js';

type Palette = number[][];
interface GifEncoderApi {
  writeFrame(
    index: Uint8Array,
    width: number,
    height: number,
    opts: { palette?: Palette; delay?: number; repeat?: number; transparent?: boolean; transparentIndex?: number },
  ): void;
  finish(): void;
  bytes(): Uint8Array;
}
interface GifEnc {
  GIFEncoder(opts?: { initialCapacity?: number }): GifEncoderApi;
  quantize(rgba: Uint8Array, maxColors: number, opts?: { format?: string }): Palette;
}
// Node loads gifenc's CommonJS build (everything under `default`); bundlers its ES build (named exports).
const ns = gifencNs as unknown as Partial<GifEnc> & { default?: GifEnc };
const gifenc: GifEnc = ns.GIFEncoder ? (ns as GifEnc) : ns.default!;

/** Whole-centisecond delays for GIF (see the notes at the top). */
export function gifDelays(delaysMs: readonly number[], count: number): number[] {
  const out: number[] = [];
  let total = 0;
  let written = 0;
  for (let i = 0; i < count; i++) {
    const d = delaysMs[i];
    total += d !== undefined && Number.isFinite(d) && d > 0 ? d : d === undefined ? 100 : 0;
    const cs = Math.min(65535, Math.max(2, Math.round(total / 10) - written));
    out.push(cs);
    written += cs;
  }
  return out;
}

const MAX_SAMPLE = 1 << 21;

/** How a GIF is written. */
export interface GifOptions {
  /** Dither partial alpha (ordered, 4x4 Bayer) instead of thresholding it at 50 %. */
  dither?: boolean;
}

/** The pixels of partial alpha (neither 0 nor 255) in some frames: how many in all, and the frames (0-based) that have any. */
export interface PartialAlpha {
  pixels: number;
  frames: number[];
}

/** The pixels whose alpha GIF cannot keep (GIF transparency is one bit): those of alpha neither 0 nor 255. */
export function partialAlpha(frames: readonly RgbaImage[]): PartialAlpha {
  let pixels = 0;
  const which: number[] = [];
  frames.forEach((f, k) => {
    const d = f.data;
    const end = f.width * f.height * 4;
    let count = 0;
    for (let o = 3; o < end; o += 4) {
      const a = d[o]!;
      if (a !== 0 && a !== 255) count++;
    }
    if (count) {
      pixels += count;
      which.push(k);
    }
  });
  return { pixels, frames: which };
}

/** The 4x4 Bayer matrix: the order in which a cell's pixels turn opaque as alpha rises. */
const BAYER4 = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5];

/**
 * A copy of `f` whose alpha is 0 or 255 by ordered dithering: a pixel at
 * (x, y) is opaque when alpha / 255 > (B + 0.5) / 16, B its cell of the 4x4
 * Bayer matrix; so k of every 16 pixels are opaque at alpha k / 16, and
 * alpha 0 and 255 stay as they are.
 */
export function ditherAlpha(f: RgbaImage): RgbaImage {
  const data = f.data.slice(0, f.width * f.height * 4);
  for (let y = 0; y < f.height; y++) {
    const row = (y & 3) * 4;
    let o = y * f.width * 4 + 3;
    for (let x = 0; x < f.width; x++, o += 4) {
      const a = data[o]!;
      if (a === 0 || a === 255) continue;
      data[o] = a * 32 > (2 * BAYER4[row + (x & 3)]! + 1) * 255 ? 255 : 0;
    }
  }
  return { width: f.width, height: f.height, data };
}

/**
 * Encodes frames as a GIF. `delaysMs[i]` is frame i's delay (default
 * 100 ms), `loops` how many times it plays (0 = forever). Frames of
 * different sizes are placed at the top-left of a canvas as large as the
 * largest. `options.dither`: partial alpha dithered (see the notes at the
 * top), else alpha below 128 is transparent and the rest opaque.
 */
export function encodeGif(frames: RgbaImage[], delaysMs: number[], loops = 0, options: GifOptions = {}): Uint8Array {
  if (frames.length === 0) throw new FormatError('gif', 'no frames to write');
  const c = commonCanvas(options.dither ? frames.map(ditherAlpha) : frames);
  const { width, height } = c;
  if (width < 1 || height < 1) throw new FormatError('gif', `cannot write an empty ${width}x${height} image`);
  if (width > 65535 || height > 65535) throw new FormatError('gif', `${width}x${height} is too large for GIF (65535 at most)`);
  const n = width * height;

  // The exact colours (24-bit keys), until there are too many.
  let transparent = false;
  let opaqueCount = 0;
  const colours = new Map<number, number>();
  let exact = true;
  for (const f of c.frames) {
    const d = f.data;
    let last = -1;
    for (let i = 0; i < n; i++) {
      const o = i * 4;
      if (d[o + 3]! < 128) {
        transparent = true;
        continue;
      }
      opaqueCount++;
      if (!exact) continue;
      const key = (d[o]! << 16) | (d[o + 1]! << 8) | d[o + 2]!;
      if (key === last) continue;
      last = key;
      if (!colours.has(key)) {
        colours.set(key, colours.size);
        if (colours.size > 256) exact = false;
      }
    }
  }
  const maxColours = transparent ? 255 : 256;
  if (colours.size > maxColours) exact = false;

  let palette: Palette;
  let indexOf: (f: RgbaImage) => Uint8Array;
  if (exact) {
    palette = [...colours.keys()].map((k) => [k >> 16, (k >> 8) & 255, k & 255]);
    const clear = colours.size;
    indexOf = (f) => {
      const idx = new Uint8Array(n);
      const d = f.data;
      for (let i = 0; i < n; i++) {
        const o = i * 4;
        idx[i] = d[o + 3]! < 128 ? clear : colours.get((d[o]! << 16) | (d[o + 1]! << 8) | d[o + 2]!)!;
      }
      return idx;
    };
  } else {
    // Quantize the opaque pixels of all frames together (every k-th one when there are very many).
    const step = Math.max(1, Math.ceil(opaqueCount / MAX_SAMPLE));
    const sample = new Uint8Array(Math.ceil(opaqueCount / step) * 4 + 4);
    let s = 0;
    let seen = 0;
    for (const f of c.frames) {
      const d = f.data;
      for (let i = 0; i < n; i++) {
        const o = i * 4;
        if (d[o + 3]! < 128) continue;
        if (seen++ % step) continue;
        sample[s] = d[o]!;
        sample[s + 1] = d[o + 1]!;
        sample[s + 2] = d[o + 2]!;
        sample[s + 3] = 255;
        s += 4;
      }
    }
    palette = gifenc.quantize(sample.slice(0, s), maxColours, { format: 'rgb444' });
    const pal = palette;
    // Nearest palette colour per 5-6-5 bit colour bucket, shared by all frames.
    const cache = new Int16Array(65536).fill(-1);
    indexOf = (f) => {
      const idx = new Uint8Array(n);
      const d = f.data;
      for (let i = 0; i < n; i++) {
        const o = i * 4;
        if (d[o + 3]! < 128) {
          idx[i] = pal.length;
          continue;
        }
        const r = d[o]!;
        const g = d[o + 1]!;
        const b = d[o + 2]!;
        const key = ((r >> 3) << 11) | ((g >> 2) << 5) | (b >> 3);
        let k = cache[key]!;
        if (k < 0) {
          let best = Infinity;
          for (let j = 0; j < pal.length; j++) {
            const c = pal[j]!;
            const dr = c[0]! - r;
            const dg = c[1]! - g;
            const db = c[2]! - b;
            const dist = dr * dr + dg * dg + db * db;
            if (dist < best) {
              best = dist;
              k = j;
            }
          }
          cache[key] = k;
        }
        idx[i] = k;
      }
      return idx;
    };
  }
  const transparentIndex = palette.length;
  if (transparent) palette = [...palette, [0, 0, 0]];
  if (palette.length < 2) palette = [...palette, [0, 0, 0]];

  const cs = gifDelays(delaysMs, c.frames.length);
  const plays = Math.max(0, Math.floor(loops) || 0);
  const repeat = plays === 0 ? 0 : plays === 1 ? -1 : Math.min(65535, plays - 1);
  const enc = gifenc.GIFEncoder({ initialCapacity: 4096 + n });
  c.frames.forEach((f, i) => {
    enc.writeFrame(indexOf(f), width, height, {
      palette: i === 0 ? palette : undefined,
      delay: cs[i]! * 10,
      repeat,
      transparent,
      transparentIndex: transparent ? transparentIndex : 0,
    });
  });
  enc.finish();
  return enc.bytes();
}
