import { printable } from '../binary/errors.js';
import { removePendingTempsSync, writeFilesAtomic, WriteError, type WriteOptions, type WriteTarget } from '../node/fs.js';
import type { OptionSpec } from '../formats/types.js';
import { describeFsError, reportError, type Io } from './io.js';

export const OVERWRITE_OPTION: OptionSpec = {
  name: 'overwrite',
  type: 'flag',
  description: 'let files written beside OUT (sheets) replace existing files (never the input or the files it uses)',
};
export const FORCE_OPTION: OptionSpec = { name: 'force', type: 'flag', description: 'replace a read-only output (it keeps its mode)' };

/** Exit statuses after a signal, as a shell reports a process it killed (128 + the signal's number). */
const SIGNAL_EXIT: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

/**
 * Runs `fn` (a write) with handlers for SIGINT, SIGTERM and SIGHUP that
 * remove the write's temporaries (`cleanup`; by default this thread's) and
 * exit with 128 + the signal's number.
 * Outside writes the signals keep their usual effect.
 */
export async function withSignalCleanup<T>(fn: () => Promise<T>, cleanup: () => unknown = removePendingTempsSync): Promise<T> {
  const installed: [NodeJS.Signals, () => void][] = [];
  const uninstall = () => {
    for (const [sig, h] of installed) process.off(sig, h);
    installed.length = 0;
  };
  for (const [sig, code] of Object.entries(SIGNAL_EXIT) as [NodeJS.Signals, number][]) {
    const h = () => {
      cleanup();
      uninstall();
      process.exit(code);
    };
    process.on(sig, h);
    installed.push([sig, h]);
  }
  try {
    return await fn();
  } finally {
    uninstall();
  }
}

/** A refused or failed write in the command line's words (one line, exit 1). */
export function reportWriteFailure(io: Io, e: unknown, command: string, fallbackFile: string): number {
  if (!(e instanceof WriteError)) return reportError(io, e, fallbackFile);
  let message: string;
  switch (e.kind) {
    case 'protected':
      message = `is the input or a file it uses; ${command} never overwrites those (choose another output name)`;
      break;
    case 'exists':
      message = 'already exists and is not the output named; nothing was written (--overwrite replaces it)';
      break;
    case 'read-only':
      message = 'is read-only; nothing was written (--force replaces it)';
      break;
    case 'duplicate':
      message = `${e.message}; choose another output name`;
      break;
    case 'folder':
      message = e.message;
      break;
    default:
      if (e.code === 'ENOENT') message = 'cannot write: its folder does not exist';
      else if (e.code === 'EEXIST') message = 'appeared while writing; nothing was written';
      else message = `cannot write: ${describeFsError(e)}`;
  }
  io.err(`${printable(`sprat: error: ${e.file}: ${message}`)}\n`);
  if (io.debug && e.stack) io.err(e.stack + '\n');
  return 1;
}

/**
 * Writes a command's outputs as one group (src/node/fs.ts writeFilesAtomic),
 * removing its temporaries if a signal stops it. Returns the exit status:
 * 0, or 1 after printing why nothing was written.
 */
export async function writeOutputs(io: Io, command: string, targets: readonly WriteTarget[], options: WriteOptions): Promise<number> {
  try {
    await withSignalCleanup(() => writeFilesAtomic(targets, options));
    return 0;
  } catch (e) {
    return reportWriteFailure(io, e, command, targets[0]?.label ?? targets[0]?.path ?? '');
  }
}
