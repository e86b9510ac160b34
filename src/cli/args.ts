import { OptionError } from '../binary/errors.js';
import type { CommandOptions, OptionSpec } from '../formats/types.js';

/** A wrong command line: exit status 2. */
export class UsageError extends OptionError {
  override name = 'UsageError';
}

export interface ParsedArgs {
  positionals: string[];
  options: CommandOptions;
}

/**
 * Parses `--name value`, `--name=value`, `--flag` and `-o value` against the
 * given option specs. Unknown options and missing values are UsageErrors.
 */
export function parseArgs(argv: string[], specs: readonly OptionSpec[], shortNames: Record<string, string> = {}): ParsedArgs {
  const byName = new Map<string, OptionSpec>();
  for (const s of specs) byName.set(s.name, s);
  const positionals: string[] = [];
  const options: CommandOptions = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    let name: string | undefined;
    let value: string | undefined;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
      if (eq >= 0) value = a.slice(eq + 1);
    } else if (a.length > 1 && a.startsWith('-') && !/^-\d/.test(a)) {
      name = shortNames[a.slice(1)];
      if (!name) throw new UsageError(`unknown option ${a}`);
    } else {
      positionals.push(a);
      continue;
    }
    const spec = byName.get(name);
    if (!spec) throw new UsageError(`unknown option --${name}`);
    if (spec.type === 'flag') {
      if (value !== undefined) throw new UsageError(`option --${name} takes no value`);
      options[name] = true;
      continue;
    }
    if (value === undefined) {
      if (i + 1 >= argv.length) throw new UsageError(`option --${name} needs a value`);
      value = argv[++i]!;
    }
    if (spec.type === 'int' && !/^-?\d+$/.test(value)) {
      throw new UsageError(`option --${name} needs a whole number, not "${value}"`);
    }
    if (spec.type === 'number' && !Number.isFinite(Number(value))) {
      throw new UsageError(`option --${name} needs a number, not "${value}"`);
    }
    options[name] = value;
  }
  return { positionals, options };
}

/** Option readers shared with the library (their errors are OptionErrors: exit 2). */
export { intOption, requireOption, stringOption } from '../formats/options.js';

/** Formats option specs for --help. */
export function describeOptions(specs: readonly OptionSpec[]): string {
  const rows = specs.map((s) => [`--${s.name}${s.type === 'flag' ? '' : ' ' + (s.type === 'string' ? 'VALUE' : 'N')}`, s.description]);
  const w = Math.max(0, ...rows.map((r) => r[0]!.length));
  return rows.map(([a, b]) => `  ${a!.padEnd(w)}  ${b}`).join('\n');
}
