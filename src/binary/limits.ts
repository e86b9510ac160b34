/**
 * Every work budget in one place: what each limits, its default, and the
 * command-line option that raises it. Every command reads its limits with
 * `limitsFrom(options)` and spends them through a `Budget`, which throws a
 * `LimitError` naming the option before the work (or the allocation) is done.
 *
 * The defaults keep any input of under 1 MB within about 1 GiB of memory and
 * a few seconds of CPU; a user with a real large file raises the one named.
 */
import { OptionError, oneLine } from './errors.js';

export interface Limits {
  /** Output pixels of one command, over all frames, sheets and canvases it makes. */
  maxPixels: number;
  /** Pixels composited (the area each draw touches, at least 1024 a draw, summed over every draw). */
  maxDrawPixels: number;
  /** Records `play` produces. */
  maxRecords: number;
  /** Bytes of JSON a command prints or writes (`inspect --json`, `play --json`, a JSON sheet's file). */
  maxJsonBytes: number;
  /** Size of any one file read: inputs and the resources they name. */
  maxFileBytes: number;
  /** Frames and tile cells one command may build (a conversion's common model; frames drawn from a document's count). */
  maxItems: number;
  /**
   * CPU work one command may do beyond plain compositing, in steps of about a nanosecond of one core
   * (see WORK_STEPS): blend-mode compositing, path filling and stroking, cell splitting, JSON building.
   */
  maxWork: number;
}

export interface LimitSpec {
  key: keyof Limits;
  /** The long option, without `--`. */
  option: string;
  default: number;
  /** What the number counts, for messages and --help. */
  unit: string;
  description: string;
}

export const LIMIT_SPECS: readonly LimitSpec[] = [
  {
    key: 'maxPixels',
    option: 'max-pixels',
    default: 1 << 26,
    unit: 'pixels',
    description: 'output pixels one command may make, over all frames and sheets',
  },
  {
    key: 'maxDrawPixels',
    option: 'max-draw-pixels',
    default: 1 << 30,
    unit: 'pixels',
    description: 'pixels one command may composite, summed over every draw (at least 1024 a draw)',
  },
  { key: 'maxRecords', option: 'max-records', default: 1_000_000, unit: 'records', description: 'records `play` may produce' },
  {
    key: 'maxJsonBytes',
    option: 'max-json-bytes',
    default: 256 * 2 ** 20,
    unit: 'bytes',
    description: 'bytes of JSON a command may print or write (`--json` outputs, JSON sheets and atlases)',
  },
  {
    key: 'maxFileBytes',
    option: 'max-file-bytes',
    default: 512 * 2 ** 20,
    unit: 'bytes',
    description: 'size of any one file read (inputs, sheets, textures)',
  },
  {
    key: 'maxItems',
    option: 'max-items',
    default: 1 << 18,
    unit: 'items',
    description: 'frames and tile cells one command may build (the common model of a conversion, frames drawn from a count)',
  },
  {
    key: 'maxWork',
    option: 'max-work',
    // about 4 s of one core: with the rest of a command, within the 10 s any input under 1 MB may cost
    default: 2 ** 32,
    unit: 'steps',
    description:
      'CPU work one command may do beyond plain compositing (blend modes, shape filling and stroking, cell splitting, JSON building), in steps of about a nanosecond',
  },
];

/**
 * What one unit of each kind of CPU-heavy work costs from `maxWork`, in steps (about a nanosecond of
 * one core each, measured on the 2-core machine of docs/performance.md with node 20). Charged before
 * the work is done, like every budget.
 */
export const WORK_STEPS = {
  /** One destination pixel composited in an Aseprite blend mode other than normal (about 130 ns). */
  blendPixel: 160,
  /** One cell of a shape's raster pass box swept (src/render/qtraster.ts grayRaster, a box of up to 4M cells). */
  rasterSweep: 8,
  /** One cell an edge of a shape crosses in such a pass, recorded. */
  rasterCell: 24,
  /** One cell an edge crosses in a pass over a bigger box: recorded, kept (24 bytes) and sorted. */
  rasterSparseCell: 200,
  /** One point of an outline rasterised (flattened, mapped, its edges walked). */
  outlinePoint: 1000,
  /** One point of a path stroked (the stroker, its round joins and caps flattened). */
  strokePoint: 40000,
  /**
   * One cell a sheet is split into by `new` (cut, trimmed, hashed and compared, packed, and its entry
   * in the JSON a sheet format writes: about 20 µs), besides its pixels (splitPixel).
   */
  splitCell: 20000,
  /** One pixel of a cell cut, trimmed and hashed. */
  splitPixel: 8,
  /** One byte of JSON built as a value tree and written. */
  jsonByte: 16,
} as const;

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze(
  Object.fromEntries(LIMIT_SPECS.map((s) => [s.key, s.default])) as unknown as Limits,
);

/** A budget ran out: exit 1, with a message naming the option that raises it. */
export class LimitError extends Error {
  override name = 'LimitError';
  constructor(
    readonly spec: LimitSpec,
    what: string,
    readonly needed: number,
    readonly limit: number,
  ) {
    super(
      // `what` may quote names from the input (an animation named "a\nb"): one line, as every message.
      `${oneLine(what)} would need ${needed > Number.MAX_SAFE_INTEGER || !Number.isFinite(needed) ? 'more than ' + Number.MAX_SAFE_INTEGER : needed} ${spec.unit}, more than the limit of ${limit} (raise it with --${spec.option})`,
    );
  }
}

function specOf(key: keyof Limits): LimitSpec {
  return LIMIT_SPECS.find((s) => s.key === key)!;
}

/**
 * The limits in `options` (a program's CommandOptions or the command line's
 * `--max-*` values); defaults for the ones not given. Accepts numbers or
 * decimal strings; anything else is an OptionError (exit 2).
 */
export function limitsFrom(options: Record<string, unknown> | undefined): Limits {
  const out = { ...DEFAULT_LIMITS };
  if (!options) return out;
  for (const s of LIMIT_SPECS) {
    const v = options[s.option] ?? options[s.key];
    if (v === undefined || v === false) continue;
    // the wording of every option check (src/formats/options.ts; the command line checks these as `int` specs with min 1)
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^[-+]?\d+$/.test(v.trim()) ? Number(v.trim()) : NaN;
    if (!Number.isSafeInteger(n)) throw new OptionError(`option --${s.option} must be a whole number, not ${JSON.stringify(String(v))}`);
    if (n < 1) throw new OptionError(`option --${s.option} must be at least 1, not ${JSON.stringify(String(v))}`);
    out[s.key] = n;
  }
  return out;
}

/**
 * Spends limits during one command. Call `spend` before the work or the
 * allocation it pays for; it throws a LimitError when the total would pass
 * the limit. One Budget per command run (share it across frames and sheets).
 */
export class Budget {
  private readonly spent: Record<keyof Limits, number> = {
    maxPixels: 0,
    maxDrawPixels: 0,
    maxRecords: 0,
    maxJsonBytes: 0,
    maxFileBytes: 0,
    maxItems: 0,
    maxWork: 0,
  };

  constructor(readonly limits: Limits = { ...DEFAULT_LIMITS }) {}

  /** Adds `amount` to `key`'s running total; `what` says what it is for ("a 4000x4000 frame"). */
  spend(key: keyof Limits, amount: number, what: string): void {
    const total = this.spent[key] + amount;
    if (!(total <= this.limits[key])) throw new LimitError(specOf(key), what, total, this.limits[key]);
    this.spent[key] = total;
  }

  /** Checks one amount against `key`'s limit without adding it to the total (file sizes). */
  check(key: keyof Limits, amount: number, what: string): void {
    if (!(amount <= this.limits[key])) throw new LimitError(specOf(key), what, amount, this.limits[key]);
  }

  /** How much of `key` is left. */
  left(key: keyof Limits): number {
    return this.limits[key] - this.spent[key];
  }
}

/** A new Budget from the `--max-*` values in `options` (defaults for the rest). */
export function budgetFrom(options: Record<string, unknown> | undefined): Budget {
  return new Budget(limitsFrom(options));
}
