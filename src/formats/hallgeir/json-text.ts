/**
 * The frames and map objects of `inspect --json` for a document as the
 * reader made it (compact.ts): the JSON text written straight from the
 * records into a byte buffer, a chunk at a time, with no frame or object
 * made on the way (made through objects, a big file's garbage alone costs
 * several times the file in memory). The text is exactly what
 * JSON.stringify writes for the same list at that depth:
 * test/hallgeir/compact.test.ts compares the two.
 */
import { JsonText, type JsonList } from '../../binary/json-array.js';
import { JSON_OUT_CHUNK as CHUNK, JsonOut, joinBytes } from '../../binary/json-out.js';
import { FRAME_SIZE } from './model.js';
import type { CompactFrames, CompactObjects } from './compact.js';

/** Distinct delays and paths whose text is kept while a list is written. */
const CACHED = 4096;

const encoder = new TextEncoder();

/**
 * What the lists of one document share while their text is written: the
 * buffer (each list takes its text out before it yields, and starts its
 * writing anew when resumed, so the lists can take turns), the constant
 * parts at each depth with the text of delays met. A document of
 * many small animations would otherwise pay for a buffer and parts each.
 */
export class TextContext {
  readonly out = new JsonOut();
  readonly parts = new Map<string, Parts>();
}

type Parts = ReturnType<typeof parts>;

function partsFor(ctx: TextContext, depth: number, pad: (n: number) => string, keys: string[]): Parts {
  // `pad` is the same function for the whole of one text; the key names tell the lists apart.
  const k = `${depth} ${pad(1).length} ${keys[0]} ${keys.length}`;
  let p = ctx.parts.get(k);
  if (!p) {
    p = parts(depth, pad, keys);
    ctx.parts.set(k, p);
  }
  return p;
}

/** The UTF-8 text JSON.stringify gives a value. */
const jsonBytes = (v: unknown): Uint8Array => encoder.encode(JSON.stringify(v));

/** The constant parts of a list of records at one depth: `{` lines and `"key": ` leads. */
function parts(depth: number, pad: (n: number) => string, keys: string[]) {
  const item = pad(depth + 1);
  const key = pad(depth + 2);
  return {
    first: encoder.encode(`[\n${item}{\n${key}"${keys[0]}": `),
    next: encoder.encode(`\n${item}},\n${item}{\n${key}"${keys[0]}": `),
    leads: keys.slice(1).map((k) => encoder.encode(`,\n${key}"${k}": `)),
    close: encoder.encode(`\n${item}}\n${pad(depth)}]`),
    /** The text of delays met, between the leads of `delay` and `next` (at this depth). */
    delays: new Map<number, Uint8Array>(),
  };
}

function* framesText(c: CompactFrames, ctx: TextContext, depth: number, pad: (n: number) => string): Generator<string> {
  if (c.count === 0) {
    yield '[]';
    return;
  }
  const { first, next, leads, close, delays } = partsFor(ctx, depth, pad, ['x', 'y', 'delay', 'next']);
  const [yLead, delayLead, nextLead] = leads as [Uint8Array, Uint8Array, Uint8Array];
  const v = c.store.view;
  const le = c.store.littleEndian;
  const o = ctx.out;
  o.pos = 0;
  for (let i = 0, p = c.at; i < c.count; i++, p += FRAME_SIZE) {
    o.raw(i === 0 ? first : next);
    o.num(v.getInt32(p, le));
    o.raw(yLead);
    o.num(v.getInt32(p + 4, le));
    // A finite double (the reader checked): its text as JSON.stringify gives it, between the leads of
    // `delay` and `next`, kept for the next frames (one copy for the three).
    const d = v.getFloat64(p + 8, le);
    let t = delays.get(d);
    if (t === undefined) {
      t = joinBytes(delayLead, jsonBytes(d), nextLead);
      if (delays.size < CACHED) delays.set(d, t);
    }
    o.raw(t);
    o.num(v.getInt32(p + 16, le));
    if (o.pos >= CHUNK) {
      yield o.take();
      o.pos = 0; // another list may have used the buffer meanwhile
    }
  }
  o.raw(close);
  yield o.end();
}

function* objectsText(c: CompactObjects, ctx: TextContext, depth: number, pad: (n: number) => string): Generator<string> {
  const n = c.x.length;
  if (n === 0) {
    yield '[]';
    return;
  }
  const { first, next, leads, close } = partsFor(ctx, depth, pad, ['x', 'y', 'object']);
  const [yLead, objectLead] = leads as [Uint8Array, Uint8Array];
  const paths: (Uint8Array | undefined)[] = new Array(Math.min(c.paths.length, CACHED));
  const o = ctx.out;
  o.pos = 0;
  for (let i = 0; i < n; i++) {
    o.raw(i === 0 ? first : next);
    o.num(c.x[i]!);
    o.raw(yLead);
    o.num(c.y[i]!);
    // The path's text after the lead of `object`, kept for the next objects (one copy for the two).
    const id = c.path[i]!;
    let t = id < CACHED ? paths[id] : undefined;
    if (t === undefined) {
      t = joinBytes(objectLead, jsonBytes(c.paths[id]!));
      if (id < CACHED) paths[id] = t;
    }
    o.raw(t);
    if (o.pos >= CHUNK) {
      yield o.take();
      o.pos = 0; // another list may have used the buffer meanwhile
    }
  }
  o.raw(close);
  yield o.end();
}

/** `list` (an animation's frames as JSON objects) as a JsonText whose text is written from the records. */
export function framesJsonText(c: CompactFrames, list: JsonList<unknown>, ctx: TextContext): JsonText {
  return new JsonText(
    list.length,
    (i) => list.at(i),
    (depth, pad) => framesText(c, ctx, depth, pad),
  );
}

/** `list` (a map's objects as JSON objects) as a JsonText whose text is written from the typed arrays. */
export function objectsJsonText(c: CompactObjects, list: JsonList<unknown>, ctx = new TextContext()): JsonText {
  return new JsonText(
    list.length,
    (i) => list.at(i),
    (depth, pad) => objectsText(c, ctx, depth, pad),
  );
}
