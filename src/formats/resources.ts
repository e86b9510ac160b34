/**
 * The one way every format finds and loads the files a document names
 * (sheets, textures, tilesets, palettes, objects), through a ResourceLoader.
 * Runs in browsers: paths are joined with `/` (a `\` counts as `/`).
 *
 * Path rules:
 * - a path a document names is relative to the document's folder (what the
 *   loader resolves against); a format may try several candidates in order
 *   (Hallgeir: NAME, NAME.png, NAME.bmp);
 * - a Solarus sheet is relative to the quest's `sprites/` folder, found by
 *   walking up from the sprite to the folder that holds `quest.dat` or a
 *   `sprites/` folder (`questRoot`);
 * - a path the user typed (--images, --tileset, --recolour) arrives
 *   absolute: the command line resolved it against the current folder.
 *
 * Errors are FormatErrors of the document's format that name the path as
 * written and every place searched, as the loader describes them.
 */
import { FormatError, isFormatError, OptionError } from '../binary/errors.js';
import { DEFAULT_LIMITS, LimitError, limitsFrom, type Limits } from '../binary/limits.js';
import { decodeImage } from '../render/decode.js';
import type { RgbaImage } from '../render/image.js';
import type { Picture } from '../render/pipeline.js';
import type { CommandOptions, ResourceLoader } from './types.js';

/** The folder part of a relative path ("" for a bare name), without a trailing `/`. */
export function dirOf(p: string): string {
  const s = p.replace(/\\/g, '/');
  const i = s.lastIndexOf('/');
  return i < 0 ? '' : s.slice(0, i);
}

/** True for `/x`, `C:/x`, `C:\x`. */
export function isAbsolutePath(p: string): boolean {
  return /^(?:[A-Za-z]:)?[\\/]/.test(p);
}

/** Joins a relative path to a folder, resolving `.` and `..` where it can; an absolute `rel` is kept. */
export function joinPath(dir: string, rel: string): string {
  const r = rel.replace(/\\/g, '/');
  if (isAbsolutePath(r)) return r;
  const joined = dir ? dir.replace(/\\/g, '/') + '/' + r : r;
  const abs = isAbsolutePath(joined);
  const out: string[] = [];
  for (const part of joined.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else if (part === '..' && abs) continue;
    else out.push(part);
  }
  return (abs && !/^[A-Za-z]:/.test(joined) ? '/' : '') + out.join('/');
}

/**
 * `to` relative to the folder `from` (both as joinPath leaves them: both
 * absolute, or both relative to one folder): `a/b`, `a/b/c/x.png` ->
 * `c/x.png`; `a/b`, `a/x.png` -> `../x.png`. Undefined when it cannot be
 * told (a relative `from` above what `to` names).
 */
export function relativePath(from: string, to: string): string | undefined {
  const f = joinPath('', from);
  const t = joinPath('', to);
  if (isAbsolutePath(f) !== isAbsolutePath(t)) return undefined;
  const fs = f.split('/').filter(Boolean);
  const ts = t.split('/').filter(Boolean);
  let i = 0;
  while (i < fs.length && i < ts.length && fs[i] === ts[i]) i++;
  if (fs.slice(i).includes('..')) return undefined;
  return [...fs.slice(i).map(() => '..'), ...ts.slice(i)].join('/') || '.';
}

/** One file a document (or the user) names. */
export interface ResourceRequest {
  /** The document's format: the FormatError's format. */
  format: string;
  /** What it is, for messages: "texture", "sheet", "tileset image", "palette", "sprite". */
  what: string;
  /** The path as the document or the user wrote it. */
  name: string;
  /** Where to look, in order, as paths for the loader (default: `name` alone). */
  candidates?: readonly string[];
  /** Added to the "not found" message ("give the folder with --images DIR"). */
  hint?: string;
}

/** How the loader names `p` to the user. */
export function describePath(resources: ResourceLoader, p: string): string {
  try {
    return resources.describe?.(p) ?? p;
  } catch {
    return p;
  }
}

/** The name as written; a user's path (made absolute by the command line) as the loader names it. */
function shownName(resources: ResourceLoader, req: ResourceRequest): string {
  return isAbsolutePath(req.name) ? describePath(resources, req.name) : req.name;
}

const FILE_ERRORS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'is a folder, not a file',
  ENOTDIR: 'a part of the path is not a folder',
  ENAMETOOLONG: 'the path is too long',
  ELOOP: 'too many symbolic links',
};

/** A file-system error in plain words (the error's own message otherwise). */
export function describeFileError(e: unknown): string {
  const err = e as { code?: unknown; message?: unknown };
  return (typeof err?.code === 'string' && FILE_ERRORS[err.code]) || (typeof err?.message === 'string' ? err.message : String(e));
}

/** The first candidate the loader has, or undefined. */
export async function findResource(resources: ResourceLoader, req: ResourceRequest): Promise<string | undefined> {
  for (const c of req.candidates ?? [req.name]) {
    try {
      if (await resources.exists(c)) return c;
    } catch {
      // A loader that cannot tell counts as "not there".
    }
  }
  return undefined;
}

function notFound(resources: ResourceLoader, req: ResourceRequest): FormatError {
  const places = [...new Set((req.candidates ?? [req.name]).map((c) => describePath(resources, c)))];
  return new FormatError(
    req.format,
    `${req.what} "${shownName(resources, req)}" not found (looked for ${places.join(', ')})${req.hint ? `; ${req.hint}` : ''}`,
  );
}

/**
 * For `FormatHandler.references`: the place each request is found at, asked
 * of the loader by existence only (nothing read or decoded), so a recording
 * loader records them. A request that cannot be made (it throws: an option
 * it needs is missing) or is found nowhere is left out.
 */
export async function foundResources(
  resources: ResourceLoader,
  requests: Iterable<ResourceRequest | Promise<ResourceRequest>>,
): Promise<string[]> {
  // Every promise is given its handler now: one that fails while an earlier one is awaited is never an unhandled rejection.
  const settled = [...requests].map((r) =>
    Promise.resolve(r).then(
      (req) => req,
      () => undefined,
    ),
  );
  const found: string[] = [];
  for (const r of settled) {
    const req = await r;
    if (req === undefined) continue;
    const p = await findResource(resources, req);
    if (p !== undefined && !found.includes(p)) found.push(p);
  }
  return found;
}

/**
 * Finds and loads a file: the first candidate that exists. Throws a
 * FormatError naming the path as written and every place searched when
 * none does, or why the one found cannot be read (a LimitError as it is).
 */
export async function loadResource(resources: ResourceLoader, req: ResourceRequest): Promise<{ path: string; bytes: Uint8Array }> {
  const candidates = req.candidates ?? [req.name];
  const found = await findResource(resources, req);
  // One place only and not there: reading it may tell why (a folder, say) better than "not found".
  const path = found ?? (candidates.length === 1 ? candidates[0]! : undefined);
  if (path === undefined) throw notFound(resources, req);
  try {
    return { path, bytes: await resources.load(path) };
  } catch (e) {
    if (e instanceof LimitError || isFormatError(e)) throw e;
    const code = (e as { code?: unknown })?.code;
    if (found === undefined && (code === 'ENOENT' || typeof code !== 'string')) throw notFound(resources, req);
    throw new FormatError(
      req.format,
      `${req.what} "${shownName(resources, req)}": cannot read ${describePath(resources, path)}: ${describeFileError(e)}`,
    );
  }
}

/**
 * Finds, loads and decodes an image (PNG or BMP, by content). The size in
 * its header is checked against `limits.maxPixels` (--max-pixels) first.
 */
export async function loadImage(
  resources: ResourceLoader,
  req: ResourceRequest,
  limits: Pick<Limits, 'maxPixels'> = DEFAULT_LIMITS,
): Promise<{ path: string; image: RgbaImage }> {
  const { path, bytes } = await loadResource(resources, req);
  try {
    return { path, image: decodeImage(bytes, describePath(resources, path), limits) };
  } catch (e) {
    if (isFormatError(e)) {
      const shown = shownName(resources, req);
      const place = describePath(resources, path);
      const at = e.offset !== undefined ? ` (at byte ${e.offset} of ${place})` : place !== shown ? ` (${place})` : '';
      throw new FormatError(req.format, `${req.what} "${shown}": ${e.reason}${at}`);
    }
    throw e;
  }
}

/** A cache of derived data: the decoded images of loaders made by `sharingImages`, by --max-pixels then place. */
const SHARED = new WeakMap<ResourceLoader, Map<number, Map<string, Promise<RgbaImage>>>>();

/**
 * `resources` as a new loader whose images every `imageCache` made from it
 * shares: each file is decoded once over several renders of one document
 * (the viewer's preview draws every animation of a sprite from one sheet).
 * A loader that already shares is returned as it is, so a caller that keeps
 * one (the static viewer, per document) keeps its decoded images across calls.
 */
export function sharingImages(resources: ResourceLoader): ResourceLoader {
  if (SHARED.has(resources)) return resources;
  const shared: ResourceLoader = {
    load: (p) => resources.load(p),
    exists: (p) => resources.exists(p),
    ...(resources.describe ? { describe: (p: string) => resources.describe!(p) } : {}),
  };
  SHARED.set(shared, new Map());
  return shared;
}

/**
 * A loader of images for one command: each file is read and decoded once
 * (keyed by the place found). The limits come from `options` (--max-*).
 */
export function imageCache(resources: ResourceLoader, options?: CommandOptions) {
  const limits = limitsFrom(options);
  const shared = SHARED.get(resources);
  const byPath = shared
    ? (shared.get(limits.maxPixels) ?? shared.set(limits.maxPixels, new Map()).get(limits.maxPixels)!)
    : new Map<string, Promise<RgbaImage>>();
  return async (req: ResourceRequest): Promise<{ path: string; image: RgbaImage }> => {
    const candidates = req.candidates ?? [req.name];
    // As loadResource: one place only is read even when missing, to tell why.
    const path = (await findResource(resources, req)) ?? (candidates.length === 1 ? candidates[0] : undefined);
    if (path === undefined) throw notFound(resources, req);
    let p = byPath.get(path);
    if (!p) {
      p = loadImage(resources, { ...req, candidates: [path] }, limits).then((r) => r.image);
      byPath.set(path, p);
    }
    return { path, image: await p };
  };
}

/** How many folders `questRoot` climbs at most. */
const MAX_CLIMB = 32;

/**
 * The quest's data folder, as a prefix of `../` relative to the sprite's
 * folder ("" when it is the sprite's own folder): the nearest folder, from
 * the sprite's own upwards, that holds `quest.dat` or a `sprites/` folder,
 * as the Solarus engine finds it. Undefined when none does. With `from`, the
 * walk starts in that folder instead (the prefix is then relative to it).
 */
export async function questRoot(resources: ResourceLoader, from = ''): Promise<string | undefined> {
  const has = async (p: string) => {
    try {
      return await resources.exists(p);
    } catch {
      return false;
    }
  };
  let prefix = '';
  for (let up = 0; up <= MAX_CLIMB; up++, prefix += '../') {
    const at = (name: string) => (from === '' ? prefix + name : `${joinPath(from, prefix + name)}${name.endsWith('/') ? '/' : ''}`);
    if ((await has(at('quest.dat'))) || (await has(at('sprites/')))) return prefix;
  }
  return undefined;
}

/**
 * The files a render draws from that cannot be had (missing, unreadable, not
 * an image; an animation drawn from the map's tileset without --tileset):
 * `render` draws the rest (every format the same way, as Tiled's
 * tmxrasterizer draws a map with a missing image), and names each such file
 * once as a warning (`Picture.warnings`), however many parts use it. With
 * --strict (`options.strict`) the first is the error, as `check` reports it.
 * A LimitError (a --max-* budget) and anything but a FormatError or
 * OptionError is never caught.
 */
export class MissingFiles {
  readonly strict: boolean;
  /** The error of each file (by key), in the order met, and what each left out. */
  readonly #missing = new Map<string, { error: Error; left: string[] }>();

  constructor(options?: CommandOptions) {
    this.strict = options?.strict === true;
  }

  /**
   * What `load()` gives, or undefined when it fails for want of its file
   * (recorded under `key`, default the error's message, once); `left` says
   * what is not drawn without it ("animation \"walking\"").
   */
  async attempt<T>(load: () => Promise<T>, left?: string, key?: string): Promise<T | undefined> {
    try {
      return await load();
    } catch (e) {
      if (this.strict || e instanceof LimitError || !(isFormatError(e) || e instanceof OptionError)) throw e;
      const k = key ?? e.message;
      let m = this.#missing.get(k);
      if (!m) this.#missing.set(k, (m = { error: e, left: [] }));
      if (left !== undefined && !m.left.includes(left)) m.left.push(left);
      return undefined;
    }
  }

  /** Nothing recorded yet. */
  get empty(): boolean {
    return this.#missing.size === 0;
  }

  /** The first file's error, for "nothing of it can be drawn" (undefined when none is missing). */
  get firstError(): Error | undefined {
    return this.#missing.values().next().value?.error;
  }

  /** One line per file: its error's message and what was left out. */
  get warnings(): string[] {
    return [...this.#missing.values()].map(({ error, left }) => `${error.message}${left.length ? `; not drawn: ${left.join(', ')}` : ''}`);
  }

  /** `picture` with the warnings added (once each). */
  mark(picture: Picture): Picture {
    const w = this.warnings;
    if (w.length) picture.warnings = [...new Set([...(picture.warnings ?? []), ...w])];
    return picture;
  }
}
