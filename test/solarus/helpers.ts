import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { CORPUS } from '../helpers/paths.js';
import type { Diagnostic } from '../../src/binary/errors.js';
import type { ResourceLoader } from '../../src/formats/types.js';

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
