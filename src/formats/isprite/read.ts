/**
 * The ISPRITE reader (Vision Riders Integrated Sprite System 1.0), following
 * docs/spec/isprite.md (errata 1-19). Every count and length is
 * checked against the bytes that remain before anything is allocated or
 * looped over; every problem is a FormatError naming its byte offset.
 *
 * It reads through the checked ByteReader (src/binary/reader.ts), one
 * sub-reader per chunk and per frame, at the offsets of the record layouts
 * in records.ts: each fixed-size record's bounds are checked once, then its
 * fields are read with the reader's unchecked `*At` getters.
 */
import { ByteReader } from '../../binary/reader.js';
import { FormatError, diagnostic, type Diagnostic } from '../../binary/errors.js';
import type { ReadContext } from '../types.js';
import { createIsprite } from './model.js';
import type {
  IspriteDocument,
  IspriteFrame,
  IspriteMeta,
  IspriteNode,
  IspriteSequence,
  IspriteSlice,
  IspriteTexture,
  IspriteUnknownChunk,
} from './model.js';
import {
  CHUNK,
  CLOSE_MARKER,
  ELEMENT,
  FRAM,
  FRAME,
  FRAME_MARKER,
  GROUP_MARKER,
  HEADER,
  META,
  META_STRINGS,
  MIN_FRAME,
  NAME,
  NO_LOOP,
  SEQUENCE,
  SEQUENCE_MARKER,
  SLIC,
  SLICE,
  TEX,
  TEXTURE,
  readFields,
  scanElements,
} from './records.js';
import { IspriteElementStore, StoredFrame } from './compact.js';

const FORMAT = 'isprite';
export const ISPRITE_MAGIC = 'ISPRITE ';
export const HEADER_SIZE = HEADER.size;
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

/** What the whole read shares: the version's strictness and the UTF-8 warnings. */
class Context {
  minor = 0;
  badUtf8 = 0;
  readonly warn?: (d: Diagnostic) => void;

  constructor(warn?: (d: Diagnostic) => void) {
    this.warn = warn;
  }

  /**
   * A u16-length UTF-8 string that must end by the end of `r` (its chunk or
   * frame). `label` names it in messages; a `#` in it is replaced by `index`.
   */
  str(r: ByteReader, label: string, index = -1): string {
    const at = r.pos;
    const end = r.end;
    if (at + 2 > end) throw err(`unexpected end of data: ${what(label, index)} needs a 2-byte length, ${end - at} left`, at);
    const n = r.u16At(at);
    if (n === 0) {
      r.pos = at + 2;
      return '';
    }
    const start = at + 2;
    const stop = start + n;
    if (stop > end) throw err(`${what(label, index)} of ${n} bytes is longer than the ${end - start} bytes left`, at);
    r.pos = stop;
    const b = r.bytes;
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

  /** Leftover bytes at the end of a chunk: an error in 1.0, skipped later (errata 15, 19). */
  leftover(r: ByteReader, what: string): void {
    if (r.pos < r.end) {
      if (this.minor === 0) {
        const n = r.end - r.pos;
        throw err(`${n} unexpected byte${n === 1 ? '' : 's'} at the end of ${what} (version 1.0 has no more fields)`, r.pos);
      }
      r.pos = r.end;
    }
  }
}

/** True when `bytes` starts with the ISPRITE magic. */
export function isIsprite(bytes: Uint8Array): boolean {
  if (bytes.length < 8) return false;
  for (let i = 0; i < 8; i++) if (bytes[i] !== ISPRITE_MAGIC.charCodeAt(i)) return false;
  return true;
}

/** Reads an ISPRITE file. Throws FormatError (with the byte offset) for anything it cannot read. */
export function readIsprite(bytes: Uint8Array, ctx?: ReadContext): IspriteDocument {
  return readIspriteDetailed(bytes, ctx?.warn?.bind(ctx), false, ctx?.keepBytes === true).doc;
}

/** The reader, also returning where things are (for `validate`). */
export function readIspriteDetailed(
  bytes: Uint8Array,
  warn: ((d: Diagnostic) => void) | undefined,
  track: boolean,
  keepBytes = false,
): { doc: IspriteDocument; info: IspriteReadInfo } {
  const c = new Context(warn);
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
  const len = bytes.length;
  if (!isIsprite(bytes)) throw err('not an ISPRITE file: it does not start with "ISPRITE "', 0);
  if (len < HEADER.size) throw err(`unexpected end of header: the header needs ${HEADER.size} bytes, the file has ${len}`, len);
  const r = new ByteReader(bytes, { format: FORMAT });
  const h = HEADER.at;
  const major = r.u8At(h.major);
  const minor = r.u8At(h.minor);
  if (major !== 1) throw err(`unsupported major version ${major} (only version 1.x is known)`, h.major);
  c.minor = minor;
  const fileSize = r.u32At(h.fileSize);
  if (fileSize !== len - (h.fileSize + 4)) {
    throw err(`file size field says ${fileSize} bytes follow it, but ${len - (h.fileSize + 4)} do (the file is ${len} bytes)`, h.fileSize);
  }
  const flags = r.u8At(h.flags);
  info.flags = flags;
  let idEnd = h.nonStandardId + 3;
  while (idEnd > h.nonStandardId && bytes[idEnd - 1] === 0) idEnd--;
  let nonStandardId = '';
  for (let i = h.nonStandardId; i < idEnd; i++) nonStandardId += String.fromCharCode(bytes[i]!);
  for (let i = h.reserved; i < HEADER.size; i++) if (bytes[i] !== 0) info.reservedNonZero = true;
  if (flags & ~3)
    warn?.(diagnostic('warning', `header flags ${hex(flags)} set bits other than 0 and 1 (they must be zero)`, { offset: h.flags }));
  if (info.reservedNonZero) {
    warn?.(
      diagnostic('warning', `the reserved header bytes ${h.reserved}-${HEADER.size - 1} are not zero (ignored)`, { offset: h.reserved }),
    );
  }

  const doc: IspriteDocument = {
    ...createIsprite(r.u8At(h.frameRate)),
    version: [major, minor],
    nonStandard: (flags & 1) !== 0,
    workFile: (flags & 2) !== 0,
    nonStandardId,
  };

  const seen = new Set<string>();
  r.pos = HEADER.size;
  let first = true;
  while (r.pos < len) {
    const pos = r.pos;
    if (len - pos < CHUNK.size) throw err(`unexpected end of file: a chunk header needs ${CHUNK.size} bytes, ${len - pos} left`, pos);
    const { id, size } = readFields(r, CHUNK, pos) as { id: string; size: number };
    const start = pos + CHUNK.size;
    if (size > len - start) {
      throw err(`chunk "${printable(id)}" size ${size} is larger than the ${len - start} bytes left in the file`, pos + CHUNK.at.size);
    }
    info.chunks.push({ id, offset: pos, size });
    const known = (KNOWN_CHUNKS as readonly string[]).includes(id);
    if (known) {
      if (seen.has(id)) throw err(`duplicate "${id}" chunk`, pos);
      seen.add(id);
    }
    r.pos = start;
    const cr = r.sub(size);
    switch (id) {
      case 'META':
        if (!first) warn?.(diagnostic('warning', 'the META chunk is not the first chunk (it should be)', { offset: pos }));
        doc.meta = readMeta(cr, c);
        c.leftover(cr, 'the META chunk');
        break;
      case 'MET+':
        doc.extraMeta = readExtraMeta(cr, c, track ? info.extraMetaOffsets : null);
        break;
      case 'TEX ':
        doc.textures = readTextures(cr, c, track ? info.textureOffsets : null);
        c.leftover(cr, 'the TEX chunk');
        break;
      case 'SLIC':
        doc.slices = readSlices(cr, c, track ? info.sliceOffsets : null);
        c.leftover(cr, 'the SLIC chunk');
        break;
      case 'NAME':
        doc.names = readNames(cr, c);
        c.leftover(cr, 'the NAME chunk');
        break;
      case 'TIER':
        doc.tree = readTier(cr, c, track ? info.sequenceOffsets : null);
        break;
      case 'FRAM': {
        const res = readFrames(cr, c, track ? info.frameOffsets : null, keepBytes);
        doc.frames = res.frames;
        info.maxElementCount = res.maxElementCount;
        c.leftover(cr, 'the FRAM chunk');
        break;
      }
      default: {
        const chunk: IspriteUnknownChunk = { id, data: cr.bytesCopy(size) };
        doc.unknownChunks.push(chunk);
      }
    }
    first = false;
  }
  if (c.badUtf8 > UTF8_WARNINGS) {
    const n = c.badUtf8 - UTF8_WARNINGS;
    warn?.(diagnostic('warning', `${n} more string${n === 1 ? ' is' : 's are'} not valid UTF-8 (not listed)`));
  }
  return { doc, info };
}

function printable(id: string): string {
  let s = '';
  for (let i = 0; i < id.length; i++) {
    const ch = id.charCodeAt(i);
    s += ch >= 0x20 && ch < 0x7f && ch !== 0x22 ? id[i] : `\\x${ch.toString(16).padStart(2, '0')}`;
  }
  return s;
}

function readMeta(r: ByteReader, c: Context): IspriteMeta {
  r.need(META.size, 'the META chunk');
  const fixed = readFields(r, META, r.pos);
  r.pos += META.size;
  const meta = { created: fixed.created, saved: fixed.saved, workTimeMs: fixed.workTimeMs } as IspriteMeta;
  for (const [key, label] of META_STRINGS) meta[key] = c.str(r, `META ${label}`);
  return meta;
}

function readExtraMeta(r: ByteReader, c: Context, offsets: number[] | null): [string, string][] {
  const out: [string, string][] = [];
  while (r.pos < r.end) {
    offsets?.push(r.pos);
    const name = c.str(r, 'MET+ field name');
    if (r.pos >= r.end) throw err(`MET+ field "${name}" has no value (the chunk ends after its name)`, r.pos);
    const value = c.str(r, 'MET+ field value');
    out.push([name, value]);
  }
  return out;
}

function readTextures(r: ByteReader, c: Context, offsets: number[] | null): IspriteTexture[] {
  r.need(TEX.size, 'the TEX chunk');
  const countAt = r.pos + TEX.at.count;
  const strideAt = r.pos + TEX.at.stride;
  const count = r.u8At(countAt);
  const stride = r.u8At(strideAt);
  r.pos += TEX.size;
  if (count === 0) return [];
  const want = TEXTURE.size;
  if (stride < want)
    throw err(`TEX stride ${stride} is smaller than this version's texture record (${want} byte${want === 1 ? '' : 's'})`, strideAt);
  if (stride > want) {
    c.warn?.(
      diagnostic(
        'warning',
        `TEX stride ${stride} is larger than this version's ${want} byte${want === 1 ? '' : 's'}; the extra bytes of each texture are skipped`,
        { offset: strideAt },
      ),
    );
  }
  // Each texture: its record, then at least a string's 2-byte length.
  r.checkCount(count, stride + 2, 'texture', countAt, ' in the chunk');
  const out: IspriteTexture[] = new Array(count);
  for (let i = 0; i < count; i++) {
    r.need(stride, `texture ${i}`);
    offsets?.push(r.pos);
    const flags = r.u8At(r.pos + TEXTURE.at.flags);
    r.pos += stride;
    out[i] = { path: c.str(r, 'texture # path', i), nearest: (flags & 1) !== 0 };
  }
  return out;
}

function readSlices(r: ByteReader, c: Context, offsets: number[] | null): IspriteSlice[] {
  r.need(SLIC.size, 'the SLIC chunk');
  const countAt = r.pos + SLIC.at.count;
  const strideAt = r.pos + SLIC.at.stride;
  const count = r.u32At(countAt);
  const stride = r.u8At(strideAt);
  r.pos += SLIC.size;
  if (count === 0) return [];
  if (stride < SLICE.size) throw err(`SLIC stride ${stride} is smaller than this version's ${SLICE.size}-byte slice record`, strideAt);
  if (stride > SLICE.size) {
    c.warn?.(
      diagnostic(
        'warning',
        `SLIC stride ${stride} is larger than this version's ${SLICE.size} bytes; the extra bytes of each slice are skipped`,
        { offset: strideAt },
      ),
    );
  }
  r.checkCount(count, stride, 'slice', countAt, ' in the chunk', false);
  let p = r.pos;
  const out: IspriteSlice[] = new Array(count);
  for (let i = 0; i < count; i++) {
    offsets?.push(p);
    const s = readFields(r, SLICE, p);
    out[i] = { texture: s.texture, rotated: (s.flags & 1) !== 0, x: s.x, y: s.y, width: s.width, height: s.height };
    p += stride;
  }
  r.pos = p;
  return out;
}

function readNames(r: ByteReader, c: Context): string[] {
  r.need(NAME.size, 'the NAME chunk');
  const countAt = r.pos + NAME.at.count;
  const count = r.u16At(countAt);
  r.pos += NAME.size;
  r.checkCount(count, 2, 'name', countAt, ' in the chunk');
  const out: string[] = new Array(count);
  for (let i = 0; i < count; i++) out[i] = c.str(r, 'name #', i);
  return out;
}

function readTier(r: ByteReader, c: Context, offsets: Map<IspriteSequence, number> | null): IspriteNode[] {
  const root: IspriteNode[] = [];
  const stack: { children: IspriteNode[]; at: number; name: string }[] = [];
  let children = root;
  while (r.pos < r.end) {
    const at = r.pos;
    const marker = r.u8();
    if (marker === GROUP_MARKER) {
      const name = c.str(r, 'group name');
      const group: IspriteNode = { kind: 'group', name, children: [] };
      children.push(group);
      stack.push({ children, at, name });
      children = group.children;
    } else if (marker === SEQUENCE_MARKER) {
      r.need(SEQUENCE.size - 1, 'sequence');
      const frameCount = r.u32At(at + SEQUENCE.at.frameCount);
      const loop = r.u32At(at + SEQUENCE.at.loopPoint);
      r.pos = at + SEQUENCE.size;
      const name = c.str(r, 'sequence name');
      const followUp = c.str(r, 'follow-up sequence name');
      if (frameCount * 4 > r.remaining)
        r.checkCount(frameCount, 4, `sequence "${name}" frame`, at + SEQUENCE.at.frameCount, ' in the chunk', false);
      const frames: number[] = new Array(frameCount);
      let p = r.pos;
      for (let i = 0; i < frameCount; i++, p += 4) frames[i] = r.u32At(p);
      r.pos = p;
      const seq: IspriteSequence = { kind: 'sequence', name, loopPoint: loop === NO_LOOP ? null : loop, followUp, frames };
      offsets?.set(seq, at);
      children.push(seq);
    } else if (marker === CLOSE_MARKER) {
      const top = stack.pop();
      if (!top) throw err('closing marker "C" with no open group (already at Root)', at);
      children = top.children;
    } else {
      throw err(`unknown marker ${markerName(marker)} in the TIER chunk (expected "G", "S" or "C")`, at);
    }
  }
  if (stack.length) {
    const top = stack[stack.length - 1]!;
    throw err(
      `the TIER chunk ends with ${stack.length} group${stack.length === 1 ? '' : 's'} not closed (group "${top.name}" opened here)`,
      top.at,
    );
  }
  return root;
}

const F = FRAME.at;

function readFrames(
  r: ByteReader,
  c: Context,
  offsets: number[] | null,
  keepBytes: boolean,
): { frames: IspriteFrame[]; maxElementCount: number } {
  r.need(FRAM.size, 'the FRAM chunk');
  const countAt = r.pos + FRAM.at.count;
  const count = r.u32At(countAt);
  const maxElementCount = r.u16At(r.pos + FRAM.at.maxElementCount);
  r.pos += FRAM.size;
  r.checkCount(count, MIN_FRAME, 'frame', countAt, ' in the chunk');
  const strict = c.minor === 0;
  const end = r.end;
  const frames: IspriteFrame[] = new Array(count);
  // The elements stay as they are in the file (compact.ts): in a copy of the
  // chunk's bytes (the caller's may change; unless it said they will not).
  const base = r.pos;
  const store = new IspriteElementStore(keepBytes ? r.bytes.subarray(base, end) : r.bytes.slice(base, end));
  // One reader, aimed at each frame in turn (not one per frame: reading speed).
  const fr = r.sub(0);
  const b = r.bytes;
  for (let f = 0; f < count; f++) {
    const p = r.pos;
    if (p + F.elementCount > end) throw err(`unexpected end of the FRAM chunk: frame ${f} is missing`, p);
    offsets?.push(p);
    const marker = r.u8At(p + F.marker);
    if (marker !== FRAME_MARKER) throw err(`frame ${f}: marker ${markerName(marker)} is not "F"`, p);
    const size = r.u32At(p + F.size);
    // The size counts every byte of the frame but its own four (erratum 12).
    if (size < MIN_FRAME - 4)
      throw err(`frame ${f}: size ${size} is smaller than the ${MIN_FRAME - 4} bytes every frame needs`, p + F.size);
    if (size > end - p - 4)
      throw err(`frame ${f}: size ${size} runs past the end of the FRAM chunk (${end - p - 4} bytes left)`, p + F.size);
    const fend = p + 4 + size;
    // The frame's own reader ends where the frame does: its strings and elements cannot run past it.
    fr.retarget(p + FRAME.size, fend);
    r.pos = fend;
    const elementCount = fr.u16At(p + F.elementCount);
    const holdTime = fr.u16At(p + F.holdTime);
    const flags = fr.u8At(p + F.flags);
    const label = c.str(fr, 'frame # label', f);
    const triggers = c.str(fr, 'frame # triggers', f);
    const notes = c.str(fr, 'frame # notes', f);
    // (Checked here first so that the message is only built for a bad count.)
    if (elementCount * ELEMENT.size > fr.remaining)
      fr.checkCount(elementCount, ELEMENT.size, `frame ${f}: element`, p + F.elementCount, ' in the frame');
    const first = fr.pos;
    const q = scanElements(b, first, elementCount, fend, strict, f);
    if (q < fend && strict) {
      throw err(`frame ${f}: ${fend - q} unexpected byte${fend - q === 1 ? '' : 's'} after its elements (the frame size says ${size})`, q);
    }
    frames[f] = new StoredFrame(holdTime, (flags & 1) !== 0, label, triggers, notes, store, first - base, elementCount);
  }
  return { frames, maxElementCount };
}
