import { FormatError } from './errors.js';
import { fixed24At } from './fixed.js';
import { decodeUtf8 } from './utf8.js';

export interface ReaderOptions {
  /** Format name used in errors. */
  format: string;
  /** Default byte order for multi-byte reads. */
  littleEndian?: boolean;
  /** First readable byte (absolute offset into `bytes`). Default 0. */
  start?: number;
  /** One past the last readable byte. Default `bytes.length`. */
  end?: number;
  /** Called when a string is not valid UTF-8 (with the offset of its first byte). */
  onInvalidUtf8?: (offset: number) => void;
  /** A DataView over `bytes` to share (sub-readers share their parent's). */
  view?: DataView;
}

/**
 * A bounds-checked cursor over bytes. Every read checks that the bytes are
 * there first and throws a FormatError naming the absolute offset otherwise.
 * `sub()` makes a reader limited to a region (a chunk) that still reports
 * absolute offsets.
 */
export class ByteReader {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  readonly format: string;
  littleEndian: boolean;
  /** Absolute position of the next byte to read. */
  pos: number;
  /** This reader's region (changed only by `retarget`). */
  start: number;
  end: number;
  onInvalidUtf8?: (offset: number) => void;

  constructor(bytes: Uint8Array, opts: ReaderOptions) {
    this.bytes = bytes;
    this.view = opts.view ?? new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.format = opts.format;
    this.littleEndian = opts.littleEndian ?? true;
    this.start = opts.start ?? 0;
    this.end = opts.end ?? bytes.length;
    if (this.start < 0 || this.end > bytes.length || this.start > this.end) {
      throw new RangeError(`bad reader region ${this.start}..${this.end} of ${bytes.length}`);
    }
    this.pos = this.start;
    this.onInvalidUtf8 = opts.onInvalidUtf8;
  }

  /** Bytes left before the end of this reader's region. */
  get remaining(): number {
    return this.end - this.pos;
  }

  get atEnd(): boolean {
    return this.pos >= this.end;
  }

  /** An error at the given absolute offset (default: the current position). */
  error(reason: string, offset: number = this.pos): FormatError {
    return FormatError.atByte(this.format, reason, offset);
  }

  /** Throws unless `n` more bytes are available. */
  need(n: number, what = 'data'): void {
    if (n > this.end - this.pos || n < 0) {
      throw this.error(`unexpected end of ${what}: needs ${n} byte${n === 1 ? '' : 's'}, ${this.end - this.pos} left`);
    }
  }

  /**
   * Checks a count read from the file against the bytes left, before any
   * allocation or loop: `count` items of at least `minItemSize` bytes each.
   */
  checkCount(count: number, minItemSize: number, what: string, offset = this.pos, region = '', atLeast = true): void {
    if (count < 0 || !Number.isSafeInteger(count)) throw this.error(`${what} count ${count} is invalid`, offset);
    if (count * minItemSize > this.end - this.pos) {
      // `region` names where the bytes remain (` in the chunk`); `atLeast` false when the items have a fixed size.
      throw this.error(
        `${what} count ${count} needs ${atLeast ? 'at least ' : ''}${count * minItemSize} bytes but only ${this.end - this.pos} remain${region}`,
        offset,
      );
    }
  }

  /** A reader over the next `length` bytes (which are skipped in this reader). */
  sub(length: number, what = 'data', littleEndian = this.littleEndian): ByteReader {
    this.need(length, what);
    const r = new ByteReader(this.bytes, {
      format: this.format,
      littleEndian,
      start: this.pos,
      end: this.pos + length,
      onInvalidUtf8: this.onInvalidUtf8,
      view: this.view,
    });
    this.pos += length;
    return r;
  }

  /**
   * Aims this reader at another region [start, end) of its bytes, from its
   * start: for a loop over variable-size records (frames) that wants each
   * record's bounds checked without allocating a sub-reader per record.
   */
  retarget(start: number, end: number): void {
    if (start < 0 || end > this.bytes.length || start > end) {
      throw new RangeError(`bad reader region ${start}..${end} of ${this.bytes.length}`);
    }
    this.start = start;
    this.end = end;
    this.pos = start;
  }

  seek(absolute: number): void {
    if (absolute < this.start || absolute > this.end) throw this.error(`offset ${absolute} is outside the data`);
    this.pos = absolute;
  }

  skip(n: number, what = 'data'): void {
    this.need(n, what);
    this.pos += n;
  }

  u8(): number {
    if (this.pos >= this.end) this.need(1);
    return this.bytes[this.pos++]!;
  }

  i8(): number {
    if (this.pos >= this.end) this.need(1);
    return (this.bytes[this.pos++]! << 24) >> 24;
  }

  u16(le = this.littleEndian): number {
    if (this.pos + 2 > this.end) this.need(2);
    const v = this.view.getUint16(this.pos, le);
    this.pos += 2;
    return v;
  }

  i16(le = this.littleEndian): number {
    if (this.pos + 2 > this.end) this.need(2);
    const v = this.view.getInt16(this.pos, le);
    this.pos += 2;
    return v;
  }

  u32(le = this.littleEndian): number {
    if (this.pos + 4 > this.end) this.need(4);
    const v = this.view.getUint32(this.pos, le);
    this.pos += 4;
    return v;
  }

  i32(le = this.littleEndian): number {
    if (this.pos + 4 > this.end) this.need(4);
    const v = this.view.getInt32(this.pos, le);
    this.pos += 4;
    return v;
  }

  /** Unsigned 64-bit as a bigint. */
  u64(le = this.littleEndian): bigint {
    this.need(8);
    const v = this.view.getBigUint64(this.pos, le);
    this.pos += 8;
    return v;
  }

  f32(le = this.littleEndian): number {
    if (this.pos + 4 > this.end) this.need(4);
    const v = this.view.getFloat32(this.pos, le);
    this.pos += 4;
    return v;
  }

  f64(le = this.littleEndian): number {
    if (this.pos + 8 > this.end) this.need(8);
    const v = this.view.getFloat64(this.pos, le);
    this.pos += 8;
    return v;
  }

  /** 24-bit fixed point (int16 LE then u8 fraction). */
  fixed24(): number {
    if (this.pos + 3 > this.end) this.need(3);
    const v = fixed24At(this.view, this.bytes, this.pos);
    this.pos += 3;
    return v;
  }

  /** `n` bytes as a view (no copy). */
  bytesView(n: number, what = 'data'): Uint8Array {
    this.need(n, what);
    const v = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return v;
  }

  /** `n` bytes copied out. */
  bytesCopy(n: number, what = 'data'): Uint8Array {
    return this.bytesView(n, what).slice();
  }

  /** `n` bytes as Latin-1 text (for magic numbers and tags). */
  ascii(n: number, what = 'data'): string {
    const b = this.bytesView(n, what);
    let s = '';
    for (let i = 0; i < b.length; i++) s += String.fromCharCode(b[i]!);
    return s;
  }

  /** UTF-8 string of `n` bytes; invalid sequences become U+FFFD and call onInvalidUtf8. */
  utf8(n: number, what = 'string'): string {
    const at = this.pos;
    if (n > this.end - this.pos) {
      throw this.error(`${what} of ${n} bytes runs past the end of its data (${this.end - this.pos} bytes left)`);
    }
    const { text, valid } = decodeUtf8(this.bytesView(n, what));
    if (!valid) this.onInvalidUtf8?.(at);
    return text;
  }

  /** A string with a u8 byte length. */
  str8(what = 'string'): string {
    const at = this.pos;
    const n = this.u8();
    if (n > this.remaining) throw this.error(`${what} length ${n} is longer than the ${this.remaining} bytes left`, at);
    return this.utf8(n, what);
  }

  /** A string with a u16 byte length. */
  str16(what = 'string', le = this.littleEndian): string {
    const at = this.pos;
    const n = this.u16(le);
    if (n > this.remaining) throw this.error(`${what} length ${n} is longer than the ${this.remaining} bytes left`, at);
    return this.utf8(n, what);
  }

  /** A string with an i32 byte length (negative is an error). */
  str32(what = 'string', le = this.littleEndian): string {
    const at = this.pos;
    const n = this.i32(le);
    if (n < 0) throw this.error(`${what} length ${n} is negative`, at);
    if (n > this.remaining) throw this.error(`${what} length ${n} is longer than the ${this.remaining} bytes left`, at);
    return this.utf8(n, what);
  }

  // Unchecked reads at an absolute offset, for the fields of a fixed-size
  // record once `need()` (or a size check of the caller's) has made sure the
  // whole record is there: no bounds check, no cursor move. Little-endian.

  /** The byte at `p` (unchecked). */
  u8At(p: number): number {
    return this.bytes[p]!;
  }

  /** A little-endian u16 at `p` (unchecked). */
  u16At(p: number): number {
    const b = this.bytes;
    return b[p]! | (b[p + 1]! << 8);
  }

  /** A little-endian u32 at `p` (unchecked). */
  u32At(p: number): number {
    const b = this.bytes;
    return (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24)) >>> 0;
  }

  /** 24-bit fixed point at `p` (int16 LE then u8 fraction; unchecked). */
  fixed24At(p: number): number {
    const b = this.bytes;
    return (((b[p]! | (b[p + 1]! << 8)) << 16) >> 16) + b[p + 2]! / 256;
  }
}
