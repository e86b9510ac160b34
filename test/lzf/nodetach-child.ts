// Run by test/lzf/nodetach.test.ts in a node of its own with V8's
// --trace-protector-invalidation: the library's WebAssembly paths through
// growth (a big job after a small one), then "done". V8 prints
// "Invalidating protector cell ArrayBufferDetaching" if any buffer of the
// process was detached (from then on, typed-array accesses are slower).
import { compress, decompress, decompressInto, decompressView } from '../../src/lzf/index.js';
import { addLayer, createLevel, readSpriteTile, setCell, writeSpriteTile } from '../../src/formats/spritetile/index.js';
import { drawImage, setComposeKernels } from '../../src/render/compose.js';
import { createImage } from '../../src/render/image.js';
import { translate } from '../../src/render/matrix.js';

const raw = new Uint8Array(6_000_000);
for (let i = 0; i < 100_000; i++) raw[i] = (Math.imul(i, 2654435761) >>> 24) & 255;
const small = raw.subarray(0, 20_000);
for (const input of [small, raw]) {
  const z = compress(input, 'liblzf');
  decompress(z);
  decompressView(z);
  decompressInto(z, new Uint8Array(input.length));
}
for (const side of [30, 1000]) {
  const level = createLevel();
  addLayer(level, { width: side, height: side });
  setCell(level, level.layers![0]!, 1, 1, { set: 1, tile: 3 });
  readSpriteTile(writeSpriteTile(level));
}
setComposeKernels('wasm');
for (const side of [8, 1200]) drawImage(createImage(side + 8, side + 8), createImage(side, side), { transform: translate(3, 2) });
console.log('done');
