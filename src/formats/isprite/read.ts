/**
 * The ISPRITE reader (Vision Riders Integrated Sprite System 1.0), following
 * ../shared/contract/isprite.md (errata 1-19). Every count and length is
 * checked against the bytes that remain before anything is allocated or
 * looped over; every problem is a FormatError naming its byte offset.
 *
 * The hot loops (frames and elements) read straight from the byte array:
 * each record's bounds are checked once, then its fixed fields are read
 * without further checks.
 */
import { FormatError, diagnostic, type Diagnostic } from '../../binary/errors.js';
import type { ReadContext } from '../types.js';
import { createIsprite } from './model.js';
import type {
  IspriteDate,
  IspriteDocument,
  IspriteElement,
  IspriteFrame,
  IspriteMeta,
  IspriteNode,
  IspriteSequence,
  IspriteSlice,
  IspriteTexture,
  IspriteUnknownChunk,
} from './model.js';

const FORMAT = 'isprite';
export const ISPRITE_MAGIC = 'ISPRITE ';
export const HEADER_SIZE = 24;
/** Known chunk IDs, in canonical order. */
export const KNOWN_CHUNKS = ['META', 'MET+', 'TEX ', 'SLIC', 'NAME', 'TIER', 'FRAM'] as const;

/** Where things are in the file, for diagnostics (filled only when asked for). */
export interface IspriteReadInfo {
  /** Every chunk in file order: id and the offset of its header. */
  chunks: { id: string; offset: number; size: number }[];
  /** The raw header flags byte, and whether the reserved bytes were zero. */
  flags: number;
  reservedNonZero: boolean;
  /** FRAM's stored maximum element count (null without FRAM). */
  maxElementCount: number | null;
  /** Offset of each frame record, by frame ID. */
  frameOffsets: number[];
  /** Offset of each slice record. */
  sliceOffsets: number[];
  /** Offset of each texture record. */
  textureOffsets: number[];
  /** Offset of each sequence's `S` marker. */
  sequenceOffsets: Map<IspriteSequence, number>;
  /** Offset of each MET+ field name. */
  extraMetaOffsets: number[];
}

function err(reason: string, offset: number): FormatError {
  return FormatError.atByte(FORMAT, reason, offset);
}

const EMPTY = new Uint8Array(0);
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenientUtf8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

function hex(n: number): string {
  return '0x' + n.toString(16).toUpperCase().padStart(2, '0');
}

function markerName(m: number): string {
  return m >= 0x20 && m < 0x7f ? `"${String.fromCharCode(m)}" (${hex(m)})` : hex(m);
}

function what(label: string, index: number): string {
  return index >= 0 ? label.replace('#', String(index)) : label;
}

/** At most this many invalid-UTF-8 warnings are given one by one; the rest are counted. */
const UTF8_WARNINGS = 20;

class Reader {
  readonly b: Uint8Array;
  pos = 0;
  minor = 0;
  readonly warn?: (d: Diagnostic) => void;
  badUtf8 = 0;

  constructor(b: Uint8Array, warn?: (d: Diagnostic) => void) {
    this.b = b;
    this.warn = warn;
  }

  /** Throws unless `n` bytes remain before `end`. */
  need(n: number, end: number, what: string): void {
    if (this.pos + n > end) {
      throw err(`unexpected end of ${what}: needs ${n} byte${n === 1 ? '' : 's'}, ${end - this.pos} left`, this.pos);
    }
  }

  u8(): number {
    return this.b[this.pos++]!;
  }

  u16(): number {
    const b = this.b;
    const p = this.pos;
    this.pos = p + 2;
    return b[p]! | (b[p + 1]! << 8);
  }

  u32(): number {
    const b = this.b;
    const p = this.pos;
    this.pos = p + 4;
    return (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24)) >>> 0;
  }

  /**
   * A u16-length UTF-8 string that must end by `end` (the end of its chunk or
   * frame). `what` names it in messages; a `#` in it is replaced by `index`.
   */
  str(end: number, label: string, index = -1): string {
    const b = this.b;
    const at = this.pos;
    if (at + 2 > end) throw err(`unexpected end of data: ${what(label, index)} needs a 2-byte length, ${end - at} left`, at);
    const n = b[at]! | (b[at + 1]! << 8);
    if (n === 0) {
      this.pos = at + 2;
      return '';
    }
    const start = at + 2;
    const stop = start + n;
    if (stop > end) throw err(`${what(label, index)} of ${n} bytes is longer than the ${end - start} bytes left`, at);
    this.pos = stop;
    if (n <= 64) {
      let s = '';
      let i = start;
      for (; i < stop; i++) {
        const c = b[i]!;
        if (c >= 0x80) break;
        s += String.fromCharCode(c);
      }
      if (i === stop) return s;
    }
    const view = b.subarray(start, stop);
    try {
      return strictUtf8.decode(view);
    } catch {
      if (++this.badUtf8 <= UTF8_WARNINGS) {
        this.warn?.(diagnostic('warning', `${what(label, index)} is not valid UTF-8 (invalid bytes read as U+FFFD)`, { offset: start }));
      }
      return lenientUtf8.decode(view);
    }
  }

  /** Leftover bytes at the end of a record or chunk: an error in 1.0, skipped later (errata 15, 19). */
  leftover(end: number, what: string): void {
    if (this.pos < end) {
      if (this.minor === 0) {
        const n = end - this.pos;
        throw err(`${n} unexpected byte${n === 1 ? '' : 's'} at the end of ${what} (version 1.0 has no more fields)`, this.pos);
      }
      this.pos = end;
    }
  }

  date(): IspriteDate | null {
    const b = this.b;
    const p = this.pos;
    this.pos = p + 8;
    if ((b[p]! | b[p + 1]! | b[p + 2]! | b[p + 3]! | b[p + 4]! | b[p + 5]! | b[p + 6]! | b[p + 7]!) === 0) return null;
    return {
      year: b[p + 2]! | (b[p + 3]! << 8),
      month: b[p + 1]!,
      day: b[p]!,
      hour: b[p + 4]!,
      minute: b[p + 5]!,
      second: b[p + 6]!,
      centisecond: b[p + 7]!,
    };
  }
}

/** Reads a 24-bit fixed-point value at `p` (int16 LE + u8/256). */
function fx(b: Uint8Array, p: number): number {
  return (((b[p]! | (b[p + 1]! << 8)) << 16) >> 16) + b[p + 2]! / 256;
}

function u16at(b: Uint8Array, p: number): number {
  return b[p]! | (b[p + 1]! << 8);
}

function nameAt(b: Uint8Array, p: number): number | null {
  const n = b[p]! | (b[p + 1]! << 8);
  return n === 0xffff ? null : n;
}

/** True when `bytes` starts with the ISPRITE magic. */
export function isIsprite(bytes: Uint8Array): boolean {
  if (bytes.length < 8) return false;
  for (let i = 0; i < 8; i++) if (bytes[i] !== ISPRITE_MAGIC.charCodeAt(i)) return false;
  return true;
}

/** Reads an ISPRITE file. Throws FormatError (with the byte offset) for anything it cannot read. */
export function readIsprite(bytes: Uint8Array, ctx?: ReadContext): IspriteDocument {
  return readIspriteDetailed(bytes, ctx?.warn?.bind(ctx), false).doc;
}

/** The reader, also returning where things are (for `validate`). */
export function readIspriteDetailed(
  bytes: Uint8Array,
  warn: ((d: Diagnostic) => void) | undefined,
  track: boolean,
): { doc: IspriteDocument; info: IspriteReadInfo } {
  const r = new Reader(bytes, warn);
  const info: IspriteReadInfo = {
    chunks: [],
    flags: 0,
    reservedNonZero: false,
    maxElementCount: null,
    frameOffsets: [],
    sliceOffsets: [],
    textureOffsets: [],
    sequenceOffsets: new Map(),
    extraMetaOffsets: [],
  };
  const b = bytes;
  const len = b.length;
  if (!isIsprite(b)) throw err('not an ISPRITE file: it does not start with "ISPRITE "', 0);
  if (len < HEADER_SIZE) throw err(`unexpected end of header: the header needs ${HEADER_SIZE} bytes, the file has ${len}`, len);
  const major = b[12]!;
  const minor = b[13]!;
  if (major !== 1) throw err(`unsupported major version ${major} (only version 1.x is known)`, 12);
  r.minor = minor;
  r.pos = 8;
  const fileSize = r.u32();
  if (fileSize !== len - 12) {
    throw err(`file size field says ${fileSize} bytes follow it, but ${len - 12} do (the file is ${len} bytes)`, 8);
  }
  const flags = b[14]!;
  info.flags = flags;
  let idEnd = 18;
  while (idEnd > 15 && b[idEnd - 1] === 0) idEnd--;
  let nonStandardId = '';
  for (let i = 15; i < idEnd; i++) nonStandardId += String.fromCharCode(b[i]!);
  for (let i = 19; i < 24; i++) if (b[i] !== 0) info.reservedNonZero = true;
  if (flags & ~3) warn?.(diagnostic('warning', `header flags ${hex(flags)} set bits other than 0 and 1 (they must be zero)`, { offset: 14 }));
  if (info.reservedNonZero) warn?.(diagnostic('warning', 'the reserved header bytes 19-23 are not zero (ignored)', { offset: 19 }));

  const doc: IspriteDocument = {
    ...createIsprite(b[18]!),
    version: [major, minor],
    nonStandard: (flags & 1) !== 0,
    workFile: (flags & 2) !== 0,
    nonStandardId,
  };

  const seen = new Set<string>();
  let pos = HEADER_SIZE;
  let first = true;
  while (pos < len) {
    if (len - pos < 8) throw err(`unexpected end of file: a chunk header needs 8 bytes, ${len - pos} left`, pos);
    const id = String.fromCharCode(b[pos]!, b[pos + 1]!, b[pos + 2]!, b[pos + 3]!);
    r.pos = pos + 4;
    const size = r.u32();
    const start = pos + 8;
    if (size > len - start) {
      throw err(`chunk "${printable(id)}" size ${size} is larger than the ${len - start} bytes left in the file`, pos + 4);
    }
    const end = start + size;
    info.chunks.push({ id, offset: pos, size });
    const known = (KNOWN_CHUNKS as readonly string[]).includes(id);
    if (known) {
      if (seen.has(id)) throw err(`duplicate "${id}" chunk`, pos);
      seen.add(id);
    }
    r.pos = start;
    switch (id) {
      case 'META':
        if (!first) warn?.(diagnostic('warning', 'the META chunk is not the first chunk (it should be)', { offset: pos }));
        doc.meta = readMeta(r, end);
        r.leftover(end, 'the META chunk');
        break;
      case 'MET+':
        doc.extraMeta = readExtraMeta(r, end, track ? info.extraMetaOffsets : null);
        break;
      case 'TEX ':
        doc.textures = readTextures(r, end, track ? info.textureOffsets : null);
        r.leftover(end, 'the TEX chunk');
        break;
      case 'SLIC':
        doc.slices = readSlices(r, end, track ? info.sliceOffsets : null);
        r.leftover(end, 'the SLIC chunk');
        break;
      case 'NAME':
        doc.names = readNames(r, end);
        r.leftover(end, 'the NAME chunk');
        break;
      case 'TIER':
        doc.tree = readTier(r, end, track ? info.sequenceOffsets : null);
        break;
      case 'FRAM': {
        const res = readFrames(r, end, track ? info.frameOffsets : null);
        doc.frames = res.frames;
        info.maxElementCount = res.maxElementCount;
        r.leftover(end, 'the FRAM chunk');
        break;
      }
      default: {
        const chunk: IspriteUnknownChunk = { id, data: b.slice(start, end) };
        doc.unknownChunks.push(chunk);
      }
    }
    first = false;
    pos = end;
  }
  if (r.badUtf8 > UTF8_WARNINGS) {
    const n = r.badUtf8 - UTF8_WARNINGS;
    warn?.(diagnostic('warning', `${n} more string${n === 1 ? ' is' : 's are'} not valid UTF-8 (not listed)`));
  }
  return { doc, info };
}

function printable(id: string): string {
  let s = '';
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    s += c >= 0x20 && c < 0x7f && c !== 0x22 ? id[i] : `\\x${c.toString(16).padStart(2, '0')}`;
  }
  return s;
}

function readMeta(r: Reader, end: number): IspriteMeta {
  r.need(24, end, 'the META chunk');
  const created = r.date();
  const saved = r.date();
  const lo = r.u32();
  const hi = r.u32();
  const workTimeMs = (BigInt(hi) << 32n) | BigInt(lo);
  return {
    created,
    saved,
    workTimeMs,
    tags: r.str(end, 'META tags'),
    title: r.str(end, 'META title'),
    project: r.str(end, 'META project'),
    author: r.str(end, 'META author'),
    company: r.str(end, 'META company'),
    contact: r.str(end, 'META contact'),
    url: r.str(end, 'META URL'),
    copyright: r.str(end, 'META copyright'),
    comments: r.str(end, 'META comments'),
    originatingProgram: r.str(end, 'META originating program name'),
    program: r.str(end, 'META program name'),
  };
}

function readExtraMeta(r: Reader, end: number, offsets: number[] | null): [string, string][] {
  const out: [string, string][] = [];
  while (r.pos < end) {
    offsets?.push(r.pos);
    const name = r.str(end, 'MET+ field name');
    if (r.pos >= end) throw err(`MET+ field "${name}" has no value (the chunk ends after its name)`, r.pos);
    const value = r.str(end, 'MET+ field value');
    out.push([name, value]);
  }
  return out;
}

function readTextures(r: Reader, end: number, offsets: number[] | null): IspriteTexture[] {
  r.need(2, end, 'the TEX chunk');
  const countAt = r.pos;
  const count = r.u8();
  const strideAt = r.pos;
  const stride = r.u8();
  if (count === 0) return [];
  if (stride < 1) throw err('TEX stride 0 is smaller than this version\'s texture record (1 byte)', strideAt);
  if (stride > 1) {
    r.warn?.(diagnostic('warning', `TEX stride ${stride} is larger than this version's 1 byte; the extra bytes of each texture are skipped`, { offset: strideAt }));
  }
  if (count * (stride + 2) > end - r.pos) {
    throw err(`texture count ${count} needs at least ${count * (stride + 2)} bytes but only ${end - r.pos} remain in the chunk`, countAt);
  }
  const out: IspriteTexture[] = new Array(count);
  for (let i = 0; i < count; i++) {
    r.need(stride, end, `texture ${i}`);
    offsets?.push(r.pos);
    const flags = r.b[r.pos]!;
    r.pos += stride;
    out[i] = { path: r.str(end, 'texture # path', i), nearest: (flags & 1) !== 0 };
  }
  return out;
}

function readSlices(r: Reader, end: number, offsets: number[] | null): IspriteSlice[] {
  r.need(5, end, 'the SLIC chunk');
  const countAt = r.pos;
  const count = r.u32();
  const strideAt = r.pos;
  const stride = r.u8();
  if (count === 0) return [];
  if (stride < 10) throw err(`SLIC stride ${stride} is smaller than this version's 10-byte slice record`, strideAt);
  if (stride > 10) {
    r.warn?.(diagnostic('warning', `SLIC stride ${stride} is larger than this version's 10 bytes; the extra bytes of each slice are skipped`, { offset: strideAt }));
  }
  if (count * stride > end - r.pos) {
    throw err(`slice count ${count} needs ${count * stride} bytes but only ${end - r.pos} remain in the chunk`, countAt);
  }
  const b = r.b;
  let p = r.pos;
  const out: IspriteSlice[] = new Array(count);
  for (let i = 0; i < count; i++) {
    offsets?.push(p);
    out[i] = {
      texture: b[p]!,
      rotated: (b[p + 1]! & 1) !== 0,
      x: u16at(b, p + 2),
      y: u16at(b, p + 4),
      width: u16at(b, p + 6),
      height: u16at(b, p + 8),
    };
    p += stride;
  }
  r.pos = p;
  return out;
}

function readNames(r: Reader, end: number): string[] {
  r.need(2, end, 'the NAME chunk');
  const countAt = r.pos;
  const count = r.u16();
  if (count * 2 > end - r.pos) {
    throw err(`name count ${count} needs at least ${count * 2} bytes but only ${end - r.pos} remain in the chunk`, countAt);
  }
  const out: string[] = new Array(count);
  for (let i = 0; i < count; i++) out[i] = r.str(end, 'name #', i);
  return out;
}

function readTier(r: Reader, end: number, offsets: Map<IspriteSequence, number> | null): IspriteNode[] {
  const root: IspriteNode[] = [];
  const stack: { children: IspriteNode[]; at: number; name: string }[] = [];
  let children = root;
  const b = r.b;
  while (r.pos < end) {
    const at = r.pos;
    const marker = r.u8();
    if (marker === 0x47) {
      const name = r.str(end, 'group name');
      const group: IspriteNode = { kind: 'group', name, children: [] };
      children.push(group);
      stack.push({ children, at, name });
      children = group.children;
    } else if (marker === 0x53) {
      r.need(8, end, 'sequence');
      const frameCount = r.u32();
      const loop = r.u32();
      const name = r.str(end, 'sequence name');
      const followUp = r.str(end, 'follow-up sequence name');
      if (frameCount * 4 > end - r.pos) {
        throw err(`sequence "${name}" frame count ${frameCount} needs ${frameCount * 4} bytes but only ${end - r.pos} remain in the chunk`, at + 1);
      }
      const frames: number[] = new Array(frameCount);
      let p = r.pos;
      for (let i = 0; i < frameCount; i++, p += 4) {
        frames[i] = (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24)) >>> 0;
      }
      r.pos = p;
      const seq: IspriteSequence = { kind: 'sequence', name, loopPoint: loop === 0xffffffff ? null : loop, followUp, frames };
      offsets?.set(seq, at);
      children.push(seq);
    } else if (marker === 0x43) {
      const top = stack.pop();
      if (!top) throw err('closing marker "C" with no open group (already at Root)', at);
      children = top.children;
    } else {
      throw err(`unknown marker ${markerName(marker)} in the TIER chunk (expected "G", "S" or "C")`, at);
    }
  }
  if (stack.length) {
    const top = stack[stack.length - 1]!;
    throw err(`the TIER chunk ends with ${stack.length} group${stack.length === 1 ? '' : 's'} not closed (group "${top.name}" opened here)`, top.at);
  }
  return root;
}

/** The smallest frame record: F, size, element count, hold time, flags and three empty strings. */
const MIN_FRAME = 16;

function readFrames(
  r: Reader,
  end: number,
  offsets: number[] | null,
): { frames: IspriteFrame[]; maxElementCount: number } {
  r.need(6, end, 'the FRAM chunk');
  const countAt = r.pos;
  const count = r.u32();
  const maxElementCount = r.u16();
  if (count * MIN_FRAME > end - r.pos) {
    throw err(`frame count ${count} needs at least ${count * MIN_FRAME} bytes but only ${end - r.pos} remain in the chunk`, countAt);
  }
  const b = r.b;
  const strict = r.minor === 0;
  const frames: IspriteFrame[] = new Array(count);
  let p = r.pos;
  for (let f = 0; f < count; f++) {
    if (p + 5 > end) throw err(`unexpected end of the FRAM chunk: frame ${f} is missing`, p);
    offsets?.push(p);
    if (b[p] !== 0x46) throw err(`frame ${f}: marker ${markerName(b[p]!)} is not "F"`, p);
    const size = (b[p + 1]! | (b[p + 2]! << 8) | (b[p + 3]! << 16) | (b[p + 4]! << 24)) >>> 0;
    if (size < MIN_FRAME - 4) throw err(`frame ${f}: size ${size} is smaller than the ${MIN_FRAME - 4} bytes every frame needs`, p + 1);
    if (size > end - p - 4) throw err(`frame ${f}: size ${size} runs past the end of the FRAM chunk (${end - p - 4} bytes left)`, p + 1);
    const fend = p + 4 + size;
    const elementCount = b[p + 5]! | (b[p + 6]! << 8);
    const holdTime = b[p + 7]! | (b[p + 8]! << 8);
    const flags = b[p + 9]!;
    r.pos = p + 10;
    const label = r.str(fend, 'frame # label', f);
    const triggers = r.str(fend, 'frame # triggers', f);
    const notes = r.str(fend, 'frame # notes', f);
    let q = r.pos;
    if (elementCount * 4 > fend - q) {
      throw err(`frame ${f}: element count ${elementCount} needs at least ${elementCount * 4} bytes but only ${fend - q} remain in the frame`, p + 5);
    }
    const elements: IspriteElement[] = new Array(elementCount);
    for (let e = 0; e < elementCount; e++) {
      if (q + 4 > fend) throw err(`frame ${f} element ${e}: unexpected end of the frame`, q);
      const marker = b[q]!;
      const esize = b[q + 3]!;
      const eend = q + 4 + esize;
      if (eend > fend) throw err(`frame ${f} element ${e}: size ${esize} runs past the end of the frame (${fend - q - 4} bytes left)`, q + 3);
      const name = nameAt(b, q + 1);
      let el: IspriteElement;
      if (marker === 0x67 || marker === 0x47) {
        // "g": simple graphic, 9 bytes after the header; "G": expanded graphic, 26.
        const expanded = marker === 0x47;
        const want = expanded ? 26 : 9;
        if (esize !== want && (strict || esize < want)) {
          throw badSize(f, e, expanded ? 'expanded graphic ("G")' : 'simple graphic ("g")', esize, want, strict, q + 3);
        }
        const m = b[q + 12]!;
        const slice = u16at(b, q + 4);
        const x = fx(b, q + 6);
        const y = fx(b, q + 9);
        const flipX = (m & 1) !== 0;
        const flipY = (m & 2) !== 0;
        // Two literals, so that each kind keeps one object shape (reading speed).
        el = expanded
          ? {
              type: 'graphic', expanded, name, slice, x, y, flipX, flipY,
              originX: fx(b, q + 13),
              originY: fx(b, q + 16),
              rotation: fx(b, q + 19),
              scaleX: fx(b, q + 22),
              scaleY: fx(b, q + 25),
              opacity: u16at(b, q + 28),
            }
          : { type: 'graphic', expanded, name, slice, x, y, flipX, flipY };
      } else if (marker === 0x41) {
        // "A": attachment point, 21 bytes after the header; mirroring is a u16 (erratum 4).
        if (esize !== 21 && (strict || esize < 21)) throw badSize(f, e, 'attachment point ("A")', esize, 21, strict, q + 3);
        const m = u16at(b, q + 12);
        el = {
          type: 'attachment',
          name,
          id: u16at(b, q + 4),
          x: fx(b, q + 6),
          y: fx(b, q + 9),
          flipX: (m & 1) !== 0,
          flipY: (m & 2) !== 0,
          rotation: fx(b, q + 14),
          scaleX: fx(b, q + 17),
          scaleY: fx(b, q + 20),
          opacity: u16at(b, q + 23),
        };
      } else if (marker === 0x43) {
        // "C": collision object; type letter at offset 5, ID at 6 (erratum 3).
        if (esize < 2) throw err(`frame ${f} element ${e}: collision object size ${esize} is too small to hold its type letter`, q + 3);
        const type = b[q + 5]!;
        if (type === 0x72) {
          if (esize !== 20 && (strict || esize < 20)) throw badSize(f, e, 'collision rectangle', esize, 20, strict, q + 3);
          el = {
            type: 'rect',
            name,
            id: u16at(b, q + 6),
            x: fx(b, q + 8),
            y: fx(b, q + 11),
            width: fx(b, q + 14),
            height: fx(b, q + 17),
            rotation: fx(b, q + 21),
          };
        } else if (type === 0x63) {
          if (esize !== 13 && (strict || esize < 13)) throw badSize(f, e, 'collision circle', esize, 13, strict, q + 3);
          el = { type: 'circle', name, id: u16at(b, q + 6), x: fx(b, q + 8), y: fx(b, q + 11), radius: fx(b, q + 14) };
        } else if (strict) {
          throw err(`frame ${f} element ${e}: unknown collision type ${markerName(type)} (expected "r" or "c")`, q + 5);
        } else {
          el = { type: 'unknown', marker, name, data: b.slice(q + 4, eend) };
        }
      } else {
        el = { type: 'unknown', marker, name, data: esize === 0 ? EMPTY : b.slice(q + 4, eend) };
      }
      elements[e] = el;
      q = eend;
    }
    if (q < fend && strict) {
      throw err(`frame ${f}: ${fend - q} unexpected byte${fend - q === 1 ? '' : 's'} after its elements (the frame size says ${size})`, q);
    }
    frames[f] = { holdTime, loopPoint: (flags & 1) !== 0, label, triggers, notes, elements };
    p = fend;
  }
  r.pos = p;
  return { frames, maxElementCount };
}

function badSize(f: number, e: number, what: string, size: number, want: number, strict: boolean, at: number): FormatError {
  return err(
    `frame ${f} element ${e}: ${what} size ${size} ${strict ? 'is not' : 'is smaller than'} ${want}${strict ? ' (version 1.0)' : ''}`,
    at,
  );
}
