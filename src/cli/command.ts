import * as path from 'node:path';
import type { CommandOptions, FormatHandler, OptionSpec } from '../formats/types.js';
import { UsageError, checkOptionValues } from './args.js';
import { didYouMean } from '../formats/options.js';
import { FORMATS } from '../registry.js';
import { LIMIT_SPECS } from '../binary/limits.js';
import type { Io } from './io.js';

export interface Command {
  name: string;
  summary: string;
  usage: string;
  /** Options every format accepts for this command. */
  options: readonly OptionSpec[];
  /** Command lines shown under "examples:" in --help. */
  examples?: readonly string[];
  /** Which of the format handlers' option lists this command accepts. */
  formatOptionKeys?: readonly FormatOptionKey[];
  run(argv: string[], io: Io): Promise<number>;
}

export type FormatOptionKey = 'playOptions' | 'renderOptions' | 'resourceOptions' | 'writeOptions' | 'readOptions' | 'convertOptions';

export const FORMAT_OPTION: OptionSpec = {
  name: 'format',
  type: 'string',
  value: 'F',
  description: 'the input format (default: found from content, then extension)',
};
export const HELP_OPTION: OptionSpec = { name: 'help', type: 'flag', description: 'show this help' };
export const DEBUG_OPTION: OptionSpec = { name: 'debug', type: 'flag', description: 'print stack traces on errors' };
/** The work budgets (src/binary/limits.ts): every command takes them. */
export const LIMIT_OPTIONS: OptionSpec[] = LIMIT_SPECS.map((s) => ({
  name: s.option,
  type: 'int',
  min: 1,
  description: `${s.description} (default ${s.default})`,
}));

/**
 * The union of one command's options over every format: every distinct
 * declaration (the shared selections are one object each:
 * src/formats/selections.ts), so that a name two formats declare
 * differently (`--tileset`) keeps both specs (a value either accepts passes
 * before the file is read).
 */
export function collectFormatOptions(keys: readonly FormatOptionKey[]): OptionSpec[] {
  const seen = new Set<OptionSpec>();
  for (const key of keys) for (const f of FORMATS) for (const o of f[key] ?? []) seen.add(o);
  return [...seen];
}

/** The full option list of a command: its own, the formats', --help and --debug. */
export function allOptions(cmd: Command): OptionSpec[] {
  return [...cmd.options, ...collectFormatOptions(cmd.formatOptionKeys ?? []), ...LIMIT_OPTIONS, HELP_OPTION, DEBUG_OPTION];
}

/**
 * Each format's own options for a command, for --help: formats with the
 * same list share one entry ("solarus, solarus-lua").
 */
export function optionsByFormat(keys: readonly FormatOptionKey[], formats: readonly FormatHandler[] = FORMATS): [string, OptionSpec[]][] {
  const groups = new Map<string, { names: string[]; specs: OptionSpec[] }>();
  for (const f of formats) {
    const byName = new Map<string, OptionSpec>();
    for (const k of keys) for (const o of f[k] ?? []) if (!byName.has(o.name)) byName.set(o.name, o);
    if (!byName.size) continue;
    const specs = [...byName.values()];
    const key = JSON.stringify(specs);
    const g = groups.get(key);
    if (g) g.names.push(f.name);
    else groups.set(key, { names: [f.name], specs });
  }
  return [...groups.values()].map((g) => [g.names.join(', '), g.specs]);
}

/**
 * After the format is known: an option that only other formats take is a
 * command-line error (exit 2), rather than silently ignored; and every value
 * is checked against the format's own spec of its option.
 */
export function rejectForeignOptions(cmd: Command, handlers: readonly FormatHandler[], options: CommandOptions): void {
  const allowed = new Set([...cmd.options, ...LIMIT_OPTIONS, HELP_OPTION, DEBUG_OPTION].map((o) => o.name));
  for (const h of handlers) for (const k of cmd.formatOptionKeys ?? []) for (const o of h[k] ?? []) allowed.add(o.name);
  for (const name of Object.keys(options)) {
    if (options[name] !== undefined && !allowed.has(name)) {
      throw new UsageError(`option --${name} does not apply to ${[...new Set(handlers.map((h) => h.name))].join(' or ')} files`);
    }
  }
  // the formats' own declarations: a name two formats declare differently is checked by the one that reads it
  const own: OptionSpec[] = [];
  for (const h of handlers) for (const k of cmd.formatOptionKeys ?? []) for (const s of h[k] ?? []) own.push(s);
  checkOptionValues(own, options);
}

/**
 * After the format is known: the paths the user typed in path options
 * (OptionSpec.paths: --images, --tileset, --recolour, ...) are relative to
 * the current folder; they are resolved against it here, so the library
 * takes them as given. The handlers' own declarations win (the same option
 * name can have another syntax in another format), in order.
 */
export function resolveUserPaths(cmd: Command, handlers: readonly FormatHandler[], options: CommandOptions, cwd: string): void {
  const specs: OptionSpec[] = [];
  for (const h of handlers) for (const k of cmd.formatOptionKeys ?? []) for (const s of h[k] ?? []) specs.push(s);
  for (const s of cmd.options) specs.push(s);
  const resolve = (p: string) => path.resolve(cwd, p);
  for (const [name, value] of Object.entries(options)) {
    if (typeof value !== 'string') continue;
    const spec = specs.find((o) => o.name === name);
    if (!spec?.paths) continue;
    options[name] = spec.paths === true ? resolve(value) : spec.paths(value, resolve);
  }
}

/**
 * `--format/--from/--to` must name a known format: a wrong name is a
 * command-line error (exit 2). With `cmd`, the option values are also
 * checked against the named formats' own specs, still before any file is read.
 */
export function checkFormatNames(options: CommandOptions, names: readonly string[] = ['format'], cmd?: Command): void {
  const named: FormatHandler[] = [];
  for (const n of names) {
    const v = options[n];
    if (typeof v !== 'string') continue;
    const h = FORMATS.find((f) => f.name === v);
    if (!h) {
      const names = FORMATS.map((f) => f.name);
      throw new UsageError(`unknown format "${v}" for --${n}${didYouMean(v, names)} (known: ${names.join(', ')})`);
    }
    named.push(h);
  }
  if (!cmd) return;
  const own: OptionSpec[] = [];
  for (const h of named) for (const k of cmd.formatOptionKeys ?? []) for (const s of h[k] ?? []) own.push(s);
  checkOptionValues(own, options);
}
