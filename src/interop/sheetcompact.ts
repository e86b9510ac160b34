/**
 * The compact form of a JSON sheet's frames (Aseprite, TexturePacker).
 *
 * A big sheet is mostly its frame records, and JSON.parse makes six to nine
 * objects of each (the record, `frame`, `spriteSourceSize`, `sourceSize`,
 * `pivot`, ...): 5-7 times the text in memory at its peak. So the readers
 * first scan the bytes themselves (`scanSheet`): every frame record is
 * checked as readFrames checks it and kept as numbers in one Float64Array
 * and flags in a Uint8Array (a `SheetFrameStore`), with its name; the other
 * values of the document (`meta`, `animations`: small) are parsed with
 * JSON.parse as before. Whatever the scanner is not sure of (invalid JSON, a
 * value of the wrong type, a key with an escape, duplicate or numeric frame
 * names, a multiatlas) makes it give up, and the reader reads the document
 * the old way: errors (with their line and column) and unusual documents
 * are exactly as before.
 *
 * The document does not change for its users: `doc.frames` is an own,
 * enumerable property whose getter makes the frame objects once, on first
 * use, and keeps them (a plain array from then on, to change or assign);
 * until then the store is the document's non-enumerable `frameStore`. The
 * library's own code reads frames through `frameCount` / `frameAt` /
 * `frameNameAt`, which leave a compact document compact, and `inspect
 * --json` writes the frames' text straight from the store (`framesJsonValue`:
 * a JsonText, the same text as JSON.stringify of the plain records).
 */
import { JsonText } from '../binary/json-array.js';
import { StringSet } from '../binary/string-map.js';
import { JsonOut, jsonBytes } from '../binary/json-out.js';
import type { JsonReader } from './json.js';
import { frameRecord, type SheetJsonFrame } from './sheetjson.js';

/** Numbers per frame: frame x y w h, spriteSourceSize x y w h, sourceSize w h, duration, pivot x y, anchor x y. */
const STRIDE = 15;
const ascii = new TextDecoder();
const ROTATED = 1;
const TRIMMED = 2;
const DURATION = 4;
const PIVOT = 8;
const ANCHOR = 16;
/** No name in the record (array layout): named by its index. */
const INDEX_NAME = 32;
/** A name with an escape or a byte outside printable ASCII: kept as a string (`SheetFrameStore.special`). */
const SPECIAL_NAME = 64;

/** Frame records as numbers: see the file's comment. */
export class SheetFrameStore {
  count = 0;
  /** Whole numbers in an Int32Array while every number is one (the usual sheet), else all in a Float64Array. */
  nums: Int32Array | Float64Array;
  flags: Uint8Array;
  /**
   * The names: frame i's is `nameBytes[nameStart[i] .. nameStart[i + 1])` (printable ASCII without escapes: its
   * text in the file is its JSON), else `special.get(i)`, or its index (INDEX_NAME). No string per frame.
   */
  nameBytes: Uint8Array;
  nameStart: Uint32Array;
  special = new Map<number, string>();

  constructor(capacity = 256) {
    this.nums = new Int32Array(capacity * STRIDE);
    this.flags = new Uint8Array(capacity);
    this.nameStart = new Uint32Array(capacity + 1);
    this.nameBytes = new Uint8Array(capacity * 16);
  }

  /** The name of frame `i` (a new string each time). */
  name(i: number): string {
    const fl = this.flags[i]!;
    if (fl & INDEX_NAME) return String(i);
    if (fl & SPECIAL_NAME) return this.special.get(i)!;
    return ascii.decode(this.nameBytes.subarray(this.nameStart[i]!, this.nameStart[i + 1]!));
  }

  /** Sets the name of the last frame added: `src[a..z)`, printable ASCII without escapes. */
  plainName(src: Uint8Array, a: number, z: number): void {
    const f = this.count - 1;
    const at = this.nameStart[f]!;
    const end = at + (z - a);
    if (end > this.nameBytes.length) {
      const grown = new Uint8Array(Math.max(end, Math.ceil(this.nameBytes.length * 1.5)));
      grown.set(this.nameBytes.subarray(0, at));
      this.nameBytes = grown;
    }
    this.nameBytes.set(src.subarray(a, z), at);
    this.nameStart[f + 1] = end;
    this.flags[f] = this.flags[f]! & ~(INDEX_NAME | SPECIAL_NAME);
    this.special.delete(f);
  }

  /** Sets the name of the last frame added to a string (see SPECIAL_NAME). */
  specialName(name: string): void {
    const f = this.count - 1;
    this.nameStart[f + 1] = this.nameStart[f]!;
    this.flags[f] = (this.flags[f]! & ~INDEX_NAME) | SPECIAL_NAME;
    this.special.set(f, name);
  }

  /** Room for one more frame; its index. */
  add(): number {
    const i = this.count;
    if (i >= this.flags.length) this.resize(Math.max(256, Math.ceil(this.flags.length * 1.5)));
    this.nums.fill(0, i * STRIDE, i * STRIDE + STRIDE);
    this.flags[i] = INDEX_NAME;
    this.nameStart[i + 1] = this.nameStart[i]!;
    this.count++;
    return i;
  }

  private resize(cap: number, wide = this.nums instanceof Float64Array): void {
    const nums = wide ? new Float64Array(cap * STRIDE) : new Int32Array(cap * STRIDE);
    nums.set(this.nums.subarray(0, Math.min(this.nums.length, cap * STRIDE)));
    const flags = new Uint8Array(cap);
    flags.set(this.flags.subarray(0, Math.min(this.flags.length, cap)));
    this.nums = nums;
    this.flags = flags;
    if (cap + 1 !== this.nameStart.length) {
      const starts = new Uint32Array(cap + 1);
      starts.set(this.nameStart.subarray(0, Math.min(this.nameStart.length, cap + 1)));
      this.nameStart = starts;
    }
  }

  /** Sets number `k` of the store (frame * STRIDE + field): held as a double from the first that is no int32. */
  set(k: number, v: number): void {
    if ((v | 0) !== v || Object.is(v, -0)) {
      if (!(this.nums instanceof Float64Array)) this.resize(this.flags.length, true);
    }
    this.nums[k] = v;
  }

  /** Drops the room not used (when it is much). */
  trim(): void {
    if (this.flags.length - this.count > this.count / 8) this.resize(this.count);
    const used = this.nameStart[this.count]!;
    if (this.nameBytes.length - used > used / 8) this.nameBytes = this.nameBytes.slice(0, used);
  }

  /** Frame `i` as the reader made it before (a new object each time). */
  frame(i: number): SheetJsonFrame {
    const n = this.nums;
    const b = i * STRIDE;
    const fl = this.flags[i]!;
    const f: SheetJsonFrame = {
      filename: this.name(i),
      frame: { x: n[b]!, y: n[b + 1]!, w: n[b + 2]!, h: n[b + 3]! },
      rotated: (fl & ROTATED) !== 0,
      trimmed: (fl & TRIMMED) !== 0,
      spriteSourceSize: { x: n[b + 4]!, y: n[b + 5]!, w: n[b + 6]!, h: n[b + 7]! },
      sourceSize: { w: n[b + 8]!, h: n[b + 9]! },
    };
    if (fl & DURATION) f.duration = n[b + 10]!;
    if (fl & PIVOT) f.pivot = { x: n[b + 11]!, y: n[b + 12]! };
    if (fl & ANCHOR) f.anchor = { x: n[b + 13]!, y: n[b + 14]! };
    return f;
  }

  duration(i: number): number | undefined {
    return this.flags[i]! & DURATION ? this.nums[i * STRIDE + 10]! : undefined;
  }

  rotated(i: number): boolean {
    return (this.flags[i]! & ROTATED) !== 0;
  }

  trimmed(i: number): boolean {
    return (this.flags[i]! & TRIMMED) !== 0;
  }

  toArray(): SheetJsonFrame[] {
    const out: SheetJsonFrame[] = new Array(this.count);
    for (let i = 0; i < this.count; i++) out[i] = this.frame(i);
    return out;
  }
}

// ---------------------------------------------------------------- the document's `frames`

/**
 * A document whose frames may be compact: `frameStore` (non-enumerable, like `jsonSource`: not part of the
 * document's data) holds them until `frames` is asked for.
 */
export interface CompactFrames {
  frameStore?: SheetFrameStore;
}

/** A cache of the frames made for a document that could not take them as its own property (frozen, sealed). */
const FROZEN_FRAMES_CACHE = new WeakMap<object, SheetJsonFrame[]>();

interface WithFrames {
  frames: SheetJsonFrame[];
}

/** Makes `doc.frames` the store's frames, made on first use (see the file's comment). */
export function attachFrames<D extends WithFrames & CompactFrames>(doc: D, store: SheetFrameStore): D {
  Object.defineProperty(doc, 'frameStore', { value: store, writable: true, enumerable: false, configurable: true });
  const settle = (self: object, value: SheetJsonFrame[]) => {
    try {
      Object.defineProperty(self, 'frames', { value, writable: true, enumerable: true, configurable: true });
      delete (self as CompactFrames).frameStore;
    } catch {
      FROZEN_FRAMES_CACHE.set(self, value);
    }
  };
  Object.defineProperty(doc, 'frames', {
    get(this: object): SheetJsonFrame[] {
      const had = FROZEN_FRAMES_CACHE.get(this);
      if (had) return had;
      const list = ((this as CompactFrames).frameStore ?? store).toArray();
      settle(this, list);
      return list;
    },
    set(this: object, v: SheetJsonFrame[]) {
      settle(this, v);
    },
    enumerable: true,
    configurable: true,
  });
  return doc;
}

/** The store of a document whose `frames` have not been asked for; null otherwise (read `doc.frames` then). */
export function compactFrames(doc: object): SheetFrameStore | null {
  const s = (doc as CompactFrames).frameStore;
  return s && !FROZEN_FRAMES_CACHE.has(doc) ? s : null;
}

/** How many frames a document has (a compact document stays compact). */
export function frameCount(doc: WithFrames): number {
  const s = compactFrames(doc);
  return s ? s.count : doc.frames.length;
}

/** Frame `i` (0 <= i < frameCount): of a compact document made anew, not kept; not to be changed. */
export function frameAt(doc: WithFrames, i: number): SheetJsonFrame {
  const s = compactFrames(doc);
  return s ? s.frame(i) : doc.frames[i]!;
}

/** The name of frame `i`. */
export function frameNameAt(doc: WithFrames, i: number): string {
  const s = compactFrames(doc);
  return s ? s.name(i) : doc.frames[i]!.filename;
}

/** The duration of frame `i`, when it has one. */
export function frameDurationAt(doc: WithFrames, i: number): number | undefined {
  const s = compactFrames(doc);
  return s ? s.duration(i) : doc.frames[i]!.duration;
}

/** The frames for reading, one at a time (a compact document stays compact). */
export function* eachFrame(doc: WithFrames): Generator<SheetJsonFrame> {
  const n = frameCount(doc);
  for (let i = 0; i < n; i++) yield frameAt(doc, i);
}

// ---------------------------------------------------------------- the frames' JSON

/**
 * The frames of a document as its JSON has them (hash or array layout): a JsonText whose text is written
 * from a store's numbers a record at a time (the store of a compact document; for a file written, `write`,
 * also one made here from plain frames: every frame as sprat makes and reads them); else (`inspect --json`
 * of plain frames, a frame of another shape, names a hash cannot keep in order) the records themselves.
 */
export function framesJsonValue(doc: WithFrames, layout: 'hash' | 'array', withPivot: boolean, write = false): unknown {
  const s = compactFrames(doc) ?? (write ? storeOf(doc.frames, layout) : null);
  if (!s) {
    return layout === 'array'
      ? Array.from(eachFrame(doc), (f) => frameRecord(f, 'array', withPivot))
      : Object.fromEntries(Array.from(eachFrame(doc), (f) => [f.filename, frameRecord(f, 'hash', withPivot)]));
  }
  return layout === 'array' ? new FramesText(s, 'array', withPivot) : new FramesText(s, 'hash', withPivot);
}

/** The record of a frame with these flags (PIVOT, ANCHOR, DURATION) at its fewest: every number one digit, booleans `true`, the name empty. */
const minRecords = new Map<string, number>();

/** How many characters the record of a frame with flags `fl` takes at least, as framesText writes it under a document's root (name aside). */
function minRecordBytes(layout: 'hash' | 'array', withPivot: boolean, fl: number): number {
  const shape = fl & (PIVOT | ANCHOR | DURATION);
  const key = `${layout}${withPivot}${shape}`;
  let n = minRecords.get(key);
  if (n === undefined) {
    const one = new SheetFrameStore(1);
    one.add();
    one.flags[0] = shape | ROTATED | TRIMMED;
    one.plainName(new Uint8Array(0), 0, 0);
    const pad = (d: number) => '  '.repeat(d);
    // The text is `[` or `{`, the record (after its newline and indentation), a newline, the indentation, `]` or `}`.
    n = [...framesText(one, layout, withPivot, 1, pad)].join('').length - 2 - (1 + pad(1).length);
    minRecords.set(key, n);
  }
  return n;
}

/**
 * The fewest characters the frames take in the JSON (each record at its fewest, and its name), when they
 * are written from a store (framesJsonValue's JsonText); 0 for others. Known before any is written, for
 * the `--max-json-bytes` budget.
 */
export function framesJsonMinBytes(frames: unknown): number {
  if (!(frames instanceof FramesText)) return 0;
  const { store: s, layout, withPivot } = frames;
  let n = s.nameStart[s.count]!;
  for (let i = 0; i < s.count; i++) n += minRecordBytes(layout, withPivot, s.flags[i]!);
  for (const name of s.special.values()) n += name.length;
  return n;
}

const RECT_KEYS = ['x', 'y', 'w', 'h'];
const SIZE_KEYS = ['w', 'h'];
const POINT_KEYS = ['x', 'y'];

/** Whether `v` is a plain object of numbers under exactly `keys`, in that order (JSON.stringify writes it as the store's text does). */
function plainNumbers(v: unknown, keys: readonly string[]): boolean {
  if (v === null || typeof v !== 'object' || Object.getPrototypeOf(v) !== Object.prototype) return false;
  const own = Object.keys(v);
  if (own.length !== keys.length) return false;
  for (let k = 0; k < keys.length; k++)
    if (own[k] !== keys[k] || typeof (v as Record<string, unknown>)[keys[k]!] !== 'number') return false;
  return true;
}

/** A name JSON.stringify writes as its own characters between quotes: printable ASCII but `"` and `\`. */
function plainText(t: string): boolean {
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 34 || c === 92) return false;
  }
  return true;
}

/** An integer-like key (an array index), which an object puts before the others, in numeric order. */
const indexKey = (k: string): boolean => /^(?:0|[1-9]\d{0,9})$/.test(k) && Number(k) < 2 ** 32 - 1;

/**
 * Plain frames in a store, whose text (FramesText) is exactly JSON.stringify's of their records; null when
 * a frame has another shape (a rectangle with other keys, a value of another type) or, in a hash, a name
 * repeats or is an array index (JSON.stringify of the object would write those elsewhere).
 */
export function storeOf(frames: readonly SheetJsonFrame[], layout: 'hash' | 'array'): SheetFrameStore | null {
  const s = new SheetFrameStore(Math.max(1, frames.length));
  const names = layout === 'hash' ? new StringSet() : null;
  const enc = new TextEncoder();
  for (const f of frames) {
    if (f === null || typeof f !== 'object' || typeof f.filename !== 'string') return null;
    if (!plainNumbers(f.frame, RECT_KEYS) || !plainNumbers(f.spriteSourceSize, RECT_KEYS) || !plainNumbers(f.sourceSize, SIZE_KEYS))
      return null;
    if (typeof f.rotated !== 'boolean' || typeof f.trimmed !== 'boolean') return null;
    if (f.duration !== undefined && typeof f.duration !== 'number') return null;
    // (frameRecord writes a pivot or anchor when there is one: a falsy one is none)
    if (f.pivot && !plainNumbers(f.pivot, POINT_KEYS)) return null;
    if (f.anchor && !plainNumbers(f.anchor, POINT_KEYS)) return null;
    if (names) {
      if (names.has(f.filename) || indexKey(f.filename)) return null;
      names.add(f.filename);
    }
    const i = s.add();
    const b = i * STRIDE;
    s.set(b, f.frame.x);
    s.set(b + 1, f.frame.y);
    s.set(b + 2, f.frame.w);
    s.set(b + 3, f.frame.h);
    s.set(b + 4, f.spriteSourceSize.x);
    s.set(b + 5, f.spriteSourceSize.y);
    s.set(b + 6, f.spriteSourceSize.w);
    s.set(b + 7, f.spriteSourceSize.h);
    s.set(b + 8, f.sourceSize.w);
    s.set(b + 9, f.sourceSize.h);
    let fl = (f.rotated ? ROTATED : 0) | (f.trimmed ? TRIMMED : 0);
    if (f.duration !== undefined) {
      s.set(b + 10, f.duration);
      fl |= DURATION;
    }
    if (f.pivot) {
      s.set(b + 11, f.pivot.x);
      s.set(b + 12, f.pivot.y);
      fl |= PIVOT;
    }
    if (f.anchor) {
      s.set(b + 13, f.anchor.x);
      s.set(b + 14, f.anchor.y);
      fl |= ANCHOR;
    }
    s.flags[i] = fl;
    if (plainText(f.filename)) {
      const t = enc.encode(f.filename);
      s.plainName(t, 0, t.length);
    } else s.specialName(f.filename);
  }
  s.trim();
  return s;
}

/** A store's frames as JSON: their text written from the numbers (what JSON.stringify writes of the records), or the records. */
class FramesText extends JsonText<unknown> {
  constructor(
    readonly store: SheetFrameStore,
    readonly layout: 'hash' | 'array',
    readonly withPivot: boolean,
  ) {
    super(
      store.count,
      (i) => frameRecord(store.frame(i), layout, withPivot),
      (depth, pad) => framesText(store, layout, withPivot, depth, pad),
    );
    this.record = (i) => frameRecord(store.frame(i), layout, withPivot);
    this.name = (i) => store.name(i);
  }

  private readonly record: (i: number) => Record<string, unknown>;
  private readonly name: (i: number) => string;

  override toJSON(): unknown[] {
    if (this.layout === 'array') return super.toJSON();
    const out: Record<string, unknown> = {};
    for (let i = 0; i < this.length; i++) out[this.name(i)] = this.record(i);
    return out as unknown as unknown[];
  }
}

/**
 * The text of a store's frames at `depth`, as JSON.stringify(records, null, 2) indents it there: written as
 * bytes into one buffer and made a string a piece at a time (a string per number or key would be garbage of
 * several times the text).
 */
function* framesText(
  s: SheetFrameStore,
  layout: 'hash' | 'array',
  withPivot: boolean,
  depth: number,
  pad: (n: number) => string,
): Generator<string> {
  const open = layout === 'hash' ? '{' : '[';
  const close = layout === 'hash' ? '}' : ']';
  if (s.count === 0) {
    yield open + close;
    return;
  }
  const bytes = jsonBytes;
  const p1 = pad(depth + 1);
  const p2 = pad(depth + 2);
  const p3 = pad(depth + 3);
  const k = (name: string) => bytes(`,\n${p2}"${name}": `);
  const firstSep = bytes(`\n${p1}`);
  const sep = bytes(`,\n${p1}`);
  const hashOpen = bytes(': {');
  const arrayOpen = bytes(`{\n${p2}"filename": `);
  const kFrame = layout === 'array' ? k('frame') : bytes(`\n${p2}"frame": `);
  const kRotated = k('rotated');
  const kTrimmed = k('trimmed');
  const kSss = k('spriteSourceSize');
  const kSource = k('sourceSize');
  const kPivot = k('pivot');
  const kAnchor = k('anchor');
  const kDuration = k('duration');
  const rx = bytes(`{\n${p3}"x": `);
  const ry = bytes(`,\n${p3}"y": `);
  const rw = bytes(`,\n${p3}"w": `);
  const rh = bytes(`,\n${p3}"h": `);
  const rEnd = bytes(`\n${p2}}`);
  const sw = bytes(`{\n${p3}"w": `);
  const recEnd = bytes(`\n${p1}}`);
  const QUOTE = bytes('"');
  const o = new JsonOut();
  o.ascii(open);
  /** Frame i's name as JSON.stringify writes it: its bytes (printable ASCII, no escape), its index, or its string. */
  const name = (i: number) => {
    const fl = s.flags[i]!;
    if (fl & SPECIAL_NAME) {
      o.str(s.special.get(i)!);
      return;
    }
    o.raw(QUOTE);
    if (fl & INDEX_NAME) o.num(i);
    else o.slice(s.nameBytes, s.nameStart[i]!, s.nameStart[i + 1]!);
    o.raw(QUOTE);
  };
  const put = (t: Uint8Array) => o.raw(t);
  const num = (v: number) => o.num(v);
  const rect4 = (b: number) => {
    put(rx);
    num(n[b]!);
    put(ry);
    num(n[b + 1]!);
    put(rw);
    num(n[b + 2]!);
    put(rh);
    num(n[b + 3]!);
    put(rEnd);
  };
  const n = s.nums;
  for (let i = 0; i < s.count; i++) {
    const b = i * STRIDE;
    const fl = s.flags[i]!;
    put(i > 0 ? sep : firstSep);
    if (layout === 'hash') {
      name(i);
      put(hashOpen);
    } else {
      put(arrayOpen);
      name(i);
    }
    put(kFrame);
    rect4(b);
    put(kRotated);
    o.bool((fl & ROTATED) !== 0);
    put(kTrimmed);
    o.bool((fl & TRIMMED) !== 0);
    put(kSss);
    rect4(b + 4);
    put(kSource);
    put(sw);
    num(n[b + 8]!);
    put(rh);
    num(n[b + 9]!);
    put(rEnd);
    if (withPivot && fl & PIVOT) {
      put(kPivot);
      put(rx);
      num(n[b + 11]!);
      put(ry);
      num(n[b + 12]!);
      put(rEnd);
    }
    if (withPivot && fl & ANCHOR) {
      put(kAnchor);
      put(rx);
      num(n[b + 13]!);
      put(ry);
      num(n[b + 14]!);
      put(rEnd);
    }
    if (fl & DURATION) {
      put(kDuration);
      num(n[b + 10]!);
    }
    put(recEnd);
    if (o.full) yield o.take();
  }
  o.ascii(`\n${pad(depth)}${close}`);
  yield o.end();
}

// ---------------------------------------------------------------- the scanner

/** Thrown inside the scanner when it gives up (the document is then read the old way). */
const GIVE_UP: unique symbol = Symbol('give up');

const decoder = new TextDecoder('utf-8');

/** What scanSheet found: the document's other values (JSON.parse'd), and its frames. */
export interface ScannedSheet {
  root: Record<string, unknown>;
  layout: 'hash' | 'array';
  store: SheetFrameStore;
}

/**
 * Reads a JSON sheet whose root object has `frames` (hash or array layout)
 * with the frames into a store, checked as readFrames checks them (`pivots`:
 * TexturePacker's pivot and anchor too); null when the document is anything
 * it is not sure of (see the file's comment), to be read the old way. On
 * success `r` keeps the bytes to place later errors, as its `parse` does.
 */
export function scanSheet(bytes: Uint8Array, r: JsonReader, pivots: boolean): ScannedSheet | null {
  try {
    const out = new Scanner(bytes, pivots).document();
    r.keep(bytes);
    return out;
  } catch (e) {
    if (e === GIVE_UP) return null;
    throw e;
  }
}

/** A canonical array index ("0", "17"): such keys come first in an object's key order, whatever their place in the text. */
function isIndexKey(k: string): boolean {
  return /^(?:0|[1-9]\d{0,9})$/.test(k) && Number(k) < 4294967295;
}

class Scanner {
  i = 0;
  readonly n: number;
  readonly store: SheetFrameStore;
  /** The frames of a hash by their name's hash (open addressing, frame + 1; 0: free): a duplicate name makes the scanner give up. */
  table = new Int32Array(1024);
  tableUsed = 0;

  constructor(
    readonly b: Uint8Array,
    readonly pivots: boolean,
  ) {
    this.n = b.length;
    // Room for about the frames a file of this size holds (records of ~200 bytes and more), grown when needed.
    this.store = new SheetFrameStore(Math.min(1 << 20, Math.max(256, Math.ceil(b.length / 256))));
  }

  ws(): void {
    const b = this.b;
    let i = this.i;
    for (;;) {
      const c = b[i];
      if (c === 32 || c === 10 || c === 13 || c === 9) i++;
      else break;
    }
    this.i = i;
  }

  /** The next non-space byte, which must be `c`: stepped over. */
  expect(c: number): void {
    this.ws();
    if (this.b[this.i] !== c) throw GIVE_UP;
    this.i++;
  }

  document(): ScannedSheet {
    const b = this.b;
    if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) this.i = 3;
    this.expect(123);
    const root: Record<string, unknown> = {};
    let layout: 'hash' | 'array' | undefined;
    this.ws();
    if (b[this.i] !== 125) {
      for (;;) {
        this.ws();
        const key = this.string();
        this.expect(58);
        this.ws();
        if (key === 'frames') {
          if (layout !== undefined || this.escaped) throw GIVE_UP;
          const c = b[this.i];
          if (c === 123) layout = 'hash';
          else if (c === 91) layout = 'array';
          else throw GIVE_UP;
          if (layout === 'hash') this.hashFrames();
          else this.arrayFrames();
        } else {
          const start = this.i;
          this.skipValue();
          const value: unknown = JSON.parse(decoder.decode(b.subarray(start, this.i)));
          Object.defineProperty(root, key, { value, writable: true, enumerable: true, configurable: true });
        }
        this.ws();
        const c = b[this.i++];
        if (c === 125) break;
        if (c !== 44) throw GIVE_UP;
      }
    } else this.i++;
    this.ws();
    if (this.i !== this.n || layout === undefined) throw GIVE_UP;
    this.store.trim();
    return { root, layout, store: this.store };
  }

  hashFrames(): void {
    const b = this.b;
    this.i++;
    this.ws();
    if (b[this.i] === 125) {
      this.i++;
      return;
    }
    for (;;) {
      this.ws();
      const f = this.store.add();
      this.name();
      this.unique(f);
      this.expect(58);
      this.record(f, false);
      this.ws();
      const c = b[this.i++];
      if (c === 125) return;
      if (c !== 44) throw GIVE_UP;
    }
  }

  arrayFrames(): void {
    const b = this.b;
    this.i++;
    this.ws();
    if (b[this.i] === 93) {
      this.i++;
      return;
    }
    for (;;) {
      const f = this.store.add();
      this.record(f, true);
      this.ws();
      const c = b[this.i++];
      if (c === 93) return;
      if (c !== 44) throw GIVE_UP;
    }
  }

  /** One frame record, checked as readFrames checks it. */
  record(f: number, array: boolean): void {
    const b = this.b;
    const s = this.store;
    const at = f * STRIDE;
    let fl = 0;
    let have = 0; // 1 frame, 2 spriteSourceSize, 4 sourceSize
    this.expect(123);
    this.ws();
    if (b[this.i] === 125) throw GIVE_UP; // no `frame`
    for (;;) {
      this.ws();
      if (b[this.i] !== 34) throw GIVE_UP;
      const k0 = this.i + 1;
      const k1 = this.plainKeyEnd();
      this.expect(58);
      this.ws();
      const len = k1 - k0;
      const c0 = b[k0];
      if (len === 5 && c0 === 102 && this.keyIs(k0, 'frame')) {
        this.rect(at, true);
        have |= 1;
      } else if (len === 7 && c0 === 114 && this.keyIs(k0, 'rotated')) {
        fl = this.bool() ? fl | ROTATED : fl & ~ROTATED;
      } else if (len === 7 && c0 === 116 && this.keyIs(k0, 'trimmed')) {
        fl = this.bool() ? fl | TRIMMED : fl & ~TRIMMED;
      } else if (len === 16 && c0 === 115 && this.keyIs(k0, 'spriteSourceSize')) {
        this.rect(at + 4, true);
        have |= 2;
      } else if (len === 10 && c0 === 115 && this.keyIs(k0, 'sourceSize')) {
        this.rect(at + 8, false);
        have |= 4;
      } else if (len === 8 && c0 === 100 && this.keyIs(k0, 'duration')) {
        const v = this.number();
        if (v < 0) throw GIVE_UP;
        s.set(at + 10, v);
        fl |= DURATION;
      } else if (array && len === 8 && c0 === 102 && this.keyIs(k0, 'filename')) {
        if (b[this.i] !== 34) throw GIVE_UP;
        this.name();
      } else if (this.pivots && len === 5 && c0 === 112 && this.keyIs(k0, 'pivot')) {
        this.xy(at + 11);
        fl |= PIVOT;
      } else if (this.pivots && len === 6 && c0 === 97 && this.keyIs(k0, 'anchor')) {
        this.xy(at + 13);
        fl |= ANCHOR;
      } else this.skipValue();
      this.ws();
      const c = b[this.i++];
      if (c === 125) break;
      if (c !== 44) throw GIVE_UP;
    }
    if (!(have & 1)) throw GIVE_UP;
    const nums = s.nums;
    if (!(have & 2)) {
      nums[at + 4] = 0;
      nums[at + 5] = 0;
      nums[at + 6] = nums[at + 2]!;
      nums[at + 7] = nums[at + 3]!;
    }
    if (!(have & 4)) {
      nums[at + 8] = nums[at + 2]!;
      nums[at + 9] = nums[at + 3]!;
    }
    s.flags[f] = (s.flags[f]! & (INDEX_NAME | SPECIAL_NAME)) | fl;
  }

  /** {x, y, w, h} (`xy`: with x and y; w, h >= 0) into nums[at...]; other keys skipped, the last of duplicates kept. */
  rect(at: number, xy: boolean): void {
    const b = this.b;
    const s = this.store;
    let have = 0;
    this.expect(123);
    this.ws();
    if (b[this.i] === 125) throw GIVE_UP;
    for (;;) {
      this.ws();
      if (b[this.i] !== 34) throw GIVE_UP;
      const k0 = this.i + 1;
      const k1 = this.plainKeyEnd();
      this.expect(58);
      this.ws();
      const c = k1 - k0 === 1 ? b[k0] : 0;
      if (xy && c === 120) {
        s.set(at, this.number());
        have |= 1;
      } else if (xy && c === 121) {
        s.set(at + 1, this.number());
        have |= 2;
      } else if (c === 119) {
        const v = this.number();
        if (v < 0) throw GIVE_UP;
        s.set(at + (xy ? 2 : 0), v);
        have |= 4;
      } else if (c === 104) {
        const v = this.number();
        if (v < 0) throw GIVE_UP;
        s.set(at + (xy ? 3 : 1), v);
        have |= 8;
      } else this.skipValue();
      this.ws();
      const e = b[this.i++];
      if (e === 125) break;
      if (e !== 44) throw GIVE_UP;
    }
    if (have !== (xy ? 15 : 12)) throw GIVE_UP;
  }

  /** {x, y} numbers into nums[at], nums[at + 1]. */
  xy(at: number): void {
    const b = this.b;
    const s = this.store;
    let have = 0;
    this.expect(123);
    this.ws();
    if (b[this.i] === 125) throw GIVE_UP;
    for (;;) {
      this.ws();
      if (b[this.i] !== 34) throw GIVE_UP;
      const k0 = this.i + 1;
      const k1 = this.plainKeyEnd();
      this.expect(58);
      this.ws();
      const c = k1 - k0 === 1 ? b[k0] : 0;
      if (c === 120) {
        s.set(at, this.number());
        have |= 1;
      } else if (c === 121) {
        s.set(at + 1, this.number());
        have |= 2;
      } else this.skipValue();
      this.ws();
      const e = b[this.i++];
      if (e === 125) break;
      if (e !== 44) throw GIVE_UP;
    }
    if (have !== 3) throw GIVE_UP;
  }

  keyIs(at: number, name: string): boolean {
    const b = this.b;
    for (let k = 0; k < name.length; k++) if (b[at + k] !== name.charCodeAt(k)) return false;
    return true;
  }

  /** Steps over a key without escapes (the scanner gives up on one with an escape); the offset of its closing quote. */
  plainKeyEnd(): number {
    const b = this.b;
    let i = this.i + 1;
    for (;;) {
      const c = b[i];
      if (c === undefined || c < 32 || c === 92) throw GIVE_UP;
      if (c === 34) break;
      i++;
    }
    this.i = i + 1;
    return i;
  }

  bool(): boolean {
    const b = this.b;
    const i = this.i;
    if (b[i] === 116 && b[i + 1] === 114 && b[i + 2] === 117 && b[i + 3] === 101) {
      this.i += 4;
      return true;
    }
    if (b[i] === 102 && b[i + 1] === 97 && b[i + 2] === 108 && b[i + 3] === 115 && b[i + 4] === 101) {
      this.i += 5;
      return false;
    }
    throw GIVE_UP;
  }

  /** Whether the last string read had an escape. */
  escaped = false;

  /** The name of the last frame added: a string (its opening quote at i). */
  name(): void {
    const b = this.b;
    if (b[this.i] !== 34) throw GIVE_UP;
    const start = this.i + 1;
    let i = start;
    for (;;) {
      const c = b[i];
      if (c === 34) break;
      if (c === undefined || c < 32 || c > 126 || c === 92) {
        // An escape or a byte outside printable ASCII: decoded as JSON.parse decodes it.
        this.i = start - 1;
        this.store.specialName(this.string());
        return;
      }
      i++;
    }
    this.store.plainName(b, start, i);
    this.i = i + 1;
  }

  /** Gives up when frame f's name is a numeric key (JSON.parse puts those first) or another frame's (it keeps the last). */
  unique(f: number): void {
    const s = this.store;
    const fl = s.flags[f]!;
    let h = 0x811c9dc5;
    let digits = true;
    if (fl & SPECIAL_NAME) {
      const t = s.special.get(f)!;
      for (let k = 0; k < t.length; k++) h = Math.imul(h ^ t.charCodeAt(k), 0x01000193);
      if (isIndexKey(t)) throw GIVE_UP;
      digits = false;
    } else {
      const nb = s.nameBytes;
      const a = s.nameStart[f]!;
      const z = s.nameStart[f + 1]!;
      for (let k = a; k < z; k++) {
        const c = nb[k]!;
        h = Math.imul(h ^ c, 0x01000193);
        if (c < 48 || c > 57) digits = false;
      }
      if (digits && isIndexKey(s.name(f))) throw GIVE_UP;
    }
    if ((this.tableUsed + 1) * 2 > this.table.length) this.rehash();
    const table = this.table;
    const mask = table.length - 1;
    for (let k = (h >>> 0) & mask; ; k = (k + 1) & mask) {
      const v = table[k]!;
      if (v === 0) {
        table[k] = f + 1;
        this.tableUsed++;
        return;
      }
      if (this.sameName(v - 1, f)) throw GIVE_UP;
    }
  }

  sameName(x: number, y: number): boolean {
    const s = this.store;
    const special = SPECIAL_NAME | INDEX_NAME;
    if (!((s.flags[x]! | s.flags[y]!) & special)) {
      const nb = s.nameBytes;
      const a = s.nameStart[x]!;
      const c = s.nameStart[y]!;
      const len = s.nameStart[x + 1]! - a;
      if (len !== s.nameStart[y + 1]! - c) return false;
      for (let k = 0; k < len; k++) if (nb[a + k] !== nb[c + k]) return false;
      return true;
    }
    return s.name(x) === s.name(y);
  }

  rehash(): void {
    const old = this.table;
    const table = new Int32Array(old.length * 2);
    const mask = table.length - 1;
    for (const v of old) {
      if (v === 0) continue;
      let k = this.nameHash(v - 1) & mask;
      while (table[k] !== 0) k = (k + 1) & mask;
      table[k] = v;
    }
    this.table = table;
  }

  nameHash(f: number): number {
    const s = this.store;
    let h = 0x811c9dc5;
    if (s.flags[f]! & SPECIAL_NAME) {
      const t = s.special.get(f)!;
      for (let k = 0; k < t.length; k++) h = Math.imul(h ^ t.charCodeAt(k), 0x01000193);
    } else {
      const nb = s.nameBytes;
      for (let k = s.nameStart[f]!; k < s.nameStart[f + 1]!; k++) h = Math.imul(h ^ nb[k]!, 0x01000193);
    }
    return h >>> 0;
  }

  /** A string (its opening quote at i), decoded as JSON.parse decodes it. */
  string(): string {
    const b = this.b;
    if (b[this.i] !== 34) throw GIVE_UP;
    const start = this.i + 1;
    let i = start;
    let ascii = true;
    let esc = false;
    for (;;) {
      const c = b[i];
      if (c === undefined || c < 32) throw GIVE_UP;
      if (c === 34) break;
      if (c === 92) {
        esc = true;
        const e = b[i + 1];
        if (e === 117) {
          for (let k = 2; k < 6; k++) {
            const h = b[i + k];
            if (h === undefined || !((h >= 48 && h <= 57) || (h >= 65 && h <= 70) || (h >= 97 && h <= 102))) throw GIVE_UP;
          }
          i += 6;
          continue;
        }
        if (e !== 34 && e !== 92 && e !== 47 && e !== 98 && e !== 102 && e !== 110 && e !== 114 && e !== 116) throw GIVE_UP;
        i += 2;
        continue;
      }
      if (c >= 128) ascii = false;
      i++;
    }
    this.i = i + 1;
    this.escaped = esc;
    if (esc) return JSON.parse(decoder.decode(b.subarray(start - 1, i + 1))) as string;
    if (ascii && i - start <= 64) return String.fromCharCode.apply(null, b.subarray(start, i) as unknown as number[]);
    return decoder.decode(b.subarray(start, i));
  }

  /** A JSON number, as JSON.parse reads it (finite: an overflow to Infinity makes the scanner give up). */
  number(): number {
    const b = this.b;
    const start = this.i;
    let i = start;
    let neg = false;
    if (b[i] === 45) {
      neg = true;
      i++;
    }
    let c = b[i];
    let v = 0;
    if (c === 48) {
      i++;
    } else if (c !== undefined && c >= 49 && c <= 57) {
      do {
        v = v * 10 + (c - 48);
        c = b[++i];
      } while (c !== undefined && c >= 48 && c <= 57);
    } else throw GIVE_UP;
    const intEnd = i;
    c = b[i];
    let simple = true;
    if (c === 46) {
      simple = false;
      i++;
      c = b[i];
      if (c === undefined || c < 48 || c > 57) throw GIVE_UP;
      while (c !== undefined && c >= 48 && c <= 57) c = b[++i];
    }
    if (c === 101 || c === 69) {
      simple = false;
      i++;
      c = b[i];
      if (c === 43 || c === 45) c = b[++i];
      if (c === undefined || c < 48 || c > 57) throw GIVE_UP;
      while (c !== undefined && c >= 48 && c <= 57) c = b[++i];
    }
    this.i = i;
    // Up to 15 digits the sum above is exact; else the text is converted as JSON.parse converts it.
    if (simple && intEnd - start - (neg ? 1 : 0) <= 15) return neg ? -v : v;
    let text = '';
    for (let k = start; k < i; k++) text += String.fromCharCode(b[k]!);
    const x = Number(text);
    if (!Number.isFinite(x)) throw GIVE_UP;
    return x;
  }

  /** Steps over any JSON value, checking it as JSON.parse would (containers with a stack, no recursion). */
  skipValue(): void {
    const b = this.b;
    const stack: number[] = [];
    for (;;) {
      this.ws();
      const c = b[this.i];
      if (c === 123 || c === 91) {
        this.i++;
        this.ws();
        const close = c === 123 ? 125 : 93;
        if (b[this.i] === close) this.i++;
        else {
          stack.push(close);
          if (close === 125) {
            this.ws();
            this.string();
            this.expect(58);
          }
          continue;
        }
      } else if (c === 34) this.string();
      else if (c === 116 || c === 102) this.bool();
      else if (c === 110) {
        if (b[this.i + 1] !== 117 || b[this.i + 2] !== 108 || b[this.i + 3] !== 108) throw GIVE_UP;
        this.i += 4;
      } else this.number();
      // After a value: a comma (then the next entry) or the container's end.
      for (;;) {
        const top = stack[stack.length - 1];
        if (top === undefined) return;
        this.ws();
        const e = b[this.i++];
        if (e === top) {
          stack.pop();
          continue;
        }
        if (e !== 44) throw GIVE_UP;
        if (top === 125) {
          this.ws();
          this.string();
          this.expect(58);
        }
        break;
      }
    }
  }
}
