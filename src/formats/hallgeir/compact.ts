/**
 * The compact form of what the readers make of big `.spr` and `.map` files
 * (src/formats/hallgeir/read.ts).
 *
 * A frame is a 20-byte record (int x, int y, double delay, int next); as a
 * JavaScript object it costs about 80 bytes (its `delay`, a double, is a
 * heap number of its own). A map object is two ints and a path; as an
 * object, 40 bytes or more. So the sprite reader keeps the frame records as
 * they are in the file (a `FrameStore`: a copy of the bytes, or the caller's
 * own when it says they never change) and an animation is where its first
 * record starts and how many there are (a `StoredAnimation`); the map reader
 * keeps each object's x, y and path in typed arrays, the path as an index
 * into a table of the distinct paths (a `StoredMap`). Every record was
 * checked when it was read.
 *
 * The model does not change for its users: `animation.frames` and
 * `map.objects` are own, enumerable properties (so equality, spreading,
 * JSON and structured cloning see them as before) whose getters make the
 * plain objects once, on first use, and keep them: from then on they are
 * plain arrays, which can be changed and assigned like any other. Code of
 * the library that only reads them uses `framesOf` and `objectsOf` below,
 * which leave a compact document compact (the writer, `inspect`,
 * validation, playback, rendering, conversion).
 */
import type { HallgeirAnimation, HallgeirFrame, HallgeirMap, HallgeirMapObject, HallgeirMapTexture } from './model.js';
import { FRAME_SIZE } from './model.js';

/** Frame records as read: the bytes they are in, and their byte order. */
export class FrameStore {
  #bytes: Uint8Array;
  #view: DataView;

  /** `bytes`: a copy of the bytes the records are in, or bytes their owner never changes. */
  constructor(
    bytes: Uint8Array,
    readonly littleEndian: boolean,
  ) {
    this.#bytes = bytes;
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get bytes(): Uint8Array {
    return this.#bytes;
  }

  get view(): DataView {
    return this.#view;
  }

  /** For the reader, once every record is checked: the records' bytes from now on (a copy of those read). */
  hold(bytes: Uint8Array): void {
    this.#bytes = bytes;
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
}

/** An animation's compact frames: `count` records of `store`, the first at `at`. */
export interface CompactFrames {
  store: FrameStore;
  at: number;
  count: number;
}

let FRAMES: PropertyDescriptor;
let compactFramesOf: (a: StoredAnimation) => CompactFrames | null;

/** An animation as the reader makes it: its frames stay in the store until they are asked for. */
export class StoredAnimation implements HallgeirAnimation {
  name: string;
  declare frames: HallgeirFrame[];
  #store: FrameStore | null;
  #at: number;
  #count: number;
  #list: HallgeirFrame[] | null = null;

  constructor(name: string, store: FrameStore, at: number, count: number) {
    this.name = name;
    this.#store = store;
    this.#at = at;
    this.#count = count;
    Object.defineProperty(this, 'frames', FRAMES);
  }

  static {
    FRAMES = {
      get(this: StoredAnimation): HallgeirFrame[] {
        let list = this.#list;
        if (list === null) {
          list = decodeFrames(this.#store!, this.#at, this.#count);
          this.#list = list;
          this.#store = null;
        }
        return list;
      },
      set(this: StoredAnimation, v: HallgeirFrame[]) {
        this.#list = v;
        this.#store = null;
      },
      enumerable: true,
      configurable: true,
    };
    compactFramesOf = (a) => (a.#store === null ? null : { store: a.#store, at: a.#at, count: a.#count });
  }
}

function decodeFrames(store: FrameStore, at: number, count: number): HallgeirFrame[] {
  const v = store.view;
  const le = store.littleEndian;
  const out: HallgeirFrame[] = new Array(count);
  for (let i = 0, p = at; i < count; i++, p += FRAME_SIZE) {
    out[i] = { x: v.getInt32(p, le), y: v.getInt32(p + 4, le), delay: v.getFloat64(p + 8, le), next: v.getInt32(p + 16, le) };
  }
  return out;
}

/** The compact frames of an animation the reader made, while its `frames` has not been asked for (null otherwise). */
export function compactFrames(a: HallgeirAnimation): CompactFrames | null {
  return a instanceof StoredAnimation ? compactFramesOf(a) : null;
}

/** An animation's frames, field by field, for reading (`length` frames, 0 <= i < length). */
export interface FrameTable {
  readonly length: number;
  x(i: number): number;
  y(i: number): number;
  delay(i: number): number;
  next(i: number): number;
}

class CompactFrameTable implements FrameTable {
  readonly length: number;
  readonly #v: DataView;
  readonly #le: boolean;
  readonly #at: number;

  constructor(c: CompactFrames) {
    this.length = c.count;
    this.#v = c.store.view;
    this.#le = c.store.littleEndian;
    this.#at = c.at;
  }

  x(i: number): number {
    return this.#v.getInt32(this.#at + i * FRAME_SIZE, this.#le);
  }

  y(i: number): number {
    return this.#v.getInt32(this.#at + i * FRAME_SIZE + 4, this.#le);
  }

  delay(i: number): number {
    return this.#v.getFloat64(this.#at + i * FRAME_SIZE + 8, this.#le);
  }

  next(i: number): number {
    return this.#v.getInt32(this.#at + i * FRAME_SIZE + 16, this.#le);
  }
}

class PlainFrameTable implements FrameTable {
  constructor(readonly animation: HallgeirAnimation) {}

  get length(): number {
    return this.animation.frames.length;
  }

  x(i: number): number {
    return this.animation.frames[i]!.x;
  }

  y(i: number): number {
    return this.animation.frames[i]!.y;
  }

  delay(i: number): number {
    return this.animation.frames[i]!.delay;
  }

  next(i: number): number {
    return this.animation.frames[i]!.next;
  }
}

/**
 * An animation's frames for reading: from the records while the animation
 * is compact (it stays so), else from `animation.frames` (read anew at each
 * call: a change shows). Take a table for one pass: the records of an
 * animation whose `frames` is made and changed after are not the frames.
 */
export function framesOf(a: HallgeirAnimation): FrameTable {
  const c = compactFrames(a);
  return c ? new CompactFrameTable(c) : new PlainFrameTable(a);
}

/** How many frames an animation has (a compact animation stays compact). */
export function frameCount(a: HallgeirAnimation): number {
  const c = compactFrames(a);
  return c ? c.count : a.frames.length;
}

/** Frame `i` of an animation (0 <= i < frameCount(a)); of a compact animation, made anew and not kept. */
export function frameByIndex(a: HallgeirAnimation, i: number): HallgeirFrame | undefined {
  const c = compactFrames(a);
  if (!c) return a.frames[i];
  if (!(Number.isInteger(i) && i >= 0 && i < c.count)) return undefined;
  return decodeFrames(c.store, c.at + i * FRAME_SIZE, 1)[0];
}

/** A map's objects as read: x, y and an index into `paths` per object. */
export interface CompactObjects {
  x: Int32Array;
  y: Int32Array;
  path: Int32Array;
  /** The distinct paths (a path met again shares its first string; past a few thousand, each has its own). */
  paths: readonly string[];
}

let OBJECTS: PropertyDescriptor;
let compactObjectsOf: (m: StoredMap) => CompactObjects | null;

/** A map as the reader makes it: its objects stay in typed arrays until they are asked for. */
export class StoredMap implements HallgeirMap {
  kind: 'map' = 'map';
  littleEndian: boolean;
  textures: HallgeirMapTexture[];
  declare objects: HallgeirMapObject[];
  declare lengthPrefixedId?: boolean;
  #compact: CompactObjects | null;
  #list: HallgeirMapObject[] | null = null;

  constructor(littleEndian: boolean, textures: HallgeirMapTexture[], objects: CompactObjects, lengthPrefixedId: boolean) {
    this.littleEndian = littleEndian;
    this.textures = textures;
    this.#compact = objects;
    // The keys in the order the plain document had them.
    Object.defineProperty(this, 'objects', OBJECTS);
    if (lengthPrefixedId) this.lengthPrefixedId = true;
  }

  static {
    OBJECTS = {
      get(this: StoredMap): HallgeirMapObject[] {
        let list = this.#list;
        if (list === null) {
          const c = this.#compact!;
          list = new Array(c.x.length);
          for (let i = 0; i < list.length; i++) list[i] = { x: c.x[i]!, y: c.y[i]!, object: c.paths[c.path[i]!]! };
          this.#list = list;
          this.#compact = null;
        }
        return list;
      },
      set(this: StoredMap, v: HallgeirMapObject[]) {
        this.#list = v;
        this.#compact = null;
      },
      enumerable: true,
      configurable: true,
    };
    compactObjectsOf = (m) => m.#compact;
  }
}

/** The compact objects of a map the reader made, while its `objects` has not been asked for (null otherwise). */
export function compactObjects(m: HallgeirMap): CompactObjects | null {
  return m instanceof StoredMap ? compactObjectsOf(m) : null;
}

/** A map's objects, field by field, for reading. */
export interface ObjectTable {
  readonly length: number;
  x(i: number): number;
  y(i: number): number;
  object(i: number): string;
}

class CompactObjectTable implements ObjectTable {
  readonly length: number;
  constructor(readonly c: CompactObjects) {
    this.length = c.x.length;
  }

  x(i: number): number {
    return this.c.x[i]!;
  }

  y(i: number): number {
    return this.c.y[i]!;
  }

  object(i: number): string {
    return this.c.paths[this.c.path[i]!]!;
  }
}

class PlainObjectTable implements ObjectTable {
  constructor(readonly map: HallgeirMap) {}

  get length(): number {
    return this.map.objects.length;
  }

  x(i: number): number {
    return this.map.objects[i]!.x;
  }

  y(i: number): number {
    return this.map.objects[i]!.y;
  }

  object(i: number): string {
    return this.map.objects[i]!.object;
  }
}

/** A map's objects for reading: from the typed arrays while the map is compact (it stays so), else from `map.objects`. */
export function objectsOf(m: HallgeirMap): ObjectTable {
  const c = compactObjects(m);
  return c ? new CompactObjectTable(c) : new PlainObjectTable(m);
}

/** The distinct object paths of a map, in the order they first appear. */
export function objectPaths(m: HallgeirMap): string[] {
  const c = compactObjects(m);
  // Every path of the table is some object's, the table in the order the paths first appear.
  return [...new Set(c ? c.paths : m.objects.map((o) => o.object))];
}
