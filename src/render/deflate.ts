/**
 * The zlib (RFC 1950) compressor behind PNG and APNG writing. The core runs
 * in browsers, so the default is fflate's (pure JavaScript); in Node, where
 * node's own zlib (C) is about twice as fast, `sprat/node` and the command
 * line install it with `setZlibDeflate` (src/node/zlib.ts `useNodeZlib`).
 * The compressed bytes differ between the two; the data they decompress to
 * does not.
 */
import { zlibSync } from 'fflate';

/** Compresses `data` as a zlib stream at `level` (0-9). */
export type ZlibDeflate = (data: Uint8Array, level: number) => Uint8Array;

/** fflate's zlib: the default, in every environment. */
export const fflateDeflate: ZlibDeflate = (data, level) => zlibSync(data, { level: level as 6 });

let current: ZlibDeflate = fflateDeflate;

/** Sets the zlib compressor PNG and APNG writing use (`null`: back to fflate's). */
export function setZlibDeflate(deflate: ZlibDeflate | null): void {
  current = deflate ?? fflateDeflate;
}

/** The zlib compressor in use. */
export function getZlibDeflate(): ZlibDeflate {
  return current;
}

/** `data` compressed as a zlib stream at `level`, by the compressor in use. */
export function zlibDeflate(data: Uint8Array, level: number): Uint8Array {
  return current(data, level);
}
