import { FormatError } from '../binary/errors.js';
import { decompressIntoWasm, decompressViewWasm, decompressWasm } from './wasm.js';

export interface DecompressOptions {
  /** Largest output allowed, in bytes (default 256 MiB). Going past it is a FormatError. */
  limit?: number;
  /**
   * Expected output size. Accepted for callers that know it, but not needed:
   * the decoder measures the exact size in a first pass over the control
   * bytes (which also checks the whole stream before allocating).
   */
  sizeHint?: number;
  /**
   * 'auto' (default): WebAssembly for inputs of 4 KiB and more when the
   * platform has it, else JavaScript; 'js' or 'wasm' to choose (for tests).
   * Both check the whole stream before writing anything.
   */
  engine?: 'auto' | 'js' | 'wasm';
}

const WASM_FROM = 4 * 1024;

export const DEFAULT_LZF_LIMIT = 256 * 1024 * 1024;

function tooBig(limit: number, at: number): FormatError {
  return FormatError.atByte(
    'lzf',
    `decompressed data would be larger than the limit of ${limit} bytes (LZF bomb or damaged stream; raise the limit to read it)`,
    at,
  );
}

/**
 * Decompresses a raw LZF stream (no header). Never reads or writes out of
 * bounds: a literal run or back reference that runs past the input, or a
 * reference before the start of the output, is a FormatError naming the
 * input offset of the control byte that starts it. A first pass over the
 * control bytes checks the stream and measures the exact output size (so a
 * bomb is refused before anything is allocated); the second pass decodes
 * without further checks. The result is a new array each call (from 4 KiB
 * inputs decoded in WebAssembly memory and copied out): to decode many
 * streams without allocating, use `decompressInto` (a buffer of the
 * caller's) or `decompressView` (no copy at all).
 */
export function decompress(input: Uint8Array, options: DecompressOptions = {}): Uint8Array {
  const limit = options.limit ?? DEFAULT_LZF_LIMIT;
  const engine = options.engine ?? 'auto';
  if (engine === 'wasm' || (engine === 'auto' && input.length >= WASM_FROM)) {
    const out = decompressWasm(input, limit, measure);
    if (out instanceof Uint8Array) return out;
    // 'damaged': the JavaScript pass below throws the error that names the problem
  }
  const size = measure(input, limit);
  const out = new Uint8Array(size);
  decodeChecked(input, out);
  return out;
}

/** What decompressInto and decompressView take. */
export interface DecompressIntoOptions {
  /**
   * 'auto' (default): the faster of the two for the input's size (see
   * docs/lzf.md); 'js' or 'wasm' to choose (for tests). Where WebAssembly is
   * unavailable, 'wasm' falls back to JavaScript.
   */
  engine?: 'auto' | 'js' | 'wasm';
}

/** decompressInto's WebAssembly path from inputs of this size (measured: 3.5-4x the JavaScript loop's speed from 1 KB inputs on). */
const INTO_WASM_FROM = 512;

/**
 * Decompresses a raw LZF stream into the caller's buffer `dest`, from its
 * start, and returns the number of bytes written: no output buffer is
 * allocated (decode many streams into one buffer, or straight into a
 * structure's memory). `dest.length` is the output limit: a stream that
 * would write more is a FormatError (as for `limit`), as is a damaged one,
 * naming the input offset of the token at fault, with the same messages as
 * `decompress`. After an error, `dest`'s contents are unspecified (part of
 * the stream may have been written). Nothing is read or written outside
 * `input` and `dest`.
 */
export function decompressInto(input: Uint8Array, dest: Uint8Array, options: DecompressIntoOptions = {}): number {
  const engine = options.engine ?? 'auto';
  if (engine === 'wasm' || (engine === 'auto' && input.length >= INTO_WASM_FROM)) {
    const n = decompressIntoWasm(input, dest);
    if (typeof n === 'number') return n;
    if (n === 'damaged') measure(input, dest.length); // throws the error that names the problem
  }
  const n = decodeInto(input, dest);
  if (n < 0) {
    measure(input, dest.length); // throws the error that names the problem
    throw FormatError.atByte('lzf', 'damaged stream', 0); // (not reached: measure refuses what decodeInto refuses)
  }
  return n;
}

/**
 * Decompresses a raw LZF stream where the decoder works and returns a view
 * of the output there, without copying it out: the fastest way to read a
 * stream once. The view is valid only until the next call to any function
 * of `sprat/lzf` (or of a reader that decompresses, such as SpriteTile's):
 * read it right away, or `.slice()` it to keep it (a later call may write
 * over its bytes; its buffer is never detached, so it never becomes empty).
 * Without WebAssembly it is an ordinary array of its own. Errors and
 * `limit` as for `decompress`.
 */
export function decompressView(input: Uint8Array, options: Omit<DecompressOptions, 'sizeHint'> = {}): Uint8Array {
  const limit = options.limit ?? DEFAULT_LZF_LIMIT;
  if (options.engine !== 'js') {
    const out = decompressViewWasm(input, limit, measure);
    if (out instanceof Uint8Array) return out;
  }
  return decompress(input, { limit, engine: 'js' });
}

/**
 * A back reference of 16 bytes or more: `len` bytes from `ref` copied to
 * `op` (ref < op; the run may overlap what it writes). Returns the new `op`.
 */
function copyBack(out: Uint8Array, op: number, ref: number, len: number): number {
  let dist = op - ref;
  if (dist >= len) {
    out.copyWithin(op, ref, ref + len);
    return op + len;
  }
  if (dist === 1) {
    out.fill(out[ref]!, op, op + len);
    return op + len;
  }
  // an overlapping run: copy a period, then ever longer chunks
  while (len > 0) {
    const k = dist < len ? dist : len;
    out.copyWithin(op, ref, ref + k);
    op += k;
    len -= k;
    dist += k;
  }
  return op;
}

/**
 * One checking pass that decodes into `out` from its start: returns the
 * output length, or -1 at the first damaged token or a token that would
 * pass the end of `out` (the caller then runs `measure` for the message).
 */
function decodeInto(input: Uint8Array, out: Uint8Array): number {
  const n = input.length;
  const cap = out.length;
  let ip = 0;
  let op = 0;
  while (ip < n) {
    const ctrl = input[ip++]!;
    if (ctrl < 32) {
      const len = ctrl + 1;
      if (ip + len > n || op + len > cap) return -1;
      if (len < 16) {
        const end = ip + len;
        while (ip < end) out[op++] = input[ip++]!;
      } else {
        out.set(input.subarray(ip, ip + len), op);
        ip += len;
        op += len;
      }
    } else {
      let len = ctrl >> 5;
      if (len === 7) {
        if (ip >= n) return -1;
        len += input[ip++]!;
      }
      if (ip >= n) return -1;
      let ref = op - (((ctrl & 31) << 8) | input[ip++]!) - 1;
      len += 2;
      if (ref < 0 || op + len > cap) return -1;
      if (len < 16) {
        const end = op + len;
        while (op < end) out[op++] = out[ref++]!;
      } else op = copyBack(out, op, ref, len);
    }
  }
  return op;
}

/**
 * First pass: walks the control bytes only, checking every token, and
 * returns the exact output size. Throws a FormatError at the first damage or
 * when the size passes `limit`, before anything big is allocated.
 */
export function measure(input: Uint8Array, limit = DEFAULT_LZF_LIMIT): number {
  const n = input.length;
  let ip = 0;
  let op = 0;
  while (ip < n) {
    const ctrl = input[ip]!;
    if (ctrl < 32) {
      const len = ctrl + 1;
      if (ip + 1 + len > n) {
        throw FormatError.atByte('lzf', `literal run of ${len} bytes runs past the end of the input (${n - ip - 1} left)`, ip);
      }
      ip += 1 + len;
      op += len;
    } else {
      let len = ctrl >> 5;
      let q = ip + 1;
      if (len === 7) {
        if (q >= n) throw FormatError.atByte('lzf', 'back reference is cut off by the end of the input', ip);
        len += input[q++]!;
      }
      if (q >= n) throw FormatError.atByte('lzf', 'back reference is cut off by the end of the input', ip);
      const dist = (((ctrl & 31) << 8) | input[q++]!) + 1;
      if (dist > op) {
        throw FormatError.atByte(
          'lzf',
          `back reference to ${dist} bytes back points before the start of the output (only ${op} bytes written)`,
          ip,
        );
      }
      ip = q;
      op += len + 2;
    }
    if (op > limit) throw tooBig(limit, ip);
  }
  return op;
}

/** Second pass over a stream `measure` accepted: no checks needed, `out` has the exact size. */
function decodeChecked(input: Uint8Array, out: Uint8Array): void {
  const n = input.length;
  let ip = 0;
  let op = 0;
  while (ip < n) {
    const ctrl = input[ip++]!;
    if (ctrl < 32) {
      const end = ip + ctrl + 1;
      while (ip < end) out[op++] = input[ip++]!;
    } else {
      let len = ctrl >> 5;
      if (len === 7) len += input[ip++]!;
      let ref = op - (((ctrl & 31) << 8) | input[ip++]!) - 1;
      len += 2;
      if (len < 16) {
        const end = op + len;
        while (op < end) out[op++] = out[ref++]!;
      } else op = copyBack(out, op, ref, len);
    }
  }
}

/**
 * Decompresses only as much as needed to produce the first `count` bytes
 * (or fewer if the stream ends). Never throws: a damaged stream just gives
 * fewer bytes. For cheap content sniffing.
 */
export function decompressPrefix(input: Uint8Array, count: number): Uint8Array {
  const out = new Uint8Array(count + 264);
  const n = input.length;
  let ip = 0;
  let op = 0;
  while (ip < n && op < count) {
    const ctrl = input[ip++]!;
    if (ctrl < 32) {
      const len = ctrl + 1;
      if (ip + len > n) break;
      for (let k = 0; k < len; k++) out[op + k] = input[ip + k]!;
      op += len;
      ip += len;
    } else {
      let len = ctrl >> 5;
      if (len === 7) {
        if (ip >= n) break;
        len += input[ip++]!;
      }
      if (ip >= n) break;
      let ref = op - (((ctrl & 31) << 8) | input[ip++]!) - 1;
      if (ref < 0) break;
      len += 2;
      const end = op + len;
      while (op < end) out[op++] = out[ref++]!;
    }
  }
  return out.subarray(0, Math.min(op, count));
}
