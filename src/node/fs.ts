import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { ResourceLoader } from '../formats/types.js';

/** Resources relative to a folder on disk. */
export function fsResourceLoader(baseDir: string): ResourceLoader {
  return {
    async load(p: string) {
      return new Uint8Array(await fsp.readFile(path.resolve(baseDir, p)));
    },
    async exists(p: string) {
      try {
        await fsp.access(path.resolve(baseDir, p));
        return true;
      } catch {
        return false;
      }
    },
  };
}

function tempNameFor(target: string): string {
  const dir = path.dirname(target);
  return path.join(dir, `.${path.basename(target)}.sprat-tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
}

/**
 * Writes files so that either all of them appear complete or none changes:
 * each goes to a temporary name in its folder first, then all are renamed
 * into place. Temporaries are removed on failure.
 */
export async function writeFilesAtomic(files: { path: string; bytes: Uint8Array }[]): Promise<void> {
  const temps: { tmp: string; target: string }[] = [];
  try {
    for (const f of files) {
      // Through a symbolic link: replace the file it names, and keep the link.
      const target = await fsp.realpath(f.path).catch(() => f.path);
      const tmp = tempNameFor(target);
      temps.push({ tmp, target });
      await fsp.writeFile(tmp, f.bytes, { flag: 'wx' });
    }
    for (const t of temps) await fsp.rename(t.tmp, t.target);
  } catch (e) {
    await Promise.all(temps.map((t) => fsp.rm(t.tmp, { force: true })));
    throw e;
  }
}

export async function writeFileAtomic(target: string, bytes: Uint8Array): Promise<void> {
  await writeFilesAtomic([{ path: target, bytes }]);
}

/**
 * Whether two paths name the same file on disk, however they are spelled:
 * `./a/../a.dat`, a symbolic link, a hard link. False when either is missing.
 */
export async function sameFile(a: string, b: string): Promise<boolean> {
  if (path.resolve(a) === path.resolve(b)) return true;
  const [sa, sb] = await Promise.all([fsp.stat(a).catch(() => null), fsp.stat(b).catch(() => null)]);
  return !!sa && !!sb && sa.dev === sb.dev && sa.ino === sb.ino;
}

export async function readFileBytes(p: string): Promise<Uint8Array> {
  return new Uint8Array(await fsp.readFile(p));
}
