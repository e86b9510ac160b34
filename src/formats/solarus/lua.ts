/**
 * The Solarus 1.1+ Lua syntax, read as data by a small hand-written lexer and
 * parser (no Lua interpreter): `animation{ ... }` or `animation({ ... })`
 * calls holding constant fields. Anything else is an error with its line and
 * column. The writer reproduces Solarus's official 1.0 → 1.1 converter byte for byte.
 */
import { diagnostic, FormatError } from '../../binary/errors.js';
import { TextOut } from '../../binary/json-out.js';
import { encodeUtf8 } from '../../binary/utf8.js';
import {
  stringPool,
  checkAnimation,
  checkWritable,
  MAX_INT,
  type AnimationPositions,
  type ParseOptions,
  type Pos,
  type SolarusSheet,
} from './model.js';
import { animationCount, animationStore, directionValues, StoredSheet, ValueStoreBuilder } from './compact.js';
import { decodeText } from './text.js';
import {
  detectLuaStyle,
  luaStyle,
  luaStyleFrom,
  type KeyCounts,
  rememberStyle,
  styleOf,
  type LuaStyle,
  type LuaStyleKind,
} from './style.js';

const FORMAT = 'solarus-lua';
const MAX_DEPTH = 64;

enum T {
  EOF,
  Name,
  String,
  Number,
  Punct,
}

/** The names the syntax uses: read as these strings (a name token makes no new string). */
const KNOWN_NAMES: string[][] = [];
for (const k of [
  'animation',
  'name',
  'src_image',
  'frame_delay',
  'frame_to_loop_on',
  'directions',
  'x',
  'y',
  'frame_width',
  'frame_height',
  'origin_x',
  'origin_y',
  'num_frames',
  'num_columns',
  'true',
  'false',
  'nil',
]) {
  (KNOWN_NAMES[k.length] ??= []).push(k);
}

const utf8 = new TextDecoder('utf-8', { fatal: false });
const utf8Strict = new TextDecoder('utf-8', { fatal: true });

/** Short ASCII runs as strings (a TextDecoder call costs more than the loop for a few characters). */
const asciiText = new TextDecoder();
function asciiSlice(b: Uint8Array, i: number, k: number): string {
  if (k - i <= 32) return String.fromCharCode.apply(null, b.subarray(i, k) as unknown as number[]);
  return asciiText.decode(b.subarray(i, k));
}

/** The known name that `b` holds at [i, k), if any. */
function knownName(b: Uint8Array, i: number, k: number): string | undefined {
  const list = KNOWN_NAMES[k - i];
  if (list === undefined) return undefined;
  outer: for (let m = 0; m < list.length; m++) {
    const w = list[m]!;
    for (let j = 0; j < w.length; j++) if (b[i + j] !== w.charCodeAt(j)) continue outer;
    return w;
  }
  return undefined;
}

/**
 * A pull lexer over Lua source as one byte per character; the current token is
 * in its fields. The characters are either an ASCII file's bytes (no byte
 * >= 0x80 after its BOM), with no string of the whole file (a
 * whole-file string is promoted while the parse runs and grows V8's young
 * generation), or a text's UTF-16 code units (`codeUnits`: each one >= 0x80
 * read as 0x80, which no name, number, space or punctuation holds, so the same
 * tokens, lines and columns), the values and messages then sliced from `text`.
 * One class over one array type: the lexing loops stay monomorphic.
 */
class Lexer {
  i: number;
  line = 1;
  lineStart: number;
  type: T = T.EOF;
  /** Start of the current token, and its line and column. */
  start = 0;
  tLine = 1;
  tCol = 1;
  /** Punctuation char code, or the decoded string, or the number. */
  punct = 0;
  str = '';
  num = 0;

  /**
   * `from`: where the text starts (3 after a BOM, which is not part of the text); `text`: the text `bytes`
   * holds the code units of; `invalid`: called with a string's position when its escapes make bytes that are
   * not valid UTF-8.
   */
  constructor(
    readonly bytes: Uint8Array,
    from: number,
    private readonly text: string | undefined,
    private readonly invalid?: (line: number, column: number) => void,
  ) {
    this.i = from;
    this.lineStart = from;
    this.next();
  }

  /** The characters [i, k) as a string. */
  private slice(i: number, k: number): string {
    const t = this.text;
    return t === undefined ? asciiSlice(this.bytes, i, k) : t.slice(i, k);
  }

  fail(reason: string, line = this.tLine, column = this.tCol): never {
    throw FormatError.atLine(FORMAT, reason, line, column);
  }

  describe(): string {
    switch (this.type) {
      case T.EOF:
        return 'the end of the file';
      case T.Name:
        return `"${this.str}"`;
      case T.String:
        return 'a string';
      case T.Number:
        return `the number ${this.num}`;
      default:
        return `"${String.fromCharCode(this.punct)}"`;
    }
  }

  /** Skips white space and comments. */
  private skip(): void {
    const s = this.bytes;
    const n = s.length;
    let i = this.i;
    for (;;) {
      if (i >= n) break;
      const c = s[i]!;
      if (c === 10) {
        i++;
        this.line++;
        this.lineStart = i;
      } else if (c === 32 || c === 9 || c === 13 || c === 11 || c === 12) {
        i++;
      } else if (c === 45 && s[i + 1] === 45) {
        const cLine = this.line;
        const cCol = i - this.lineStart + 1;
        i += 2;
        const level = this.longBracket(i);
        if (level >= 0) {
          i = this.longBody(i + level + 2, level, cLine, cCol, 'comment');
        } else {
          while (i < n && s[i] !== 10) i++;
        }
      } else break;
    }
    this.i = i;
  }

  /** At `[` `=`* `[`: the level (count of `=`); else -1. */
  private longBracket(i: number): number {
    const s = this.bytes;
    if (s[i] !== 91) return -1;
    let k = i + 1;
    while (s[k] === 61) k++;
    return s[k] === 91 ? k - i - 1 : -1;
  }

  /** Skips a long bracket body up to `]` `=`*level `]`; returns the index after it. */
  private longBody(i: number, level: number, line: number, column: number, what: string): number {
    const s = this.bytes;
    const n = s.length;
    for (;;) {
      const j = s.indexOf(93, i);
      // Count the lines passed over (by hand: indexOf(10) could rescan the rest of the text each time).
      const end = j < 0 ? n : j;
      for (let k = i; k < end; k++) {
        if (s[k] === 10) {
          this.line++;
          this.lineStart = k + 1;
        }
      }
      if (j < 0) this.fail(`unfinished long ${what}`, line, column);
      let k = j + 1;
      while (s[k] === 61) k++;
      if (k - j - 1 === level && s[k] === 93) return k + 1;
      i = j + 1;
    }
  }

  next(): void {
    this.skip();
    const s = this.bytes;
    const n = s.length;
    const i = this.i;
    this.start = i;
    this.tLine = this.line;
    this.tCol = i - this.lineStart + 1;
    if (i >= n) {
      this.type = T.EOF;
      return;
    }
    const c = s[i]!;
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95) {
      let k = i + 1;
      while (k < n) {
        const d = s[k]!;
        if ((d >= 97 && d <= 122) || (d >= 65 && d <= 90) || d === 95 || (d >= 48 && d <= 57)) k++;
        else break;
      }
      this.type = T.Name;
      this.str = knownName(s, i, k) ?? this.slice(i, k);
      this.i = k;
      return;
    }
    if (c >= 48 && c <= 57) {
      let k = i;
      let v = 0;
      let big = false;
      while (k < n) {
        const d = s[k]! - 48;
        if (d < 0 || d > 9) break;
        v = v * 10 + d;
        if (v > MAX_INT) big = true;
        k++;
      }
      const d = k < n ? s[k]! : -1;
      if (d === 46 || (d >= 97 && d <= 122) || (d >= 65 && d <= 90) || d === 95) {
        let e = k;
        while (e < n && isWordOrDot(s[e]!)) e++;
        this.fail(`"${this.slice(i, e)}" is not a decimal integer (numbers are whole numbers here)`);
      }
      if (big) this.fail(`the number ${this.slice(i, k)} is out of range`);
      this.type = T.Number;
      this.num = v;
      this.i = k;
      return;
    }
    if (c === 34 || c === 39) {
      this.string(c);
      return;
    }
    if (c === 123 || c === 125 || c === 40 || c === 41 || c === 61 || c === 44 || c === 59 || c === 45) {
      this.type = T.Punct;
      this.punct = c;
      this.i = i + 1;
      return;
    }
    if (c === 91 && this.longBracket(i) >= 0) this.fail('long strings are not part of the sprite data syntax');
    const t = this.text;
    this.fail(`unexpected character "${t === undefined ? String.fromCharCode(c) : String.fromCodePoint(t.codePointAt(i)!)}"`);
  }

  private string(quote: number): void {
    const s = this.bytes;
    const n = s.length;
    // The common string, without escapes: its text as it is (no scratch made).
    let j = this.i + 1;
    for (;;) {
      const c = j < n ? s[j]! : -1;
      if (c === quote) {
        this.type = T.String;
        this.str = this.slice(this.i + 1, j);
        this.i = j + 1;
        return;
      }
      if (c === 92 || c === 10 || c === 13 || c < 0) break;
      j++;
    }
    this.escaped(quote);
  }

  /** A string with escapes (or unfinished). */
  private escaped(quote: number): void {
    const s = this.bytes;
    const n = s.length;
    let i = this.i + 1;
    let out = '';
    let bytes: number[] = [];
    let valid = true;
    const flush = () => {
      if (bytes.length) {
        const b = new Uint8Array(bytes);
        try {
          out += utf8Strict.decode(b);
        } catch {
          valid = false;
          out += utf8.decode(b);
        }
        bytes = [];
      }
    };
    let runStart = i;
    for (;;) {
      if (i >= n) this.fail('unfinished string');
      const c = s[i]!;
      if (c === quote) break;
      if (c === 10 || c === 13) this.fail('unfinished string (a line ends inside it)');
      if (c !== 92) {
        i++;
        continue;
      }
      // An escape: flush the plain run first.
      if (runStart < i) {
        flush();
        out += this.slice(runStart, i);
      }
      const escCol = i - this.lineStart + 1;
      const bad = (what: string): never => this.fail(what, this.line, escCol);
      const e = i + 1 < n ? s[i + 1]! : -1;
      i += 2;
      let byte = -1;
      let text = '';
      switch (e) {
        case 110:
          text = '\n';
          break;
        case 116:
          text = '\t';
          break;
        case 114:
          text = '\r';
          break;
        case 97:
          text = '\x07';
          break;
        case 98:
          text = '\b';
          break;
        case 102:
          text = '\f';
          break;
        case 118:
          text = '\v';
          break;
        case 92:
          text = '\\';
          break;
        case 34:
          text = '"';
          break;
        case 39:
          text = "'";
          break;
        case 10:
        case 13: {
          // An escaped line break (\r\n and \n\r count as one).
          const o = s[i];
          if ((o === 10 || o === 13) && o !== e) i++;
          text = '\n';
          this.line++;
          this.lineStart = i;
          break;
        }
        case 122: {
          // \z skips the following white space, line breaks included.
          for (;;) {
            const w = s[i];
            if (w === 10) {
              i++;
              this.line++;
              this.lineStart = i;
            } else if (w === 32 || w === 9 || w === 13 || w === 11 || w === 12) i++;
            else break;
          }
          break;
        }
        case 120: {
          const h = this.slice(Math.min(i, n), Math.min(i + 2, n));
          if (!/^[0-9a-fA-F]{2}$/.test(h)) bad('\\x needs two hexadecimal digits');
          byte = parseInt(h, 16);
          i += 2;
          break;
        }
        case 117: {
          const m = /^\{([0-9a-fA-F]{1,8})\}/.exec(this.slice(Math.min(i, n), Math.min(i + 11, n)));
          if (!m) bad('\\u needs {hexadecimal digits}');
          const cp = parseInt(m![1]!, 16);
          if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) bad('\\u escape out of range');
          text = String.fromCodePoint(cp);
          i += m![0].length;
          break;
        }
        default: {
          if (e >= 48 && e <= 57) {
            let v = e - 48;
            let k = 0;
            while (k < 2 && i < n) {
              const d = s[i]! - 48;
              if (d < 0 || d > 9) break;
              v = v * 10 + d;
              i++;
              k++;
            }
            if (v > 255) bad('decimal escape too large');
            byte = v;
          } else if (i - 1 >= n) {
            this.fail('unfinished string');
          } else {
            bad(`invalid escape sequence "\\${this.slice(i - 1, i)}"`);
          }
        }
      }
      if (byte >= 0x80) bytes.push(byte);
      else {
        flush();
        out += byte >= 0 ? String.fromCharCode(byte) : text;
      }
      runStart = i;
    }
    if (runStart < i) {
      flush();
      out += this.slice(runStart, i);
    }
    flush();
    // docs/spec/README.md: invalid sequences read as the replacement character, with a validation warning.
    if (!valid) this.invalid?.(this.tLine, this.tCol);
    this.type = T.String;
    this.str = out;
    this.i = i + 1;
  }

  isPunct(c: number): boolean {
    return this.type === T.Punct && this.punct === c;
  }
}

function isWordOrDot(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 46;
}

const isWord = (c: number | undefined) =>
  c !== undefined && ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95);

/** How many line feeds [i, k) of `b` holds. */
function breaksIn(b: Uint8Array, i: number, k: number): number {
  let n = 0;
  for (; i < k; i++) if (b[i] === 10) n++;
  return n;
}

/** What detectLuaStyle finds in the text (its regular expressions, over ASCII bytes from `from`). */
function byteLuaStyle(b: Uint8Array, from: number, bom: boolean, counts: KeyCounts, animations: number): LuaStyle {
  const n = b.length;
  const nl = b.indexOf(10, from);
  const eol = nl > from && b[nl - 1] === 13 ? '\r\n' : '\n';
  // /\n([ \t]+)[A-Za-z_]/
  let indent: string | undefined;
  for (let i = nl; i >= 0; i = b.indexOf(10, i + 1)) {
    let k = i + 1;
    while (b[k] === 32 || b[k] === 9) k++;
    const c = b[k];
    if (k > i + 1 && c !== undefined && ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95)) {
      indent = asciiSlice(b, i + 1, k);
      break;
    }
  }
  // /\}((?:\r?\n)+)animation\b/
  let between: number | undefined;
  for (let i = b.indexOf(125, from); i >= 0; i = b.indexOf(125, i + 1)) {
    let k = i + 1;
    for (;;) {
      if (b[k] === 10) k++;
      else if (b[k] === 13 && b[k + 1] === 10) k += 2;
      else break;
    }
    if (k === i + 1) continue;
    let w = 0;
    while (w < 9 && b[k + w] === 'animation'.charCodeAt(w)) w++;
    if (w === 9 && !isWord(b[k + 9])) {
      between = breaksIn(b, i + 1, k);
      break;
    }
  }
  // /\}((?:\r?\n)*)$/
  let j = n;
  while (j > from && b[j - 1] === 10) {
    j--;
    if (j > from && b[j - 1] === 13) j--;
  }
  const final = j > from && b[j - 1] === 125 ? breaksIn(b, j, n) : undefined;
  return luaStyleFrom(counts, animations, eol, indent, between, final, bom);
}

function isAscii(bytes: Uint8Array, from: number): boolean {
  for (let i = from; i < bytes.length; i++) if (bytes[i]! >= 0x80) return false;
  return true;
}

/** Reads the Lua syntax. Throws FormatError (with line and column) for bad input. */
export function readLua(bytes: Uint8Array, opts: ParseOptions = {}): SolarusSheet {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  if (isAscii(bytes, bom ? 3 : 0)) {
    // ASCII (most files): lexed from the bytes, no string of the whole file (the same tokens and positions);
    // the style is found while reading (what detectLuaStyle finds in the text), so nothing of the file is kept.
    const counts: KeyCounts = { originOmitted: 0, originZero: 0 };
    const sheet = parseWith((invalid) => new Lexer(bytes, bom ? 3 : 0, undefined, invalid), { ...opts, keyCounts: counts });
    if (opts.keyCounts) {
      opts.keyCounts.originOmitted += counts.originOmitted;
      opts.keyCounts.originZero += counts.originZero;
    }
    const style = byteLuaStyle(bytes, bom ? 3 : 0, bom, counts, animationCount(sheet));
    rememberStyle(sheet, () => style);
    return sheet;
  }
  const text = decodeText(bytes, opts);
  const sheet = parseLua(text, opts);
  rememberStyle(sheet, () => detectLuaStyle(text, bom, (o) => parseLua(text, o)));
  return sheet;
}

export function parseLua(text: string, opts: ParseOptions = {}): SolarusSheet {
  return parseWith((invalid) => new Lexer(codeUnits(text), 0, text, invalid), opts);
}

const encoder = new TextEncoder();

/** The text's UTF-16 code units as bytes for the lexer, each one >= 0x80 as 0x80 (ASCII text: its UTF-8 bytes). */
function codeUnits(text: string): Uint8Array {
  const n = text.length;
  const units = new Uint8Array(n);
  const { read, written } = encoder.encodeInto(text, units);
  if (read === n && written === n) return units;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    units[i] = c < 0x80 ? c : 0x80;
  }
  return units;
}

function parseWith(lexer: (invalid: (line: number, column: number) => void) => Lexer, opts: ParseOptions): SolarusSheet {
  const warn = (reason: string, p: Pos) => opts.warn?.(diagnostic('warning', reason, p));
  const lx = lexer((line, column) => warn('string escapes make invalid UTF-8 (read as U+FFFD)', { line, column }));
  const out = new ValueStoreBuilder();
  const seen = new Set<string>();
  const sharedImage = stringPool();
  // Where the last integer() began (its sign or its digits).
  let vLine = 0;
  let vCol = 0;

  /** An integer value: a number, or `-` and a number. */
  const integer = (key: string): number => {
    vLine = lx.tLine;
    vCol = lx.tCol;
    let neg = false;
    if (lx.type === T.Punct && lx.punct === 45) {
      neg = true;
      lx.next();
    }
    if (lx.type !== T.Number) lx.fail(`${key} must be a whole number, found ${lx.describe()}`);
    const v = neg ? 0 - lx.num : lx.num; // "-0" reads as +0
    lx.next();
    return v;
  };
  const string = (key: string): string => {
    if (lx.type !== T.String) lx.fail(`${key} must be a string, found ${lx.describe()}`);
    const v = lx.str;
    lx.next();
    return v;
  };
  const expect = (c: number, context: () => string): void => {
    if (lx.type !== T.Punct || lx.punct !== c) lx.fail(`expected "${String.fromCharCode(c)}" ${context()}, found ${lx.describe()}`);
    lx.next();
  };
  /** After a field: `,` or `;` and true when the table goes on; false at `}` (consumed). */
  const separator = (context: () => string): boolean => {
    if (lx.type === T.Punct) {
      const c = lx.punct;
      if (c === 44 || c === 59) {
        lx.next();
        if (lx.type === T.Punct && lx.punct === 125) {
          lx.next();
          return false;
        }
        return true;
      }
      if (c === 125) {
        lx.next();
        return false;
      }
    }
    return lx.fail(`expected "," or "}" ${context()}, found ${lx.describe()}`);
  };
  /** `{`; returns false when the table is empty (`}` consumed). */
  const open = (context: () => string): boolean => {
    expect(123, context);
    if (lx.type === T.Punct && lx.punct === 125) {
      lx.next();
      return false;
    }
    return true;
  };
  /** Skips any constant value (the value of an unknown key). */
  const anyValue = (depth: number): void => {
    if (depth > MAX_DEPTH) lx.fail('tables nested too deeply');
    if (lx.type === T.String || lx.type === T.Number) return lx.next();
    if (lx.type === T.Name && (lx.str === 'true' || lx.str === 'false' || lx.str === 'nil')) return lx.next();
    if (lx.isPunct(45)) {
      lx.next();
      if ((lx.type as T) !== T.Number) lx.fail(`expected a number after "-", found ${lx.describe()}`);
      return lx.next();
    }
    if (lx.isPunct(123)) {
      const ctx = () => 'in a table';
      if (!open(ctx)) return;
      do {
        if (lx.type === T.Name && !(lx.str === 'true' || lx.str === 'false' || lx.str === 'nil')) {
          lx.next();
          expect(61, () => 'after a key');
        }
        anyValue(depth + 1);
      } while (separator(ctx));
      return;
    }
    lx.fail(`expected a constant value (string, number, table, true, false or nil), found ${lx.describe()}`);
  };
  /** A field name followed by `=`; returns the name (its position stays in kLine/kCol). */
  let kLine = 0;
  let kCol = 0;
  const key = (context: () => string): string => {
    if (lx.type !== T.Name) lx.fail(`expected a field name ${context()}, found ${lx.describe()}`);
    const k = lx.str;
    kLine = lx.tLine;
    kCol = lx.tCol;
    lx.next();
    if (lx.type !== T.Punct || lx.punct !== 61) noEquals(k);
    else lx.next();
    return k;
  };
  // (Apart from key: a closure over `k` there would make a context object at every call.)
  const noEquals = (k: string): void => expect(61, () => `after "${k}"`);

  const DX = 0,
    DY = 1,
    DW = 2,
    DH = 3,
    OX = 4,
    OY = 5,
    NF = 6,
    NC = 7;
  const DIRECTION_INDEX = new Map<string, number>([
    ['x', DX],
    ['y', DY],
    ['frame_width', DW],
    ['frame_height', DH],
    ['origin_x', OX],
    ['origin_y', OY],
    ['num_frames', NF],
    ['num_columns', NC],
  ]);
  const DIRECTION_NAMES = ['x', 'y', 'frame_width', 'frame_height', 'origin_x', 'origin_y', 'num_frames', 'num_columns'];
  // (Int32Arrays: a number read from a plain array of doubles is a new heap number each time.)
  const NONE = -2147483648;
  const MINIMUM = Int32Array.of(NONE, NONE, 1, 1, NONE, NONE, 1, 1);
  const values = new Int32Array(8);
  let given = 0;

  /** Reads a direction table into `out` (a pending direction). */
  // The direction being read, for messages (one closure for all of them).
  let dirAnim = '';
  let dirIndex = 0;
  const ctx = () => `in direction ${dirIndex} of animation "${dirAnim}"`;
  const direction = (anim: string, index: number): void => {
    const line = lx.tLine;
    const column = lx.tCol;
    dirAnim = anim;
    dirIndex = index;
    given = 0;
    if (open(ctx)) {
      do {
        const k = key(ctx);
        const slot = DIRECTION_INDEX.get(k);
        if (slot === undefined) {
          warn(`unknown key "${k}" in a direction is ignored`, { line: kLine, column: kCol });
          anyValue(1);
          continue;
        }
        if (given & (1 << slot)) warn(`"${k}" given twice: the last one counts`, { line: kLine, column: kCol });
        const v = integer(k);
        if (v < MINIMUM[slot]!) lx.fail(`${k} must be at least ${MINIMUM[slot]}, not ${v}`, vLine, vCol);
        values[slot] = v;
        given |= 1 << slot;
      } while (separator(ctx));
    }
    if (opts.keyCounts) {
      const k = opts.keyCounts;
      if (!(given & (1 << OX)) || !(given & (1 << OY))) k.originOmitted++;
      if ((given & (1 << OX) && values[OX] === 0) || (given & (1 << OY) && values[OY] === 0)) k.originZero++;
    }
    for (let s = DX; s <= DH; s++) {
      if (!(given & (1 << s))) lx.fail(`direction ${index} of animation "${anim}" has no ${DIRECTION_NAMES[s]}`, line, column);
    }
    const frames = given & (1 << NF) ? values[NF]! : 1;
    out.direction(
      values[DX]!,
      values[DY]!,
      values[DW]!,
      values[DH]!,
      given & (1 << OX) ? values[OX]! : 0,
      given & (1 << OY) ? values[OY]! : 0,
      frames,
      given & (1 << NC) ? values[NC]! : frames,
    );
  };

  const animationCtx = () => 'in an animation';
  const directionsCtx = () => 'in directions';
  const afterAnimation = () => 'after "animation"';
  // Where the current animation's fields are: start, name, frame_delay and frame_to_loop_on (line, column
  // each), and its directions (line, column each); made into an AnimationPositions only when needed.
  const at = new Int32Array(8);
  const dirAt: number[] = [];
  let dirAtCount = 0;
  const positions = (): AnimationPositions => {
    const directions: Pos[] = [];
    for (let k = 0; k < dirAtCount; k++) directions.push({ line: dirAt[2 * k]!, column: dirAt[2 * k + 1]! });
    return {
      name: { line: at[2]!, column: at[3]! },
      frameDelay: { line: at[4]!, column: at[5]! },
      loopOnFrame: { line: at[6]!, column: at[7]! },
      directions,
    };
  };
  const animation = (): void => {
    const startLine = lx.tLine;
    const startCol = lx.tCol;
    for (let k = 0; k < 8; k += 2) {
      at[k] = startLine;
      at[k + 1] = startCol;
    }
    dirAtCount = 0;
    let name: string | undefined;
    let image: string | undefined;
    let frameDelay = 0;
    let loopOnFrame = -1;
    let directions = false;
    let seenKeys = 0;
    if (open(afterAnimation)) {
      do {
        const k = key(animationCtx);
        const bit =
          k === 'name' ? 1 : k === 'src_image' ? 2 : k === 'frame_delay' ? 4 : k === 'frame_to_loop_on' ? 8 : k === 'directions' ? 16 : 0;
        if (bit === 0) {
          warn(`unknown key "${k}" in an animation is ignored`, { line: kLine, column: kCol });
          anyValue(1);
          continue;
        }
        if (seenKeys & bit) warn(`"${k}" given twice: the last one counts`, { line: kLine, column: kCol });
        seenKeys |= bit;
        switch (bit) {
          case 1:
            at[2] = lx.tLine;
            at[3] = lx.tCol;
            name = string(k);
            break;
          case 2:
            image = string(k);
            break;
          case 4: {
            const v = integer(k);
            if (v < 0) lx.fail(`frame_delay must not be negative (${v})`, vLine, vCol);
            frameDelay = v;
            at[4] = vLine;
            at[5] = vCol;
            break;
          }
          case 8: {
            const v = integer(k);
            if (v < -1) lx.fail(`frame_to_loop_on must be -1 or a frame number, not ${v}`, vLine, vCol);
            loopOnFrame = v;
            at[6] = vLine;
            at[7] = vCol;
            break;
          }
          default: {
            const dLine = lx.tLine;
            const dCol = lx.tCol;
            // Given twice: the last list counts.
            out.dropPending();
            dirAtCount = 0;
            if (open(directionsCtx)) {
              do {
                if (lx.type !== T.Punct || lx.punct !== 123) lx.fail(`expected a direction table {...}, found ${lx.describe()}`);
                dirAt[2 * dirAtCount] = lx.tLine;
                dirAt[2 * dirAtCount + 1] = lx.tCol;
                dirAtCount++;
                direction(name ?? '?', out.pending);
              } while (separator(directionsCtx));
            }
            if (out.pending === 0) lx.fail('directions must hold at least one direction', dLine, dCol);
            directions = true;
          }
        }
      } while (separator(animationCtx));
    }
    if (name === undefined) lx.fail('animation has no name', startLine, startCol);
    if (image === undefined) lx.fail(`animation "${name}" has no src_image`, startLine, startCol);
    if (!directions) lx.fail(`animation "${name}" has no directions`, startLine, startCol);
    const dirs = out.dirs;
    checkAnimation(
      FORMAT,
      name!,
      frameDelay,
      loopOnFrame,
      out.pending,
      dirs.data,
      dirs.length - out.pending * 8 + 6,
      8,
      positions,
      seen,
      opts,
    );
    // One string per distinct image.
    out.animation(name!, sharedImage(image!), frameDelay, loopOnFrame);
  };

  while (lx.type !== T.EOF) {
    if (lx.type !== T.Name || lx.str !== 'animation') {
      lx.fail(`expected an animation{...} call, found ${lx.describe()} (only sprite data is allowed, not a program)`);
    }
    lx.next();
    if (lx.isPunct(40)) {
      lx.next();
      animation();
      expect(41, () => 'to close "animation("');
    } else if (lx.isPunct(123)) {
      animation();
    } else {
      lx.fail(`expected "{" or "(" after "animation", found ${lx.describe()}`);
    }
    if (lx.isPunct(59)) lx.next();
  }
  if (out.names.length === 0) warn('no animation (the engine needs at least one)', { line: 1, column: 1 });
  return new StoredSheet(out.store());
}

/** A Lua string literal: double quotes, with escapes only where needed. */
export function luaString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 34) out += '\\"';
    else if (c === 92) out += '\\\\';
    else if (c === 10) out += '\\n';
    else if (c < 32 || c === 127) out += '\\' + String(c).padStart(3, '0');
    else out += s[i];
  }
  return out + '"';
}

/**
 * The style to write `sheet` in: `style` when given (a style name keeps the
 * line endings, indentation and BOM of the style the sheet was read in),
 * else the style it was read in, else the converter's.
 */
export function resolveLuaStyle(sheet: SolarusSheet, style?: LuaStyle | LuaStyleKind): LuaStyle {
  if (typeof style === 'object') return style;
  const read = styleOf(sheet, 'solarus-lua');
  if (style === undefined) return read ?? luaStyle('converter');
  const pure = luaStyle(style);
  return read ? { ...pure, eol: read.eol, indent: read.indent, bom: read.bom } : pure;
}

/** The inside of a Lua string literal (between its quotes) as luaString writes it; a plain string (printable ASCII, no quote or backslash) as it is. */
function writeLuaStringBody(o: TextOut, s: string): void {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 32 || c >= 127 || c === 34 || c === 92) {
      o.text(luaString(s).slice(1, -1));
      return;
    }
  }
  o.ascii(s);
}

/** The constant parts of the Lua syntax for one line ending and indentation, as bytes (one copy each). */
function luaPieces(nl: string, i1: string) {
  const e = (t: string) => encodeUtf8(t);
  const i2 = i1 + i1;
  return {
    key: `${nl}\u0000${i1}`,
    open: e(`animation{${nl}${i1}name = "`),
    image: e(`",${nl}${i1}src_image = "`),
    afterImage: e(`",${nl}`),
    delay: e(`${i1}frame_delay = `),
    loop: e(`${i1}frame_to_loop_on = `),
    fieldEnd: e(`,${nl}`),
    directions: e(`${i1}directions = {${nl}`),
    x: e(`${i2}{ x = `),
    y: e(', y = '),
    width: e(', frame_width = '),
    height: e(', frame_height = '),
    originX: e(', origin_x = '),
    originY: e(', origin_y = '),
    frames: e(', num_frames = '),
    columns: e(', num_columns = '),
    directionEnd: e(` },${nl}`),
    close: e(`${i1}},${nl}}`),
  };
}

/** The pieces last used (a run of writes shares one style). */
let lastPieces = luaPieces('\n', '  ');

/** The Lua syntax's text, written into one TextOut (no string per field or number). */
function luaText(sheet: SolarusSheet, warn: ((message: string) => void) | undefined, style: LuaStyle | LuaStyleKind | undefined): TextOut {
  checkWritable('solarus-lua', sheet);
  const st = resolveLuaStyle(sheet, style);
  const editor = st.kind === 'editor';
  const nl = st.eol;
  let c = lastPieces;
  if (c.key !== `${nl}\u0000${st.indent}`) lastPieces = c = luaPieces(nl, st.indent);
  const o = new TextOut();
  if (st.bom) o.text('\ufeff');
  // A sheet the readers made is written from its store (its numbers were checked when it was read), with no object made.
  const store = animationStore(sheet);
  const list = store ? null : sheet.animations;
  const count = store ? store.count : list!.length;
  const v = new Int32Array(8);
  let between: string | undefined;
  for (let n = 0; n < count; n++) {
    const a = list ? list[n]! : null;
    const name = a ? a.name : store!.name(n);
    const frameDelay = a ? a.frameDelay : store!.frameDelay(n);
    const loopOnFrame = a ? a.loopOnFrame : store!.loopOnFrame(n);
    if (n > 0) o.text((between ??= nl.repeat(st.between)));
    o.raw(c.open);
    writeLuaStringBody(o, name);
    o.raw(c.image);
    writeLuaStringBody(o, a ? a.image : store!.image(n));
    o.raw(c.afterImage);
    if (frameDelay !== 0) {
      o.raw(c.delay);
      o.num(frameDelay);
      o.raw(c.fieldEnd);
    }
    // The editor leaves frame_to_loop_on out with frame_delay 0 (where it changes nothing); kept here all the same, so that nothing read is lost.
    if (loopOnFrame !== -1) {
      o.raw(c.loop);
      o.num(loopOnFrame);
      o.raw(c.fieldEnd);
    }
    o.raw(c.directions);
    const dirs = a ? a.directions : null;
    const nd = a ? dirs!.length : store!.directionCount(n);
    for (let i = 0; i < nd; i++) {
      if (dirs) {
        const d = dirs[i];
        if (d === undefined) continue; // a hole in the list (checkWritable refuses an undefined entry)
        directionValues(d, v);
      } else store!.values(n, i, v);
      const frameCount = v[6]!;
      const columns = v[7]!;
      if (columns > frameCount) {
        warn?.(`animation "${name}" direction ${i}: num_columns ${columns} > num_frames ${frameCount}, which Solarus 1.x rejects`);
      }
      o.raw(c.x);
      o.num(v[0]!);
      o.raw(c.y);
      o.num(v[1]!);
      o.raw(c.width);
      o.num(v[2]!);
      o.raw(c.height);
      o.num(v[3]!);
      if (editor || v[4] !== 0) {
        o.raw(c.originX);
        o.num(v[4]!);
      }
      if (editor || v[5] !== 0) {
        o.raw(c.originY);
        o.num(v[5]!);
      }
      if (frameCount !== 1) {
        o.raw(c.frames);
        o.num(frameCount);
      }
      if (columns !== frameCount) {
        o.raw(c.columns);
        o.num(columns);
      }
      o.raw(c.directionEnd);
    }
    o.raw(c.close);
  }
  if (count > 0) o.text(nl.repeat(st.final));
  return o;
}

/**
 * The Lua syntax in a style (style.ts): by default the one the sheet was read
 * in, else exactly as Solarus's official 1.0 → 1.1 converter writes it.
 */
export function formatLua(sheet: SolarusSheet, warn?: (message: string) => void, style?: LuaStyle | LuaStyleKind): string {
  return luaText(sheet, warn, style).endText();
}

export function writeLua(sheet: SolarusSheet, warn?: (message: string) => void, style?: LuaStyle | LuaStyleKind): Uint8Array {
  return luaText(sheet, warn, style).endBytes();
}

/**
 * True when the text's first statement is an `animation` call: white space
 * and comments skipped, then `animation` followed by `{` or `(`.
 */
export function looksLikeLua(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 1 << 16);
  let i = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const skip = () => {
    for (;;) {
      const c = bytes[i];
      if (c === 32 || c === 9 || c === 10 || c === 13 || c === 11 || c === 12) i++;
      else if (c === 45 && bytes[i + 1] === 45) {
        i += 2;
        if (bytes[i] === 91) {
          let k = i + 1;
          while (bytes[k] === 61) k++;
          if (bytes[k] === 91) {
            const level = k - i - 1;
            i = k + 1;
            for (;;) {
              if (i >= n) return false;
              if (bytes[i] === 93) {
                let e = i + 1;
                while (bytes[e] === 61) e++;
                if (e - i - 1 === level && bytes[e] === 93) {
                  i = e + 1;
                  break;
                }
              }
              i++;
            }
            continue;
          }
        }
        while (i < n && bytes[i] !== 10) i++;
      } else return i < n;
    }
  };
  if (!skip()) return false;
  const word = 'animation';
  for (let k = 0; k < word.length; k++) if (bytes[i + k] !== word.charCodeAt(k)) return false;
  i += word.length;
  const after = bytes[i];
  if (
    after !== undefined &&
    ((after >= 48 && after <= 57) || (after >= 65 && after <= 90) || (after >= 97 && after <= 122) || after === 95)
  )
    return false;
  if (!skip()) return false;
  return bytes[i] === 123 || bytes[i] === 40;
}
