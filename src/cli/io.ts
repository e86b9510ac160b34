import * as path from 'node:path';
import { isFormatError, oneLine, OptionError } from '../binary/errors.js';
import { LimitError, limitsFrom } from '../binary/limits.js';
import { describeFileError } from '../formats/resources.js';
import type { CommandOptions, ResourceLoader } from '../formats/types.js';
import { fsResourceLoader, readFileBytes, removePendingTempsSync } from '../node/fs.js';
import { UnknownFormatError } from '../api.js';
import { UsageError } from './args.js';

/** What a command prints; tests capture it instead of the process streams. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  cwd: string;
  debug: boolean;
  /** stderr is a terminal: a progress bar may be drawn there (src/cli/progress.ts). */
  errTty?: boolean;
}

let outputGuarded = false;

/**
 * A reader that stops early (`sprat inspect --json big | head`) closes the
 * pipe: end quietly instead of dying with Node's EPIPE stack trace.
 */
function guardOutput(): void {
  if (outputGuarded) return;
  outputGuarded = true;
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') process.stderr.write(`sprat: error: cannot write the output: ${e.message}\n`);
    process.exit(e.code === 'EPIPE' ? (process.exitCode ?? 0) : 1);
  });
  process.stderr.on('error', () => process.exit(process.exitCode ?? 1));
}

/** The exit status of an internal error (a bug in sprat): EX_SOFTWARE of sysexits.h. */
export const EXIT_INTERNAL = 70;

/** The longest message an internal error line quotes. */
const INTERNAL_MESSAGE_MAX = 300;

/** What was thrown, in words: its name (when not a plain Error) and message; never throws itself. */
function thrownMessage(e: unknown): string {
  try {
    if (e instanceof Error || (typeof e === 'object' && e !== null && typeof (e as Error).message === 'string')) {
      const { name, message } = e as Error;
      const shown = message || '(no message)';
      return typeof name === 'string' && name && name !== 'Error' ? `${name}: ${shown}` : shown;
    }
    return String(e);
  } catch {
    return 'an exception that cannot be shown';
  }
}

/** What an internal error line says of `e` (and the file it happened in): one line, cut short. */
export function internalErrorMessage(e: unknown, file?: string): string {
  const message = oneLine(`${file ? `${file}: ` : ''}${thrownMessage(e)}`);
  return message.length > INTERNAL_MESSAGE_MAX ? `${message.slice(0, INTERNAL_MESSAGE_MAX - 3)}...` : message;
}

/**
 * An unexpected exception (a bug) as the command line prints it: one line,
 * `sprat: internal error: MESSAGE (run with --debug for the stack)`, the
 * message escaped to one line and cut short; with --debug the line and then
 * the stack. Never the source text Node's own report quotes.
 */
export function internalErrorText(e: unknown, debug: boolean, file?: string): string {
  const message = internalErrorMessage(e, file);
  if (!debug) return `sprat: internal error: ${message} (run with --debug for the stack)\n`;
  let stack: unknown;
  try {
    stack = (e as Error)?.stack;
  } catch {
    stack = undefined;
  }
  return `sprat: internal error: ${message}\n${typeof stack === 'string' ? `${stack}\n` : ''}`;
}

let processGuarded = false;
let processDebug = false;

/**
 * An exception nothing caught, or a rejected promise nothing handled, in
 * the command's process (the main thread; a batch's worker threads answer
 * for theirs, src/cli/batch-worker.ts): the internal error line, the
 * temporaries of writes under way removed, exit 70.
 */
function guardProcess(debug: boolean): void {
  processDebug = debug;
  if (processGuarded) return;
  processGuarded = true;
  const crash = (e: unknown) => {
    try {
      removePendingTempsSync();
    } catch {
      // the line matters more
    }
    try {
      process.stderr.write(internalErrorText(e, processDebug));
    } finally {
      process.exit(EXIT_INTERNAL);
    }
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
}

export const processIo = (debug: boolean): Io => {
  guardOutput();
  guardProcess(debug);
  return {
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
    cwd: process.cwd(),
    debug,
    errTty: process.stderr.isTTY === true,
  };
};

/** An input problem (exit 1) that names the file. */
export class FileError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Any error met while working on one of several files (a folder's, a glob's): reported as `reportError`
 * reports `error` for that file, so its message names the file, not the place it was found from.
 */
export class InFileError extends Error {
  constructor(
    readonly file: string,
    readonly error: unknown,
  ) {
    super((error as Error)?.message ?? String(error));
  }
}

export function resolvePath(io: Io, p: string): string {
  return path.resolve(io.cwd, p);
}

/** A file-system error in the command line's words (Node's own message otherwise). */
export const describeFsError = describeFileError;

/**
 * Reads an input FILE the user named (relative to the current folder): only
 * a regular file, within --max-file-bytes (never a FIFO, device or folder).
 */
export function readInput(io: Io, file: string, options: CommandOptions): Promise<Uint8Array> {
  return readFileBytes(resolvePath(io, file), limitsFrom(options));
}

/**
 * The resources of the document at `inPath` (an absolute path): the paths
 * it names relative to its folder, the user's (already resolved by
 * resolveUserPaths) as they are; places named relative to the current folder.
 */
export function resourcesFor(io: Io, inPath: string, options: CommandOptions): ResourceLoader {
  return fsResourceLoader(path.dirname(inPath), { cwd: io.cwd, maxFileBytes: limitsFrom(options).maxFileBytes });
}

/**
 * Turns any thrown error into the one-line message and exit status:
 * 2 for a wrong command line, 1 for bad input or a failed conversion,
 * 70 for anything else (a bug: internalErrorText).
 */
export function reportError(io: Io, e: unknown, file?: string): number {
  // Every message is one line: names from the input or the command line may hold line breaks.
  const say = (message: string, code: number) => {
    io.err(`sprat: error: ${oneLine(message)}\n`);
    if (code === 1 && io.debug && (e as Error)?.stack) io.err(`${(e as Error).stack}\n`);
    return code;
  };
  if (e instanceof InFileError) return reportError(io, e.error, e.file);
  if (e instanceof UsageError) return say(e.message, 2);
  const prefix = file ? `${file}: ` : '';
  if (e instanceof OptionError) return say(prefix + e.message, 2);
  if (e instanceof FileError) return say(`${e.file}: ${e.message}`, 1);
  if (isFormatError(e) || e instanceof UnknownFormatError || e instanceof LimitError) return say(prefix + e.message, 1);
  const err = e as NodeJS.ErrnoException;
  if (err && typeof err.code === 'string' && typeof err.message === 'string') return say(prefix + describeFsError(err), 1);
  if (e instanceof RangeError && /Invalid (typed )?array length|Array buffer allocation failed|Invalid string length/.test(e.message)) {
    return say(`${prefix}the result is too large to make (${e.message})`, 1);
  }
  // A bug: still one line, with the stack only under --debug.
  io.err(internalErrorText(e, io.debug, file));
  return EXIT_INTERNAL;
}

/** A failed write of an output file: one line naming the output, exit 1. */
export function reportWriteError(io: Io, e: unknown, file: string): number {
  if ((e as NodeJS.ErrnoException)?.code === 'ENOENT') {
    io.err(`sprat: error: ${oneLine(`${file}: cannot write: its folder does not exist`)}\n`);
    if (io.debug && (e as Error).stack) io.err((e as Error).stack + '\n');
    return 1;
  }
  return reportError(io, e, file);
}
