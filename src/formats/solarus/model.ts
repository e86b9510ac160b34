/**
 * The Solarus sprite sheet ("animation set") document, shared by the 0.9
 * line syntax (lines.ts) and the 1.1+ Lua syntax (lua.ts). Field names follow
 * the spec's JSON (docs/spec/solarus.md).
 */
import { diagnostic, FormatError, type Diagnostic, printableLines } from '../../binary/errors.js';
import { JsonList } from '../../binary/json-array.js';
import type { RgbaImage } from '../../render/image.js';
import type { KeyCounts, SolarusStyle } from './style.js';
import { animationAt, animationCount, animationStore } from './compact.js';
import { animationsJson } from './json.js';

export interface SolarusDirection {
  /** Upper-left corner of the first frame in the image. */
  x: number;
  y: number;
  frameWidth: number;
  frameHeight: number;
  /** The origin point, relative to a frame's upper-left corner. */
  originX: number;
  originY: number;
  frameCount: number;
  /** Columns of the frame grid (may exceed frameCount: one row). */
  columns: number;
}

export interface SolarusAnimation {
  name: string;
  /** Relative to `sprites/`, or the keyword `tileset`. */
  image: string;
  /** Milliseconds between frames; 0: the first frame shows forever. */
  frameDelay: number;
  /** The frame to loop on after the last, or -1: finish. */
  loopOnFrame: number;
  directions: SolarusDirection[];
}

export interface SolarusSheet {
  /** In file order; the first is the default animation. */
  animations: SolarusAnimation[];
  /**
   * Only from a conversion that had to redraw the frames (they were not one
   * plain rectangle of a grid): the new sheet, which the animations name as
   * BAKED_IMAGE. Writing to a file (`writeFiles`) saves it beside the sprite
   * as STEM.png and names that instead.
   */
  bakedImage?: RgbaImage;
  /**
   * Only on a sheet a handler read: where each animation was in the file
   * (computed on demand by parsing the file again, so reading costs nothing
   * extra). Set by `rememberSource` as a non-enumerable property: not part of
   * the document's data (inspect JSON, equality, copies leave it out).
   */
  sources?: () => AnimationPositions[];
  /**
   * Only on a sheet read from a file: the style it was written in (found on
   * demand; style.ts), which writing it again in the same syntax keeps.
   * Non-enumerable, like `sources`.
   */
  style?: () => SolarusStyle | undefined;
}

/** The image name animations carry until a redrawn sheet is saved beside its sprite. */
export const BAKED_IMAGE = 'sprite.png';

export type SolarusSyntax = 'solarus' | 'solarus-lua';

/** Largest magnitude a number may have (the engine reads C ints). */
export const MAX_INT = 2147483647;

/** Where a parsed value was, for diagnostics (1-based). */
export interface Pos {
  line: number;
  column: number;
}

export interface ParseOptions {
  warn?(d: Diagnostic): void;
  /** Rule 5 as `validate` applies it: loop_on_frame out of range is an error. */
  strict?: boolean;
  /** When given, receives the source positions of each animation, in order. */
  positions?: AnimationPositions[];
  /** When given, the Lua reader counts the keys that tell its style (style.ts). */
  keyCounts?: KeyCounts;
}

/** The positions of an animation's fields, for the checks shared by both syntaxes. */
export interface AnimationPositions {
  name: Pos;
  frameDelay: Pos;
  loopOnFrame: Pos;
  /** Per direction: where the direction starts. */
  directions: Pos[];
}

/** Field names in each syntax, for messages. */
export const FIELD_NAMES: Record<SolarusSyntax, { frameDelay: string; loopOnFrame: string; frameCount: string; columns: string }> = {
  solarus: { frameDelay: 'frame_delay', loopOnFrame: 'loop_on_frame', frameCount: 'frames', columns: 'columns' },
  'solarus-lua': { frameDelay: 'frame_delay', loopOnFrame: 'frame_to_loop_on', frameCount: 'num_frames', columns: 'num_columns' },
};

/** Records how to find where each animation of a sheet a handler read was in its file (`SolarusSheet.sources`). */
export function rememberSource(sheet: SolarusSheet, positions: () => AnimationPositions[]): void {
  Object.defineProperty(sheet, 'sources', { value: positions, enumerable: false, writable: true, configurable: true });
}

/** The source positions of animation `index` of a sheet a handler read, if known. */
export function positionsOf(sheet: SolarusSheet, index: number): AnimationPositions | undefined {
  const f = sheet.sources;
  if (!f) return undefined;
  let list: AnimationPositions[] | undefined;
  try {
    list = f();
  } catch {
    return undefined;
  }
  // Only while the document still matches the file.
  return list.length === animationCount(sheet) ? list[index] : undefined;
}

/**
 * Rules 3, 5, 6 and 7 of docs/spec/solarus.md, once an animation is complete (rules
 * 1, 2 and 4 are checked by each parser where the token is). The animation
 * is given by its fields (the readers make no object of it): `count`
 * directions, the frames of direction k at `fc[base + k * stride]` and its
 * columns just after. `seen`: the names so far (rule 3), or null when the
 * caller checks it.
 */
export function checkAnimation(
  format: SolarusSyntax,
  name: string,
  frameDelay: number,
  loop: number,
  count: number,
  fc: ArrayLike<number>,
  base: number,
  stride: number,
  positions: AnimationPositions | (() => AnimationPositions),
  seen: Set<string> | null,
  opts: ParseOptions,
): void {
  // Positions are built only when something needs them (and once). No closures here: this runs per animation.
  let pos: AnimationPositions | undefined;
  if (seen) {
    if (seen.has(name)) {
      pos = resolvePositions(positions);
      throw FormatError.atLine(format, `duplicate animation name "${name}"`, pos.name.line, pos.name.column);
    }
    seen.add(name);
  }
  if (opts.positions) opts.positions.push((pos ??= resolvePositions(positions)));
  if (loop >= 0) {
    let short = -1;
    for (let i = 0; i < count; i++) {
      if (loop >= fc[base + i * stride]!) {
        short = i;
        break;
      }
    }
    if (short >= 0) {
      const names = FIELD_NAMES[format];
      const frames = fc[base + short * stride]!;
      pos ??= resolvePositions(positions);
      const reason = `animation "${name}": ${names.loopOnFrame} ${loop} is not a frame of direction ${short} (${frames} frame${frames === 1 ? '' : 's'})`;
      if (opts.strict) throw FormatError.atLine(format, reason, pos.loopOnFrame.line, pos.loopOnFrame.column);
      opts.warn?.(diagnostic('warning', reason + '; the engine would crash on it', pos.loopOnFrame));
    }
  }
  if (frameDelay === 0 && opts.warn) {
    let several = false;
    for (let i = 0; i < count; i++) if (fc[base + i * stride]! > 1) several = true;
    if (several) {
      pos ??= resolvePositions(positions);
      const names = FIELD_NAMES[format];
      opts.warn(
        diagnostic(
          'warning',
          `animation "${name}": ${names.frameDelay} 0 with several frames: the first frame shows forever`,
          pos.frameDelay,
        ),
      );
    }
  }
  if (format === 'solarus-lua' && opts.warn) {
    for (let i = 0; i < count; i++) {
      const frames = fc[base + i * stride]!;
      const columns = fc[base + i * stride + 1]!;
      if (columns > frames) {
        pos ??= resolvePositions(positions);
        opts.warn(
          diagnostic(
            'warning',
            `animation "${name}" direction ${i}: num_columns ${columns} > num_frames ${frames} (one row; Solarus 1.x rejects this)`,
            pos.directions[i]!,
          ),
        );
      }
    }
  }
}

function resolvePositions(positions: AnimationPositions | (() => AnimationPositions)): AnimationPositions {
  return typeof positions === 'function' ? positions() : positions;
}

/** Where frame j of a direction is in the image. */
export function frameRect(d: SolarusDirection, j: number): { x: number; y: number; width: number; height: number } {
  const c = Math.max(1, d.columns);
  return { x: d.x + (j % c) * d.frameWidth, y: d.y + Math.floor(j / c) * d.frameHeight, width: d.frameWidth, height: d.frameHeight };
}

/** One string per distinct value (sheets name the same few images many times); at most `max` kept. */
export function stringPool(max = 4096): (s: string) => string {
  const pool = new Map<string, string>();
  return (s) => {
    const had = pool.get(s);
    if (had !== undefined) return had;
    if (pool.size < max) pool.set(s, s);
    return s;
  };
}

/** The `inspect --json` object of docs/spec/solarus.md. */
export function inspectJson(format: SolarusSyntax, sheet: SolarusSheet): unknown {
  const item = (i: number) => {
    const a = animationAt(sheet, i);
    return {
      name: a.name,
      image: a.image,
      frameDelay: a.frameDelay,
      loopOnFrame: a.loopOnFrame,
      directions: a.directions.map((d) => ({
        x: d.x,
        y: d.y,
        frameWidth: d.frameWidth,
        frameHeight: d.frameHeight,
        originX: d.originX,
        originY: d.originY,
        frameCount: d.frameCount,
        columns: d.columns,
      })),
    };
  };
  // A sheet as read: its text written straight from the store (json.ts).
  const store = animationStore(sheet);
  return { format, animations: store ? animationsJson(store, item) : new JsonList(animationCount(sheet), item) };
}

export function inspectText(format: SolarusSyntax, sheet: SolarusSheet): string {
  const title = format === 'solarus' ? 'Solarus sprite sheet (0.9 line syntax)' : 'Solarus sprite sheet (Lua syntax)';
  const n = animationCount(sheet);
  const lines = [`${title}: ${n} animation${n === 1 ? '' : 's'}`];
  for (let i = 0; i < n; i++) {
    const a = animationAt(sheet, i);
    const delay = a.frameDelay === 0 ? 'still' : `${a.frameDelay} ms/frame`;
    const loop = a.loopOnFrame < 0 ? 'plays once' : `loops on frame ${a.loopOnFrame}`;
    lines.push(
      `  ${a.name}${i === 0 ? ' (default)' : ''}: image ${a.image}, ${delay}, ${loop}, ${a.directions.length} direction${a.directions.length === 1 ? '' : 's'}`,
    );
    a.directions.forEach((d, k) => {
      lines.push(
        `    direction ${k}: ${d.frameCount} frame${d.frameCount === 1 ? '' : 's'} of ${d.frameWidth}x${d.frameHeight} at (${d.x}, ${d.y}), ${d.columns} column${d.columns === 1 ? '' : 's'}, origin (${d.originX}, ${d.originY})`,
      );
    });
  }
  return printableLines(lines) + '\n';
}

/**
 * Refuses a sheet whose numbers the readers would reject (so that whatever
 * the writers write reads back): a FormatError naming the animation, the
 * field (in `format`'s words) and the value. Numbers must be whole and at
 * most MAX_INT in magnitude (the engine reads C ints); directions, frame
 * sizes, frames and columns at least 1; frame_delay not negative;
 * loop_on_frame -1 or more.
 */
export function checkWritable(format: SolarusSyntax, sheet: SolarusSheet): void {
  // A sheet as a reader made it: every number was checked when it was read.
  if (animationStore(sheet)) return;
  const names = FIELD_NAMES[format];
  const check = (v: number, min: number, what: () => string) => {
    if (Number.isInteger(v) && v >= min && v <= MAX_INT) return;
    const range = `${min === -MAX_INT ? `-${MAX_INT}` : min} to ${MAX_INT}`;
    throw new FormatError(format, `${what()} ${v} cannot be written: it must be a whole number from ${range}`);
  };
  const n = animationCount(sheet);
  for (let i = 0; i < n; i++) {
    const a = animationAt(sheet, i);
    const at = `animation "${a.name}"`;
    if (a.directions.length === 0) throw new FormatError(format, `${at} has no direction; at least 1 is needed`);
    check(a.frameDelay, 0, () => `${at} ${names.frameDelay}`);
    check(a.loopOnFrame, -1, () => `${at} ${names.loopOnFrame}`);
    a.directions.forEach((d, k) => {
      const dir = () => `${at} direction ${k}`;
      check(d.x, -MAX_INT, () => `${dir()} x`);
      check(d.y, -MAX_INT, () => `${dir()} y`);
      check(d.frameWidth, 1, () => `${dir()} frame_width`);
      check(d.frameHeight, 1, () => `${dir()} frame_height`);
      check(d.originX, -MAX_INT, () => `${dir()} origin_x`);
      check(d.originY, -MAX_INT, () => `${dir()} origin_y`);
      check(d.frameCount, 1, () => `${dir()} ${names.frameCount}`);
      check(d.columns, 1, () => `${dir()} ${names.columns}`);
    });
  }
}
