/**
 * The viewer's ResourceLoaders (the interface of src/formats/types.ts, as
 * the command line's fsResourceLoader implements it): files dropped or
 * opened in the page, and files the local server hands out. Errors carry
 * `code` 'ENOENT' when the file is not there, as the resource layer
 * (src/formats/resources.ts) expects.
 */
import { isAbsolutePath, joinPath } from '../src/formats/resources.js';
import type { ResourceLoader } from '../src/formats/types.js';

/** A path with `.` and `..` resolved and `\` as `/` (no leading `/`; `..` past the top is dropped). */
export function normalise(path: string): string {
  const out: string[] = [];
  for (const seg of path.replace(/\\/g, '/').split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return out.join('/');
}

/** An error as the resource layer reads it: `code` ENOENT when the file is not there. */
function loadError(message: string, missing: boolean): Error {
  return Object.assign(new Error(message), missing ? { code: 'ENOENT' } : {});
}

/**
 * Dropped or opened files, keyed by their path in the drop (a folder's
 * relative path, else the bare name). A path the document names is looked
 * up relative to the document's own path (`docPath`), then by base name
 * (a browser may flatten the folders). With a trailing `/` it asks for a
 * folder: one when some dropped file lies in it.
 */
export function droppedLoader(files: ReadonlyMap<string, Uint8Array>, docPath = ''): ResourceLoader {
  const dir = normalise(docPath).replace(/(^|\/)[^/]*$/, '');
  const at = (p: string) => normalise(dir ? `${dir}/${p}` : p);
  const find = (p: string) => files.get(at(p)) ?? files.get(at(p).replace(/^.*\//, ''));
  return {
    async load(p) {
      const b = find(p);
      if (!b) throw loadError(`${p} was not among the opened files: open it together with the document`, true);
      return b;
    },
    async exists(p) {
      if (/[\\/]$/.test(p)) {
        const d = at(p);
        return d !== '' && [...files.keys()].some((k) => k.startsWith(d + '/'));
      }
      return find(p) !== undefined;
    },
    describe: at,
  };
}

/** Files the local server hands out for document `id` (it checks each is a regular file it may serve). */
export function serverLoader(id: number, fetchFn: typeof fetch = (...a) => fetch(...a)): ResourceLoader {
  // The path as the document names it, as one URL segment (dots escaped too, so no `..` is resolved on the way).
  const url = (p: string) => `files/${id}/res/${encodeURIComponent(p).replace(/\./g, '%2E')}`;
  return {
    async load(p) {
      const r = await fetchFn(url(p));
      if (!r.ok) throw loadError(`${p}: ${r.status} ${r.statusText}`, r.status === 404);
      return new Uint8Array(await r.arrayBuffer());
    },
    async exists(p) {
      try {
        // The server answers 200 either way (no 404 in the console for a candidate that is not there).
        const r = await fetchFn(`files/${id}/exists/${encodeURIComponent(p).replace(/\./g, '%2E')}`);
        return r.ok && ((await r.json()) as { exists?: unknown }).exists === true;
      } catch {
        return false;
      }
    },
  };
}

/**
 * The files of an opened folder (`paths`, relative to it), for the document
 * at `docPath`: a path it names is relative to the document's folder, as the
 * command line's loader takes it (src/node/fs.ts), and must lie inside the
 * opened folder (anything else is not there); no base-name guessing, so that
 * what is found is what `sprat check` run in that folder finds. `describe`
 * names a path relative to the opened folder, as `sprat check` run there does.
 * With a trailing `/` it asks for a folder: one when some file lies in it.
 */
export function folderLoader(paths: readonly string[], read: (p: string) => Promise<Uint8Array>, docPath: string): ResourceLoader {
  const dir = docPath.replace(/(^|\/)[^/]*$/, '');
  const files = new Set(paths);
  const at = (p: string) => joinPath(dir, p);
  const inside = (p: string) => !isAbsolutePath(p) && p !== '..' && !p.startsWith('../');
  return {
    async load(p) {
      const where = at(p);
      if (!inside(where) || !files.has(where)) throw loadError(`${where}: no such file in the opened folder`, true);
      return read(where);
    },
    async exists(p) {
      const where = at(p);
      if (!inside(where)) return false;
      if (/[\\/]$/.test(p)) {
        const d = where.replace(/\/$/, '');
        return d === '' || paths.some((k) => k.startsWith(`${d}/`));
      }
      return files.has(where);
    },
    describe: (p) => at(p) || '.',
  };
}

/**
 * `inner` with its `exists` answers kept: one document's pictures are drawn
 * again and again (an option changed, an edit), each time probing the same
 * candidate places (a Solarus quest's `quest.dat` and `sprites/` for every
 * animation); asked once each. A file that changes on disk is shown again
 * with a new loader.
 */
export function keptAnswers(inner: ResourceLoader): ResourceLoader {
  const answers = new Map<string, Promise<boolean>>();
  return {
    load: (p) => inner.load(p),
    exists(p) {
      let a = answers.get(p);
      if (!a) answers.set(p, (a = inner.exists(p)));
      return a;
    },
    ...(inner.describe ? { describe: (p: string) => inner.describe!(p) } : {}),
  };
}
