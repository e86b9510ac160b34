/**
 * One file of a batch command (`sprat convert DIR OUTDIR`, `sprat render DIR
 * -o OUTDIR`, `sprat check`): what a worker thread (batch-worker.ts) or the
 * main thread runs for it. Plain data in, plain data out. A file of a batch
 * is done by the single-file command itself (its checks, atomic writes and
 * messages), with the output printed back as one piece.
 */
import { printable } from '../binary/errors.js';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import type { Diagnostic } from '../binary/errors.js';
import { limitsFrom } from '../binary/limits.js';
import { checkFormatOf, checkReport } from '../check.js';
import { formatByName, load, references } from '../api.js';
import type { CommandOptions, FormatHandler } from '../formats/types.js';
import { readFileBytes, readFileBytesSync, recordingLoader } from '../node/fs.js';
import { thDataSize, thPaletteProblems, thSpriteTableProblems } from '../formats/cthg/thdata.js';
import { undefinedPropertyTypes } from '../interop/tiled/check.js';
import { allOptions, type Command } from './command.js';
import { describeFsError, EXIT_INTERNAL, internalErrorMessage, internalErrorText, resourcesFor, type Io } from './io.js';

/** The report of one file of `sprat check` (its --json schema). */
export interface FileReport {
  path: string;
  format: string | null;
  problems: Diagnostic[];
}

export interface CheckJob {
  kind: 'check';
  shown: string;
  abs: string;
  named: boolean;
  cwd: string;
  options: CommandOptions;
  /** A folder of the walk that could not be read: why (one error for it). */
  unreadable?: string;
  /** The Tiled project(s) whose folders hold the file: the project (as shown) and the custom types they define. */
  tiledProject?: { shown: string; types: string[] };
  /** Theme Hospital data beside CorsixTH graphics (src/formats/cthg/thdata.ts): a sprite table and its data file, or a palette. */
  thData?: { role: 'table'; data?: string; dataName: string; needsPalette?: boolean } | { role: 'palette' };
}

export interface FileJob {
  kind: 'file';
  command: 'convert' | 'render';
  input: string;
  inputAbs: string;
  named: boolean;
  output: string;
  outputAbs: string;
  /** The command's options as given (batch-only ones left out); those no format of this file takes are dropped. */
  options: [string, string | true][];
  cwd: string;
  debug: boolean;
  changed: boolean;
  dryRun: boolean;
}

export type BatchJob = CheckJob | FileJob;

export interface FileResult {
  /** written; unchanged (--changed); would-write (--dry-run); failed; ignored (not a sprite/level file: skipped quietly). */
  status: 'written' | 'unchanged' | 'would-write' | 'failed' | 'ignored';
  out: string;
  err: string;
  /** The exit status of the file's command, when it ran. */
  code?: number;
}

export type BatchReply = { kind: 'check'; report: FileReport | null } | { kind: 'file'; result: FileResult };

/** What goes to a worker thread: one job, or a chunk of them answered together (src/cli/batch.ts runJobs). */
export type WireJob = BatchJob | { kind: 'chunk'; jobs: BatchJob[] };
export type WireReply = BatchReply | { kind: 'chunk'; replies: BatchReply[] };

/** The commands a batch runs per file (set by main.ts's command list, to avoid an import cycle). */
const commands = new Map<string, Command>();
let runMain: ((argv: string[], io: Io) => Promise<number>) | undefined;

/** Called once by src/cli/main.ts: the command line a file of a batch runs through. */
export function registerBatchMain(main: (argv: string[], io: Io) => Promise<number>, list: readonly Command[]): void {
  runMain = main;
  for (const c of list) commands.set(c.name, c);
}

export async function runBatchJob(job: BatchJob): Promise<BatchReply> {
  if (job.kind === 'check') return { kind: 'check', report: await checkOne(job) };
  return { kind: 'file', result: await fileOne(job) };
}

/**
 * A job that failed with an unexpected exception (a bug), in a worker or the
 * main thread: a file of convert or render gets the internal error line and
 * exit 70 (src/cli/io.ts internalErrorText); a file of check, an error in
 * its report.
 */
export function internalErrorReply(job: BatchJob, e: unknown): BatchReply {
  if (job.kind === 'check') {
    const message = `internal error: ${internalErrorMessage(e)}`;
    return { kind: 'check', report: { path: job.shown, format: null, problems: [{ severity: 'error', message }] } };
  }
  return { kind: 'file', result: { status: 'failed', out: '', err: internalErrorText(e, job.debug, job.input), code: EXIT_INTERNAL } };
}

/** `sprat check` on one file: null when it is skipped quietly (not a file of a format sprat knows, found by a walk). */
export async function checkOne(job: CheckJob): Promise<FileReport | null> {
  if (job.unreadable !== undefined) return { path: job.shown, format: null, problems: [{ severity: 'error', message: job.unreadable }] };
  const io: Io = { out: () => {}, err: () => {}, cwd: job.cwd, debug: false };
  let bytes: Uint8Array;
  try {
    // Synchronously: a worker checks one file after another, and most files of a tree are small (or skipped).
    bytes = readFileBytesSync(job.abs, limitsFrom(job.options));
  } catch (e) {
    return { path: job.shown, format: null, problems: [{ severity: 'error', message: describeFsError(e) }] };
  }
  if (job.thData)
    return {
      path: job.shown,
      format: job.thData.role === 'table' ? 'th-sprite-table' : 'th-palette',
      problems: await thProblems(job, bytes),
    };
  const resources = resourcesFor(io, job.abs, job.options);
  const report = await checkReport(bytes, job.shown, resources, job.options);
  if (!report) {
    if (job.named)
      return { path: job.shown, format: null, problems: [{ severity: 'error', message: 'not a file of any format sprat knows' }] };
    return null;
  }
  const { format, problems } = report;
  if (job.tiledProject && format === 'tiled')
    for (const d of undefinedPropertyTypes(bytes, new Set(job.tiledProject.types), job.tiledProject.shown)) problems.push(d);
  return { path: job.shown, format, problems };
}

/** A Theme Hospital sprite table (its data file read for its size) or palette. */
async function thProblems(job: CheckJob, bytes: Uint8Array): Promise<Diagnostic[]> {
  const th = job.thData!;
  if (th.role === 'palette') return thPaletteProblems(bytes);
  let size: number | undefined;
  if (th.data !== undefined) {
    try {
      size = thDataSize(await readFileBytes(th.data, limitsFrom(job.options)));
    } catch (e) {
      return [{ severity: 'error', message: `${th.dataName}: ${describeFsError(e)}` }];
    }
  }
  const out = thSpriteTableProblems(bytes, th.dataName, size);
  if (th.needsPalette)
    out.push({
      severity: 'warning',
      message: 'the Data folder holds sprite tables but no MPalette.dat, the palette CorsixTH draws them with',
    });
  return out;
}

/** Modification time (ms) of a file, or undefined when it cannot be read. */
async function mtimeOf(p: string): Promise<number | undefined> {
  try {
    return (await fsp.stat(p)).mtimeMs;
  } catch {
    return undefined;
  }
}

async function fileOne(job: FileJob): Promise<FileResult> {
  let out = '';
  let err = '';
  const io: Io = { out: (t) => void (out += t), err: (t) => void (err += t), cwd: job.cwd, debug: job.debug };
  const cmd = commands.get(job.command);
  if (!cmd || !runMain) {
    return {
      status: 'failed',
      out,
      err: internalErrorText(new Error(`no command ${job.command}`), job.debug, job.input),
      code: EXIT_INTERNAL,
    };
  }
  const options: CommandOptions = Object.fromEntries(job.options);
  const inputFormat = typeof options.from === 'string' ? options.from : typeof options.format === 'string' ? options.format : undefined;
  // A file found by a walk or a glob that is no sprite or level file is skipped quietly, as `sprat check` does.
  let handler: FormatHandler | undefined;
  let bytes: Uint8Array | undefined;
  try {
    bytes = await readFileBytes(job.inputAbs, limitsFrom(options));
    handler = inputFormat ? formatByName(inputFormat) : checkFormatOf(bytes, job.input);
  } catch {
    // the command reports it
  }
  if (bytes && !handler && !job.named) return { status: 'ignored', out, err };
  // Options only other formats take are left out for this file (a folder holds several formats).
  if (handler) {
    const handlers = [handler];
    if (typeof options.to === 'string') handlers.push(formatByName(options.to));
    const allowed = new Set([...cmd.options, ...allOptions({ ...cmd, formatOptionKeys: [] })].map((o) => o.name));
    for (const h of handlers) for (const k of cmd.formatOptionKeys ?? []) for (const o of h[k] ?? []) allowed.add(o.name);
    for (const k of Object.keys(options)) if (!allowed.has(k)) delete options[k];
  }
  if (job.changed && bytes && handler && (await upToDate(job, bytes, handler, options, io))) {
    return { status: 'unchanged', out, err };
  }
  if (job.dryRun) return { status: 'would-write', out: `would write ${job.output}\n`, err };
  const args: string[] = [];
  for (const [k, v] of Object.entries(options)) {
    if (v === true) args.push(`--${k}`);
    else if (typeof v === 'string') args.push(`--${k}=${v}`);
  }
  const argv =
    job.command === 'render'
      ? ['render', ...args, `--output=${job.output}`, '--', job.input]
      : ['convert', ...args, '--', job.input, job.output];
  const code = await runMain(argv, io);
  if (code !== 0) return { status: 'failed', out, err, code };
  if (job.command === 'render') out += `wrote ${printable(job.output)}\n`;
  return { status: 'written', out, err };
}

/**
 * --changed: the output exists and is at least as new as the input and every
 * file the input references (sheets, textures, objects: api.references).
 */
async function upToDate(job: FileJob, bytes: Uint8Array, handler: FormatHandler, options: CommandOptions, io: Io): Promise<boolean> {
  const outTime = await mtimeOf(job.outputAbs);
  const inTime = await mtimeOf(job.inputAbs);
  if (outTime === undefined || inTime === undefined || inTime > outTime) return false;
  try {
    const loaded = load(bytes, job.input, handler.name, options);
    const resources = recordingLoader(resourcesFor(io, job.inputAbs, options), path.dirname(job.inputAbs));
    await references(loaded, resources, options);
    for (const used of resources.used) {
      const t = await mtimeOf(used);
      if (t === undefined || t > outTime) return false;
    }
    return true;
  } catch {
    return false; // the command says what is wrong
  }
}
