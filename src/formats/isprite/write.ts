/**
 * The canonical ISPRITE writer: header, then META, MET+, TEX, SLIC, NAME,
 * TIER, FRAM (the last five always), then unknown chunks in read order.
 * Every size, count and FRAM's maximum element count is computed here;
 * values that do not fit their fields are FormatErrors naming the field.
 * Every record is written at the offsets of its layout in records.ts, and
 * the buffer's size is computed from the same layouts.
 */
import { FormatError } from '../../binary/errors.js';
import { ByteWriter } from '../../binary/writer.js';
import type { IspriteDocument, IspriteElement, IspriteMeta, IspriteNode } from './model.js';
import { KNOWN_CHUNKS } from './read.js';
import { compactElements, type CompactElements } from './compact.js';
import {
  ATTACHMENT,
  CHUNK,
  CLOSE_MARKER,
  COLLISION_CIRCLE,
  COLLISION_RECT,
  EXPANDED_GRAPHIC,
  ELEMENT,
  FRAM,
  FRAME,
  FRAME_MARKER,
  GROUP_MARKER,
  HEADER,
  MARKER,
  MAX_ELEMENT_SIZE,
  META,
  META_STRINGS,
  NAME,
  NO_LOOP,
  NO_NAME,
  SEQUENCE,
  SEQUENCE_MARKER,
  SIMPLE_GRAPHIC,
  SLIC,
  SLICE,
  TEX,
  TEXTURE,
  elementSize,
  fieldError,
  fits,
  putFields,
  writeKnownElement,
  type Layout,
} from './records.js';

const FORMAT = 'isprite';
const encoder = new TextEncoder();
/** A string's length field. */
const STR = 2;

function fail(reason: string): FormatError {
  return new FormatError(FORMAT, reason);
}

/** ByteWriter plus ISPRITE's strings (lazily labelled errors) and chunks. */
class Writer extends ByteWriter {
  constructor(size: number) {
    super({ format: FORMAT, initialSize: size });
  }

  /** A u16-length UTF-8 string. */
  str(s: string, label: string, index = -1): void {
    const n = s.length;
    this.ensure(STR + n);
    const b = this.buffer;
    let p = this.pos + STR;
    let i = 0;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) break;
      b[p++] = c;
    }
    if (i === n) {
      if (n > 0xffff) throw fail(`${strWhat(label, index)} is ${n} bytes long; at most 65535 fit`);
      b[this.pos] = n;
      b[this.pos + 1] = n >>> 8;
      this.pos = p;
      return;
    }
    const bytes = encoder.encode(s);
    if (bytes.length > 0xffff) throw fail(`${strWhat(label, index)} is ${bytes.length} bytes long; at most 65535 fit`);
    this.u16(bytes.length);
    this.bytes(bytes);
  }

  /** Writes a fixed-size record from its field values (see putFields); returns its offset. */
  record<K extends string>(l: Layout<K>, values: Partial<Record<K, unknown>>, what = ''): number {
    const at = this.reserve(l.size);
    putFields(this.buffer, at, l, values, what);
    return at;
  }

  /** Starts a chunk; returns the offset of its header. */
  beginChunk(id: string): number {
    return this.record(CHUNK, { id }, `chunk "${id}"`);
  }

  endChunk(at: number): void {
    const size = this.pos - at - CHUNK.size;
    if (size > 0xffffffff) throw fail('a chunk is larger than 4 GiB');
    this.u32At(at + CHUNK.at.size, size);
  }
}

function strWhat(label: string, index: number): string {
  return index >= 0 ? label.replace('#', String(index)) : label;
}

function writeMeta(w: Writer, m: IspriteMeta): void {
  const at = w.beginChunk('META');
  let t: bigint;
  try {
    t = typeof m.workTimeMs === 'bigint' ? m.workTimeMs : BigInt(m.workTimeMs as unknown as number);
  } catch {
    throw fail(`META work time ${String(m.workTimeMs)} is not an integer`);
  }
  w.record(META, { created: m.created ?? null, saved: m.saved ?? null, workTimeMs: t }, 'META');
  for (const [k, label] of META_STRINGS) w.str(String(m[k] ?? ''), `META ${label}`);
  w.endChunk(at);
}

function writeTier(w: Writer, tree: IspriteNode[]): void {
  const at = w.beginChunk('TIER');
  let seqCount = 0;
  // Iterative, so that deeply nested groups cannot overflow the stack.
  const stack: { nodes: IspriteNode[]; i: number }[] = [{ nodes: tree, i: 0 }];
  while (stack.length) {
    const top = stack[stack.length - 1]!;
    if (top.i >= top.nodes.length) {
      stack.pop();
      if (stack.length) w.u8(CLOSE_MARKER);
      continue;
    }
    const node = top.nodes[top.i++]!;
    if (node.kind === 'group') {
      w.u8(GROUP_MARKER);
      w.str(node.name, `group "${node.name}" name`);
      stack.push({ nodes: node.children, i: 0 });
    } else if (node.kind === 'sequence') {
      const seqIndex = seqCount++;
      const frames = node.frames;
      const n = frames.length;
      const loopPoint = node.loopPoint === null || node.loopPoint === undefined ? NO_LOOP : node.loopPoint;
      const what = `sequence ${seqIndex} ("${node.name}")`;
      w.record(SEQUENCE, { marker: SEQUENCE_MARKER, frameCount: n, loopPoint }, what);
      w.str(node.name, 'sequence # name', seqIndex);
      w.str(node.followUp ?? '', 'sequence # follow-up', seqIndex);
      let p = w.reserve(4 * n);
      const b = w.buffer;
      for (let i = 0; i < n; i++, p += 4) {
        const id = frames[i]!;
        if (id !== id >>> 0) throw fail(`${what} frame ${i}: ${String(id)} is not a 32-bit frame ID`);
        b[p] = id;
        b[p + 1] = id >>> 8;
        b[p + 2] = id >>> 16;
        b[p + 3] = id >>> 24;
      }
    } else {
      throw fail(`a TIER node of kind "${String((node as { kind: unknown }).kind)}" is neither a group nor a sequence`);
    }
  }
  w.endChunk(at);
}

const F = FRAME.at;
/** Where a collision object's type letter is (erratum 3). */
const COLLISION_SHAPE = COLLISION_RECT.at.shape;
const HOLD_TIME = FRAME.fields.find((f) => f.key === 'holdTime')!;

function writeFrames(w: Writer, doc: IspriteDocument): void {
  const at = w.beginChunk('FRAM');
  const frames = doc.frames;
  const slices = doc.slices;
  const minor = doc.version[1];
  const head = w.reserve(FRAM.size);
  let maxElements = 0;
  for (let f = 0; f < frames.length; f++) {
    const fr = frames[f]!;
    // A frame as read, its elements still compact (compact.ts): written from their records.
    const c = compactElements(fr);
    const els = c ? EMPTY : fr.elements;
    const ne = c ? c.count : els.length;
    if (ne > 0xffff) throw fail(`frame ${f} has ${ne} elements; at most 65535 fit`);
    if (ne > maxElements) maxElements = ne;
    const hold = fr.holdTime;
    if (hold !== (hold & 0xffff)) throw fieldError(`frame ${f}`, HOLD_TIME, hold);
    // The frame's fixed fields (its size is patched once its elements are written).
    const start = w.reserve(FRAME.size);
    let b = w.buffer;
    b[start + F.marker] = FRAME_MARKER;
    b[start + F.elementCount] = ne;
    b[start + F.elementCount + 1] = ne >>> 8;
    b[start + F.holdTime] = hold;
    b[start + F.holdTime + 1] = hold >>> 8;
    b[start + F.flags] = fr.loopPoint ? 1 : 0;
    w.str(fr.label, 'frame # label', f);
    w.str(fr.triggers, 'frame # triggers', f);
    w.str(fr.notes, 'frame # notes', f);
    if (c) {
      writeCompact(w, c, f, minor);
      w.u32At(start + F.size, w.pos - start - 4);
      continue;
    }
    // Room for every element (exactly when all are known: unknown ones reserve their own).
    if (w.pos + ne * MAX_ELEMENT_SIZE > w.buffer.length) w.ensure(elementsSize(els, 0));
    b = w.buffer;
    let p = w.pos;
    for (let e = 0; e < ne; e++) {
      const el = els[e]!;
      if (el.type !== 'unknown') {
        p = writeKnownElement(b, p, el, slices, f, e);
        continue;
      }
      w.pos = p;
      writeUnknown(w, el, f, e, minor, els);
      b = w.buffer;
      p = w.pos;
    }
    w.pos = p;
    w.u32At(start + F.size, p - start - 4);
  }
  putFields(w.buffer, head, FRAM, { count: frames.length, maxElementCount: maxElements }, 'FRAM');
  w.endChunk(at);
}

const EMPTY: IspriteElement[] = [];

/** The record sizes each known marker gets in the canonical file, by marker (0: unknown, or a collision object). */
const CANONICAL = new Uint8Array(256);
CANONICAL[MARKER.simple] = SIMPLE_GRAPHIC.size;
CANONICAL[MARKER.expanded] = EXPANDED_GRAPHIC.size;
CANONICAL[MARKER.attachment] = ATTACHMENT.size;
const EL_SIZE = ELEMENT.at.size;
const G_MIRROR = SIMPLE_GRAPHIC.at.mirror;
const A_MIRROR = ATTACHMENT.at.mirror;

/** The size of a compact element record in the canonical file (what `elementSize` gives for it made into an element). */
function canonicalSize(sb: Uint8Array, o: number): number {
  const m = sb[o]!;
  const n = CANONICAL[m]!;
  if (n) return n;
  if (m === MARKER.collision) {
    const shape = sb[o + COLLISION_SHAPE];
    if (shape === MARKER.rect) return COLLISION_RECT.size;
    if (shape === MARKER.circle) return COLLISION_CIRCLE.size;
  }
  return ELEMENT.size + sb[o + EL_SIZE]!;
}

/** The canonical size of a compact frame's elements. */
function compactSize(c: CompactElements): number {
  const sb = c.store.bytes;
  let n = 0;
  for (let i = 0, o = c.at; i < c.count; i++, o += ELEMENT.size + sb[o + EL_SIZE]!) n += canonicalSize(sb, o);
  return n;
}

/**
 * Writes a compact frame's elements (compact.ts) from their records: the
 * bytes writeKnownElement writes for the element the record reads as. A
 * known record is its layout's part of the bytes read, with the size byte
 * of the layout, the mirror bits other than 0 and 1 and the reserved bytes
 * cleared (the fields read as they are: a fixed-point value read and
 * written again gives the same three bytes); an unknown one is written as
 * writeUnknown writes it (with its checks).
 */
function writeCompact(w: Writer, c: CompactElements, f: number, minor: number): void {
  const sb = c.store.bytes;
  const span = canonicalSpan(sb, c.at, c.count);
  if (span >= 0) {
    // Every record already as the writer writes it: one copy.
    w.ensure(span);
    w.buffer.set(sb.subarray(c.at, c.at + span), w.pos);
    w.pos += span;
    return;
  }
  w.ensure(compactSize(c));
  let b = w.buffer;
  let p = w.pos;
  let next = c.at;
  for (let e = 0; e < c.count; e++) {
    const o = next;
    next = o + ELEMENT.size + sb[o + EL_SIZE]!;
    const m = sb[o]!;
    let n = CANONICAL[m]!;
    if (n === 0 && m === MARKER.collision) {
      const shape = sb[o + COLLISION_SHAPE];
      if (shape === MARKER.rect) n = COLLISION_RECT.size;
      else if (shape === MARKER.circle) n = COLLISION_CIRCLE.size;
    }
    if (n === 0) {
      w.pos = p;
      writeUnknownRecord(w, c.store.element(o) as Extract<IspriteElement, { type: 'unknown' }>, f, e, minor);
      b = w.buffer;
      p = w.pos;
      continue;
    }
    for (let i = 0; i < n; i++) b[p + i] = sb[o + i]!;
    b[p + EL_SIZE] = n - ELEMENT.size;
    if (m === MARKER.attachment) {
      b[p + A_MIRROR] = b[p + A_MIRROR]! & 3;
      b[p + A_MIRROR + 1] = 0;
    } else if (m === MARKER.collision) {
      b[p + COLLISION_RECT.at.reserved] = 0;
      if (n === COLLISION_RECT.size) b[p + COLLISION_RECT.at.reserved2] = 0;
    } else b[p + G_MIRROR] = b[p + G_MIRROR]! & 3;
    p += n;
  }
  w.pos = p;
}

/**
 * The length of `count` records from `at` when every one of them is a known
 * element's record exactly as writeCompact would write it (its layout's
 * size, no mirror bits but 0 and 1, zero reserved bytes), else -1.
 */
function canonicalSpan(sb: Uint8Array, at: number, count: number): number {
  let o = at;
  for (let e = 0; e < count; e++) {
    const m = sb[o]!;
    const size = sb[o + EL_SIZE]!;
    const n = ELEMENT.size + size;
    if (m === MARKER.simple || m === MARKER.expanded) {
      if (n !== CANONICAL[m] || sb[o + G_MIRROR]! & ~3) return -1;
    } else if (m === MARKER.attachment) {
      if (n !== ATTACHMENT.size || sb[o + A_MIRROR]! & ~3 || sb[o + A_MIRROR + 1]) return -1;
    } else if (m === MARKER.collision) {
      const shape = sb[o + COLLISION_SHAPE];
      if (sb[o + COLLISION_RECT.at.reserved]) return -1;
      if (shape === MARKER.rect) {
        if (n !== COLLISION_RECT.size || sb[o + COLLISION_RECT.at.reserved2]) return -1;
      } else if (shape !== MARKER.circle || n !== COLLISION_CIRCLE.size) return -1;
    } else return -1;
    o += n;
  }
  return o - at;
}

/** Writes an element of a kind this version does not know, as it was read. */
function writeUnknown(
  w: Writer,
  el: Extract<IspriteElement, { type: 'unknown' }>,
  f: number,
  e: number,
  minor: number,
  els: IspriteElement[],
): void {
  // Keep the room the frame reserved for the elements after this one.
  if (w.pos + ELEMENT.size + el.data.length + MAX_ELEMENT_SIZE * (els.length - e - 1) > w.buffer.length) w.ensure(elementsSize(els, e));
  writeUnknownRecord(w, el, f, e, minor);
}

/** An unknown element's record, after the checks that it can be written (and reads back as itself). */
function writeUnknownRecord(w: Writer, el: Extract<IspriteElement, { type: 'unknown' }>, f: number, e: number, minor: number): void {
  const m = el.marker;
  const data = el.data;
  const name = el.name === null || el.name === undefined ? NO_NAME : el.name;
  if (m === MARKER.simple || m === MARKER.expanded || m === MARKER.attachment) {
    throw fail(
      `frame ${f} element ${e}: an unknown element cannot use the marker ${String.fromCharCode(m)} (it would read back as a known element)`,
    );
  }
  if (data.length > 0xff) throw fail(`frame ${f} element ${e}: unknown element data is ${data.length} bytes; at most 255 fit`);
  if (m === MARKER.collision) {
    if (minor === 0) throw fail(`frame ${f} element ${e}: a collision object of unknown type cannot be written in version 1.0`);
    const shape = data[COLLISION_SHAPE - ELEMENT.size];
    if (data.length < COLLISION_SHAPE + 1 - ELEMENT.size || shape === MARKER.rect || shape === MARKER.circle) {
      throw fail(
        `frame ${f} element ${e}: an unknown collision object needs a type letter other than "r" and "c" at offset ${COLLISION_SHAPE}`,
      );
    }
  }
  w.record(ELEMENT, { marker: m, name, size: data.length }, `frame ${f} element ${e}`);
  w.bytes(data);
}

/** The exact size of elements `from`.. of a frame. */
function elementsSize(els: IspriteElement[], from: number): number {
  let n = 0;
  for (let e = from; e < els.length; e++) n += elementSize(els[e]!);
  return n;
}

/** The file size when every string is ASCII (a lower bound otherwise): from the record layouts. */
function estimateSize(doc: IspriteDocument): number {
  let n = HEADER.size;
  const m = doc.meta;
  if (m) {
    n += CHUNK.size + META.size + META_STRINGS.length * STR;
    for (const [k] of META_STRINGS) n += String(m[k] ?? '').length;
  }
  if (doc.extraMeta) {
    n += CHUNK.size;
    for (const [k, v] of doc.extraMeta) n += 2 * STR + k.length + v.length;
  }
  n += CHUNK.size + TEX.size;
  for (const t of doc.textures) n += TEXTURE.size + STR + t.path.length;
  n += CHUNK.size + SLIC.size + doc.slices.length * SLICE.size;
  n += CHUNK.size + NAME.size;
  for (const name of doc.names) n += STR + name.length;
  n += CHUNK.size;
  const stack: IspriteNode[][] = [doc.tree];
  while (stack.length) {
    for (const node of stack.pop()!) {
      if (node.kind === 'group') {
        // "G", its name, and the closing "C".
        n += 1 + STR + node.name.length + 1;
        stack.push(node.children);
      } else {
        n += SEQUENCE.size + 2 * STR + node.name.length + (node.followUp ?? '').length + 4 * node.frames.length;
      }
    }
  }
  n += CHUNK.size + FRAM.size;
  const frames = doc.frames;
  for (let f = 0; f < frames.length; f++) {
    const fr = frames[f]!;
    n += FRAME.size + 3 * STR + fr.label.length + fr.triggers.length + fr.notes.length;
    const c = compactElements(fr);
    if (c) {
      n += compactSize(c);
      continue;
    }
    const els = fr.elements;
    for (let e = 0; e < els.length; e++) n += elementSize(els[e]!);
  }
  for (const c of doc.unknownChunks) n += CHUNK.size + c.data.length;
  return n;
}

/** Writes a document in canonical form. Throws FormatError for values that do not fit. */
export function writeIsprite(doc: IspriteDocument): Uint8Array {
  const [major, minor] = doc.version ?? [1, 0];
  if (major !== 1) throw fail(`cannot write major version ${major} (only 1.x)`);
  const id = doc.nonStandardId ?? '';
  if (id.length > 3) throw fail(`non-standard identifier "${id}" is longer than 3 bytes`);
  for (let i = 0; i < id.length; i++) {
    if (id.charCodeAt(i) > 0xff) throw fail(`non-standard identifier "${id}" is not 3 single-byte characters`);
  }
  if (doc.textures.length > 255) throw fail(`${doc.textures.length} textures; at most 255 fit`);
  if (doc.names.length > 0xffff) throw fail(`${doc.names.length} element names; at most 65535 fit`);

  const w = new Writer(estimateSize(doc));
  // The file size is patched at the end.
  w.record(HEADER, {
    magic: 'ISPRITE ',
    fileSize: 0,
    major,
    minor,
    flags: (doc.nonStandard ? 1 : 0) | (doc.workFile ? 2 : 0),
    nonStandardId: id,
    frameRate: doc.frameRate,
  });

  if (doc.meta) writeMeta(w, doc.meta);

  if (doc.extraMeta) {
    const at = w.beginChunk('MET+');
    doc.extraMeta.forEach(([k, v], i) => {
      w.str(k, 'MET+ field # name', i);
      w.str(v, 'MET+ field # value', i);
    });
    w.endChunk(at);
  }

  {
    const at = w.beginChunk('TEX ');
    w.record(TEX, { count: doc.textures.length, stride: TEXTURE.size });
    doc.textures.forEach((t, i) => {
      w.record(TEXTURE, { flags: t.nearest ? 1 : 0 }, `texture ${i}`);
      w.str(t.path, 'texture # path', i);
    });
    w.endChunk(at);
  }

  {
    const at = w.beginChunk('SLIC');
    const slices = doc.slices;
    w.record(SLIC, { count: slices.length, stride: SLICE.size });
    for (let i = 0; i < slices.length; i++) {
      const s = slices[i]!;
      w.record(SLICE, { ...s, flags: s.rotated ? 1 : 0 }, `slice ${i}`);
    }
    w.endChunk(at);
  }

  {
    const at = w.beginChunk('NAME');
    w.record(NAME, { count: doc.names.length });
    doc.names.forEach((n, i) => w.str(n, 'name #', i));
    w.endChunk(at);
  }

  writeTier(w, doc.tree);
  writeFrames(w, doc);

  for (const c of doc.unknownChunks) {
    if (c.id.length !== 4 || !fits('tag4', c.id)) throw fail(`unknown chunk ID "${c.id}" is not 4 single-byte characters`);
    if ((KNOWN_CHUNKS as readonly string[]).includes(c.id)) throw fail(`an unknown chunk cannot have the known ID "${c.id}"`);
    const at = w.beginChunk(c.id);
    w.bytes(c.data);
    w.endChunk(at);
  }

  const total = w.pos;
  const after = HEADER.at.fileSize + 4;
  if (total - after > 0xffffffff) throw fail('the file would be larger than 4 GiB');
  w.u32At(HEADER.at.fileSize, total - after);
  // The estimate is exact when every string is ASCII: no copy then.
  return total === w.buffer.length ? w.buffer : w.buffer.slice(0, total);
}
