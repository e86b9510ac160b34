/**
 * The `animations` of `inspect --json` for a sheet the readers made and
 * nobody has changed (compact.ts): its JSON text written straight from the
 * store into a byte buffer, a piece at a time, with no animation or
 * direction object made on the way (made through objects, the writer's
 * garbage cost several times the file in memory). The text is exactly what
 * JSON.stringify writes for the same list at that depth:
 * test/solarus/inspect-json.test.ts compares the two.
 */
import { JsonText } from '../../binary/json-array.js';
import type { AnimationStore } from './compact.js';

/** The text is handed out in pieces of about this many bytes. */
const CHUNK = 1 << 16;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** JSON text built as UTF-8 bytes, taken out as strings. */
class Out {
  buf = new Uint8Array(CHUNK + 1024);
  pos = 0;

  room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(2 * this.buf.length, this.pos + n));
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  raw(a: Uint8Array): void {
    this.room(a.length);
    this.buf.set(a, this.pos);
    this.pos += a.length;
  }

  /** A whole number of at most 10 digits and a sign, as String writes it. */
  int(v: number): void {
    this.room(11);
    const b = this.buf;
    let m = v;
    if (m < 0) {
      b[this.pos++] = 45;
      m = -m;
    }
    let digits = 1;
    for (let t = m; t >= 10; t = Math.floor(t / 10)) digits++;
    let p = this.pos + digits;
    this.pos = p;
    do {
      b[--p] = 48 + (m % 10);
      m = Math.floor(m / 10);
    } while (m > 0);
  }

  /** A string, as JSON.stringify writes it. */
  str(v: string): void {
    const t = JSON.stringify(v);
    this.room(3 * t.length);
    let p = this.pos;
    const b = this.buf;
    for (let i = 0; i < t.length; i++) {
      const c = t.charCodeAt(i);
      if (c >= 0x80) {
        this.pos += encoder.encodeInto(t, b.subarray(this.pos)).written;
        return;
      }
      b[p++] = c;
    }
    this.pos = p;
  }

  take(): string {
    const s = decoder.decode(this.buf.subarray(0, this.pos));
    this.pos = 0;
    return s;
  }
}

const DIRECTION_KEYS = ['x', 'y', 'frameWidth', 'frameHeight', 'originX', 'originY', 'frameCount', 'columns'];

/** The constant parts of the text at one depth, as bytes. */
function parts(depth: number, pad: (n: number) => string) {
  const e = (s: string) => encoder.encode(s);
  const anim = pad(depth + 1);
  const field = pad(depth + 2);
  const dir = pad(depth + 3);
  const value = pad(depth + 4);
  return {
    first: e(`\n${anim}{\n${field}"name": `),
    next: e(`,\n${anim}{\n${field}"name": `),
    image: e(`,\n${field}"image": `),
    frameDelay: e(`,\n${field}"frameDelay": `),
    loopOnFrame: e(`,\n${field}"loopOnFrame": `),
    directionsEmpty: e(`,\n${field}"directions": []\n${anim}}`),
    directionsOpen: e(`,\n${field}"directions": [`),
    directionsClose: e(`\n${field}]\n${anim}}`),
    /** Before each value of a direction: the first's after `{`, the others' after the last value. */
    dirFirst: DIRECTION_KEYS.map((k, i) => e(`${i === 0 ? `\n${dir}{\n` : ',\n'}${value}"${k}": `)),
    dirNext: e(`,\n${dir}{\n${value}"x": `),
    dirEnd: e(`\n${dir}}`),
    close: e(`\n${pad(depth)}]`),
  };
}

/** The animations list of `inspectJson` for a sheet whose store is `store`; `item(i)` makes animation i's JSON object. */
export function animationsJson<T>(store: AnimationStore, item: (i: number) => T): JsonText<T> {
  return new JsonText(store.count, item, (depth, pad) => pieces(store, depth, pad));
}

function* pieces(store: AnimationStore, depth: number, pad: (n: number) => string): Generator<string> {
  if (store.count === 0) {
    yield '[]';
    return;
  }
  const c = parts(depth, pad);
  const o = new Out();
  const v = new Int32Array(8);
  o.buf[o.pos++] = 91; // [
  for (let a = 0; a < store.count; a++) {
    o.raw(a === 0 ? c.first : c.next);
    o.str(store.name(a));
    o.raw(c.image);
    o.str(store.image(a));
    o.raw(c.frameDelay);
    o.int(store.frameDelay(a));
    o.raw(c.loopOnFrame);
    o.int(store.loopOnFrame(a));
    const n = store.directionCount(a);
    if (n === 0) o.raw(c.directionsEmpty);
    else {
      o.raw(c.directionsOpen);
      for (let k = 0; k < n; k++) {
        store.values(a, k, v);
        for (let f = 0; f < 8; f++) {
          o.raw(f === 0 && k > 0 ? c.dirNext : c.dirFirst[f]!);
          o.int(v[f]!);
        }
        o.raw(c.dirEnd);
      }
      o.raw(c.directionsClose);
    }
    if (o.pos >= CHUNK) yield o.take();
  }
  o.raw(c.close);
  yield o.take();
}
