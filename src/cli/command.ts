import type { OptionSpec } from '../formats/types.js';
import { FORMATS } from '../formats/registry.js';
import type { Io } from './io.js';

export interface Command {
  name: string;
  summary: string;
  usage: string;
  /** Options every format accepts for this command. */
  options: readonly OptionSpec[];
  /** The options some formats add (collected from the format handlers). */
  formatOptions?: () => readonly OptionSpec[];
  run(argv: string[], io: Io): Promise<number>;
}

export const FORMAT_OPTION: OptionSpec = { name: 'format', type: 'string', description: 'the input format (default: found from content, then extension)' };
export const HELP_OPTION: OptionSpec = { name: 'help', type: 'flag', description: 'show this help' };
export const DEBUG_OPTION: OptionSpec = { name: 'debug', type: 'flag', description: 'print stack traces on errors' };

/** The union of one command's options over every format, first declaration wins. */
export function collectFormatOptions(...keys: ('playOptions' | 'renderOptions' | 'writeOptions' | 'readOptions')[]): OptionSpec[] {
  const seen = new Map<string, OptionSpec>();
  for (const key of keys) for (const f of FORMATS) for (const o of f[key] ?? []) if (!seen.has(o.name)) seen.set(o.name, o);
  return [...seen.values()];
}

/** The full option list of a command: its own, the formats', --help and --debug. */
export function allOptions(cmd: Command): OptionSpec[] {
  return [...cmd.options, ...(cmd.formatOptions?.() ?? []), HELP_OPTION, DEBUG_OPTION];
}
