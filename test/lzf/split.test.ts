/**
 * The SIMD split of SpriteTile cells (src/lzf/split.wat) gives
 * what lzf.wat's scalar split and the JavaScript loop give: the same four
 * arrays byte for byte, or the same index of the first bad cell (a tile
 * below -1 or a rotation over 1800), for both byte orders, bad cells
 * anywhere (in a 16-cell step, at its edges, in the tail), and cells that
 * end right at the end of the memory (where a step would read past it).
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { SPLIT_WASM_BASE64 } from '../../src/lzf/split-wasm-bytes.js';
import { base64ToBytes, type Records7, splitRecords7 } from '../../src/lzf/wasm.js';
import { LZF_WASM_BASE64 } from '../../src/lzf/wasm-bytes.js';

type Split = (src: number, n: number, le: number, dst: number) => number;

const memory = new WebAssembly.Memory({ initial: 1 });
const MEM = memory.buffer.byteLength;
function instanceOf(b64: string, env: Record<string, unknown>): WebAssembly.Exports {
  return new WebAssembly.Instance(new WebAssembly.Module(base64ToBytes(b64)), { env: { mem: memory, ...env } }).exports;
}
const lzf = instanceOf(LZF_WASM_BASE64, {});
const scalar = lzf.split as Split;
const simd = instanceOf(SPLIT_WASM_BASE64, { splitFrom: lzf.splitFrom }).split as Split;

/** The JavaScript loop of src/formats/spritetile/read.ts: the four arrays as bytes, or the first bad index. */
function reference(cells: Uint8Array, n: number, le: boolean): Uint8Array | number {
  const out = new Uint8Array(n * 7);
  const v = new DataView(out.buffer);
  for (let i = 0; i < n; i++) {
    const p = i * 7;
    const t = le ? cells[p]! | (cells[p + 1]! << 8) : (cells[p]! << 8) | cells[p + 1]!;
    const f = le ? cells[p + 2]! | (cells[p + 3]! << 8) : (cells[p + 2]! << 8) | cells[p + 3]!;
    const o = le ? cells[p + 4]! | (cells[p + 5]! << 8) : (cells[p + 4]! << 8) | cells[p + 5]!;
    if ((t >= 0x8000 && t !== 0xffff) || (f & 0x7ff) > 1800) return i;
    v.setUint16(2 * i, t, true);
    v.setUint16(2 * n + 2 * i, f, true);
    v.setUint16(4 * n + 2 * i, o, true);
    out[6 * n + i] = cells[p + 6]!;
  }
  return out;
}

/** Runs `split` over `cells` at src with its output at dst (the rest of the memory is noise). */
function run(split: Split, cells: Uint8Array, n: number, le: boolean, src: number, dst: number): Uint8Array | number {
  const mem = new Uint8Array(memory.buffer);
  for (let i = 0; i < mem.length; i++) mem[i] = (i * 131) & 255;
  mem.set(cells, src);
  const bad = split(src, n, le ? 1 : 0, dst);
  return bad >= 0 ? bad : mem.slice(dst, dst + n * 7);
}

/** splitRecords7's result as reference() gives it: the four arrays' bytes, or the bad index. */
function asBytes(got: Records7 | number | null, n: number): Uint8Array | number | null {
  if (got === null || typeof got === 'number') return got;
  const bytes = new Uint8Array(n * 7);
  bytes.set(new Uint8Array(got.a.buffer, got.a.byteOffset, 2 * n), 0);
  bytes.set(new Uint8Array(got.b.buffer, got.b.byteOffset, 2 * n), 2 * n);
  bytes.set(new Uint8Array(got.c.buffer, got.c.byteOffset, 2 * n), 4 * n);
  bytes.set(got.d, 6 * n);
  return bytes;
}

const MAX_CELLS = 3000;

/** n valid cells (random tiles from -1, flags with rotations up to 1800), then a few bad ones put in. */
const cellsArb = fc
  .tuple(
    fc.integer({ min: 0, max: MAX_CELLS }),
    fc.boolean(),
    fc.integer({ min: 0, max: 0x7fffffff }),
    fc.array(fc.tuple(fc.nat(), fc.constantFrom('tile', 'rotation'), fc.nat({ max: 0x7ffe }), fc.boolean()), { maxLength: 3 }),
    fc.constantFrom('after', 'end', 'odd'),
  )
  .map(([n, le, seed, bads, layout]) => {
    const cells = new Uint8Array(n * 7);
    const v = new DataView(cells.buffer);
    let s = seed;
    const next = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) >>> 8;
    for (let i = 0; i < n; i++) {
      const p = i * 7;
      const r = next();
      v.setUint16(p, r % 7 === 0 ? 0xffff : next() & 0x7fff, le);
      v.setUint16(p + 2, (next() & 0xf800) | (r % 5 === 0 ? 1800 : next() % 1801), le);
      v.setUint16(p + 4, next() & 0xffff, le);
      cells[p + 6] = next() & 255;
    }
    for (const [at, kind, x, edge] of bads) {
      if (n === 0) break;
      // half of them at a step's edge (15, 16, 31, ...) or in the tail
      const i = edge ? Math.min(n - 1, (at % ((n / 16 + 1) | 0)) * 16 + (at & 1 ? 15 : 0)) : at % n;
      // (the values next to the limits often: tile -2, rotation 1801)
      if (kind === 'tile') v.setUint16(i * 7, x % 3 === 0 ? 0xfffe : 0x8000 + x, le);
      else v.setUint16(i * 7 + 2, (v.getUint16(i * 7 + 2, le) & 0xf800) | (x % 3 === 0 ? 1801 : 1801 + (x % 247)), le);
    }
    // where the cells lie: dst after them, cells ending at the memory's end, or an odd offset
    const size = n * 7;
    const src = layout === 'end' ? MEM - size : layout === 'odd' ? 3 : 0;
    const dst = layout === 'end' ? 5 : (src + size + 7) & ~7;
    return { cells, n, le, src, dst };
  });

describe('SIMD split of SpriteTile cells', () => {
  it('gives the scalar split and the JavaScript loop, byte for byte, with the same first bad cell', () => {
    fc.assert(
      fc.property(cellsArb, ({ cells, n, le, src, dst }) => {
        const want = reference(cells, n, le);
        expect(run(scalar, cells, n, le, src, dst)).toEqual(want);
        expect(run(simd, cells, n, le, src, dst)).toEqual(want);
      }),
      { numRuns: 300 },
    );
  });

  it('is what splitRecords7 uses, with the same results', () => {
    fc.assert(
      fc.property(cellsArb, ({ cells, n, le }) => {
        expect(asBytes(splitRecords7(cells, 0, n, le), n)).toEqual(reference(cells, n, le));
      }),
      { numRuns: 100 },
    );
  });

  it('passes a bad cell in every position of a step and of the tail', () => {
    for (const le of [true, false]) {
      const n = 16 * 3 + 5;
      for (let bad = 0; bad < n; bad++) {
        for (const kind of ['tile', 'rotation']) {
          const cells = new Uint8Array(n * 7);
          const v = new DataView(cells.buffer);
          for (let i = 0; i < n; i++) v.setUint16(i * 7, i === 5 ? 0xffff : i, le);
          if (kind === 'tile') v.setUint16(bad * 7, 0xfffe, le);
          else v.setUint16(bad * 7 + 2, 0x7ff & 1801, le);
          expect(run(simd, cells, n, le, 0, 512)).toBe(bad);
        }
      }
    }
  });

  it("uses lzf.wat's scalar split where the engine rejects the SIMD module", async () => {
    vi.resetModules();
    const validate = vi.spyOn(WebAssembly, 'validate').mockReturnValue(false);
    try {
      const fresh = await import('../../src/lzf/wasm.js');
      fc.assert(
        fc.property(cellsArb, ({ cells, n, le }) => {
          expect(asBytes(fresh.splitRecords7(cells, 0, n, le), n)).toEqual(reference(cells, n, le));
        }),
        { numRuns: 30 },
      );
      expect(validate).toHaveBeenCalled();
    } finally {
      validate.mockRestore();
      vi.resetModules();
    }
  });
});
