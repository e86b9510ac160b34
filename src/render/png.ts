import { FormatError } from '../binary/errors.js';
import { Budget, DEFAULT_LIMITS } from '../binary/limits.js';
import { writePng } from './apng.js';
import { createImage, type RgbaImage } from './image.js';
import { rawInflate } from './inflate.js';

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

/** The bit depths each colour type allows (PNG spec 11.2.2, table 11.1). */
const DEPTHS: Record<number, readonly number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
/** Samples a pixel per colour type. */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** What the chunk walk found: the IHDR fields, the palette, tRNS, and the image data (the IDATs' zlib stream). */
export interface PngParts {
  width: number;
  height: number;
  depth: number;
  colorType: number;
  channels: number;
  interlaced: boolean;
  /** PLTE as RGBA (4 bytes an entry, tRNS alphas applied, 255 without), or null. */
  palette: Uint8Array | null;
  /** Entries in PLTE. */
  paletteSize: number;
  /** The transparent grey level or RGB colour of colour types 0 and 2 (at the file's bit depth), or null. */
  key: number[] | null;
  /** The IDATs' data, one zlib stream. */
  data: Uint8Array;
  /** Where the first IDAT's data starts in the file. */
  dataOffset: number;
}

const be32 = (b: Uint8Array, o: number) => ((b[o]! << 24) | (b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!) >>> 0;
const IDAT = 0x49444154;
const PLTE = 0x504c5445;
const IEND = 0x49454e44;
const TRNS = 0x74524e53;

/**
 * Walks the chunks (PNG spec 5.3): IHDR checked field by field, PLTE, tRNS
 * and the IDATs read, IEND ends the walk. Every other chunk is skipped
 * unread: ancillary ones (iCCP, zTXt, iTXt, ...: sprat uses no colour
 * profile or text, and an iCCP profile would inflate 500 MiB from 500 KB)
 * and unknown critical ones alike. CRCs are not checked (as browsers show a
 * PNG whose CRC is off). Throws FormatError with the chunk's place.
 */
export function readPngParts(bytes: Uint8Array): PngParts {
  const { width, height } = pngSize(bytes);
  if (be32(bytes, 8) !== 13) throw FormatError.atByte('png', `the IHDR chunk is ${be32(bytes, 8)} bytes long, not 13`, 8);
  if (width === 0 || height === 0) throw FormatError.atByte('png', `bad image size ${width}x${height}`, 16);
  const depth = bytes[24]!;
  const colorType = bytes[25]!;
  const depths = DEPTHS[colorType];
  if (!depths) throw FormatError.atByte('png', `unknown colour type ${colorType}`, 25);
  if (!depths.includes(depth)) throw FormatError.atByte('png', `bit depth ${depth} is not allowed for colour type ${colorType}`, 24);
  if (bytes[26] !== 0) throw FormatError.atByte('png', `unknown compression method ${bytes[26]}`, 26);
  if (bytes[27] !== 0) throw FormatError.atByte('png', `unknown filter method ${bytes[27]}`, 27);
  if (bytes[28]! > 1) throw FormatError.atByte('png', `unknown interlace method ${bytes[28]}`, 28);
  const parts: PngParts = {
    width,
    height,
    depth,
    colorType,
    channels: CHANNELS[colorType]!,
    interlaced: bytes[28] === 1,
    palette: null,
    paletteSize: 0,
    key: null,
    data: new Uint8Array(0),
    dataOffset: 0,
  };
  const idats: [number, number][] = [];
  let idatBytes = 0;
  let o = 33;
  for (;;) {
    if (o + 8 > bytes.length) throw FormatError.atByte('png', 'the file ends before its IEND chunk', o);
    const len = be32(bytes, o);
    const type = be32(bytes, o + 4);
    const at = o + 8;
    if (at + len + 4 > bytes.length) {
      const name = String.fromCharCode(bytes[o + 4]!, bytes[o + 5]!, bytes[o + 6]!, bytes[o + 7]!);
      throw FormatError.atByte('png', `the ${name} chunk (${len} bytes) runs past the end of the file`, o);
    }
    if (type === IEND) break;
    if (type === IDAT) {
      idats.push([at, at + len]);
      idatBytes += len;
    } else if (type === PLTE) {
      if (len % 3 !== 0 || len === 0) throw FormatError.atByte('png', `the PLTE chunk is ${len} bytes long, not a multiple of 3`, o);
      const n = Math.min(len / 3, 256);
      const pal = new Uint8Array(256 * 4);
      for (let i = 0; i < n; i++) {
        pal[i * 4] = bytes[at + i * 3]!;
        pal[i * 4 + 1] = bytes[at + i * 3 + 1]!;
        pal[i * 4 + 2] = bytes[at + i * 3 + 2]!;
        pal[i * 4 + 3] = 255;
      }
      parts.palette = pal;
      parts.paletteSize = n;
    } else if (type === TRNS) {
      readTrns(parts, bytes, o, len);
    }
    o = at + len + 4;
  }
  if (colorType === 3 && !parts.palette) throw FormatError.atByte('png', 'an indexed-colour PNG without a PLTE chunk', o);
  if (colorType !== 3) parts.palette = null; // a suggested palette of a true-colour image (PNG spec 11.2.3): not used
  if (idats.length === 0) throw FormatError.atByte('png', 'no image data (no IDAT chunk)', o);
  parts.dataOffset = idats[0]![0];
  if (idats.length === 1) parts.data = bytes.subarray(idats[0]![0], idats[0]![1]);
  else {
    const data = new Uint8Array(idatBytes);
    let n = 0;
    for (const [a, b] of idats) {
      data.set(bytes.subarray(a, b), n);
      n += b - a;
    }
    parts.data = data;
  }
  return parts;
}

/** tRNS (PNG spec 11.3.2.1): palette alphas, or the one transparent grey level or RGB colour. */
function readTrns(parts: PngParts, bytes: Uint8Array, o: number, len: number): void {
  const at = o + 8;
  const u16 = (i: number) => (bytes[at + i]! << 8) | bytes[at + i + 1]!;
  if (parts.colorType === 3) {
    if (!parts.palette) throw FormatError.atByte('png', 'the tRNS chunk comes before the PLTE chunk', o);
    if (len > parts.paletteSize) {
      throw FormatError.atByte('png', `the tRNS chunk has ${len} alphas for a palette of ${parts.paletteSize} colours`, o);
    }
    for (let i = 0; i < len; i++) parts.palette[i * 4 + 3] = bytes[at + i]!;
  } else if (parts.colorType === 0) {
    if (len !== 2) throw FormatError.atByte('png', `the tRNS chunk of a greyscale PNG is ${len} bytes long, not 2`, o);
    parts.key = [u16(0)];
  } else if (parts.colorType === 2) {
    if (len !== 6) throw FormatError.atByte('png', `the tRNS chunk of an RGB PNG is ${len} bytes long, not 6`, o);
    parts.key = [u16(0), u16(2), u16(4)];
  } else {
    throw FormatError.atByte('png', `a tRNS chunk in a PNG of colour type ${parts.colorType} (it has an alpha channel)`, o);
  }
}

/** One pass of the image data: the whole image, or one of Adam7's seven (PNG spec 8.2). */
export interface PngPass {
  /** Where its first scanline (its filter type byte) starts in the inflated data. */
  offset: number;
  /** Pixels a row, rows. */
  width: number;
  height: number;
  /** Bytes a row, without the filter type byte. */
  stride: number;
  /** Its first pixel in the image, and the steps between its pixels. */
  x0: number;
  y0: number;
  dx: number;
  dy: number;
}

const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/** The passes of an image and the bytes of inflated data they take (filter type bytes included). */
export function pngPasses(parts: PngParts): { passes: PngPass[]; size: number } {
  const bits = parts.depth * parts.channels;
  const { width: w, height: h } = parts;
  const layout = parts.interlaced ? ADAM7 : [[0, 0, 1, 1] as const];
  const passes: PngPass[] = [];
  let size = 0;
  for (const [x0, y0, dx, dy] of layout) {
    const pw = Math.ceil((w - x0) / dx);
    const ph = Math.ceil((h - y0) / dy);
    if (pw <= 0 || ph <= 0) continue; // an empty pass has no scanlines at all
    const stride = Math.ceil((pw * bits) / 8);
    passes.push({ offset: size, width: pw, height: ph, stride, x0, y0, dx, dy });
    size += ph * (stride + 1);
  }
  return { passes, size };
}

/**
 * The image data inflated: exactly `size` bytes (the passes' scanlines), the
 * inflater told to make no more, so no stream makes more memory than the
 * header's size (which checkHeader bounded). The zlib header (RFC 1950) is
 * checked here; the Adler-32 after the deflate data is not (as browsers).
 */
export function inflatePngData(parts: PngParts, size: number): Uint8Array {
  const z = parts.data;
  const at = parts.dataOffset;
  if (z.length < 2) throw FormatError.atByte('png', 'the image data is too short for a zlib stream', at);
  const cmf = z[0]!;
  const flg = z[1]!;
  if ((cmf & 15) !== 8 || cmf >> 4 > 7 || ((cmf << 8) | flg) % 31 !== 0) {
    throw FormatError.atByte('png', 'the image data is not a zlib stream (bad zlib header)', at);
  }
  if (flg & 32) throw FormatError.atByte('png', 'the image data asks for a preset zlib dictionary (PNG has none)', at);
  let raw: Uint8Array;
  try {
    raw = rawInflate(z.subarray(2), size);
  } catch (e) {
    const why = (e as Error)?.message ?? String(e);
    throw FormatError.atByte('png', `not a readable PNG image: the image data does not inflate (${why})`, at);
  }
  if (raw.length < size) {
    throw FormatError.atByte('png', `the image data is shorter than the image (${raw.length} of ${size} bytes inflated)`, at);
  }
  return raw.length === size ? raw : raw.subarray(0, size);
}

/**
 * Undoes one scanline's filter (PNG spec 9.2-9.4): `len` bytes from `src` at
 * `s` (after the filter type byte) to `dst` at `d`, the previous row's
 * unfiltered bytes in `dst` at `p` (-1 for the first row: zeros). `dst` may
 * be `src` with `d` = `s` (in place). One loop per filter type; the
 * bytes-per-pixel `bpp` is a constant of each call's image.
 */
function unfilterRow(type: number, src: Uint8Array, s: number, dst: Uint8Array, d: number, p: number, len: number, bpp: number): boolean {
  switch (type) {
    case 0:
      if (dst !== src || d !== s) dst.set(src.subarray(s, s + len), d);
      return true;
    case 1:
      for (let i = 0; i < bpp; i++) dst[d + i] = src[s + i]!;
      for (let i = bpp; i < len; i++) dst[d + i] = src[s + i]! + dst[d + i - bpp]!;
      return true;
    case 2:
      if (p < 0) return unfilterRow(0, src, s, dst, d, p, len, bpp);
      for (let i = 0; i < len; i++) dst[d + i] = src[s + i]! + dst[p + i]!;
      return true;
    case 3:
      if (p < 0) {
        for (let i = 0; i < bpp; i++) dst[d + i] = src[s + i]!;
        for (let i = bpp; i < len; i++) dst[d + i] = src[s + i]! + (dst[d + i - bpp]! >> 1);
        return true;
      }
      for (let i = 0; i < bpp; i++) dst[d + i] = src[s + i]! + (dst[p + i]! >> 1);
      for (let i = bpp; i < len; i++) dst[d + i] = src[s + i]! + ((dst[d + i - bpp]! + dst[p + i]!) >> 1);
      return true;
    case 4:
      if (p < 0) return unfilterRow(1, src, s, dst, d, p, len, bpp); // Paeth of a, 0, 0 is a
      for (let i = 0; i < bpp; i++) dst[d + i] = src[s + i]! + dst[p + i]!; // Paeth of 0, b, 0 is b
      for (let i = bpp; i < len; i++) {
        const a = dst[d + i - bpp]!;
        const b = dst[p + i]!;
        const c = dst[p + i - bpp]!;
        const pa = Math.abs(b - c);
        const pb = Math.abs(a - c);
        const pc = Math.abs(a + b - c - c);
        dst[d + i] = src[s + i]! + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
      }
      return true;
    default:
      return false;
  }
}

/** Unfilters a pass in place in the inflated data. */
function unfilterPass(raw: Uint8Array, pass: PngPass, bpp: number, index: number, interlaced: boolean): void {
  for (let y = 0, s = pass.offset + 1; y < pass.height; y++, s += pass.stride + 1) {
    if (!unfilterRow(raw[s - 1]!, raw, s, raw, s, y === 0 ? -1 : s - pass.stride - 1, pass.stride, bpp)) {
      throw badFilter(raw[s - 1]!, y, index, interlaced);
    }
  }
}

function badFilter(type: number, y: number, pass: number, interlaced: boolean): FormatError {
  return new FormatError(
    'png',
    `unknown scanline filter type ${type} on row ${y}${interlaced ? ` of interlace pass ${pass + 1}` : ''} of the image data`,
  );
}

/** round(v / 257) for every 16-bit v: 16-bit samples to 8 bits. */
let to8Table: Uint8Array | null = null;
function to8From16(): Uint8Array {
  if (!to8Table) {
    to8Table = new Uint8Array(65536);
    for (let v = 0; v < 65536; v++) to8Table[v] = Math.round(v / 257);
  }
  return to8Table;
}

/**
 * Writes the unfiltered rows of one pass to the RGBA image: every colour
 * type and bit depth expanded in one loop each, tRNS applied.
 */
function expandPass(parts: PngParts, raw: Uint8Array, pass: PngPass, out: Uint8Array): void {
  const { width: w, depth, colorType } = parts;
  const { width: pw, height: ph, stride, x0, y0, dx, dy } = pass;
  const key = parts.key;
  const t16 = depth === 16 ? to8From16() : null;
  for (let py = 0; py < ph; py++) {
    const s = pass.offset + 1 + py * (stride + 1);
    let o = ((y0 + py * dy) * w + x0) * 4;
    const step = dx * 4;
    if (colorType === 3) {
      const pal = parts.palette!;
      const mask = (1 << depth) - 1;
      for (let x = 0; x < pw; x++, o += step) {
        const i = depth === 8 ? raw[s + x]! : (raw[s + ((x * depth) >> 3)]! >> (8 - depth - ((x * depth) & 7))) & mask;
        // An index past the palette: transparent black (pal is 256 entries, zeros past PLTE's).
        const q = i * 4;
        out[o] = pal[q]!;
        out[o + 1] = pal[q + 1]!;
        out[o + 2] = pal[q + 2]!;
        out[o + 3] = pal[q + 3]!;
      }
    } else if (colorType === 0) {
      const k = key ? key[0]! : -1;
      if (depth < 8) {
        const mask = (1 << depth) - 1;
        const scale = 255 / mask; // 255, 85, 17: exact
        for (let x = 0; x < pw; x++, o += step) {
          const v = (raw[s + ((x * depth) >> 3)]! >> (8 - depth - ((x * depth) & 7))) & mask;
          out[o] = out[o + 1] = out[o + 2] = v * scale;
          out[o + 3] = v === k ? 0 : 255;
        }
      } else if (depth === 8) {
        for (let x = 0; x < pw; x++, o += step) {
          const v = raw[s + x]!;
          out[o] = out[o + 1] = out[o + 2] = v;
          out[o + 3] = v === k ? 0 : 255;
        }
      } else {
        for (let x = 0; x < pw; x++, o += step) {
          const v = (raw[s + x * 2]! << 8) | raw[s + x * 2 + 1]!;
          out[o] = out[o + 1] = out[o + 2] = t16![v]!;
          out[o + 3] = v === k ? 0 : 255;
        }
      }
    } else if (colorType === 4) {
      if (depth === 8) {
        for (let x = 0, i = s; x < pw; x++, o += step, i += 2) {
          out[o] = out[o + 1] = out[o + 2] = raw[i]!;
          out[o + 3] = raw[i + 1]!;
        }
      } else {
        for (let x = 0, i = s; x < pw; x++, o += step, i += 4) {
          out[o] = out[o + 1] = out[o + 2] = t16![(raw[i]! << 8) | raw[i + 1]!]!;
          out[o + 3] = t16![(raw[i + 2]! << 8) | raw[i + 3]!]!;
        }
      }
    } else if (colorType === 2) {
      const kr = key ? key[0]! : -1;
      const kg = key ? key[1]! : -1;
      const kb = key ? key[2]! : -1;
      if (depth === 8) {
        for (let x = 0, i = s; x < pw; x++, o += step, i += 3) {
          const r = raw[i]!;
          const g = raw[i + 1]!;
          const b = raw[i + 2]!;
          out[o] = r;
          out[o + 1] = g;
          out[o + 2] = b;
          out[o + 3] = r === kr && g === kg && b === kb ? 0 : 255;
        }
      } else {
        for (let x = 0, i = s; x < pw; x++, o += step, i += 6) {
          const r = (raw[i]! << 8) | raw[i + 1]!;
          const g = (raw[i + 2]! << 8) | raw[i + 3]!;
          const b = (raw[i + 4]! << 8) | raw[i + 5]!;
          out[o] = t16![r]!;
          out[o + 1] = t16![g]!;
          out[o + 2] = t16![b]!;
          out[o + 3] = r === kr && g === kg && b === kb ? 0 : 255;
        }
      }
    } else if (depth === 8) {
      for (let x = 0, i = s; x < pw; x++, o += step, i += 4) {
        out[o] = raw[i]!;
        out[o + 1] = raw[i + 1]!;
        out[o + 2] = raw[i + 2]!;
        out[o + 3] = raw[i + 3]!;
      }
    } else {
      for (let x = 0, i = s; x < pw; x++, o += step, i += 8) {
        out[o] = t16![(raw[i]! << 8) | raw[i + 1]!]!;
        out[o + 1] = t16![(raw[i + 2]! << 8) | raw[i + 3]!]!;
        out[o + 2] = t16![(raw[i + 4]! << 8) | raw[i + 5]!]!;
        out[o + 3] = t16![(raw[i + 6]! << 8) | raw[i + 7]!]!;
      }
    }
  }
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
 * A PNG's chunks read and its image data inflated and unfiltered: the rows
 * of each pass, in place in the inflated data (`pngPasses`). After the same
 * size checks as decodePng.
 */
export function readPngSamples(
  bytes: Uint8Array,
  maxPixels: number = DEFAULT_LIMITS.maxPixels,
): {
  parts: PngParts;
  raw: Uint8Array;
  passes: PngPass[];
} {
  checkHeader(bytes, maxPixels);
  const parts = readPngParts(bytes);
  const { passes, size } = pngPasses(parts);
  const raw = inflatePngData(parts, size);
  const bpp = Math.max(1, (parts.depth * parts.channels) >> 3);
  passes.forEach((pass, i) => unfilterPass(raw, pass, bpp, i, parts.interlaced));
  return { parts, raw, passes };
}

/**
 * Decodes any PNG (grey, grey+alpha, RGB, RGBA, palette; 1-16 bits;
 * interlaced or not) to 8-bit RGBA. tRNS transparency is applied: palette
 * alphas, and the one transparent grey level or RGB colour (compared at the
 * file's own bit depth; its colour is kept, its alpha made 0). 16-bit
 * samples are scaled to 8 bits with rounding (v / 257); 1-, 2- and 4-bit
 * grey to 0-255. A palette index past the palette is transparent black.
 * The size in the header is checked against `maxPixels` (--max-pixels)
 * before anything is decoded. Formats load images through
 * `decodeImage` (./decode.ts), which picks the decoder by content.
 *
 * The work: one walk over the chunks, one inflate of the IDATs into a
 * buffer of the size the header gives (./inflate.ts: node's zlib in Node,
 * fflate in browsers), then each scanline unfiltered; an 8-bit RGBA image
 * is unfiltered straight into the returned pixels, the others in place and
 * then expanded to RGBA in one pass.
 */
export function decodePng(bytes: Uint8Array, maxPixels: number = DEFAULT_LIMITS.maxPixels): RgbaImage {
  checkHeader(bytes, maxPixels);
  const parts = readPngParts(bytes);
  const { width, height } = parts;
  const { passes, size } = pngPasses(parts);
  const raw = inflatePngData(parts, size);
  const out = createImage(width, height);
  const d = out.data;
  if (parts.colorType === 6 && parts.depth === 8 && !parts.interlaced) {
    const stride = width * 4;
    for (let y = 0, s = 1, o = 0; y < height; y++, s += stride + 1, o += stride) {
      if (!unfilterRow(raw[s - 1]!, raw, s, d, o, y === 0 ? -1 : o - stride, stride, 4)) throw badFilter(raw[s - 1]!, y, 0, false);
    }
    return out;
  }
  const bpp = Math.max(1, (parts.depth * parts.channels) >> 3);
  passes.forEach((pass, i) => {
    unfilterPass(raw, pass, bpp, i, parts.interlaced);
    expandPass(parts, raw, pass, d);
  });
  return out;
}
