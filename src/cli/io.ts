import * as path from 'node:path';
import { isFormatError, OptionError } from '../binary/errors.js';
import { LimitError, limitsFrom } from '../binary/limits.js';
import { describeFileError } from '../formats/resources.js';
import type { CommandOptions, ResourceLoader } from '../formats/types.js';
import { fsResourceLoader, readFileBytes } from '../node/fs.js';
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

export const processIo = (debug: boolean): Io => {
  guardOutput();
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
 * 2 for a wrong command line, 1 for bad input or a failed conversion.
 */
export function reportError(io: Io, e: unknown, file?: string): number {
  if (e instanceof UsageError) {
    io.err(`sprat: error: ${e.message}\n`);
    return 2;
  }
  if (e instanceof OptionError) {
    io.err(`sprat: error: ${file ? file + ': ' : ''}${e.message}\n`);
    return 2;
  }
  if (e instanceof FileError) {
    io.err(`sprat: error: ${e.file}: ${e.message}\n`);
    if (io.debug && e.stack) io.err(e.stack + '\n');
    return 1;
  }
  const prefix = file ? `${file}: ` : '';
  if (isFormatError(e) || e instanceof UnknownFormatError || e instanceof LimitError) {
    io.err(`sprat: error: ${prefix}${e.message}\n`);
    if (io.debug && e.stack) io.err(e.stack + '\n');
    return 1;
  }
  const err = e as NodeJS.ErrnoException;
  if (err && typeof err.code === 'string' && typeof err.message === 'string') {
    io.err(`sprat: error: ${prefix}${describeFsError(err)}\n`);
    if (io.debug && err.stack) io.err(err.stack + '\n');
    return 1;
  }
  if (e instanceof RangeError && /Invalid (typed )?array length|Array buffer allocation failed|Invalid string length/.test(e.message)) {
    io.err(`sprat: error: ${prefix}the result is too large to make (${e.message})\n`);
    if (io.debug && e.stack) io.err(e.stack + '\n');
    return 1;
  }
  // A bug: still one line, with the stack only under --debug.
  io.err(`sprat: error: ${prefix}internal error: ${(e as Error)?.message ?? String(e)}\n`);
  if (io.debug && (e as Error)?.stack) io.err((e as Error).stack + '\n');
  return 1;
}

/** A failed write of an output file: one line naming the output, exit 1. */
export function reportWriteError(io: Io, e: unknown, file: string): number {
  if ((e as NodeJS.ErrnoException)?.code === 'ENOENT') {
    io.err(`sprat: error: ${file}: cannot write: its folder does not exist\n`);
    if (io.debug && (e as Error).stack) io.err((e as Error).stack + '\n');
    return 1;
  }
  return reportError(io, e, file);
}
