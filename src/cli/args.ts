import { OptionError } from '../binary/errors.js';
import type { CommandOptions, OptionSpec } from '../formats/types.js';
import { checkOptionValue, didYouMean, rangeText, valueText } from '../formats/options.js';

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
 * given option specs (and their aliases), and checks every value against its spec (choices,
 * range, syntax: src/formats/options.ts) before the command reads any file.
 * Unknown options, missing and bad values are UsageErrors (exit 2). When
 * several formats declare one name with different specs, a value any of
 * them accepts passes here; `checkOptionValues` checks it against the
 * format's own spec once the format is known.
 */
export function parseArgs(argv: string[], specs: readonly OptionSpec[], shortNames: Record<string, string> = {}): ParsedArgs {
  const byName = new Map<string, OptionSpec[]>();
  for (const s of specs) {
    for (const n of [s.name, ...(s.aliases ?? [])]) {
      const list = byName.get(n);
      if (list) list.push(s);
      else byName.set(n, [s]);
    }
  }
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
    const alternatives = byName.get(name);
    if (!alternatives) throw new UsageError(`unknown option --${name}${didYouMean(name, byName.keys(), (n) => `--${n}`)}`);
    // an alias (`--anim`) stores its value under the option's name (`animation`)
    const key = alternatives[0]!.name;
    if (alternatives[0]!.type === 'flag') {
      if (value !== undefined) throw new UsageError(`option --${name} takes no value`);
      options[key] = true;
      continue;
    }
    if (value === undefined) {
      if (i + 1 >= argv.length) throw new UsageError(`option --${name} needs a value`);
      value = argv[++i]!;
    }
    checkAgainstAny(alternatives, value);
    options[key] = value;
  }
  return { positionals, options };
}

/** Passes when any of the specs accepts the value; else the first one's error, as a UsageError. */
function checkAgainstAny(specs: readonly OptionSpec[], value: string | boolean): void {
  let first: unknown;
  for (const s of specs) {
    try {
      checkOptionValue(s, value);
      return;
    } catch (e) {
      first ??= e;
    }
  }
  throw new UsageError(first instanceof Error ? first.message : String(first));
}

/**
 * Checks every option given against the specs that apply once the format
 * is known (each format's own declaration of a name it shares with other
 * formats): a value any of them rejects is a UsageError.
 */
export function checkOptionValues(specs: readonly OptionSpec[], options: CommandOptions): void {
  for (const s of specs) {
    const v = options[s.name];
    if (v === undefined || v === false) continue;
    try {
      checkOptionValue(s, v);
    } catch (e) {
      throw new UsageError(e instanceof Error ? e.message : String(e));
    }
  }
}

/** Option readers shared with the library (their errors are OptionErrors: exit 2). */
export { intOption, requireOption, stringOption, choiceOption, flagOption } from '../formats/options.js';

/** Formats option specs for --help: the value's form (choices, WxH) and its range. */
export function describeOptions(specs: readonly OptionSpec[]): string {
  const rows = specs.map((s) => {
    const range = s.type === 'int' || s.type === 'number' || s.type === 'size' ? rangeText(s) : '';
    const limits = range ? ` [${s.type === 'size' ? `each side ${range}` : range}]` : '';
    const aliases = s.aliases?.length ? ` (also ${s.aliases.map((a) => `--${a}`).join(', ')})` : '';
    return [`--${s.name}${s.type === 'flag' ? '' : ' ' + valueText(s)}`, s.description + limits + aliases];
  });
  const w = Math.max(0, ...rows.map((r) => r[0]!.length));
  return rows.map(([a, b]) => `  ${a!.padEnd(w)}  ${b}`).join('\n');
}
