import { printable } from '../binary/errors.js';
import { UsageError } from './args.js';
import { registerBatchMain } from './batch-job.js';
import type { Command } from './command.js';
import { checkCommand } from './check.js';
import { convertCommand } from './convert.js';
import { demoCommand } from './demo.js';
import { diffCommand } from './diff.js';
import { commandHelp, helpScope } from './help.js';
import { inspectCommand } from './inspect.js';
import { newCommand } from './new.js';
import { packCommand } from './pack.js';
import { processIo, reportError, type Io } from './io.js';
import { playCommand } from './play.js';
import { renderCommand } from './render.js';
import { validateCommand } from './validate.js';
import { packageVersion } from './version.js';
import { viewCommand } from './view.js';
import { FORMATS } from '../registry.js';
import { didYouMean } from '../formats/options.js';
import { useNodeZlib } from '../node/zlib.js';

// PNGs are compressed with node's zlib (C) here, fflate's in browsers (src/render/deflate.ts).
useNodeZlib();

export const COMMANDS: Command[] = [
  inspectCommand,
  validateCommand,
  checkCommand,
  convertCommand,
  newCommand,
  packCommand,
  diffCommand,
  renderCommand,
  playCommand,
  demoCommand,
  viewCommand,
];

export function mainHelp(): string {
  const w = Math.max(...COMMANDS.map((c) => c.name.length));
  return (
    'usage: sprat COMMAND [options]\n\n' +
    'Read, check, play, draw and convert 2D game sprite, animation and level files.\n\ncommands:\n' +
    COMMANDS.map(
      (c) => `  ${c.name.padEnd(w)}  ${c.usage.replace(/^sprat \S+ ?/, '').replace(/\n\s*sprat \S+ ?/g, `\n${' '.repeat(w + 4)}`)}`,
    ).join('\n') +
    '\n\nformats: ' +
    FORMATS.map((f) => f.name).join(', ') +
    '\n\n"sprat COMMAND --help" describes a command; "sprat --version" prints the version.\n'
  );
}

/**
 * Runs the command line; returns the exit status (0 ok, 1 bad input, 2 bad
 * command line, 70 an internal error: a bug, one line). Never rejects.
 */
export async function main(argv: string[], io: Io = processIo(argv.includes('--debug'))): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (e) {
    return reportError(io, e);
  }
}

/** `unknown command "rendr", did you mean "render"? (see sprat --help)`: exit 2. */
function unknownCommand(io: Io, name: string): number {
  const near = didYouMean(
    name,
    COMMANDS.map((c) => c.name),
  );
  io.err(`${printable(`sprat: error: unknown command "${name}"${near} (see sprat --help)`)}\n`);
  return 2;
}

async function dispatch(argv: string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    if (name === 'help' && rest[0]) {
      const c = COMMANDS.find((x) => x.name === rest[0]);
      if (!c) return unknownCommand(io, rest[0]);
      io.out(commandHelp(c));
      return 0;
    }
    if (!name) {
      io.err(mainHelp());
      return 2;
    }
    io.out(mainHelp());
    return 0;
  }
  if (name === '--version') {
    io.out(`${printable(`sprat ${packageVersion()}`)}\n`);
    return 0;
  }
  const cmd = COMMANDS.find((c) => c.name === name);
  if (!cmd) return unknownCommand(io, name);
  const dashes = rest.indexOf('--');
  const flags = dashes >= 0 ? rest.slice(0, dashes) : rest;
  if (flags.includes('--help') || flags.includes('-h')) {
    io.out(commandHelp(cmd, helpScope(cmd, flags)));
    return 0;
  }
  return await cmd.run(rest, io);
}

// A file of a batch runs through this same command line (src/cli/batch-job.ts).
registerBatchMain(main, COMMANDS);

export { UsageError };
