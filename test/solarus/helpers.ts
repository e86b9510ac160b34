import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { CORPUS } from '../helpers/paths.js';
import type { Diagnostic } from '../../src/binary/errors.js';
import type { ResourceLoader } from '../../src/formats/types.js';
import type { SolarusSheet } from '../../src/formats/solarus/index.js';

export const ZSDX = path.join(CORPUS, 'solarus/zsdx');

/** The 207 corpus sprite ids (relative paths), sorted. */
export function corpusFiles(): string[] {
  return (readdirSync(path.join(ZSDX, 'old'), { recursive: true }) as string[])
    .map(String)
    .filter((f) => f.endsWith('.dat'))
    .map((f) => f.split(path.sep).join('/'))
    .sort();
}

export function corpusBytes(which: 'old' | 'new', id: string): Uint8Array {
  return new Uint8Array(readFileSync(path.join(ZSDX, which, id)));
}

export const enc = (s: string) => new TextEncoder().encode(s);

/** Collects warnings. */
export function warnings(): { list: Diagnostic[]; warn: (d: Diagnostic) => void } {
  const list: Diagnostic[] = [];
  return { list, warn: (d) => list.push(d) };
}

/** A loader with no files. */
export const NO_FILES: ResourceLoader = {
  load: async (p) => {
    throw new Error(`no file ${p}`);
  },
  exists: async () => false,
};

const int = (min: number, max: number) => fc.integer({ min, max });
const parserDirection = fc.record({
  x: fc.oneof(int(-50, 5000), int(-2147483647, 2147483647)),
  y: int(-50, 5000),
  frameWidth: int(1, 300),
  frameHeight: int(1, 300),
  originX: int(-100, 300),
  originY: int(-100, 300),
  frameCount: int(1, 12),
  columns: int(1, 12),
});

/**
 * Random sheets for the parsers' properties, with names and images made by
 * `token`: duplicate names, zero delays and loops past the frames allowed,
 * so that every check gets its turn.
 */
export function parserSheet(token: fc.Arbitrary<string>, maxDirections: number, maxAnimations: number): fc.Arbitrary<SolarusSheet> {
  return fc
    .array(
      fc.record({
        name: fc.oneof(token, fc.constantFrom('walking', 'stopped')),
        image: token,
        frameDelay: fc.oneof(int(0, 3), int(0, 5000)),
        loopOnFrame: int(-1, 14),
        directions: fc.array(parserDirection, { minLength: 1, maxLength: maxDirections }),
      }),
      { maxLength: maxAnimations },
    )
    .map((animations) => ({ animations }));
}
