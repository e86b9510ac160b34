/**
 * Node's zlib (C) instead of fflate's (JavaScript) for PNG and APNG writing
 * (the same pixels, compressed about twice as fast) and for PNG reading
 * (the same bytes, inflated about three times as fast). The command line
 * calls `useNodeZlib()` when it starts, and importing `sprat/node` does too.
 */
import { deflateSync, inflateRawSync } from 'node:zlib';
import { setZlibDeflate, type ZlibDeflate } from '../render/deflate.js';
import { type RawInflate, setRawInflate, stoppingInflate } from '../render/inflate.js';

/** Node's zlib as a ZlibDeflate. */
export const nodeDeflate: ZlibDeflate = (data, level) => {
  const b = deflateSync(data, { level });
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
};

/**
 * Node's zlib as a RawInflate: `maxOutputLength` bounds what it makes. A
 * stream that makes more than `size` (image data past the image's last
 * row, which a PNG decoder ignores) is inflated again by fflate's
 * streaming inflate, which stops at `size` bytes.
 */
export const nodeInflate: RawInflate = (data, size) => {
  let b: Buffer;
  try {
    // One output chunk of the whole size: no joining of 16 KiB pieces afterwards.
    b = inflateRawSync(data, { maxOutputLength: Math.max(size, 1), chunkSize: Math.max(64, Math.min(size, 1 << 30)) });
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return stoppingInflate(data, size);
    throw e;
  }
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
};

/** Makes PNG and APNG writing and PNG reading use node's zlib (in this thread). */
export function useNodeZlib(): void {
  setZlibDeflate(nodeDeflate);
  setRawInflate(nodeInflate);
}
