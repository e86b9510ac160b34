import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compress, decompress, decompressInto, decompressView } from '../../src/lzf/index.js';
import { FormatError } from '../../src/binary/errors.js';
import { structuredBytes } from './arbitraries.js';

const anyBytes = fc.oneof(fc.uint8Array({ maxLength: 3000 }), structuredBytes);
const flavours = fc.constantFrom('clzf2', 'liblzf', 'best') as fc.Arbitrary<'clzf2' | 'liblzf' | 'best'>;
const engines = ['js', 'wasm'] as const;

/** The message of what `f` throws (a FormatError), or 'ok N' for its result. */
function outcome(f: () => number | Uint8Array): string {
  try {
    const r = f();
    return `ok ${typeof r === 'number' ? r : r.length}`;
  } catch (e) {
    expect(e).toBeInstanceOf(FormatError);
    return (e as FormatError).message;
  }
}

/** `period` bytes repeated to `n` bytes: long overlapping back references. */
function periodic(period: number, n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = ((i % period) * 37 + seed) & 255;
  return out;
}

describe('decompressInto', () => {
  it('writes what decompress returns into the given buffer, and nothing past it (both engines)', () => {
    fc.assert(
      fc.property(anyBytes, flavours, fc.nat(40), (x, flavour, spare) => {
        const c = compress(x, flavour);
        for (const engine of engines) {
          const dest = new Uint8Array(x.length + spare).fill(0xa5);
          const n = decompressInto(c, dest, { engine });
          expect(n).toBe(x.length);
          expect(Buffer.from(dest.subarray(0, n)).equals(Buffer.from(x))).toBe(true);
          expect(dest.subarray(n).every((b) => b === 0xa5)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('writes into a view at an offset of a larger buffer, and reuses one buffer for many streams', () => {
    const big = new Uint8Array(70_000).fill(7);
    const dest = new Uint8Array(big.buffer, 1000, 60_000);
    const a = periodic(5, 50_000, 1);
    const b = periodic(11, 20_000, 2);
    for (const engine of engines) {
      expect(decompressInto(compress(a, 'liblzf'), dest, { engine })).toBe(a.length);
      expect(Buffer.from(dest.subarray(0, a.length)).equals(Buffer.from(a))).toBe(true);
      expect(decompressInto(compress(b, 'clzf2'), dest, { engine })).toBe(b.length);
      expect(Buffer.from(dest.subarray(0, b.length)).equals(Buffer.from(b))).toBe(true);
      expect(big[999]).toBe(7);
      expect(big[61_000]).toBe(7);
    }
  });

  it('refuses a stream larger than the buffer, as decompress refuses one past its limit', () => {
    const x = periodic(3, 10_000, 9);
    const c = compress(x, 'clzf2');
    for (const engine of engines) {
      const e = outcome(() => decompressInto(c, new Uint8Array(9_999), { engine }));
      expect(e).toBe(outcome(() => decompress(c, { limit: 9_999, engine: 'js' })));
      expect(e).toMatch(/larger than the limit of 9999 bytes.*at byte \d+/);
      expect(outcome(() => decompressInto(c, new Uint8Array(10_000), { engine }))).toBe('ok 10000');
    }
  });

  it("gives decompress's errors for damaged streams (both engines)", () => {
    const valid = compress(new TextEncoder().encode('SpriteTileLevel'.repeat(400)), 'clzf2');
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 5 }), fc.nat(), (muts, cut) => {
        const b = valid.slice(0, Math.max(1, valid.length - (cut % 40)));
        for (const [i, v] of muts) b[i % b.length] = v;
        const want = outcome(() => decompress(b, { engine: 'js', limit: 20_000 }));
        for (const engine of engines) expect(outcome(() => decompressInto(b, new Uint8Array(20_000), { engine }))).toBe(want);
      }),
      { numRuns: 300 },
    );
  });

  it('decodes long repeated patterns of every short period (the word-copy paths), also past the first output size guess', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 300_000 }), fc.nat(255), (period, n, seed) => {
        const x = periodic(period, n, seed);
        x[n >> 1] = (x[n >> 1]! ^ 1) & 255; // one literal in the middle
        const c = compress(x, 'liblzf');
        for (const engine of engines) {
          const dest = new Uint8Array(n);
          expect(decompressInto(c, dest, { engine })).toBe(n);
          expect(Buffer.from(dest).equals(Buffer.from(x))).toBe(true);
        }
        expect(Buffer.from(decompress(c, { engine: 'wasm' })).equals(Buffer.from(x))).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});

describe('decompressView', () => {
  it('returns what decompress returns (both engines)', () => {
    fc.assert(
      fc.property(anyBytes, flavours, (x, flavour) => {
        const c = compress(x, flavour);
        for (const engine of engines) {
          expect(Buffer.from(decompressView(c, { engine })).equals(Buffer.from(x))).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('gives a view that holds until the next call; a copy of it holds for good', () => {
    const a = periodic(7, 100_000, 3);
    const b = periodic(13, 80_000, 4);
    const va = decompressView(compress(a, 'clzf2'));
    expect(Buffer.from(va).equals(Buffer.from(a))).toBe(true);
    const kept = va.slice();
    const vb = decompressView(compress(b, 'clzf2'));
    expect(Buffer.from(vb).equals(Buffer.from(b))).toBe(true);
    expect(Buffer.from(kept).equals(Buffer.from(a))).toBe(true);
  });

  it('keeps the limit and the errors of decompress', () => {
    const bomb = compress(new Uint8Array(100_000), 'clzf2');
    expect(outcome(() => decompressView(bomb, { limit: 50_000 }))).toBe(outcome(() => decompress(bomb, { limit: 50_000 })));
    expect(outcome(() => decompressView(new Uint8Array([1, 65, 66, 5, 1, 2])))).toMatch(/at byte 3/);
  });
});
