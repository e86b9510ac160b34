/**
 * Readers for `.spr`, `.obj` and `.map`. Strict, per docs/spec/hallgeir.md's
 * decisions: negative or oversized counts and lengths, bytes after the last
 * field, next frames out of range and NaN/infinite delays are FormatErrors
 * naming the byte offset. Both byte orders; `auto` reads little-endian and
 * falls back to big-endian only when that succeeds.
 */
import { checkOptionValue } from '../options.js';
import type { OptionSpec } from '../types.js';
import { FormatError, diagnostic, isFormatError, type Diagnostic } from '../../binary/errors.js';
import { ByteReader } from '../../binary/reader.js';
import { decodeUtf8 } from '../../binary/utf8.js';
import { FrameStore, StoredAnimation, StoredMap } from './compact.js';
import {
  FORMAT_NAMES,
  FRAME_SIZE,
  IDENTIFIERS,
  type HallgeirAnimation,
  type HallgeirDocument,
  type HallgeirKind,
  type HallgeirMap,
  type HallgeirObject,
  type HallgeirSprite,
} from './model.js';

export type EndianOption = 'auto' | 'little' | 'big';

export interface HallgeirReadOptions {
  /**
   * Byte order: `auto` (default) tries little-endian, then big-endian;
   * `little` / `big` try that order first, then the other (so that
   * `convert --endian big` can still read a little-endian input). When both
   * fail, the error of the first order tried is reported.
   */
  endian?: EndianOption;
  /** Non-fatal problems (strings that are not valid UTF-8). */
  warn?: (d: Diagnostic) => void;
  /**
   * The caller will never change `bytes`: a sprite may keep its frame
   * records in them instead of in a copy (as `ReadContext.keepBytes`).
   */
  keepBytes?: boolean;
}

/** The `--endian` option every Hallgeir command takes (for convert, the byte order written). */
export const ENDIAN_OPTION = {
  name: 'endian',
  type: 'string',
  choices: ['auto', 'little', 'big'],
  description:
    'byte order: auto (default: little-endian, else big-endian), little or big (tried first); for convert, the byte order written',
} as const satisfies OptionSpec;

/** Parses an endian option value (absent: auto); an OptionError for anything else. */
export function parseEndian(v: unknown, _format?: string): EndianOption {
  if (v === undefined || v === false || v === '') return 'auto';
  return checkOptionValue(ENDIAN_OPTION, typeof v === 'string' || typeof v === 'boolean' ? v : String(v)) as EndianOption;
}

/**
 * The identifier: 3 bytes (the source document's "Identifier, string, size 3"),
 * or, as some writers give it, a string with its int length (3) first.
 * Returns true for the length-prefixed form.
 */
function readIdentifier(r: ByteReader, expected: string): boolean {
  const at = r.pos;
  const b = r.bytes;
  if (
    r.remaining >= 3 &&
    b[at] === expected.charCodeAt(0) &&
    b[at + 1] === expected.charCodeAt(1) &&
    b[at + 2] === expected.charCodeAt(2)
  ) {
    r.pos += 3;
    return false;
  }
  const n = r.i32();
  if (n !== expected.length) {
    throw r.error(
      `identifier length is ${n}, not ${expected.length} (the file should start with "${expected}": 3 bytes, or a string with its int length)`,
      at,
    );
  }
  const s = r.ascii(n, 'identifier');
  if (s !== expected) throw r.error(`identifier is ${JSON.stringify(s)}, not "${expected}"`, at + 4);
  return true;
}

/** The identifier form for the document: the field only when the file used the length-prefixed form. */
const form = (lengthPrefixed: boolean) => (lengthPrefixed ? { lengthPrefixedId: true } : {});

function readCount(r: ByteReader, minItemSize: number, what: string): number {
  const at = r.pos;
  const n = r.i32();
  if (n < 0) throw r.error(`${what} count ${n} is negative`, at);
  r.checkCount(n, minItemSize, what, at);
  return n;
}

function checkEnd(r: ByteReader): void {
  if (r.remaining > 0) {
    throw r.error(`${r.remaining} unexpected byte${r.remaining === 1 ? '' : 's'} after the last field`);
  }
}

function readSpriteBody(r: ByteReader, keepBytes: boolean): HallgeirSprite {
  const id = readIdentifier(r, IDENTIFIERS.sprite);
  const name = r.str32('sprite name');
  const texture = r.str32('texture name');
  // An animation is at least a name length and a frame count.
  const animCount = readCount(r, 8, 'animation');
  // The frames stay as records (compact.ts): an animation is where its records start and how many.
  // The records' bytes: the caller's when it says they never change, else a copy of the part they are
  // in (from the first animation's records), made once all are checked.
  const v = r.view;
  const le = r.littleEndian;
  const store = new FrameStore(r.bytes, le);
  let base = -1;
  const animations: HallgeirAnimation[] = new Array(animCount);
  for (let a = 0; a < animCount; a++) {
    const animName = r.str32('animation name');
    const frameCount = readCount(r, FRAME_SIZE, 'frame');
    // checkCount has made sure all frameCount records are there: read them straight from the view.
    let p = r.pos;
    if (base < 0) base = keepBytes ? 0 : p;
    for (let f = 0; f < frameCount; f++, p += FRAME_SIZE) {
      const delay = v.getFloat64(p + 8, le);
      const next = v.getInt32(p + 16, le);
      if (!Number.isFinite(delay)) {
        throw r.error(`frame ${f} of animation ${JSON.stringify(animName)}: delay ${delay} is not a finite number`, p + 8);
      }
      if (next !== -1 && (next < 0 || next >= frameCount)) {
        throw r.error(
          `frame ${f} of animation ${JSON.stringify(animName)}: next frame ${next} is not -1 or a frame of the animation (0-${frameCount - 1})`,
          p + 16,
        );
      }
    }
    animations[a] = new StoredAnimation(animName, store, r.pos - base, frameCount);
    r.pos = p;
  }
  checkEnd(r);
  if (!keepBytes) store.hold(r.bytes.slice(Math.max(base, 0), r.pos));
  return { kind: 'sprite', littleEndian: le, name, texture, animations, ...form(id) };
}

function readObjectBody(r: ByteReader): HallgeirObject {
  const id = readIdentifier(r, IDENTIFIERS.object);
  const name = r.str32('object name');
  const sprite = r.str32('sprite name');
  checkEnd(r);
  return { kind: 'object', littleEndian: r.littleEndian, name, sprite, ...form(id) };
}

function readMapBody(r: ByteReader): HallgeirMap {
  const id = readIdentifier(r, IDENTIFIERS.map);
  const textureCount = readCount(r, 8, 'texture');
  const textures = [];
  for (let i = 0; i < textureCount; i++) {
    const path = r.str32('texture path');
    const name = r.str32('texture name');
    textures.push({ path, name });
  }
  const objectCount = readCount(r, 12, 'object');
  // The objects stay in typed arrays (compact.ts); the path as an index into the table of paths.
  const xs = new Int32Array(objectCount);
  const ys = new Int32Array(objectCount);
  const ids = new Int32Array(objectCount);
  // Maps place the same few objects many times: a path's bytes met again (found by their hash, then
  // compared) share its string, with no string made (at most SHARED_PATHS distinct paths shared).
  const paths: string[] = [];
  const invalid = new Set<number>();
  const byHash = new Map<number, number>();
  // Per shared path: its index in `paths`, where its bytes start and how many.
  const sharedId: number[] = [];
  const sharedAt: number[] = [];
  const sharedLength: number[] = [];
  const b = r.bytes;
  for (let i = 0; i < objectCount; i++) {
    xs[i] = r.i32();
    ys[i] = r.i32();
    // str32('object path'), with its checks and warnings
    const at = r.pos;
    const n = r.i32();
    if (n < 0) throw r.error(`object path length ${n} is negative`, at);
    if (n > r.remaining) throw r.error(`object path length ${n} is longer than the ${r.remaining} bytes left`, at);
    const s = r.pos;
    let h = 0x811c9dc5 ^ n;
    for (let k = s; k < s + n; k++) h = Math.imul(h ^ b[k]!, 0x01000193);
    h >>>= 0;
    let pid = -1;
    const slot = byHash.get(h);
    if (slot !== undefined && sharedLength[slot] === n) {
      const q = sharedAt[slot]!;
      let k = 0;
      while (k < n && b[q + k] === b[s + k]) k++;
      if (k === n) pid = sharedId[slot]!;
    }
    if (pid < 0) {
      const { text, valid } = decodeUtf8(b.subarray(s, s + n));
      pid = paths.length;
      paths.push(text);
      if (!valid) invalid.add(pid);
      if (slot === undefined && byHash.size < SHARED_PATHS) {
        byHash.set(h, sharedId.length);
        sharedId.push(pid);
        sharedAt.push(s);
        sharedLength.push(n);
      }
    }
    if (invalid.size > 0 && invalid.has(pid)) r.onInvalidUtf8?.(s);
    ids[i] = pid;
    r.pos = s + n;
  }
  checkEnd(r);
  return new StoredMap(r.littleEndian, textures, { x: xs, y: ys, path: ids, paths }, id);
}

/** Distinct object paths shared while reading a map (a map of all-different paths keeps only the first ones). */
const SHARED_PATHS = 4096;

/** Reads in one byte order; warnings are collected, not reported. */
function readInOrder(
  bytes: Uint8Array,
  kind: HallgeirKind,
  littleEndian: boolean,
  warnings: Diagnostic[],
  keepBytes: boolean,
): HallgeirDocument {
  const r = new ByteReader(bytes, {
    format: FORMAT_NAMES[kind],
    littleEndian,
    onInvalidUtf8: (offset) => warnings.push(diagnostic('warning', 'string is not valid UTF-8', { offset })),
  });
  return kind === 'sprite' ? readSpriteBody(r, keepBytes) : kind === 'object' ? readObjectBody(r) : readMapBody(r);
}

/** Reads a document of the given kind. Throws FormatError for bad input (and nothing else). */
export function readHallgeir(bytes: Uint8Array, kind: 'sprite', opts?: HallgeirReadOptions): HallgeirSprite;
export function readHallgeir(bytes: Uint8Array, kind: 'object', opts?: HallgeirReadOptions): HallgeirObject;
export function readHallgeir(bytes: Uint8Array, kind: 'map', opts?: HallgeirReadOptions): HallgeirMap;
export function readHallgeir(bytes: Uint8Array, kind: HallgeirKind, opts?: HallgeirReadOptions): HallgeirDocument;
export function readHallgeir(bytes: Uint8Array, kind: HallgeirKind, opts: HallgeirReadOptions = {}): HallgeirDocument {
  const endian = opts.endian ?? 'auto';
  const firstLittle = endian !== 'big';
  let firstError: FormatError;
  for (const le of [firstLittle, !firstLittle]) {
    const warnings: Diagnostic[] = [];
    try {
      const doc = readInOrder(bytes, kind, le, warnings, opts.keepBytes === true);
      for (const w of warnings) opts.warn?.(w);
      return doc;
    } catch (e) {
      if (!isFormatError(e)) {
        throw new FormatError(FORMAT_NAMES[kind], `unreadable data: ${(e as Error)?.message ?? String(e)}`, { offset: 0 });
      }
      if (le === firstLittle) firstError = e;
    }
  }
  throw firstError!;
}

export function readSprite(bytes: Uint8Array, opts?: HallgeirReadOptions): HallgeirSprite {
  return readHallgeir(bytes, 'sprite', opts);
}

export function readObject(bytes: Uint8Array, opts?: HallgeirReadOptions): HallgeirObject {
  return readHallgeir(bytes, 'object', opts);
}

export function readMap(bytes: Uint8Array, opts?: HallgeirReadOptions): HallgeirMap {
  return readHallgeir(bytes, 'map', opts);
}

/** True when the bytes start with the kind's identifier: its three letters, or an int 3 (either byte order) then them. */
export function sniffHallgeir(bytes: Uint8Array, kind: HallgeirKind): boolean {
  const id = IDENTIFIERS[kind];
  const at = (o: number) =>
    bytes.length >= o + 3 && bytes[o] === id.charCodeAt(0) && bytes[o + 1] === id.charCodeAt(1) && bytes[o + 2] === id.charCodeAt(2);
  if (bytes.length < 7) return false;
  // 3 letters, then an int (a length or a count, in either byte order) that fits in the file
  if (at(0)) {
    const v = new DataView(bytes.buffer, bytes.byteOffset + 3, 4);
    const fits = (n: number) => n >= 0 && n <= bytes.length;
    return fits(v.getInt32(0, true)) || fits(v.getInt32(0, false));
  }
  const le = bytes[0] === 3 && bytes[1] === 0 && bytes[2] === 0 && bytes[3] === 0;
  const be = bytes[0] === 0 && bytes[1] === 0 && bytes[2] === 0 && bytes[3] === 3;
  return (le || be) && at(4);
}
