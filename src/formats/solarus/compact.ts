/**
 * The compact form of the sheets the readers make (memory).
 *
 * A big sheet is mostly directions, and a direction object costs 88 bytes
 * (plus its animation's object, list and strings): several times the text
 * it was read from. So a sheet the readers make (a StoredSheet) keeps its
 * animations in an AnimationStore: for the line syntax, where each header
 * and direction line starts in the text (the text the reader keeps anyway,
 * for the file's layout: each line is read again when asked for, it was
 * checked when the sheet was read); for the Lua syntax, the numbers in typed
 * arrays and one string per name.
 *
 * The model does not change for its users: `sheet.animations` is an own,
 * enumerable property of every StoredSheet (equality, spreading, JSON and
 * structured cloning see it as before) whose getter makes the animations
 * once, on first use, and keeps them: from then on the sheet holds that
 * plain array, which can be changed and assigned like any other. Code of
 * the library that only reads a sheet uses `animationCount`, `animationAt`
 * and `animationsOf` below, which leave a compact sheet compact (the
 * writers, `inspect`, the style, validation, rendering, conversion), so that
 * reading or printing a big sheet never holds all its objects at once.
 */
import type { SolarusAnimation, SolarusDirection, SolarusSheet } from './model.js';

/** A sheet's animations, kept compactly (what StoredSheet makes its objects from). */
export interface AnimationStore {
  readonly count: number;
  name(a: number): string;
  image(a: number): string;
  frameDelay(a: number): number;
  loopOnFrame(a: number): number;
  directionCount(a: number): number;
  /** Direction `k` of animation `a`, made anew. */
  direction(a: number, k: number): SolarusDirection;
  /** Direction `k` of animation `a` into `out`: x, y, frame size, origin, frames, columns. */
  values(a: number, k: number, out: Int32Array): void;
}

/** Direction `d` into `out` in `AnimationStore.values` order: x, y, frame size, origin, frames, columns. */
export function directionValues(d: SolarusDirection, out: Int32Array): void {
  out[0] = d.x;
  out[1] = d.y;
  out[2] = d.frameWidth;
  out[3] = d.frameHeight;
  out[4] = d.originX;
  out[5] = d.originY;
  out[6] = d.frameCount;
  out[7] = d.columns;
}

/** Animation `a` of `store`, made anew (its directions too). */
export function makeAnimation(store: AnimationStore, a: number): SolarusAnimation {
  const n = store.directionCount(a);
  const directions: SolarusDirection[] = new Array(n);
  for (let k = 0; k < n; k++) directions[k] = store.direction(a, k);
  return { name: store.name(a), image: store.image(a), frameDelay: store.frameDelay(a), loopOnFrame: store.loopOnFrame(a), directions };
}

function makeAll(store: AnimationStore): SolarusAnimation[] {
  const out: SolarusAnimation[] = new Array(store.count);
  // One string per distinct image, as the readers made them before.
  const images = new Map<string, string>();
  for (let a = 0; a < store.count; a++) {
    const anim = makeAnimation(store, a);
    const image = images.get(anim.image);
    if (image === undefined) {
      if (images.size < 4096) images.set(anim.image, anim.image);
    } else anim.image = image;
    out[a] = anim;
  }
  return out;
}

let ANIMATIONS: PropertyDescriptor;
let storeOf: (sheet: StoredSheet) => AnimationStore | null;

/** A sheet as the readers make it: its animations stay in the store until they are asked for. */
export class StoredSheet implements SolarusSheet {
  declare animations: SolarusAnimation[];
  #store: AnimationStore | null;
  #list: SolarusAnimation[] | null = null;

  constructor(store: AnimationStore) {
    this.#store = store;
    Object.defineProperty(this, 'animations', ANIMATIONS);
  }

  static {
    ANIMATIONS = {
      get(this: StoredSheet): SolarusAnimation[] {
        let list = this.#list;
        if (list === null) {
          list = makeAll(this.#store!);
          this.#list = list;
          this.#store = null;
        }
        return list;
      },
      set(this: StoredSheet, v: SolarusAnimation[]) {
        this.#list = v;
        this.#store = null;
      },
      enumerable: true,
      configurable: true,
    };
    storeOf = (sheet) => sheet.#store;
  }
}

/** The store of a sheet the readers made, while its `animations` has not been asked for (else null). */
export function animationStore(sheet: SolarusSheet): AnimationStore | null {
  return sheet instanceof StoredSheet ? storeOf(sheet) : null;
}

/** How many animations a sheet has (a compact sheet stays compact). */
export function animationCount(sheet: SolarusSheet): number {
  const s = animationStore(sheet);
  return s ? s.count : sheet.animations.length;
}

/**
 * Animation `i` of a sheet (0 <= i < animationCount(sheet)); of a compact
 * sheet, made anew and not kept: not to be changed (a change may be lost).
 */
export function animationAt(sheet: SolarusSheet, i: number): SolarusAnimation {
  const s = animationStore(sheet);
  return s ? makeAnimation(s, i) : sheet.animations[i]!;
}

/** How many directions animation `i` has (a compact sheet stays compact). */
export function directionCountAt(sheet: SolarusSheet, i: number): number {
  const s = animationStore(sheet);
  return s ? s.directionCount(i) : sheet.animations[i]!.directions.length;
}

/**
 * A sheet's animations for reading: `sheet.animations` when the sheet holds
 * them, else made anew and not kept (the sheet stays compact). Not to be
 * changed: a change may be lost.
 */
export function animationsOf(sheet: SolarusSheet): readonly SolarusAnimation[] {
  const s = animationStore(sheet);
  return s ? makeAll(s) : sheet.animations;
}

/** A growable list of int32s (the readers' records), copied at its length at the end. */
export class IntList {
  data: Int32Array;
  length = 0;

  constructor(capacity = 64) {
    this.data = new Int32Array(capacity);
  }

  push(v: number): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = v;
  }

  /** Makes room for `more` values beyond the length. */
  reserve(more: number): void {
    if (this.length + more > this.data.length) this.grow(this.length + more);
  }

  private grow(min: number): void {
    const next = new Int32Array(Math.max(min, this.data.length * 2));
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }

  /** The values, at their length. */
  trim(): Int32Array {
    return this.data.slice(0, this.length);
  }
}

/** Per animation: frame_delay, loop_on_frame, the first direction's record, the direction count. */
const A_DELAY = 0;
const A_LOOP = 1;
const A_FIRST = 2;
const A_COUNT = 3;
const A_SIZE = 4;

/**
 * Animations held as numbers (the Lua syntax): per animation four int32s
 * and its name and image (one string per distinct image), per direction
 * eight int32s (x, y, frame size, origin, frames, columns).
 */
export class ValueStore implements AnimationStore {
  constructor(
    private readonly names: string[],
    private readonly images: string[],
    private readonly anims: Int32Array,
    private readonly dirs: Int32Array,
  ) {}

  get count(): number {
    return this.names.length;
  }
  name(a: number): string {
    return this.names[a]!;
  }
  image(a: number): string {
    return this.images[a]!;
  }
  frameDelay(a: number): number {
    return this.anims[a * A_SIZE + A_DELAY]!;
  }
  loopOnFrame(a: number): number {
    return this.anims[a * A_SIZE + A_LOOP]!;
  }
  directionCount(a: number): number {
    return this.anims[a * A_SIZE + A_COUNT]!;
  }
  values(a: number, k: number, out: Int32Array): void {
    const q = (this.anims[a * A_SIZE + A_FIRST]! + k) * 8;
    out.set(this.dirs.subarray(q, q + 8));
  }
  direction(a: number, k: number): SolarusDirection {
    const d = this.dirs;
    const q = (this.anims[a * A_SIZE + A_FIRST]! + k) * 8;
    return {
      x: d[q]!,
      y: d[q + 1]!,
      frameWidth: d[q + 2]!,
      frameHeight: d[q + 3]!,
      originX: d[q + 4]!,
      originY: d[q + 5]!,
      frameCount: d[q + 6]!,
      columns: d[q + 7]!,
    };
  }
}

/** Builds a ValueStore, an animation at a time. */
export class ValueStoreBuilder {
  readonly names: string[] = [];
  readonly images: string[] = [];
  readonly anims = new IntList(64);
  readonly dirs = new IntList(256);
  /** Directions added since the last animation. */
  pending = 0;

  /** Adds a direction to the animation being read. */
  direction(x: number, y: number, w: number, h: number, ox: number, oy: number, frames: number, columns: number): void {
    const l = this.dirs;
    l.reserve(8);
    const d = l.data;
    const q = l.length;
    d[q] = x;
    d[q + 1] = y;
    d[q + 2] = w;
    d[q + 3] = h;
    d[q + 4] = ox;
    d[q + 5] = oy;
    d[q + 6] = frames;
    d[q + 7] = columns;
    l.length = q + 8;
    this.pending++;
  }

  /** Drops the pending directions (a direction list given again replaces the first). */
  dropPending(): void {
    this.dirs.length -= this.pending * 8;
    this.pending = 0;
  }

  /** Ends an animation with the pending directions. */
  animation(name: string, image: string, frameDelay: number, loopOnFrame: number): void {
    const l = this.anims;
    l.reserve(A_SIZE);
    const q = l.length;
    l.data[q + A_DELAY] = frameDelay;
    l.data[q + A_LOOP] = loopOnFrame;
    l.data[q + A_FIRST] = this.dirs.length / 8 - this.pending;
    l.data[q + A_COUNT] = this.pending;
    l.length = q + A_SIZE;
    this.names.push(name);
    this.images.push(image);
    this.pending = 0;
  }

  store(): ValueStore {
    return new ValueStore(this.names.slice(), this.images.slice(), this.anims.trim(), this.dirs.trim());
  }
}

/** Where token `t` (0-based) of the line whose first token starts at `at` starts. */
function tokenStart(text: string, at: number, t: number): number {
  let i = at;
  for (; t > 0; t--) {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9) break;
      i++;
    }
    let c = text.charCodeAt(i);
    while (c === 32 || c === 9) c = text.charCodeAt(++i);
  }
  return i;
}

/** Where the token starting at `s` ends (a space, tab, line feed, CR LF or the end of the text). */
export function tokenEnd(text: string, s: number): number {
  const n = text.length;
  let i = s;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || (c === 13 && text.charCodeAt(i + 1) === 10)) break;
    i++;
  }
  return i;
}

let cursor = 0;

/** The checked whole number after `cursor` (spaces or tabs, optional minus, digits); `cursor` moves past it. */
function nextInt(text: string): number {
  let i = cursor;
  let c = text.charCodeAt(i);
  while (c === 32 || c === 9) c = text.charCodeAt(++i);
  const neg = c === 45;
  if (neg) c = text.charCodeAt(++i);
  let v = 0;
  while (c >= 48 && c <= 57) {
    v = v * 10 + c - 48;
    c = text.charCodeAt(++i);
  }
  cursor = i;
  return neg ? 0 - v : v;
}

/**
 * Animations as the line syntax holds them (a direction line is ~20
 * characters): per animation where its header line's first token starts,
 * its first direction and its direction count; per direction where its
 * line's first token starts. Each is read again from the text when asked
 * for (it was checked when the sheet was read).
 */
export class LineStore implements AnimationStore {
  /** `recs`: 3 int32s per animation (header, first direction, count), then one per direction. */
  constructor(
    readonly text: string,
    private readonly recs: Int32Array,
    readonly count: number,
  ) {}

  name(a: number): string {
    const s = this.recs[a * 3]!;
    return this.text.slice(s, tokenEnd(this.text, s));
  }
  image(a: number): string {
    const s = tokenStart(this.text, this.recs[a * 3]!, 1);
    return this.text.slice(s, tokenEnd(this.text, s));
  }
  frameDelay(a: number): number {
    cursor = tokenStart(this.text, this.recs[a * 3]!, 3);
    return nextInt(this.text);
  }
  loopOnFrame(a: number): number {
    cursor = tokenStart(this.text, this.recs[a * 3]!, 4);
    return nextInt(this.text);
  }
  directionCount(a: number): number {
    return this.recs[a * 3 + 2]!;
  }
  /** Where animation `a`'s header line's first token (its name) starts in the text. */
  headerStart(a: number): number {
    return this.recs[a * 3]!;
  }
  /** Where the line of direction `k` of animation `a` has its first token. */
  directionStart(a: number, k: number): number {
    return this.recs[this.count * 3 + this.recs[a * 3 + 1]! + k]!;
  }
  values(a: number, k: number, out: Int32Array): void {
    const text = this.text;
    cursor = this.recs[this.count * 3 + this.recs[a * 3 + 1]! + k]!;
    for (let f = 0; f < 8; f++) out[f] = nextInt(text);
  }
  direction(a: number, k: number): SolarusDirection {
    const text = this.text;
    cursor = this.recs[this.count * 3 + this.recs[a * 3 + 1]! + k]!;
    return {
      x: nextInt(text),
      y: nextInt(text),
      frameWidth: nextInt(text),
      frameHeight: nextInt(text),
      originX: nextInt(text),
      originY: nextInt(text),
      frameCount: nextInt(text),
      columns: nextInt(text),
    };
  }
}

/** Where the token starting at `s` of ASCII bytes ends (as tokenEnd). */
export function byteTokenEnd(bytes: Uint8Array, s: number): number {
  const n = bytes.length;
  let i = s;
  while (i < n) {
    const c = bytes[i]!;
    if (c === 32 || c === 9 || c === 10 || (c === 13 && bytes[i + 1] === 10)) break;
    i++;
  }
  return i;
}

/** Where token `t` of the line whose first token starts at `at` starts (as tokenStart). */
function byteTokenStart(bytes: Uint8Array, at: number, t: number): number {
  let i = at;
  for (; t > 0; t--) {
    for (;;) {
      const c = bytes[i];
      if (c === 32 || c === 9) break;
      i++;
    }
    let c = bytes[i];
    while (c === 32 || c === 9) c = bytes[++i];
  }
  return i;
}

/** The checked whole number after `cursor` in ASCII bytes (as nextInt). */
function nextByteInt(bytes: Uint8Array): number {
  let i = cursor;
  let c = bytes[i]!;
  while (c === 32 || c === 9) c = bytes[++i]!;
  const neg = c === 45;
  if (neg) c = bytes[++i]!;
  let v = 0;
  while (c >= 48 && c <= 57) {
    v = v * 10 + c - 48;
    c = bytes[++i]!;
  }
  cursor = i;
  return neg ? 0 - v : v;
}

const latin1 = new TextDecoder('latin1');

/** A token of ASCII bytes as a string. */
function byteToken(bytes: Uint8Array, s: number): string {
  const e = byteTokenEnd(bytes, s);
  if (e - s <= 16) {
    let out = '';
    for (let i = s; i < e; i++) out += String.fromCharCode(bytes[i]!);
    return out;
  }
  return latin1.decode(bytes.subarray(s, e));
}

/** A LineStore over a file's ASCII bytes (readLines keeps those, not a decoded text): the same records, in bytes. */
export class ByteLineStore implements AnimationStore {
  constructor(
    readonly bytes: Uint8Array,
    private readonly recs: Int32Array,
    readonly count: number,
  ) {}

  name(a: number): string {
    return byteToken(this.bytes, this.recs[a * 3]!);
  }
  image(a: number): string {
    return byteToken(this.bytes, byteTokenStart(this.bytes, this.recs[a * 3]!, 1));
  }
  frameDelay(a: number): number {
    cursor = byteTokenStart(this.bytes, this.recs[a * 3]!, 3);
    return nextByteInt(this.bytes);
  }
  loopOnFrame(a: number): number {
    cursor = byteTokenStart(this.bytes, this.recs[a * 3]!, 4);
    return nextByteInt(this.bytes);
  }
  directionCount(a: number): number {
    return this.recs[a * 3 + 2]!;
  }
  values(a: number, k: number, out: Int32Array): void {
    const b = this.bytes;
    cursor = this.recs[this.count * 3 + this.recs[a * 3 + 1]! + k]!;
    for (let f = 0; f < 8; f++) out[f] = nextByteInt(b);
  }
  direction(a: number, k: number): SolarusDirection {
    const b = this.bytes;
    cursor = this.recs[this.count * 3 + this.recs[a * 3 + 1]! + k]!;
    return {
      x: nextByteInt(b),
      y: nextByteInt(b),
      frameWidth: nextByteInt(b),
      frameHeight: nextByteInt(b),
      originX: nextByteInt(b),
      originY: nextByteInt(b),
      frameCount: nextByteInt(b),
      columns: nextByteInt(b),
    };
  }
}
