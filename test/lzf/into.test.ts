import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compress, decompress, decompressInto, decompressView } from '../../src/lzf/index.js';
import { FormatError } from '../../src/binary/errors.js';
import { structuredBytes } from './arbitraries.js';
import { decompressIntoWasm } from '../../src/lzf/wasm.js';

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

/**
 * Inputs of 100-600 KB (several of decompressInto's 128 KiB WebAssembly
 * windows) made of random blocks and copies of earlier stretches from up to
 * 8 KiB back (references of every length and distance, across the window
 * boundaries).
 */
const longStructured = fc
  .tuple(
    fc.integer({ min: 100_000, max: 600_000 }),
    fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 8192 }), fc.integer({ min: 1, max: 600 }), fc.boolean()), {
      minLength: 1,
      maxLength: 60,
    }),
    fc.nat(),
  )
  .map(([n, ops, seed]) => {
    const out = new Uint8Array(n);
    let s = seed | 1;
    for (let i = 0; i < n; i++) {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      out[i] = (s >>> 24) & 7; // a small alphabet: short matches everywhere
    }
    // long copies from `dist` back, overlapping when dist < len
    for (const [at, dist, len, random] of ops) {
      const o = dist + (at % (n - dist));
      for (let k = 0; k < len && o + k < n; k++) out[o + k] = random ? (s = (s * 33 + k) >>> 0) & 255 : out[o + k - dist]!;
    }
    // stretches of long runs (8 KiB back) every 64 KiB
    for (let o = 8192; o + 4096 < n; o += 65536) out.copyWithin(o, o - 8192, o - 4096);
    return out;
  });

/**
 * A random valid LZF stream (tokens written directly, not by a compressor):
 * literal runs and back references of every length (3-264) and distance
 * (1-8192, often the farthest), `size` bytes of output or a little more.
 */
function randomStream(size: number, seed: number): Uint8Array {
  let s = seed >>> 0 || 1;
  const rnd = (n: number) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 8) % n;
  };
  const out: number[] = [];
  let produced = 0;
  while (produced < size) {
    if (produced === 0 || rnd(3) === 0) {
      const len = 1 + rnd(32);
      out.push(len - 1);
      for (let k = 0; k < len; k++) out.push(rnd(256));
      produced += len;
    } else {
      const far = Math.min(produced, 8192);
      const dist = rnd(4) === 0 ? far : rnd(4) === 0 ? 1 + rnd(Math.min(far, 40)) : 1 + rnd(far);
      const len = rnd(3) === 0 ? 3 + rnd(262) : 3 + rnd(30);
      const l = len - 2;
      const off = dist - 1;
      if (l < 7) out.push((l << 5) | (off >> 8));
      else out.push(224 | (off >> 8), l - 7);
      out.push(off & 255);
      produced += len;
    }
  }
  return new Uint8Array(out);
}

describe('decompressInto over several WebAssembly windows', () => {
  it('decodes random valid streams (references of every distance across the window boundaries) as decompress does', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 700_000 }), fc.nat(), (size, seed) => {
        const c = randomStream(size, seed);
        const want = decompress(c, { engine: 'js' });
        const direct = new Uint8Array(want.length);
        expect(decompressIntoWasm(c, direct)).toBe(want.length);
        expect(Buffer.from(direct).equals(Buffer.from(want))).toBe(true);
        const dest = new Uint8Array(want.length + 3).fill(1);
        expect(decompressInto(c, dest)).toBe(want.length);
        expect(Buffer.from(dest.subarray(0, want.length)).equals(Buffer.from(want))).toBe(true);
        expect(Buffer.from(decompress(c, { engine: 'wasm' })).equals(Buffer.from(want))).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it('gives what decompress gives (both engines), with the exact buffer, a larger one, and one byte short', () => {
    fc.assert(
      fc.property(longStructured, flavours, (x, flavour) => {
        const c = compress(x, flavour === 'best' ? 'liblzf' : flavour);
        expect(Buffer.from(decompress(c, { engine: 'js' })).equals(Buffer.from(x))).toBe(true);
        for (const engine of engines) {
          const exact = new Uint8Array(x.length);
          expect(decompressInto(c, exact, { engine })).toBe(x.length);
          expect(Buffer.from(exact).equals(Buffer.from(x))).toBe(true);
          const roomy = new Uint8Array(x.length + 1000).fill(0x5a);
          expect(decompressInto(c, roomy, { engine })).toBe(x.length);
          expect(Buffer.from(roomy.subarray(0, x.length)).equals(Buffer.from(x))).toBe(true);
          expect(roomy.subarray(x.length).every((b) => b === 0x5a)).toBe(true);
          const short = outcome(() => decompressInto(c, new Uint8Array(x.length - 1), { engine }));
          expect(short).toBe(outcome(() => decompress(c, { limit: x.length - 1, engine: 'js' })));
        }
        expect(Buffer.from(decompressView(c)).equals(Buffer.from(x))).toBe(true);
        // The WebAssembly path itself decodes a valid stream (no quiet fallback to JavaScript).
        const direct = new Uint8Array(x.length);
        expect(decompressIntoWasm(c, direct)).toBe(x.length);
        expect(Buffer.from(direct).equals(Buffer.from(x))).toBe(true);
      }),
      { numRuns: 25 },
    );
  });

  it('names the same damage as decompress wherever a long stream is cut or changed', () => {
    fc.assert(
      fc.property(longStructured, fc.array(fc.tuple(fc.nat(), fc.nat(255)), { maxLength: 4 }), fc.nat(), (x, muts, cut) => {
        const c = compress(x, 'liblzf');
        const b = c.slice(0, c.length - (cut % 64));
        for (const [i, v] of muts) b[i % b.length] = v;
        const want = outcome(() => decompress(b, { engine: 'js', limit: x.length }));
        expect(outcome(() => decompressInto(b, new Uint8Array(x.length), { engine: 'wasm' }))).toBe(want);
      }),
      { numRuns: 25 },
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
