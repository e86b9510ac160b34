/**
 * JSON text built as UTF-8 bytes in one reused buffer and taken out as a
 * string a chunk at a time: for a JsonText (json-array.ts) that writes a big
 * part of `inspect --json` straight from a document's records. Writing a
 * record this way makes no object, number string or key string: made through
 * objects and sprat's JSON writer, a few MB of output leaves tens of MB of
 * short-lived garbage, and the young generation grows to hold it (the peak
 * memory of `inspect --json`). Every value is written exactly as
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

  /** The bytes `src[start]` .. `src[end - 1]` as they are (text kept in a document's bytes; a short range is copied by a loop: a view for set would be an object per call). */
  slice(src: Uint8Array, start: number, end: number): void {
    const n = end - start;
    const b = this.pos + n > this.buf.length ? this.room(n) : this.buf;
    if (n > 64) {
      b.set(src.subarray(start, end), this.pos);
      this.pos += n;
    } else {
      let p = this.pos;
      for (let i = start; i < end; i++) b[p++] = src[i]!;
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
      this.pos = writeDigits(b, p, u);
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

const textDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** Whether `s` holds a lone surrogate (it is not well-formed UTF-16: its UTF-8 has U+FFFD there instead). */
function hasLoneSurrogate(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
    }
    return true;
  }
  return false;
}

/**
 * Plain text (a writer's output, not JSON) built as UTF-8 bytes in a
 * JsonOut's buffer, for writers of text formats (the Solarus writers): the
 * text is taken out once at the end, as a string (`endText`) or as its UTF-8
 * bytes (`endBytes`), the buffer left for the next writer. `text` writes a
 * string as it is; `num` writes whole numbers as String does. A string made
 * of pieces and `+=` is a tree of pieces that the garbage collector walks
 * until it is flattened, and every number a string of its own: this makes
 * neither. A string with a lone surrogate keeps it in `endText` (the text as
 * concatenation made it); its bytes hold U+FFFD there, as TextEncoder writes.
 */
export class TextOut extends JsonOut {
  /** The text of the bytes before `headAt`, once a string with a lone surrogate was written (else ''). */
  private head = '';
  private headAt = 0;

  /** A string as it is (UTF-8). */
  text(s: string): void {
    const n = s.length;
    const b = this.room(n);
    let p = this.pos;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) {
        this.textSlow(s);
        return;
      }
      b[p++] = c;
    }
    this.pos = p;
  }

  /** The characters `src[start]` .. `src[end - 1]` as they are (text kept in a document's string: no slice made for ASCII). */
  textRange(src: string, start: number, end: number): void {
    const b = this.room(end - start);
    let p = this.pos;
    for (let i = start; i < end; i++) {
      const c = src.charCodeAt(i);
      if (c >= 0x80) {
        this.pos = p;
        this.text(src.slice(i, end));
        return;
      }
      b[p++] = c;
    }
    this.pos = p;
  }

  private textSlow(s: string): void {
    const lone = hasLoneSurrogate(s);
    if (lone) this.head += textDecoder.decode(this.buf.subarray(this.headAt, this.pos)) + s;
    const b = this.room(3 * s.length);
    this.pos += encoder.encodeInto(s, b.subarray(this.pos)).written;
    if (lone) this.headAt = this.pos;
  }

  /** The text written, as a string; the writer is empty again. */
  endText(): string {
    const s = this.head + textDecoder.decode(this.buf.subarray(this.headAt, this.pos));
    this.release();
    return s;
  }

  /** The text written, as UTF-8 bytes (a copy that fits); the writer is empty again. */
  endBytes(): Uint8Array {
    const b = this.buf.slice(0, this.pos);
    this.release();
    return b;
  }

  private release(): void {
    this.head = '';
    this.headAt = 0;
    this.pos = 0;
    if (this.buf.length === BUFFER_SIZE) spare = this.buf;
    this.buf = NO_BYTES;
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

/** The two digits of 0..99, as bytes: DIGIT_PAIRS[2 * v], DIGIT_PAIRS[2 * v + 1]. */
const DIGIT_PAIRS = /* @__PURE__ */ (() => {
  const t = new Uint8Array(200);
  for (let v = 0; v < 100; v++) {
    t[2 * v] = 48 + ((v / 10) | 0);
    t[2 * v + 1] = 48 + (v % 10);
  }
  return t;
})();

/** How many digits 0 <= v < 2^31 has. */
function digitCount(v: number): number {
  if (v < 100) return v < 10 ? 1 : 2;
  if (v < 10000) return v < 1000 ? 3 : 4;
  if (v < 1000000) return v < 100000 ? 5 : 6;
  if (v < 100000000) return v < 10000000 ? 7 : 8;
  return v < 1000000000 ? 9 : 10;
}

/** Writes the digits of a whole number 0 <= v < 2^31 at `p` (int32 arithmetic, two digits a step); returns where they end. */
function writeDigits(b: Uint8Array, p: number, v: number): number {
  if (v < 10) {
    b[p] = 48 + v;
    return p + 1;
  }
  if (v < 100) {
    b[p] = DIGIT_PAIRS[2 * v]!;
    b[p + 1] = DIGIT_PAIRS[2 * v + 1]!;
    return p + 2;
  }
  const end = p + digitCount(v);
  let q = end;
  while (v >= 100) {
    const t = (v / 100) | 0;
    const r = 2 * (v - 100 * t);
    b[q - 1] = DIGIT_PAIRS[r + 1]!;
    b[q - 2] = DIGIT_PAIRS[r]!;
    q -= 2;
    v = t;
  }
  if (v < 10) b[q - 1] = 48 + v;
  else {
    b[q - 1] = DIGIT_PAIRS[2 * v + 1]!;
    b[q - 2] = DIGIT_PAIRS[2 * v]!;
  }
  return end;
}

/** Writes exactly 8 digits of 0 <= v < 10^8 (leading zeros kept) at `p`. */
function writeDigits8(b: Uint8Array, p: number, v: number): void {
  for (let q = p + 8; q > p; q -= 2) {
    const t = (v / 100) | 0;
    const r = 2 * (v - 100 * t);
    b[q - 1] = DIGIT_PAIRS[r + 1]!;
    b[q - 2] = DIGIT_PAIRS[r]!;
    v = t;
  }
}

/** Items of a typed array copied at once into a window of one element type (see NumberRun). */
const WINDOW = 4096;

/**
 * The text of runs of numbers in an array (a level's cells, a map's GIDs),
 * written as bytes into one reused buffer, for sprat's JSON writer
 * (src/binary/json-chunks.ts). A small function of its own: inside the writer's big
 * generator, the loop made V8 compile that whole generator again and again
 * (deoptimized by the arrays' different shapes), each compile taking several
 * MB for a moment, which was the peak memory of `inspect --json` of a 10 MB
 * map; and a number in the loop's unoptimized code is a heap box.
 *
 * A typed array's items are copied a window at a time (a native copy) into
 * an Int32Array (8- and 16-bit items, Int32Array) or a Float64Array (the
 * others), so the loops that write them read one element type only: read
 * straight from the arrays, every view class met made `a[i]` megamorphic,
 * the slowest part of the writer. The digits are made in int32 arithmetic,
 * two at a time from a table; when the lead is a comma, a newline and
 * spaces (always, in indented JSON), the buffer is filled with spaces first
 * and only the comma and newline are written for each item.
 */
export class NumberRun {
  /** The bytes written by the last write(), from 0 to `end`. */
  buf = new Uint8Array(JSON_OUT_CHUNK + 1024);
  end = 0;
  /** The windows, made on first use. */
  private ints: Int32Array | null = null;
  private doubles: Float64Array | null = null;

  /**
   * Writes `a[i]`, `a[i + 1]` ... as JSON.stringify writes them, each after
   * `lead` (whose first byte, the comma, is left out before `a[0]`), until
   * an item that is not a number, the end of `a`, or `max` bytes; returns
   * the index of the first item not written.
   */
  write(a: ArrayLike<unknown>, i: number, lead: Uint8Array, max: number): number {
    const ll = lead.length;
    if (this.buf.length < max + ll + 32) this.buf = new Uint8Array(max + ll + 32);
    const b = this.buf;
    let p = 0;
    const n = a.length;
    if (i < n && i === 0) {
      // The first item: the lead without its comma.
      if (typeof a[0] !== 'number') {
        this.end = 0;
        return i;
      }
      for (let k = 1; k < ll; k++) b[p++] = lead[k]!;
      p = this.item(a[0] as number, p);
      i = 1;
    }
    const kind = windowKind(a);
    if (kind === 0 || !(ll >= 2 && lead[0] === 44 && lead[1] === 10 && isSpaces(lead))) {
      this.end = this.generic(a, i, lead, max, p);
      return this.at;
    }
    b.fill(32, p, max + ll + 32);
    const wide = kind === 2;
    const typed = a as unknown as Int32Array;
    while (i < n && p < max) {
      // At least this many items fit: each takes the lead and a digit or more.
      const k = Math.min(n - i, WINDOW, Math.ceil((max - p) / (ll + 1)));
      const part = typed.subarray(i, i + k);
      let j: number;
      if (wide) {
        (this.doubles ??= new Float64Array(WINDOW)).set(part);
        j = this.runDoubles(k, ll, max, p);
      } else {
        (this.ints ??= new Int32Array(WINDOW)).set(part);
        j = this.runInts(k, ll, max, p);
      }
      p = this.end;
      i += j;
    }
    this.end = p;
    return i;
  }

  /** Where generic() stopped. */
  private at = 0;

  /** The window's first `k` ints, each after a lead of `ll` bytes (spaces already there), from `p`, until `max`; sets `end`, returns how many. */
  private runInts(k: number, ll: number, max: number, p: number): number {
    const b = this.buf;
    const w = this.ints!;
    let j = 0;
    while (j < k && p < max) {
      let v = w[j]!;
      b[p] = 44;
      b[p + 1] = 10;
      p += ll;
      if (v < 0) {
        if (v === -2147483648) {
          p = this.item(v, p);
          j++;
          continue;
        }
        b[p++] = 45;
        v = -v;
      }
      p = writeDigits(b, p, v);
      j++;
    }
    this.end = p;
    return j;
  }

  /** As runInts, for the doubles window. */
  private runDoubles(k: number, ll: number, max: number, p: number): number {
    const b = this.buf;
    const w = this.doubles!;
    let j = 0;
    while (j < k && p < max) {
      const v = w[j]!;
      b[p] = 44;
      b[p + 1] = 10;
      p += ll;
      if (v >= 0 && v < 2147483648 && (v | 0) === v) p = writeDigits(b, p, v | 0);
      else p = this.item(v, p);
      j++;
    }
    this.end = p;
    return j;
  }

  /** The loop for any array (and any lead); sets `at`, returns the end. */
  private generic(a: ArrayLike<unknown>, i: number, lead: Uint8Array, max: number, p: number): number {
    const b = this.buf;
    const n = a.length;
    const ll = lead.length;
    while (i < n && p < max) {
      const v = a[i];
      if (typeof v !== 'number') break;
      for (let k = 0; k < ll; k++) b[p++] = lead[k]!;
      if (v >= 0 && v < 2147483648 && (v | 0) === v) p = writeDigits(b, p, v | 0);
      else p = this.item(v, p);
      i++;
    }
    this.at = i;
    return p;
  }

  /** Any number at `p`, as JSON.stringify writes it; returns where it ends. */
  private item(v: number, p: number): number {
    const b = this.buf;
    if (v >= 0 && v < 2147483648 && (v | 0) === v) return writeDigits(b, p, v | 0);
    if (Number.isInteger(v) && v > -1e16 && v < 1e16) {
      // (-0 is "0", as JSON.stringify writes it)
      if (v < 0) {
        b[p++] = 45; // -
        v = -v;
      }
      if (v < 2147483648) return writeDigits(b, p, v | 0);
      let hi = Math.floor(v / 1e8);
      let lo = v - hi * 1e8;
      if (lo < 0) {
        hi--;
        lo += 1e8;
      } else if (lo >= 1e8) {
        hi++;
        lo -= 1e8;
      }
      p = writeDigits(b, p, hi);
      writeDigits8(b, p, lo);
      return p + 8;
    }
    const t = Number.isFinite(v) ? String(v) : 'null';
    for (let k = 0; k < t.length; k++) b[p++] = t.charCodeAt(k);
    return p;
  }
}

/** 1: a typed array whose items are int32s (copied to an Int32Array window), 2: other typed arrays of numbers (a Float64Array window), 0: anything else. */
function windowKind(a: ArrayLike<unknown>): number {
  if (!ArrayBuffer.isView(a)) return 0;
  if (a instanceof Uint8Array || a instanceof Int16Array || a instanceof Uint16Array || a instanceof Int32Array || a instanceof Int8Array)
    return 1;
  if (a instanceof Uint8ClampedArray) return 1;
  return a instanceof Uint32Array || a instanceof Float64Array || a instanceof Float32Array ? 2 : 0;
}

/** Whether `lead` is `,` `\n` and spaces. */
function isSpaces(lead: Uint8Array): boolean {
  for (let k = 2; k < lead.length; k++) if (lead[k] !== 32) return false;
  return true;
}
