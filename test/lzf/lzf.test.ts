import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { compress, decompress, decompressPrefix, LZF_FLAVOURS } from '../../src/lzf/index.js';
import { FormatError } from '../../src/binary/errors.js';
import { CORPUS } from '../helpers/paths.js';
import { structuredBytes } from './arbitraries.js';

const anyBytes = fc.oneof(fc.uint8Array({ maxLength: 3000 }), structuredBytes);

function catchError(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
}

const corpusDir = path.join(CORPUS, 'spritetile');
const corpusFiles = readdirSync(corpusDir).filter((f) => f.endsWith('.bytes'));

describe('LZF round trip', () => {
  for (const flavour of LZF_FLAVOURS) {
    it(`decompress(compress(x, '${flavour}')) = x`, () => {
      fc.assert(
        fc.property(anyBytes, (x) => {
          expect(decompress(compress(x, flavour))).toEqual(x);
        }),
        { numRuns: 300 },
      );
    });
  }

  it('handles 0, 1 and 2 byte inputs as plain literal runs', () => {
    for (const flavour of LZF_FLAVOURS) {
      expect(compress(new Uint8Array(0), flavour)).toEqual(new Uint8Array(0));
      expect(compress(new Uint8Array([7]), flavour)).toEqual(new Uint8Array([0, 7]));
      expect(compress(new Uint8Array([7, 8]), flavour)).toEqual(new Uint8Array([1, 7, 8]));
    }
    expect(decompress(new Uint8Array(0))).toEqual(new Uint8Array(0));
  });

  it("'best' is never larger than 'liblzf' and usually smaller on levels", () => {
    fc.assert(
      fc.property(anyBytes, (x) => {
        expect(compress(x, 'best').length).toBeLessThanOrEqual(compress(x, 'liblzf').length);
      }),
      { numRuns: 200 },
    );
  });

  it('works with long inputs (window and length limits)', () => {
    const x = new Uint8Array(60_000);
    let s = 1;
    for (let i = 0; i < x.length; i++) {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      x[i] = i % 9000 < 4000 ? (s >>> 24) & 7 : x[i - 3000]!;
    }
    for (const flavour of LZF_FLAVOURS) expect(decompress(compress(x, flavour))).toEqual(x);
    expect(decompress(compress(x, 'clzf2'), { sizeHint: 10 })).toEqual(x);
  });
});

describe('the WebAssembly and JavaScript compressors', () => {
  it('give the same bytes', () => {
    fc.assert(
      fc.property(anyBytes, (x) => {
        for (const flavour of ['clzf2', 'liblzf'] as const) {
          const a = compress(x, flavour, { engine: 'js' });
          const b = compress(x, flavour, { engine: 'wasm' });
          expect(Buffer.from(b).equals(Buffer.from(a))).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('the WebAssembly and JavaScript decoders', () => {
  it('give the same output', () => {
    fc.assert(
      fc.property(anyBytes, fc.constantFrom('clzf2', 'liblzf', 'best') as fc.Arbitrary<'clzf2' | 'liblzf' | 'best'>, (x, flavour) => {
        const c = compress(x, flavour);
        const a = decompress(c, { engine: 'js' });
        const b = decompress(c, { engine: 'wasm' });
        expect(Buffer.from(b).equals(Buffer.from(x))).toBe(true);
        expect(Buffer.from(a).equals(Buffer.from(x))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('grow their output for highly compressible data', () => {
    const x = new Uint8Array(3_000_000);
    for (let i = 0; i < x.length; i++) x[i] = i % 1_000_000 < 900_000 ? 0 : (i * 7) & 255;
    const c = compress(x, 'clzf2');
    expect(c.length).toBeLessThan(200_000);
    const y = decompress(c, { engine: 'wasm' });
    expect(Buffer.from(y).equals(Buffer.from(x))).toBe(true);
  });

  it('give the same errors for damaged streams and bombs', () => {
    const valid = compress(new TextEncoder().encode('SpriteTileLevel'.repeat(400)), 'clzf2');
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 5 }), fc.nat(), (muts, cut) => {
        const b = valid.slice(0, Math.max(1, valid.length - (cut % 40)));
        for (const [i, v] of muts) b[i % b.length] = v;
        const run = (engine: 'js' | 'wasm'): string => {
          try {
            return 'ok ' + decompress(b, { engine, limit: 20_000 }).length;
          } catch (e) {
            expect(e).toBeInstanceOf(FormatError);
            return (e as FormatError).message;
          }
        };
        expect(run('wasm')).toBe(run('js'));
      }),
      { numRuns: 300 },
    );
  });
});

describe('clzf2 on the real levels', () => {
  it('finds the corpus', () => {
    expect(corpusFiles.length).toBe(16);
  });
  for (const f of corpusFiles) {
    it(`recompresses ${f} to its original bytes`, () => {
      const original = new Uint8Array(readFileSync(path.join(corpusDir, f)));
      const data = decompress(original);
      expect(Buffer.from(compress(data, 'clzf2')).equals(Buffer.from(original))).toBe(true);
      expect(compress(data, 'best').length).toBeLessThan(original.length);
    });
  }
});

describe('damaged LZF', () => {
  it('names the offset of a literal run past the input', () => {
    const e = catchError(() => decompress(new Uint8Array([1, 65, 66, 5, 1, 2]))) as FormatError;
    expect(e).toBeInstanceOf(FormatError);
    expect(e.format).toBe('lzf');
    expect(e.offset).toBe(3);
    expect(e.message).toMatch(/at byte 3/);
  });

  it('names the offset of a reference before the output start', () => {
    const e = catchError(() => decompress(new Uint8Array([0, 65, 0x20, 5]))) as FormatError;
    expect(e).toBeInstanceOf(FormatError);
    expect(e.offset).toBe(2);
    const e2 = catchError(() => decompress(new Uint8Array([0x20, 0]))) as FormatError;
    expect(e2.offset).toBe(0);
  });

  it('names the offset of a truncated reference', () => {
    for (const bytes of [
      [0, 65, 0x20],
      [0, 65, 0xe0],
      [0, 65, 0xe0, 3],
    ]) {
      const e = catchError(() => decompress(new Uint8Array(bytes))) as FormatError;
      expect(e).toBeInstanceOf(FormatError);
      expect(e.offset).toBe(2);
    }
  });

  it('stops an LZF bomb at the limit', () => {
    // one literal then 100,000 maximal references: 26 MB from 300 kB
    const n = 100_000;
    const bomb = new Uint8Array(2 + n * 3);
    bomb[0] = 0;
    bomb[1] = 42;
    for (let i = 0; i < n; i++) bomb.set([0xe0, 255, 0], 2 + i * 3);
    const e = catchError(() => decompress(bomb, { limit: 1 << 20 })) as FormatError;
    expect(e).toBeInstanceOf(FormatError);
    expect(e.message).toMatch(/limit of 1048576 bytes/);
    expect(decompress(bomb, { limit: 64 << 20 }).length).toBe(1 + n * 264);
  });

  it('refuses a bomb over the default 256 MiB limit', () => {
    const n = 1_100_000; // 290 MB from 3.3 MB
    const bomb = new Uint8Array(2 + n * 3);
    bomb[1] = 42;
    for (let i = 0; i < n; i++) bomb.set([0xe0, 255, 0], 2 + i * 3);
    for (const engine of ['wasm', 'js'] as const) {
      const e = catchError(() => decompress(bomb, { engine })) as FormatError;
      expect(e).toBeInstanceOf(FormatError);
      expect(e.message).toMatch(/limit of 268435456 bytes/);
    }
  });

  it('gives only FormatErrors for random and mutated streams', () => {
    const valid = compress(new TextEncoder().encode('SpriteTileLevel'.repeat(50)), 'clzf2');
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 500 }),
          fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 5 }).map((muts) => {
            const b = valid.slice();
            for (const [i, v] of muts) b[i % b.length] = v;
            return b.subarray(0, b.length - (muts.length % 3));
          }),
        ),
        (b) => {
          let out: Uint8Array | undefined;
          try {
            out = decompress(b, { limit: 100_000 });
          } catch (e) {
            expect(e).toBeInstanceOf(FormatError);
          }
          if (out) expect(out.length).toBeLessThanOrEqual(100_000);
          decompressPrefix(b, 24);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('decompressPrefix decodes only the start', () => {
    const x = new TextEncoder().encode('SpriteTileLevel' + 'x'.repeat(1000));
    expect(new TextDecoder().decode(decompressPrefix(compress(x), 15))).toBe('SpriteTileLevel');
  });
});
