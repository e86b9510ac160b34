/**
 * Where the viewer's files come from: one `FileSource` the page lists and
 * reads, whatever the place. Two kinds:
 *
 * - `serverSource`: the files `sprat view` serves (src/node/server.ts), over
 *   HTTP from the page's own origin;
 * - `localSource`: files the user gives the page itself, read in the browser
 *   and sent nowhere (the static site, docs/site.md): a folder (the File
 *   System Access directory picker, an `input[webkitdirectory]`, a dropped
 *   folder) or loose files (the file input, a drop).
 *
 * A folder's list is what `sprat check` reads there (src/check.ts
 * `checkFormatOf`), each named by its path relative to the folder, and its
 * documents' references resolve inside that folder only (`folderLoader`).
 */
import { checkReads } from '../src/check.js';
import { DEFAULT_LIMITS } from '../src/binary/limits.js';
import type { CommandOptions, ResourceLoader } from '../src/formats/types.js';
import { droppedLoader, folderLoader, normalise, serverLoader } from './loaders.js';

export interface SourceFile {
  /** What the list shows: the path relative to the opened folder (or as the server names it), else the file's name. */
  name: string;
  read(): Promise<Uint8Array>;
  /** Resources relative to this file. */
  resources: ResourceLoader;
  /** PNG files the page may offer as recolour palettes (CTHG `--recolour`) or tile images (`--tileset`), relative to the file. */
  palettes(): Promise<string[]>;
  /** A served file: the resource options given on the command line for it (`sprat view level.bytes --tileset ...`), paths relative to it. */
  given?: () => Promise<CommandOptions>;
  /** A served file: the signature of its files on disk (it and its references), which changes when one of them does. */
  version?: () => Promise<string | null>;
  /** A file of an opened folder: `sprat check` reads it (the page checks it as `sprat check` run in that folder does). */
  checked?: boolean;
  /**
   * A file `sprat view --edit` serves: writes `bytes` over it, in place, if it
   * is still the file read at `version`; the new version. Absent elsewhere
   * (the static site, a server without --edit): edits are downloaded.
   */
  save?: (bytes: Uint8Array, version: string | null | undefined) => Promise<string | null>;
}

export interface FileSource {
  /** The files to list (null: there is no such place, e.g. no server behind a static page) and a line about them. */
  list(): Promise<{ files: SourceFile[]; note?: string } | null>;
}

/** The files `sprat view` serves (`api/files`, `files/N/...`), asked of the page's own origin. */
export function serverSource(fetchFn: typeof fetch = (...a) => fetch(...a)): FileSource {
  return {
    async list() {
      const r = await fetchFn('api/files').catch(() => null);
      if (!r?.ok) return null;
      const list = (await r.json()) as { id: number; name: string; save?: boolean }[];
      const note = r.headers.get('x-sprat-note');
      const json = async <T>(url: string, none: T): Promise<T> => {
        const x = await fetchFn(url);
        return x.ok ? ((await x.json()) as T) : none;
      };
      return {
        note: note ? decodeURIComponent(note) : undefined,
        files: list.map((item) => ({
          name: item.name,
          read: async () => {
            const b = await fetchFn(`files/${item.id}`);
            if (!b.ok) throw new Error(`${b.status} ${b.statusText}`);
            return new Uint8Array(await b.arrayBuffer());
          },
          resources: serverLoader(item.id, fetchFn),
          palettes: () => json<string[]>(`files/${item.id}/palettes`, []),
          given: () => json<CommandOptions>(`files/${item.id}/options`, {}),
          version: async () => {
            const v = await json<{ version?: unknown } | null>(`files/${item.id}/version`, null);
            return v ? String(v.version) : null;
          },
          ...(item.save
            ? {
                save: async (bytes: Uint8Array, version: string | null | undefined) => {
                  const x = await fetchFn(`files/${item.id}`, {
                    method: 'PUT',
                    body: new Uint8Array(bytes),
                    headers: { 'content-type': 'application/octet-stream', 'x-sprat-version': version ?? '' },
                  });
                  // The server says why it wrote nothing in one line.
                  if (!x.ok) throw new Error((await x.text().catch(() => '')) || `${x.status} ${x.statusText}`);
                  const v = ((await x.json()) as { version?: unknown }).version;
                  return typeof v === 'string' ? v : null;
                },
              }
            : {}),
        })),
      };
    },
  };
}

/** One file the user gave the page: its path (relative to the opened folder, `/`-separated; a bare name for a loose file). */
export interface LocalEntry {
  path: string;
  file(): Promise<File>;
}

/** Folders a walk never enters (src/node/files.ts). */
const SKIPPED_FOLDERS = new Set(['node_modules', '.git']);

/** The order a walk finds files in (src/node/files.ts): folder by folder, each one's entries by name. */
function walkOrder(a: string, b: string): number {
  const x = a.split('/');
  const y = b.split('/');
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  return x.length - y.length;
}

/** Reads a local file, at most `--max-file-bytes` (the default) long. */
async function readLocal(entry: LocalEntry): Promise<Uint8Array> {
  const f = await entry.file();
  if (f.size > DEFAULT_LIMITS.maxFileBytes) throw new Error(`${entry.path}: larger than ${DEFAULT_LIMITS.maxFileBytes} bytes`);
  return new Uint8Array(await f.arrayBuffer());
}

/**
 * Files the user gave the page. `folder`: they are one opened folder's
 * files (paths relative to it): the list is what `sprat check` reads, and
 * references resolve in the folder. Else loose files (added to those given
 * before, `earlier`, so that documents opened earlier keep their sheets):
 * every file but pictures is listed, and references are found among all of
 * them by path or base name (droppedLoader).
 */
export function localSource(entries: readonly LocalEntry[], folder: boolean, earlier?: Map<string, Uint8Array>): FileSource {
  return {
    async list() {
      if (folder) {
        const byPath = new Map(entries.map((e) => [e.path, e] as const));
        const cache = new Map<string, Promise<Uint8Array>>();
        const read = (p: string) => {
          const e = byPath.get(p);
          if (!e) return Promise.reject(Object.assign(new Error(`${p}: no such file`), { code: 'ENOENT' }));
          if (!cache.has(p)) cache.set(p, readLocal(e));
          return cache.get(p)!;
        };
        const paths = [...byPath.keys()].sort(walkOrder);
        const files: SourceFile[] = [];
        for (const p of paths) {
          const bytes = await read(p).catch(() => null);
          if (!bytes || !checkReads(bytes, p)) continue;
          files.push({
            name: p,
            read: () => read(p),
            resources: folderLoader(paths, read, p),
            palettes: async () => {
              const dir = p.replace(/(^|\/)[^/]*$/, '');
              return paths
                .filter((k) => /\.png$/i.test(k) && k.replace(/(^|\/)[^/]*$/, '') === dir)
                .map((k) => k.slice(dir ? dir.length + 1 : 0))
                .sort();
            },
            checked: true,
          });
        }
        return { files };
      }
      const dropped = new Map(earlier);
      for (const e of entries) {
        const bytes = await readLocal(e);
        dropped.set(normalise(e.path), bytes);
        dropped.set(e.path.replace(/^.*\//, ''), bytes);
      }
      if (earlier) for (const [k, v] of dropped) earlier.set(k, v);
      const files: SourceFile[] = [];
      for (const e of entries) {
        if (/\.(png|bmp|gif|jpe?g)$/i.test(e.path)) continue;
        const name = e.path.replace(/^.*\//, '');
        const bytes = dropped.get(name)!;
        files.push({
          name,
          read: async () => bytes,
          resources: droppedLoader(dropped, normalise(e.path)),
          palettes: async () => [...new Set([...dropped.keys()].filter((k) => /\.png$/i.test(k) && !k.includes('/')))].sort(),
        });
      }
      return { files };
    },
  };
}

/** The files of an `input[webkitdirectory]` choice, by path relative to the chosen folder (its own name dropped). */
export function entriesOfFolderInput(list: FileList | readonly File[]): LocalEntry[] {
  const out: LocalEntry[] = [];
  for (const f of list) {
    const rel = normalise(f.webkitRelativePath || f.name);
    const inside = rel.includes('/') ? rel.slice(rel.indexOf('/') + 1) : rel;
    if (inside.split('/').some((s) => SKIPPED_FOLDERS.has(s))) continue;
    out.push({ path: inside, file: async () => f });
  }
  return out;
}

/** Loose files (a file input, a drop of files): by name. */
export function entriesOfFiles(list: FileList | readonly File[]): LocalEntry[] {
  return [...list].map((f) => ({ path: normalise(f.webkitRelativePath || f.name), file: async () => f }));
}

/** The parts of the File System Access API the page uses (not in every browser, nor in TypeScript's DOM types yet). */
interface DirHandle {
  kind: 'directory';
  name: string;
  values(): AsyncIterable<DirHandle | { kind: 'file'; name: string; getFile(): Promise<File> }>;
}

/** Whether the browser has the directory picker (`showDirectoryPicker`: Chromium-based browsers). */
export function haveDirectoryPicker(): boolean {
  return typeof (globalThis as { showDirectoryPicker?: unknown }).showDirectoryPicker === 'function';
}

/** Asks the user for a folder with the directory picker; null when they cancel. */
export async function pickDirectory(): Promise<LocalEntry[] | null> {
  const pick = (globalThis as unknown as { showDirectoryPicker(o?: object): Promise<DirHandle> }).showDirectoryPicker;
  let dir: DirHandle;
  try {
    dir = await pick({ mode: 'read' });
  } catch (e) {
    if ((e as Error).name === 'AbortError') return null;
    throw e;
  }
  return entriesOfHandle(dir);
}

/** Every file under a directory handle, by path relative to it (node_modules and .git skipped). */
export async function entriesOfHandle(dir: DirHandle, prefix = ''): Promise<LocalEntry[]> {
  const out: LocalEntry[] = [];
  for await (const h of dir.values()) {
    const p = prefix + h.name;
    if (h.kind === 'directory') {
      if (!SKIPPED_FOLDERS.has(h.name)) out.push(...(await entriesOfHandle(h, `${p}/`)));
    } else out.push({ path: p, file: () => h.getFile() });
  }
  return out;
}

/** The old File and Directory Entries API a drop gives (every browser): what the page reads of it. */
interface Entry {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  file?(ok: (f: File) => void, fail: (e: unknown) => void): void;
  createReader?(): { readEntries(ok: (es: Entry[]) => void, fail: (e: unknown) => void): void };
}

async function entriesOfEntry(dir: Entry, prefix: string): Promise<LocalEntry[]> {
  const out: LocalEntry[] = [];
  const reader = dir.createReader!();
  for (;;) {
    // readEntries answers in batches until an empty one.
    const batch = await new Promise<Entry[]>((ok, fail) => reader.readEntries(ok, fail));
    if (!batch.length) return out;
    for (const e of batch) {
      const p = prefix + e.name;
      if (e.isDirectory) {
        if (!SKIPPED_FOLDERS.has(e.name)) out.push(...(await entriesOfEntry(e, `${p}/`)));
      } else if (e.isFile) out.push({ path: p, file: () => new Promise<File>((ok, fail) => e.file!(ok, fail)) });
    }
  }
}

/**
 * What a drop holds: one folder dropped alone is opened as a folder (its
 * files by path relative to it); else the files dropped, loose.
 */
export async function entriesOfDrop(data: DataTransfer): Promise<{ entries: LocalEntry[]; folder: boolean }> {
  const items = [...data.items].filter((i) => i.kind === 'file');
  const asEntries = items.map((i) => (i as DataTransferItem & { webkitGetAsEntry?(): Entry | null }).webkitGetAsEntry?.() ?? null);
  if (asEntries.length === 1 && asEntries[0]?.isDirectory) return { entries: await entriesOfEntry(asEntries[0], ''), folder: true };
  return { entries: entriesOfFiles(data.files), folder: false };
}
