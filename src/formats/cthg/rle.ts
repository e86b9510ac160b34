/**
 * The 32bpp pixel codec of CTHG sprites (the same as CorsixTH's sprite
 * encoder writes). Each run starts with a byte: type = byte >> 6,
 * count = byte & 63 (0 is legal and paints nothing; runs hold at most 63).
 *   type 0: count × RGB, fully opaque
 *   type 1: alpha, then count × RGB
 *   type 2: count fully transparent pixels, no data
 *   type 3: recolour layer, alpha, then count table indices
 * The runs must cover exactly width × height pixels and use every data byte.
 */
import { FormatError } from '../../binary/errors.js';
import { createImage, type RgbaImage } from '../../render/image.js';
import type { CthgSprite } from './model.js';

/** 256 RGB entries (768 bytes: r, g, b, r, g, b, ...). */
export type RecolourTable = Uint8Array;

/** Recolour tables by layer number; a missing layer uses the grey ramp (i, i, i). */
export type RecolourTables = ReadonlyMap<number, RecolourTable> | Readonly<Record<number, RecolourTable>>;

function tableFor(tables: RecolourTables | undefined, layer: number): RecolourTable | undefined {
  if (!tables) return undefined;
  if (tables instanceof Map) return tables.get(layer);
  return (tables as Record<number, RecolourTable>)[layer];
}

/**
 * Checks that `data` (the bytes between `start` and `end` of `bytes`) is a
 * complete pixel stream for width × height pixels. Throws a FormatError at
 * the absolute byte offset of the problem (offsets are `base` + position).
 */
export function checkPixelData(bytes: Uint8Array, start: number, end: number, width: number, height: number, format = 'cthg'): void {
  const total = width * height;
  let done = 0;
  let p = start;
  while (done < total) {
    if (p >= end) {
      throw FormatError.atByte(format, `the pixel data ends after ${done} of ${total} pixels`, p);
    }
    const b = bytes[p]!;
    const type = b >> 6;
    const count = b & 63;
    if (count > total - done) {
      throw FormatError.atByte(format, `a run of ${count} pixels passes the end of the sprite (${total - done} pixels left)`, p);
    }
    const size = type === 0 ? 1 + 3 * count : type === 1 ? 2 + 3 * count : type === 2 ? 1 : 3 + count;
    if (size > end - p) {
      throw FormatError.atByte(format, `a run needs ${size} bytes but only ${end - p} remain in the sprite data`, p);
    }
    p += size;
    done += count;
  }
  if (p !== end) {
    throw FormatError.atByte(format, `${end - p} unused byte${end - p === 1 ? '' : 's'} after the last pixel of the sprite`, p);
  }
}

const GREY = (() => {
  const t = new Uint8Array(768);
  for (let i = 0; i < 256; i++) t[i * 3] = t[i * 3 + 1] = t[i * 3 + 2] = i;
  return t;
})();

/** Tables packed as r | g << 8 | b << 16 per entry, for the decoder. */
const GREY32 = (() => {
  const t = new Uint32Array(256);
  for (let i = 0; i < 256; i++) t[i] = i * 0x010101;
  return t;
})();
// A pure cache of derived data (each table packed once), not a document extra: it may stay a WeakMap.
const packed = new WeakMap<RecolourTable, Uint32Array>();

function packedTable(t: RecolourTable | undefined): Uint32Array {
  if (!t) return GREY32;
  let p = packed.get(t);
  if (!p) {
    // Entries past the table's end stay grey.
    p = GREY32.slice();
    for (let i = 0; i < 256 && i * 3 + 2 < t.length; i++) p[i] = t[i * 3]! | (t[i * 3 + 1]! << 8) | (t[i * 3 + 2]! << 16);
    packed.set(t, p);
  }
  return p;
}

/**
 * Decodes RLE pixel data to straight-alpha RGBA. `layerOut`, when given
 * (width × height entries), receives the recolour layer of each pixel, or
 * -1 for fixed-colour pixels. Throws a FormatError (offsets relative to the
 * data) for data that does not fit; `checkPixelData` gives the same errors.
 */
export function decodePixels(data: Uint8Array, width: number, height: number, tables?: RecolourTables, layerOut?: Int16Array): RgbaImage {
  const img = createImage(width, height);
  decodePixelsInto(img.data, data, width, height, tables, layerOut);
  return img;
}

/**
 * Decodes into `out` (width × height × 4 bytes, all zero: transparent
 * pixels are skipped, not written). The fast path behind decodePixels.
 */
export function decodePixelsInto(
  out8: Uint8Array,
  data: Uint8Array,
  width: number,
  height: number,
  tables?: RecolourTables,
  layerOut?: Int16Array,
): void {
  const total = width * height;
  if (out8.length < total * 4) throw new RangeError('the output is too small');
  // RGBA bytes in memory are the little-endian u32 r | g << 8 | b << 16 | a << 24 on every platform we target.
  const out = out8.byteOffset % 4 === 0 ? new Int32Array(out8.buffer, out8.byteOffset, total) : null;
  if (!out) {
    // Unaligned output (rare): decode aligned, then copy.
    const tmp = new Uint8Array(total * 4);
    decodePixelsInto(tmp, data, width, height, tables, layerOut);
    out8.set(tmp);
    return;
  }
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const n = data.length;
  let done = 0;
  let p = 0;
  if (layerOut) layerOut.fill(-1);
  while (done < total) {
    if (p >= n) throw FormatError.atByte('cthg', `the pixel data ends after ${done} of ${total} pixels`, p);
    const b = data[p]!;
    const count = b & 63;
    if (count > total - done) {
      throw FormatError.atByte('cthg', `a run of ${count} pixels passes the end of the sprite (${total - done} pixels left)`, p);
    }
    const type = b >> 6;
    if (type === 0) {
      if (p + 1 + 3 * count > n) throw FormatError.atByte('cthg', 'a run passes the end of the sprite data', p);
      p++;
      const stop = done + count;
      // Read 4 bytes per pixel; OR-ing 0xff000000 replaces the 4th (the next pixel's) byte.
      // Four pixels (12 bytes, all inside the run) from three 4-byte reads.
      const quads = count >> 2;
      for (let q = 0; q < quads; q++, done += 4, p += 12) {
        const w0 = dv.getInt32(p, true);
        const w1 = dv.getInt32(p + 4, true);
        const w2 = dv.getInt32(p + 8, true);
        out[done] = w0 | 0xff000000;
        out[done + 1] = (w0 >>> 24) | (w1 << 8) | 0xff000000;
        out[done + 2] = (w1 >>> 16) | (w2 << 16) | 0xff000000;
        out[done + 3] = (w2 >>> 8) | 0xff000000;
      }
      while (done < stop) {
        out[done++] = data[p]! | (data[p + 1]! << 8) | (data[p + 2]! << 16) | 0xff000000;
        p += 3;
      }
    } else if (type === 2) {
      p++;
      done += count;
    } else if (type === 1) {
      if (p + 2 + 3 * count > n) throw FormatError.atByte('cthg', 'a run passes the end of the sprite data', p);
      const a = data[p + 1]! << 24;
      p += 2;
      const stop = done + count;
      const quads = count >> 2;
      for (let q = 0; q < quads; q++, done += 4, p += 12) {
        const w0 = dv.getInt32(p, true);
        const w1 = dv.getInt32(p + 4, true);
        const w2 = dv.getInt32(p + 8, true);
        out[done] = (w0 & 0xffffff) | a;
        out[done + 1] = (w0 >>> 24) | ((w1 & 0xffff) << 8) | a;
        out[done + 2] = (w1 >>> 16) | ((w2 & 0xff) << 16) | a;
        out[done + 3] = (w2 >>> 8) | a;
      }
      while (done < stop) {
        out[done++] = data[p]! | (data[p + 1]! << 8) | (data[p + 2]! << 16) | a;
        p += 3;
      }
    } else {
      if (p + 3 + count > n) throw FormatError.atByte('cthg', 'a run passes the end of the sprite data', p);
      const layer = data[p + 1]!;
      const a = data[p + 2]! << 24;
      const t = tables ? packedTable(tableFor(tables, layer)) : GREY32;
      p += 3;
      if (layerOut) layerOut.fill(layer, done, done + count);
      const stop = done + count;
      for (; done < stop; done++) out[done] = t[data[p++]!]! | a;
    }
  }
  if (p !== n) throw FormatError.atByte('cthg', `${n - p} unused bytes after the last pixel of the sprite`, p);
}

/**
 * Where the runs of valid pixel data start: 1 at the first pixel of each run
 * (width × height entries). The data must have passed `checkPixelData` or
 * `decodePixels`.
 */
export function runStarts(data: Uint8Array, width: number, height: number): Uint8Array {
  const total = width * height;
  const starts = new Uint8Array(total);
  for (let p = 0, done = 0; done < total && p < data.length; ) {
    const b = data[p]!;
    const count = b & 63;
    if (count > 0 && done < total) starts[done] = 1;
    done += count;
    const type = b >> 6;
    p += type === 0 ? 1 + 3 * count : type === 1 ? 2 + 3 * count : type === 2 ? 1 : 3 + count;
  }
  return starts;
}

/** A sprite's pixels (recolour runs through `tables`, else grey). */
export function decodeSprite(sprite: CthgSprite, tables?: RecolourTables): RgbaImage {
  return decodePixels(sprite.data, sprite.width, sprite.height, tables);
}

export interface EncodeOptions {
  /**
   * The recolour map, as CorsixTH's encoder reads it: one byte per pixel,
   * 0 = a fixed-colour pixel, any other value = the pixel is recoloured with
   * table `layerNumbers[value]` (default: the value itself). A recoloured
   * pixel's table index is the largest of its R, G and B.
   */
  recolour?: Uint8Array | null;
  /** Renumbers map values to layer numbers (256 entries); default identity. */
  layerNumbers?: ArrayLike<number>;
}

/**
 * Encodes RGBA pixels as CorsixTH's encoder does: runs of pixels with the
 * same alpha (255 → type 0, 0 → type 2, otherwise type 1), ended before the
 * next recoloured pixel; runs of recoloured pixels with the same map value
 * and alpha (type 3); every run at most 63 pixels.
 */
export function encodePixels(img: RgbaImage, options: EncodeOptions = {}): Uint8Array {
  const { width, height, data: px } = img;
  const total = width * height;
  const map = options.recolour ?? null;
  if (map && map.length < total) throw new RangeError(`the recolour map has ${map.length} entries for ${total} pixels`);
  const numbers = options.layerNumbers;
  // Worst case: every pixel in its own type 1 run (5 bytes).
  const out = new Uint8Array(total * 5);
  let o = 0;
  let i = 0;
  while (i < total) {
    const left = Math.min(63, total - i);
    const alpha = px[i * 4 + 3]!;
    let sameAlpha = 1;
    while (sameAlpha < left && px[(i + sameAlpha) * 4 + 3] === alpha) sameAlpha++;
    if (map && map[i] !== 0) {
      const value = map[i]!;
      let len = 1;
      while (len < left && map[i + len] === value) len++;
      if (sameAlpha < len) len = sameAlpha;
      out[o++] = 0xc0 | len;
      out[o++] = numbers ? numbers[value]! & 0xff : value;
      out[o++] = alpha;
      for (let k = 0; k < len; k++) {
        const q = (i + k) * 4;
        out[o++] = Math.max(px[q]!, px[q + 1]!, px[q + 2]!);
      }
      i += len;
      continue;
    }
    let len = left;
    if (map) {
      let d = 0;
      while (d < left && map[i + d] === 0) d++;
      len = d;
    }
    if (sameAlpha < len) len = sameAlpha;
    if (alpha === 0) {
      out[o++] = 0x80 | len;
    } else {
      if (alpha === 255) out[o++] = len;
      else {
        out[o++] = 0x40 | len;
        out[o++] = alpha;
      }
      for (let k = 0; k < len; k++) {
        const q = (i + k) * 4;
        out[o++] = px[q]!;
        out[o++] = px[q + 1]!;
        out[o++] = px[q + 2]!;
      }
    }
    i += len;
  }
  return out.slice(0, o);
}

/** A new sprite from RGBA pixels (and an optional recolour map). */
export function spriteFromImage(img: RgbaImage, options: EncodeOptions = {}): CthgSprite {
  if (img.width > 0xffff || img.height > 0xffff) {
    throw new FormatError('cthg', `a sprite of ${img.width}x${img.height} pixels is too large (at most 65535x65535)`);
  }
  return { width: img.width, height: img.height, data: encodePixels(img, options) };
}

/** Gives a sprite new pixels (re-encoded); its old data is replaced. */
export function setSpritePixels(sprite: CthgSprite, img: RgbaImage, options: EncodeOptions = {}): void {
  const s = spriteFromImage(img, options);
  sprite.width = s.width;
  sprite.height = s.height;
  sprite.data = s.data;
}

/** A 256-entry recolour table from the first row of a palette image (missing entries: grey). */
export function recolourTableFromImage(img: RgbaImage): RecolourTable {
  const t = GREY.slice();
  const n = Math.min(256, img.width);
  for (let i = 0; i < n; i++) {
    t[i * 3] = img.data[i * 4]!;
    t[i * 3 + 1] = img.data[i * 4 + 1]!;
    t[i * 3 + 2] = img.data[i * 4 + 2]!;
  }
  return t;
}
