import type { ResourceLoader } from '../../src/formats/types.js';

/** A ResourceLoader over named in-memory files (paths relative to the document). */
export function memoryLoader(files: Record<string, Uint8Array>): ResourceLoader & { loaded: string[] } {
  const loaded: string[] = [];
  return {
    loaded,
    async load(p) {
      const b = files[p];
      if (!b) throw Object.assign(new Error(`ENOENT: ${p}`), { code: 'ENOENT' });
      loaded.push(p);
      return b;
    },
    async exists(p) {
      return p in files;
    },
  };
}
