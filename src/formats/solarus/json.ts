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
import { JSON_OUT_CHUNK as CHUNK, JsonOut } from '../../binary/json-out.js';
import type { AnimationStore } from './compact.js';

const encoder = new TextEncoder();

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
    /** From the last field to the first direction's first value. */
    directionsOpen: e(`,\n${field}"directions": [\n${dir}{\n${value}"x": `),
    /** Before each value of a direction after the first. */
    dirLeads: DIRECTION_KEYS.map((k) => e(`,\n${value}"${k}": `)),
    /** From one direction's last value to the next one's first (`}`, `,` and `{`: one copy). */
    dirBetween: e(`\n${dir}},\n${dir}{\n${value}"x": `),
    /** From the last direction's last value to the animation's end. */
    dirLast: e(`\n${dir}}\n${field}]\n${anim}}`),
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
  const o = new JsonOut();
  const v = new Int32Array(8);
  o.ascii('[');
  for (let a = 0; a < store.count; a++) {
    o.raw(a === 0 ? c.first : c.next);
    o.str(store.name(a));
    o.raw(c.image);
    o.str(store.image(a));
    o.raw(c.frameDelay);
    o.num(store.frameDelay(a));
    o.raw(c.loopOnFrame);
    o.num(store.loopOnFrame(a));
    const n = store.directionCount(a);
    if (n === 0) o.raw(c.directionsEmpty);
    else {
      for (let k = 0; k < n; k++) {
        store.values(a, k, v);
        o.raw(k > 0 ? c.dirBetween : c.directionsOpen);
        o.num(v[0]!);
        for (let f = 1; f < 8; f++) {
          o.raw(c.dirLeads[f]!);
          o.num(v[f]!);
        }
      }
      o.raw(c.dirLast);
    }
    if (o.pos >= CHUNK) yield o.take();
  }
  o.raw(c.close);
  yield o.end();
}
