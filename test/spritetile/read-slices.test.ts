/**
 * A big level is decoded in WebAssembly memory and its cells split into
 * their arrays a slice of 32768 cells at a time (src/lzf/wasm.ts
 * decompressRetained / splitSlices; memory): the same arrays as
 * the JavaScript parse of the decompressed level, a bad cell in any slice
 * reported at its own offset, and the same result read after read (the
 * first big read lets the module's memory go, later ones keep it).
 */
import { describe, expect, it } from 'vitest';
import { errorOf } from '../helpers/errors.js';
import { decompress } from '../../src/lzf/index.js';
import { addLayer, createLevel, parseLevel, readSpriteTile, writeSpriteTile } from '../../src/formats/spritetile/index.js';

function bigLevel(width: number, height: number) {
  const level = createLevel();
  const l = addLayer(level, { width, height });
  addLayer(level, { width: 5, height: 3 });
  let s = 17;
  for (let i = 0; i < l.tiles.length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    l.tiles[i] = ((s >>> 17) % 5000) - 1;
    l.flags[i] = (s >>> 3) % 1801;
    l.order[i] = ((s >>> 9) % 600) - 300;
    l.trigger[i] = s & 255;
  }
  return { level, l };
}

describe('SpriteTile read of a big level, split a slice at a time', () => {
  it('gives the arrays the JavaScript parse gives, read after read, and writes the same file back', () => {
    // 300 x 250 = 75000 cells: two full slices and part of a third.
    const { level, l } = bigLevel(300, 250);
    const file = writeSpriteTile(level);
    for (let round = 0; round < 3; round++) {
      const a = readSpriteTile(file);
      const b = parseLevel(decompress(file));
      const la = a.layers![0]!;
      expect(la.tiles).toEqual(l.tiles);
      expect(la.flags).toEqual(l.flags);
      expect(la.order).toEqual(l.order);
      expect(la.trigger).toEqual(l.trigger);
      expect(la.tiles).toEqual(b.layers![0]!.tiles);
      expect(a.layers![1]!.tiles).toEqual(b.layers![1]!.tiles);
      expect(Buffer.from(writeSpriteTile(a)).equals(Buffer.from(file))).toBe(true);
    }
  });

  it('reports a bad cell in a later slice at its own offset', () => {
    const { level, l } = bigLevel(300, 250);
    for (const cell of [32767, 32768, 74999]) {
      const saved = l.tiles[cell]!;
      l.tiles[cell] = -7;
      const e = errorOf(() => readSpriteTile(writeSpriteTile(level)));
      expect(e.message).toMatch(new RegExp(`^in the decompressed level: layer 0 cell ${cell} has tile value -7`));
      expect(e.offset).toBe(35 + 4 + 47 + cell * 7); // header and tag table, lvlayrs count, layer header
      l.tiles[cell] = saved;
    }
  });
});
