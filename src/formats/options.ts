/**
 * The one reader of option values (`CommandOptions`), for the command line
 * and for the formats' play/render/convert/read code alike. Every reader
 * takes the option's spec (OptionSpec: its kind, choices, range, syntax), so
 * a program calling the library gets exactly the command line's wording.
 * Mistakes are OptionErrors (the command line exits 2 for them):
 *
 *     option --layout must be one of hash, array, not "arrray", did you mean "array"?
 *     option --scale must be 1 to 64, not "99"
 *     option --frame 99 is past the last frame (the animation has 4 frames: 0-3)
 *     option --animation "nope" names no animation (the file has: idle, walk)
 *     option --animation "walkin" names no animation, did you mean "walking"? (the file has: idle, walking)
 */
import { OptionError } from '../binary/errors.js';
import type { CommandOptions, OptionSpec } from './types.js';
import { HIDE_LAYERS_OPTION, LAYER_OPACITY_OPTION } from './selections.js';

/** The range an `int` / `number` / `size` spec allows, in words ("1 to 64", "at least 0"), or ''. */
export function rangeText(spec: OptionSpec): string {
  const { min, max } = spec;
  if (min !== undefined && max !== undefined) return `${min} to ${max}`;
  if (min !== undefined) return `at least ${min}`;
  if (max !== undefined) return `at most ${max}`;
  return '';
}

/** How a spec's value is written in --help (`N`, `WxH`, `hash|array`, `VALUE`, or the spec's own `value`). */
export function valueText(spec: OptionSpec): string {
  if (spec.value) return spec.value;
  if (spec.choices) return spec.choices.join('|');
  if (spec.type === 'int' || spec.type === 'number') return 'N';
  if (spec.type === 'size') return 'WxH';
  return 'VALUE';
}

// ---- near misses: the one "did you mean" of the command line and the library ----

/** Edits between two strings (Damerau-Levenshtein, optimal string alignment: a swap of neighbours is one edit). */
function editDistance(a: string, b: string): number {
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      row.push(d);
    }
    prev2 = prev;
    prev = row;
  }
  return prev[b.length]!;
}

/** How many edits still make a near miss of a word this long. */
function editsAllowed(length: number): number {
  return length <= 4 ? 1 : length <= 8 ? 2 : 3;
}

/**
 * The names `value` most likely meant, best first (at most 3, the best tier
 * only): names that differ from it only in case, else those a few edits
 * away (case ignored; 1 edit for up to 4 characters, 2 up to 8, else 3),
 * else those it begins (at least 3 characters: `anim` for `animation`).
 * Empty when none is near, or when `value` is one of `names`.
 */
export function nearNames(value: string, names: Iterable<string>): string[] {
  const unique = [...new Set(names)];
  if (unique.includes(value) || value.length > 200) return [];
  const folded = value.toLowerCase();
  const tiers: string[][] = [[], [], [], [], []];
  for (const name of unique) {
    if (name.length > 200) continue;
    const other = name.toLowerCase();
    if (other === folded) {
      tiers[0]!.push(name);
      continue;
    }
    const d = editDistance(folded, other);
    if (d <= editsAllowed(Math.max(folded.length, 1)) && d < Math.min(folded.length, other.length)) tiers[d]!.push(name);
    else if (folded.length >= 3 && other.startsWith(folded)) tiers[4]!.push(name);
  }
  return tiers.find((t) => t.length)?.slice(0, 3) ?? [];
}

/**
 * `, did you mean "walking"?` (or `"a" or "b"`) for a message that names a
 * value none of `names` is, or '' when none is near (see nearNames).
 * `show` writes a name as the message shows it (default: quoted).
 */
export function didYouMean(value: string, names: Iterable<string>, show: (name: string) => string = (n) => JSON.stringify(n)): string {
  const near = nearNames(value, names);
  return near.length ? `, did you mean ${near.map(show).join(' or ')}?` : '';
}

function bad(spec: OptionSpec, what: string, text: string, detail?: string): OptionError {
  const near = spec.choices ? didYouMean(text, spec.choices) : '';
  return new OptionError(`option --${spec.name} must be ${what}, not ${JSON.stringify(text)}${detail ? ` (${detail})` : ''}${near}`);
}

function inRange(spec: OptionSpec, n: number): boolean {
  return (spec.min === undefined || n >= spec.min) && (spec.max === undefined || n <= spec.max);
}

/**
 * Checks one value against its spec and returns it parsed: `true` for a
 * flag, the string, the number, `{ width, height }` for a size, or what the
 * spec's `parse` returns. Throws an OptionError in the one wording.
 */
export function checkOptionValue(spec: OptionSpec, value: string | boolean): unknown {
  if (spec.type === 'flag') {
    if (value !== true) throw new OptionError(`option --${spec.name} takes no value`);
    return true;
  }
  if (value === true || value === false) throw new OptionError(`option --${spec.name} needs a value`);
  const text = value;
  switch (spec.type) {
    case 'int':
    case 'number': {
      const t = text.trim();
      const n = spec.type === 'int' ? (/^[-+]?\d+$/.test(t) ? Number(t) : NaN) : t === '' ? NaN : Number(t);
      if (spec.type === 'int' ? !Number.isSafeInteger(n) : !Number.isFinite(n)) {
        throw bad(spec, spec.type === 'int' ? 'a whole number' : 'a number', text);
      }
      if (!inRange(spec, n)) throw bad(spec, rangeText(spec), text);
      return n;
    }
    case 'size': {
      const m = /^\s*(\d+)\s*[xX×]\s*(\d+)\s*$/.exec(text);
      if (!m) throw bad(spec, `${valueText(spec)} (e.g. 32x32)`, text);
      const width = Number(m[1]);
      const height = Number(m[2]);
      if (!inRange(spec, width) || !inRange(spec, height)) throw bad(spec, `${rangeText(spec)} each way`, text);
      return { width, height };
    }
    default: {
      if (spec.choices && !spec.choices.includes(text)) throw bad(spec, `one of ${spec.choices.join(', ')}`, text);
      if (spec.parse) {
        let parsed: unknown;
        let cause: unknown;
        try {
          parsed = spec.parse(text);
        } catch (e) {
          cause = e;
        }
        if (parsed !== undefined) return parsed;
        const err = bad(
          spec,
          valueText(spec),
          text,
          cause === undefined ? undefined : cause instanceof Error ? cause.message : String(cause),
        );
        // keep the class of a parser's own OptionError (e.g. ISPRITE's ScriptError), with the one wording
        if (cause instanceof OptionError && cause.constructor !== OptionError) {
          cause.message = err.message;
          throw cause;
        }
        throw err;
      }
      return text;
    }
  }
}

function raw(options: CommandOptions | undefined, spec: OptionSpec): string | boolean | undefined {
  const v: unknown = options?.[spec.name];
  if (v === undefined || v === false || v === null) return undefined;
  // a program may pass a number (`{ frame: 3 }`): read it as the command line would
  return typeof v === 'string' || typeof v === 'boolean' ? v : String(v);
}

/** An option's value checked against its spec (see checkOptionValue); undefined when absent. */
export function readOption(options: CommandOptions | undefined, spec: OptionSpec): unknown {
  const v = raw(options, spec);
  return v === undefined ? undefined : checkOptionValue(spec, v);
}

/** A string option (its choices or syntax checked); undefined when absent. */
export function stringOption(options: CommandOptions | undefined, spec: OptionSpec): string | undefined {
  const v = raw(options, spec);
  if (v === undefined) return undefined;
  checkOptionValue(spec, v);
  return v as string;
}

/** A string option limited to its spec's `choices`; undefined when absent. */
export function choiceOption<T extends string>(
  options: CommandOptions | undefined,
  spec: OptionSpec & { choices: readonly T[] },
): T | undefined {
  return stringOption(options, spec) as T | undefined;
}

/** A whole-number (or number) option within its spec's range; undefined when absent. */
export function intOption(options: CommandOptions | undefined, spec: OptionSpec): number | undefined {
  return readOption(options, spec) as number | undefined;
}

/** A WxH option within its spec's range; undefined when absent. */
export function sizeOption(options: CommandOptions | undefined, spec: OptionSpec): { width: number; height: number } | undefined {
  return readOption(options, spec) as { width: number; height: number } | undefined;
}

/** A string option with a `parse`: what it returns; undefined when absent. */
export function parsedOption<T>(
  options: CommandOptions | undefined,
  spec: OptionSpec & { parse(text: string): T | undefined },
): T | undefined {
  return readOption(options, spec) as T | undefined;
}

/** A flag: true when given (a value given to a flag is an error). */
export function flagOption(options: CommandOptions | undefined, spec: OptionSpec): boolean {
  return readOption(options, spec) === true;
}

/** An option that must be given (`doing` says what for, e.g. "play"). */
export function requireOption<T>(options: CommandOptions | undefined, spec: OptionSpec, doing?: string): T {
  const v = readOption(options, spec);
  if (v === undefined) throw new OptionError(`${doing ? `${doing} needs` : 'needs'} option --${spec.name} ${valueText(spec)}`);
  return v as T;
}

// ---- selections: option values that must name something in the file ----

const MAX_LISTED = 20;
/** The most characters the names of one `listed` take (the first name always shown): messages and notes are lines of at most 400. */
const LISTED_CHARS = 200;

/** Names for a message or a note: the first `max` (default 20) that fit in LISTED_CHARS, then how many in all. */
export function listed(names: readonly string[], max = MAX_LISTED): string {
  let n = Math.min(1, names.length);
  let chars = names[0]?.length ?? 0;
  while (n < Math.min(max, names.length) && chars + 2 + names[n]!.length <= LISTED_CHARS) chars += 2 + names[n++]!.length;
  const shown = names.slice(0, n).join(', ');
  return names.length > n ? `${shown}, ... (${names.length} in all)` : shown;
}

/** How many names a note lists (`listed`): a note is one line of at most 400 characters. */
export const NOTE_NAMES = 6;

function plural(noun: string, n: number): string {
  return n === 1 ? noun : `${noun}s`;
}

function shown(value: string | number): string {
  return typeof value === 'number' ? String(value) : JSON.stringify(value);
}

/**
 * An index option (`--frame`, `--direction`, `--sprite`, `--frame-id`)
 * checked against how many there are: past the last is an OptionError
 * (exit 2), one rule and one wording for every format:
 *
 *     option --frame 99 is past the last frame (the animation has 4 frames: 0-3)
 *
 * `owner` names what holds them ("the animation", `animation "walk"`).
 */
export function selectIndex(option: string, index: number, count: number, noun: string, owner: string): number {
  if (index < 0 || !Number.isInteger(index)) {
    throw new OptionError(`option --${option} must be at least 0, not ${JSON.stringify(String(index))}`);
  }
  if (index < count) return index;
  const has = count === 0 ? `no ${plural(noun, 0)}` : `${count} ${plural(noun, count)}: ${count === 1 ? '0' : `0-${count - 1}`}`;
  throw new OptionError(`option --${option} ${index} is past the last ${noun} (${owner} has ${has})`);
}

/**
 * The error for a name option (`--animation`, `--view`, `--tile-size`)
 * that names nothing in the file, for lookups of a format's own kind:
 *
 *     option --animation "nope" names no animation (the file has: idle, walk)
 */
export function namesNothing(
  option: string,
  value: string | number,
  noun: string,
  owner: string,
  known: readonly (string | number)[],
  /** The names a near miss is looked for among (default: `known`). */
  near: readonly string[] = known.map(String),
): OptionError {
  const has = known.length ? `: ${listed(known.map(String))}` : ' none';
  const hint = typeof value === 'string' ? didYouMean(value, near) : '';
  return new OptionError(`option --${option} ${shown(value)} names no ${noun}${hint} (${owner} has${has})`);
}

/**
 * The item whose name is `value`, compared exactly (as the Aseprite, CTHG,
 * Hallgeir, Solarus and JSON sheet engines look names up); else the
 * namesNothing error, with a "did you mean" for a near miss (a name that
 * differs only in case among them). ISPRITE compares names its own way.
 */
export function selectNamed<T>(
  option: string,
  value: string,
  items: readonly T[],
  nameOf: (item: T) => string,
  noun: string,
  owner: string,
): T {
  const found = items.find((x) => nameOf(x) === value);
  if (found === undefined) throw namesNothing(option, value, noun, owner, [...new Set(items.map(nameOf))]);
  return found;
}

// ---- a level's layers: shown, hidden, faded ----

/**
 * The layer choices of `options` for a picture of `count` layers; a layer
 * number past the last is an OptionError, and so is a choice for a picture
 * without layers.
 */
export function layerChoices(options: CommandOptions | undefined, count: number): { hidden: Set<number>; opacity: Map<number, number> } {
  const hide = parsedOption(options, HIDE_LAYERS_OPTION) ?? [];
  const fade = parsedOption(options, LAYER_OPACITY_OPTION) ?? new Map<number, number>();
  for (const [option, list] of [
    [HIDE_LAYERS_OPTION.name, hide],
    [LAYER_OPACITY_OPTION.name, [...fade.keys()]],
  ] as const) {
    for (const n of list) selectIndex(option, n, count, 'layer', 'the picture');
  }
  return { hidden: new Set(hide), opacity: fade };
}
