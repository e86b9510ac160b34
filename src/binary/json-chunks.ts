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
import { Budget, DEFAULT_LIMITS, type Limits } from './limits.js';
import { isJsonNumbers, JsonList, JsonText } from './json-array.js';
import { NumberRun } from './json-out.js';

export const MAX_INDENT_DEPTH = 100;

function prepare(value: unknown, key: string): unknown {
  // Numbers in a typed array (src/binary/json-array.ts) are written as they are, without toJSON's copy.
  if (isJsonNumbers(value) || value instanceof JsonList) return value;
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
/** Text of numbers made as bytes (ASCII only). */
const text = new TextDecoder();
const encoder = new TextEncoder();

interface Frame {
  holder: object;
  /** The array itself, or the object's keys. */
  array: ArrayLike<unknown> | null;
  /** A JsonList's items, made one at a time (else the array is read by index). */
  at: ((i: number) => unknown) | null;
  keys: string[] | null;
  close: string;
  /** Next index into the array or keys. */
  i: number;
  /** Entries written so far. */
  written: number;
  depth: number;
  /** An object's first included entry, found (and prepared, once) when it was opened to tell `{}` from `{...}`. */
  peeked: { key: string; value: unknown } | null;
  /** A JsonText's pieces, written as they come (not its items). */
  pieces?: Iterator<string>;
}

/**
 * The text of `value` as pieces ("chunks") whose concatenation is
 * `stringifyJson(value, indent)`, made as they are asked for: a caller that
 * prints each chunk before asking for the next holds one chunk of the text at
 * a time, whatever the document's size. The text is counted as it is
 * produced (in characters: the bytes of ASCII text) against
 * `limits.maxJsonBytes`; past it, it throws the LimitError of
 * `--max-json-bytes`, having made no more than that. Arrays are walked
 * lazily, and runs of numbers, strings, booleans and nulls in an array are
 * written in one tight loop (a level's cells are millions of numbers).
 */
export function* jsonChunks(value: unknown, indent = 2, limits: Partial<Limits> = {}): Generator<string, void, undefined> {
  const budget = new Budget({ ...DEFAULT_LIMITS, ...limits });
  const max = budget.limits.maxJsonBytes;
  const pads: string[] = [];
  const pad = (n: number) => (pads[n] ??= ' '.repeat(Math.min(n, MAX_INDENT_DEPTH) * indent));
  // `cur` grows by concatenation (V8 keeps it as a rope) and is handed out at CHUNK_CHARS.
  let cur = '';
  let size = 0;
  const over = (): never => budget.check('maxJsonBytes', size, 'the JSON output') as never;
  const stack: Frame[] = [];
  const active = new Set<object>();
  const numbers = new NumberRun();
  /** `lead` (below) as bytes, by depth. */
  const leadBytes: Uint8Array[] = [];

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
      const t = primitive(v) ?? 'null';
      size += t.length;
      cur += t;
      return;
    }
    if (active.has(v)) throw new TypeError('Converting circular structure to JSON');
    let f: Frame;
    let open: string;
    if (v instanceof JsonText) {
      const pieces = v.text(depth, pad)[Symbol.iterator]();
      f = { holder: v, array: null, at: null, keys: null, close: '', i: 0, written: 0, depth, peeked: null, pieces };
      active.add(v);
      stack.push(f);
      return;
    }
    if (Array.isArray(v) || isJsonNumbers(v) || v instanceof JsonList) {
      if ((v as ArrayLike<unknown>).length === 0) {
        size += 2;
        cur += '[]';
        return;
      }
      const at = v instanceof JsonList ? (i: number) => v.at(i) : null;
      f = { holder: v, array: v as ArrayLike<unknown>, at, keys: null, close: ']', i: 0, written: 0, depth, peeked: null };
      open = '[';
    } else {
      f = { holder: v, array: null, at: null, keys: Object.keys(v), close: '}', i: 0, written: 0, depth, peeked: null };
      f.peeked = nextObjectEntry(f);
      if (!f.peeked) {
        size += 2;
        cur += '{}';
        return;
      }
      open = '{';
    }
    size += 1;
    cur += open;
    active.add(v);
    stack.push(f);
  };

  const top = prepare(value, '');
  if (top === undefined || typeof top === 'function' || typeof top === 'symbol') return;
  emit(top, 0);
  while (stack.length) {
    if (size > max) over();
    if (cur.length >= CHUNK_CHARS) {
      yield cur;
      cur = '';
    }
    const f = stack[stack.length - 1]!;
    if (f.pieces) {
      const r = f.pieces.next();
      if (r.done) {
        active.delete(f.holder);
        stack.pop();
      } else {
        size += r.value.length;
        cur += r.value;
      }
      continue;
    }
    if (f.array) {
      const a = f.array;
      // A run of plain numbers, strings, booleans and nulls: written here, a chunk at most.
      const lead = ',\n' + pad(f.depth + 1);
      let i = f.i;
      if (!f.at && typeof a[i] === 'number') {
        // A run of numbers (a level's cells, a map's GIDs): their text written as bytes, one string per
        // chunk. A string per number was copied out of the young generation and left for the old
        // generation's collector: the output's size again in memory. (NumberRun writes them: the loop in this
        // generator made V8 compile the whole generator again and again, several MB each time.)
        i = numbers.write(a, i, (leadBytes[f.depth + 1] ??= encoder.encode(lead)), CHUNK_CHARS);
        const piece = text.decode(numbers.buf.subarray(0, numbers.end));
        size += piece.length;
        cur += piece;
        f.written += i - f.i;
        f.i = i;
        continue;
      }
      const run: string[] = [];
      let runChars = 0;
      while (!f.at && i < a.length && runChars < CHUNK_CHARS) {
        const item = a[i];
        let t: string;
        if (typeof item === 'number') t = Number.isFinite(item) ? '' + item : 'null';
        else if (typeof item === 'string') t = JSON.stringify(item);
        else if (typeof item === 'boolean') t = item ? 'true' : 'false';
        else if (item === null) t = 'null';
        else break;
        run.push(t);
        runChars += t.length + lead.length;
        i++;
      }
      if (run.length) {
        const piece = (f.i > 0 ? lead : lead.slice(1)) + run.join(lead);
        size += piece.length;
        cur += piece;
      }
      f.written += i - f.i;
      f.i = i;
      if (i < a.length && runChars < CHUNK_CHARS) {
        const k = f.i++;
        let item = prepare(f.at ? f.at(k) : a[k], String(k));
        if (!(typeof item === 'object' || primitive(item) !== undefined)) item = null;
        const piece = f.written++ > 0 ? lead : lead.slice(1);
        size += piece.length;
        cur += piece;
        emit(item, f.depth + 1);
      } else if (i >= a.length) {
        const piece = '\n' + pad(f.depth) + f.close;
        size += piece.length;
        cur += piece;
        active.delete(f.holder);
        stack.pop();
      }
      continue;
    }
    const e = f.peeked ?? nextObjectEntry(f);
    f.peeked = null;
    if (e) {
      const piece = (f.written++ > 0 ? ',\n' : '\n') + pad(f.depth + 1) + JSON.stringify(e.key) + ': ';
      size += piece.length;
      cur += piece;
      emit(e.value, f.depth + 1);
    } else {
      const piece = '\n' + pad(f.depth) + f.close;
      size += piece.length;
      cur += piece;
      active.delete(f.holder);
      stack.pop();
    }
  }
  if (size > max) over();
  if (cur) yield cur;
}

/**
 * The text of `value` as pieces whose concatenation is
 * `stringifyJson(value, indent)`, all made before it returns (see
 * jsonChunks, which makes them one at a time); undefined for a value JSON
 * leaves out (undefined, a function).
 */
export function stringifyJsonChunks(value: unknown, indent = 2, limits: Partial<Limits> = {}): string[] | undefined {
  // Every value JSON writes has some text: no chunks means a value it leaves out.
  const chunks = [...jsonChunks(value, indent, limits)];
  return chunks.length ? chunks : undefined;
}

/**
 * JSON.stringify(value, null, indent), without recursion and within the
 * JSON-bytes budget (see stringifyJsonChunks).
 */
export function stringifyJson(value: unknown, indent = 2, limits: Partial<Limits> = {}): string | undefined {
  return stringifyJsonChunks(value, indent, limits)?.join('');
}

/** A file made in pieces (see OutputFile in src/formats/types.ts, which this is). */
export interface ChunkedFile {
  name: string;
  readonly bytes: Uint8Array;
  readonly chunks: () => Iterable<string | Uint8Array>;
}

/**
 * A file whose content `chunks` makes a piece at a time (strings stand for
 * their UTF-8), each call from the first piece: a writer that writes each
 * piece before asking for the next holds one piece at a time. `bytes` joins
 * them, once, when first asked for (what a caller that wants the whole file
 * pays).
 */
export function chunkedFile(name: string, chunks: () => Iterable<string | Uint8Array>): ChunkedFile {
  let bytes: Uint8Array | undefined;
  return {
    name,
    chunks,
    get bytes() {
      bytes ??= joinChunks(chunks());
      return bytes;
    },
  };
}

/** The pieces as one array of bytes (strings as UTF-8). */
export function joinChunks(chunks: Iterable<string | Uint8Array>): Uint8Array {
  const parts: Uint8Array[] = [];
  let size = 0;
  for (const c of chunks) {
    const b = typeof c === 'string' ? encoder.encode(c) : c;
    parts.push(b);
    size += b.length;
  }
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * A JSON file: the text of `JSON.stringify(value, null, 2)` and a newline,
 * made by jsonChunks a chunk at a time as it is written, within
 * `limits.maxJsonBytes` (past it, the LimitError of `--max-json-bytes`, with
 * no more than the limit made). The one way sprat writes a JSON file.
 */
export function jsonFile(name: string, value: unknown, limits: Partial<Limits> = {}): ChunkedFile {
  return chunkedFile(name, function* () {
    yield* jsonChunks(value, 2, limits);
    yield '\n';
  });
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
