/**
 * JSON text built as UTF-8 bytes in one reused buffer and taken out as a
 * string a chunk at a time: for a JsonText (json-array.ts) that writes a big
 * part of `inspect --json` straight from a document's records. Writing a
 * record this way makes no object, number string or key string: made through
 * objects and sprat's JSON writer, a few MB of output leaves tens of MB of
 * short-lived garbage, and the young generation grows to hold it (the peak
 * memory of `inspect --json`; issue 16). Every value is written exactly as
 * JSON.stringify writes it.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The text is handed out in pieces of about this many bytes. */
export const JSON_OUT_CHUNK = 1 << 16;

/** Whether JsonOut.value writes `v` (a number, string, boolean or null), as JSON.stringify does in an object or array. */
export function isJsonPrimitive(v: unknown): v is number | string | boolean | null {
  return v === null || typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean';
}

const TRUE = encoder.encode('true');
const FALSE = encoder.encode('false');
const NULL = encoder.encode('null');

/** How many decimal digits an int32 >= 0 has. */
function digitCount(u: number): number {
  return u < 100000
    ? u < 100
      ? u < 10
        ? 1
        : 2
      : u < 1000
        ? 3
        : u < 10000
          ? 4
          : 5
    : u < 10000000
      ? u < 1000000
        ? 6
        : 7
      : u < 100000000
        ? 8
        : u < 1000000000
          ? 9
          : 10;
}

/** A JsonOut's buffer: a chunk and room for the value that passes it. */
const BUFFER_SIZE = JSON_OUT_CHUNK + 1024;
const NO_BYTES = new Uint8Array(0);
/** A buffer that a JsonOut gave back (end()), for the next one. */
let spare: Uint8Array | null = null;

export class JsonOut {
  /** Empty until the first write, and again after end(). */
  protected buf: Uint8Array = NO_BYTES;
  /** Bytes written since the last take(). */
  pos = 0;

  /** Whether a chunk's worth is waiting (then take() it). */
  get full(): boolean {
    return this.pos >= JSON_OUT_CHUNK;
  }

  /** The buffer, with room for `n` more bytes at `pos`. */
  protected room(n: number): Uint8Array {
    if (this.pos + n > this.buf.length) this.grow(this.pos + n);
    return this.buf;
  }

  private grow(size: number): void {
    if (this.buf.length === 0 && spare && size <= spare.length) {
      this.buf = spare;
      spare = null;
      return;
    }
    const next = new Uint8Array(Math.max(2 * this.buf.length, size, BUFFER_SIZE));
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  /** Bytes as they are (constant parts, made once by `bytes`). */
  raw(a: Uint8Array): void {
    // Longer parts in one copy by the engine, not a loop of byte stores: once any ArrayBuffer in the
    // process has been detached (a WebAssembly memory that grew, a transfer), V8 checks the buffer on
    // every typed-array access in optimized code, and a byte loop took half as long again; a few bytes
    // are still quicker stored than handed to set (docs/performance.md).
    const n = a.length;
    const b = this.pos + n > this.buf.length ? this.room(n) : this.buf;
    if (n > 8) {
      b.set(a, this.pos);
      this.pos += n;
    } else {
      let p = this.pos;
      for (let i = 0; i < n; i++) b[p++] = a[i]!;
      this.pos = p;
    }
  }

  /** A boolean. */
  bool(v: boolean): void {
    this.raw(v ? TRUE : FALSE);
  }

  /** A number as JSON.stringify writes it: whole numbers digit by digit, others through String, non-finite as null. */
  num(v: number): void {
    if ((v | 0) === v) {
      // An int32 (-0 included: "0", as JSON.stringify writes it), in int32 arithmetic.
      const b = this.room(11);
      let p = this.pos;
      let u = v;
      if (u < 0) {
        b[p++] = 45; // -
        u = -u;
        if (u < 0) {
          // -2^31: its magnitude is no int32.
          this.pos = p;
          this.digits(2147483648);
          return;
        }
      }
      const end = p + digitCount(u);
      this.pos = end;
      p = end;
      do {
        const q = (u / 10) | 0;
        b[--p] = 48 + u - q * 10;
        u = q;
      } while (u > 0);
      return;
    }
    if (!Number.isSafeInteger(v)) {
      this.ascii(Number.isFinite(v) ? String(v) : 'null');
      return;
    }
    if (v < 0) {
      this.room(1)[this.pos++] = 45; // -
      v = -v;
    }
    this.digits(v);
  }

  /** The digits of a safe whole number >= 0. */
  private digits(v: number): void {
    const b = this.room(16);
    let digits = 1;
    for (let m = v; m >= 10; m = Math.floor(m / 10)) digits++;
    let p = this.pos + digits;
    this.pos = p;
    do {
      b[--p] = 48 + (v % 10);
      v = Math.floor(v / 10);
    } while (v > 0);
  }

  /** A string as JSON.stringify writes it. */
  str(v: string): void {
    // ASCII without control characters, `"` or `\` is its own JSON text between quotes: copied as it is,
    // with no JSON.stringify string made; a string with anything else (an escape, non-ASCII) is written anew
    // by strSlow.
    const n = v.length;
    const b = this.room(n + 2);
    let p = this.pos;
    b[p++] = 34; // "
    for (let i = 0; i < n; i++) {
      const c = v.charCodeAt(i);
      if (c < 0x20 || c >= 0x80 || c === 34 || c === 92) {
        this.strSlow(v);
        return;
      }
      b[p++] = c;
    }
    b[p++] = 34;
    this.pos = p;
  }

  private strSlow(v: string): void {
    const t = JSON.stringify(v);
    const b = this.room(3 * t.length);
    let p = this.pos;
    for (let i = 0; i < t.length; i++) {
      const c = t.charCodeAt(i);
      if (c >= 0x80) {
        // (JSON.stringify escapes lone surrogates: the text is well-formed UTF-16)
        this.pos += encoder.encodeInto(t, b.subarray(this.pos)).written;
        return;
      }
      b[p++] = c;
    }
    this.pos = p;
  }

  /** Text known to be ASCII. */
  ascii(t: string): void {
    const b = this.room(t.length);
    let p = this.pos;
    for (let i = 0; i < t.length; i++) b[p++] = t.charCodeAt(i);
    this.pos = p;
  }

  /** A number, string, boolean or null (see isJsonPrimitive) as JSON.stringify writes it. */
  value(v: number | string | boolean | null): void {
    if (typeof v === 'number') this.num(v);
    else if (typeof v === 'string') this.str(v);
    else if (v === null) this.raw(NULL);
    else this.raw(v ? TRUE : FALSE);
  }

  /** The text written since the last take(). */
  take(): string {
    const s = decoder.decode(this.buf.subarray(0, this.pos));
    this.pos = 0;
    // A buffer grown for a long string is not kept.
    if (this.buf.length > 4 * JSON_OUT_CHUNK) this.buf = NO_BYTES;
    return s;
  }

  /**
   * The last text (as take()), the buffer left for the next JsonOut: a text of a few small lists (a CTHG
   * file's) would otherwise allocate a buffer per list and call. Writing again afterwards is allowed (it
   * takes a buffer anew).
   */
  end(): string {
    const s = this.take();
    if (this.buf.length === BUFFER_SIZE) spare = this.buf;
    this.buf = NO_BYTES;
    return s;
  }
}

/** Text as UTF-8 bytes, for JsonOut.raw. */
export const jsonBytes = (s: string): Uint8Array => encoder.encode(s);

/** Constant parts written one after the other, as one part (fewer JsonOut.raw calls per record). */
export function joinBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * The constant text of an object with `keys` (in order) whose `{` is at
 * `depth`: `lead[k]` comes before the value of `keys[k]` (`{` and the first
 * key, or `,` and the next), `close` after the last value; as JSON.stringify
 * writes them with the indentation `pad` (pad(n): a line at depth n).
 */
export function objectParts(keys: readonly string[], depth: number, pad: (n: number) => string): { lead: Uint8Array[]; close: Uint8Array } {
  const p = pad(depth + 1);
  return {
    lead: keys.map((k, i) => jsonBytes(`${i === 0 ? '{' : ','}\n${p}${JSON.stringify(k)}: `)),
    close: jsonBytes(`\n${pad(depth)}}`),
  };
}

/**
 * The text of the JSON array of `items` at `depth`, in chunks: `write` writes
 * one item (at depth + 1) into the JsonOut; for JsonText's `text`.
 */
export function* jsonListText<T>(
  items: ArrayLike<T>,
  depth: number,
  pad: (n: number) => string,
  write: (o: JsonOut, item: T, i: number) => void,
): Generator<string, void, undefined> {
  if (items.length === 0) {
    yield '[]';
    return;
  }
  const o = new JsonOut();
  const first = jsonBytes(`[\n${pad(depth + 1)}`);
  const next = jsonBytes(`,\n${pad(depth + 1)}`);
  for (let i = 0; i < items.length; i++) {
    o.raw(i === 0 ? first : next);
    write(o, items[i]!, i);
    if (o.full) yield o.take();
  }
  o.raw(jsonBytes(`\n${pad(depth)}]`));
  yield o.end();
}

/**
 * The text of runs of numbers in an array (a level's cells, a map's GIDs),
 * written as bytes into one reused buffer, for sprat's JSON writer
 * (src/cli/json.ts). A small function of its own: inside the writer's big
 * generator, the loop made V8 compile that whole generator again and again
 * (deoptimized by the arrays' different shapes), each compile taking several
 * MB for a moment, which was the peak memory of `inspect --json` of a 10 MB
 * map (issue 16); and a number in the loop's unoptimized code is a heap box.
 */
export class NumberRun {
  /** The bytes written by the last write(), from 0 to `end`. */
  buf = new Uint8Array(JSON_OUT_CHUNK + 1024);
  end = 0;

  /**
   * Writes `a[i]`, `a[i + 1]` ... as JSON.stringify writes them, each after
   * `lead` (whose first byte, the comma, is left out before `a[0]`), until
   * an item that is not a number, the end of `a`, or `max` bytes; returns
   * the index of the first item not written.
   */
  write(a: ArrayLike<unknown>, i: number, lead: Uint8Array, max: number): number {
    const n = a.length;
    const ll = lead.length;
    if (this.buf.length < max + ll + 32) this.buf = new Uint8Array(max + ll + 32);
    const b = this.buf;
    let p = 0;
    while (i < n && p < max) {
      const item = a[i];
      if (typeof item !== 'number') break;
      for (let k = i > 0 ? 0 : 1; k < ll; k++) b[p++] = lead[k]!;
      if (item >= 0 && item <= 0xffffffff && item === Math.floor(item)) {
        // (a Uint32Array's numbers and every other small whole number; -0 is "0", as JSON.stringify writes it)
        let v = item;
        let digits = 1;
        for (let m = 10; m <= v; m *= 10) digits++;
        p += digits;
        let q = p;
        do {
          const d = v % 10;
          b[--q] = 48 + d;
          v = (v - d) / 10;
        } while (v > 0);
      } else p = this.other(item, p);
      i++;
    }
    this.end = p;
    return i;
  }

  /** A number that is not a whole number in 0..2^32-1, at `p`; returns where it ends. */
  private other(item: number, p: number): number {
    const b = this.buf;
    if (Number.isSafeInteger(item)) {
      let v = item;
      if (v < 0) {
        b[p++] = 45; // -
        v = -v;
      }
      let digits = 1;
      for (let m = 10; m <= v; m *= 10) digits++;
      p += digits;
      let q = p;
      do {
        const d = v % 10;
        b[--q] = 48 + d;
        v = (v - d) / 10;
      } while (v > 0);
      return p;
    }
    const t = Number.isFinite(item) ? String(item) : 'null';
    for (let k = 0; k < t.length; k++) b[p++] = t.charCodeAt(k);
    return p;
  }
}
