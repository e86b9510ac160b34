/**
 * Node only (not for browsers): reading files within the size limits, the
 * resource loader that finds a document's sheets and textures beside it on
 * disk, atomic writes that never replace an input, and the viewer's local
 * server.
 *
 * @module sprat/node
 */
export * from './fs.js';
export * from './server.js';
export { nodeDeflate, nodeInflate, useNodeZlib } from './zlib.js';

import { useNodeZlib } from './zlib.js';

// The Node API writes and reads PNGs with node's zlib (see ./zlib.ts).
useNodeZlib();
