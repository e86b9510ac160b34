/**
 * The viewer's local web server (`sprat view`). It is safe to point at any
 * file: it serves
 *
 * - the viewer's own assets (dist/web),
 * - exactly the documents named on the command line,
 * - exactly the files those documents reference, as the library resolves
 *   them when it draws the document (a recording ResourceLoader around the
 *   file-system one), by the path the document names;
 * - for a format that takes `--recolour` (CTHG) or a SpriteTile level's
 *   `--tileset`, the PNG files beside the document, which the page offers as
 *   recolour palettes or tile images; for a Solarus sprite, the PNG files of
 *   its quest's `tilesets/` folder, offered as its `--tileset`;
 * - the files named by the resource options given on the command line
 *   (`sprat view level.bytes --tileset 0=tiles.png:16x16`), for each
 *   document whose format takes them, wherever they lie (the user named
 *   them); the page gets those options (`files/N/options`), their paths
 *   relative to the document;
 * - with `sprat view DIR`, the documents of that folder (`listDocuments`),
 *   each one's references found when the page first asks for it;
 *
 * and nothing else: no other file of a folder. With `edit` (`sprat view
 * --edit`) and only then, `PUT files/N` writes document N itself, in place
 * and atomically (src/node/fs.ts writeFileAtomic): the body must read as
 * the document's own format, the file must still be the regular file the
 * page read (its version, `x-sprat-version`), inside its root (the opened
 * folder, else its own folder) when opened one path component at a time
 * with no link followed; no other file can be written. `files/N/version` answers a
 * signature of document N's files on disk (their stat only), which the page
 * polls to reload a document when it or a file it references changes. Each file
 * is checked again when it is asked for: a regular file (no FIFO, device,
 * socket, folder), inside its document's allowed root (the document's folder
 * tree; for Solarus the quest folder), also through symbolic links, and no
 * larger than `--max-file-bytes`.
 *
 * Every URL starts with a random token, `http://127.0.0.1:PORT/TOKEN/` (the
 * address `sprat view` prints); any other path is 404. The Host header must
 * be `127.0.0.1:PORT` or `localhost:PORT` and an Origin header, when sent,
 * that same origin, else 403 (DNS rebinding). It listens on 127.0.0.1 only.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { constants, promises as fsp } from 'node:fs';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { load, preview, type Loaded } from '../api.js';
import { detectFormat, extensionOf } from '../detect.js';
import { FORMATS } from '../registry.js';
import { OptionError } from '../binary/errors.js';
import { DEFAULT_LIMITS } from '../binary/limits.js';
import type { CommandOptions, ResourceLoader } from '../formats/types.js';
import { fsResourceLoader, WriteError, writeFileAtomic } from './fs.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.json': 'application/json',
  '.png': 'image/png',
};

/** The viewer page: its own scripts (and WebAssembly, for LZF), styles and images only. */
const PAGE_CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; img-src 'self' blob: data:; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
/** Everything else (documents, resources, the file list, errors): data, never a page. */
const DATA_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";

/** The built viewer (dist/web), next to this module once compiled. */
export function viewerDir(): string {
  return fileURLToPath(new URL('../web/', import.meta.url));
}

export interface ViewerServer {
  /** The address to open: `http://127.0.0.1:PORT/TOKEN/`. */
  url: string;
  /** The random token every path starts with. */
  token: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

export interface ViewerOptions {
  port?: number;
  webDir?: string;
  /** Largest file served (default: the `--max-file-bytes` default). */
  maxFileBytes?: number;
  /** The names the file list shows, one per file (default: base names); e.g. paths relative to an opened folder. */
  names?: string[];
  /** Per file: the (real) folder it was found in, which it must still lie in when read (a link swapped in later is refused). */
  roots?: (string | null)[];
  /** A line the file list shows (e.g. that a folder's listing was cut short). */
  note?: string;
  /**
   * Find a document's references only when the page first asks for it (an
   * opened folder's hundreds of documents), not all at start.
   */
  lazy?: boolean;
  /**
   * Resource options given on the command line (`--tileset 0=tiles.png:16x16`),
   * their paths relative to `cwd`: each document whose format takes one gets
   * it, its paths made relative to the document (`files/N/options`), and the
   * files they name are served for it.
   */
  given?: { options: CommandOptions; cwd: string };
  /**
   * `sprat view --edit`: the page may save an edited document over itself
   * (`PUT files/N`, see the top of this file). Without it nothing is ever
   * written and the page offers its edits as downloads.
   */
  edit?: boolean;
}

/** Folders a folder listing never enters. */
const SKIPPED_FOLDERS = new Set(['node_modules', '.git', '.hg', '.svn']);
/** Pictures and other files a document refers to: listed only as resources, never as documents. */
const NOT_DOCUMENTS = new Set(['.png', '.bmp', '.gif', '.jpg', '.jpeg', '.txt', '.md', '.ogg', '.wav', '.mp3', '.ttf']);

/**
 * Every file under `dir` sprat can open, sorted by path: a known extension
 * (a `.json` or `.lua` only when its content is one of sprat's formats),
 * else recognised by its first bytes (magic). Symbolic links and
 * node_modules/.git are skipped; the listing stops at `max` documents (and
 * after looking at 20 times as many entries) with a note saying so.
 */
export async function listDocuments(
  dir: string,
  opts: { max?: number; maxFileBytes?: number } = {},
): Promise<{ files: string[]; note?: string }> {
  const max = opts.max ?? 5000;
  const maxBytes = opts.maxFileBytes ?? DEFAULT_LIMITS.maxFileBytes;
  const known = new Set(FORMATS.flatMap((f) => [...f.extensions]));
  // `.txt` (a CorsixTH encoder script) and `.tsx` (also TypeScript JSX files) too: most such files are not sprites.
  const sniffed = new Set(['.json', '.lua', '.txt', '.tsx']);
  const found: string[] = [];
  let seen = 0;
  let cut = false;
  const head = async (file: string, n: number): Promise<Uint8Array | null> => {
    const fh = await fsp.open(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW).catch(() => null);
    if (!fh) return null;
    try {
      const st = await fh.stat();
      if (!st.isFile() || st.size > maxBytes) return null;
      const buf = Buffer.alloc(Math.min(n, st.size));
      const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
      return new Uint8Array(buf.subarray(0, bytesRead));
    } finally {
      await fh.close();
    }
  };
  const walk = async (folder: string): Promise<void> => {
    const entries = await fsp.readdir(folder, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (cut) return;
      if (++seen > max * 20 || found.length >= max) {
        cut = true;
        return;
      }
      const full = path.join(folder, e.name);
      if (e.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(e.name)) await walk(full);
        continue;
      }
      if (!e.isFile()) continue; // symbolic links, FIFOs, devices
      const ext = extensionOf(e.name);
      if (NOT_DOCUMENTS.has(ext)) continue;
      if (known.has(ext) && !sniffed.has(ext)) {
        found.push(full);
        continue;
      }
      const bytes = await head(full, sniffed.has(ext) ? Math.min(maxBytes, 16 << 20) : 4096);
      if (bytes?.length && detectFormat(bytes, sniffed.has(ext) ? '' : e.name)) found.push(full);
    }
  };
  await walk(dir);
  return { files: found, note: cut ? `only the first ${found.length} files are listed (the folder has more)` : undefined };
}

function inside(root: string, target: string): boolean {
  return target === root || target.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/** A request the server refuses: the HTTP status and a short reason. */
class Refused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Whether `/proc/self/fd` names this process's open files (Linux): openBeneath's way to open a name inside a folder's descriptor. */
let procFd: boolean | undefined;
const haveProcFd = async () => (procFd ??= (await fsp.stat(`/proc/self/fd`).catch(() => null))?.isDirectory() === true);

/**
 * Opens `real` (a real path inside `root`, itself a real path) one
 * component at a time, each relative to the folder opened before it and
 * with O_NOFOLLOW (folders with O_DIRECTORY too): a folder swapped for a
 * symbolic link after the path was checked is refused, never followed out
 * of the root. Node has no openat: `/proc/self/fd/N/NAME` names NAME inside
 * the folder open as N, whatever its path is now (this closes the race).
 * Without /proc (not Linux), each component is opened by its path with
 * O_NOFOLLOW and must then be the file (device and inode) lstat sees there,
 * under the folder opened before it: a narrower race, not none.
 */
async function openBeneath(root: string, real: string, flags: number): Promise<fsp.FileHandle> {
  const rel = path.relative(root, real);
  const names = rel === '' ? [] : rel.split(path.sep);
  const dirFlags = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
  const proc = await haveProcFd();
  let dir = await fsp.open(root, names.length ? dirFlags : flags);
  let at = root;
  try {
    for (let i = 0; i < names.length; i++) {
      const last = i === names.length - 1;
      at = path.join(at, names[i]!);
      const next = await fsp.open(proc ? `/proc/self/fd/${dir.fd}/${names[i]}` : at, last ? flags : dirFlags);
      if (!proc) {
        const [opened, seen] = await Promise.all([next.stat(), fsp.lstat(at)]);
        const parent = await dir.stat();
        const above = await fsp.stat(path.dirname(at));
        if (opened.dev !== seen.dev || opened.ino !== seen.ino || parent.dev !== above.dev || parent.ino !== above.ino) {
          await next.close();
          throw Object.assign(new Error('changed while opened'), { code: 'ELOOP' });
        }
      }
      await dir.close();
      dir = next;
    }
    return dir;
  } catch (e) {
    await dir.close();
    throw e;
  }
}

/**
 * Opens `file` for reading only if it is a regular file no larger than
 * `maxBytes` and (when `root` is given) it lies inside `root`: its real path
 * is found, then opened component by component from the root
 * (openBeneath), so that no folder swapped for a link in between leads
 * outside. Opening never blocks (O_NONBLOCK: a FIFO does not wait for a
 * writer) and the checks are made on the opened file itself (fstat), so
 * what is read is what was checked.
 */
async function openChecked(file: string, root: string | null, maxBytes: number) {
  let real: string;
  try {
    real = await fsp.realpath(file);
  } catch {
    throw new Refused(404, 'not found');
  }
  if (root !== null && !inside(root, real)) throw new Refused(403, "outside the document's folder");
  const flags = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;
  let fh: fsp.FileHandle;
  try {
    fh = root !== null ? await openBeneath(root, real, flags) : await fsp.open(real, flags);
  } catch {
    throw new Refused(403, 'cannot be opened');
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new Refused(403, 'not a regular file');
    if (st.size > maxBytes) throw new Refused(403, `larger than ${maxBytes} bytes (--max-file-bytes)`);
    return { fh, size: st.size };
  } catch (e) {
    await fh.close();
    throw e;
  }
}

async function readChecked(file: string, root: string | null, maxBytes: number): Promise<Uint8Array> {
  const { fh, size } = await openChecked(file, root, maxBytes);
  try {
    const buf = new Uint8Array(size);
    let done = 0;
    while (done < size) {
      const { bytesRead } = await fh.read(buf, done, size - done, done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    return done === size ? buf : buf.subarray(0, done);
  } finally {
    await fh.close();
  }
}

/** Whether `dir` is a folder whose real path lies inside `root`. */
async function folderInside(dir: string, root: string): Promise<boolean> {
  const real = await fsp.realpath(dir).catch(() => null);
  return real !== null && inside(root, real) && ((await fsp.stat(real).catch(() => null))?.isDirectory() ?? false);
}

async function isRegularFile(p: string): Promise<boolean> {
  return (await fsp.stat(p).catch(() => null))?.isFile() ?? false;
}

/**
 * The folder a document's resources must lie in (a real path): its own
 * folder tree; for a Solarus sprite the quest folder, whose `sprites/`
 * folder holds it (the nearest folder with a `quest.dat` at most three
 * levels up, as far as Solarus looks for sheets; else the folder holding
 * the nearest `sprites` folder).
 */
export async function allowedRoot(format: string, docDir: string): Promise<string> {
  const real = await fsp.realpath(docDir);
  if (format !== 'solarus' && format !== 'solarus-lua') return real;
  const up: string[] = [real];
  for (let i = 0; i < 3; i++) up.push(path.dirname(up[up.length - 1]!));
  for (const dir of up) if (await isRegularFile(path.join(dir, 'quest.dat'))) return dir;
  for (const dir of up) if (path.basename(dir) === 'sprites' && path.dirname(dir) !== dir) return path.dirname(dir);
  return real;
}

/**
 * Wraps a loader so that it only reaches regular files inside `root` (no
 * larger than `maxBytes`) and records, by the path the document names, each
 * one it resolved: loaded, or found to exist.
 */
function checkedRecordingLoader(
  inner: ResourceLoader,
  baseDir: string,
  root: string,
  maxBytes: number,
  seen: Map<string, string>,
  named: ReadonlySet<string> = new Set(),
): ResourceLoader {
  const check = async (p: string): Promise<string> => {
    if (typeof p !== 'string' || p === '' || p.includes('\0')) throw new Error('not a file name');
    const file = path.resolve(baseDir, p);
    // A file the user named on the command line may lie anywhere (still a regular file of at most maxBytes).
    const { fh } = await openChecked(file, named.has(file) ? null : root, maxBytes);
    await fh.close();
    return file;
  };
  return {
    async load(p) {
      let file: string;
      try {
        file = await check(p);
      } catch (e) {
        throw e instanceof Refused ? Object.assign(new Error(`${p}: ${e.message}`), { code: e.status === 404 ? 'ENOENT' : 'EACCES' }) : e;
      }
      const bytes = await inner.load(p);
      seen.set(p, file);
      return bytes;
    },
    async exists(p) {
      if (typeof p === 'string' && /[\\/]$/.test(p) && !p.includes('\0')) {
        // A folder (questRoot asks for a quest's `sprites/`): inside the root; answered to HEAD, never served.
        const dir = path.resolve(baseDir, p);
        if (!(await folderInside(dir, root)) || !(await inner.exists(p))) return false;
        seen.set(p, dir + path.sep);
        return true;
      }
      let file: string;
      try {
        file = await check(p);
      } catch {
        return false;
      }
      const ok = await inner.exists(p);
      if (ok) seen.set(p, file);
      return ok;
    },
  };
}

/**
 * Runs what the viewer runs to show a document (the library's `preview`,
 * which web/preview.ts uses), through `resources`. A format that needs a frame size it does not store (Hallgeir
 * sprites: the page asks the user) is run again with one, since the size
 * does not change which files are read. Errors are the viewer's to show.
 */
async function runPreview(loaded: Loaded, resources: ResourceLoader, palettes: string[] = [], given: CommandOptions = {}): Promise<void> {
  const run = async (options: CommandOptions) => {
    await preview(loaded, resources, options);
  };
  const frameSize = async (e: unknown, options: CommandOptions) => {
    if (e instanceof OptionError && /--frame-size/.test(e.message)) await run({ ...options, 'frame-size': '1x1' }).catch(() => undefined);
  };
  try {
    await run(given);
  } catch (e) {
    await frameSize(e, given);
    // The options given on the command line do not fit this document: what it names alone (the page says why).
    if (Object.keys(given).length) await run({}).catch((e2) => frameSize(e2, {}));
  }
  // The recolour palettes the page offers (`--recolour LAYER=PALETTE.png`): each read as the render reads it.
  for (const p of palettes) await resources.load(p).catch(() => undefined);
}

/** Most pictures offered for one document (recolour palettes, tile images). */
const MAX_PALETTES = 64;

/** The PNG files in `dir`, by name, sorted. */
async function pngsIn(dir: string): Promise<string[]> {
  const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile() && /\.png$/i.test(e.name))
    .map((e) => e.name)
    .sort()
    .slice(0, MAX_PALETTES);
}

/**
 * The pictures the page may offer for a document, as paths relative to it:
 * for a format that takes `--recolour` (CTHG) or a SpriteTile level (its
 * `--tileset` images), the PNG files beside the document; for a Solarus
 * sprite (`--tileset IMAGE` for its animations drawn from the map's
 * tileset), the PNG files of its quest's `tilesets/` folder (`root` is the
 * quest folder: `data/tilesets/` or `tilesets/`).
 */
async function paletteCandidates(loaded: Loaded, baseDir: string, root: string): Promise<string[]> {
  const h = loaded.handler;
  if (h.renderOptions?.some((o) => o.name === 'recolour') || h.name === 'spritetile') return pngsIn(baseDir);
  if (h.name === 'solarus' || h.name === 'solarus-lua') {
    for (const dir of [path.join(root, 'data', 'tilesets'), path.join(root, 'tilesets')]) {
      const found = await pngsIn(dir);
      const rel = path.relative(baseDir, dir).split(path.sep).join('/');
      if (found.length) return found.map((f) => `${rel}/${f}`);
    }
  }
  return [];
}

/**
 * The options given on the command line (`ViewerOptions.given`) that the
 * document's format takes, their paths made relative to the document's
 * folder; `named` gets the absolute path of every file they name.
 */
function givenOptionsFor(loaded: Loaded, baseDir: string, given: ViewerOptions['given'], named: Set<string>): CommandOptions {
  const out: CommandOptions = {};
  if (!given) return out;
  const specs = [...(loaded.handler.resourceOptions ?? []), ...(loaded.handler.renderOptions ?? [])];
  const relative = (p: string) => {
    const abs = path.resolve(given.cwd, p);
    named.add(abs);
    return path.relative(baseDir, abs).split(path.sep).join('/');
  };
  for (const [k, v] of Object.entries(given.options)) {
    const spec = specs.find((o) => o.name === k);
    if (!spec || v === undefined) continue;
    out[k] = typeof v === 'string' && spec.paths ? (spec.paths === true ? relative(v) : spec.paths(v, relative)) : v;
  }
  return out;
}

export interface DocumentResources {
  root: string | null;
  /** Path as the document names it -> the file on disk. */
  files: Map<string, string>;
  /** The pictures the page may offer, recolour palettes or tile images (names in `files`). */
  palettes: string[];
  /** The command line's options for this document (`ViewerOptions.given`), paths relative to it. */
  options: CommandOptions;
  /** Files the user named on the command line: served from wherever they lie. */
  named: Set<string>;
}

/**
 * The files a document references: path as the document names it (and as
 * the viewer asks for it) -> the file on disk, each a regular file inside
 * the returned root.
 */
export async function documentResources(
  bytes: Uint8Array,
  docPath: string,
  maxBytes: number = DEFAULT_LIMITS.maxFileBytes,
  given?: ViewerOptions['given'],
): Promise<DocumentResources> {
  const files = new Map<string, string>();
  const named = new Set<string>();
  let loaded: Loaded;
  try {
    loaded = load(bytes, path.basename(docPath));
  } catch {
    return noResources();
  }
  const baseDir = path.dirname(docPath);
  const root = await allowedRoot(loaded.handler.name, baseDir);
  const candidates = await paletteCandidates(loaded, baseDir, root);
  const options = givenOptionsFor(loaded, baseDir, given, named);
  await runPreview(
    loaded,
    checkedRecordingLoader(fsResourceLoader(baseDir, { maxFileBytes: maxBytes }), baseDir, root, maxBytes, files, named),
    candidates,
    options,
  );
  return { root, files, palettes: candidates.filter((p) => files.has(p)), options, named };
}

function noResources(): DocumentResources {
  return { root: null, files: new Map(), palettes: [], options: {}, named: new Set() };
}

interface Doc {
  id: number;
  name: string;
  /** As given (absolute): resources are relative to its folder. */
  path: string;
  /** A folder the document must still lie in when read (found in an opened folder), else null. */
  root: string | null;
  /** The bytes the references were last found from. */
  bytes?: Uint8Array;
  refs?: Promise<DocumentResources>;
}

/**
 * A short signature of a document's files on disk (the document and every
 * file it was found to reference): size, modification and change times and
 * inode of each, so that the page can tell when to load it again. Only
 * metadata is read; a file gone or unreadable counts as its own state.
 */
async function versionOf(doc: Doc, refs: DocumentResources): Promise<string> {
  const h = createHash('sha256');
  for (const file of [doc.path, ...[...refs.files.values()].filter((f) => !f.endsWith(path.sep)).sort()]) {
    const st = await fsp.stat(file, { bigint: true }).catch(() => null);
    h.update(`${file}\0${st ? `${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.ino}` : '-'}\n`);
  }
  return h.digest('hex').slice(0, 32);
}

/** A request's body, refused (413) beyond `maxBytes`. */
async function readBody(req: IncomingMessage, maxBytes: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      req.resume();
      throw new Refused(413, `larger than ${maxBytes} bytes (--max-file-bytes); nothing was written`);
    }
    chunks.push(chunk);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Serves the viewer and the given files on 127.0.0.1 only (see the top of
 * this file for exactly what is served, and to whom).
 */
export async function startViewer(files: string[], opts: ViewerOptions = {}): Promise<ViewerServer> {
  const webDir = opts.webDir ?? viewerDir();
  const maxBytes = opts.maxFileBytes ?? DEFAULT_LIMITS.maxFileBytes;
  const token = randomBytes(24).toString('base64url');
  const tokenBytes = Buffer.from(token);
  const docs: Doc[] = files.map((f, id) => ({
    id,
    name: opts.names?.[id] ?? path.basename(f),
    path: path.resolve(f),
    root: opts.roots?.[id] ?? null,
  }));
  let port = 0;

  /** The document's bytes (a regular file; the user named it, so any folder). */
  const readDoc = (doc: Doc) => readChecked(doc.path, doc.root, maxBytes);
  /** Finds the references again whenever the document's bytes change. */
  const refsFor = (doc: Doc, bytes: Uint8Array) => {
    if (!doc.refs || !doc.bytes || !sameBytes(doc.bytes, bytes)) {
      doc.bytes = bytes;
      doc.refs = documentResources(bytes, doc.path, maxBytes, opts.given).catch(noResources);
    }
    return doc.refs;
  };
  const ensureRefs = async (doc: Doc) => doc.refs ?? refsFor(doc, await readDoc(doc));
  // Start finding every named document's references now (a folder's: when first asked for); requests wait for them.
  if (!opts.lazy) for (const doc of docs) ensureRefs(doc).catch(() => undefined);

  /**
   * `PUT files/N`: the body written over document N, atomically, when it
   * reads as the document's format, the document is still what the page read
   * (`x-sprat-version`) and it is a regular file inside its root (the
   * opened folder, else its own folder), opened component by component with
   * no link followed. Answers the new version.
   */
  const saveDoc = async (doc: Doc, req: IncomingMessage): Promise<{ version: string }> => {
    const body = await readBody(req, maxBytes);
    const root = doc.root ?? (await fsp.realpath(path.dirname(doc.path)).catch(() => null));
    if (root === null) throw new Refused(404, 'not found');
    const { fh } = await openChecked(doc.path, root, maxBytes);
    await fh.close();
    const real = await fsp.realpath(doc.path);
    const old = await readChecked(real, root, maxBytes);
    let format: string;
    try {
      format = load(old, path.basename(doc.path)).handler.name;
    } catch {
      throw new Refused(409, 'the file on disk is no longer one sprat reads; nothing was written');
    }
    try {
      load(body, path.basename(doc.path), format);
    } catch (e) {
      throw new Refused(400, `not a ${format} file (${(e as Error).message}); nothing was written`);
    }
    const seen = req.headers['x-sprat-version'];
    if (typeof seen !== 'string' || seen !== (await versionOf(doc, await refsFor(doc, old))))
      throw new Refused(409, 'the file changed on disk since the page read it; nothing was written');
    // (The write goes by the real path: a folder swapped for a link between these checks and the rename is not caught.)
    try {
      await writeFileAtomic(real, body);
    } catch (e) {
      if (e instanceof WriteError) throw new Refused(e.kind === 'read-only' ? 403 : 500, `${doc.name} ${e.message}; nothing was written`);
      throw e;
    }
    return { version: await versionOf(doc, await refsFor(doc, body)) };
  };

  const hostOk = (req: IncomingMessage): boolean => {
    const allowed = [`127.0.0.1:${port}`, `localhost:${port}`];
    const host = req.headers.host?.toLowerCase();
    if (!host || !allowed.includes(host)) return false;
    const origin = req.headers.origin;
    return origin === undefined || origin.toLowerCase() === `http://${host}`;
  };

  const tokenOk = (given: string): boolean => {
    const b = Buffer.from(given);
    return b.length === tokenBytes.length && timingSafeEqual(b, tokenBytes);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const send = (
      code: number,
      body: string | Uint8Array,
      type = 'text/plain; charset=utf-8',
      page = false,
      extra: Record<string, string> = {},
    ) => {
      res.writeHead(code, {
        'content-type': type,
        'content-length': String(typeof body === 'string' ? Buffer.byteLength(body) : body.length),
        'content-security-policy': page ? PAGE_CSP : DATA_CSP,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cache-control': 'no-store',
        'cross-origin-resource-policy': 'same-origin',
        'x-frame-options': 'DENY',
        ...extra,
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (!hostOk(req)) return send(403, 'forbidden: wrong Host or Origin');
    const allow = opts.edit ? 'GET, HEAD, PUT' : 'GET, HEAD';
    const put = req.method === 'PUT' && opts.edit === true;
    if (req.method !== 'GET' && req.method !== 'HEAD' && !put) {
      req.resume();
      return send(405, 'method not allowed', undefined, false, { allow });
    }
    // Routes are matched on the raw path: only a resource's name is decoded.
    const raw = (req.url ?? '/').replace(/[?#].*$/s, '');
    const m = /^\/([^/]*)(\/.*)?$/.exec(raw);
    if (!m || !tokenOk(m[1]!)) return send(404, 'not found');
    if (m[2] === undefined) return send(302, '', undefined, false, { location: `/${token}/` });
    const rest = m[2].slice(1);
    try {
      if (put) {
        // Only a document itself is ever written (`sprat view --edit`).
        const w = /^files\/(\d{1,9})$/.exec(rest);
        const doc = w ? docs[Number(w[1])] : undefined;
        if (!doc) {
          req.resume();
          return send(w ? 404 : 405, w ? 'not found' : 'method not allowed', undefined, false, { allow });
        }
        const saved = await saveDoc(doc, req);
        return send(200, JSON.stringify(saved), TYPES['.json']);
      }
      if (rest === 'api/files') {
        const note: Record<string, string> = opts.note ? { 'x-sprat-note': encodeURIComponent(opts.note) } : {};
        const list = docs.map(({ id, name }) => (opts.edit ? { id, name, save: true } : { id, name }));
        return send(200, JSON.stringify(list), TYPES['.json'], false, note);
      }
      // A signature of the document's files on disk: the page asks every second and reloads when it changes.
      const ver = /^files\/(\d{1,9})\/version$/.exec(rest);
      if (ver) {
        const doc = docs[Number(ver[1])];
        if (!doc) return send(404, 'not found');
        return send(200, JSON.stringify({ version: await versionOf(doc, await ensureRefs(doc)) }), TYPES['.json']);
      }
      const pal = /^files\/(\d{1,9})\/palettes$/.exec(rest);
      if (pal) {
        const doc = docs[Number(pal[1])];
        if (!doc) return send(404, 'not found');
        return send(200, JSON.stringify((await ensureRefs(doc)).palettes), TYPES['.json']);
      }
      // The command line's options for the document (`sprat view level.bytes --tileset ...`), paths relative to it.
      const given = /^files\/(\d{1,9})\/options$/.exec(rest);
      if (given) {
        const doc = docs[Number(given[1])];
        if (!doc) return send(404, 'not found');
        return send(200, JSON.stringify((await ensureRefs(doc)).options), TYPES['.json']);
      }
      // Whether a document's resource exists, as a 200 answer either way: the page probes candidate paths
      // (`exists`) without a 404 in the console. True only for what the allow-list holds and its checks pass.
      const ex = /^files\/(\d{1,9})\/exists\/(.+)$/.exec(rest);
      if (ex) {
        const doc = docs[Number(ex[1])];
        if (!doc) return send(404, 'not found');
        let name: string;
        try {
          name = decodeURIComponent(ex[2]!);
        } catch {
          return send(400, 'bad request');
        }
        const { root, files, named } = await ensureRefs(doc);
        const file = files.get(name);
        let exists = false;
        if (file !== undefined && root !== null) {
          if (file.endsWith(path.sep)) exists = await folderInside(file, root);
          else {
            try {
              const { fh } = await openChecked(file, named.has(file) ? null : root, maxBytes);
              await fh.close();
              exists = true;
            } catch (e) {
              if (!(e instanceof Refused)) throw e;
            }
          }
        }
        return send(200, JSON.stringify({ exists }), TYPES['.json']);
      }
      const f = /^files\/(\d{1,9})(?:\/res\/(.+))?$/.exec(rest);
      if (f) {
        const doc = docs[Number(f[1])];
        if (!doc) return send(404, 'not found');
        if (f[2] === undefined) {
          const bytes = await readDoc(doc);
          void refsFor(doc, bytes);
          return send(200, bytes, 'application/octet-stream');
        }
        let name: string;
        try {
          name = decodeURIComponent(f[2]);
        } catch {
          return send(400, 'bad request');
        }
        const { root, files, named } = await ensureRefs(doc);
        const file = files.get(name);
        if (file === undefined || root === null) return send(404, 'not found');
        const within = named.has(file) ? null : root;
        if (file.endsWith(path.sep)) {
          // A folder the document's quest is found by: it exists (HEAD), nothing to read.
          if (!(await folderInside(file, root))) return send(404, 'not found');
          return req.method === 'HEAD' ? send(200, '') : send(403, 'a folder, not a file');
        }
        if (req.method === 'HEAD') {
          const { fh, size } = await openChecked(file, within, maxBytes);
          await fh.close();
          return send(200, '', 'application/octet-stream', false, { 'content-length': String(size) });
        }
        return send(200, await readChecked(file, within, maxBytes), 'application/octet-stream');
      }
      const asset = rest === '' ? 'index.html' : rest;
      if (!/^[\w-][\w.-]*$/.test(asset)) return send(404, 'not found');
      return send(
        200,
        await readChecked(path.join(webDir, asset), null, maxBytes),
        TYPES[path.extname(asset)] ?? 'application/octet-stream',
        true,
      );
    } catch (e) {
      if (e instanceof Refused) return send(e.status, e.message);
      return send(500, 'error');
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const addr = server.address();
  port = typeof addr === 'object' && addr ? addr.port : (opts.port ?? 0);
  return {
    url: `http://127.0.0.1:${port}/${token}/`,
    token,
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // a page left open must not keep the process alive
      }),
  };
}
