import fs, { constants as fsc, promises as fsp, type Stats } from 'node:fs';
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
    const into = fileBuffer(p, st.size, max);
    for (;;) {
      const { buf, offset, length } = into.space();
      if (!into.got((await fh.read(buf, offset, length, null)).bytesRead)) return into.bytes();
    }
  } finally {
    await fh.close();
  }
}

/**
 * Where readFileBytes and readFileBytesSync put what they read: what is there, up to one byte past the
 * limit (a file that grows while read), in one buffer of the size found (and one byte more), grown only
 * when the file grew: no chunks to join, so a file costs its size once. `got(n)` is false at the end.
 */
function fileBuffer(p: string, size: number, max: number) {
  const budget = new Budget({ ...DEFAULT_LIMITS, maxFileBytes: max });
  const what = `reading ${path.basename(p)}`;
  budget.check('maxFileBytes', size, what);
  let buf = new Uint8Array(Math.min(size, max) + 1);
  let total = 0;
  return {
    space(): { buf: Uint8Array; offset: number; length: number } {
      if (total === buf.length) {
        const bigger = new Uint8Array(Math.min(buf.length * 2, max + 1));
        bigger.set(buf);
        buf = bigger;
      }
      return { buf, offset: total, length: Math.min(buf.length - total, 1 << 30) };
    },
    got(n: number): boolean {
      if (n === 0) return false;
      total += n;
      budget.check('maxFileBytes', total, what);
      return true;
    },
    bytes: (): Uint8Array => buf.subarray(0, total),
  };
}

/**
 * readFileBytes without the thread pool: the same checks (a regular file,
 * opened without blocking and checked on the open descriptor, at most
 * `limits.maxFileBytes`), by synchronous calls. For a worker thread that
 * reads many small files one after the other (`check` of a tree), where four
 * round trips through libuv's pool per file cost more than the file.
 */
export function readFileBytesSync(p: string, limits: ReadLimits = {}): Uint8Array {
  const max = limits.maxFileBytes ?? DEFAULT_LIMITS.maxFileBytes;
  let fd: number;
  try {
    fd = fs.openSync(p, fsc.O_RDONLY | fsc.O_NONBLOCK);
  } catch (e) {
    const st = (() => {
      try {
        return fs.statSync(p);
      } catch {
        return null;
      }
    })();
    if (st && !st.isFile()) throw notRegular(st);
    throw e;
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw notRegular(st);
    const into = fileBuffer(p, st.size, max);
    for (;;) {
      const { buf, offset, length } = into.space();
      if (!into.got(fs.readSync(fd, buf, offset, length, null))) return into.bytes();
    }
  } finally {
    fs.closeSync(fd);
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
        return /[/]$/.test(p) ? st.isDirectory() : !st.isDirectory();
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

/**
 * The hidden name a file is written under before it is renamed into place:
 * `.NAME.sprat-tmp-PID-RAND` beside it. The pid lets a later run tell a
 * temporary left by a killed process (`kill -9`) from one still being
 * written, and remove it (sweepStaleTemps).
 */
function tempNameFor(target: string, kind: 'tmp' | 'bak' = 'tmp'): string {
  const dir = path.dirname(target);
  return path.join(dir, `.${path.basename(target)}.sprat-${kind}-${process.pid}-${randomBytes(4).toString('hex')}`);
}

const TEMP_NAME = /^\..+\.sprat-tmp-(\d+)-[0-9a-f]+$/;

function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * Removes the temporaries a killed sprat left in `dir` (`.NAME.sprat-tmp-PID-RAND`
 * whose PID is no live process). Returns the names removed. Never fails:
 * a folder that cannot be read is left as it is.
 */
export async function sweepStaleTemps(dir: string): Promise<string[]> {
  const names = await fsp.readdir(dir).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names) {
    const m = TEMP_NAME.exec(name);
    if (!m || processAlive(Number(m[1]))) continue;
    const p = path.join(dir, name);
    const st = await fsp.lstat(p).catch(() => null);
    if (!st?.isFile()) continue;
    if (
      await fsp.rm(p).then(
        () => true,
        () => false,
      )
    )
      removed.push(name);
  }
  return removed;
}

/**
 * Removes, synchronously, this process's temporaries and backups in `dir`
 * (`.NAME.sprat-tmp-PID-RAND` with this PID), those of its worker threads
 * too: for the signal handler of a command whose writes run in workers.
 */
export function removeOwnTempsSync(dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const m = TEMP_NAME.exec(name);
    if (!m || Number(m[1]) !== process.pid) continue;
    fs.rmSync(path.join(dir, name), { force: true });
    removed.push(name);
  }
  return removed;
}

/** Why a write was refused or failed; `file` is the output's label (or its path). */
export type WriteErrorKind = 'protected' | 'exists' | 'read-only' | 'folder' | 'duplicate' | 'io';

/** A write refused before anything was written, or one that failed and was undone. */
export class WriteError extends Error {
  override name = 'WriteError';
  constructor(
    /** The output concerned, as its label names it (else its path). */
    readonly file: string,
    readonly kind: WriteErrorKind,
    message: string,
    /** The file-system error code of an `io` failure (ENOENT, EACCES, ...). */
    readonly code?: string,
  ) {
    super(message);
  }
}

export interface WriteTarget {
  path: string;
  readonly bytes: Uint8Array;
  /** The bytes as pieces made one at a time (OutputFile.chunks, src/formats/types.ts): written as they come, `bytes` never read. */
  readonly chunks?: () => Iterable<string | Uint8Array>;
  /** How errors name this file (default: its path). */
  label?: string;
  /**
   * Whether an existing file there may be replaced (default true). A side
   * file the user did not name (a sheet beside OUT) is written with false:
   * an existing file stops the whole write unless `overwrite` is given.
   */
  mayReplace?: boolean;
}

/**
 * The target that writes `file` (an OutputFile of the library) at `path`: its chunks when it is made in
 * pieces (a big JSON file), its bytes not read.
 */
export function fileTarget<E extends Omit<WriteTarget, 'path' | 'bytes' | 'chunks'>>(
  file: { readonly bytes: Uint8Array; readonly chunks?: () => Iterable<string | Uint8Array> },
  path: string,
  extra: E = {} as E,
): WriteTarget & E {
  return {
    path,
    get bytes() {
      return file.bytes;
    },
    ...(file.chunks ? { chunks: file.chunks } : {}),
    ...extra,
  };
}

export interface WriteOptions {
  /** Files no target may replace, however spelled (the input, the files it uses). */
  protect?: readonly string[];
  /** Targets with `mayReplace: false` may replace existing files too. */
  overwrite?: boolean;
  /** Read-only files (no write permission bit) may be replaced; the new file keeps their mode. */
  force?: boolean;
}

/** The writes under way, for signal handlers: their temporaries on disk. */
const pendingTemps = new Set<string>();

/**
 * Removes, synchronously, every temporary a write under way has on disk.
 * For signal handlers (SIGINT, SIGTERM): the renames into place run
 * synchronously, so when this runs no output is half replaced.
 */
export function removePendingTempsSync(): string[] {
  const removed = [...pendingTemps];
  for (const t of removed) fs.rmSync(t, { force: true });
  pendingTemps.clear();
  return removed;
}

function writeFd(fd: number, bytes: Uint8Array | string): Promise<void> {
  return new Promise((resolve, reject) => fs.writeFile(fd, bytes, (e) => (e ? reject(e) : resolve())));
}

/** Text pieces are gathered up to this many characters before a write (a small file is one write). */
const WRITE_CHARS = 1 << 16;

/** Writes a target's content: its pieces as they are made (each written before more is asked for, small ones gathered), or its bytes. */
async function writeContent(fd: number, f: WriteTarget): Promise<void> {
  if (!f.chunks) return writeFd(fd, f.bytes);
  let text = '';
  for (const c of f.chunks()) {
    if (typeof c === 'string') {
      text += c;
      if (text.length < WRITE_CHARS) continue;
    }
    if (text) await writeFd(fd, text);
    text = '';
    if (typeof c !== 'string') await writeFd(fd, c);
  }
  if (text) await writeFd(fd, text);
}

/** Whether `e` came from making a file's content (a budget, a writer's check), not from the file system: reported as it is. */
const fromContent = (e: unknown): boolean => e instanceof Error && typeof (e as NodeJS.ErrnoException).code !== 'string';

const io = (file: string, e: unknown): WriteError => {
  const err = e as NodeJS.ErrnoException;
  return new WriteError(file, 'io', err?.message ?? String(e), err?.code);
};

interface Planned {
  label: string;
  target: string;
  file: WriteTarget;
  mode?: number;
  existed: boolean;
  mayReplace: boolean;
  tmp?: string;
}

/**
 * Writes files so that either all of them appear complete or none changes.
 *
 * First every target is checked, before anything is written: none may be a
 * protected file (`options.protect`, compared as files: links and other
 * spellings too) or a folder, no two may be the same file, an existing file
 * is replaced only when its target allows it (`mayReplace`, or
 * `options.overwrite`) and, when it is read-only, only with `options.force`.
 * Then each file goes to a temporary name in its folder (after removing the
 * temporaries killed runs left there), and all are renamed into place at
 * once: each existing file is first kept under a hidden backup name, and if
 * any rename fails every file already moved is put back. A replaced file
 * keeps its permission bits. Errors are `WriteError`s naming the file; a
 * target made in pieces (`chunks`) is written a piece at a time, and an
 * error making them (a budget's LimitError) drops the temporaries and is
 * thrown as it is.
 */
export async function writeFilesAtomic(files: readonly WriteTarget[], options: WriteOptions = {}): Promise<void> {
  const planned: Planned[] = [];
  for (const f of files) {
    const label = f.label ?? f.path;
    // Through a symbolic link: replace the file it names, and keep the link.
    const target = await fsp.realpath(f.path).catch(() => path.resolve(f.path));
    for (const p of options.protect ?? []) {
      if (await sameFile(f.path, p)) throw new WriteError(label, 'protected', 'is the input or a file it uses, and is never overwritten');
    }
    for (const q of planned) {
      if (q.target === target || (await sameFile(q.target, target)))
        throw new WriteError(label, 'duplicate', `two outputs would be the same file (${q.label} too)`);
    }
    const st = await fsp.stat(target).catch(() => null);
    if (st?.isDirectory()) throw new WriteError(label, 'folder', 'is a folder, not a file', 'EISDIR');
    if (st && f.mayReplace === false && !options.overwrite)
      throw new WriteError(label, 'exists', 'already exists and was not named as the output');
    if (st && (st.mode & 0o222) === 0 && !options.force) throw new WriteError(label, 'read-only', 'is read-only');
    const mayReplace = f.mayReplace !== false || !!options.overwrite;
    planned.push({ label, target, file: f, mode: st ? st.mode & 0o7777 : undefined, existed: !!st, mayReplace });
  }
  for (const dir of new Set(planned.map((p) => path.dirname(p.target)))) await sweepStaleTemps(dir);
  const mine: string[] = [];
  const dropTemps = () => {
    for (const t of mine) {
      fs.rmSync(t, { force: true });
      pendingTemps.delete(t);
    }
  };
  let current = planned[0]?.label ?? '';
  try {
    for (const p of planned) {
      current = p.label;
      const tmp = tempNameFor(p.target);
      // Created and registered in one synchronous step, so a signal handler
      // always knows every temporary on disk.
      const fd = fs.openSync(tmp, 'wx', p.existed ? 0o600 : 0o666);
      pendingTemps.add(tmp);
      mine.push(tmp);
      p.tmp = tmp;
      try {
        if (p.mode !== undefined) fs.fchmodSync(fd, p.mode);
        await writeContent(fd, p.file);
      } finally {
        fs.closeSync(fd);
      }
    }
  } catch (e) {
    dropTemps();
    throw fromContent(e) ? e : io(current, e);
  }
  commitSync(planned);
  for (const t of mine) pendingTemps.delete(t);
}

/**
 * Renames the temporaries into place, all or none, in one synchronous run
 * (no signal handler can see it half done): an existing file is first linked
 * (or copied) to a hidden backup, which is renamed back if a later rename fails.
 */
function commitSync(planned: readonly Planned[]): void {
  const done: { target: string; backup?: string }[] = [];
  const backups: string[] = [];
  let current = '';
  try {
    for (const p of planned) {
      current = p.label;
      let backup: string | undefined;
      if (p.existed) {
        backup = tempNameFor(p.target, 'bak');
        try {
          fs.linkSync(p.target, backup);
        } catch {
          fs.copyFileSync(p.target, backup, fs.constants.COPYFILE_EXCL);
        }
        backups.push(backup);
      } else if (!p.mayReplace && fs.existsSync(p.target)) {
        // Appeared since the checks: never clobber it.
        throw Object.assign(new Error('appeared while writing'), { code: 'EEXIST' });
      }
      fs.renameSync(p.tmp!, p.target);
      done.push({ target: p.target, backup });
    }
  } catch (e) {
    const failed = io(current, e);
    for (const d of done.reverse()) {
      // Restored, or kept if it cannot be: then it is the only copy left of that file.
      if (d.backup) backups.splice(backups.indexOf(d.backup), 1);
      try {
        if (d.backup) fs.renameSync(d.backup, d.target);
        else fs.rmSync(d.target, { force: true });
      } catch {
        // nothing more can be done
      }
    }
    for (const b of backups) fs.rmSync(b, { force: true });
    for (const p of planned) {
      if (!p.tmp) continue;
      fs.rmSync(p.tmp, { force: true });
      pendingTemps.delete(p.tmp);
    }
    throw failed;
  }
  for (const b of backups) fs.rmSync(b, { force: true });
}

export async function writeFileAtomic(target: string, bytes: Uint8Array, options: WriteOptions = {}): Promise<void> {
  await writeFilesAtomic([{ path: target, bytes }], options);
}

/**
 * Wraps a resource loader to record every file the document uses: each path
 * loaded (or tried, when it exists) and each whose existence was asked and
 * confirmed (a candidate the format named), resolved as the inner loader
 * resolves it (`resolve`; by default against `baseDir`, as fsResourceLoader
 * does). No output of a command may replace them (WriteOptions.protect).
 */
export function recordingLoader(
  inner: ResourceLoader,
  baseDir: string,
  resolve = (p: string) => path.resolve(baseDir, p),
): ResourceLoader & { readonly used: Set<string> } {
  const used = new Set<string>();
  // Other methods of the inner loader stay reachable, and reach these two through `this`.
  const loader = Object.create(inner) as ResourceLoader & { used: Set<string> };
  loader.used = used;
  loader.load = async (p: string) => {
    try {
      return await inner.load.call(inner, p);
    } finally {
      // Even when it could not be used (too large, undecodable): it is the document's.
      if (fs.existsSync(resolve(p))) used.add(resolve(p));
    }
  };
  loader.exists = async (p: string) => {
    const yes = await inner.exists.call(inner, p);
    if (yes) used.add(resolve(p));
    return yes;
  };
  return loader;
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
