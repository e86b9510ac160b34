import { printable } from '../binary/errors.js';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { load, type Loaded } from '../api.js';
import { plainJson } from '../binary/json-array.js';
import { limitsFrom, budgetFrom, type Budget } from '../binary/limits.js';
import { checkFormatOf } from '../check.js';
import { extensionOf, formatsForExtension } from '../detect.js';
import { FORMATS } from '../registry.js';
import { changeText, diffDocuments, pixelDiff, playbackModel, textForm, type DiffChange, type FrameDiff } from '../diff.js';
import {
  comparePlaybackSummaries,
  playbackChangeJson,
  playbackChangeText,
  playbackOf,
  type PlaybackChange,
  type PlaybackSummary,
} from '../model/playback.js';
import type { CommandOptions, OptionSpec } from '../formats/types.js';
import { recordingLoader, readFileBytes, type WriteTarget } from '../node/fs.js';
import { walkFiles } from '../node/files.js';
import { encodePng } from '../render/png.js';
import { parseArgs, UsageError, stringOption } from './args.js';
import { FORMAT_OPTION, allOptions, checkFormatNames, rejectForeignOptions, resolveUserPaths, type Command } from './command.js';
import { describeFsError, EXIT_INTERNAL, readInput, reportError, resolvePath, resourcesFor, type Io } from './io.js';
import { jsonChunks } from '../binary/json-chunks.js';
import { OVERWRITE_OPTION, writeOutputs } from './write.js';

const RENDER_OPTION: OptionSpec = {
  name: 'render',
  type: 'string',
  value: 'OUT_DIR',
  description: 'write a PNG for each frame whose pixels changed (A, B and the changed pixels side by side) into OUT_DIR',
};
const OPTIONS: OptionSpec[] = [
  { name: 'json', type: 'flag', description: 'print the changes as one JSON report' },
  { name: 'exit-code', type: 'flag', description: 'exit 1 when the documents differ, as git diff --exit-code does (default: 0)' },
  RENDER_OPTION,
  {
    ...OVERWRITE_OPTION,
    description: 'let --render replace files that exist in OUT_DIR (never A, B or a file they use)',
  },
  {
    name: 'playback',
    type: 'flag',
    description:
      'compare what plays, for files of any two sprite formats: per animation and direction the frames drawn from the origin, their durations and the loop',
  },
  { name: 'textconv', type: 'flag', description: "print one FILE's stable text form (for git's diff.sprat.textconv)" },
  {
    name: 'git-driver',
    type: 'flag',
    description: "run as git's external diff driver (GIT_EXTERNAL_DIFF, diff.sprat.command): its 7 arguments",
  },
  FORMAT_OPTION,
];

/**
 * The files under a folder, walked as every command walks (src/node/files.ts:
 * not node_modules, .git or symbolic links), as sorted relative paths with
 * `/`; and the folders below it that could not be read, with why.
 */
async function listFiles(root: string): Promise<{ files: string[]; unreadable: [string, string][] }> {
  const files: string[] = [];
  const unreadable: [string, string][] = [];
  for await (const f of walkFiles(root, root)) {
    const rel = f.rel.split(path.sep).join('/');
    if (f.unreadable !== undefined) unreadable.push([rel, f.unreadable]);
    else files.push(rel);
  }
  return { files, unreadable };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A rendered frame's file name: the picture's label made safe, then the frame. */
function frameFileName(f: FrameDiff, taken: Set<string>): string {
  const base = `${f.view.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+|_+$/g, '') || 'picture'}-frame-${f.frame}`;
  let name = `${base}.png`;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}.png`;
  taken.add(name);
  return name;
}

/** One pair of files compared. */
interface PairResult {
  path?: string;
  status: 'same' | 'changed' | 'added' | 'removed' | 'error';
  format?: string;
  changes?: DiffChange[];
  /** With --playback: how B plays differently (src/model/playback.ts). */
  playback?: PlaybackChange[];
  /** With --playback: each file's format. */
  formats?: [string, string];
  /** Files that are no format sprat knows, or the same document in other bytes, differ only so. */
  bytesDiffer?: boolean;
  frames?: { view: string; frame: number; changed: number; file: string }[];
  error?: string;
}

interface Side {
  shown: string;
  abs: string;
  bytes: Uint8Array;
}

class DiffRun {
  targets: WriteTarget[] = [];
  protect: string[] = [];
  budget: Budget;
  notes: string[] = [];
  /** The file being read, for error lines. */
  current = '';
  constructor(
    private io: Io,
    private options: CommandOptions,
    private cmd: Command,
  ) {
    this.budget = budgetFrom(options);
  }

  async read(shown: string, abs: string): Promise<Side> {
    this.current = shown;
    return { shown, abs, bytes: await readFileBytes(abs, limitsFrom(this.options)) };
  }

  load(s: Side, format?: string): Loaded {
    this.current = s.shown;
    const loaded = load(s.bytes, s.shown, format, this.options);
    rejectForeignOptions(this.cmd, [loaded.handler], this.options);
    resolveUserPaths(this.cmd, [loaded.handler], this.options, this.io.cwd);
    for (const w of loaded.warnings) this.io.err(`${printable(`${s.shown}: warning: ${w.message}`)}\n`);
    return loaded;
  }

  /** Compares two read files, read as formats `fa` and `fb` (default: found from content); `outDir` receives the pixel diffs. */
  async pair(a: Side, b: Side, fa: string | undefined, fb: string | undefined, outDir: string | undefined): Promise<PairResult> {
    const la = this.load(a, fa);
    const lb = this.load(b, fb);
    if (this.options.playback) return this.playback(a, la, b, lb);
    this.current = '';
    const changes = sameBytes(a.bytes, b.bytes) ? [] : diffDocuments(la, lb, this.options);
    const result: PairResult = { status: changes.length ? 'changed' : 'same', format: lb.handler.name, changes };
    if (!changes.length && !sameBytes(a.bytes, b.bytes)) result.bytesDiffer = true;
    // the same bytes drawing from the same folder draw the same pixels
    if (outDir === undefined || (sameBytes(a.bytes, b.bytes) && path.dirname(a.abs) === path.dirname(b.abs))) return result;
    const ra = recordingLoader(resourcesFor(this.io, a.abs, this.options), path.dirname(a.abs));
    const rb = recordingLoader(resourcesFor(this.io, b.abs, this.options), path.dirname(b.abs));
    const { frames, notes } = await pixelDiff(la, ra, lb, rb, this.options, this.budget);
    for (const n of notes) this.notes.push(`${n.startsWith('A') ? a.shown : b.shown}: note: ${n.slice(3)}`);
    for (const p of [a.abs, b.abs, ...ra.used, ...rb.used]) this.protect.push(p);
    const taken = new Set<string>();
    result.frames = [];
    for (const f of frames) {
      const file = path.join(outDir, frameFileName(f, taken));
      // A file already in OUT_DIR is replaced only with --overwrite (docs/commands/diff.md: no clobber).
      this.targets.push({ path: resolvePath(this.io, file), bytes: encodePng(f.image), label: file, mayReplace: false });
      result.frames.push({ view: f.view, frame: f.frame, changed: f.changed, file });
    }
    if (frames.length && result.status === 'same') result.status = 'changed';
    return result;
  }

  /** --playback: the two files as they play (each read as `convert` reads it, sheets and textures beside it). */
  async playback(a: Side, la: Loaded, b: Side, lb: Loaded): Promise<PairResult> {
    const summaries: PlaybackSummary[] = [];
    for (const [s, l] of [
      [a, la],
      [b, lb],
    ] as const) {
      this.current = s.shown;
      const model = await playbackModel(l, resourcesFor(this.io, s.abs, this.options), this.options);
      for (const n of model.notes ?? []) this.notes.push(`${s.shown}: note: ${n}`);
      summaries.push(playbackOf(model, { budget: this.budget }));
    }
    this.current = '';
    const playback = comparePlaybackSummaries(summaries[0]!, summaries[1]!);
    return { status: playback.length ? 'changed' : 'same', formats: [la.handler.name, lb.handler.name], playback };
  }

  async write(): Promise<number> {
    if (!this.targets.length) return 0;
    for (const d of new Set(this.targets.map((t) => path.dirname(t.path)))) await fsp.mkdir(d, { recursive: true });
    return writeOutputs(this.io, 'diff', this.targets, { protect: this.protect, overwrite: this.options.overwrite === true });
  }
}

/** Prints lines of diff text, spent from --max-json-bytes as the JSON report would be. */
function printLines(io: Io, lines: Iterable<string>, budget: Budget): void {
  for (const l of lines) {
    budget.spend('maxJsonBytes', l.length + 1, 'the diff');
    io.out(`${printable(l)}\n`);
  }
}

function pairLines(r: PairResult, prefix: string): string[] {
  return [
    ...(r.changes ?? []).map((c) => `${prefix}${changeText(c)}`),
    ...(r.playback ?? []).map((c) => `${prefix}${playbackChangeText(c)}`),
    ...(r.frames ?? []).map((f) => `${prefix}${f.view}, frame ${f.frame}: ${f.changed} pixels differ (${f.file})`),
  ];
}

function printJson(io: Io, value: unknown, options: CommandOptions): void {
  for (const chunk of jsonChunks(value, 2, limitsFrom(options))) io.out(chunk);
  io.out('\n');
}

export const diffCommand: Command = {
  name: 'diff',
  summary:
    'Show what changed between two files of one format, or two folders (files paired by relative path), as a structural diff of their documents: "animation walking, direction 2: x 4 -> 5", "+ animation jump". Exit 0 (1 with --exit-code when they differ).',
  usage:
    'sprat diff A B [--json] [--exit-code] [--render OUT_DIR [--overwrite]] [--format F] | --textconv FILE | --git-driver PATH OLD HEX MODE NEW HEX MODE',
  options: OPTIONS,
  formatOptionKeys: ['readOptions', 'renderOptions', 'resourceOptions', 'convertOptions'],
  async run(argv: string[], io: Io) {
    const { positionals, options } = parseArgs(argv, allOptions(this));
    checkFormatNames(options, ['format'], this);
    limitsFrom(options);
    const format = stringOption(options, FORMAT_OPTION);
    if (options.textconv) {
      if (positionals.length !== 1) throw new UsageError('diff --textconv takes exactly one FILE');
      return textconv(io, positionals[0]!, format, options, this);
    }
    if (options['git-driver']) {
      if (positionals.length !== 7 && positionals.length !== 9)
        throw new UsageError(
          `diff --git-driver takes git's 7 arguments (PATH OLD-FILE OLD-HEX OLD-MODE NEW-FILE NEW-HEX NEW-MODE), not ${positionals.length}`,
        );
      return gitDriver(io, positionals, format, options, this);
    }
    if (positionals.length !== 2) throw new UsageError('diff takes two files or two folders: A B');
    const [a, b] = positionals as [string, string];
    const outDir = stringOption(options, RENDER_OPTION);
    if (options.playback && outDir !== undefined) throw new UsageError('diff --playback compares what plays; it does not take --render');
    const kinds: boolean[] = [];
    for (const p of [a, b]) {
      try {
        kinds.push((await fsp.stat(resolvePath(io, p))).isDirectory());
      } catch (e) {
        io.err(`${printable(`sprat: error: ${p}: ${describeFsError(e)}`)}\n`);
        return 1;
      }
    }
    if (kinds[0] !== kinds[1])
      throw new UsageError(`${kinds[0] ? a : b} is a folder and ${kinds[0] ? b : a} is not: diff takes two files or two folders`);
    const run = new DiffRun(io, options, this);
    const exitFor = (differ: boolean, failed: boolean) => (failed || (differ && options['exit-code'] === true) ? 1 : 0);
    if (!kinds[0]) {
      let r: PairResult;
      try {
        const sa = await run.read(a, resolvePath(io, a));
        const sb = await run.read(b, resolvePath(io, b));
        r = await run.pair(sa, sb, format, format, outDir);
      } catch (e) {
        if (e instanceof UsageError) throw e;
        return reportError(io, e, run.current || undefined);
      }
      for (const n of run.notes) io.err(`${printable(n)}\n`);
      if (options.json && options.playback)
        printJson(io, { a, b, same: r.status === 'same', formats: r.formats, changes: r.playback!.map(playbackChangeJson) }, options);
      else if (options.json)
        printJson(
          io,
          { a, b, same: r.status === 'same', format: r.format, changes: r.changes, ...(r.frames ? { frames: r.frames } : {}) },
          options,
        );
      else printLines(io, pairLines(r, ''), run.budget);
      const w = await run.write();
      return w || exitFor(r.status !== 'same', false);
    }
    return diffFolders(io, a, b, format, outDir, run, options, exitFor);
  },
};

async function diffFolders(
  io: Io,
  a: string,
  b: string,
  format: string | undefined,
  outDir: string | undefined,
  run: DiffRun,
  options: CommandOptions,
  exitFor: (differ: boolean, failed: boolean) => number,
): Promise<number> {
  const absA = resolvePath(io, a);
  const absB = resolvePath(io, b);
  const listA = await listFiles(absA);
  const listB = await listFiles(absB);
  const inA = listA.files;
  const inB = listB.files;
  const setA = new Set(inA);
  const setB = new Set(inB);
  const all = [...new Set([...inA, ...inB])].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  // no pixel diff replaces a file of either folder
  if (outDir !== undefined) {
    for (const r of inA) run.protect.push(path.join(absA, r));
    for (const r of inB) run.protect.push(path.join(absB, r));
  }
  const results: PairResult[] = [];
  let failed = false;
  let internal = false;
  // A folder of either side that could not be read: one error for it (its files are not compared).
  for (const [side, list] of [
    [a, listA],
    [b, listB],
  ] as const) {
    for (const [rel, why] of list.unreadable) {
      failed = true;
      const shown = path.join(side, rel);
      io.err(`${printable(`sprat: error: ${shown}: ${why}`)}\n`);
      results.push({ path: rel, status: 'error', error: `${shown}: ${why}` });
    }
  }
  for (const rel of all) {
    if (!setB.has(rel)) {
      results.push({ path: rel, status: 'removed' });
      continue;
    }
    if (!setA.has(rel)) {
      results.push({ path: rel, status: 'added' });
      continue;
    }
    try {
      const sa = await run.read(path.join(a, rel), path.join(absA, rel));
      const sb = await run.read(path.join(b, rel), path.join(absB, rel));
      const fa = format ?? checkFormatOf(sa.bytes, rel)?.name;
      const fb = format ?? checkFormatOf(sb.bytes, rel)?.name;
      if (!fa || !fb) {
        if (!sameBytes(sa.bytes, sb.bytes)) results.push({ path: rel, status: 'changed', bytesDiffer: true });
        continue;
      }
      const r = await run.pair(sa, sb, fa, fb, outDir === undefined ? undefined : path.join(outDir, rel));
      if (r.status !== 'same') results.push({ path: rel, ...r });
    } catch (e) {
      if (e instanceof UsageError) throw e;
      failed = true;
      let text = '';
      if (reportError({ ...io, err: (t) => (text += t) }, e, run.current || rel) === EXIT_INTERNAL) internal = true;
      io.err(text);
      results.push({ path: rel, status: 'error', error: text.split('\n')[0]!.replace(/^sprat: (error: )?/, '') });
    }
  }
  for (const n of run.notes) io.err(`${printable(n)}\n`);
  const differ = results.some((r) => r.status !== 'error');
  if (options.json) {
    // --playback: each file's changes are its playback changes
    const files = results.map(({ playback, ...r }) => (playback ? { ...r, changes: playback.map(playbackChangeJson) } : r));
    printJson(io, { a, b, same: !differ && !failed, files }, options);
  } else {
    for (const r of results) {
      if (r.status === 'added') printLines(io, [`+ file ${r.path}`], run.budget);
      else if (r.status === 'removed') printLines(io, [`- file ${r.path}`], run.budget);
      else if (r.status === 'changed' && r.bytesDiffer && !r.changes?.length && !r.frames?.length)
        printLines(io, [`${r.path}: files differ`], run.budget);
      else if (r.status === 'changed') printLines(io, pairLines(r, `${r.path}: `), run.budget);
    }
  }
  const w = await run.write();
  return w || (internal ? EXIT_INTERNAL : exitFor(differ, failed));
}

/** `--textconv FILE`: the document's stable text form (src/diff.ts textForm). */
async function textconv(io: Io, file: string, format: string | undefined, options: CommandOptions, cmd: Command): Promise<number> {
  try {
    const loaded = load(await readInput(io, file, options), file, format, options);
    rejectForeignOptions(cmd, [loaded.handler], options);
    io.out(textForm(plainJson(loaded.handler.inspectJson(loaded.doc, options)), budgetFrom(options)));
    return 0;
  } catch (e) {
    if (e instanceof UsageError) throw e;
    return reportError(io, e, file);
  }
}

/**
 * Whether the git driver reads a file as a document: its extension is a
 * format's, and for the extensions other files share (`.json`, `.lua`) a
 * format recognises its content (GIT_EXTERNAL_DIFF runs the driver for
 * README.md and package.json too).
 */
function driverReads(bytes: Uint8Array, name: string): boolean {
  if (!formatsForExtension(name).length) return false;
  if (!['.json', '.lua'].includes(extensionOf(name))) return true;
  return FORMATS.some((f) => {
    try {
      return f.sniff?.(bytes) === true;
    } catch {
      return false;
    }
  });
}

/**
 * `--git-driver PATH OLD-FILE OLD-HEX OLD-MODE NEW-FILE NEW-HEX NEW-MODE`, as
 * git runs GIT_EXTERNAL_DIFF and `diff.NAME.command`: a header, then the
 * structural diff; a new or deleted file as its text form, each line marked.
 * The format is found from PATH (git's temporary files keep only its base name).
 */
async function gitDriver(io: Io, args: string[], format: string | undefined, options: CommandOptions, cmd: Command): Promise<number> {
  const [name, oldFile, , , newFile] = args as [string, string, string, string, string];
  const newName = args.length === 9 ? args[7]! : name;
  io.out(`${printable(`diff --sprat a/${name} b/${newName}`)}\n`);
  const bytesOf = async (f: string) => (f === '/dev/null' ? undefined : await readInput(io, f, options));
  let shown = name;
  try {
    const ba = await bytesOf(oldFile);
    shown = newName;
    const bb = await bytesOf(newFile);
    // a file of no format sprat knows (GIT_EXTERNAL_DIFF runs for every file): as git says of binary files
    if (!format && ((ba && !driverReads(ba, name)) || (bb && !driverReads(bb, newName)))) {
      io.out(`${printable(`Binary files ${ba ? `a/${name}` : '/dev/null'} and ${bb ? `b/${newName}` : '/dev/null'} differ`)}\n`);
      return 0;
    }
    shown = name;
    const a = ba && load(ba, name, format, options);
    shown = newName;
    const b = bb && load(bb, newName, format, options);
    for (const l of [a, b]) if (l) rejectForeignOptions(cmd, [l.handler], options);
    if (!a || !b) {
      const only = (a ?? b)!;
      const sign = a ? '-' : '+';
      io.out(a ? 'deleted file\n' : 'new file\n');
      for (const line of textForm(plainJson(only.handler.inspectJson(only.doc, options)), budgetFrom(options)).split('\n'))
        if (line) io.out(`${printable(`${sign} ${line}`)}\n`);
      return 0;
    }
    printLines(io, diffDocuments(a, b, options).map(changeText), budgetFrom(options));
    return 0;
  } catch (e) {
    if (e instanceof UsageError) throw e;
    return reportError(io, e, shown);
  }
}
