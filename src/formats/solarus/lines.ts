/**
 * The Solarus 0.9 line syntax: a header line
 * `name image directions frame_delay loop_on_frame` per animation, then one
 * line `x y frame_width frame_height origin_x origin_y frames columns` per
 * direction. Tokens are separated by spaces or tabs; empty lines and CR LF
 * are accepted between lines.
 */
import { diagnostic, FormatError } from '../../binary/errors.js';
import { encodeUtf8 } from '../../binary/utf8.js';
import {
  stringPool,
  checkAnimation,
  checkWritable,
  MAX_INT,
  type AnimationPositions,
  type ParseOptions,
  type SolarusAnimation,
  type SolarusDirection,
  type SolarusSheet,
} from './model.js';
import { decodeText } from './text.js';
import { detectLinesStyle, rememberStyle, styleOf, type FillerLine, type LineShape, type LinesStyle } from './style.js';

const FORMAT = 'solarus';
const MAX_TOKENS = 16;
const HEADER_FIELDS = ['name', 'image', 'directions', 'frame_delay', 'loop_on_frame'] as const;
const DIRECTION_FIELDS = ['x', 'y', 'frame_width', 'frame_height', 'origin_x', 'origin_y', 'frames', 'columns'] as const;

/** Reads the line syntax. Throws FormatError (with line and column) for bad input. */
export function readLines(bytes: Uint8Array, opts: ParseOptions = {}): SolarusSheet {
  const text = decodeText(bytes, opts);
  const sheet = parseLines(text, opts);
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  // The layout of the file as read (parsed again, since the sheet may have changed by the time it is asked for).
  rememberStyle(sheet, () => detectLinesStyle(text, bom, parseLines(text)));
  return sheet;
}

export function parseLines(text: string, opts: ParseOptions = {}): SolarusSheet {
  const animations: SolarusAnimation[] = [];
  const seen = new Set<string>();
  const sharedImage = stringPool();
  const n = text.length;
  // Token starts and ends of the current line (reused; tokens past MAX_TOKENS are only counted).
  const starts = new Int32Array(MAX_TOKENS);
  const ends = new Int32Array(MAX_TOKENS);
  // Where the current animation's fields are: its header line and columns, and each direction's line and column.
  let nameCol = 0;
  let delayCol = 0;
  let loopCol = 0;
  const dirLines: number[] = [];
  const dirCols: number[] = [];
  let line = 0;
  let pos = 0;
  let lineStart = 0;
  let lineEnd = 0;
  let current: SolarusAnimation | null = null;
  let wanted = 0;
  let headerLine = 0;

  const col = (i: number) => i - lineStart + 1;
  const fail = (reason: string, i: number): never => {
    throw FormatError.atLine(FORMAT, reason, line, col(i));
  };
  const int = (k: number, field: string): number => {
    const s = starts[k]!;
    const e = ends[k]!;
    let i = s;
    let neg = false;
    if (text.charCodeAt(i) === 45) {
      neg = true;
      i++;
    }
    if (i === e) fail(`${field} must be a whole number, not "${text.slice(s, e)}"`, s);
    let v = 0;
    for (; i < e; i++) {
      const c = text.charCodeAt(i) - 48;
      if (c < 0 || c > 9) fail(`${field} must be a whole number, not "${text.slice(s, e)}"`, s);
      v = v * 10 + c;
      if (v > MAX_INT) fail(`${field} ${text.slice(s, e)} is out of range`, s);
    }
    return neg ? 0 - v : v; // (0 - 0 is +0: "-0" reads as 0)
  };
  const positions = (): AnimationPositions => ({
    name: { line: headerLine, column: nameCol },
    frameDelay: { line: headerLine, column: delayCol },
    loopOnFrame: { line: headerLine, column: loopCol },
    directions: current!.directions.map((_, k) => ({ line: dirLines[k]!, column: dirCols[k]! })),
  });
  const finish = () => {
    // The list at its length (a pushed-to array keeps room for 17).
    current!.directions = current!.directions.slice();
    checkAnimation(FORMAT, current!, positions, seen, opts);
    animations.push(current!);
    current = null;
  };

  while (pos <= n) {
    // Next line: [lineStart, lineEnd), CR before LF dropped.
    line++;
    lineStart = pos;
    let nl = text.indexOf('\n', pos);
    if (nl < 0) nl = n;
    lineEnd = nl > pos && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
    pos = nl + 1;
    // Tokenize.
    let count = 0;
    let i = lineStart;
    while (i < lineEnd) {
      let c = text.charCodeAt(i);
      if (c === 32 || c === 9) {
        i++;
        continue;
      }
      const s0 = i;
      while (i < lineEnd && (c = text.charCodeAt(i)) !== 32 && c !== 9) {
        // CR (not before LF), vertical tab and form feed: white space to the engine (it splits tokens
        // there, C++ `>>`), a character of the token to this syntax's "spaces or tabs" rule. Refused, so
        // that no file means one thing here and another to the engine, and every token read can be written.
        if (c === 13 || c === 11 || c === 12)
          fail(
            `a ${c === 13 ? 'carriage return not followed by a line feed' : c === 11 ? 'vertical tab' : 'form feed'} inside a token (separate tokens with spaces or tabs)`,
            i,
          );
        i++;
      }
      if (count < MAX_TOKENS) {
        starts[count] = s0;
        ends[count] = i;
      }
      count++;
    }
    if (count === 0) continue;
    if (current === null) {
      if (count < 5) fail(`line cut short: expected ${HEADER_FIELDS[count]} (an animation header is: ${HEADER_FIELDS.join(' ')})`, lineEnd);
      const name = text.slice(starts[0], ends[0]);
      const image = sharedImage(text.slice(starts[1], ends[1]));
      const dirs = int(2, 'directions');
      if (dirs < 1) fail(`directions must be at least 1, not ${dirs}`, starts[2]!);
      const frameDelay = int(3, 'frame_delay');
      if (frameDelay < 0) fail(`frame_delay must not be negative (${frameDelay})`, starts[3]!);
      const loopOnFrame = int(4, 'loop_on_frame');
      if (loopOnFrame < -1) fail(`loop_on_frame must be -1 or a frame number, not ${loopOnFrame}`, starts[4]!);
      if (count > 5) opts.warn?.(diagnostic('warning', `extra tokens after loop_on_frame are ignored`, { line, column: col(starts[5]!) }));
      current = { name, image, frameDelay, loopOnFrame, directions: [] };
      nameCol = col(starts[0]!);
      delayCol = col(starts[3]!);
      loopCol = col(starts[4]!);
      wanted = dirs;
      headerLine = line;
      continue;
    }
    if (count < 8)
      fail(`line cut short: expected ${DIRECTION_FIELDS[count]} (a direction line is: ${DIRECTION_FIELDS.join(' ')})`, lineEnd);
    const d: SolarusDirection = {
      x: int(0, 'x'),
      y: int(1, 'y'),
      frameWidth: int(2, 'frame_width'),
      frameHeight: int(3, 'frame_height'),
      originX: int(4, 'origin_x'),
      originY: int(5, 'origin_y'),
      frameCount: int(6, 'frames'),
      columns: int(7, 'columns'),
    };
    if (d.frameWidth < 1) fail(`frame_width must be at least 1, not ${d.frameWidth}`, starts[2]!);
    if (d.frameHeight < 1) fail(`frame_height must be at least 1, not ${d.frameHeight}`, starts[3]!);
    if (d.frameCount < 1) fail(`frames must be at least 1, not ${d.frameCount}`, starts[6]!);
    if (d.columns < 1) fail(`columns must be at least 1, not ${d.columns}`, starts[7]!);
    if (count > 8) opts.warn?.(diagnostic('warning', `extra tokens after columns are ignored`, { line, column: col(starts[8]!) }));
    current.directions.push(d);
    const k = current.directions.length - 1;
    dirLines[k] = line;
    dirCols[k] = col(starts[0]!);
    if (current.directions.length === wanted) finish();
  }
  if (current !== null) {
    const a = current as SolarusAnimation;
    throw FormatError.atLine(
      FORMAT,
      `end of file inside animation "${a.name}" (line ${headerLine}): ${wanted} direction${wanted === 1 ? '' : 's'} announced, ${a.directions.length} found`,
      line,
      lineEnd - lineStart + 1,
    );
  }
  if (animations.length === 0) opts.warn?.(diagnostic('warning', 'no animation (the engine needs at least one)', { line: 1, column: 1 }));
  return { animations };
}

function checkToken(s: string, what: string): string {
  if (s === '' || /[ \t\r\n\v\f]/.test(s)) {
    throw new FormatError(FORMAT, `${what} "${s}" cannot be written in the line syntax (it is empty or holds white space)`);
  }
  return s;
}

const HEADER_SHAPE: LineShape = { gaps: ['', ' ', ' ', ' ', ' ', ''], eol: '\n' };
const DIRECTION_SHAPE: LineShape = { gaps: ['', '\t', '\t', '\t', '\t', '\t', '\t', '\t', ''], eol: '\n' };

/**
 * Writes the line syntax. Without a style (a sheet not read from a file, or
 * `style` null): header fields separated by spaces, direction fields by
 * tabs, an empty line after each animation. A sheet read from a file keeps
 * that file's layout (style.ts): each line's spacing and ending, and its
 * empty lines, for the animations and directions it still has.
 */
export function formatLines(sheet: SolarusSheet, style?: LinesStyle | null): string {
  checkWritable(FORMAT, sheet);
  const st = style === null ? undefined : (style ?? styleOf(sheet, 'solarus'));
  const eol = st?.eol ?? '\n';
  const parts: string[] = [];
  // Every line's text and ending; a line that ended the file without a line break gets one when more follows.
  const ends: string[] = [];
  const line = (tokens: string[], shape: LineShape) => {
    const g = shape.gaps;
    const n = tokens.length;
    let t = tokens.join(' ');
    if (g.length > n) {
      // The gaps as they were; after a line that had extra (ignored) tokens, its end.
      t = g[0]!;
      for (let k = 0; k < n; k++) t += tokens[k]! + (k === n - 1 ? g[g.length - 1]! : g[k + 1]!);
    }
    parts.push(t);
    ends.push(shape.eol);
  };
  const filler = (f: FillerLine) => {
    parts.push(f.text);
    ends.push(f.eol);
  };
  for (const f of st?.before ?? []) filler(f);
  sheet.animations.forEach((a, i) => {
    const layout = st?.animations[i];
    line(
      [
        checkToken(a.name, 'animation name'),
        checkToken(a.image, 'image'),
        String(a.directions.length),
        String(a.frameDelay),
        String(a.loopOnFrame),
      ],
      layout?.header ?? { ...HEADER_SHAPE, eol },
    );
    a.directions.forEach((d, k) => {
      const shape = layout?.directions[k] ?? layout?.directions[layout.directions.length - 1] ?? { ...DIRECTION_SHAPE, eol };
      line([d.x, d.y, d.frameWidth, d.frameHeight, d.originX, d.originY, d.frameCount, d.columns].map(String), shape);
    });
    for (const f of layout ? layout.after : [{ text: '', eol }]) filler(f);
  });
  let out = st?.bom ? '\ufeff' : '';
  for (let k = 0; k < parts.length; k++) out += parts[k]! + (ends[k] || (k + 1 < parts.length ? eol : ''));
  return out;
}

export function writeLines(sheet: SolarusSheet, style?: LinesStyle | null): Uint8Array {
  return encodeUtf8(formatLines(sheet, style));
}
