/**
 * JSON.stringify(value, null, indent) without recursion: the same text for
 * any value JSON.stringify accepts, but documents nested far deeper than the
 * call stack (a hostile ISPRITE group tree) still print. Indentation stops
 * growing at MAX_INDENT_DEPTH levels, so that the text of such a tree stays
 * linear in its size (no real document comes near that depth).
 *
 * The text is counted as it is made, against the `--max-json-bytes` budget
 * (src/binary/limits.ts): a document whose JSON would pass it is a
 * LimitError, found before the text is built.
 */
import { Budget, DEFAULT_LIMITS, type Limits } from '../binary/limits.js';

export const MAX_INDENT_DEPTH = 100;

function prepare(value: unknown, key: string): unknown {
  if (value !== null && typeof value === 'object') {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') value = (toJSON as (k: string) => unknown).call(value, key);
  } else if (typeof value === 'bigint') {
    const toJSON = (BigInt.prototype as unknown as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') value = (toJSON as (k: string) => unknown).call(value, key);
  }
  if (value instanceof Number || value instanceof String || value instanceof Boolean) value = value.valueOf();
  return value;
}

/** The text of a non-object value, or undefined for what JSON leaves out. */
function primitive(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    case 'object':
      return value === null ? 'null' : undefined;
    default:
      return undefined;
  }
}

/** Pieces are joined into chunks at this many pieces or characters, so a long text is neither millions of small strings nor held twice. */
const CHUNK_PIECES = 4096;
const CHUNK_CHARS = 1 << 16;

interface Frame {
  holder: object;
  /** The array itself, or the object's keys. */
  array: readonly unknown[] | null;
  keys: string[] | null;
  close: string;
  /** Next index into the array or keys. */
  i: number;
  /** Entries written so far. */
  written: number;
  depth: number;
  /** An object's first included entry, found (and prepared, once) when it was opened to tell `{}` from `{...}`. */
  peeked: { key: string; value: unknown } | null;
}

/**
 * The text of `value` as pieces ("chunks") whose concatenation is
 * `stringifyJson(value, indent)`. The text is counted as it is produced (in
 * characters: the bytes of ASCII text) against `limits.maxJsonBytes`; past
 * it, it throws the LimitError of `--max-json-bytes`, having built no more
 * than that. Arrays are walked lazily, so a 10-million-entry array costs its
 * text and nothing more.
 */
export function stringifyJsonChunks(value: unknown, indent = 2, limits: Partial<Limits> = {}): string[] | undefined {
  const budget = new Budget({ ...DEFAULT_LIMITS, ...limits });
  const max = budget.limits.maxJsonBytes;
  const pads: string[] = [];
  const pad = (n: number) => (pads[n] ??= ' '.repeat(Math.min(n, MAX_INDENT_DEPTH) * indent));
  const chunks: string[] = [];
  let pieces: string[] = [];
  let size = 0;
  let chunkStart = 0;
  const put = (s: string): void => {
    size += s.length;
    if (size > max) budget.check('maxJsonBytes', size, 'the JSON output');
    pieces.push(s);
    if (pieces.length >= CHUNK_PIECES || size - chunkStart >= CHUNK_CHARS) {
      chunks.push(pieces.join(''));
      pieces = [];
      chunkStart = size;
    }
  };
  const stack: Frame[] = [];
  const active = new Set<object>();

  /** The next entry of an object frame that JSON includes, prepared; null at the end. */
  const nextObjectEntry = (f: Frame): { key: string; value: unknown } | null => {
    const keys = f.keys!;
    const holder = f.holder as Record<string, unknown>;
    while (f.i < keys.length) {
      const k = keys[f.i++]!;
      const item = prepare(holder[k], k);
      if ((item !== null && typeof item === 'object') || primitive(item) !== undefined) return { key: k, value: item };
    }
    return null;
  };

  /** Writes a prepared value, or opens a frame for a non-empty container. */
  const emit = (v: unknown, depth: number): void => {
    if (v === null || typeof v !== 'object') {
      put(primitive(v) ?? 'null');
      return;
    }
    if (active.has(v)) throw new TypeError('Converting circular structure to JSON');
    let f: Frame;
    if (Array.isArray(v)) {
      if (v.length === 0) return put('[]');
      f = { holder: v, array: v, keys: null, close: ']', i: 0, written: 0, depth, peeked: null };
      put('[');
    } else {
      f = { holder: v, array: null, keys: Object.keys(v), close: '}', i: 0, written: 0, depth, peeked: null };
      f.peeked = nextObjectEntry(f);
      if (!f.peeked) return put('{}');
      put('{');
    }
    active.add(v);
    stack.push(f);
  };

  const top = prepare(value, '');
  if (top === undefined || typeof top === 'function' || typeof top === 'symbol') return undefined;
  emit(top, 0);
  while (stack.length) {
    const f = stack[stack.length - 1]!;
    let key: string | null = null;
    let item: unknown;
    let more: boolean;
    if (f.array) {
      more = f.i < f.array.length;
      if (more) {
        const k = f.i++;
        item = prepare(f.array[k], String(k));
        if (!(typeof item === 'object' || primitive(item) !== undefined)) item = null;
      }
    } else {
      const e = f.peeked ?? nextObjectEntry(f);
      f.peeked = null;
      more = e !== null;
      if (e) [key, item] = [e.key, e.value];
    }
    if (more) {
      put((f.written++ > 0 ? ',\n' : '\n') + pad(f.depth + 1) + (key === null ? '' : JSON.stringify(key) + ': '));
      emit(item, f.depth + 1);
    } else {
      put('\n' + pad(f.depth) + f.close);
      active.delete(f.holder);
      stack.pop();
    }
  }
  if (pieces.length) chunks.push(pieces.join(''));
  return chunks;
}

/**
 * JSON.stringify(value, null, indent), without recursion and within the
 * JSON-bytes budget (see stringifyJsonChunks).
 */
export function stringifyJson(value: unknown, indent = 2, limits: Partial<Limits> = {}): string | undefined {
  return stringifyJsonChunks(value, indent, limits)?.join('');
}

/**
 * Text made of many pieces (records, timeline lines), counted against the
 * JSON-bytes budget as it grows: `add` throws the LimitError of
 * `--max-json-bytes` before the text passes the limit.
 */
export class BoundedText {
  private readonly budget: Budget;
  private readonly chunks: string[] = [];
  private pieces: string[] = [];
  private size = 0;
  private chunkStart = 0;

  constructor(
    limits: Partial<Limits> = {},
    private readonly what = 'the output',
  ) {
    this.budget = new Budget({ ...DEFAULT_LIMITS, ...limits });
  }

  add(s: string): void {
    this.size += s.length;
    if (this.size > this.budget.limits.maxJsonBytes) this.budget.check('maxJsonBytes', this.size, this.what);
    this.pieces.push(s);
    if (this.pieces.length >= CHUNK_PIECES || this.size - this.chunkStart >= CHUNK_CHARS) {
      this.chunks.push(this.pieces.join(''));
      this.pieces = [];
      this.chunkStart = this.size;
    }
  }

  /** The text so far, as chunks to print one after the other. */
  parts(): string[] {
    if (this.pieces.length) {
      this.chunks.push(this.pieces.join(''));
      this.pieces = [];
    }
    return this.chunks;
  }
}
