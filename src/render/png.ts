import { decode } from 'fast-png';
import { FormatError } from '../binary/errors.js';
import { Budget, DEFAULT_LIMITS } from '../binary/limits.js';
import { writePng } from './apng.js';
import { createImage, type RgbaImage } from './image.js';

/**
 * Encodes an RGBA image as an 8-bit RGBA PNG (adaptive scanline filters,
 * zlib level 6). With `compact`, the smallest exact colour type instead: a
 * palette when the image has at most 256 RGBA values, else RGB when it is
 * opaque, else RGBA. Either way the pixels decode exactly as given.
 */
export function encodePng(img: RgbaImage, opts: { compact?: boolean } = {}): Uint8Array {
  return writePng([img], null, { compact: opts.compact ?? false });
}

const PNG_SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];

/**
 * The most pixels any decoder makes, whatever --max-pixels says: the RGBA
 * buffer (4 bytes a pixel) stays within 2 GiB, far from any length or
 * index overflow.
 */
export const MAX_DECODE_PIXELS = 2 ** 29;

/** True when the bytes start with the PNG signature. */
export function isPng(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && PNG_SIGNATURE.every((b, i) => bytes[i] === b);
}

/**
 * Refuses an image of width x height before anything is allocated for it:
 * more than `maxPixels` (--max-pixels) is a LimitError, more than
 * MAX_DECODE_PIXELS a FormatError. Counted in plain numbers, so no product
 * overflows.
 */
export function checkDecodeSize(format: string, width: number, height: number, maxPixels: number, offset: number, name?: string): void {
  const pixels = width * height;
  const what = `a ${width}x${height} ${format.toUpperCase()} image`;
  new Budget({ ...DEFAULT_LIMITS, maxPixels }).check(
    'maxPixels',
    pixels,
    name === undefined ? `decoding ${what}` : `decoding ${name} (${what})`,
  );
  if (pixels > MAX_DECODE_PIXELS) {
    throw FormatError.atByte(
      format,
      `image size ${width}x${height} is too large to decode (more than ${MAX_DECODE_PIXELS} pixels)`,
      offset,
    );
  }
}

/** The image size in the IHDR (checked to be a PNG with an IHDR first). */
export function pngSize(bytes: Uint8Array): { width: number; height: number } {
  if (bytes.length < 33 || !isPng(bytes)) {
    throw FormatError.atByte('png', 'not a PNG image (no PNG signature)', 0);
  }
  const be32 = (o: number) => ((bytes[o]! << 24) | (bytes[o + 1]! << 16) | (bytes[o + 2]! << 8) | bytes[o + 3]!) >>> 0;
  if (String.fromCharCode(...bytes.subarray(12, 16)) !== 'IHDR') {
    throw FormatError.atByte('png', 'the first chunk is not IHDR', 12);
  }
  return { width: be32(16), height: be32(20) };
}

/** The chunks the decoder is given: the critical ones, and tRNS (the one ancillary chunk sprat reads). */
const DECODED_CHUNKS = new Set(['IHDR', 'PLTE', 'IDAT', 'IEND', 'tRNS']);

/**
 * The PNG with every ancillary chunk but tRNS left out (iCCP, zTXt, iTXt, tEXt, ...: sprat uses no
 * colour profile or text, and the decoder would inflate a compressed profile with no limit, 500 MiB
 * from 500 KB), walked chunk by chunk before fast-png sees the bytes (PNG spec 5.3, 5.4: a chunk
 * whose type begins with a lower-case letter is ancillary). A chunk that runs past the end is kept
 * as it is when it is critical (the decoder reports it) and dropped with the rest when it is not.
 * The bytes themselves when nothing is left out.
 */
export function decodedChunks(bytes: Uint8Array): Uint8Array {
  const keep: [number, number][] = [];
  let o = 8;
  let dropped = false;
  while (o + 8 <= bytes.length) {
    const len = ((bytes[o]! << 24) | (bytes[o + 1]! << 16) | (bytes[o + 2]! << 8) | bytes[o + 3]!) >>> 0;
    const type = String.fromCharCode(bytes[o + 4]!, bytes[o + 5]!, bytes[o + 6]!, bytes[o + 7]!);
    const end = o + 12 + len;
    const critical = (bytes[o + 4]! & 0x20) === 0;
    if (end > bytes.length) {
      if (critical) keep.push([o, bytes.length]);
      else dropped = true;
      o = bytes.length;
      break;
    }
    if (critical || DECODED_CHUNKS.has(type)) keep.push([o, end]);
    else dropped = true;
    o = end;
    if (type === 'IEND') break;
  }
  if (!dropped) return bytes;
  const out = new Uint8Array(8 + keep.reduce((n, [a, b]) => n + b - a, 0) + (bytes.length - o));
  out.set(bytes.subarray(0, 8));
  let at = 8;
  for (const [a, b] of keep) {
    out.set(bytes.subarray(a, b), at);
    at += b - a;
  }
  out.set(bytes.subarray(o), at);
  return out;
}

/**
 * Checks the IHDR before decoding: the RGBA size against the limits, and
 * plausibility: a PNG's pixels come from deflate data,
 * which expands at most about 1032 : 1, so an image whose raw scanlines
 * are far larger than that allows cannot be genuine and is refused before
 * anything is allocated for it.
 */
function checkHeader(bytes: Uint8Array, maxPixels: number): void {
  const { width, height } = pngSize(bytes);
  if (width === 0 || height === 0) throw FormatError.atByte('png', `bad image size ${width}x${height}`, 16);
  const depth = bytes[24]!;
  const channels = [1, 0, 3, 1, 2, 0, 4][bytes[25]!] ?? 0;
  const raw = height * (1 + Math.ceil((width * depth * Math.max(channels, 1)) / 8));
  if (raw > bytes.length * 1100 + 4096) {
    throw FormatError.atByte('png', `image size ${width}x${height} is impossible for ${bytes.length} bytes of compressed data`, 16);
  }
  checkDecodeSize('png', width, height, maxPixels, 16);
}

/**
 * Decodes any PNG (grey, grey+alpha, RGB, RGBA, palette; 1-16 bits) to
 * 8-bit RGBA. tRNS transparency is applied: palette alphas, and the one
 * transparent grey level or RGB colour (compared at the file's own bit
 * depth). 16-bit samples are scaled to 8 bits with rounding (v / 257).
 * The size in the header is checked against `maxPixels` (--max-pixels)
 * before anything is decoded. Formats load images through
 * `decodeImage` (./decode.ts), which picks the decoder by content.
 */
export function decodePng(bytes: Uint8Array, maxPixels: number = DEFAULT_LIMITS.maxPixels): RgbaImage {
  checkHeader(bytes, maxPixels);
  let png;
  try {
    png = decode(decodedChunks(bytes));
  } catch (e) {
    throw new FormatError('png', `not a readable PNG image: ${(e as Error)?.message ?? String(e)}`);
  }
  const { width, height } = png;
  const src = png.data;
  const ch = png.channels;
  const bits = png.depth;
  const rowBytes = bits < 8 ? Math.ceil((width * bits) / 8) : 0;
  const expected = bits < 8 ? rowBytes * height : width * height * ch;
  if (src.length < expected) throw new FormatError('png', 'the image data is shorter than the image');
  const out = createImage(width, height);
  const d = out.data;
  /** Sample x of row y of a 1-, 2- or 4-bit image. */
  const packed = (y: number, x: number): number => {
    const bit = x * bits;
    const byte = src[y * rowBytes + (bit >> 3)]!;
    return (byte >> (8 - bits - (bit & 7))) & ((1 << bits) - 1);
  };
  if (png.palette) {
    const pal = png.palette;
    for (let y = 0, o = 0; y < height; y++) {
      for (let x = 0; x < width; x++, o += 4) {
        const c = pal[bits === 8 ? src[y * width + x]! : packed(y, x)];
        if (!c) continue; // an index past the palette: transparent
        d[o] = c[0]!;
        d[o + 1] = c[1]!;
        d[o + 2] = c[2]!;
        d[o + 3] = c.length > 3 ? c[3]! : 255;
      }
    }
    return out;
  }
  const t = png.transparency && png.transparency.length > 0 ? png.transparency : null;
  if (bits < 8) {
    // Low bit-depth grey: expand to 8 bits.
    const scale = 255 / ((1 << bits) - 1);
    const key = t && ch === 1 ? t[0]! : -1;
    for (let y = 0, o = 0; y < height; y++) {
      for (let x = 0; x < width; x++, o += 4) {
        const s = packed(y, x);
        d[o] = d[o + 1] = d[o + 2] = Math.round(s * scale);
        d[o + 3] = s === key ? 0 : 255;
      }
    }
    return out;
  }
  const to8 = bits === 16 ? (v: number) => Math.round(v / 257) : (v: number) => v;
  const n = width * height;
  if (ch === 1 || ch === 2) {
    const key = t && ch === 1 ? t[0]! : -1;
    for (let i = 0; i < n; i++) {
      const o = i * 4;
      const s = src[i * ch]!;
      d[o] = d[o + 1] = d[o + 2] = to8(s);
      d[o + 3] = ch === 2 ? to8(src[i * 2 + 1]!) : s === key ? 0 : 255;
    }
    return out;
  }
  const keyed = t && ch === 3 && t.length >= 3;
  for (let i = 0; i < n; i++) {
    const o = i * 4;
    const s = i * ch;
    const r = src[s]!;
    const g = src[s + 1]!;
    const b = src[s + 2]!;
    d[o] = to8(r);
    d[o + 1] = to8(g);
    d[o + 2] = to8(b);
    if (ch === 4) d[o + 3] = to8(src[s + 3]!);
    else d[o + 3] = keyed && r === t[0] && g === t[1] && b === t[2] ? 0 : 255;
  }
  return out;
}
