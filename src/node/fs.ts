import { constants as fsc, promises as fsp, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { ResourceLoader } from '../formats/types.js';
import { Budget, DEFAULT_LIMITS } from '../binary/limits.js';

export interface ReadLimits {
  /** The largest file read, in bytes (--max-file-bytes). */
  maxFileBytes?: number;
}

/** The kind of a file that is not a regular one, in words. */
function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** A path that names something other than a regular file (code EISDIR for a folder, else EFTYPE). */
function notRegular(st: Stats): NodeJS.ErrnoException {
  const e: NodeJS.ErrnoException = new Error(st.isDirectory() ? 'is a folder, not a file' : `is ${kindOf(st)}, not a regular file`);
  e.code = st.isDirectory() ? 'EISDIR' : 'EFTYPE';
  return e;
}

/**
 * Reads a whole file, only when it is a regular file (never a FIFO, a
 * device such as /dev/zero, a socket or a folder) of at most
 * `limits.maxFileBytes` bytes (--max-file-bytes; a LimitError otherwise).
 * The file is opened without blocking (a FIFO cannot hang the open) and
 * checked on the open handle, so it cannot be swapped after the check.
 */
export async function readFileBytes(p: string, limits: ReadLimits = {}): Promise<Uint8Array> {
  const max = limits.maxFileBytes ?? DEFAULT_LIMITS.maxFileBytes;
  let fh: FileHandle;
  try {
    fh = await fsp.open(p, fsc.O_RDONLY | fsc.O_NONBLOCK);
  } catch (e) {
    // A socket cannot be opened at all (ENXIO): say what it is.
    const st = await fsp.stat(p).catch(() => null);
    if (st && !st.isFile()) throw notRegular(st);
    throw e;
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw notRegular(st);
    const budget = new Budget({ ...DEFAULT_LIMITS, maxFileBytes: max });
    budget.check('maxFileBytes', st.size, `reading ${path.basename(p)}`);
    // Read what is there, up to one byte past the limit (a file that grows while read).
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const want = Math.min(Math.max(st.size - total, 0) + 1, max - total + 1, 1 << 24);
      const buf = new Uint8Array(Math.max(want, 1));
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      budget.check('maxFileBytes', total, `reading ${path.basename(p)}`);
      chunks.push(bytesRead === buf.length ? buf : buf.subarray(0, bytesRead));
    }
    return chunks.length === 1 ? chunks[0]! : new Uint8Array(Buffer.concat(chunks, total));
  } finally {
    await fh.close();
  }
}

export interface FsResourceOptions extends ReadLimits {
  /** The current folder: places are named relative to it in messages (default: absolute paths). */
  cwd?: string;
}

/**
 * Resources on disk: a document's paths relative to `baseDir` (its folder),
 * absolute paths as they are. Reads only regular files within
 * --max-file-bytes (see readFileBytes). `exists` is true for anything but a
 * folder (so that reading a FIFO or device named by a document fails with a
 * clear error rather than "not found"), and for a folder when asked with a
 * trailing `/`.
 */
export function fsResourceLoader(baseDir: string, options: FsResourceOptions = {}): ResourceLoader {
  const where = (p: string) => path.resolve(baseDir, p);
  return {
    async load(p: string) {
      return readFileBytes(where(p), options);
    },
    async exists(p: string) {
      try {
        const st = await fsp.stat(where(p));
        return /[\/]$/.test(p) ? st.isDirectory() : !st.isDirectory();
      } catch {
        return false;
      }
    },
    describe(p: string) {
      const abs = where(p);
      if (options.cwd === undefined) return abs;
      // Relative to the current folder when inside it, else absolute.
      const rel = path.relative(options.cwd, abs);
      if (rel === '') return '.';
      return rel === '..' || rel.startsWith('..' + path.sep) || path.isAbsolute(rel) ? abs : rel;
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

