// Issue 16: the library never detaches an ArrayBuffer. Once any buffer of a
// V8 process has been detached (WebAssembly.Memory.prototype.grow detaches
// the memory's old one), optimized code checks detachment on every
// typed-array access for the rest of the process. Every WebAssembly memory
// the library makes is recorded here (WebAssembly.Memory replaced by a
// recording subclass), grow is counted, and each path is run through growth
// (a big job after a small one): every buffer seen must still be attached.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { build } from 'esbuild';
import { compress, decompress, decompressInto, decompressView } from '../../src/lzf/index.js';
import { addLayer, createLevel, readSpriteTile, setCell, writeSpriteTile } from '../../src/formats/spritetile/index.js';
import { composeSimdAvailable, drawImage, setComposeKernels } from '../../src/render/compose.js';
import { createImage } from '../../src/render/image.js';
import { translate } from '../../src/render/matrix.js';
import { ROOT } from '../helpers/paths.js';

const Original = WebAssembly.Memory;
const originalGrow = Original.prototype.grow;
const made: WebAssembly.Memory[] = [];
const seen = new Set<ArrayBuffer>();
let grows = 0;

beforeAll(() => {
  class Recorded extends Original {
    constructor(d: WebAssembly.MemoryDescriptor) {
      super(d);
      made.push(this);
    }
  }
  WebAssembly.Memory = Recorded;
  Original.prototype.grow = function (this: WebAssembly.Memory, delta: number): number {
    grows++;
    return originalGrow.call(this, delta);
  };
});

afterAll(() => {
  WebAssembly.Memory = Original;
  Original.prototype.grow = originalGrow;
});

/** Remembers the buffer of every memory made so far (and `extra`). */
function look(...extra: ArrayBufferLike[]): void {
  for (const m of made) seen.add(m.buffer);
  for (const b of extra) seen.add(b as ArrayBuffer);
}

function expectNoneDetached(): void {
  expect(grows).toBe(0);
  for (const b of seen) expect(b.byteLength).toBeGreaterThan(0);
}

/** Bytes from a small generator: `n` bytes, runs of one value among random ones. */
function data(n: number, seed: number, runs: number): Uint8Array {
  const out = new Uint8Array(n);
  let r = seed | 0;
  for (let i = 0; i < n; ) {
    r = (Math.imul(r, 1103515245) + 12345) | 0;
    const len = ((r >>> 8) & 255) % runs;
    out.fill(r >>> 24, i, i + len + 1);
    i += len + 1;
  }
  return out;
}

/** A stream whose first 64 KiB compress badly and the rest very well (the memory's first guess is too small). */
function lateBloomer(zeros: number): Uint8Array {
  const raw = new Uint8Array(100_000 + zeros);
  raw.set(data(100_000, 7, 1));
  return raw;
}

describe('no ArrayBuffer is ever detached', () => {
  it('LZF decompress, decompressView, decompressInto and compress: a big job after a small one', () => {
    const small = data(20_000, 1, 4);
    const big = lateBloomer(12_000_000);
    const smallZ = compress(small);
    const bigZ = compress(big, 'clzf2', { engine: 'js' }); // (the WebAssembly compressor would leave a big memory behind)
    look();
    expect(decompress(smallZ)).toEqual(small);
    look();
    const view = decompressView(smallZ);
    expect(view).toEqual(small);
    look(view.buffer);
    // Outgrows its first memory mid-stream: moved to a new one, nothing detached, the same bytes as the JavaScript decoder.
    const count = made.length;
    const out = decompress(bigZ);
    expect(made.length - count).toBe(2); // the first memory (sized for 8 times the input) and the one of the exact size
    expect(Buffer.from(out).equals(Buffer.from(big))).toBe(true);
    expect(Buffer.from(out).equals(Buffer.from(decompress(bigZ, { engine: 'js' })))).toBe(true);
    look();
    const bigView = decompressView(bigZ);
    expect(Buffer.from(bigView).equals(Buffer.from(big))).toBe(true);
    look(bigView.buffer);
    expect(view.byteLength).toBe(small.length); // the earlier view is still attached
    const dest = new Uint8Array(big.length);
    expect(decompressInto(smallZ, dest)).toBe(small.length);
    expect(decompressInto(bigZ, dest)).toBe(big.length);
    look();
    const bigRandom = data(3_000_000, 3, 2);
    for (const lzf of ['clzf2', 'liblzf'] as const) {
      expect(decompress(compress(small, lzf))).toEqual(small);
      look();
      expect(Buffer.from(decompress(compress(bigRandom, lzf))).equals(Buffer.from(bigRandom))).toBe(true);
      look();
    }
    expectNoneDetached();
    expect(made.length).toBeGreaterThan(1);
  });

  it('SpriteTile read: a big level after a small one', () => {
    const level = (side: number) => {
      const l = createLevel();
      addLayer(l, { width: side, height: side });
      addLayer(l, { width: side, height: side });
      for (let i = 0; i < side; i++) setCell(l, l.layers![0]!, i, (i * 7) % side, { set: 1, tile: i % 50 });
      return writeSpriteTile(l);
    };
    const before = made.length;
    expect(readSpriteTile(level(40)).layers![0]!.width).toBe(40);
    look();
    expect(readSpriteTile(level(900)).layers![1]!.width).toBe(900);
    look();
    expect(readSpriteTile(level(1300)).layers![0]!.height).toBe(1300);
    look();
    expectNoneDetached();
    expect(made.length).toBeGreaterThan(before);
  });

  it.skipIf(!composeSimdAvailable())('compose kernels: a big draw after a small one', () => {
    const mode = setComposeKernels('wasm');
    try {
      const before = made.length;
      const draw = (side: number) => {
        const src = createImage(side, side);
        src.data.fill(200);
        const dst = createImage(side + 8, side + 8);
        drawImage(dst, src, { transform: translate(3, 2), opacity: 0.5 });
        return dst;
      };
      expect(draw(8).data[((2 * 16 + 3) * 4) | 0]).toBeGreaterThan(0);
      look();
      expect(draw(1200).data[((2 * 1208 + 3) * 4) | 0]).toBeGreaterThan(0);
      look();
      expectNoneDetached();
      expect(made.length).toBeGreaterThan(before);
    } finally {
      setComposeKernels(mode);
    }
  });

  // V8's own word: its "array buffer detaching" protector, which the first detach invalidates. The child is
  // bundled to plain JavaScript first (tsx's loader itself detaches a buffer) and run with
  // --trace-protector-invalidation, which prints the protector's name when it falls.
  it('V8 keeps its fast path: the detaching protector is intact after every WebAssembly path', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sprat-nodetach-'));
    try {
      const file = path.join(dir, 'child.mjs');
      await build({
        entryPoints: [path.join(ROOT, 'test/lzf/nodetach-child.ts')],
        bundle: true,
        format: 'esm',
        platform: 'node',
        outfile: file,
        logLevel: 'silent',
      });
      const out = execFileSync(process.execPath, ['--trace-protector-invalidation', file], { encoding: 'utf8' });
      expect(out).toContain('done');
      expect(out).not.toContain('ArrayBufferDetaching');
      // (the flag works: one grow makes V8 say so)
      const grown = execFileSync(
        process.execPath,
        ['--trace-protector-invalidation', '-e', 'new WebAssembly.Memory({ initial: 1 }).grow(1); console.log("done")'],
        { encoding: 'utf8' },
      );
      expect(grown).toContain('ArrayBufferDetaching');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
