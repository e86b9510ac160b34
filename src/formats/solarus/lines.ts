/**
 * The Solarus 0.9 line syntax: a header line
 * `name image directions frame_delay loop_on_frame` per animation, then one
 * line `x y frame_width frame_height origin_x origin_y frames columns` per
 * direction. Tokens are separated by spaces or tabs; empty lines and CR LF
 * are accepted between lines.
 */
import { diagnostic, FormatError } from '../../binary/errors.js';
import { TextOut } from '../../binary/json-out.js';
import { checkAnimation, checkWritable, MAX_INT, type AnimationPositions, type ParseOptions, type SolarusSheet } from './model.js';
import { animationStore, byteTokenEnd, directionValues, ByteLineStore, IntList, LineStore, StoredSheet, tokenEnd } from './compact.js';
import { decodeText } from './text.js';
import {
  detectLinesStyle,
  rememberStyle,
  styleOf,
  type FillerLine,
  type LineShape,
  type LinesLayoutAnimation,
  type LinesStyle,
} from './style.js';

const FORMAT = 'solarus';
const MAX_TOKENS = 16;
const HEADER_FIELDS = ['name', 'image', 'directions', 'frame_delay', 'loop_on_frame'] as const;
const DIRECTION_FIELDS = ['x', 'y', 'frame_width', 'frame_height', 'origin_x', 'origin_y', 'frames', 'columns'] as const;

/**
 * Reads the line syntax. Throws FormatError (with line and column) for bad
 * input. `keepBytes`: the caller will never change `bytes`, so the sheet may
 * keep them instead of a copy.
 */
export function readLines(bytes: Uint8Array, opts: ParseOptions = {}, keepBytes = false): SolarusSheet {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  if (isAscii(bytes, bom ? 3 : 0)) {
    // ASCII (most files): the sheet keeps the bytes (or a copy), not a decoded text, read a piece at a time.
    // (A copy: new Uint8Array, as a Node Buffer's slice is a view.)
    const src = keepBytes ? bytes : new Uint8Array(bytes);
    const sheet = parseBytes(src, bom ? 3 : 0, opts);
    rememberStyle(sheet, () => {
      const text = decodeText(src, {});
      return detectLinesStyle(text, bom, parseLines(text));
    });
    return sheet;
  }
  const text = decodeText(bytes, opts);
  const sheet = parseLines(text, opts);
  // The layout of the file as read (parsed again, since the sheet may have changed by the time it is asked for).
  rememberStyle(sheet, () => detectLinesStyle(text, bom, parseLines(text)));
  return sheet;
}

/**
 * What a parse works with besides its result, reused from call to call (a
 * sheet is small, and allocating these per sheet made reading many sheets
 * spend its time in the garbage collector): the token starts and ends of
 * the current line, the current animation's directions (frames and columns)
 * and where they are, the records so far, the names seen, and the source
 * positions of the current animation with the one function that builds them
 * for checkAnimation when it needs them.
 */
class Scratch {
  readonly starts = new Int32Array(MAX_TOKENS);
  readonly ends = new Int32Array(MAX_TOKENS);
  /** A direction line's eight numbers (the fast path). */
  readonly vals = new Int32Array(8);
  /** The current animation's directions: frames and columns of each, one after the other. */
  readonly fc: number[] = [];
  readonly dirLines: number[] = [];
  readonly dirCols: number[] = [];
  /** Per animation: where its header's first token starts, its first direction, its direction count. */
  anims = new IntList(96);
  /** Per direction: where its line's first token starts. */
  dirs = new IntList(256);
  seen = new NameTable();
  headerLine = 0;
  /** Where a parse is between the pieces of a text (parseBytes): see parseWith's variables. */
  line = 0;
  inAnimation = false;
  name = '';
  nameAt = 0;
  frameDelay = 0;
  loopOnFrame = 0;
  wanted = 0;
  nameCol = 0;
  delayCol = 0;
  loopCol = 0;
  found = 0;
  readonly positions = (): AnimationPositions => {
    const directions: { line: number; column: number }[] = [];
    for (let k = 0; k < this.found; k++) directions.push({ line: this.dirLines[k]!, column: this.dirCols[k]! });
    return {
      name: { line: this.headerLine, column: this.nameCol },
      frameDelay: { line: this.headerLine, column: this.delayCol },
      loopOnFrame: { line: this.headerLine, column: this.loopCol },
      directions,
    };
  };

  /** Lets go of what the last parse left (the caller's objects). */
  clear(): void {
    // (Kept for the next call unless a big sheet made them big.)
    if (this.anims.data.length > 1 << 16) this.anims = new IntList(96);
    if (this.dirs.data.length > 1 << 16) this.dirs = new IntList(256);
    this.anims.length = 0;
    this.dirs.length = 0;
    // (A new Set: Set.prototype.clear allocates more, measured.)
    this.seen.clear();
    this.line = 0;
    this.inAnimation = false;
    this.name = '';
    this.found = 0;
  }
}

/**
 * The names of a sheet's animations, for rule 3 (no two alike): where each
 * is in the text (its start + 1; 0 empty) in an open-addressing table, so
 * that reading makes no string or set entry per animation.
 */
class NameTable {
  table = new Int32Array(256);
  count = 0;

  /** Adds the name at [s, e) of `text` (ASCII bytes: the same codes); false when the table has it already. */
  add(text: string | Uint8Array, s: number, e: number): boolean {
    if (2 * (this.count + 1) > this.table.length) this.grow(text);
    const t = this.table;
    const mask = t.length - 1;
    for (let h = hashRange(text, s, e) & mask; ; h = (h + 1) & mask) {
      const at = t[h]!;
      if (at === 0) {
        t[h] = s + 1;
        this.count++;
        return true;
      }
      if (sameToken(text, at - 1, s, e)) return false;
    }
  }

  private grow(text: string | Uint8Array): void {
    const old = this.table;
    const t = new Int32Array(old.length * 2);
    const mask = t.length - 1;
    for (let i = 0; i < old.length; i++) {
      const at = old[i]!;
      if (at === 0) continue;
      let h = hashRange(text, at - 1, typeof text === 'string' ? tokenEnd(text, at - 1) : byteTokenEnd(text, at - 1)) & mask;
      while (t[h] !== 0) h = (h + 1) & mask;
      t[h] = at;
    }
    this.table = t;
  }

  clear(): void {
    if (this.count === 0) return;
    if (this.table.length > 1 << 12) this.table = new Int32Array(256);
    else this.table.fill(0);
    this.count = 0;
  }
}

function hashRange(text: string | Uint8Array, s: number, e: number): number {
  let h = 0x811c9dc5;
  if (typeof text === 'string') for (let i = s; i < e; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  else for (let i = s; i < e; i++) h = Math.imul(h ^ text[i]!, 0x01000193);
  return h; // (an int32: `>>> 0` would make a heap number of half of them)
}

/** Whether the token at `a` is [s, e) of the same text. */
function sameToken(text: string | Uint8Array, a: number, s: number, e: number): boolean {
  if (typeof text !== 'string') {
    const len = e - s;
    for (let k = 0; k < len; k++) if (text[a + k] !== text[s + k]) return false;
    const c = text[a + len];
    return c === undefined || c === 32 || c === 9 || c === 10 || (c === 13 && text[a + len + 1] === 10);
  }
  const len = e - s;
  for (let k = 0; k < len; k++) if (text.charCodeAt(a + k) !== text.charCodeAt(s + k)) return false;
  const c = text.charCodeAt(a + len);
  return a + len >= text.length || c === 32 || c === 9 || c === 10 || (c === 13 && text.charCodeAt(a + len + 1) === 10);
}

const SHARED = new Scratch();
let sharedBusy = false;

/** Token [s, e) of `text` as a whole number (at most MAX_INT in magnitude); `field` names it in errors. */
function fieldInt(text: string, s: number, e: number, field: string, line: number, lineStart: number): number {
  let i = s;
  let neg = false;
  if (text.charCodeAt(i) === 45) {
    neg = true;
    i++;
  }
  if (i === e) notWhole(text, s, e, field, line, lineStart);
  let v = 0;
  for (; i < e; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) notWhole(text, s, e, field, line, lineStart);
    v = v * 10 + c;
    if (v > MAX_INT) throw FormatError.atLine(FORMAT, `${field} ${text.slice(s, e)} is out of range`, line, s - lineStart + 1);
  }
  return neg ? 0 - v : v; // (0 - 0 is +0: "-0" reads as 0)
}

function duplicate(name: string, positions: () => AnimationPositions): never {
  const pos = positions();
  throw FormatError.atLine(FORMAT, `duplicate animation name "${name}"`, pos.name.line, pos.name.column);
}

function notWhole(text: string, s: number, e: number, field: string, line: number, lineStart: number): never {
  throw FormatError.atLine(FORMAT, `${field} must be a whole number, not "${text.slice(s, e)}"`, line, s - lineStart + 1);
}

/**
 * Parses the line syntax. One pass over the text with no per-line or
 * per-sheet allocation besides the result (no regular expressions, split
 * lines or token strings: tokens are index pairs, numbers are read in
 * place; the arrays of the result are copied at their exact length), as it
 * is the hot path of reading many sheets.
 */
export function parseLines(text: string, opts: ParseOptions = {}): SolarusSheet {
  // A call nested in another (from a warn callback) gets scratch of its own.
  const nested = sharedBusy;
  const scratch = nested ? new Scratch() : SHARED;
  sharedBusy = true;
  try {
    parseWith(text, 0, true, text, opts, scratch);
    return new StoredSheet(new LineStore(text, records(scratch), scratch.anims.length / 3));
  } finally {
    scratch.clear();
    if (!nested) sharedBusy = false;
  }
}

/** The records of the parse in `sc`, at their length: the animations', then the directions'. */
function records(sc: Scratch): Int32Array {
  const { anims, dirs } = sc;
  const recs = new Int32Array(anims.length + dirs.length);
  recs.set(anims.data.subarray(0, anims.length));
  recs.set(dirs.data.subarray(0, dirs.length), anims.length);
  return recs;
}

/** The pieces a big file is read in (decoded one at a time: no string of the whole file is made). */
const PIECE = 1 << 16;
const ascii = new TextDecoder();

function isAscii(bytes: Uint8Array, from: number): boolean {
  for (let i = from; i < bytes.length; i++) if (bytes[i]! >= 0x80) return false;
  return true;
}

/**
 * Parses ASCII bytes from `from` (after a BOM) a piece of whole lines at a
 * time, each decoded alone; the sheet reads its animations from `bytes`
 * (where a character is a byte: the same offsets, lines and columns).
 */
function parseBytes(bytes: Uint8Array, from: number, opts: ParseOptions): SolarusSheet {
  const nested = sharedBusy;
  const scratch = nested ? new Scratch() : SHARED;
  sharedBusy = true;
  try {
    const n = bytes.length;
    let pos = from;
    for (;;) {
      let cut = n;
      if (pos + PIECE < n) {
        // Up to the last line feed in the window (or the first after it, for a longer line).
        const lf = bytes.lastIndexOf(10, pos + PIECE - 1);
        const at = lf >= pos ? lf : bytes.indexOf(10, pos + PIECE);
        cut = at < 0 ? n : at + 1;
      }
      const last = cut === n;
      parseWith(ascii.decode(bytes.subarray(pos, cut)), pos, last, bytes, opts, scratch);
      if (last) break;
      pos = cut;
    }
    return new StoredSheet(new ByteLineStore(bytes, records(scratch), scratch.anims.length / 3));
  } finally {
    scratch.clear();
    if (!nested) sharedBusy = false;
  }
}

/**
 * Parses `text`, a piece of a sheet's text that starts at `base` in the
 * whole (in the units of `names`: characters of a string, bytes of ASCII
 * bytes) and ends at the end of a line or of the whole (`last`); `names`
 * holds the whole text, for the names seen. The parse's state is carried
 * from one piece to the next in `sc`; the records go to `sc.anims` and
 * `sc.dirs`.
 */
function parseWith(text: string, base: number, last: boolean, names: string | Uint8Array, opts: ParseOptions, sc: Scratch): void {
  const { starts, ends, vals, fc, dirLines, dirCols, anims, dirs, seen } = sc;
  const n = text.length;
  let line = sc.line;
  let pos = 0;
  let lineStart = 0;
  let lineEnd = 0;
  let inAnimation = sc.inAnimation;
  let name = sc.name;
  let nameAt = sc.nameAt;
  let frameDelay = sc.frameDelay;
  let loopOnFrame = sc.loopOnFrame;
  let found = sc.found;
  let wanted = sc.wanted;
  let headerLine = sc.headerLine;

  // (A piece that is not the last ends with a line feed: the empty line after it is the next piece's first.)
  while (pos < n || (last && pos === n)) {
    // Next line: [lineStart, lineEnd), CR before LF dropped.
    line++;
    lineStart = pos;
    if (inAnimation) {
      // The common direction line, read in one pass: eight whole numbers of at most 9 digits separated by
      // spaces or tabs, the frame size, frames and columns at least 1, nothing after them but spaces or
      // tabs and the line's end. Anything else (an error, a warning, a blank line) is left to the general
      // path below, which reads the line again from its start.
      let i = pos;
      let c = text.charCodeAt(i);
      let k = 0;
      let first = 0;
      for (; k < 8; k++) {
        while (c === 32 || c === 9) c = text.charCodeAt(++i);
        if (k === 0) first = i;
        const neg = c === 45;
        if (neg) c = text.charCodeAt(++i);
        const d0 = i;
        let v = 0;
        while (c >= 48 && c <= 57) {
          v = v * 10 + c - 48;
          c = text.charCodeAt(++i);
        }
        if (i === d0 || i - d0 > 9 || !(c === 32 || c === 9 || c === 10 || c === 13 || i >= n)) break;
        vals[k] = neg ? -v : v;
      }
      if (k === 8) {
        while (c === 32 || c === 9) c = text.charCodeAt(++i);
        const end = i >= n ? n : c === 10 ? i : c === 13 && text.charCodeAt(i + 1) === 10 ? i : -1;
        if (end >= 0 && vals[2]! >= 1 && vals[3]! >= 1 && vals[6]! >= 1 && vals[7]! >= 1) {
          lineEnd = end;
          pos = end >= n ? n + 1 : c === 10 ? end + 1 : end + 2;
          dirs.push(base + first);
          fc[found * 2] = vals[6]!;
          fc[found * 2 + 1] = vals[7]!;
          dirLines[found] = line;
          dirCols[found] = first - lineStart + 1;
          if (++found === wanted) {
            sc.headerLine = headerLine;
            sc.found = found;
            if (!seen.add(names, nameAt, nameAt + name.length)) duplicate(name, sc.positions);
            checkAnimation(FORMAT, name, frameDelay, loopOnFrame, found, fc, 0, 2, sc.positions, null, opts);
            anims.push(nameAt);
            anims.push(dirs.length - found);
            anims.push(found);
            inAnimation = false;
          }
          continue;
        }
      }
    }
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
      for (;;) {
        // CR (not before LF), vertical tab and form feed: white space to the engine (it splits tokens
        // there, C++ `>>`), a character of the token to this syntax's "spaces or tabs" rule. Refused, so
        // that no file means one thing here and another to the engine, and every token read can be written.
        if (c <= 13 && (c === 13 || c === 11 || c === 12)) {
          throw FormatError.atLine(
            FORMAT,
            `a ${c === 13 ? 'carriage return not followed by a line feed' : c === 11 ? 'vertical tab' : 'form feed'} inside a token (separate tokens with spaces or tabs)`,
            line,
            i - lineStart + 1,
          );
        }
        if (++i === lineEnd) break;
        c = text.charCodeAt(i);
        if (c === 32 || c === 9) break;
      }
      if (count < MAX_TOKENS) {
        starts[count] = s0;
        ends[count] = i;
      }
      count++;
    }
    if (count === 0) continue;
    if (!inAnimation) {
      if (count < 5) {
        throw FormatError.atLine(
          FORMAT,
          `line cut short: expected ${HEADER_FIELDS[count]} (an animation header is: ${HEADER_FIELDS.join(' ')})`,
          line,
          lineEnd - lineStart + 1,
        );
      }
      nameAt = base + starts[0]!;
      name = text.slice(starts[0], ends[0]);
      const s2 = starts[2]!;
      const dirs = fieldInt(text, s2, ends[2]!, 'directions', line, lineStart);
      if (dirs < 1) throw FormatError.atLine(FORMAT, `directions must be at least 1, not ${dirs}`, line, s2 - lineStart + 1);
      const s3 = starts[3]!;
      frameDelay = fieldInt(text, s3, ends[3]!, 'frame_delay', line, lineStart);
      if (frameDelay < 0) throw FormatError.atLine(FORMAT, `frame_delay must not be negative (${frameDelay})`, line, s3 - lineStart + 1);
      const s4 = starts[4]!;
      loopOnFrame = fieldInt(text, s4, ends[4]!, 'loop_on_frame', line, lineStart);
      if (loopOnFrame < -1) {
        throw FormatError.atLine(FORMAT, `loop_on_frame must be -1 or a frame number, not ${loopOnFrame}`, line, s4 - lineStart + 1);
      }
      sc.nameCol = starts[0]! - lineStart + 1;
      sc.delayCol = s3 - lineStart + 1;
      sc.loopCol = s4 - lineStart + 1;
      if (count > 5) {
        opts.warn?.(diagnostic('warning', `extra tokens after loop_on_frame are ignored`, { line, column: starts[5]! - lineStart + 1 }));
      }
      inAnimation = true;
      found = 0;
      wanted = dirs;
      headerLine = line;
      continue;
    }
    if (count < 8) {
      throw FormatError.atLine(
        FORMAT,
        `line cut short: expected ${DIRECTION_FIELDS[count]} (a direction line is: ${DIRECTION_FIELDS.join(' ')})`,
        line,
        lineEnd - lineStart + 1,
      );
    }
    const d = {
      x: fieldInt(text, starts[0]!, ends[0]!, 'x', line, lineStart),
      y: fieldInt(text, starts[1]!, ends[1]!, 'y', line, lineStart),
      frameWidth: fieldInt(text, starts[2]!, ends[2]!, 'frame_width', line, lineStart),
      frameHeight: fieldInt(text, starts[3]!, ends[3]!, 'frame_height', line, lineStart),
      originX: fieldInt(text, starts[4]!, ends[4]!, 'origin_x', line, lineStart),
      originY: fieldInt(text, starts[5]!, ends[5]!, 'origin_y', line, lineStart),
      frameCount: fieldInt(text, starts[6]!, ends[6]!, 'frames', line, lineStart),
      columns: fieldInt(text, starts[7]!, ends[7]!, 'columns', line, lineStart),
    };
    if (d.frameWidth < 1 || d.frameHeight < 1 || d.frameCount < 1 || d.columns < 1) {
      const [k, what, v] =
        d.frameWidth < 1
          ? [2, 'frame_width', d.frameWidth]
          : d.frameHeight < 1
            ? [3, 'frame_height', d.frameHeight]
            : d.frameCount < 1
              ? [6, 'frames', d.frameCount]
              : [7, 'columns', d.columns];
      throw FormatError.atLine(FORMAT, `${what} must be at least 1, not ${v}`, line, starts[k]! - lineStart + 1);
    }
    if (count > 8) {
      opts.warn?.(diagnostic('warning', `extra tokens after columns are ignored`, { line, column: starts[8]! - lineStart + 1 }));
    }
    dirs.push(base + starts[0]!);
    fc[found * 2] = d.frameCount;
    fc[found * 2 + 1] = d.columns;
    dirLines[found] = line;
    dirCols[found] = starts[0]! - lineStart + 1;
    if (++found === wanted) {
      sc.headerLine = headerLine;
      sc.found = found;
      if (!seen.add(names, nameAt, nameAt + name.length)) duplicate(name, sc.positions);
      checkAnimation(FORMAT, name, frameDelay, loopOnFrame, found, fc, 0, 2, sc.positions, null, opts);
      anims.push(nameAt);
      anims.push(dirs.length - found);
      anims.push(found);
      inAnimation = false;
    }
  }
  if (!last) {
    sc.line = line;
    sc.inAnimation = inAnimation;
    sc.name = name;
    sc.nameAt = nameAt;
    sc.frameDelay = frameDelay;
    sc.loopOnFrame = loopOnFrame;
    sc.found = found;
    sc.wanted = wanted;
    sc.headerLine = headerLine;
    return;
  }
  if (inAnimation) {
    throw FormatError.atLine(
      FORMAT,
      `end of file inside animation "${name}" (line ${headerLine}): ${wanted} direction${wanted === 1 ? '' : 's'} announced, ${found} found`,
      line,
      lineEnd - lineStart + 1,
    );
  }
  if (anims.length === 0) opts.warn?.(diagnostic('warning', 'no animation (the engine needs at least one)', { line: 1, column: 1 }));
}

function badToken(s: string, what: string): never {
  throw new FormatError(FORMAT, `${what} "${s}" cannot be written in the line syntax (it is empty or holds white space)`);
}

const HEADER_GAPS = ['', ' ', ' ', ' ', ' ', ''];
const DIRECTION_GAPS = ['', '\t', '\t', '\t', '\t', '\t', '\t', '\t', ''];

/**
 * The line syntax's text, written into one TextOut (no string per token or
 * number, no list of lines): each line's tokens with the gaps of its shape,
 * and the line's ending written when the next line starts (a line that ended
 * the file without a line break gets the file's when more follows).
 */
class LinesWriter {
  readonly o = new TextOut();
  /** The ending of the last line written, or null before the first. */
  private pending: string | null = null;
  private gaps: string[] = HEADER_GAPS;
  private wide = false;

  constructor(readonly eol: string) {}

  /** Starts a line of `tokens` tokens of shape `shape` (after the previous line's ending). */
  begin(shape: LineShape, tokens: number): void {
    const end = this.pending;
    if (end !== null) this.o.text(end === '' ? this.eol : end);
    this.pending = shape.eol;
    this.gaps = shape.gaps;
    // The gaps as they were; a shape with fewer gaps than tokens: single spaces.
    this.wide = shape.gaps.length > tokens;
  }

  /** The gap before token k. */
  private gap(k: number): void {
    if (this.wide) this.o.text(this.gaps[k]!);
    else if (k > 0) this.o.ascii(' ');
  }

  /** Ends the line's tokens (after a line that had extra, ignored tokens, its end). */
  close(): void {
    if (this.wide) this.o.text(this.gaps[this.gaps.length - 1]!);
  }

  /** Token k: a name or image (refused when empty or holding white space). */
  token(k: number, s: string, what: string): void {
    const n = s.length;
    if (n === 0) badToken(s, what);
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      // space, \t \n \v \f \r (the writer's white space)
      if (c === 32 || (c >= 9 && c <= 13)) badToken(s, what);
    }
    this.gap(k);
    this.o.text(s);
  }

  /** Token k: a name or image that is `text[s, e)` (a LineStore's text), refused as `token` refuses it. */
  tokenRange(k: number, text: string, s: number, e: number, what: string): void {
    for (let i = s; i < e; i++) {
      const c = text.charCodeAt(i);
      if (c === 32 || (c >= 9 && c <= 13)) badToken(text.slice(s, e), what);
    }
    if (s === e) badToken('', what);
    this.gap(k);
    this.o.textRange(text, s, e);
  }

  /**
   * Token k: the whole number that is `text[s, e)` (a LineStore's text: an
   * optional minus and digits, checked when it was read): copied when it is
   * as String writes the number (no leading zero, not -0), else written from
   * its value.
   */
  intRange(k: number, text: string, s: number, e: number): void {
    this.gap(k);
    let i = s;
    let c = text.charCodeAt(i);
    const neg = c === 45;
    if (neg) c = text.charCodeAt(++i);
    if (c !== 48 || e - s === 1) {
      this.o.textRange(text, s, e);
      return;
    }
    let v = 0;
    for (; i < e; i++) v = v * 10 + text.charCodeAt(i) - 48;
    this.o.num(neg ? 0 - v : v);
  }

  /** Token k: a whole number (checked), as String writes it. */
  int(k: number, v: number): void {
    this.gap(k);
    this.o.num(v);
  }

  /** A line with no token, as it was. */
  filler(f: FillerLine): void {
    const end = this.pending;
    if (end !== null) this.o.text(end === '' ? this.eol : end);
    this.pending = f.eol;
    this.o.text(f.text);
  }

  /** The last line's own ending (none when the file ended without one). */
  finish(): TextOut {
    if (this.pending) this.o.text(this.pending);
    return this.o;
  }
}

/** Where the next token starts after position `i` (spaces and tabs skipped). */
function skipGap(text: string, i: number): number {
  let c = text.charCodeAt(i);
  while (c === 32 || c === 9) c = text.charCodeAt(++i);
  return i;
}

/** Animation `a` of a LineStore, its tokens copied from the text where they are as the writer would write them. */
function lineStoreAnimation(
  w: LinesWriter,
  store: LineStore,
  a: number,
  layout: LinesLayoutAnimation | undefined,
  header: LineShape,
  direction: LineShape,
): void {
  const text = store.text;
  const nd = store.directionCount(a);
  w.begin(layout?.header ?? header, 5);
  let s = store.headerStart(a);
  let e = tokenEnd(text, s);
  w.tokenRange(0, text, s, e, 'animation name');
  s = skipGap(text, e);
  e = tokenEnd(text, s);
  w.tokenRange(1, text, s, e, 'image');
  // The direction count: the directions read.
  w.int(2, nd);
  s = skipGap(text, tokenEnd(text, skipGap(text, e)));
  e = tokenEnd(text, s);
  w.intRange(3, text, s, e);
  s = skipGap(text, e);
  w.intRange(4, text, s, tokenEnd(text, s));
  w.close();
  for (let k = 0; k < nd; k++) {
    w.begin(layout?.directions[k] ?? layout?.directions[layout.directions.length - 1] ?? direction, 8);
    s = store.directionStart(a, k);
    for (let f = 0; f < 8; f++) {
      e = tokenEnd(text, s);
      w.intRange(f, text, s, e);
      s = skipGap(text, e);
    }
    w.close();
  }
}

function linesText(sheet: SolarusSheet, style?: LinesStyle | null): TextOut {
  checkWritable(FORMAT, sheet);
  const st = style === null ? undefined : (style ?? styleOf(sheet, 'solarus'));
  const eol = st?.eol ?? '\n';
  const header: LineShape = { gaps: HEADER_GAPS, eol };
  const direction: LineShape = { gaps: DIRECTION_GAPS, eol };
  const after: FillerLine[] = [{ text: '', eol }];
  const w = new LinesWriter(eol);
  if (st?.bom) w.o.text('\ufeff');
  if (st) for (const f of st.before) w.filler(f);
  // A sheet the readers made is written from its store (its numbers were checked when it was read), with no object made.
  const store = animationStore(sheet);
  const list = store ? null : sheet.animations;
  const count = store ? store.count : list!.length;
  const v = new Int32Array(8);
  // The line syntax's own text: its tokens copied (lines.test.ts: the same text as from the values).
  const lines = store instanceof LineStore ? store : null;
  for (let i = 0; i < count; i++) {
    const layout = st?.animations[i];
    if (lines) {
      lineStoreAnimation(w, lines, i, layout, header, direction);
      for (const f of layout ? layout.after : after) w.filler(f);
      continue;
    }
    const a = list ? list[i]! : null;
    const dirs = a ? a.directions : null;
    const nd = a ? dirs!.length : store!.directionCount(i);
    w.begin(layout?.header ?? header, 5);
    w.token(0, a ? a.name : store!.name(i), 'animation name');
    w.token(1, a ? a.image : store!.image(i), 'image');
    w.int(2, nd);
    w.int(3, a ? a.frameDelay : store!.frameDelay(i));
    w.int(4, a ? a.loopOnFrame : store!.loopOnFrame(i));
    w.close();
    for (let k = 0; k < nd; k++) {
      if (dirs) {
        const d = dirs[k];
        if (d === undefined) continue; // a hole in the list (checkWritable refuses an undefined entry)
        directionValues(d, v);
      } else store!.values(i, k, v);
      w.begin(layout?.directions[k] ?? layout?.directions[layout.directions.length - 1] ?? direction, 8);
      for (let f = 0; f < 8; f++) w.int(f, v[f]!);
      w.close();
    }
    for (const f of layout ? layout.after : after) w.filler(f);
  }
  return w.finish();
}

/**
 * Writes the line syntax. Without a style (a sheet not read from a file, or
 * `style` null): header fields separated by spaces, direction fields by
 * tabs, an empty line after each animation. A sheet read from a file keeps
 * that file's layout (style.ts): each line's spacing and ending, and its
 * empty lines, for the animations and directions it still has.
 */
export function formatLines(sheet: SolarusSheet, style?: LinesStyle | null): string {
  return linesText(sheet, style).endText();
}

export function writeLines(sheet: SolarusSheet, style?: LinesStyle | null): Uint8Array {
  return linesText(sheet, style).endBytes();
}
