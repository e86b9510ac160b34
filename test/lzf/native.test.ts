import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compress, decompress } from '../../src/lzf/index.js';
import { structuredBytes } from './arbitraries.js';

/**
 * Differential tests against the real liblzf (Debian's liblzf-dev): a tiny C
 * helper is compiled at test time and our output is compared with its
 * output in both directions.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const includeDir = ['/usr/include/liblzf', '/usr/include'].find((d) => existsSync(path.join(d, 'lzf.h')));

function buildHelper(): string | undefined {
  if (!includeDir) return undefined;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sprat-lzfcli-'));
  const exe = path.join(dir, 'lzfcli');
  try {
    execFileSync('gcc', ['-O2', '-I', includeDir, '-o', exe, path.join(here, 'native', 'lzfcli.c'), '-llzf'], { stdio: 'pipe' });
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  return exe;
}

const helper = buildHelper();
afterAll(() => {
  if (helper) rmSync(path.dirname(helper), { recursive: true, force: true });
});

function nativeCompress(x: Uint8Array): Uint8Array {
  return new Uint8Array(execFileSync(helper!, ['c'], { input: x, maxBuffer: 1 << 26 }));
}
function nativeDecompress(c: Uint8Array, size: number): Uint8Array {
  return new Uint8Array(execFileSync(helper!, ['d', String(size)], { input: c, maxBuffer: 1 << 26 }));
}

const inputs = fc.oneof(fc.uint8Array({ maxLength: 2000 }), structuredBytes, structuredBytes);

// A developer machine without liblzf-dev skips these (apt-get install liblzf-dev gcc).
describe.skipIf(!helper)('against liblzf 3.6 (C)', () => {
  it("'liblzf' flavour is byte-identical to lzf_compress", () => {
    fc.assert(
      fc.property(inputs, (x) => {
        const expected = Buffer.from(nativeCompress(x));
        expect(Buffer.from(compress(x, 'liblzf', { engine: 'js' })).equals(expected)).toBe(true);
        expect(Buffer.from(compress(x, 'liblzf', { engine: 'wasm' })).equals(expected)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('lzf_decompress reads all three flavours and we read lzf_compress output', () => {
    fc.assert(
      fc.property(
        inputs.filter((x) => x.length > 0),
        (x) => {
          for (const flavour of ['clzf2', 'liblzf', 'best'] as const) {
            expect(nativeDecompress(compress(x, flavour), x.length)).toEqual(x);
          }
          expect(decompress(nativeCompress(x))).toEqual(x);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('matches on a large structured input', () => {
    const x = new Uint8Array(300_000);
    let s = 7;
    for (let i = 0; i < x.length; i++) {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      x[i] = i % 7 === 0 ? s >>> 28 : i % 7 === 1 ? 0xff : s >>> 30;
    }
    expect(Buffer.from(compress(x, 'liblzf')).equals(Buffer.from(nativeCompress(x)))).toBe(true);
  });
});

// CI installs liblzf-dev and gcc (.ci/run): there these tests must run, never be skipped.
if (!helper && process.env.CI) throw new Error('CI must have liblzf-dev and gcc for the liblzf differential tests');
