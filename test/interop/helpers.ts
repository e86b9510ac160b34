import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ResourceLoader } from '../../src/formats/types.js';
import { createImage, type RgbaImage } from '../../src/render/image.js';

export const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

export function fixture(name: string): Uint8Array {
  return new Uint8Array(fs.readFileSync(path.join(FIXTURES, name)));
}

/** Resources from an in-memory map of file name → bytes. */
export function memoryLoader(files: Record<string, Uint8Array>): ResourceLoader {
  return {
    async load(p) {
      const b = files[p];
      if (!b) throw new Error(`no file ${p}`);
      return b;
    },
    async exists(p) {
      return p in files;
    },
  };
}

/** An image whose every pixel is distinct and opaque: (x·7+seed, y·11, x+y·3, 255). */
export function patternImage(w: number, h: number, seed = 0): RgbaImage {
  const img = createImage(w, h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const o = (y * w + x) * 4;
      img.data[o] = (x * 7 + seed) & 255;
      img.data[o + 1] = (y * 11 + seed * 3) & 255;
      img.data[o + 2] = (x + y * 3 + 40) & 255;
      img.data[o + 3] = 255;
    }
  }
  return img;
}

export function pixel(img: RgbaImage, x: number, y: number): number[] {
  const o = (y * img.width + x) * 4;
  return Array.from(img.data.subarray(o, o + 4));
}
