/**
 * The canonical ISPRITE writer: header, then META, MET+, TEX, SLIC, NAME,
 * TIER, FRAM (the last five always), then unknown chunks in read order.
 * Every size, count and FRAM's maximum element count is computed here;
 * values that do not fit their fields are FormatErrors.
 */
import { FormatError } from '../../binary/errors.js';
import { ByteWriter } from '../../binary/writer.js';
import { KNOWN_CHUNKS } from './read.js';
import { sliceCentre, type IspriteDate, type IspriteDocument, type IspriteElement, type IspriteGraphic, type IspriteMeta, type IspriteNode } from './model.js';

const FORMAT = 'isprite';
const encoder = new TextEncoder();

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
    this.ensure(2 + n);
    const b = this.buffer;
    let p = this.pos + 2;
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

  /** Starts a chunk; returns the offset of its size field. */
  beginChunk(id: string): number {
    this.ensure(8);
    this.ascii(id);
    const at = this.pos;
    this.pos += 4;
    return at;
  }

  endChunk(sizeAt: number): void {
    const size = this.pos - sizeAt - 4;
    if (size > 0xffffffff) throw fail('a chunk is larger than 4 GiB');
    this.u32At(sizeAt, size);
  }
}

function isU8(v: number): boolean {
  return v === (v & 0xff);
}
function isU16(v: number): boolean {
  return v === (v & 0xffff);
}
function isU32(v: number): boolean {
  return v === v >>> 0;
}

function strWhat(label: string, index: number): string {
  return index >= 0 ? label.replace('#', String(index)) : label;
}

function check(ok: boolean, what: () => string, v: unknown, kind: string): void {
  if (!ok) throw fail(`${what()}: ${String(v)} is not a ${kind}`);
}

function writeDate(w: Writer, d: IspriteDate | null, what: string): void {
  w.ensure(8);
  if (!d) {
    w.u32(0);
    w.u32(0);
    return;
  }
  check(isU8(d.day), () => `${what} day`, d.day, 'byte');
  check(isU8(d.month), () => `${what} month`, d.month, 'byte');
  check(isU16(d.year), () => `${what} year`, d.year, '16-bit year');
  check(isU8(d.hour), () => `${what} hour`, d.hour, 'byte');
  check(isU8(d.minute), () => `${what} minute`, d.minute, 'byte');
  check(isU8(d.second), () => `${what} second`, d.second, 'byte');
  check(isU8(d.centisecond), () => `${what} centisecond`, d.centisecond, 'byte');
  w.u8(d.day);
  w.u8(d.month);
  w.u16(d.year);
  w.u8(d.hour);
  w.u8(d.minute);
  w.u8(d.second);
  w.u8(d.centisecond);
}

function writeMeta(w: Writer, m: IspriteMeta): void {
  const at = w.beginChunk('META');
  writeDate(w, m.created, 'META creation date');
  writeDate(w, m.saved, 'META save date');
  let t: bigint;
  try {
    t = typeof m.workTimeMs === 'bigint' ? m.workTimeMs : BigInt(m.workTimeMs as unknown as number);
  } catch {
    throw fail(`META work time ${String(m.workTimeMs)} is not an integer`);
  }
  if (t < 0n || t > 0xffffffffffffffffn) throw fail(`META work time ${t} does not fit in 64 bits`);
  w.ensure(8);
  w.u32(Number(t & 0xffffffffn));
  w.u32(Number(t >> 32n));
  const fields: [keyof IspriteMeta, string][] = [
    ['tags', 'tags'],
    ['title', 'title'],
    ['project', 'project'],
    ['author', 'author'],
    ['company', 'company'],
    ['contact', 'contact'],
    ['url', 'URL'],
    ['copyright', 'copyright'],
    ['comments', 'comments'],
    ['originatingProgram', 'originating program name'],
    ['program', 'program name'],
  ];
  for (const [k, label] of fields) w.str(String(m[k] ?? ''), `META ${label}`);
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
      if (stack.length) {
        w.ensure(1);
        w.u8(0x43);
      }
      continue;
    }
    const node = top.nodes[top.i++]!;
    if (node.kind === 'group') {
      w.ensure(1);
      w.u8(0x47);
      w.str(node.name, `group "${node.name}" name`);
      stack.push({ nodes: node.children, i: 0 });
    } else if (node.kind === 'sequence') {
      const seqIndex = seqCount++;
      const what = () => `sequence ${seqIndex} ("${node.name}")`;
      const frames = node.frames;
      const n = frames.length;
      const loop = node.loopPoint === null || node.loopPoint === undefined ? 0xffffffff : node.loopPoint;
      check(isU32(loop), () => `${what()} loop point`, loop, '32-bit position (or null)');
      w.ensure(9);
      w.u8(0x53);
      w.u32(n);
      w.u32(loop);
      w.str(node.name, 'sequence # name', seqIndex);
      w.str(node.followUp ?? '', 'sequence # follow-up', seqIndex);
      w.ensure(4 * n);
      for (let i = 0; i < n; i++) {
        const id = frames[i]!;
        if (!isU32(id)) check(false, () => `${what()} frame ${i}`, id, '32-bit frame ID');
        w.u32(id);
      }
    } else {
      throw fail(`a TIER node of kind "${String((node as { kind: unknown }).kind)}" is neither a group nor a sequence`);
    }
  }
  w.endChunk(at);
}

function writeFrames(w: Writer, doc: IspriteDocument): void {
  const at = w.beginChunk('FRAM');
  const frames = doc.frames;
  const minor = doc.version[1];
  w.ensure(6);
  w.u32(frames.length);
  const maxAt = w.pos;
  w.u16(0);
  let maxElements = 0;
  for (let f = 0; f < frames.length; f++) {
    const fr = frames[f]!;
    const els = fr.elements;
    const ne = els.length;
    if (ne > 0xffff) throw fail(`frame ${f} has ${ne} elements; at most 65535 fit`);
    if (ne > maxElements) maxElements = ne;
    const hold = fr.holdTime;
    if (!isU16(hold)) check(false, () => `frame ${f} hold time`, hold, '16-bit hold time');
    const start = w.pos;
    w.ensure(10);
    w.u8(0x46);
    w.pos += 4;
    w.u16(ne);
    w.u16(hold);
    w.u8(fr.loopPoint ? 1 : 0);
    w.str(fr.label, 'frame # label', f);
    w.str(fr.triggers, 'frame # triggers', f);
    w.str(fr.notes, 'frame # notes', f);
    if (w.pos + ne * 30 > w.buffer.length) w.ensure(elementsSize(els, 0));
    for (let e = 0; e < ne; e++) {
      const el = els[e]!;
      const t = el.type;
      if (t === 'graphic') writeGraphic(w, el, f, e, doc);
      else writeElement(w, el, f, e, minor, els);
    }
    w.u32At(start + 1, w.pos - start - 4);
  }
  w.buffer[maxAt] = maxElements;
  w.buffer[maxAt + 1] = maxElements >>> 8;
  w.endChunk(at);
}

/**
 * Writes a 24-bit fixed-point value at `p` (rounded to the nearest 1/256).
 * Returns 0, or 1 when the value does not fit (nothing written then).
 */
function putFx(b: Uint8Array, p: number, v: number): number {
  const n = Math.round(v * 256);
  if (!(n >= -8388608 && n <= 8388607)) return 1;
  b[p] = n >> 8;
  b[p + 1] = n >> 16;
  b[p + 2] = n;
  return 0;
}

function nameField(el: { name: number | null }, f: number, e: number): number {
  const n = el.name;
  if (n === null || n === undefined) return 0xffff;
  if (!isU16(n)) throw elError(f, e, 'name index', n, '16-bit element name index (or null)');
  return n;
}

function badFx(f: number, e: number, el: IspriteElement): FormatError {
  const values = Object.entries(el).filter(([, v]) => typeof v === 'number' && !(Math.round(v * 256) >= -8388608 && Math.round(v * 256) <= 8388607));
  const [k, v] = values[0] ?? ['value', NaN];
  return fail(`frame ${f} element ${e} ${k}: ${v} is outside the fixed-point range [-32768, 32767.99609375]`);
}

/** Writes a graphic element (13 or 30 bytes); the caller has ensured the room. */
function writeGraphic(w: Writer, el: IspriteGraphic, f: number, e: number, doc: IspriteDocument): void {
  const b = w.buffer;
  const p = w.pos;
  const name = nameField(el, f, e);
  const slice = el.slice;
  if (!isU16(slice)) throw elError(f, e, 'slice', slice, '16-bit slice ID');
  const expanded = el.expanded;
  b[p] = expanded ? 0x47 : 0x67;
  b[p + 1] = name;
  b[p + 2] = name >>> 8;
  b[p + 3] = expanded ? 26 : 9;
  b[p + 4] = slice;
  b[p + 5] = slice >>> 8;
  let bad = putFx(b, p + 6, el.x) | putFx(b, p + 9, el.y);
  b[p + 12] = (el.flipX ? 1 : 0) | (el.flipY ? 2 : 0);
  if (!expanded) {
    if (bad) throw badFx(f, e, el);
    w.pos = p + 13;
    return;
  }
  let ox = el.originX;
  let oy = el.originY;
  if (ox === undefined || oy === undefined) {
    const [cx, cy] = sliceCentre(doc.slices[slice]);
    if (ox === undefined) ox = cx;
    if (oy === undefined) oy = cy;
  }
  bad |= putFx(b, p + 13, ox) | putFx(b, p + 16, oy) | putFx(b, p + 19, el.rotation ?? 0);
  bad |= putFx(b, p + 22, el.scaleX ?? 1) | putFx(b, p + 25, el.scaleY ?? 1);
  if (bad) throw badFx(f, e, el);
  const op = el.opacity ?? 0xffff;
  if (!isU16(op)) throw elError(f, e, 'opacity', op, '16-bit opacity');
  b[p + 28] = op;
  b[p + 29] = op >>> 8;
  w.pos = p + 30;
  return;
}

/** Writes a non-graphic element; the caller has ensured 30 bytes of room (unknown elements ensure their own). */
function writeElement(w: Writer, el: IspriteElement, f: number, e: number, minor: number, els: IspriteElement[]): void {
  const b = w.buffer;
  const p = w.pos;
  switch (el.type) {
    case 'attachment': {
      const name = nameField(el, f, e);
      const id = el.id;
      const op = el.opacity;
      if (!isU16(id)) throw elError(f, e, 'attachment ID', id, '16-bit ID');
      if (!isU16(op)) throw elError(f, e, 'opacity', op, '16-bit opacity');
      b[p] = 0x41;
      b[p + 1] = name;
      b[p + 2] = name >>> 8;
      b[p + 3] = 21;
      b[p + 4] = id;
      b[p + 5] = id >>> 8;
      const bad =
        putFx(b, p + 6, el.x) | putFx(b, p + 9, el.y) | putFx(b, p + 14, el.rotation) | putFx(b, p + 17, el.scaleX) | putFx(b, p + 20, el.scaleY);
      if (bad) throw badFx(f, e, el);
      b[p + 12] = (el.flipX ? 1 : 0) | (el.flipY ? 2 : 0);
      b[p + 13] = 0;
      b[p + 23] = op;
      b[p + 24] = op >>> 8;
      w.pos = p + 25;
      return;
    }
    case 'rect':
    case 'circle': {
      // Collision objects: type letter at offset 5, ID at 6; bytes 4 and (rectangles) 20 reserved (erratum 3).
      const name = nameField(el, f, e);
      const id = el.id;
      if (!isU16(id)) throw elError(f, e, 'collision ID', id, '16-bit ID');
      const rect = el.type === 'rect';
      b[p] = 0x43;
      b[p + 1] = name;
      b[p + 2] = name >>> 8;
      b[p + 3] = rect ? 20 : 13;
      b[p + 4] = 0;
      b[p + 5] = rect ? 0x72 : 0x63;
      b[p + 6] = id;
      b[p + 7] = id >>> 8;
      let bad = putFx(b, p + 8, el.x) | putFx(b, p + 11, el.y);
      if (el.type === 'rect') {
        bad |= putFx(b, p + 14, el.width) | putFx(b, p + 17, el.height) | putFx(b, p + 21, el.rotation);
        b[p + 20] = 0;
        w.pos = p + 24;
      } else {
        bad |= putFx(b, p + 14, el.radius);
        w.pos = p + 17;
      }
      if (bad) throw badFx(f, e, el);
      return;
    }
    case 'graphic':
      throw fail(`frame ${f} element ${e}: internal: graphic elements are written by writeGraphic`);
    case 'unknown': {
      const name = nameField(el, f, e);
      const m = el.marker;
      const data = el.data;
      if (!isU8(m)) throw elError(f, e, 'marker', m, 'byte');
      if (m === 0x67 || m === 0x47 || m === 0x41) {
        throw fail(`frame ${f} element ${e}: an unknown element cannot use the marker ${String.fromCharCode(m)} (it would read back as a known element)`);
      }
      if (data.length > 0xff) throw fail(`frame ${f} element ${e}: unknown element data is ${data.length} bytes; at most 255 fit`);
      if (m === 0x43) {
        if (minor === 0) throw fail(`frame ${f} element ${e}: a collision object of unknown type cannot be written in version 1.0`);
        if (data.length < 2 || data[1] === 0x72 || data[1] === 0x63) {
          throw fail(`frame ${f} element ${e}: an unknown collision object needs a type letter other than "r" and "c" at offset 5`);
        }
      }
      // Keep the room the frame reserved for the elements after this one.
      if (w.pos + 4 + data.length + 30 * (els.length - e - 1) > w.buffer.length) w.ensure(elementsSize(els, e));
      w.u8(m);
      w.u16(name);
      w.u8(data.length);
      w.bytes(data);
      return;
    }
    default:
      throw fail(`frame ${f} element ${e}: unknown element type "${String((el as { type: unknown }).type)}"`);
  }
}

function elError(f: number, e: number, field: string, v: unknown, kind: string): FormatError {
  return fail(`frame ${f} element ${e} ${field}: ${String(v)} is not a ${kind}`);
}

const ELEMENT_SIZE: Record<string, number> = { attachment: 25, rect: 24, circle: 17 };

/** The exact size of elements `from`.. of a frame. */
function elementsSize(els: IspriteElement[], from: number): number {
  let n = 0;
  for (let e = from; e < els.length; e++) {
    const el = els[e]!;
    const t = el.type;
    n += t === 'graphic' ? (el.expanded ? 30 : 13) : t === 'unknown' ? 4 + el.data.length : (ELEMENT_SIZE[t] ?? 30);
  }
  return n;
}

/** The file size when every string is ASCII (a lower bound otherwise). */
function estimateSize(doc: IspriteDocument): number {
  let n = 24;
  const m = doc.meta;
  if (m) {
    n += 8 + 24 + 22;
    for (const k of ['tags', 'title', 'project', 'author', 'company', 'contact', 'url', 'copyright', 'comments', 'originatingProgram', 'program'] as const) {
      n += String(m[k] ?? '').length;
    }
  }
  if (doc.extraMeta) {
    n += 8;
    for (const [k, v] of doc.extraMeta) n += 4 + k.length + v.length;
  }
  n += 10;
  for (const t of doc.textures) n += 3 + t.path.length;
  n += 13 + doc.slices.length * 10;
  n += 10;
  for (const name of doc.names) n += 2 + name.length;
  n += 8;
  const stack: IspriteNode[][] = [doc.tree];
  while (stack.length) {
    for (const node of stack.pop()!) {
      if (node.kind === 'group') {
        n += 4 + node.name.length;
        stack.push(node.children);
      } else {
        n += 13 + node.name.length + (node.followUp ?? '').length + 4 * node.frames.length;
      }
    }
  }
  n += 14;
  const frames = doc.frames;
  for (let f = 0; f < frames.length; f++) {
    const fr = frames[f]!;
    n += 16 + fr.label.length + fr.triggers.length + fr.notes.length;
    const els = fr.elements;
    for (let e = 0; e < els.length; e++) {
      const el = els[e]!;
      const t = el.type;
      n += t === 'graphic' ? (el.expanded ? 30 : 13) : t === 'unknown' ? 4 + el.data.length : (ELEMENT_SIZE[t] ?? 0);
    }
  }
  for (const c of doc.unknownChunks) n += 8 + c.data.length;
  return n;
}

/** Writes a document in canonical form. Throws FormatError for values that do not fit. */
export function writeIsprite(doc: IspriteDocument): Uint8Array {
  const [major, minor] = doc.version ?? [1, 0];
  if (major !== 1) throw fail(`cannot write major version ${major} (only 1.x)`);
  check(isU8(minor), () => 'minor version', minor, 'byte');
  check(isU8(doc.frameRate), () => 'frame rate', doc.frameRate, 'byte (frames per second)');
  const id = doc.nonStandardId ?? '';
  if (id.length > 3) throw fail(`non-standard identifier "${id}" is longer than 3 bytes`);
  for (let i = 0; i < id.length; i++) {
    if (id.charCodeAt(i) > 0xff) throw fail(`non-standard identifier "${id}" is not 3 single-byte characters`);
  }
  if (doc.textures.length > 255) throw fail(`${doc.textures.length} textures; at most 255 fit`);
  if (doc.names.length > 0xffff) throw fail(`${doc.names.length} element names; at most 65535 fit`);

  const w = new Writer(estimateSize(doc));

  w.ensure(24);
  const magic = 'ISPRITE ';
  for (let i = 0; i < 8; i++) w.u8(magic.charCodeAt(i));
  w.u32(0); // file size, patched at the end
  w.u8(major);
  w.u8(minor);
  w.u8((doc.nonStandard ? 1 : 0) | (doc.workFile ? 2 : 0));
  for (let i = 0; i < 3; i++) w.u8(i < id.length ? id.charCodeAt(i) : 0);
  w.u8(doc.frameRate);
  for (let i = 0; i < 5; i++) w.u8(0);

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
    w.ensure(2);
    w.u8(doc.textures.length);
    w.u8(1);
    doc.textures.forEach((t, i) => {
      w.ensure(1);
      w.u8(t.nearest ? 1 : 0);
      w.str(t.path, 'texture # path', i);
    });
    w.endChunk(at);
  }

  {
    const at = w.beginChunk('SLIC');
    const slices = doc.slices;
    w.ensure(5 + slices.length * 10);
    w.u32(slices.length);
    w.u8(10);
    for (let i = 0; i < slices.length; i++) {
      const s = slices[i]!;
      if (!(isU8(s.texture) && isU16(s.x) && isU16(s.y) && isU16(s.width) && isU16(s.height))) {
        check(isU8(s.texture), () => `slice ${i} texture`, s.texture, 'byte texture ID');
        check(isU16(s.x) && isU16(s.y), () => `slice ${i} position`, `${s.x},${s.y}`, 'pair of 16-bit texture coordinates');
        check(false, () => `slice ${i} size`, `${s.width}x${s.height}`, 'pair of 16-bit sizes');
      }
      w.u8(s.texture);
      w.u8(s.rotated ? 1 : 0);
      w.u16(s.x);
      w.u16(s.y);
      w.u16(s.width);
      w.u16(s.height);
    }
    w.endChunk(at);
  }

  {
    const at = w.beginChunk('NAME');
    w.ensure(2);
    w.u16(doc.names.length);
    doc.names.forEach((n, i) => w.str(n, 'name #', i));
    w.endChunk(at);
  }

  writeTier(w, doc.tree);
  writeFrames(w, doc);

  for (const c of doc.unknownChunks) {
    if (c.id.length !== 4 || /[^\x00-\xff]/.test(c.id)) throw fail(`unknown chunk ID "${c.id}" is not 4 single-byte characters`);
    if ((KNOWN_CHUNKS as readonly string[]).includes(c.id)) throw fail(`an unknown chunk cannot have the known ID "${c.id}"`);
    const at = w.beginChunk(c.id);
    w.bytes(c.data);
    w.endChunk(at);
  }

  const total = w.pos;
  if (total - 12 > 0xffffffff) throw fail('the file would be larger than 4 GiB');
  w.u32At(8, total - 12);
  // The estimate is exact when every string is ASCII: no copy then.
  return total === w.buffer.length ? w.buffer : w.buffer.slice(0, total);
}
