/**
 * PNG and APNG (animated PNG) writer. fast-png decodes APNG but does not
 * encode it, and the one small encoder (upng-js) is an old CommonJS package
 * that pulls in pako, so this is written by hand on top of a zlib compressor
 * (./deflate.ts: fflate's, or node's where the Node side installed it).
 *
 * Layout: signature, IHDR, acTL, then per frame an fcTL and the pixels (IDAT
 * for the first frame, which is also the still image shown by viewers
 * without APNG support; fdAT for the others), IEND. Every frame covers the
 * whole canvas with dispose_op NONE and blend_op SOURCE, so each frame is
 * exactly the image given (transparency included) whatever came before.
 * Colour type (8 bits): a palette (PLTE + tRNS) when all frames together
 * use at most 256 RGBA values, else RGB when every pixel is opaque, else
 * RGBA; pixels are always stored exactly. RGB(A) scanlines take the PNG
 * filter with the smallest sum of absolute values (the usual heuristic);
 * palette scanlines are unfiltered.
 */
import { zlibDeflate } from './deflate.js';
import { FormatError } from '../binary/errors.js';
import type { RgbaImage } from './image.js';

let CRC_TABLE: Uint32Array | undefined;

function crcTable(): Uint32Array {
  if (CRC_TABLE) return CRC_TABLE;
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return (CRC_TABLE = t);
}

/** CRC-32 (ISO 3309, as PNG uses) of bytes, continuing from `crc` (the CRC so far). */
export function crc32(bytes: Uint8Array, crc = 0): number {
  const t = crcTable();
  let c = ~crc >>> 0;
  for (let i = 0; i < bytes.length; i++) c = t[(c ^ bytes[i]!) & 255]! ^ (c >>> 8);
  return ~c >>> 0;
}

/** A PNG chunk: length, type, data, CRC over type and data. */
export function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const v = new DataView(out.buffer);
  v.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  v.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

const SIGNATURE = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);

function be(fields: [number, 1 | 2 | 4][]): Uint8Array {
  const n = fields.reduce((s, [, w]) => s + w, 0);
  const out = new Uint8Array(n);
  const v = new DataView(out.buffer);
  let o = 0;
  for (const [x, w] of fields) {
    if (w === 4) v.setUint32(o, x);
    else if (w === 2) v.setUint16(o, x);
    else v.setUint8(o, x);
    o += w;
  }
  return out;
}

/**
 * A delay in milliseconds as the APNG fraction num/den seconds (both
 * 16-bit): exact for whole milliseconds (reduced, e.g. 100 ms -> 1/10)
 * whenever the terms fit, otherwise the closest such fraction (ties: the
 * smallest denominator).
 */
export function delayFraction(ms: number): [number, number] {
  if (!(ms > 0)) return [0, 1];
  if (Number.isInteger(ms)) {
    let a = ms;
    let b = 1000;
    while (b) [a, b] = [b, a % b];
    if (ms / a <= 65535) return [ms / a, 1000 / a];
  }
  const x = ms / 1000;
  if (x >= 65535) return [65535, 1];
  let best: [number, number] = [Math.round(x), 1];
  let bestErr = Math.abs(x - best[0]);
  for (let den = 2; den <= 65535 && bestErr > 0; den++) {
    const num = Math.round(x * den);
    if (num > 65535) break;
    const err = Math.abs(x - num / den);
    if (err < bestErr) {
      best = [num, den];
      bestErr = err;
    }
  }
  return best;
}

/** PNG's Paeth predictor of a byte from its left (a), up (b) and up-left (c) neighbours. */
function paeth(a: number, b: number, c: number): number {
  const pa = b > c ? b - c : c - b;
  const pb = a > c ? a - c : c - a;
  const pc0 = a + b - c - c;
  const pc = pc0 < 0 ? -pc0 : pc0;
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** |v| for every byte v read as signed (-128..127): the minimum-sum heuristic's cost of one filtered byte. */
const COST = new Uint8Array(256).map((_, v) => (v < 128 ? v : 256 - v));

/**
 * The filter (0-4) with the smallest sum of absolute (signed) outputs for
 * one scanline (the lowest on a tie): all five sums in one pass, writing
 * nothing. (The costs come from a table, the Paeth predictor is inlined:
 * this loop is most of a PNG encoding's JavaScript time.)
 */
function bestFilter(cur: Uint8Array, prev: Uint8Array, bpp: number): number {
  const n = cur.length;
  const C = COST;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let s4 = 0;
  // The first pixel has no left neighbour (a = c = 0: Paeth predicts b).
  for (let i = 0; i < bpp && i < n; i++) {
    const x = cur[i]!;
    const b = prev[i]!;
    const c0 = C[x]!;
    s0 += c0;
    s1 += c0;
    s2 += C[(x - b) & 255]!;
    s3 += C[(x - (b >> 1)) & 255]!;
    s4 += C[(x - b) & 255]!;
  }
  for (let i = bpp; i < n; i++) {
    const x = cur[i]!;
    const a = cur[i - bpp]!;
    const b = prev[i]!;
    const c = prev[i - bpp]!;
    s0 += C[x]!;
    s1 += C[(x - a) & 255]!;
    s2 += C[(x - b) & 255]!;
    s3 += C[(x - ((a + b) >> 1)) & 255]!;
    // Paeth, as paeth(a, b, c): pa = |b - c|, pb = |a - c|, pc = |a + b - 2c|.
    let pa = b - c;
    let pb = a - c;
    let pc = pa + pb;
    pa = pa < 0 ? -pa : pa;
    pb = pb < 0 ? -pb : pb;
    pc = pc < 0 ? -pc : pc;
    s4 += C[(x - (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)) & 255]!;
  }
  let f = 0;
  let best = s0;
  if (s1 < best) {
    best = s1;
    f = 1;
  }
  if (s2 < best) {
    best = s2;
    f = 2;
  }
  if (s3 < best) {
    best = s3;
    f = 3;
  }
  if (s4 < best) f = 4;
  return f;
}

/** Applies PNG filter f to one scanline, writing it at out[o..]. */
function filterRow(f: number, cur: Uint8Array, prev: Uint8Array, bpp: number, out: Uint8Array, o: number): void {
  const n = cur.length;
  const k = bpp < n ? bpp : n;
  switch (f) {
    case 0:
      out.set(cur, o);
      break;
    case 1:
      for (let i = 0; i < k; i++) out[o + i] = cur[i]!;
      for (let i = k; i < n; i++) out[o + i] = cur[i]! - cur[i - bpp]!;
      break;
    case 2:
      for (let i = 0; i < n; i++) out[o + i] = cur[i]! - prev[i]!;
      break;
    case 3:
      for (let i = 0; i < k; i++) out[o + i] = cur[i]! - (prev[i]! >> 1);
      for (let i = k; i < n; i++) out[o + i] = cur[i]! - ((cur[i - bpp]! + prev[i]!) >> 1);
      break;
    default:
      for (let i = 0; i < k; i++) out[o + i] = cur[i]! - prev[i]!;
      for (let i = k; i < n; i++) out[o + i] = cur[i]! - paeth(cur[i - bpp]!, prev[i]!, prev[i - bpp]!);
  }
}

/**
 * Filtered scanlines of an image (bpp 3: RGB, 4: RGBA), each filter chosen
 * by the minimum-sum heuristic. (A Uint8Array store keeps the low 8 bits,
 * which is the PNG filters' modulo 256.)
 */
function filterImage(img: RgbaImage, bpp: 3 | 4): Uint8Array {
  const { width: w, height: h, data } = img;
  const lineLen = w * bpp;
  const out = new Uint8Array(h * (lineLen + 1));
  let prev: Uint8Array = new Uint8Array(lineLen);
  // RGB scanlines are packed into two buffers in turn; RGBA ones are read where they are.
  let rgb = bpp === 3 ? new Uint8Array(lineLen) : null;
  let rgbPrev = bpp === 3 ? new Uint8Array(lineLen) : null;
  for (let y = 0; y < h; y++) {
    const base = y * w * 4;
    let cur: Uint8Array;
    if (rgb && rgbPrev) {
      for (let x = 0, i = base, j = 0; x < w; x++, i += 4, j += 3) {
        rgb[j] = data[i]!;
        rgb[j + 1] = data[i + 1]!;
        rgb[j + 2] = data[i + 2]!;
      }
      cur = rgb;
      [rgb, rgbPrev] = [rgbPrev, rgb];
    } else {
      cur = data.subarray(base, base + lineLen);
    }
    const f = bestFilter(cur, prev, bpp);
    const o = y * (lineLen + 1);
    out[o] = f;
    filterRow(f, cur, prev, bpp, out, o + 1);
    prev = cur;
  }
  return out;
}

/** The frames drawn at the top-left of one canvas as large as the largest frame (a copy only when sizes differ). */
export function commonCanvas(frames: readonly RgbaImage[]): { width: number; height: number; frames: RgbaImage[] } {
  // A loop, not Math.max(...frames): spreading 150,000 frames overflows the call stack.
  let width = 0;
  let height = 0;
  for (const f of frames) {
    if (f.width > width) width = f.width;
    if (f.height > height) height = f.height;
  }
  const out = frames.map((f) => {
    if (f.width === width && f.height === height) return f;
    const data = new Uint8Array(width * height * 4);
    for (let y = 0; y < f.height; y++) data.set(f.data.subarray(y * f.width * 4, (y + 1) * f.width * 4), y * width * 4);
    return { width, height, data };
  });
  return { width, height, frames: out };
}

interface PngMode {
  colourType: 2 | 3 | 6;
  /** Palette entries as 0xRRGGBBAA (colour type 3). */
  palette?: number[];
  index?: Map<number, number>;
}

/**
 * Colour type for a set of frames: RGBA, or (compact) a palette when all
 * frames together use at most 256 RGBA values, else RGB when all pixels
 * are opaque. Every mode stores the pixels exactly.
 */
function chooseMode(frames: readonly RgbaImage[], compact: boolean): PngMode {
  if (!compact) return { colourType: 6 };
  const seen = new Map<number, number>();
  let opaque = true;
  let paletteOk = true;
  for (const f of frames) {
    const d = f.data;
    let last = -1;
    for (let i = 0; i < d.length; i += 4) {
      const a = d[i + 3]!;
      if (a !== 255) opaque = false;
      if (!paletteOk) {
        if (!opaque) break;
        continue;
      }
      const key = ((d[i]! << 24) | (d[i + 1]! << 16) | (d[i + 2]! << 8) | a) >>> 0;
      if (key === last) continue;
      last = key;
      if (!seen.has(key)) {
        seen.set(key, 0);
        if (seen.size > 256) paletteOk = false;
      }
    }
  }
  if (paletteOk) {
    // Translucent entries first, so the tRNS chunk can stop at the last of them.
    const palette = [...seen.keys()].sort((x, y) => ((x & 255) === 255 ? 1 : 0) - ((y & 255) === 255 ? 1 : 0));
    return { colourType: 3, palette, index: new Map(palette.map((k, i) => [k, i])) };
  }
  return { colourType: opaque ? 2 : 6 };
}

/** Palette-index scanlines (filter type 0, as recommended for palette images). */
function indexImage(img: RgbaImage, index: Map<number, number>): Uint8Array {
  const { width: w, height: h, data: d } = img;
  const out = new Uint8Array(h * (w + 1));
  let last = -1;
  let lastIdx = 0;
  for (let y = 0; y < h; y++) {
    let o = y * (w + 1) + 1;
    for (let i = y * w * 4, end = i + w * 4; i < end; i += 4) {
      const key = ((d[i]! << 24) | (d[i + 1]! << 16) | (d[i + 2]! << 8) | d[i + 3]!) >>> 0;
      if (key !== last) {
        last = key;
        lastIdx = index.get(key)!;
      }
      out[o++] = lastIdx;
    }
  }
  return out;
}

/** Frames of an APNG past which a frame smaller than STORE_BELOW_BYTES (filtered) is not compressed. */
const MANY_FRAMES = 4096;
const STORE_BELOW_BYTES = 4096;

/** A PNG (animation = null) or APNG of the frames, in the given colour mode. */
export function writePng(
  frames: readonly RgbaImage[],
  animation: { delaysMs: readonly number[]; loops: number } | null,
  opts: { compact?: boolean; level?: number } = {},
): Uint8Array {
  const fmt = animation ? 'apng' : 'png';
  if (frames.length === 0) throw new FormatError(fmt, 'no frames to write');
  const c = commonCanvas(frames);
  if (c.width < 1 || c.height < 1) throw new FormatError(fmt, `cannot write an empty ${c.width}x${c.height} image`);
  if (c.width > 0x7fffffff || c.height > 0x7fffffff) throw new FormatError(fmt, 'image too large for PNG');
  const mode = chooseMode(c.frames, opts.compact ?? true);
  const level = opts.level ?? 6;
  const parts: Uint8Array[] = [SIGNATURE];
  parts.push(
    pngChunk(
      'IHDR',
      be([
        [c.width, 4],
        [c.height, 4],
        [8, 1],
        [mode.colourType, 1],
        [0, 1],
        [0, 1],
        [0, 1],
      ]),
    ),
  );
  if (mode.palette) {
    const pal = mode.palette;
    const plte = new Uint8Array(pal.length * 3);
    pal.forEach((k, i) => plte.set([k >>> 24, (k >>> 16) & 255, (k >>> 8) & 255], i * 3));
    parts.push(pngChunk('PLTE', plte));
    const nTrans = pal.filter((k) => (k & 255) !== 255).length;
    if (nTrans) parts.push(pngChunk('tRNS', new Uint8Array(pal.slice(0, nTrans).map((k) => k & 255))));
  }
  if (animation) {
    const plays = Math.max(0, Math.min(0x7fffffff, Math.floor(animation.loops) || 0));
    parts.push(
      pngChunk(
        'acTL',
        be([
          [c.frames.length, 4],
          [plays, 4],
        ]),
      ),
    );
  }
  let seq = 0;
  c.frames.forEach((f, i) => {
    if (animation) {
      const [num, den] = delayFraction(animation.delaysMs[i] ?? 100);
      // fcTL: sequence, width, height, x, y, delay_num, delay_den, dispose_op NONE, blend_op SOURCE.
      parts.push(
        pngChunk(
          'fcTL',
          be([
            [seq++, 4],
            [c.width, 4],
            [c.height, 4],
            [0, 4],
            [0, 4],
            [num, 2],
            [den, 2],
            [0, 1],
            [0, 1],
          ]),
        ),
      );
    }
    const raw = mode.index ? indexImage(f, mode.index) : filterImage(f, mode.colourType === 2 ? 3 : 4);
    // fflate sets up ~170 KB of tables for every zlib stream: past MANY_FRAMES, a small frame is stored (level 0) instead.
    const z = zlibDeflate(raw, c.frames.length > MANY_FRAMES && raw.length < STORE_BELOW_BYTES ? 0 : level);
    if (i === 0) parts.push(pngChunk('IDAT', z));
    else if (animation) {
      const data = new Uint8Array(4 + z.length);
      new DataView(data.buffer).setUint32(0, seq++);
      data.set(z, 4);
      parts.push(pngChunk('fdAT', data));
    }
  });
  parts.push(pngChunk('IEND', new Uint8Array(0)));
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/**
 * Encodes frames as an APNG. `delaysMs[i]` is frame i's delay (default
 * 100 ms); `loops` is how many times the animation plays (0 = forever).
 * Frames of different sizes are placed at the top-left of a canvas as
 * large as the largest. Pixels are stored exactly, as a palette when the
 * frames use at most 256 RGBA values, else RGB or RGBA.
 */
export function encodeApng(frames: RgbaImage[], delaysMs: number[], loops = 0): Uint8Array {
  return writePng(frames, { delaysMs, loops }, { compact: true });
}
