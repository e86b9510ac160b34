import { FormatError } from '../binary/errors.js';

export interface DecompressOptions {
  /** Largest output allowed, in bytes (default 256 MiB). Going past it is a FormatError. */
  limit?: number;
  /** Expected output size: the first buffer is made this big (it still grows when needed). */
  sizeHint?: number;
}

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
 * input offset of the control byte that starts it. The output grows as
 * needed and stops at `limit`.
 *
 * The result may be a view on a larger buffer (no copy is made).
 */
export function decompress(input: Uint8Array, options: DecompressOptions = {}): Uint8Array {
  const limit = options.limit ?? DEFAULT_LZF_LIMIT;
  const n = input.length;
  if (n === 0) return new Uint8Array(0);
  let cap = options.sizeHint !== undefined && options.sizeHint > 0 ? options.sizeHint : n * 4 + 64;
  cap = Math.max(64, Math.min(cap, limit));
  let out = new Uint8Array(cap);
  let ip = 0;
  let op = 0;

  while (ip < n) {
    const start = ip;
    const ctrl = input[ip++]!;
    if (ctrl < 32) {
      const len = ctrl + 1;
      if (ip + len > n) {
        throw FormatError.atByte('lzf', `literal run of ${len} bytes runs past the end of the input (${n - ip} left)`, start);
      }
      if (op + len > cap) {
        if (op + len > limit) throw tooBig(limit, start);
        cap = Math.min(limit, Math.max(cap * 2, op + 264));
        const next = new Uint8Array(cap);
        next.set(out.subarray(0, op));
        out = next;
      }
      if (len < 16) {
        for (let k = 0; k < len; k++) out[op + k] = input[ip + k]!;
      } else {
        out.set(input.subarray(ip, ip + len), op);
      }
      op += len;
      ip += len;
    } else {
      let len = ctrl >> 5;
      if (len === 7) {
        if (ip >= n) throw FormatError.atByte('lzf', 'back reference is cut off by the end of the input', start);
        len += input[ip++]!;
      }
      if (ip >= n) throw FormatError.atByte('lzf', 'back reference is cut off by the end of the input', start);
      let ref = op - (((ctrl & 31) << 8) | input[ip++]!) - 1;
      if (ref < 0) {
        throw FormatError.atByte(
          'lzf',
          `back reference to ${op - ref} bytes back points before the start of the output (only ${op} bytes written)`,
          start,
        );
      }
      len += 2;
      if (op + len > cap) {
        if (op + len > limit) throw tooBig(limit, start);
        cap = Math.min(limit, Math.max(cap * 2, op + 264));
        const next = new Uint8Array(cap);
        next.set(out.subarray(0, op));
        out = next;
      }
      const end = op + len;
      if (len >= 64 && op - ref >= len) {
        out.copyWithin(op, ref, ref + len);
        op = end;
      } else {
        while (op < end) out[op++] = out[ref++]!;
      }
    }
  }
  return out.length === op ? out : out.subarray(0, op);
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
