/**
 * JSON helpers shared by the interchange formats: parsing with a line and
 * column on error, cheap content sniffing on a bounded prefix, and typed
 * accessors whose errors name the JSON path of the bad value.
 */
import { FormatError } from '../binary/errors.js';

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
  const text = decodeText(bytes);
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

/** Typed access to parsed JSON; every error names the path of the bad value. */
export class JsonReader {
  constructor(readonly format: string) {}

  error(path: string, what: string): FormatError {
    return new FormatError(this.format, `${path}: ${what}`);
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

export function has(o: Record<string, unknown>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, key);
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

/** JSON text with two-space indentation and a final newline, as bytes. */
export function jsonBytes(value: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(value, null, 2) + '\n');
}

/** Removes the folder and the extension of a path. */
export function baseName(p: string): string {
  const b = p.replace(/^.*[\\/]/, '');
  const dot = b.lastIndexOf('.');
  return dot > 0 ? b.slice(0, dot) : b;
}
