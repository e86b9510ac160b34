/** A temporary folder for one test file, removed after its tests, and a way to place files in it. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll } from 'vitest';

export function tempTree(prefix: string): { dir: string; place(rel: string, data: Uint8Array | string): string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  return {
    dir,
    /** Writes `data` at `rel` below the folder (making its folders); returns the path. */
    place(rel, data) {
      const p = path.join(dir, rel);
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, data);
      return p;
    },
  };
}
