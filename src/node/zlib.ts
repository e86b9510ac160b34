/**
 * Node's zlib (C) for PNG and APNG writing instead of fflate's (JavaScript):
 * the same pixels, compressed about twice as fast. The command line calls
 * `useNodeZlib()` when it starts, and importing `sprat/node` does too.
 */
import { deflateSync } from 'node:zlib';
import { setZlibDeflate, type ZlibDeflate } from '../render/deflate.js';

/** Node's zlib as a ZlibDeflate. */
export const nodeDeflate: ZlibDeflate = (data, level) => {
  const b = deflateSync(data, { level });
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
};

/** Makes PNG and APNG writing use node's zlib (in this thread). */
export function useNodeZlib(): void {
  setZlibDeflate(nodeDeflate);
}
