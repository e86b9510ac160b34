/**
 * JSON helpers shared by the interchange formats: parsing with a line and
 * column on error, cheap content sniffing on a bounded prefix, and typed
 * accessors whose errors name the JSON path of the bad value.
 */
import { diagnostic, FormatError, type Diagnostic, type ErrorLocation } from '../binary/errors.js';

const decoder = new TextDecoder('utf-8');

/** Decodes UTF-8 (a leading BOM dropped). */
export function decodeText(bytes: Uint8Array): string {
  const text = decoder.decode(bytes);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** 1-based line and column (in UTF-16 units) of `offset` in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

/**
 * Finds where JSON.parse stopped: a small iterative JSON scanner (no
 * recursion, so any nesting depth is safe) that returns the offset of the
 * first character that is not valid JSON, and what was expected there.
 */
export function jsonErrorAt(text: string): { offset: number; reason: string } {
  let i = 0;
  const n = text.length;
  const ws = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
  };
  const fail = (reason: string) => ({ offset: i, reason: i >= n ? 'unexpected end of JSON' : reason });
  // Stack of containers: '{' or '['.
  const stack: number[] = [];
  type State = 'value' | 'afterValue' | 'key';
  let state: State = 'value';
  for (;;) {
    ws();
    if (state === 'value') {
      const c = text[i];
      if (c === '{') {
        i++;
        ws();
        if (text[i] === '}') {
          i++;
          state = 'afterValue';
          continue;
        }
        stack.push(123);
        state = 'key';
        continue;
      }
      if (c === '[') {
        i++;
        ws();
        if (text[i] === ']') {
          i++;
          state = 'afterValue';
          continue;
        }
        stack.push(91);
        continue;
      }
      if (c === '"') {
        const r = scanString();
        if (r) return r;
      } else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
        const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
        if (!m) return fail('bad number');
        i += m[0].length;
      } else if (text.startsWith('true', i)) i += 4;
      else if (text.startsWith('false', i)) i += 5;
      else if (text.startsWith('null', i)) i += 4;
      else return fail(`unexpected ${describe(c)}, expected a value`);
      state = 'afterValue';
      continue;
    }
    if (state === 'key') {
      if (text[i] !== '"') return fail(`unexpected ${describe(text[i])}, expected a quoted key`);
      const r = scanString();
      if (r) return r;
      ws();
      if (text[i] !== ':') return fail(`unexpected ${describe(text[i])}, expected ':'`);
      i++;
      state = 'value';
      continue;
    }
    // afterValue
    const top = stack[stack.length - 1];
    if (top === undefined) {
      if (i < n) return fail(`unexpected ${describe(text[i])} after the JSON value`);
      return { offset: n, reason: 'invalid JSON' };
    }
    const c = text[i];
    if (c === ',') {
      i++;
      state = top === 123 ? 'key' : 'value';
      continue;
    }
    if ((c === '}' && top === 123) || (c === ']' && top === 91)) {
      i++;
      stack.pop();
      continue;
    }
    return fail(`unexpected ${describe(c)}, expected ',' or '${top === 123 ? '}' : ']'}'`);
  }

  function scanString(): { offset: number; reason: string } | null {
    i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return null;
      }
      if (c < 32) return { offset: i, reason: 'control character in a string' };
      if (c === 92) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return { offset: i, reason: 'bad \\u escape' };
          i += 6;
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) return { offset: i, reason: 'bad escape in a string' };
        i += 2;
        continue;
      }
      i++;
    }
    return { offset: i, reason: 'unterminated string' };
  }
}

function describe(c: string | undefined): string {
  return c === undefined ? 'end of JSON' : `character ${JSON.stringify(c)}`;
}

/** Parses JSON; a syntax error becomes FormatError.atLine with the line and column of the problem. */
export function parseJson(format: string, bytes: Uint8Array): unknown {
  return parseJsonText(format, decodeText(bytes));
}

function parseJsonText(format: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const { offset, reason } = jsonErrorAt(text);
    const { line, column } = lineColumn(text, offset);
    throw FormatError.atLine(format, `not valid JSON: ${reason}`, line, column);
  }
}

/**
 * A bounded look at a file for sniffing: null unless the first non-space
 * byte is '{'; otherwise up to 64 KiB of its start and 16 KiB of its end as
 * text (big sheets put `meta` last).
 */
export function sniffText(bytes: Uint8Array): { head: string; tail: string } | null {
  let i = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
  while (i < bytes.length && i < 4096 && (bytes[i] === 32 || bytes[i] === 9 || bytes[i] === 10 || bytes[i] === 13)) i++;
  if (bytes[i] !== 0x7b) return null;
  const HEAD = 65536;
  const TAIL = 16384;
  const head = decoder.decode(bytes.subarray(i, i + HEAD));
  const tail = bytes.length > HEAD ? decoder.decode(bytes.subarray(Math.max(HEAD, bytes.length - TAIL))) : '';
  return { head, tail };
}

// ---------------------------------------------------------------- positions of values

/** Skips JSON whitespace from `i`. */
function skipWs(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 10 || c === 13 || c === 9) i++;
    else return i;
  }
}

/** The end of the string whose opening quote is at `i`. */
function skipString(text: string, i: number): number {
  const n = text.length;
  i++;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34) return i + 1;
    i += c === 92 ? 2 : 1;
  }
  return n;
}

/** The end of the (valid) JSON value starting at `i`; nested values skipped with a depth count, no recursion. */
function skipValue(text: string, i: number): number {
  const n = text.length;
  let c = text.charCodeAt(i);
  if (c === 34) return skipString(text, i);
  if (c !== 123 && c !== 91) {
    while (i < n) {
      c = text.charCodeAt(i);
      if (c === 44 || c === 93 || c === 125 || c === 32 || c === 10 || c === 13 || c === 9) break;
      i++;
    }
    return i;
  }
  let depth = 0;
  while (i < n) {
    c = text.charCodeAt(i);
    if (c === 34) {
      i = skipString(text, i);
      continue;
    }
    if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return n;
}

/** The segments of a JSON path after its root (`.key`, `["key"]`, `[3]`), or as many as could be read. */
export function pathSegments(rest: string): (string | number)[] {
  const out: (string | number)[] = [];
  let i = 0;
  while (i < rest.length) {
    if (rest[i] === '.') {
      const m = /^[A-Za-z_$][\w$]*/.exec(rest.slice(i + 1));
      if (!m) break;
      out.push(m[0]);
      i += 1 + m[0].length;
    } else if (rest[i] === '[' && rest[i + 1] === '"') {
      const end = skipString(rest, i + 1);
      if (rest[end] !== ']') break;
      try {
        out.push(JSON.parse(rest.slice(i + 1, end)) as string);
      } catch {
        break;
      }
      i = end + 1;
    } else {
      const m = /^\[(\d+)\]/.exec(rest.slice(i));
      if (!m) break;
      out.push(Number(m[1]));
      i += m[0].length;
    }
  }
  return out;
}

/**
 * The offset in `text` (valid JSON) of the value at `segments` below the
 * root value; where a segment is missing (or the value there is not an
 * object or an array to look into), the offset of the deepest value found:
 * the object that lacks the key, the array that is too short.
 */
export function jsonValueOffset(text: string, segments: readonly (string | number)[]): number {
  let at = skipWs(text, 0);
  for (const seg of segments) {
    const c = text.charCodeAt(at);
    let found = -1;
    if (typeof seg === 'number' && c === 91) {
      let i = skipWs(text, at + 1);
      for (let k = 0; text.charCodeAt(i) !== 93 && i < text.length; k++) {
        if (k === seg) {
          found = i;
          break;
        }
        i = skipWs(text, skipValue(text, i));
        if (text.charCodeAt(i) === 44) i = skipWs(text, i + 1);
      }
    } else if (typeof seg === 'string' && c === 123) {
      let i = skipWs(text, at + 1);
      while (text.charCodeAt(i) === 34) {
        const end = skipString(text, i);
        const raw = text.slice(i + 1, end - 1);
        const k = raw.includes('\\') ? (JSON.parse(text.slice(i, end)) as string) : raw;
        i = skipWs(text, skipWs(text, end) + 1);
        // JSON.parse keeps the last of duplicate keys: so does this.
        if (k === seg) found = i;
        i = skipWs(text, skipValue(text, i));
        if (text.charCodeAt(i) === 44) i = skipWs(text, i + 1);
      }
    }
    if (found < 0) break;
    at = found;
  }
  return at;
}

/**
 * Where each value of a (valid) JSON text starts, as a line and column,
 * keyed by JSON pointer (`/frames/3/duration`); at most `max` values and
 * `maxDepth` levels (a hostile file costs no more than that).
 */
export function jsonLinePositions(bytes: Uint8Array, max = 100_000, maxDepth = 64): Record<string, { line: number; column: number }> {
  const text = decodeText(bytes);
  const offsets = new Map<string, number>();
  const visit = (i: number, ptr: string, depth: number): number => {
    offsets.set(ptr, i);
    const c = text.charCodeAt(i);
    if ((c !== 123 && c !== 91) || depth >= maxDepth || offsets.size >= max) return skipValue(text, i);
    const close = c === 123 ? 125 : 93;
    i = skipWs(text, i + 1);
    for (let k = 0; i < text.length && text.charCodeAt(i) !== close; k++) {
      let key = String(k);
      if (c === 123) {
        const end = skipString(text, i);
        const raw = text.slice(i + 1, end - 1);
        key = raw.includes('\\') ? (JSON.parse(text.slice(i, end)) as string) : raw;
        i = skipWs(text, skipWs(text, end) + 1);
      }
      i = skipWs(text, visit(i, `${ptr}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, depth + 1));
      if (text.charCodeAt(i) === 44) i = skipWs(text, i + 1);
    }
    return i + 1;
  };
  visit(skipWs(text, 0), '', 0);
  return offsetsToLines(text, offsets);
}

/** Offsets in `text` (by key) as 1-based lines and columns, in one pass over the text. */
export function offsetsToLines(text: string, offsets: Iterable<[string, number]>): Record<string, { line: number; column: number }> {
  const sorted = [...offsets].sort((a, b) => a[1] - b[1]);
  const out: Record<string, { line: number; column: number }> = {};
  let line = 1;
  let lineStart = 0;
  let at = 0;
  for (const [ptr, off] of sorted) {
    for (; at < off; at++) {
      if (text.charCodeAt(at) === 10) {
        line++;
        lineStart = at + 1;
      }
    }
    out[ptr] = { line, column: off - lineStart + 1 };
  }
  return out;
}

/** A JSON path (`$.layers[0].name`) as a JSON pointer (`/layers/0/name`), as far as it can be read. */
export function pathToPointer(path: string): string {
  return pathSegments(path.replace(/^\$/, ''))
    .map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`)
    .join('');
}

/** The length and a hash of up to 8192 bytes spread over `b` (and its first and last 64): cheap, to notice a change. */
function fingerprint(b: Uint8Array): number {
  let h = 0x811c9dc5 ^ b.length;
  const mix = (v: number) => {
    h = Math.imul(h ^ v, 0x01000193);
  };
  const n = b.length;
  for (let i = 0; i < Math.min(64, n); i++) mix(b[i]!);
  for (let i = Math.max(64, n - 64); i < n; i++) mix(b[i]!);
  const step = Math.max(1, Math.floor(n / 8192));
  for (let i = 0; i < n; i += step) mix(b[i]!);
  return h >>> 0;
}

/** Typed access to parsed JSON; every error names the path of the bad value, and its line and column once `parse` gave the text. */
export class JsonReader {
  /**
   * The bytes parsed, not their text (a second copy of the document as long as it lives): decoded again
   * to place an error, and then kept. A fingerprint of them, checked before that, leaves an error
   * unplaced rather than placed wrong when the caller has since changed the bytes.
   */
  private source: Uint8Array | undefined;
  private sourcePrint = 0;
  private textCache: string | undefined;

  /** `root`: how paths into this document start (`$`, or a file name for an external document). */
  constructor(
    readonly format: string,
    readonly root = '$',
  ) {}

  /** Parses the document (see parseJson) and keeps its bytes to place later errors. */
  parse(bytes: Uint8Array): unknown {
    const value = parseJsonText(this.format, decodeText(bytes));
    this.source = bytes;
    this.sourcePrint = fingerprint(bytes);
    this.textCache = undefined;
    return value;
  }

  /**
   * Keeps `bytes` to place later errors, as `parse` does, for a caller that
   * checked them as JSON itself (a leaner parse of the same text: the sheet
   * scanner, src/interop/sheetcompact.ts; Tiled's GID arrays read straight
   * into typed arrays, src/interop/tiled/json-gids.ts).
   */
  keep(bytes: Uint8Array): void {
    this.source = bytes;
    this.sourcePrint = fingerprint(bytes);
    this.textCache = undefined;
  }

  /** The text parsed, decoded again from its bytes (once), or undefined when they have changed since. */
  private get text(): string | undefined {
    if (this.textCache !== undefined || this.source === undefined) return this.textCache;
    if (fingerprint(this.source) !== this.sourcePrint) return undefined;
    this.textCache = decodeText(this.source);
    return this.textCache;
  }

  /**
   * The line and column (1-based, columns counted as in syntax errors) of
   * the value at `path`, or of the nearest enclosing value when it is
   * missing; {} without a parsed text or for a path outside the document.
   */
  at(path: string): ErrorLocation {
    const text = this.text;
    if (text === undefined || !path.startsWith(this.root)) return {};
    try {
      return lineColumn(text, jsonValueOffset(text, pathSegments(path.slice(this.root.length))));
    } catch {
      return {};
    }
  }

  error(path: string, what: string): FormatError {
    return new FormatError(this.format, `${path}: ${what}`, this.at(path));
  }

  /**
   * Links `doc` (what was read from this text) to the text, so that later
   * errors about it (a sheet that cannot be loaded, when rendering) can be
   * placed with errorIn. The text lives as long as the document.
   */
  remember<T extends object>(doc: T): T {
    if (this.source !== undefined)
      Object.defineProperty(doc, 'jsonSource', { value: this, enumerable: false, writable: true, configurable: true });
    return doc;
  }

  /** A validator diagnostic about the value at `path`, placed like errors. */
  diagnostic(severity: Diagnostic['severity'], path: string, what: string): Diagnostic {
    return diagnostic(severity, `${path}: ${what}`, this.at(path));
  }

  isObject(v: unknown): v is Record<string, unknown> {
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  }

  obj(v: unknown, path: string): Record<string, unknown> {
    if (!this.isObject(v)) throw this.error(path, `expected an object, found ${kind(v)}`);
    return v;
  }

  arr(v: unknown, path: string): unknown[] {
    if (!Array.isArray(v)) throw this.error(path, `expected an array, found ${kind(v)}`);
    return v;
  }

  num(v: unknown, path: string, opts: { int?: boolean; min?: number; max?: number } = {}): number {
    if (typeof v !== 'number' || !Number.isFinite(v)) throw this.error(path, `expected a number, found ${kind(v)}`);
    if (opts.int && !Number.isInteger(v)) throw this.error(path, `expected a whole number, found ${v}`);
    if (opts.min !== undefined && v < opts.min) throw this.error(path, `must be at least ${opts.min}, found ${v}`);
    if (opts.max !== undefined && v > opts.max) throw this.error(path, `must be at most ${opts.max}, found ${v}`);
    return v;
  }

  str(v: unknown, path: string): string {
    if (typeof v !== 'string') throw this.error(path, `expected a string, found ${kind(v)}`);
    return v;
  }

  bool(v: unknown, path: string): boolean {
    if (typeof v !== 'boolean') throw this.error(path, `expected true or false, found ${kind(v)}`);
    return v;
  }

  /** A field that may be missing (undefined) but has the right type when present. */
  optStr(o: Record<string, unknown>, key: string, path: string): string | undefined {
    return has(o, key) && o[key] !== undefined ? this.str(o[key], `${path}.${key}`) : undefined;
  }

  optNum(o: Record<string, unknown>, key: string, path: string, opts?: { int?: boolean; min?: number; max?: number }) {
    return has(o, key) && o[key] !== undefined ? this.num(o[key], `${path}.${key}`, opts) : undefined;
  }

  optBool(o: Record<string, unknown>, key: string, path: string): boolean | undefined {
    return has(o, key) && o[key] !== undefined ? this.bool(o[key], `${path}.${key}`) : undefined;
  }

  /** {x, y, w, h} with whole numbers (w, h ≥ 0). */
  rect(v: unknown, path: string): { x: number; y: number; w: number; h: number } {
    const o = this.obj(v, path);
    return {
      x: this.num(o.x, `${path}.x`),
      y: this.num(o.y, `${path}.y`),
      w: this.num(o.w, `${path}.w`, { min: 0 }),
      h: this.num(o.h, `${path}.h`, { min: 0 }),
    };
  }

  size(v: unknown, path: string): { w: number; h: number } {
    const o = this.obj(v, path);
    return { w: this.num(o.w, `${path}.w`, { min: 0 }), h: this.num(o.h, `${path}.h`, { min: 0 }) };
  }
}

/**
 * A document read from JSON text: `jsonSource` is the reader of that text
 * (JsonReader.remember sets it, non-enumerable: not part of the document's
 * data, so inspect JSON, equality and copies leave it out).
 */
export interface FromJson {
  jsonSource?: JsonReader;
}

/**
 * A FormatError about the value at `path` of a document returned by a
 * reader (see JsonReader.remember): placed at its line and column when the
 * document was read from JSON text, unplaced otherwise (made by fromModel).
 */
export function errorIn(doc: object, format: string, path: string, what: string): FormatError {
  return (doc as FromJson).jsonSource?.error(path, what) ?? new FormatError(format, `${path}: ${what}`);
}

export function has(o: Record<string, unknown>, key: string): boolean {
  return Object.hasOwn(o, key);
}

function kind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return 'a string';
  if (typeof v === 'undefined') return 'nothing';
  return typeof v === 'number' ? `the number ${v}` : `${typeof v} ${String(v)}`;
}

/** A JSON path segment for a key: `.key` for plain identifiers, `["key"]` otherwise. */
export function key(k: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`;
}

/** Removes the folder and the extension of a path. */
export function baseName(p: string): string {
  const b = p.replace(/^.*[\\/]/, '');
  const dot = b.lastIndexOf('.');
  return dot > 0 ? b.slice(0, dot) : b;
}
