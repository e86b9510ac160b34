/**
 * The inflater behind PNG reading (RFC 1951 raw deflate: the PNG reader
 * checks the two-byte zlib header itself). The core runs in browsers, so
 * the default is fflate's (pure JavaScript); in Node, where node's own zlib
 * (C) is about three times as fast, `sprat/node` and the command line install
 * it with `setRawInflate` (src/node/zlib.ts `useNodeZlib`). Both make the
 * same bytes, and both are bounded: the caller says how many bytes it wants.
 */
import { inflateSync } from 'fflate';

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
