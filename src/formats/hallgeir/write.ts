/**
 * Writers for `.spr`, `.obj` and `.map`, in the document's byte order unless
 * told otherwise. They refuse documents the readers would reject (next
 * frames out of range, NaN or infinite delays, coordinates that are not
 * 32-bit integers), so whatever they write reads back.
 */
import { FormatError } from '../../binary/errors.js';
import { ByteWriter } from '../../binary/writer.js';
import { compactFrames, compactObjects, framesOf } from './compact.js';
import {
  FORMAT_NAMES,
  type HallgeirAnimation,
  FRAME_SIZE,
  IDENTIFIERS,
  type HallgeirDocument,
  type HallgeirMap,
  type HallgeirObject,
  type HallgeirSprite,
} from './model.js';

export interface HallgeirWriteOptions {
  /** Byte order of the output; default: the document's own. */
  endian?: 'little' | 'big';
}

/** The identifier: 3 bytes, as the source document gives it (or with its length, when the file read had it so). */
function identifier(w: ByteWriter, doc: HallgeirDocument): void {
  const id = IDENTIFIERS[doc.kind];
  if (doc.lengthPrefixedId) w.str32(id);
  else w.ascii(id);
}

function isInt32(v: number): boolean {
  return Number.isInteger(v) && v >= -0x80000000 && v <= 0x7fffffff;
}

function int(w: ByteWriter, v: number, what: string): void {
  if (!isInt32(v)) {
    throw new FormatError(w.format, `${what} ${v} is not a 32-bit integer`);
  }
  w.i32(v);
}

function writeSprite(w: ByteWriter, s: HallgeirSprite): void {
  identifier(w, s);
  w.str32(s.name, 'sprite name');
  w.str32(s.texture, 'texture name');
  int(w, s.animations.length, 'animation count');
  for (const a of s.animations) {
    w.str32(a.name, 'animation name');
    const c = compactFrames(a);
    if (c) {
      // Records as read (and checked then): copied as they are, or each field turned around.
      w.i32(c.count);
      const bytes = c.store.bytes.subarray(c.at, c.at + c.count * FRAME_SIZE);
      if (c.store.littleEndian === w.littleEndian) w.bytes(bytes);
      else {
        const t = framesOf(a);
        w.ensure(bytes.length);
        for (let i = 0; i < c.count; i++) w.i32(t.x(i)).i32(t.y(i)).f64(t.delay(i)).i32(t.next(i));
      }
      continue;
    }
    int(w, a.frames.length, 'frame count');
    writeFrames(w, a);
  }
}

/** Refuses frame `i` of `a` (whichever of its fields the reader would reject first), naming it. */
function badFrame(w: ByteWriter, a: HallgeirAnimation, i: number): never {
  const f = a.frames[i]!;
  const n = a.frames.length;
  const where = `frame ${i} of animation ${JSON.stringify(a.name)}`;
  if (!isInt32(f.x)) throw new FormatError(w.format, `${where}: x ${f.x} is not a 32-bit integer`);
  if (!isInt32(f.y)) throw new FormatError(w.format, `${where}: y ${f.y} is not a 32-bit integer`);
  if (typeof f.delay !== 'number' || !Number.isFinite(f.delay)) {
    throw new FormatError(w.format, `${where}: delay ${f.delay} is not a finite number`);
  }
  throw new FormatError(w.format, `${where}: next frame ${f.next} is not -1 or a frame of the animation`);
}

/**
 * The frames of an animation made through the API, checked as the reader
 * would check them: each 20-byte record stored straight into the writer's
 * buffer (one room check for the animation, no range check per field: the
 * checks above are the fields' ranges).
 */
function writeFrames(w: ByteWriter, a: HallgeirAnimation): void {
  const frames = a.frames;
  const n = frames.length;
  const at = w.reserve(n * FRAME_SIZE);
  const buf = w.buffer;
  const v = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const le = w.littleEndian;
  for (let i = 0, p = at; i < n; i++, p += FRAME_SIZE) {
    const f = frames[i]!;
    const x = f.x;
    const y = f.y;
    const delay = f.delay;
    const next = f.next;
    // int32s (-0 is 0, as the int32 field stores it), a finite number, -1 or a frame of the animation
    if (
      !((x | 0) === x && (y | 0) === y && typeof delay === 'number' && delay - delay === 0 && (next | 0) === next && next >= -1 && next < n)
    ) {
      badFrame(w, a, i);
    }
    v.setInt32(p, x, le);
    v.setInt32(p + 4, y, le);
    v.setFloat64(p + 8, delay, le);
    v.setInt32(p + 16, next, le);
  }
}

function writeObject(w: ByteWriter, o: HallgeirObject): void {
  identifier(w, o);
  w.str32(o.name, 'object name');
  w.str32(o.sprite, 'sprite name');
}

function writeMap(w: ByteWriter, m: HallgeirMap): void {
  identifier(w, m);
  int(w, m.textures.length, 'texture count');
  for (const t of m.textures) {
    w.str32(t.path, 'texture path');
    w.str32(t.name, 'texture name');
  }
  const c = compactObjects(m);
  if (c) {
    // Read (and checked) as 32-bit integers.
    const n = c.x.length;
    w.i32(n);
    for (let i = 0; i < n; i++) w.i32(c.x[i]!).i32(c.y[i]!).str32(c.paths[c.path[i]!]!, 'object path');
    return;
  }
  int(w, m.objects.length, 'object count');
  m.objects.forEach((o, i) => {
    int(w, o.x, `object ${i}: x`);
    int(w, o.y, `object ${i}: y`);
    w.str32(o.object, 'object path');
  });
}

/** About the size of a sprite's file (its strings as one byte a character): the writer's buffer grows once at most. */
function spriteSize(s: HallgeirSprite): number {
  let n = 64 + (s.name?.length ?? 0) + (s.texture?.length ?? 0);
  // (a document the writer refuses is refused below, not here)
  if (!Array.isArray(s.animations)) return n;
  for (const a of s.animations) {
    const c = compactFrames(a);
    n += 8 + (a?.name?.length ?? 0) + ((c ? c.count : a?.frames?.length) ?? 0) * FRAME_SIZE;
  }
  return Math.min(n, 1 << 30);
}

/** Encodes any of the three documents. */
export function writeHallgeir(doc: HallgeirDocument, opts: HallgeirWriteOptions = {}): Uint8Array {
  const littleEndian = opts.endian ? opts.endian === 'little' : doc.littleEndian;
  const w = new ByteWriter({ format: FORMAT_NAMES[doc.kind], littleEndian, initialSize: doc.kind === 'sprite' ? spriteSize(doc) : 256 });
  if (doc.kind === 'sprite') writeSprite(w, doc);
  else if (doc.kind === 'object') writeObject(w, doc);
  else writeMap(w, doc);
  return w.finish();
}
