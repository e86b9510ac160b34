/**
 * The inflater behind PNG reading (RFC 1951 raw deflate: the PNG reader
 * checks the two-byte zlib header itself). The core runs in browsers, so
 * the default is fflate's (pure JavaScript); in Node, where node's own zlib
 * (C) is about three times as fast, `sprat/node` and the command line install
 * it with `setRawInflate` (src/node/zlib.ts `useNodeZlib`). Both make the
 * same bytes, and both are bounded: the caller says how many bytes it wants.
 */
import { Inflate, inflateSync } from 'fflate';

/**
 * Inflates a raw deflate stream: its first `size` bytes (fewer when the
 * stream ends sooner), never more. Throws on a broken stream (any error: the
 * PNG reader words the one-line message).
 */
export type RawInflate = (data: Uint8Array, size: number) => Uint8Array;

/**
 * fflate's inflate into a buffer of exactly `size` bytes: fflate never grows
 * a buffer it was given, so what a stream makes past `size` is dropped and
 * the memory stays bounded.
 */
export const fflateInflate: RawInflate = (data, size) => inflateSync(data, { out: new Uint8Array(size) });

/**
 * fflate's streaming inflate, fed 4 KiB at a time and stopped once `size`
 * bytes are out: for a stream known to make more than `size` (a deflate
 * bomb after the image's rows makes up to 1032 bytes a byte), the work ends
 * where the image does. Slower per byte than `fflateInflate` (its output
 * comes in pieces), so only for such streams.
 */
export const stoppingInflate: RawInflate = (data, size) => {
  const out = new Uint8Array(size);
  let o = 0;
  const inflater = new Inflate((piece) => {
    const n = Math.min(piece.length, size - o);
    out.set(n === piece.length ? piece : piece.subarray(0, n), o);
    o += n;
  });
  const STEP = 4096;
  for (let p = 0; p < data.length && o < size; p += STEP) inflater.push(data.subarray(p, p + STEP), p + STEP >= data.length);
  return o === size ? out : out.subarray(0, o);
};

let current: RawInflate = fflateInflate;

/** Sets the inflater PNG reading uses (`null`: back to fflate's). */
export function setRawInflate(inflate: RawInflate | null): void {
  current = inflate ?? fflateInflate;
}

/** The inflater in use. */
export function getRawInflate(): RawInflate {
  return current;
}

/** The first `size` bytes `data` (raw deflate) inflates to, by the inflater in use. */
export function rawInflate(data: Uint8Array, size: number): Uint8Array {
  return current(data, size);
}
