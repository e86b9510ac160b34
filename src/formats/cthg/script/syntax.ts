/**
 * The language of CorsixTH's AnimationEncoder (`cthg-script`): a tokenizer
 * and parser following its scanner.l and parser.y, the encoder's checks
 * (ast.cpp `Check`, main.cpp grouping), and a printer. Errors name the line
 * and column. See docs/formats/cthg-script.md for every quirk kept or declined.
 */
import { FormatError } from '../../../binary/errors.js';
import { decodeUtf8, encodeUtf8 } from '../../../binary/utf8.js';
import { VIEWS, type CthgViewName } from '../model.js';

export const SCRIPT_FORMAT = 'cthg-script';

export interface ScriptPos {
  line: number;
  column: number;
}

/** One `element { ... }`: the fields given (absent = the encoder's default). */
export interface ScriptElement {
  line: number;
  column: number;
  base?: string;
  recolour?: string;
  /** `layer FROM = TO;`: recolour map value FROM uses table TO (one per element, as the encoder allows). */
  layer?: { from: number; to: number };
  left?: number;
  top?: number;
  /** A negative width or height (the default, -1) means "to the image's edge". */
  width?: number;
  height?: number;
  xOffset?: number;
  yOffset?: number;
  alpha?: number;
  horFlip?: true;
  vertFlip?: true;
  /** `diplay_if CLASS = ID;` (the encoder's spelling; `display_if` is read too). */
  displayIf?: { layerClass: number; layerId: number };
  /** Where each field was given, by field name (for errors). */
  at?: Partial<Record<ElementFieldName, ScriptPos>>;
}

export type ElementFieldName =
  | 'base'
  | 'recolour'
  | 'layer'
  | 'left'
  | 'top'
  | 'width'
  | 'height'
  | 'xOffset'
  | 'yOffset'
  | 'alpha'
  | 'horFlip'
  | 'vertFlip'
  | 'displayIf';

export interface ScriptFrame {
  line: number;
  column: number;
  /** `sound = N;` as written (the real encoder drops it; see --fix-sounds). */
  sound?: number;
  elements: ScriptElement[];
}

export interface ScriptAnimation {
  line: number;
  column: number;
  name: string;
  /** The name's bytes, kept only when they are not valid UTF-8. */
  rawName?: Uint8Array;
  tileSize?: number;
  view: CthgViewName;
  frames: ScriptFrame[];
}

export interface CthgScript {
  animations: ScriptAnimation[];
  /**
   * The options of a `// sprat: compile --a --b` comment before the first
   * animation (sprat writes one when it decompiles a file): sprat compiles
   * the script with them; to the real encoder it is a comment. A document
   * extra (non-enumerable), see `withCompileLine`.
   */
  compileLine?: ScriptCompileLine;
}

/** The `// sprat: compile ...` line of a script: the option names it gives (without `--`), and where. */
export interface ScriptCompileLine extends ScriptPos {
  options: string[];
}

/** The comment sprat reads its compile options from (a script's leading comments). */
export const COMPILE_LINE_PREFIX = 'sprat: compile';

/** `script` with its `// sprat: compile` line set (a non-enumerable field: out of the document's data). */
export function withCompileLine<T extends CthgScript>(script: T, line: ScriptCompileLine | undefined): T {
  Object.defineProperty(script, 'compileLine', { value: line, enumerable: false, writable: true, configurable: true });
  return script;
}

/**
 * The `// sprat: compile --a --b` line among the comments before the first
 * animation, or undefined. Each word after it must be `--NAME`; the names
 * are checked against the compile options when the script is compiled.
 */
export function readCompileLine(bytes: Uint8Array): ScriptCompileLine | undefined {
  let i = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  let line = 1;
  let lineStart = i;
  let found: ScriptCompileLine | undefined;
  for (;;) {
    const c = bytes[i];
    if (c === 0x20 || c === 0x09 || c === 0x0d) i++;
    else if (c === 0x0a) {
      i++;
      line++;
      lineStart = i;
    } else if (c === 0x2f && bytes[i + 1] === 0x2f) {
      let end = i;
      while (end < bytes.length && bytes[end] !== 0x0a) end++;
      const text = decodeUtf8(bytes.subarray(i + 2, end)).text.replace(/\r$/, '');
      const m = /^\s*sprat:\s*compile(?=\s|$)/.exec(text);
      if (m) {
        if (found)
          throw FormatError.atLine(
            SCRIPT_FORMAT,
            `a second "// ${COMPILE_LINE_PREFIX}" line (the first is line ${found.line}); give the options on one`,
            line,
            i - lineStart + 1,
          );
        const options: string[] = [];
        const words = /\S+/g;
        const rest = text.slice(m[0].length);
        for (let w = words.exec(rest); w; w = words.exec(rest)) {
          if (!/^--[a-z][a-z0-9-]*$/.test(w[0]))
            throw FormatError.atLine(
              SCRIPT_FORMAT,
              `the "// ${COMPILE_LINE_PREFIX}" line takes options such as --fix-sounds, not "${w[0]}"`,
              line,
              i - lineStart + 3 + m[0].length + w.index,
            );
          if (!options.includes(w[0].slice(2))) options.push(w[0].slice(2));
        }
        found = { line, column: i - lineStart + 1, options };
      }
      i = end;
    } else return found;
  }
}

// ---------------------------------------------------------------- tokens

type Keyword =
  | 'left'
  | 'top'
  | 'width'
  | 'height'
  | 'base'
  | 'recolour'
  | 'layer'
  | 'alpha'
  | 'hor_flip'
  | 'vert_flip'
  | 'x_offset'
  | 'y_offset'
  | 'frame'
  | 'element'
  | 'north'
  | 'east'
  | 'south'
  | 'west'
  | 'tile_size'
  | 'view'
  | 'sound'
  | 'animation'
  | 'diplay_if';

/** scanner.l's keywords; `display_if` (the manual's spelling) reads as `diplay_if`. */
const KEYWORDS: readonly [string, Keyword][] = [
  ['left', 'left'],
  ['top', 'top'],
  ['width', 'width'],
  ['height', 'height'],
  ['base', 'base'],
  ['recolour', 'recolour'],
  ['layer', 'layer'],
  ['alpha', 'alpha'],
  ['hor_flip', 'hor_flip'],
  ['vert_flip', 'vert_flip'],
  ['x_offset', 'x_offset'],
  ['y_offset', 'y_offset'],
  ['frame', 'frame'],
  ['element', 'element'],
  ['north', 'north'],
  ['east', 'east'],
  ['south', 'south'],
  ['west', 'west'],
  ['tile_size', 'tile_size'],
  ['view', 'view'],
  ['sound', 'sound'],
  ['animation', 'animation'],
  ['diplay_if', 'diplay_if'],
  ['display_if', 'diplay_if'],
];

type Token =
  | { kind: 'punct'; text: '{' | '}' | '=' | ';'; line: number; column: number }
  | { kind: 'keyword'; text: Keyword; line: number; column: number }
  | { kind: 'number'; value: number; text: string; line: number; column: number }
  | { kind: 'string'; bytes: Uint8Array; line: number; column: number }
  | { kind: 'eof'; line: number; column: number };

const isDigit = (c: number | undefined) => c !== undefined && c >= 0x30 && c <= 0x39;
const isWordChar = (c: number | undefined) =>
  c !== undefined && ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || isDigit(c) || c === 0x5f || c >= 0x80);

/** The tokens of a script, as scanner.l cuts them (keywords match without word boundaries, as flex does). */
export function tokenize(bytes: Uint8Array): Token[] {
  const tokens: Token[] = [];
  let i = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  let line = 1;
  let lineStart = 0;
  // Columns count characters: UTF-8 continuation bytes do not start one. Counted on from the last
  // position asked for (positions only grow), so a long line costs its length once.
  let colPos = 0;
  let colValue = 1;
  const columnAt = (p: number) => {
    if (colPos < lineStart || colPos > p) {
      colPos = lineStart;
      colValue = 1;
    }
    for (; colPos < p; colPos++) if ((bytes[colPos]! & 0xc0) !== 0x80) colValue++;
    return colValue;
  };
  const fail = (msg: string, p: number): never => {
    throw FormatError.atLine(SCRIPT_FORMAT, msg, line, columnAt(p));
  };
  const n = bytes.length;
  while (i < n) {
    const c = bytes[i]!;
    if (c === 0x20 || c === 0x09 || c === 0x0d) {
      i++;
      continue;
    }
    if (c === 0x0a) {
      i++;
      line++;
      lineStart = i;
      continue;
    }
    if (c === 0x2f && bytes[i + 1] === 0x2f) {
      while (i < n && bytes[i] !== 0x0a) i++;
      continue;
    }
    const column = columnAt(i);
    if (c === 0x7b || c === 0x7d || c === 0x3d || c === 0x3b) {
      tokens.push({ kind: 'punct', text: String.fromCharCode(c) as '{' | '}' | '=' | ';', line, column });
      i++;
      continue;
    }
    if (c === 0x22) {
      let j = i + 1;
      while (j < n && bytes[j] !== 0x22) {
        if (bytes[j] === 0x0a || bytes[j] === 0x0d) fail('a string must end on the line it starts (a missing `"`?)', i);
        if (bytes[j] === 0) fail('a string may not hold a NUL character', j);
        j++;
      }
      if (j >= n) fail('the string is not closed (a missing `"`)', i);
      tokens.push({ kind: 'string', bytes: bytes.slice(i + 1, j), line, column });
      i = j + 1;
      continue;
    }
    if (isDigit(c) || (c === 0x2d && bytes[i + 1] !== undefined && bytes[i + 1]! >= 0x31 && bytes[i + 1]! <= 0x39)) {
      // "0" alone, [1-9][0-9]*, or -[1-9][0-9]* (scanner.l): "007" is three numbers, "-0" no number.
      let j = i + (c === 0x2d ? 1 : 0);
      if (bytes[j] === 0x30) j++;
      else while (isDigit(bytes[j])) j++;
      if (j - i > 11) fail(`the number ${decodeUtf8(bytes.subarray(i, i + 12)).text}... is too large (at most 2147483647 either way)`, i);
      let text = '';
      for (let k = i; k < j; k++) text += String.fromCharCode(bytes[k]!);
      const value = Number(text);
      if (value > 0x7fffffff || value < -0x80000000) fail(`the number ${text} is too large (at most 2147483647 either way)`, i);
      tokens.push({ kind: 'number', value, text, line, column });
      i = j;
      continue;
    }
    let kw: [string, Keyword] | undefined;
    for (const k of KEYWORDS) {
      if (k[0].length > (kw?.[0].length ?? 0) && i + k[0].length <= n) {
        let ok = true;
        for (let m = 0; m < k[0].length; m++) {
          if (bytes[i + m] !== k[0].charCodeAt(m)) {
            ok = false;
            break;
          }
        }
        if (ok) kw = k;
      }
    }
    if (kw) {
      tokens.push({ kind: 'keyword', text: kw[1], line, column });
      i += kw[0].length;
      continue;
    }
    if (isWordChar(c)) {
      let j = i;
      while (isWordChar(bytes[j])) j++;
      fail(`unknown word "${decodeUtf8(bytes.subarray(i, j)).text}"`, i);
    }
    const ch = c < 0x80 ? String.fromCharCode(c) : decodeUtf8(bytes.subarray(i, i + 4)).text.slice(0, 1);
    fail(`unexpected character ${c < 0x20 || c === 0x7f ? `0x${c.toString(16).padStart(2, '0')}` : `"${ch}"`}`, i);
  }
  tokens.push({ kind: 'eof', line, column: columnAt(n) });
  return tokens;
}

function describe(t: Token): string {
  switch (t.kind) {
    case 'punct':
      return `"${t.text}"`;
    case 'keyword':
      return `"${t.text}"`;
    case 'number':
      return `the number ${t.text}`;
    case 'string':
      return 'a string';
    default:
      return 'the end of the file';
  }
}

// ---------------------------------------------------------------- parser

const VIEW_WORDS: readonly string[] = VIEWS;

/** The text of a string token (UTF-8; invalid bytes become U+FFFD). */
function textOf(bytes: Uint8Array): string {
  return decodeUtf8(bytes).text;
}

/** Parses a script to its document without the encoder's checks (see `checkScript`). */
export function parseScript(bytes: Uint8Array): CthgScript {
  const toks = tokenize(bytes);
  let p = 0;
  const peek = () => toks[p]!;
  const fail = (msg: string, t: Token = peek()): never => {
    throw FormatError.atLine(SCRIPT_FORMAT, msg, t.line, t.column);
  };
  const isPunct = (t: Token, s: string) => t.kind === 'punct' && t.text === s;
  const isKw = (t: Token, s: string) => t.kind === 'keyword' && t.text === s;
  const expectPunct = (s: string, after: string) => {
    const t = peek();
    if (!isPunct(t, s)) fail(`expected "${s}" ${after}, found ${describe(t)}`);
    p++;
  };
  const expectNumber = (after: string): number => {
    const t = peek();
    if (t.kind !== 'number') return fail(`expected a number ${after}, found ${describe(t)}`);
    p++;
    return t.value;
  };
  const expectString = (after: string): Uint8Array => {
    const t = peek();
    if (t.kind !== 'string') return fail(`expected a string ${after}, found ${describe(t)}`);
    p++;
    return t.bytes;
  };

  const animations: ScriptAnimation[] = [];
  while (peek().kind !== 'eof') {
    const start = peek();
    if (!isKw(start, 'animation')) fail(`expected "animation", found ${describe(start)}`);
    p++;
    const nameBytes = expectString('(the animation\'s name) after "animation"');
    const name = decodeUtf8(nameBytes);
    expectPunct('{', "after the animation's name");
    const anim: ScriptAnimation = {
      line: start.line,
      column: start.column,
      name: name.text,
      view: undefined as unknown as CthgViewName,
      frames: [],
    };
    if (!name.valid) anim.rawName = nameBytes;
    const seen = new Map<string, Token>();
    const once = (key: string, t: Token) => {
      const before = seen.get(key);
      if (before) fail(`"${key}" is already given at line ${before.line}`, t);
      seen.set(key, t);
    };
    // AnimationProperties: at least one (parser.y).
    let props = 0;
    for (;;) {
      const t = peek();
      if (isKw(t, 'tile_size')) {
        once('tile_size', t);
        p++;
        expectPunct('=', 'after "tile_size"');
        anim.tileSize = expectNumber('after "tile_size ="');
        expectPunct(';', 'after the tile size');
      } else if (isKw(t, 'view')) {
        once('view', t);
        p++;
        expectPunct('=', 'after "view"');
        const d = peek();
        if (d.kind !== 'keyword' || !VIEW_WORDS.includes(d.text))
          fail(`expected north, east, south or west after "view =", found ${describe(d)}`);
        anim.view = (d as { text: CthgViewName }).text;
        p++;
        expectPunct(';', 'after the view');
      } else break;
      props++;
    }
    if (props === 0) fail(`expected "tile_size" or "view" (an animation starts with its properties), found ${describe(peek())}`);
    while (isKw(peek(), 'frame')) anim.frames.push(parseFrame());
    if (anim.frames.length === 0) fail(`expected "frame" (an animation needs at least one frame), found ${describe(peek())}`);
    expectPunct('}', 'after the last frame');
    animations.push(anim);
  }
  return { animations };

  function parseFrame(): ScriptFrame {
    const start = peek();
    p++;
    expectPunct('{', 'after "frame"');
    const frame: ScriptFrame = { line: start.line, column: start.column, elements: [] };
    if (isKw(peek(), 'sound')) {
      p++;
      expectPunct('=', 'after "sound"');
      frame.sound = expectNumber('after "sound ="');
      expectPunct(';', 'after the sound');
    }
    while (isKw(peek(), 'element')) frame.elements.push(parseElement());
    if (frame.elements.length === 0) {
      fail(
        `expected "element" (a frame needs at least one${frame.sound === undefined ? ', after an optional "sound"' : ''}), found ${describe(peek())}`,
      );
    }
    expectPunct('}', 'after the last element');
    return frame;
  }

  function parseElement(): ScriptElement {
    const start = peek();
    p++;
    expectPunct('{', 'after "element"');
    const e: ScriptElement = { line: start.line, column: start.column, at: {} };
    let fields = 0;
    for (;;) {
      const t = peek();
      if (t.kind !== 'keyword') break;
      const field = FIELD_OF[t.text];
      if (!field) break;
      const before = e.at![field];
      if (before) fail(`"${t.text}" is already given at line ${before.line}, column ${before.column}`, t);
      e.at![field] = { line: t.line, column: t.column };
      p++;
      fields++;
      switch (field) {
        case 'horFlip':
        case 'vertFlip':
          e[field] = true;
          // The encoder takes no ";" after a flip; one is read (and not written) all the same.
          if (isPunct(peek(), ';')) p++;
          break;
        case 'base':
        case 'recolour':
          expectPunct('=', `after "${t.text}"`);
          e[field] = textOf(expectString(`(a PNG file) after "${t.text} ="`));
          expectPunct(';', 'after the file name');
          break;
        case 'layer':
        case 'displayIf': {
          const a = expectNumber(`after "${t.text}"`);
          expectPunct('=', `after "${t.text} ${a}"`);
          const b = expectNumber(`after "${t.text} ${a} ="`);
          expectPunct(';', `after "${t.text} ${a} = ${b}"`);
          if (field === 'layer') e.layer = { from: a, to: b };
          else e.displayIf = { layerClass: a, layerId: b };
          break;
        }
        default:
          expectPunct('=', `after "${t.text}"`);
          e[field] = expectNumber(`after "${t.text} ="`);
          expectPunct(';', `after the ${t.text}`);
      }
    }
    if (fields === 0) fail(`expected a field of the element (base, left, x_offset, ...), found ${describe(peek())}`);
    expectPunct('}', "after the element's fields");
    return e;
  }
}

const FIELD_OF: Partial<Record<Keyword, ElementFieldName>> = {
  base: 'base',
  recolour: 'recolour',
  layer: 'layer',
  left: 'left',
  top: 'top',
  width: 'width',
  height: 'height',
  x_offset: 'xOffset',
  y_offset: 'yOffset',
  alpha: 'alpha',
  hor_flip: 'horFlip',
  vert_flip: 'vertFlip',
  diplay_if: 'displayIf',
};

// ---------------------------------------------------------------- checks

/** The encoder's only tile size (ast.cpp IsValidTileSize). */
export const TILE_SIZE = 64;
/** The largest display condition class (ast.cpp MAX_DISPLAY_COND). */
export const MAX_DISPLAY_CLASS = 12;

function posOf(e: ScriptElement, field: ElementFieldName): ScriptPos {
  return e.at?.[field] ?? e;
}

/**
 * The encoder's checks (ast.cpp `Check`, main.cpp grouping), plus the ones
 * sprat adds where the encoder's behaviour is undefined (a recolour layer
 * or offset out of range). Throws the first problem as a FormatError.
 */
export function checkScript(script: CthgScript): void {
  const fail = (msg: string, at: ScriptPos): never => {
    throw FormatError.atLine(SCRIPT_FORMAT, msg, at.line, at.column);
  };
  for (const a of script.animations) {
    const tile = a.tileSize ?? TILE_SIZE;
    if (tile !== TILE_SIZE) fail(`tile size ${tile} is not valid: the encoder knows only ${TILE_SIZE}`, a);
    if (a.name === '') fail('the name of an animation may not be empty', a);
    if (a.view === undefined) fail(`animation "${a.name}" has no view (view = north, east, south or west)`, a);
    for (const f of a.frames) {
      for (const e of f.elements) {
        if (e.base === undefined || e.base === '')
          fail('an element needs an image (base = "file.png")', e.base === undefined ? e : posOf(e, 'base'));
        if (e.displayIf) {
          const { layerClass, layerId } = e.displayIf;
          if (layerClass < 0 || layerClass > MAX_DISPLAY_CLASS)
            fail(`the display condition's class must be from 0 to ${MAX_DISPLAY_CLASS}, not ${layerClass}`, posOf(e, 'displayIf'));
          if (layerId < 0 || layerId > 255)
            fail(`the display condition's value must be from 0 to 255, not ${layerId}`, posOf(e, 'displayIf'));
        }
        if (e.alpha !== undefined && e.alpha !== 100 && e.alpha !== 75 && e.alpha !== 50)
          fail(`alpha must be 50, 75 or 100, not ${e.alpha}`, posOf(e, 'alpha'));
        if (e.layer) {
          const { from, to } = e.layer;
          if (from < 0 || from > 255 || to < 0 || to > 255)
            fail(`a recolour layer must be from 0 to 255 (layer ${from} = ${to})`, posOf(e, 'layer'));
        }
        if (e.left !== undefined && e.left < 0) fail(`left must be 0 or more, not ${e.left}`, posOf(e, 'left'));
        if (e.top !== undefined && e.top < 0) fail(`top must be 0 or more, not ${e.top}`, posOf(e, 'top'));
      }
    }
  }
  // Animations of one name and tile size form a group: one per view, the same frame count in each.
  const groups = new Map<string, ScriptAnimation[]>();
  for (const a of script.animations) {
    const key = `${a.tileSize ?? TILE_SIZE}\u0000${a.name}\u0000${a.rawName ? [...a.rawName].join(',') : ''}`;
    const g = groups.get(key) ?? groups.set(key, []).get(key)!;
    const same = g.find((b) => b.view === a.view);
    if (same) fail(`animation "${a.name}" (${a.view}) is already given at line ${same.line}`, a);
    if (g.length && g[0]!.frames.length !== a.frames.length) {
      fail(
        `animation "${a.name}" (${a.view}) has ${a.frames.length} frames, but its ${g[0]!.view} view at line ${g[0]!.line} has ${g[0]!.frames.length}`,
        a,
      );
    }
    g.push(a);
  }
}

/** Parses and checks: the document of a valid script. */
export function readScript(bytes: Uint8Array): CthgScript {
  const s = parseScript(bytes);
  checkScript(s);
  const line = readCompileLine(bytes);
  return line ? withCompileLine(s, line) : s;
}

// ---------------------------------------------------------------- printer

/** True when `text` can stand between the script's quotes (no `"`, line break or NUL). */
export function quotable(text: string): boolean {
  return !text.includes('"') && !text.includes('\n') && !text.includes('\r') && !text.includes('\u0000');
}

function quoted(bytes: Uint8Array, what: string): string {
  let s = '';
  for (const b of bytes) {
    if (b === 0x22 || b === 0x0a || b === 0x0d || b === 0)
      throw new FormatError(SCRIPT_FORMAT, `${what} cannot be written in a script: it holds a quote, a line break or a NUL`);
    s += String.fromCharCode(b);
  }
  return `"${s}"`;
}

const q = (text: string, what: string) => quoted(encodeUtf8(text), what);

/** One element on one line, fields in a fixed order (the encoder's own spellings: `diplay_if`, flips without `;`). */
export function formatElement(e: ScriptElement): string {
  const f: string[] = [];
  if (e.base !== undefined) f.push(`base = ${q(e.base, `the file name "${e.base}"`)};`);
  if (e.recolour !== undefined) f.push(`recolour = ${q(e.recolour, `the file name "${e.recolour}"`)};`);
  if (e.layer) f.push(`layer ${e.layer.from} = ${e.layer.to};`);
  if (e.left !== undefined) f.push(`left = ${e.left};`);
  if (e.top !== undefined) f.push(`top = ${e.top};`);
  if (e.width !== undefined) f.push(`width = ${e.width};`);
  if (e.height !== undefined) f.push(`height = ${e.height};`);
  if (e.xOffset !== undefined) f.push(`x_offset = ${e.xOffset};`);
  if (e.yOffset !== undefined) f.push(`y_offset = ${e.yOffset};`);
  if (e.alpha !== undefined) f.push(`alpha = ${e.alpha};`);
  if (e.displayIf) f.push(`diplay_if ${e.displayIf.layerClass} = ${e.displayIf.layerId};`);
  if (e.horFlip) f.push('hor_flip');
  if (e.vertFlip) f.push('vert_flip');
  return `element { ${f.join(' ')} }`;
}

/**
 * The script's text (as Latin-1 code units: one char per byte; `printScript`
 * gives the bytes). Every field given is written; comments are not kept,
 * but for the `// sprat: compile` line.
 */
function formatScript(script: CthgScript, header?: string): string {
  const out: string[] = [];
  if (header) for (const l of header.split('\n')) out.push(`// ${l}`);
  const compile = script.compileLine;
  if (compile) out.push(`// ${[COMPILE_LINE_PREFIX, ...compile.options.map((o) => `--${o}`)].join(' ')}`);
  for (const a of script.animations) {
    const name = a.rawName ? quoted(a.rawName, `the animation name "${a.name}"`) : q(a.name, `the animation name "${a.name}"`);
    out.push(`animation ${name} {`);
    if (a.tileSize !== undefined) out.push(`    tile_size = ${a.tileSize};`);
    if (a.view !== undefined) out.push(`    view = ${a.view};`);
    for (const f of a.frames) {
      out.push('    frame {');
      if (f.sound !== undefined) out.push(`        sound = ${f.sound};`);
      for (const e of f.elements) out.push(`        ${formatElement(e)}`);
      out.push('    }');
    }
    out.push('}');
  }
  return out.length ? `${out.join('\n')}\n` : '';
}

/** The script's bytes (names and paths as UTF-8, or their raw bytes). */
export function printScript(script: CthgScript, header?: string): Uint8Array {
  const s = formatScript(script, header);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/**
 * A content test: after an optional BOM, blank space and `//` comments, the
 * script starts with `animation "NAME" {`.
 */
export function sniffScript(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 64 * 1024);
  let i = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  for (;;) {
    while (i < n && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)) i++;
    if (bytes[i] === 0x2f && bytes[i + 1] === 0x2f) {
      while (i < n && bytes[i] !== 0x0a) i++;
      continue;
    }
    break;
  }
  const word = 'animation';
  for (let k = 0; k < word.length; k++) if (bytes[i + k] !== word.charCodeAt(k)) return false;
  i += word.length;
  while (bytes[i] === 0x20 || bytes[i] === 0x09) i++;
  if (bytes[i] !== 0x22) return false;
  i++;
  while (i < n && bytes[i] !== 0x22 && bytes[i] !== 0x0a) i++;
  if (bytes[i] !== 0x22) return false;
  i++;
  while (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d) i++;
  return bytes[i] === 0x7b;
}
