/**
 * Every ISPRITE record layout, stated once (docs/spec/isprite.md,
 * errata 1-19). A layout is the list of a fixed-size record's fields in file
 * order with their types; offsets and sizes follow from the types. The reader
 * (read.ts), the writer (write.ts) and the writer's size computation all use
 * these layouts: none of them states an offset or a size of its own.
 *
 * Cold records (header, chunk headers, slices, frame and sequence headers...)
 * are read and written field by field from their layout (`readFields`,
 * `putFields`). The element records, read and written a million times in a
 * big file, have a codec each below (read, write and size together), which
 * reads and writes at their layout's offsets; test/isprite/records.test.ts
 * checks that every codec writes the same bytes as `putFields` does from
 * the layout, and reads them back.
 *
 * Variable-length parts (u16-length strings, counted lists) are listed next
 * to the layout of the record they follow.
 */
import type { ByteReader } from '../../binary/reader.js';
import { FormatError } from '../../binary/errors.js';
import { FIXED24_MAX, FIXED24_MIN, fixed24At } from '../../binary/fixed.js';
import { fitInt } from '../../binary/writer.js';
import {
  sliceCentre,
  type IspriteAttachment,
  type IspriteCircle,
  type IspriteDate,
  type IspriteElement,
  type IspriteGraphic,
  type IspriteRect,
  type IspriteSlice,
  type IspriteUnknownElement,
} from './model.js';

const FORMAT = 'isprite';

/**
 * Field types: little-endian integers, `fx` the 24-bit fixed point (int16
 * then u8/256), `date` the 8-byte date (all zero: none), `u64` two u32 (low
 * first), `tagN` N bytes of Latin-1 text, `zeroN` N reserved bytes (written
 * as zero, ignored on read).
 */
export type FieldType = 'u8' | 'u16' | 'u32' | 'u64' | 'fx' | 'date' | 'tag3' | 'tag4' | 'tag8' | 'zero1' | 'zero5';

const WIDTH: Record<FieldType, number> = {
  u8: 1,
  u16: 2,
  u32: 4,
  u64: 8,
  fx: 3,
  date: 8,
  tag3: 3,
  tag4: 4,
  tag8: 8,
  zero1: 1,
  zero5: 5,
};

/** How a writer error names what a field must be. */
const KIND: Record<FieldType, string> = {
  u8: 'byte',
  u16: '16-bit value',
  u32: '32-bit value',
  u64: '64-bit value',
  fx: 'fixed-point value',
  date: 'date',
  tag3: '3-character tag',
  tag4: '4-character tag',
  tag8: '8-character tag',
  zero1: 'reserved byte',
  zero5: 'reserved bytes',
};

export interface Field<K extends string = string> {
  readonly key: K;
  readonly type: FieldType;
  /** How errors name it (default: the key). */
  readonly label: string;
  /** Offset from the start of the record. */
  readonly at: number;
}

export interface Layout<K extends string = string> {
  readonly fields: readonly Field<K>[];
  /** Offset of each field from the start of the record. */
  readonly at: { readonly [k in K]: number };
  /** The record's size in bytes. */
  readonly size: number;
}

type FieldSpec<K extends string> = readonly [K, FieldType] | readonly [K, FieldType, string];

function layout<K extends string>(...specs: FieldSpec<K>[]): Layout<K> {
  const fields: Field<K>[] = [];
  const at = {} as { [k in K]: number };
  let size = 0;
  for (const [key, type, label] of specs) {
    fields.push({ key, type, label: label ?? key, at: size });
    at[key] = size;
    size += WIDTH[type];
  }
  return { fields, at, size };
}

// ---------------------------------------------------------------- the records

/** The file header. */
export const HEADER = layout(
  ['magic', 'tag8'],
  ['fileSize', 'u32', 'file size'],
  ['major', 'u8', 'major version'],
  ['minor', 'u8', 'minor version'],
  ['flags', 'u8'],
  ['nonStandardId', 'tag3', 'non-standard identifier'],
  ['frameRate', 'u8', 'frame rate'],
  ['reserved', 'zero5'],
);

/** Every chunk starts with this; `size` counts the bytes after it. */
export const CHUNK = layout(['id', 'tag4'], ['size', 'u32']);

/** META: this, then the strings of META_STRINGS in order. */
export const META = layout(['created', 'date', 'creation date'], ['saved', 'date', 'save date'], ['workTimeMs', 'u64', 'work time']);
/** META's strings, in file order: model key and how messages name it. */
export const META_STRINGS = [
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
] as const;

/** MET+ holds (name, value) string pairs up to its end. */

/** TEX: this, then `count` texture records, each `stride` bytes then its path string. */
export const TEX = layout(['count', 'u8', 'texture count'], ['stride', 'u8']);
/** A texture record (this version's part: `stride` may be larger). */
export const TEXTURE = layout(['flags', 'u8']);

/** SLIC: this, then `count` slice records of `stride` bytes. */
export const SLIC = layout(['count', 'u32', 'slice count'], ['stride', 'u8']);
/** A slice record (this version's part: `stride` may be larger). */
export const SLICE = layout(['texture', 'u8'], ['flags', 'u8'], ['x', 'u16'], ['y', 'u16'], ['width', 'u16'], ['height', 'u16']);

/** NAME: this, then `count` strings. */
export const NAME = layout(['count', 'u16', 'name count']);

/** TIER markers: `G` name (a group opens), `S` a sequence, `C` (the group closes). */
export const GROUP_MARKER = 0x47;
export const SEQUENCE_MARKER = 0x53;
export const CLOSE_MARKER = 0x43;
/** A sequence: this, then its name and follow-up strings, then `frameCount` u32 frame IDs. */
export const SEQUENCE = layout(['marker', 'u8'], ['frameCount', 'u32', 'frame count'], ['loopPoint', 'u32', 'loop point']);
/** `loopPoint` of a sequence that does not loop. */
export const NO_LOOP = 0xffffffff;

/** FRAM: this, then `count` frames. */
export const FRAM = layout(['count', 'u32', 'frame count'], ['maxElementCount', 'u16', 'maximum element count']);
export const FRAME_MARKER = 0x46;
/**
 * A frame: this, then its label, triggers and notes strings, then
 * `elementCount` elements. `size` counts every byte of the frame but its
 * own four (erratum 12).
 */
export const FRAME = layout(
  ['marker', 'u8'],
  ['size', 'u32'],
  ['elementCount', 'u16', 'element count'],
  ['holdTime', 'u16', 'hold time'],
  ['flags', 'u8'],
);
/** The smallest frame: its fixed fields and three empty strings. */
export const MIN_FRAME = FRAME.size + 3 * 2;

/** Every element starts with this; `size` counts the bytes after it. */
export const ELEMENT = layout(['marker', 'u8'], ['name', 'u16', 'name index'], ['size', 'u8']);
/** An element's `name` when it has none. */
export const NO_NAME = 0xffff;

/** "g": a simple graphic. */
export const SIMPLE_GRAPHIC = layout(...ELEMENT_FIELDS(), ['slice', 'u16'], ['x', 'fx'], ['y', 'fx'], ['mirror', 'u8']);
/** "G": an expanded graphic. */
export const EXPANDED_GRAPHIC = layout(
  ...ELEMENT_FIELDS(),
  ['slice', 'u16'],
  ['x', 'fx'],
  ['y', 'fx'],
  ['mirror', 'u8'],
  ['originX', 'fx'],
  ['originY', 'fx'],
  ['rotation', 'fx'],
  ['scaleX', 'fx'],
  ['scaleY', 'fx'],
  ['opacity', 'u16'],
);
/** "A": an attachment point; its mirroring is a u16 (erratum 4). */
export const ATTACHMENT = layout(
  ...ELEMENT_FIELDS(),
  ['id', 'u16', 'attachment ID'],
  ['x', 'fx'],
  ['y', 'fx'],
  ['mirror', 'u16'],
  ['rotation', 'fx'],
  ['scaleX', 'fx'],
  ['scaleY', 'fx'],
  ['opacity', 'u16'],
);
/** "C" with type letter "r": a collision rectangle (erratum 3: type at 5, ID at 6, bytes 4 and 20 reserved). */
export const COLLISION_RECT = layout(
  ...ELEMENT_FIELDS(),
  ['reserved', 'zero1'],
  ['shape', 'u8'],
  ['id', 'u16', 'collision ID'],
  ['x', 'fx'],
  ['y', 'fx'],
  ['width', 'fx'],
  ['height', 'fx'],
  ['reserved2', 'zero1'],
  ['rotation', 'fx'],
);
/** "C" with type letter "c": a collision circle (erratum 3). */
export const COLLISION_CIRCLE = layout(
  ...ELEMENT_FIELDS(),
  ['reserved', 'zero1'],
  ['shape', 'u8'],
  ['id', 'u16', 'collision ID'],
  ['x', 'fx'],
  ['y', 'fx'],
  ['radius', 'fx'],
);

function ELEMENT_FIELDS(): FieldSpec<'marker' | 'name' | 'size'>[] {
  return [
    ['marker', 'u8'],
    ['name', 'u16', 'name index'],
    ['size', 'u8'],
  ];
}

export const MARKER = { simple: 0x67, expanded: 0x47, attachment: 0x41, collision: 0x43, rect: 0x72, circle: 0x63 } as const;

// ------------------------------------------------------- generic field codecs

function latin1(b: Uint8Array, p: number, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += String.fromCharCode(b[p + i]!);
  return s;
}

function readDate(b: Uint8Array, p: number): IspriteDate | null {
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

/** One field's value at `p` (unchecked: the caller has made sure the record is there). */
export function readField(r: ByteReader, type: FieldType, p: number): unknown {
  switch (type) {
    case 'u8':
      return r.u8At(p);
    case 'u16':
      return r.u16At(p);
    case 'u32':
      return r.u32At(p);
    case 'u64':
      return (BigInt(r.u32At(p + 4)) << 32n) | BigInt(r.u32At(p));
    case 'fx':
      return r.fixed24At(p);
    case 'date':
      return readDate(r.bytes, p);
    case 'zero1':
    case 'zero5':
      return undefined;
    default:
      return latin1(r.bytes, p, WIDTH[type]);
  }
}

/** Every field of a fixed-size record at `p`, by key (unchecked: the caller has made sure the record is there). */
export function readFields<K extends string>(r: ByteReader, l: Layout<K>, p: number): { [k in K]: any } {
  const out = {} as { [k in K]: unknown };
  for (const f of l.fields) out[f.key] = readField(r, f.type, p + f.at);
  return out as { [k in K]: any };
}

function isU8(v: unknown): v is number {
  return typeof v === 'number' && v === (v & 0xff);
}
function isU16(v: unknown): v is number {
  return typeof v === 'number' && v === (v & 0xffff);
}
function isU32(v: unknown): v is number {
  return typeof v === 'number' && v === v >>> 0;
}

/** The fixed-point value `v` in 1/256 units, or NaN when it does not fit. */
function fxUnits(v: number): number {
  const n = Math.round(v * 256);
  return n >= FIXED24_MIN * 256 && n <= 32767 * 256 + 255 ? n : NaN;
}

/** Writes a 24-bit fixed-point value at `p` (rounded to the nearest 1/256). Returns 0, or 1 when it does not fit (nothing written then). */
function putFx(b: Uint8Array, p: number, v: number): number {
  const n = Math.round(v * 256);
  if (!(n >= -8388608 && n <= 8388607)) return 1;
  b[p] = n >> 8;
  b[p + 1] = n >> 16;
  b[p + 2] = n;
  return 0;
}

function isLatin1(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0xff) return false;
  return true;
}

/** Whether `v` fits a field of type `type`. */
export function fits(type: FieldType, v: unknown): boolean {
  switch (type) {
    case 'u8':
      return isU8(v);
    case 'u16':
      return isU16(v);
    case 'u32':
      return isU32(v);
    case 'u64':
      return typeof v === 'bigint' && v >= 0n && v <= 0xffffffffffffffffn;
    case 'fx':
      return typeof v === 'number' && !Number.isNaN(fxUnits(v));
    case 'date': {
      if (v === null) return true;
      const d = v as IspriteDate;
      return isU8(d.day) && isU8(d.month) && isU16(d.year) && isU8(d.hour) && isU8(d.minute) && isU8(d.second) && isU8(d.centisecond);
    }
    case 'zero1':
    case 'zero5':
      return true;
    default:
      // Latin-1 text of at most the field's width (shorter is padded with zero bytes).
      return typeof v === 'string' && v.length <= WIDTH[type] && isLatin1(v);
  }
}

/** The error for a value that does not fit its field; `what` names the record (`frame 3 element 2`). */
export function fieldError(what: string, field: Field, v: unknown): FormatError {
  const name = what ? `${what} ${field.label}` : field.label;
  if (field.type === 'fx')
    return new FormatError(FORMAT, `${name}: ${String(v)} is outside the fixed-point range [${FIXED24_MIN}, ${FIXED24_MAX}]`);
  if (field.type === 'date') {
    const d = v as IspriteDate;
    return new FormatError(
      FORMAT,
      `${name}: ${d.day}.${d.month}.${d.year} ${d.hour}:${d.minute}:${d.second}.${d.centisecond} is not a date the file can hold (byte fields, a 16-bit year)`,
    );
  }
  if (field.type === 'u8' || field.type === 'u16' || field.type === 'u32') {
    // Worded as every writer words it (ByteWriter's fitInt): `... 70000 does not fit the file's 16-bit field (0 to 65535)`.
    try {
      fitInt(FORMAT, field.type, v as number, name);
    } catch (e) {
      if (e instanceof FormatError) return e;
      throw e;
    }
  }
  return new FormatError(FORMAT, `${name}: ${String(v)} is not a ${KIND[field.type]}`);
}

/** Writes one field at `p`; the value has been checked with `fits`. */
function putField(b: Uint8Array, type: FieldType, p: number, v: unknown): void {
  switch (type) {
    case 'u8':
      b[p] = v as number;
      return;
    case 'u16':
      b[p] = v as number;
      b[p + 1] = (v as number) >>> 8;
      return;
    case 'u32': {
      const n = v as number;
      b[p] = n;
      b[p + 1] = n >>> 8;
      b[p + 2] = n >>> 16;
      b[p + 3] = n >>> 24;
      return;
    }
    case 'u64': {
      const n = v as bigint;
      putField(b, 'u32', p, Number(n & 0xffffffffn));
      putField(b, 'u32', p + 4, Number(n >> 32n));
      return;
    }
    case 'fx':
      putFx(b, p, v as number);
      return;
    case 'date': {
      const d = v as IspriteDate | null;
      if (!d) {
        b.fill(0, p, p + 8);
        return;
      }
      b[p] = d.day;
      b[p + 1] = d.month;
      b[p + 2] = d.year;
      b[p + 3] = d.year >>> 8;
      b[p + 4] = d.hour;
      b[p + 5] = d.minute;
      b[p + 6] = d.second;
      b[p + 7] = d.centisecond;
      return;
    }
    case 'zero1':
    case 'zero5':
      b.fill(0, p, p + WIDTH[type]);
      return;
    default: {
      const s = v as string;
      const n = WIDTH[type];
      for (let i = 0; i < n; i++) b[p + i] = i < s.length ? s.charCodeAt(i) : 0;
    }
  }
}

/**
 * Writes a fixed-size record at `p` of `b` (which has room for it) from its
 * field values by key, after checking every value against its field's type:
 * the first that does not fit is a FormatError naming it (`what` names the
 * record). A key missing from `values` writes zero bytes.
 */
export function putFields<K extends string>(b: Uint8Array, p: number, l: Layout<K>, values: Partial<Record<K, unknown>>, what = ''): void {
  for (const f of l.fields) {
    const v = values[f.key];
    if (v !== undefined && !fits(f.type, v)) throw fieldError(what, f, v);
  }
  for (const f of l.fields) {
    const v = values[f.key];
    if (v === undefined) b.fill(0, p + f.at, p + f.at + WIDTH[f.type]);
    else putField(b, f.type, p + f.at, v);
  }
}

// ---------------------------------------------------------- element codecs

/** The element kinds with a codec, by marker (collision objects by their type letter too). */
export type KnownElement = IspriteGraphic | IspriteAttachment | IspriteRect | IspriteCircle;

function badSize(f: number, e: number, what: string, size: number, want: number, strict: boolean, at: number): FormatError {
  return FormatError.atByte(
    FORMAT,
    `frame ${f} element ${e}: ${what} size ${size} ${strict ? 'is not' : 'is smaller than'} ${want}${strict ? ' (version 1.0)' : ''}`,
    at,
  );
}

/** The element size byte each layout wants (what follows the element header). */
const SIMPLE_SIZE = SIMPLE_GRAPHIC.size - ELEMENT.size;
const EXPANDED_SIZE = EXPANDED_GRAPHIC.size - ELEMENT.size;
const ATTACHMENT_SIZE = ATTACHMENT.size - ELEMENT.size;
const RECT_SIZE = COLLISION_RECT.size - ELEMENT.size;
const CIRCLE_SIZE = COLLISION_CIRCLE.size - ELEMENT.size;
const EL_NAME = ELEMENT.at.name;
const EL_SIZE = ELEMENT.at.size;

const G = EXPANDED_GRAPHIC.at;
const A = ATTACHMENT.at;
const R = COLLISION_RECT.at;
const CI = COLLISION_CIRCLE.at;

/**
 * Checks the `count` elements of frame `f` that start at `q` and end by
 * `fend` (the end of the frame) without making them, and returns the
 * position after the last. An element's size byte must be its layout's in version 1.0
 * (`strict`), at least that later (erratum 15); an element this version does
 * not know is kept as its bytes. Everything `decodeElement` assumes of a
 * record is checked here, so that a record that passed decodes without a
 * check (and the same bytes decode to the same element every time).
 */
export function scanElements(b: Uint8Array, q: number, count: number, fend: number, strict: boolean, f: number): number {
  for (let e = 0; e < count; e++) {
    if (q + ELEMENT.size > fend) throw FormatError.atByte(FORMAT, `frame ${f} element ${e}: unexpected end of the frame`, q);
    const marker = b[q]!;
    const esize = b[q + EL_SIZE]!;
    const eend = q + ELEMENT.size + esize;
    if (eend > fend) {
      throw FormatError.atByte(
        FORMAT,
        `frame ${f} element ${e}: size ${esize} runs past the end of the frame (${fend - q - ELEMENT.size} bytes left)`,
        q + EL_SIZE,
      );
    }
    if (marker === MARKER.simple) {
      if (esize !== SIMPLE_SIZE && (strict || esize < SIMPLE_SIZE))
        throw badSize(f, e, 'simple graphic ("g")', esize, SIMPLE_SIZE, strict, q + EL_SIZE);
    } else if (marker === MARKER.expanded) {
      if (esize !== EXPANDED_SIZE && (strict || esize < EXPANDED_SIZE))
        throw badSize(f, e, 'expanded graphic ("G")', esize, EXPANDED_SIZE, strict, q + EL_SIZE);
    } else if (marker === MARKER.attachment) {
      if (esize !== ATTACHMENT_SIZE && (strict || esize < ATTACHMENT_SIZE)) {
        throw badSize(f, e, 'attachment point ("A")', esize, ATTACHMENT_SIZE, strict, q + EL_SIZE);
      }
    } else if (marker === MARKER.collision) {
      // Collision objects: the type letter decides the layout (erratum 3).
      if (esize < R.shape + 1 - ELEMENT.size) {
        throw FormatError.atByte(
          FORMAT,
          `frame ${f} element ${e}: collision object size ${esize} is too small to hold its type letter`,
          q + EL_SIZE,
        );
      }
      const shape = b[q + R.shape]!;
      if (shape === MARKER.rect) {
        if (esize !== RECT_SIZE && (strict || esize < RECT_SIZE))
          throw badSize(f, e, 'collision rectangle', esize, RECT_SIZE, strict, q + EL_SIZE);
      } else if (shape === MARKER.circle) {
        if (esize !== CIRCLE_SIZE && (strict || esize < CIRCLE_SIZE))
          throw badSize(f, e, 'collision circle', esize, CIRCLE_SIZE, strict, q + EL_SIZE);
      } else if (strict) {
        const c = shape >= 0x20 && shape < 0x7f ? `"${String.fromCharCode(shape)}" (0x${hex2(shape)})` : `0x${hex2(shape)}`;
        throw FormatError.atByte(FORMAT, `frame ${f} element ${e}: unknown collision type ${c} (expected "r" or "c")`, q + R.shape);
      }
    }
    q = eend;
  }
  return q;
}

/**
 * The element whose record starts at `q` of `b` (`v` a DataView of the same
 * bytes), made anew. The record has passed `scanElements`: its kind follows
 * from its marker (and a collision object's type letter) alone, and its size
 * is at least its layout's. The reads are inline (reading speed: calls to
 * the reader's `*At` getters that are not all inlined, each returning a
 * boxed number, cost a third more).
 */
export function decodeElement(b: Uint8Array, v: DataView, q: number): IspriteElement {
  if (!primed) primeShapes();
  const marker = b[q]!;
  const n = v.getUint16(q + EL_NAME, true);
  const name = n === NO_NAME ? null : n;
  if (marker === MARKER.simple || marker === MARKER.expanded) {
    const m = b[q + G.mirror]!;
    const slice = v.getUint16(q + G.slice, true);
    const x = fixed24At(v, b, q + G.x);
    const y = fixed24At(v, b, q + G.y);
    const flipX = (m & 1) !== 0;
    const flipY = (m & 2) !== 0;
    // Two literals, so that each kind keeps one object shape.
    return marker === MARKER.expanded
      ? {
          type: 'graphic',
          expanded: true,
          name,
          slice,
          x,
          y,
          flipX,
          flipY,
          originX: fixed24At(v, b, q + G.originX),
          originY: fixed24At(v, b, q + G.originY),
          rotation: fixed24At(v, b, q + G.rotation),
          scaleX: fixed24At(v, b, q + G.scaleX),
          scaleY: fixed24At(v, b, q + G.scaleY),
          opacity: v.getUint16(q + G.opacity, true),
        }
      : { type: 'graphic', expanded: false, name, slice, x, y, flipX, flipY };
  }
  if (marker === MARKER.attachment) {
    const m = v.getUint16(q + A.mirror, true);
    return {
      type: 'attachment',
      name,
      id: v.getUint16(q + A.id, true),
      x: fixed24At(v, b, q + A.x),
      y: fixed24At(v, b, q + A.y),
      flipX: (m & 1) !== 0,
      flipY: (m & 2) !== 0,
      rotation: fixed24At(v, b, q + A.rotation),
      scaleX: fixed24At(v, b, q + A.scaleX),
      scaleY: fixed24At(v, b, q + A.scaleY),
      opacity: v.getUint16(q + A.opacity, true),
    };
  }
  if (marker === MARKER.collision) {
    const shape = b[q + R.shape]!;
    if (shape === MARKER.rect) {
      return {
        type: 'rect',
        name,
        id: v.getUint16(q + R.id, true),
        x: fixed24At(v, b, q + R.x),
        y: fixed24At(v, b, q + R.y),
        width: fixed24At(v, b, q + R.width),
        height: fixed24At(v, b, q + R.height),
        rotation: fixed24At(v, b, q + R.rotation),
      };
    }
    if (shape === MARKER.circle) {
      return {
        type: 'circle',
        name,
        id: v.getUint16(q + CI.id, true),
        x: fixed24At(v, b, q + CI.x),
        y: fixed24At(v, b, q + CI.y),
        radius: fixed24At(v, b, q + CI.radius),
      };
    }
  }
  return unknownElement(b, q, marker, name, b[q + EL_SIZE]!);
}

/**
 * Reads the `count` elements of frame `f` that start at `q` and end by
 * `fend` as objects (scanElements, then decodeElement for each), and moves
 * `r` to the end of the last. (The reader keeps a file's elements compact
 * instead: src/formats/isprite/compact.ts.)
 */
export function readElements(r: ByteReader, q: number, count: number, fend: number, strict: boolean, f: number): IspriteElement[] {
  r.pos = scanElements(r.bytes, q, count, fend, strict, f);
  const b = r.bytes;
  const elements: IspriteElement[] = new Array(count);
  for (let e = 0; e < count; e++, q += ELEMENT.size + b[q + EL_SIZE]!) elements[e] = decodeElement(b, r.view, q);
  return elements;
}

/**
 * Makes one element object of each kind with `null` in every number field,
 * once, before the first elements are read. V8 gives object literals with
 * the same keys in the same order one hidden class, and a field's first
 * values decide how it is stored: after a fraction it becomes a double
 * field, and from then on every value, whole or not, gets a heap box of its
 * own (16 bytes, and garbage-collector work). After a non-number it is a
 * tagged field, which keeps whole numbers unboxed. On a 22 MB file whose
 * first frame alone has fractional positions that is 18% less memory.
 * The objects are not kept.
 */
let primed = false;
function primeShapes(): void {
  primed = true;
  const n = null;
  const f = false;
  const kinds: object[] = [
    { type: 'graphic', expanded: f, name: n, slice: n, x: n, y: n, flipX: f, flipY: f },
    {
      type: 'graphic',
      expanded: f,
      name: n,
      slice: n,
      x: n,
      y: n,
      flipX: f,
      flipY: f,
      originX: n,
      originY: n,
      rotation: n,
      scaleX: n,
      scaleY: n,
      opacity: n,
    },
    { type: 'attachment', name: n, id: n, x: n, y: n, flipX: f, flipY: f, rotation: n, scaleX: n, scaleY: n, opacity: n },
    { type: 'rect', name: n, id: n, x: n, y: n, width: n, height: n, rotation: n },
    { type: 'circle', name: n, id: n, x: n, y: n, radius: n },
  ];
  kinds.length = 0;
}

const EMPTY = new Uint8Array(0);

function unknownElement(b: Uint8Array, q: number, marker: number, name: number | null, esize: number): IspriteUnknownElement {
  return { type: 'unknown', marker, name, data: esize === 0 ? EMPTY : b.slice(q + ELEMENT.size, q + ELEMENT.size + esize) };
}

function hex2(n: number): string {
  return n.toString(16).toUpperCase().padStart(2, '0');
}

/** The size of a known element's record. */
export function knownElementSize(el: KnownElement): number {
  switch (el.type) {
    case 'graphic':
      return el.expanded ? EXPANDED_GRAPHIC.size : SIMPLE_GRAPHIC.size;
    case 'attachment':
      return ATTACHMENT.size;
    case 'rect':
      return COLLISION_RECT.size;
    default:
      return COLLISION_CIRCLE.size;
  }
}

/** The largest known element record: a frame reserves this much per element before writing them. */
export const MAX_ELEMENT_SIZE = Math.max(
  SIMPLE_GRAPHIC.size,
  EXPANDED_GRAPHIC.size,
  ATTACHMENT.size,
  COLLISION_RECT.size,
  COLLISION_CIRCLE.size,
);

/**
 * A known element's field values by its layout's keys: what `putFields`
 * writes, and what the codecs below write faster. `slices` gives an
 * expanded graphic's default origin (its slice's centre).
 */
export function elementFields(el: KnownElement, slices: readonly IspriteSlice[]): { layout: Layout; values: Record<string, unknown> } {
  const name = el.name === null || el.name === undefined ? NO_NAME : el.name;
  const mirror = 'flipX' in el ? (el.flipX ? 1 : 0) | (el.flipY ? 2 : 0) : 0;
  switch (el.type) {
    case 'graphic': {
      const l = el.expanded ? EXPANDED_GRAPHIC : SIMPLE_GRAPHIC;
      const values: Record<string, unknown> = {
        marker: el.expanded ? MARKER.expanded : MARKER.simple,
        name,
        size: l.size - ELEMENT.size,
        slice: el.slice,
        x: el.x,
        y: el.y,
        mirror,
      };
      if (el.expanded) {
        const [cx, cy] = el.originX === undefined || el.originY === undefined ? sliceCentre(slices[el.slice]) : [0, 0];
        Object.assign(values, {
          originX: el.originX ?? cx,
          originY: el.originY ?? cy,
          rotation: el.rotation ?? 0,
          scaleX: el.scaleX ?? 1,
          scaleY: el.scaleY ?? 1,
          opacity: el.opacity ?? 0xffff,
        });
      }
      return { layout: l, values };
    }
    case 'attachment':
      return { layout: ATTACHMENT, values: { ...el, marker: MARKER.attachment, name, size: ATTACHMENT.size - ELEMENT.size, mirror } };
    case 'rect':
      return {
        layout: COLLISION_RECT,
        values: { ...el, marker: MARKER.collision, name, size: COLLISION_RECT.size - ELEMENT.size, shape: MARKER.rect },
      };
    default:
      // (A circle; anything else was refused before this is asked.)
      return {
        layout: COLLISION_CIRCLE,
        values: { ...el, marker: MARKER.collision, name, size: COLLISION_CIRCLE.size - ELEMENT.size, shape: MARKER.circle },
      };
  }
}

/** The FormatError for a known element with a value that does not fit (found from its layout). */
function elementError(el: KnownElement, slices: readonly IspriteSlice[], f: number, e: number): FormatError {
  const { layout: l, values } = elementFields(el, slices);
  for (const field of l.fields) {
    const v = values[field.key];
    if (v !== undefined && !fits(field.type, v)) return fieldError(`frame ${f} element ${e}`, field, v);
  }
  return new FormatError(FORMAT, `frame ${f} element ${e}: internal: a value does not fit, but none was found`);
}

function nameField(el: { name: number | null }): number {
  const n = el.name;
  return n === null || n === undefined ? NO_NAME : n;
}

/**
 * Writes a known element at `p` of `b` (which has room for MAX_ELEMENT_SIZE
 * bytes) and returns the position after it: the bytes `putFields` writes
 * from elementFields(el), written at the layout's offsets without going
 * through the field table. A value that does not fit is a FormatError
 * naming the field. (Graphics and the other kinds are two functions, each
 * small enough for its fixed-point writes to be compiled in place.)
 */
export function writeKnownElement(
  b: Uint8Array,
  p: number,
  el: KnownElement,
  slices: readonly IspriteSlice[],
  f: number,
  e: number,
): number {
  return el.type === 'graphic' ? writeGraphic(b, p, el, slices, f, e) : writeShape(b, p, el, slices, f, e);
}

function writeGraphic(b: Uint8Array, p: number, el: IspriteGraphic, slices: readonly IspriteSlice[], f: number, e: number): number {
  const name = nameField(el);
  if (!isU16(name)) throw elementError(el, slices, f, e);
  b[p + EL_NAME] = name;
  b[p + EL_NAME + 1] = name >>> 8;
  const expanded = el.expanded;
  const l = expanded ? EXPANDED_GRAPHIC : SIMPLE_GRAPHIC;
  const slice = el.slice;
  if (!isU16(slice)) throw elementError(el, slices, f, e);
  b[p] = expanded ? MARKER.expanded : MARKER.simple;
  b[p + EL_SIZE] = l.size - ELEMENT.size;
  b[p + G.slice] = slice;
  b[p + G.slice + 1] = slice >>> 8;
  let bad = putFx(b, p + G.x, el.x) | putFx(b, p + G.y, el.y);
  b[p + G.mirror] = (el.flipX ? 1 : 0) | (el.flipY ? 2 : 0);
  if (!expanded) {
    if (bad) throw elementError(el, slices, f, e);
    return p + l.size;
  }
  let ox = el.originX;
  let oy = el.originY;
  if (ox === undefined || oy === undefined) {
    const [cx, cy] = sliceCentre(slices[slice]);
    if (ox === undefined) ox = cx;
    if (oy === undefined) oy = cy;
  }
  bad |= putFx(b, p + G.originX, ox) | putFx(b, p + G.originY, oy) | putFx(b, p + G.rotation, el.rotation ?? 0);
  bad |= putFx(b, p + G.scaleX, el.scaleX ?? 1) | putFx(b, p + G.scaleY, el.scaleY ?? 1);
  const op = el.opacity ?? 0xffff;
  if (bad || !isU16(op)) throw elementError(el, slices, f, e);
  b[p + G.opacity] = op;
  b[p + G.opacity + 1] = op >>> 8;
  return p + l.size;
}

function writeShape(
  b: Uint8Array,
  p: number,
  el: IspriteAttachment | IspriteRect | IspriteCircle,
  slices: readonly IspriteSlice[],
  f: number,
  e: number,
): number {
  const name = nameField(el);
  if (!isU16(name)) throw elementError(el, slices, f, e);
  b[p + EL_NAME] = name;
  b[p + EL_NAME + 1] = name >>> 8;
  switch (el.type) {
    case 'attachment': {
      const id = el.id;
      const op = el.opacity;
      b[p] = MARKER.attachment;
      b[p + EL_SIZE] = ATTACHMENT.size - ELEMENT.size;
      b[p + A.id] = id;
      b[p + A.id + 1] = id >>> 8;
      const bad =
        putFx(b, p + A.x, el.x) |
        putFx(b, p + A.y, el.y) |
        putFx(b, p + A.rotation, el.rotation) |
        putFx(b, p + A.scaleX, el.scaleX) |
        putFx(b, p + A.scaleY, el.scaleY);
      if (bad || !isU16(id) || !isU16(op)) throw elementError(el, slices, f, e);
      b[p + A.mirror] = (el.flipX ? 1 : 0) | (el.flipY ? 2 : 0);
      b[p + A.mirror + 1] = 0;
      b[p + A.opacity] = op;
      b[p + A.opacity + 1] = op >>> 8;
      return p + ATTACHMENT.size;
    }
    case 'rect': {
      const id = el.id;
      b[p] = MARKER.collision;
      b[p + EL_SIZE] = COLLISION_RECT.size - ELEMENT.size;
      b[p + R.reserved] = 0;
      b[p + R.shape] = MARKER.rect;
      b[p + R.id] = id;
      b[p + R.id + 1] = id >>> 8;
      const bad =
        putFx(b, p + R.x, el.x) |
        putFx(b, p + R.y, el.y) |
        putFx(b, p + R.width, el.width) |
        putFx(b, p + R.height, el.height) |
        putFx(b, p + R.rotation, el.rotation);
      if (bad || !isU16(id)) throw elementError(el, slices, f, e);
      b[p + R.reserved2] = 0;
      return p + COLLISION_RECT.size;
    }
    case 'circle': {
      const id = el.id;
      b[p] = MARKER.collision;
      b[p + EL_SIZE] = COLLISION_CIRCLE.size - ELEMENT.size;
      b[p + CI.reserved] = 0;
      b[p + CI.shape] = MARKER.circle;
      b[p + CI.id] = id;
      b[p + CI.id + 1] = id >>> 8;
      const bad = putFx(b, p + CI.x, el.x) | putFx(b, p + CI.y, el.y) | putFx(b, p + CI.radius, el.radius);
      if (bad || !isU16(id)) throw elementError(el, slices, f, e);
      return p + COLLISION_CIRCLE.size;
    }
    default:
      throw new FormatError(FORMAT, `frame ${f} element ${e}: unknown element type "${String((el as { type: unknown }).type)}"`);
  }
}

/** The size of any element's record (an unknown element: its header and data). */
export function elementSize(el: IspriteElement): number {
  return el.type === 'unknown' ? ELEMENT.size + el.data.length : knownElementSize(el);
}
