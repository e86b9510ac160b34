import { FormatError } from './errors.js';
import { fixed24ToParts } from './fixed.js';
import { encodeUtf8 } from './utf8.js';

/**
 * A growable little/big-endian byte writer. `pos` is the write position;
 * the `*At` methods patch earlier bytes (sizes computed after the fact).
 */
export class ByteWriter {
  private buf: Uint8Array;
  private view: DataView;
  pos = 0;
  littleEndian: boolean;
  readonly format: string;

  constructor(opts: { format: string; littleEndian?: boolean; initialSize?: number }) {
    this.format = opts.format;
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

  u8(v: number): this {
    this.ensure(1);
    this.buf[this.pos++] = v;
    return this;
  }

  i8(v: number): this {
    return this.u8(v & 0xff);
  }

  u16(v: number, le = this.littleEndian): this {
    this.ensure(2);
    this.view.setUint16(this.pos, v, le);
    this.pos += 2;
    return this;
  }

  i16(v: number, le = this.littleEndian): this {
    this.ensure(2);
    this.view.setInt16(this.pos, v, le);
    this.pos += 2;
    return this;
  }

  u32(v: number, le = this.littleEndian): this {
    this.ensure(4);
    this.view.setUint32(this.pos, v, le);
    this.pos += 4;
    return this;
  }

  i32(v: number, le = this.littleEndian): this {
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
    this.buf[at] = v;
    return this;
  }

  u16At(at: number, v: number, le = this.littleEndian): this {
    this.view.setUint16(at, v, le);
    return this;
  }

  u32At(at: number, v: number, le = this.littleEndian): this {
    this.view.setUint32(at, v, le);
    return this;
  }

  i32At(at: number, v: number, le = this.littleEndian): this {
    this.view.setInt32(at, v, le);
    return this;
  }

  /** The bytes written so far (a copy that fits exactly). */
  finish(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}
