/**
 * A WebAssembly memory that cannot be had (an address-space limit, `ulimit -v`) is asked for once:
 * the compositor and LZF fall back to their JavaScript code for the rest of the process, with the
 * same results, instead of each draw or call asking again (each failed `new WebAssembly.Memory`
 * costs V8 full garbage collections: 50 s of CPU instead of 0.32 s for 500 rotated tile objects).
 * Its own file: the fallback lasts for the module's life.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawImage, setComposeKernels, composeSimdAvailable } from '../../src/render/compose.js';
import { createCanvasImage, createImage, type RgbaImage } from '../../src/render/image.js';
import { rotate, translate, multiply } from '../../src/render/matrix.js';
import { wasmMemoryRefused } from '../../src/render/simd.js';
import { compress, decompress } from '../../src/lzf/index.js';
import { lzfMemoryRefused } from '../../src/lzf/wasm.js';

const RealMemory = WebAssembly.Memory;
let attempts = 0;

beforeAll(() => {
  // Every memory is refused, as under `prlimit --as`; counted.
  (WebAssembly as { Memory: unknown }).Memory = function Memory() {
    attempts++;
    throw new RangeError('WebAssembly.Memory(): could not allocate memory');
  };
});
afterAll(() => {
  (WebAssembly as { Memory: unknown }).Memory = RealMemory;
  setComposeKernels('auto');
});

function texture(): RgbaImage {
  const img = createImage(64, 64);
  for (let i = 0; i < img.data.length; i++) img.data[i] = (i * 37) & 255;
  return img;
}

describe('a refused WebAssembly memory', () => {
  it('is asked for once by the compositor; every later draw is drawn in JavaScript, with the same pixels', () => {
    expect(composeSimdAvailable()).toBe(true);
    const src = texture();
    const draws = (dst: RgbaImage) => {
      for (let i = 0; i < 50; i++) {
        drawImage(dst, src, {
          transform: multiply(translate(100, 100), rotate(i / 10)),
          opacity: 0.8,
          filter: i % 2 ? 'bilinear' : 'nearest',
        });
      }
    };
    setComposeKernels('wasm');
    const before = attempts;
    const viaWasm = createImage(200, 200);
    draws(viaWasm);
    // canvas images (createCanvasImage) ask the same flag
    const canvas = createCanvasImage(200, 200, 1 << 20);
    draws(canvas);
    expect(attempts - before).toBe(1);
    expect(wasmMemoryRefused()).toBe(true);
    setComposeKernels('js');
    const viaJs = createImage(200, 200);
    draws(viaJs);
    expect(viaWasm.data).toEqual(viaJs.data);
    expect(canvas.data).toEqual(viaJs.data);
  });

  it('is asked for once by LZF; later calls use the JavaScript codec, with the same bytes', () => {
    const data = new Uint8Array(20_000);
    for (let i = 0; i < data.length; i++) data[i] = (i % 251) ^ (i >> 9);
    const before = attempts;
    for (let i = 0; i < 4; i++) {
      const packed = compress(data);
      expect(decompress(packed)).toEqual(data);
    }
    expect(attempts - before).toBe(1);
    expect(lzfMemoryRefused()).toBe(true);
  });
});
