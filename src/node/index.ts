export * from './fs.js';
export * from './server.js';
export { nodeDeflate, useNodeZlib } from './zlib.js';

import { useNodeZlib } from './zlib.js';

// The Node API writes PNGs with node's zlib (see ./zlib.ts).
useNodeZlib();
