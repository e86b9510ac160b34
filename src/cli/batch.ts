/**
 * Batch forms of the commands that take files: `sprat convert DIR|GLOB|FILE...
 * OUTDIR`, `sprat render DIR|GLOB|FILE... -o OUTDIR`, and `sprat check`'s
 * files. The files are found once (src/node/files.ts), each is done by a
 * worker thread of the pool (src/node/pool.ts; --jobs, default the cores,
 * see workerPlan), one file alone here; one failing or crashing file never
 * stops the others, each file's outputs are written atomically by the single-file
 * command, results are printed in the files' order, then a summary.
 */
import { printable } from '../binary/errors.js';
import { availableParallelism, totalmem } from 'node:os';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import type { OptionSpec, CommandOptions } from '../formats/types.js';
import { limitsFrom } from '../binary/limits.js';
import { extensionOf } from '../detect.js';
import { FORMATS } from '../registry.js';
import { imageFormatFor } from '../render/output.js';
import { checkFormatOf } from '../check.js';
import { readFileBytes, removeOwnTempsSync, removePendingTempsSync } from '../node/fs.js';
import { findFiles, isGlob, PlaceError, type FoundFile } from '../node/files.js';
import { ThreadPool, workerModule } from '../node/pool.js';
import { intOption, UsageError } from './args.js';
import {
  internalErrorReply,
  runBatchJob,
  type BatchJob,
  type BatchReply,
  type FileJob,
  type FileResult,
  type WireJob,
  type WireReply,
} from './batch-job.js';
import { describeFsError, EXIT_INTERNAL, FileError, resolvePath, type Io } from './io.js';
import { Progress } from './progress.js';
import { withSignalCleanup } from './write.js';

export const JOBS_OPTION: OptionSpec = {
  name: 'jobs',
  type: 'int',
  min: 1,
  max: 256,
  description: 'worker threads for many files (default: the cores; at most the cores and what memory allows, unless --oversubscribe)',
};
export const OVERSUBSCRIBE_OPTION: OptionSpec = {
  name: 'oversubscribe',
  type: 'flag',
  description: 'with --jobs: as many workers as asked even above the cores (memory still counted)',
};
export const CHANGED_OPTION: OptionSpec = {
  name: 'changed',
  type: 'flag',
  description: 'skip a file whose output is newer than it and every file it references',
};
export const DRY_RUN_OPTION: OptionSpec = { name: 'dry-run', type: 'flag', description: 'print what would be written; write nothing' };
export const BATCH_OPTIONS: OptionSpec[] = [JOBS_OPTION, OVERSUBSCRIBE_OPTION, CHANGED_OPTION, DRY_RUN_OPTION];

/** Most files sent to a worker in one message (convert, render). */
const CHUNK_MAX = 16;
/**
 * Most files of `check` in one message: most files of a tree are skipped after
 * one small read, and a message each way per 16 of them cost more than the
 * files (50,000 one-byte files: 3.2 s of CPU with 16, 2.1 s with 256).
 */
const CHECK_CHUNK_MAX = 256;

/** Below this many files, with no --jobs given, one worker does them all (starting more costs more than they save). */
const POOL_MIN_FILES = 16;

/** The V8 heap each worker thread gets (resourceLimits): a file that needs more fails alone, "ran out of memory". */
export const WORKER_HEAP_MB = 1024;
/** The memory one worker is counted as needing: its heap, and the array buffers and code besides. */
export const WORKER_MEMORY_MB = 1536;

/** What a batch may use: the cores (os.availableParallelism) and the memory (os.totalmem) of the machine. */
export interface Machine {
  cores: number;
  memoryMb: number;
}

export function thisMachine(): Machine {
  return { cores: availableParallelism(), memoryMb: Math.floor(totalmem() / 2 ** 20) };
}

/**
 * The worker threads for `files` files, and the notes to print when --jobs was lowered. At most
 * the cores unless --oversubscribe, and never more than the machine's memory holds at
 * WORKER_MEMORY_MB each; at most one a file. A batch of two files or more always runs in workers
 * (one for a few files, without --jobs), so that a file that crashes its worker (out of memory)
 * fails alone and the batch goes on to its summary; one file alone runs here (0).
 */
export function workerPlan(options: CommandOptions, files: number, machine: Machine = thisMachine()): { workers: number; notes: string[] } {
  const given = intOption(options, JOBS_OPTION);
  const notes: string[] = [];
  let jobs = Math.min(given ?? machine.cores, files);
  if (given !== undefined && jobs > machine.cores && options.oversubscribe !== true) {
    notes.push(`--jobs ${given} is more than the ${machine.cores} cores: ${machine.cores} workers (--oversubscribe for more)`);
    jobs = machine.cores;
  }
  const byMemory = Math.max(1, Math.floor(machine.memoryMb / WORKER_MEMORY_MB));
  if (jobs > byMemory) {
    notes.push(
      `${jobs} workers would need ${jobs * WORKER_MEMORY_MB} MiB, more than the machine's ${machine.memoryMb} MiB: ${byMemory} workers`,
    );
    jobs = byMemory;
  }
  if (files < 2) return { workers: 0, notes };
  if (given === undefined && files < POOL_MIN_FILES) jobs = 1;
  return { workers: Math.max(1, jobs), notes };
}

/** The worker threads to use for `files` files (workerPlan), its notes printed to `err`. */
export function workersFor(options: CommandOptions, files: number, err?: (s: string) => void): number {
  const plan = workerPlan(options, files);
  for (const n of plan.notes) err?.(`sprat: note: ${n}\n`);
  return plan.workers;
}

/**
 * Runs the jobs, `workers` at a time in worker threads (0: here, one after
 * the other), and hands each reply to `done` in the jobs' order as soon as
 * it and every one before it are done. A job that throws, or whose worker
 * dies of an exception nothing caught (a bug), gets the internal error reply
 * (internalErrorReply); one whose worker is stopped otherwise (out of
 * memory), `onStopped`'s.
 */
export async function runJobs(
  jobs: readonly BatchJob[],
  workers: number,
  done: (reply: BatchReply, index: number) => void,
  onStopped: (job: BatchJob, message: string) => BatchReply,
): Promise<void> {
  const replies: (BatchReply | undefined)[] = new Array(jobs.length);
  let next = 0;
  const settle = (i: number, r: BatchReply) => {
    replies[i] = r;
    while (next < jobs.length && replies[next]) {
      done(replies[next]!, next);
      replies[next] = undefined;
      next++;
    }
  };
  if (workers === 0) {
    for (let i = 0; i < jobs.length; i++) {
      const job = jobs[i]!;
      try {
        settle(i, await runBatchJob(job));
      } catch (e) {
        settle(i, internalErrorReply(job, e));
      }
    }
    return;
  }
  const pool = new ThreadPool<WireJob, WireReply>(workerModule(import.meta.url, 'batch-worker'), { jobs: workers, heapMb: WORKER_HEAP_MB });
  const single = async (i: number) => {
    const job = jobs[i]!;
    const r = await pool.run(job);
    if (r.reply) return settle(i, r.reply as BatchReply);
    const { cls, message, stack } = r.stopped;
    // An exception nothing caught in the worker (a bug) is an internal error; its end for other reasons is the job's failure.
    if (cls.startsWith('worker-crash:')) {
      return settle(i, internalErrorReply(job, Object.assign(new Error(message), { name: cls.slice('worker-crash:'.length), stack })));
    }
    settle(i, onStopped(job, cls === 'heap-out-of-memory' ? 'ran out of memory' : message));
  };
  // Jobs go out in chunks (a few per worker, at most CHUNK_MAX files each): each message to a worker and back waits for
  // this thread to be scheduled, which on a loaded machine costs more than a small file's check.
  const most = jobs.every((j) => j.kind === 'check') ? CHECK_CHUNK_MAX : CHUNK_MAX;
  const size = Math.max(1, Math.min(most, Math.floor(jobs.length / (workers * 4))));
  const chunks: number[][] = [];
  for (let i = 0; i < jobs.length; i += size) chunks.push(Array.from({ length: Math.min(size, jobs.length - i) }, (_, k) => i + k));
  try {
    await Promise.all(
      chunks.map(async (idx) => {
        if (idx.length === 1) return single(idx[0]!);
        const r = await pool.run({ kind: 'chunk', jobs: idx.map((i) => jobs[i]!) });
        const replies = r.reply?.kind === 'chunk' ? r.reply.replies : undefined;
        // A worker that died (out of memory): each file of the chunk again alone, so that only the one at fault fails.
        if (!replies || replies.length !== idx.length) return Promise.all(idx.map(single));
        idx.forEach((i, k) => settle(i, replies[k]!));
      }),
    );
  } finally {
    await pool.close();
  }
}

/** The files under the places named, as a command-line error (exit 2) when a place names nothing. */
export async function findPlaces(io: Io, places: readonly string[], skip?: string): Promise<FoundFile[]> {
  try {
    return await findFiles(io.cwd, places, { skip: skip ? new Set([skip]) : undefined });
  } catch (e) {
    if (e instanceof PlaceError)
      throw new UsageError(e.fsError ? `${e.place}: ${describeFsError(e.fsError)}` : `${e.place}: no file matches`);
    throw e;
  }
}

/**
 * Whether `inputs` (the positionals before OUT) ask for the batch form: a
 * folder, a glob, several files, or --changed / --dry-run.
 */
export async function isBatchForm(io: Io, inputs: readonly string[], options: CommandOptions): Promise<boolean> {
  if (inputs.length !== 1 || options.changed === true || options['dry-run'] === true) return true;
  const only = inputs[0]!;
  try {
    return (await fsp.stat(resolvePath(io, only))).isDirectory();
  } catch {
    return isGlob(only);
  }
}

/** Whether `name` ends in an extension of a file `command` writes: an image for render, a written format's for convert. */
function writesExtension(command: 'convert' | 'render', name: string): boolean {
  if (command === 'render') return imageFormatFor(name) !== undefined;
  const ext = extensionOf(name);
  return ext !== '' && FORMATS.some((f) => (f.write || f.writeFiles) && f.extensions.includes(ext));
}

export interface BatchSpec {
  command: 'convert' | 'render';
  inputs: readonly string[];
  /** OUTDIR as given; or, for the batch of one file (--changed/--dry-run on IN OUT), the output file itself. */
  out: string;
  /** The output's path below OUTDIR for a file found at `rel`. */
  outputName(rel: string): string;
  /** The options passed on to each file's command (batch-only ones left out). */
  options: CommandOptions;
}

/**
 * A batch convert or render: plans every file's output (the tree below each
 * folder or glob mirrored into OUTDIR), runs them, prints each file's lines
 * in order and a summary: "N written, N unchanged, N failed". Exit 1 if any
 * failed.
 */
export async function runFileBatch(io: Io, spec: BatchSpec, batchOptions: CommandOptions): Promise<number> {
  const outAbs = resolvePath(io, spec.out);
  const single = spec.inputs.length === 1 && !isGlob(spec.inputs[0]!) && !(await isFolder(resolvePath(io, spec.inputs[0]!)));
  const found = await findPlaces(io, spec.inputs, outAbs);
  if (!single) {
    let exists = false;
    try {
      const st = await fsp.stat(outAbs);
      exists = true;
      if (!st.isDirectory()) throw new UsageError(`${spec.out}: is not a folder; a ${spec.command} of many files writes into a folder`);
    } catch (e) {
      if (e instanceof UsageError) throw e;
      // a folder that does not exist yet is made
    }
    // A new folder named like a file this command writes (`-o e6.png`) is a mistake, not a folder the user meant.
    if (!exists && writesExtension(spec.command, spec.out))
      throw new UsageError(
        `${spec.out}: OUT must be a folder for many inputs (a folder, a glob or several files), not a name ending in ${extensionOf(spec.out)}`,
      );
  }
  const inputs = new Set(found.map((f) => f.abs));
  const outputs = new Map<string, number[]>();
  const planned: { job: FileJob; error?: string; folder?: true }[] = [];
  // OUTDIR is the batch's own when it holds none of its inputs: a sheet an earlier run wrote beside an output is replaced too.
  const own = !single && spec.command === 'convert' && !found.some((f) => isInside(outAbs, f.abs));
  const options = Object.entries(own ? { ...spec.options, overwrite: true } : spec.options).filter(
    (e): e is [string, string | true] => e[1] === true || typeof e[1] === 'string',
  );
  for (const f of found) {
    const output = single ? spec.out : path.join(spec.out, spec.outputName(f.rel));
    const outputAbs = resolvePath(io, output);
    const job: FileJob = {
      kind: 'file',
      command: spec.command,
      input: f.shown,
      inputAbs: f.abs,
      named: f.named,
      output,
      outputAbs,
      options,
      cwd: io.cwd,
      debug: io.debug,
      changed: batchOptions.changed === true,
      dryRun: batchOptions['dry-run'] === true,
    };
    // A folder the walk could not read: one failure, in its place.
    if (f.unreadable !== undefined) {
      planned.push({ job, error: f.unreadable, folder: true });
      continue;
    }
    const error =
      !single && inputs.has(outputAbs) ? `its output ${output} is an input of this ${spec.command}; nothing was written for it` : undefined;
    planned.push({ job, error });
    const same = outputs.get(outputAbs);
    if (same) same.push(planned.length - 1);
    else outputs.set(outputAbs, [planned.length - 1]);
  }
  // Files whose output is an input, or that share an output (hero.dat and its sheet hero.png, into
  // hero.png): those that are no sprite or level file drop out (skipped as always); of the others
  // sharing one, the first has it and the rest fail.
  const dropped = new Set<number>();
  const sprite = async (i: number) => {
    const p = planned[i]!;
    if (p.job.named || (await isSpriteFile(p.job.inputAbs, p.job.input, spec.options))) return true;
    dropped.add(i);
    return false;
  };
  for (const [i, p] of planned.entries()) if (p.error && !p.folder && outputs.get(p.job.outputAbs)!.length < 2) await sprite(i);
  for (const group of outputs.values()) {
    if (group.length < 2) continue;
    const kept: number[] = [];
    for (const i of group) if (await sprite(i)) kept.push(i);
    for (const i of kept.slice(1)) {
      const p = planned[i]!;
      p.error ??= `its output ${p.job.output} is also the output of ${planned[kept[0]!]!.job.input}; nothing was written for it`;
    }
  }
  for (const i of [...dropped].sort((a, b) => b - a)) planned.splice(i, 1);
  const counts = { written: 0, unchanged: 0, 'would-write': 0, failed: 0, ignored: dropped.size };
  const progress = new Progress(io, planned.length);
  let code = 0;
  const print = (r: FileResult) => {
    counts[r.status]++;
    code = Math.max(code, r.code ?? (r.status === 'failed' ? 1 : 0));
    progress.step(() => {
      if (r.out) io.out(r.out);
      if (r.err) io.err(r.err);
    });
  };
  const failed = (job: BatchJob, message: string): BatchReply => ({
    kind: 'file',
    result: { status: 'failed', out: '', err: `${printable(`sprat: error: ${(job as FileJob).input}: ${message}`)}\n` },
  });
  const runnable = planned.filter((p) => !p.error).map((p) => p.job);
  // The output folders are made here, before the workers start; those left empty at the end are removed.
  const made: string[] = [];
  if (!single && batchOptions['dry-run'] !== true) {
    for (const dir of new Set(runnable.map((j) => path.dirname(j.outputAbs)))) {
      try {
        const first = await fsp.mkdir(dir, { recursive: true });
        for (let d = dir; first !== undefined; d = path.dirname(d)) {
          made.push(d);
          if (d === first || d === path.dirname(d)) break;
        }
      } catch (e) {
        throw new FileError(spec.out, `cannot make the folder ${path.relative(io.cwd, dir) || dir}: ${describeFsError(e)}`);
      }
    }
  }
  const workers = workersFor(batchOptions, runnable.length, (t) => io.err(t));
  // Planning errors are printed in their place among the others.
  let k = 0;
  const flushPlanned = (upTo: number) => {
    while (k < planned.length && (upTo < 0 || planned[k]!.job !== runnable[upTo])) {
      const p = planned[k++]!;
      if (p.error) print({ status: 'failed', out: '', err: `${printable(`sprat: error: ${p.job.input}: ${p.error}`)}\n` });
    }
    if (upTo >= 0) k++;
  };
  // Ctrl-C or SIGTERM: the workers' temporaries in the output folders are removed too.
  const outDirs = [...new Set(runnable.map((j) => path.dirname(j.outputAbs)))];
  const cleanup = () => {
    removePendingTempsSync();
    for (const d of outDirs) removeOwnTempsSync(d);
  };
  await withSignalCleanup(
    () =>
      runJobs(
        runnable,
        workers,
        (reply, i) => {
          flushPlanned(i);
          if (reply.kind === 'file') print(reply.result);
        },
        failed,
      ),
    cleanup,
  );
  flushPlanned(-1);
  progress.end();
  for (const d of made.sort((a, b) => b.length - a.length)) await fsp.rmdir(d).catch(() => {});
  const first = batchOptions['dry-run'] === true ? `${counts['would-write']} would be written` : `${counts.written} written`;
  const skipped = counts.ignored ? ` (${counts.ignored} other files skipped)` : '';
  io.out(`${printable(`${spec.command}: ${first}, ${counts.unchanged} unchanged, ${counts.failed} failed${skipped}`)}\n`);
  // One file (IN OUT --changed or --dry-run): its command's status, 2 for a wrong command line included.
  return single ? code : counts.failed ? (code === EXIT_INTERNAL ? EXIT_INTERNAL : 1) : 0;
}

/** Whether a file found by a walk or a glob is one a batch works on (as `sprat check` decides; unreadable ones count). */
async function isSpriteFile(abs: string, shown: string, options: CommandOptions): Promise<boolean> {
  try {
    return checkFormatOf(await readFileBytes(abs, limitsFrom(options)), shown) !== undefined;
  } catch {
    return true;
  }
}

/** Whether `p` lies in the folder `dir` (at any depth). */
function isInside(dir: string, p: string): boolean {
  const rel = path.relative(dir, p);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

async function isFolder(abs: string): Promise<boolean> {
  try {
    return (await fsp.stat(abs)).isDirectory();
  } catch {
    return false;
  }
}

/** Options that shape the batch itself, not each file's command. */
const BATCH_ONLY = new Set(['jobs', 'oversubscribe', 'changed', 'dry-run', 'output', 'image']);

function perFileOptions(options: CommandOptions): CommandOptions {
  return Object.fromEntries(Object.entries(options).filter(([k]) => !BATCH_ONLY.has(k)));
}

/** `name` with its extension replaced by `ext` (added when it has none). */
function withExtension(name: string, ext: string): string {
  const e = path.extname(name);
  return (e ? name.slice(0, -e.length) : name) + ext;
}

/**
 * `sprat convert DIR|GLOB|FILE... OUTDIR [--to F]`: each file converted to
 * OUTDIR/ its path below the folder or glob, with the extension of the
 * target format (`--to`; without it each file keeps its format and name).
 */
export function convertBatch(
  io: Io,
  positionals: readonly string[],
  options: CommandOptions,
  target?: { extensions: readonly string[] },
): Promise<number> {
  const ext = target?.extensions[0];
  return runFileBatch(
    io,
    {
      command: 'convert',
      inputs: positionals.slice(0, -1),
      out: positionals[positionals.length - 1]!,
      outputName: (rel) => (ext ? withExtension(rel, ext) : rel),
      options: perFileOptions(options),
    },
    options,
  );
}

export const IMAGE_OPTION: OptionSpec = {
  name: 'image',
  type: 'string',
  choices: ['png', 'gif', 'apng'],
  description: 'with a folder, glob or several files: the pictures written into -o OUTDIR (default png)',
};

/** `sprat render DIR|GLOB|FILE... -o OUTDIR [--image png|gif|apng]`: one picture per file, OUTDIR/ its path with the image's extension. */
export function renderBatch(io: Io, inputs: readonly string[], out: string, options: CommandOptions): Promise<number> {
  const image = typeof options.image === 'string' ? options.image : 'png';
  return runFileBatch(
    io,
    {
      command: 'render',
      inputs,
      out,
      outputName: (rel) => withExtension(rel, `.${image}`),
      options: perFileOptions(options),
    },
    options,
  );
}
