import { FormatError } from './errors.js';
import { fixed24ToParts } from './fixed.js';
import { encodeUtf8 } from './utf8.js';

/** The integer field types a writer stores. */
export type IntKind = 'u8' | 'i8' | 'u16' | 'i16' | 'u32' | 'i32';

/** The range of each integer field type, and how its error names it. */
export const INT_RANGES: Readonly<Record<IntKind, { min: number; max: number; bits: number }>> = {
  u8: { min: 0, max: 0xff, bits: 8 },
  i8: { min: -0x80, max: 0x7f, bits: 8 },
  u16: { min: 0, max: 0xffff, bits: 16 },
  i16: { min: -0x8000, max: 0x7fff, bits: 16 },
  u32: { min: 0, max: 0xffffffff, bits: 32 },
  i32: { min: -0x80000000, max: 0x7fffffff, bits: 32 },
};

/** The range of an integer field type in words: `16-bit field (0 to 65535)`. */
export function describeIntField(kind: IntKind): string {
  const r = INT_RANGES[kind];
  return `${r.bits}-bit field (${r.min} to ${r.max})`;
}

/**
 * What to do with a value that does not fit its field: refuse (the default,
 * a FormatError naming the field and the value) or, when the user asked for
 * it (`convert --clamp`), clamp it into the field's range (rounding a value
 * that is not whole) and report each change through `note`.
 */
export interface RangePolicy {
  clamp?: boolean;
  note?(message: string): void;
}

/**
 * `v` as a value of an integer field of type `kind`. A value that fits is
 * returned as it is; otherwise a FormatError (format `format`) that names
 * the field `what` and the value, e.g. `layer 2 order 70000 does not fit the
 * file's 16-bit field (-32768 to 32767)`; or, with `policy.clamp`, the
 * nearest value that fits, with a note saying so. NaN is never clamped.
 */
export function fitInt(format: string, kind: IntKind, v: number, what: string, policy?: RangePolicy): number {
  const r = INT_RANGES[kind];
  if (Number.isInteger(v) && v >= r.min && v <= r.max) return v;
  if (policy?.clamp && typeof v === 'number' && !Number.isNaN(v)) {
    const c = Math.min(r.max, Math.max(r.min, Math.round(v)));
    policy.note?.(`${what} ${v} clamped to ${c} (the file's ${describeIntField(kind)})`);
    return c;
  }
  if (typeof v !== 'number' || Number.isNaN(v) || (v >= r.min && v <= r.max)) {
    throw new FormatError(format, `${what} ${String(v)} is not a whole number, which the file's ${describeIntField(kind)} needs`);
  }
  throw new FormatError(format, `${what} ${v} does not fit the file's ${describeIntField(kind)}`);
}

/** How many clamp notes a conversion prints one by one before it sums up the rest. */
export const MAX_CLAMP_NOTES = 20;

/**
 * A RangePolicy for a conversion: refuse, or (`clamp`) clamp and push one
 * note per change onto `notes`, the first MAX_CLAMP_NOTES of them word for
 * word; `finish()` adds one note counting the rest.
 */
export function rangePolicy(clamp: boolean, notes: string[]): RangePolicy & { finish(): void } {
  let count = 0;
  return {
    clamp,
    note(m: string) {
      if (count++ < MAX_CLAMP_NOTES) notes.push(m);
    },
    finish() {
      if (count > MAX_CLAMP_NOTES) notes.push(`${count - MAX_CLAMP_NOTES} more values clamped`);
      count = 0;
    },
  };
}

function unnamed(kind: IntKind): string {
  return `a ${kind[0] === 'u' ? 'unsigned' : 'signed'} value`;
}

/**
 * A growable little/big-endian byte writer. `pos` is the write position;
 * the `*At` methods patch earlier bytes (sizes computed after the fact).
 *
 * Every integer write checks its value against the field's range: a value
 * that does not fit (or is not whole) is a FormatError, never a wrapped
 * number. `int(kind, v, what)` names the field in that error (use it for
 * every value that comes from the document); the constructor's `range`
 * policy lets those named fields clamp instead (with a note per change).
 */
export class ByteWriter {
  private buf: Uint8Array;
  private view: DataView;
  pos = 0;
  littleEndian: boolean;
  readonly format: string;
  /** For named fields (`int`): refuse (default) or clamp with a note. */
  readonly range: RangePolicy | undefined;

  constructor(opts: { format: string; littleEndian?: boolean; initialSize?: number; range?: RangePolicy }) {
    this.format = opts.format;
    this.range = opts.range;
    this.littleEndian = opts.littleEndian ?? true;
    this.buf = new Uint8Array(Math.max(16, opts.initialSize ?? 1024));
    this.view = new DataView(this.buf.buffer);
  }

  get length(): number {
    return this.pos;
  }

  /**
   * The current buffer, for fast paths that `ensure()` room and then fill it
   * directly at `pos` (and advance `pos`). Valid until the writer next grows.
   */
  get buffer(): Uint8Array {
    return this.buf;
  }

  /**
   * Makes room for a fixed-size record of `n` bytes, moves `pos` past it and
   * returns where it starts, for a caller that fills it in `buffer` (valid
   * until the writer next grows).
   */
  reserve(n: number): number {
    this.ensure(n);
    const at = this.pos;
    this.pos = at + n;
    return at;
  }

  /** Makes room for `n` more bytes. */
  ensure(n: number): void {
    const need = this.pos + n;
    if (need <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < need) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  /** Refuses a value that does not fit `kind` (an unnamed field: a count or size the writer computed). */
  private fit(kind: IntKind, v: number): void {
    const r = INT_RANGES[kind];
    if (!(v >= r.min && v <= r.max && Number.isInteger(v))) fitInt(this.format, kind, v, unnamed(kind));
  }

  /**
   * Writes `v` as an integer field of type `kind` named `what` (e.g. `layer 2
   * scrollX`): a value that does not fit is refused naming the field and the
   * value, or clamped with a note under the writer's `range` policy.
   */
  int(kind: IntKind, v: number, what: string, le = this.littleEndian): this {
    const x = fitInt(this.format, kind, v, what, this.range);
    switch (kind) {
      case 'u8':
        return this.u8(x);
      case 'i8':
        return this.i8(x);
      case 'u16':
        return this.u16(x, le);
      case 'i16':
        return this.i16(x, le);
      case 'u32':
        return this.u32(x, le);
      default:
        return this.i32(x, le);
    }
  }

  u8(v: number): this {
    if (!(v >= 0 && v <= 0xff && (v | 0) === v)) this.fit('u8', v);
    this.ensure(1);
    this.buf[this.pos++] = v;
    return this;
  }

  i8(v: number): this {
    this.fit('i8', v);
    return this.u8(v & 0xff);
  }

  u16(v: number, le = this.littleEndian): this {
    this.fit('u16', v);
    this.ensure(2);
    this.view.setUint16(this.pos, v, le);
    this.pos += 2;
    return this;
  }

  i16(v: number, le = this.littleEndian): this {
    this.fit('i16', v);
    this.ensure(2);
    this.view.setInt16(this.pos, v, le);
    this.pos += 2;
    return this;
  }

  u32(v: number, le = this.littleEndian): this {
    this.fit('u32', v);
    this.ensure(4);
    this.view.setUint32(this.pos, v, le);
    this.pos += 4;
    return this;
  }

  i32(v: number, le = this.littleEndian): this {
    this.fit('i32', v);
    this.ensure(4);
    this.view.setInt32(this.pos, v, le);
    this.pos += 4;
    return this;
  }

  u64(v: bigint, le = this.littleEndian): this {
    this.ensure(8);
    this.view.setBigUint64(this.pos, v, le);
    this.pos += 8;
    return this;
  }

  f32(v: number, le = this.littleEndian): this {
    if (Number.isFinite(v) && !Number.isFinite(Math.fround(v))) {
      throw new FormatError(this.format, `${v} does not fit the file's 32-bit float field (it would become infinite)`);
    }
    this.ensure(4);
    this.view.setFloat32(this.pos, v, le);
    this.pos += 4;
    return this;
  }

  f64(v: number, le = this.littleEndian): this {
    this.ensure(8);
    this.view.setFloat64(this.pos, v, le);
    this.pos += 8;
    return this;
  }

  /** 24-bit fixed point; throws a FormatError for values it cannot hold. */
  fixed24(v: number, what = 'fixed-point value'): this {
    const parts = fixed24ToParts(v);
    if (!parts) {
      throw new FormatError(this.format, `${what} ${v} is outside the fixed-point range [-32768, 32767.99609375]`);
    }
    this.ensure(3);
    this.view.setInt16(this.pos, parts[0], true);
    this.buf[this.pos + 2] = parts[1];
    this.pos += 3;
    return this;
  }

  bytes(b: Uint8Array): this {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
    return this;
  }

  zeros(n: number): this {
    this.ensure(n);
    this.buf.fill(0, this.pos, this.pos + n);
    this.pos += n;
    return this;
  }

  /** Latin-1 text, one byte per char (for magic numbers and tags). */
  ascii(s: string): this {
    this.ensure(s.length);
    for (let i = 0; i < s.length; i++) this.buf[this.pos++] = s.charCodeAt(i) & 0xff;
    return this;
  }

  private lengthPrefixed(s: string, max: number, what: string, put: (n: number) => void): this {
    let b: Uint8Array | null = null;
    let n = s.length;
    let ascii = true;
    for (let i = 0; i < s.length; i++) {
      if (s.charCodeAt(i) >= 0x80) {
        ascii = false;
        break;
      }
    }
    if (!ascii) {
      b = encodeUtf8(s);
      n = b.length;
    }
    if (n > max) throw new FormatError(this.format, `${what} is ${n} bytes long; at most ${max} fit`);
    put(n);
    if (b) return this.bytes(b);
    return this.ascii(s);
  }

  /** UTF-8 with a u8 byte length. */
  str8(s: string, what = 'string'): this {
    return this.lengthPrefixed(s, 0xff, what, (n) => this.u8(n));
  }

  /** UTF-8 with a u16 byte length. */
  str16(s: string, what = 'string', le = this.littleEndian): this {
    return this.lengthPrefixed(s, 0xffff, what, (n) => this.u16(n, le));
  }

  /** UTF-8 with an i32 byte length. */
  str32(s: string, what = 'string', le = this.littleEndian): this {
    return this.lengthPrefixed(s, 0x7fffffff, what, (n) => this.i32(n, le));
  }

  u8At(at: number, v: number): this {
    this.fit('u8', v);
    this.buf[at] = v;
    return this;
  }

  u16At(at: number, v: number, le = this.littleEndian): this {
    this.fit('u16', v);
    this.view.setUint16(at, v, le);
    return this;
  }

  u32At(at: number, v: number, le = this.littleEndian): this {
    this.fit('u32', v);
    this.view.setUint32(at, v, le);
    return this;
  }

  i32At(at: number, v: number, le = this.littleEndian): this {
    this.fit('i32', v);
    this.view.setInt32(at, v, le);
    return this;
  }

  /** The bytes written so far (a copy that fits exactly). */
  finish(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}
