/**
 * The style a Solarus sprite file is written in, found when it is read and
 * kept when it is written again, so that re-saving a quest's file changes
 * nothing but what was changed.
 *
 * The Lua syntax has two styles (`--style converter|editor`):
 * - `converter`, Solarus's official 1.0 -> 1.1 converter: origin_x/origin_y
 *   only when not 0, frame_to_loop_on whenever it is not -1, an empty line
 *   after every animation;
 * - `editor`, the Quest Editor (the engine's `SpriteData::export_to_lua`):
 *   origin_x/origin_y always, frame_to_loop_on only with a positive
 *   frame_delay, no empty line between animations.
 * Both write frame_delay only when positive, num_frames only above 1 and
 * num_columns only when it differs from num_frames. Besides, a file's line
 * endings, indentation, UTF-8 BOM and line breaks between and after the
 * animations are kept.
 *
 * The line syntax has one style, and hand-written files: every line's
 * spacing (between and around the tokens), empty lines and line endings are
 * kept, line by line, for the animations and directions the document still
 * has; new ones get the layout of docs/spec/solarus.md.
 */
import type { ParseOptions, SolarusSheet } from './model.js';
import { animationCount, directionCountAt } from './compact.js';
import type { OptionSpec } from '../types.js';

export const LUA_STYLES = ['converter', 'editor'] as const;
export type LuaStyleKind = (typeof LUA_STYLES)[number];

/** `convert --style`: the Lua syntax's style to write (default: the input's, else the converter's). */
export const STYLE_OPTION = {
  name: 'style',
  type: 'string',
  choices: LUA_STYLES,
  description:
    'the Lua syntax as the official converter ("converter") or the Quest Editor ("editor") writes it (default: the style of the input, else converter)',
} as const satisfies OptionSpec;

export interface LuaStyle {
  syntax: 'solarus-lua';
  kind: LuaStyleKind;
  /** Line ending: `\n` or `\r\n`. */
  eol: string;
  /** One level of indentation (the fields; directions are at two levels). */
  indent: string;
  /** Line breaks after an animation's closing brace when another follows (2: an empty line between). */
  between: number;
  /** Line breaks after the last animation. */
  final: number;
  bom: boolean;
}

/** One line of the line syntax: the white space around and between its tokens, and its line ending. */
export interface LineShape {
  /** gaps[0] before the first token, gaps[k] after token k-1; the last one ends the line. */
  gaps: string[];
  eol: string;
}

/** Lines with no token (empty or white space only), as they were: their text and line breaks but the last line's ending. */
export interface FillerLine {
  text: string;
  eol: string;
}

export interface LinesLayoutAnimation {
  header: LineShape;
  directions: LineShape[];
  /** The lines without tokens after the animation (before the next one, or the end of the file). */
  after: FillerLine[];
}

export interface LinesStyle {
  syntax: 'solarus';
  eol: string;
  bom: boolean;
  /** The lines without tokens before the first animation. */
  before: FillerLine[];
  animations: LinesLayoutAnimation[];
}

export type SolarusStyle = LuaStyle | LinesStyle;

/** The pure style `kind` (LF, two spaces). */
export function luaStyle(kind: LuaStyleKind): LuaStyle {
  const breaks = kind === 'editor' ? 1 : 2;
  return { syntax: 'solarus-lua', kind, eol: '\n', indent: '  ', between: breaks, final: breaks, bom: false };
}

/** Attaches the (lazily found) style of the file a sheet was read from, as a non-enumerable property like `sources`. */
export function rememberStyle(sheet: SolarusSheet, style: () => SolarusStyle | undefined): void {
  let cached: SolarusStyle | undefined;
  let done = false;
  const get = () => {
    if (!done) {
      done = true;
      try {
        cached = style();
      } catch {
        cached = undefined;
      }
    }
    return cached;
  };
  Object.defineProperty(sheet, 'style', { value: get, enumerable: false, writable: true, configurable: true });
}

/** The style remembered for `sheet` when it was read in `syntax`, if any. */
export function styleOf<S extends SolarusStyle['syntax']>(
  sheet: SolarusSheet,
  syntax: S,
): Extract<SolarusStyle, { syntax: S }> | undefined {
  const s = sheet.style?.();
  return s && s.syntax === syntax ? (s as Extract<SolarusStyle, { syntax: S }>) : undefined;
}

function lineEnding(text: string): string {
  const nl = text.indexOf('\n');
  return nl > 0 && text.charCodeAt(nl - 1) === 13 ? '\r\n' : '\n';
}

function countBreaks(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === 10) n++;
  return n;
}

/** What the Lua parser counts for the style (ParseOptions.keyCounts). */
export interface KeyCounts {
  /** Directions without origin_x or without origin_y (the converter leaves 0 out). */
  originOmitted: number;
  /** origin_x or origin_y written as 0 (the editor always writes them). */
  originZero: number;
}

/**
 * The style of a Lua-syntax file that parsed: `parse` parses the text again
 * with the options given (to count keys).
 */
export function detectLuaStyle(text: string, bom: boolean, parse: (opts: ParseOptions) => SolarusSheet): LuaStyle {
  const counts: KeyCounts = { originOmitted: 0, originZero: 0 };
  const sheet = parse({ keyCounts: counts });
  const indentMatch = /\n([ \t]+)[A-Za-z_]/.exec(text);
  const between = /\}((?:\r?\n)+)animation\b/.exec(text);
  const final = /\}((?:\r?\n)*)$/.exec(text);
  return luaStyleFrom(
    counts,
    animationCount(sheet),
    lineEnding(text),
    indentMatch ? indentMatch[1]! : undefined,
    between ? countBreaks(between[1]!) : undefined,
    final ? countBreaks(final[1]!) : undefined,
    bom,
  );
}

/**
 * The Lua style from what detectLuaStyle finds in a text: the parse's key
 * counts and animation count, the line ending, the first indentation, the
 * line breaks between the first two animations and after the last.
 */
export function luaStyleFrom(
  counts: KeyCounts,
  animations: number,
  eol: string,
  indent: string | undefined,
  betweenBreaks: number | undefined,
  finalBreaks: number | undefined,
  bom: boolean,
): LuaStyle {
  let kind: LuaStyleKind;
  if (counts.originOmitted > 0) kind = 'converter';
  else if (counts.originZero > 0) kind = 'editor';
  // Every origin written and none 0: both styles write the same fields; the line breaks tell.
  else kind = (betweenBreaks ?? finalBreaks ?? 2) === 1 ? 'editor' : 'converter';
  const base = luaStyle(kind);
  return {
    ...base,
    eol,
    indent: indent ?? base.indent,
    // One animation: no break between to see; the one after it tells.
    between: betweenBreaks ?? (animations <= 1 && finalBreaks ? finalBreaks : base.between),
    final: finalBreaks ?? base.final,
    bom,
  };
}

/** Splits a line (without its ending) into its gaps around space- and tab-separated tokens; `tokens` receives the count. */
function shapeOf(line: string): { gaps: string[]; tokens: number } {
  const gaps: string[] = [];
  let i = 0;
  let tokens = 0;
  const n = line.length;
  for (;;) {
    const s = i;
    while (i < n && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i++;
    gaps.push(line.slice(s, i));
    if (i >= n) break;
    tokens++;
    while (i < n && line.charCodeAt(i) !== 32 && line.charCodeAt(i) !== 9) i++;
  }
  return { gaps, tokens };
}

/**
 * The layout of a line-syntax file that parsed into `sheet` (the sheet as
 * read, not changed since): every line's spacing and ending.
 */
export function detectLinesStyle(text: string, bom: boolean, sheet: SolarusSheet): LinesStyle {
  const style: LinesStyle = { syntax: 'solarus', eol: lineEnding(text), bom, before: [], animations: [] };
  // Shapes are shared (most lines have one of a few), and runs of lines without tokens are one block: the layout stays small beside the sheet.
  const shapes = new Map<string, LineShape>();
  const shape = (gaps: string[], eol: string): LineShape => {
    const key = `${gaps.join('\u0001')}\u0002${eol}`;
    let found = shapes.get(key);
    if (!found) shapes.set(key, (found = { gaps, eol }));
    return found;
  };
  let a = -1;
  let wanted = 0;
  let pos = 0;
  const n = text.length;
  while (pos < n) {
    let nl = text.indexOf('\n', pos);
    let eol = '\n';
    if (nl < 0) {
      nl = n;
      eol = '';
    }
    let end = nl;
    if (eol && end > pos && text.charCodeAt(end - 1) === 13) {
      end--;
      eol = '\r\n';
    }
    const line = text.slice(pos, end);
    pos = nl + 1;
    const { gaps, tokens } = shapeOf(line);
    if (tokens === 0) {
      const list = a < 0 ? style.before : style.animations[a]!.after;
      const last = list[list.length - 1];
      if (last) {
        last.text += last.eol + line;
        last.eol = eol;
      } else list.push({ text: line, eol });
      continue;
    }
    if (wanted === 0) {
      a++;
      if (a >= animationCount(sheet)) break;
      wanted = directionCountAt(sheet, a);
      style.animations.push({ header: shape(gaps, eol), directions: [], after: [] });
    } else {
      style.animations[a]!.directions.push(shape(gaps, eol));
      wanted--;
    }
  }
  return style;
}
