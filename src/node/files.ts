/**
 * Finding the files a command works on: the places the user named (files,
 * folders walked, globs expanded by sprat itself, the same on every system),
 * in a stable order. Which of them are sprite or level files is decided by
 * the reader (src/check.ts checkFormatOf), not here.
 */
import type { Dirent } from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { describeFileError } from '../formats/resources.js';

/** Folders a walk never enters. */
export const SKIPPED_FOLDERS = new Set(['node_modules', '.git']);

export interface FoundFile {
  /** The path as the user would write it (the place named, then the names below it). */
  shown: string;
  abs: string;
  /** Named by the user (not found by a walk or a glob): a file of no known format is an error, not skipped. */
  named: boolean;
  /** Its path below the folder it was found from (a walked folder, a glob's fixed part; its own name when named). */
  rel: string;
  /**
   * Set for a folder of the walk that could not be read (no permission, a
   * path too long): why, in plain words. It is one problem of the command's
   * (`FOLDER: error: permission denied`); the walk went on past it.
   */
  unreadable?: string;
}

export interface WalkOptions {
  /** Absolute folders a walk does not enter below the place named (a batch's output folder). */
  skip?: ReadonlySet<string>;
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * The files under `place` (relative to `cwd`, or absolute), in name order:
 * folders walked (not node_modules, .git, symbolic links or special files).
 * A place that is a file is yielded as named. Throws the file system's
 * error for a place that does not exist. A folder below it that cannot be
 * read (no permission, a path too long) is yielded with `unreadable` set and
 * the walk goes on.
 */
export async function* walkFiles(cwd: string, place: string, options: WalkOptions = {}): AsyncGenerator<FoundFile> {
  const abs = path.resolve(cwd, place);
  const st = await fsp.stat(abs);
  if (!st.isDirectory()) {
    yield { shown: place, abs, named: true, rel: path.basename(place) };
    return;
  }
  yield* walkFolder(place, abs, '', options);
}

/** The entries of one folder, in name order, or why it cannot be read. */
async function readFolder(abs: string): Promise<Dirent[] | string> {
  try {
    return (await fsp.readdir(abs, { withFileTypes: true })).sort(byName);
  } catch (e) {
    return describeFileError(e);
  }
}

/**
 * The walk below one folder, depth first in name order, with a stack of the
 * folders open (no recursion: a tree thousands of folders deep is walked as
 * any other, its too-long paths reported as unreadable folders).
 */
async function* walkFolder(shownDir: string, absDir: string, relDir: string, options: WalkOptions): AsyncGenerator<FoundFile> {
  const top = await readFolder(absDir);
  if (typeof top === 'string') {
    yield { shown: shownDir, abs: absDir, named: false, rel: relDir, unreadable: top };
    return;
  }
  const stack: { entries: Dirent[]; at: number; shown: string; abs: string; rel: string }[] = [
    { entries: top, at: 0, shown: shownDir, abs: absDir, rel: relDir },
  ];
  while (stack.length) {
    const f = stack[stack.length - 1]!;
    if (f.at === f.entries.length) {
      stack.pop();
      continue;
    }
    const e = f.entries[f.at++]!;
    const shown = path.join(f.shown, e.name);
    const abs = f.abs + (f.abs.endsWith(path.sep) ? '' : path.sep) + e.name;
    const rel = f.rel ? f.rel + path.sep + e.name : e.name;
    if (e.isDirectory()) {
      if (SKIPPED_FOLDERS.has(e.name) || options.skip?.has(abs)) continue;
      const entries = await readFolder(abs);
      if (typeof entries === 'string') yield { shown, abs, named: false, rel, unreadable: entries };
      else stack.push({ entries, at: 0, shown, abs, rel });
    } else if (e.isFile()) {
      yield { shown, abs, named: false, rel };
    }
    // symbolic links and special files are left alone
  }
}

/** Whether a place is a glob pattern (`*`, `?`, `[...]`, `{a,b}`) rather than a path. */
export function isGlob(place: string): boolean {
  return /[*?[{]/.test(place);
}

type GlobNode =
  | { t: 'char'; test: (c: number) => boolean }
  | { t: 'seq'; items: GlobNode[] }
  | { t: 'alt'; alts: GlobNode[] }
  | { t: 'repeat'; node: GlobNode };

const SLASH = 0x2f;
const notSlash = (c: number) => c !== SLASH;
const anyChar: GlobNode = { t: 'char', test: () => true };
const nameChars: GlobNode = { t: 'repeat', node: { t: 'char', test: notSlash } };

/** A `[...]` class's body (after `!`/`^`): its characters and `a-z` ranges. */
function classTest(body: string, negate: boolean): (c: number) => boolean {
  const ranges: [number, number][] = [];
  for (let i = 0; i < body.length; i++) {
    if (body[i + 1] === '-' && i + 2 < body.length) {
      ranges.push([body.charCodeAt(i), body.charCodeAt(i + 2)]);
      i += 2;
    } else ranges.push([body.charCodeAt(i), body.charCodeAt(i)]);
  }
  const inside = (c: number) => ranges.some(([lo, hi]) => c >= lo && c <= hi);
  return negate ? (c) => c !== SLASH && !inside(c) : inside;
}

/**
 * A glob's syntax tree: `*` any name part, `?` one character, `**` any
 * number of folders, `[abc]` / `[!a-z]` a class, `{a,b}` alternatives.
 * Wildcards never match a `/`.
 */
function parseGlob(pattern: string): GlobNode {
  // `**/**` is `**`
  const glob = pattern.replace(/(^|\/)\*\*(?:\/\*\*)+(?=\/|$)/g, '$1**');
  // The open groups: each a list of alternatives, each a sequence.
  const groups: GlobNode[][][] = [[[]]];
  const seq = () => {
    const g = groups[groups.length - 1]!;
    return g[g.length - 1]!;
  };
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const atStart = i === 0 || glob[i - 1] === '/';
        const atEnd = i + 2 === glob.length || glob[i + 2] === '/';
        if (atStart && atEnd) {
          if (glob[i + 2] === '/') {
            seq().push({ t: 'repeat', node: { t: 'seq', items: [nameChars, { t: 'char', test: (x) => x === SLASH }] } });
            i += 2;
          } else {
            seq().push({ t: 'repeat', node: anyChar });
            i += 1;
          }
          continue;
        }
        i += 1; // `a**b` is `a*b`
      }
      seq().push(nameChars);
    } else if (c === '?') seq().push({ t: 'char', test: notSlash });
    else if (c === '[' && glob.indexOf(']', i + 2) >= 0) {
      const close = glob.indexOf(']', i + 2);
      let body = glob.slice(i + 1, close);
      const negate = body.startsWith('!') || body.startsWith('^');
      if (negate) body = body.slice(1);
      seq().push({ t: 'char', test: classTest(body, negate) });
      i = close;
    } else if (c === '{') groups.push([[]]);
    else if (c === '}' && groups.length > 1) {
      const alts = groups.pop()!;
      seq().push({ t: 'alt', alts: alts.map((items) => ({ t: 'seq', items })) });
    } else if (c === ',' && groups.length > 1) groups[groups.length - 1]!.push([]);
    else {
      const code = glob.charCodeAt(i);
      seq().push({ t: 'char', test: (x) => x === code });
    }
  }
  // Braces left open close at the end.
  while (groups.length > 1) {
    const alts = groups.pop()!;
    seq().push({ t: 'alt', alts: alts.map((items) => ({ t: 'seq', items })) });
  }
  return { t: 'alt', alts: groups[0]!.map((items) => ({ t: 'seq', items })) };
}

/** A state of the matcher: one character (`test`, then `next`), or a choice of states taken without one. */
interface GlobState {
  test?: (c: number) => boolean;
  next: number[];
}

/**
 * A glob as a matcher of whole `/`-separated paths (the syntax of
 * parseGlob). The glob is compiled to a nondeterministic automaton
 * (Thompson's construction) and a path is run through all its states at
 * once: time linear in the path's length times the glob's, with no
 * backtracking (`*a*a*a*a*b` against a long name is as fast as `*b`).
 * `below(folder)`: whether any path below the folder could match.
 */
export function globMatcher(pattern: string): { (path: string): boolean; below(folder: string): boolean } {
  const states: GlobState[] = [];
  const MATCH = -2;
  const add = (s: GlobState) => states.push(s) - 1;
  // Builds `node` so that it goes on to `then`; returns its first state.
  const build = (node: GlobNode, then: number): number => {
    switch (node.t) {
      case 'char':
        return add({ test: node.test, next: [then] });
      case 'seq': {
        let at = then;
        for (let i = node.items.length - 1; i >= 0; i--) at = build(node.items[i]!, at);
        return at;
      }
      case 'alt':
        return add({ next: node.alts.map((a) => build(a, then)) });
      case 'repeat': {
        const loop = add({ next: [] });
        states[loop]!.next.push(build(node.node, loop), then);
        return loop;
      }
    }
  };
  const start = build(parseGlob(pattern), MATCH);
  const mark = new Int32Array(states.length).fill(-1);
  // The states reachable from `s` without a character, with a character test (or the match), into `into`.
  const close = (s: number, gen: number, into: number[]): boolean => {
    let matched = false;
    const stack = [s];
    while (stack.length) {
      const x = stack.pop()!;
      if (x === MATCH) {
        matched = true;
        continue;
      }
      if (mark[x] === gen) continue;
      mark[x] = gen;
      const st = states[x]!;
      if (st.test) into.push(x);
      else for (let k = st.next.length - 1; k >= 0; k--) stack.push(st.next[k]!);
    }
    return matched;
  };
  let gen = 0;
  const run = (path: string): { live: boolean; matched: boolean } => {
    let current: number[] = [];
    let matched = close(start, ++gen, current);
    for (let i = 0; i < path.length; i++) {
      if (!current.length) return { live: false, matched: false };
      const c = path.charCodeAt(i);
      const next: number[] = [];
      gen++;
      matched = false;
      for (const x of current) if (states[x]!.test!(c) && close(states[x]!.next[0]!, gen, next)) matched = true;
      current = next;
    }
    return { live: current.length > 0, matched };
  };
  const matches = (path: string) => run(path).matched;
  // Whether some path below folder `path` could match: the automaton is still running after `path/`.
  matches.below = (path: string) => run(`${path}/`).live;
  return matches;
}

/** The folder a glob's matches lie under: its leading parts without wildcards ('.' when none). */
export function globBase(glob: string): string {
  const parts = glob.split('/');
  const fixed: string[] = [];
  for (const p of parts.slice(0, -1)) {
    if (isGlob(p)) break;
    fixed.push(p);
  }
  if (fixed.length === 1 && fixed[0] === '') return '/';
  return fixed.length ? fixed.join('/') : '.';
}

/**
 * The files matching a glob (relative to `cwd`, or absolute), walked from its
 * fixed part, in name order; [] when none match or its folder does not exist.
 * `rel` is the path below the fixed part, so a batch mirrors the tree below it.
 */
export async function globFiles(cwd: string, glob: string, options: WalkOptions = {}): Promise<FoundFile[]> {
  const pattern = path.posix.normalize(glob.replace(/\\/g, '/'));
  const base = globBase(pattern);
  const matches = globMatcher(pattern);
  const out: FoundFile[] = [];
  try {
    const st = await fsp.stat(path.resolve(cwd, base));
    if (!st.isDirectory()) return out;
  } catch {
    return out;
  }
  for await (const f of walkFolder(base, path.resolve(cwd, base), '', options)) {
    const posix = f.shown.split(path.sep).join('/');
    const candidate = base === '.' ? posix.replace(/^\.\//, '') : posix;
    // A folder that could not be read is reported when it could hold matches (`a/*.dat` cannot below `a/b/`).
    if (f.unreadable !== undefined ? f.rel === '' || matches.below(candidate) : matches(candidate)) out.push({ ...f, shown: candidate });
  }
  return out;
}

/** A place that names nothing (the file system's error, or a glob matching no file): the command line is wrong (exit 2). */
export class PlaceError extends Error {
  constructor(
    readonly place: string,
    readonly fsError?: unknown,
  ) {
    super(fsError ? `${place}: ${(fsError as Error).message}` : `${place}: no file matches`);
  }
}

/**
 * Every file under the places named, each once, in order: a file as named, a
 * folder walked, a glob expanded (a place that exists is taken as a path
 * even if it has glob characters). A place that does not exist, or a glob
 * matching no file, is a PlaceError.
 */
export async function findFiles(cwd: string, places: readonly string[], options: WalkOptions = {}): Promise<FoundFile[]> {
  const out: FoundFile[] = [];
  /** Where each file is in `out`: a file found twice is kept once, as named when either place names it. */
  const seen = new Map<string, number>();
  const add = (f: FoundFile) => {
    const at = seen.get(f.abs);
    if (at !== undefined) {
      if (f.named && !out[at]!.named) out[at] = { ...out[at]!, named: true };
      return;
    }
    seen.set(f.abs, out.length);
    out.push(f);
  };
  for (const place of places) {
    let exists = true;
    try {
      await fsp.stat(path.resolve(cwd, place));
    } catch (e) {
      if (!isGlob(place)) throw new PlaceError(place, e);
      exists = false;
    }
    if (exists) {
      for await (const f of walkFiles(cwd, place, options)) add(f);
      continue;
    }
    const found = await globFiles(cwd, place, options);
    if (!found.length) throw new PlaceError(place);
    for (const f of found) add(f);
  }
  return out;
}
