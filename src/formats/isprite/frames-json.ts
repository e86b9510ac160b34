/**
 * The `frames` of `inspect --json` for a document whose frames are all as
 * the reader made them (compact.ts): its JSON text written straight from
 * the element records into a byte buffer, a chunk at a time, with no
 * element object, number or string made on the way (a 100 MB file's text is
 * about twelve times its size; made through objects, the garbage alone
 * would cost several times the file in memory). The text is exactly what
 * JSON.stringify writes for the frames' JSON (inspect.ts) at that depth:
 * test/isprite/inspect-json.test.ts compares the two.
 */
import { JsonText, type JsonList } from '../../binary/json-array.js';
import { JSON_OUT_CHUNK as CHUNK, JsonOut } from '../../binary/json-out.js';
import { compactElements, type CompactElements } from './compact.js';
import type { IspriteFrame } from './model.js';
import { ATTACHMENT, COLLISION_CIRCLE, COLLISION_RECT, ELEMENT, EXPANDED_GRAPHIC, MARKER, NO_NAME } from './records.js';

const encoder = new TextEncoder();
const NULL = encoder.encode('null');

/** JSON text built as UTF-8 bytes (the shared JsonOut), with ISPRITE's fixed-point values and name indices. */
class Out extends JsonOut {
  /**
   * The 24-bit fixed-point value at `p` of `s` (int16, then a u8 of 1/256)
   * as String(value) writes it: value = units / 256 has at most 5 integer
   * and 8 fraction digits, well within a double's precision, so its
   * shortest round-trip form is its exact decimal form (no exponent: the
   * smallest non-zero magnitude is 1/256).
   */
  fx(s: Uint8Array, p: number): void {
    // int16 * 256 + the fraction byte.
    let units = (((s[p]! | (s[p + 1]! << 8)) << 16) >> 8) + s[p + 2]!;
    // Room for all of it ("-32768.99609375") and for num's own request after
    // the sign, so that `b` stays the buffer.
    const b = this.room(32);
    if (units < 0) {
      b[this.pos++] = 45; // -
      units = -units;
    }
    this.num(units >>> 8);
    const frac = units & 255;
    if (frac === 0) return;
    // frac / 256 = frac * 390625 / 10^8: eight digits, trailing zeros dropped.
    let d = frac * 390625;
    let n = 8;
    while (d % 10 === 0) {
      d /= 10;
      n--;
    }
    let q = this.pos;
    b[q++] = 46; // .
    q += n;
    this.pos = q;
    for (let i = 0; i < n; i++, d = Math.floor(d / 10)) b[--q] = 48 + (d % 10);
  }

  /** A u16 name index as the JSON shows it (null for none). */
  name(n: number): void {
    if (n === NO_NAME) this.raw(NULL);
    else this.num(n);
  }
}

/** The constant parts of the text at one depth, as bytes. */
function parts(depth: number, pad: (n: number) => string) {
  const e = (s: string) => encoder.encode(s);
  const item = pad(depth + 1);
  const fkey = pad(depth + 2);
  const el = pad(depth + 3);
  const k = pad(depth + 4);
  /** `,\n<pad>"key": ` */
  const lead = (key: string) => e(`,\n${k}"${key}": `);
  return {
    frameOpen: e(`\n${item}{\n${fkey}"holdTime": `),
    nextFrameOpen: e(`,\n${item}{\n${fkey}"holdTime": `),
    loopPoint: e(`,\n${fkey}"loopPoint": `),
    label: e(`,\n${fkey}"label": `),
    triggers: e(`,\n${fkey}"triggers": `),
    notes: e(`,\n${fkey}"notes": `),
    elementsEmpty: e(`,\n${fkey}"elements": []\n${item}}`),
    elementsOpen: e(`,\n${fkey}"elements": [`),
    elementsClose: e(`\n${fkey}]\n${item}}`),
    close: e(`\n${pad(depth)}]`),
    first: e(`\n${el}{\n${k}"type": `),
    next: e(`,\n${el}{\n${k}"type": `),
    end: e(`\n${el}}`),
    graphic: e('"graphic"'),
    attachment: e('"attachment"'),
    rect: e('"rect"'),
    circle: e('"circle"'),
    unknown: e('"unknown"'),
    expanded: lead('expanded'),
    name: lead('name'),
    slice: lead('slice'),
    id: lead('id'),
    x: lead('x'),
    y: lead('y'),
    flipX: lead('flipX'),
    flipY: lead('flipY'),
    originX: lead('originX'),
    originY: lead('originY'),
    rotation: lead('rotation'),
    scaleX: lead('scaleX'),
    scaleY: lead('scaleY'),
    opacity: lead('opacity'),
    width: lead('width'),
    height: lead('height'),
    radius: lead('radius'),
    marker: lead('marker'),
    size: lead('size'),
  };
}

const G = EXPANDED_GRAPHIC.at;
const A = ATTACHMENT.at;
const R = COLLISION_RECT.at;
const CI = COLLISION_CIRCLE.at;
const EL_NAME = ELEMENT.at.name;
const EL_SIZE = ELEMENT.at.size;

type Parts = ReturnType<typeof parts>;

/** One element record's JSON object (the element as decodeElement makes it, or an unknown one's summary). */
function writeElement(o: Out, c: Parts, s: Uint8Array, q: number): void {
  const m = s[q]!;
  const name = s[q + EL_NAME]! | (s[q + EL_NAME + 1]! << 8);
  if (m === MARKER.simple || m === MARKER.expanded) {
    o.raw(c.graphic);
    o.raw(c.expanded);
    o.bool(m === MARKER.expanded);
    o.raw(c.name);
    o.name(name);
    o.raw(c.slice);
    o.num(s[q + G.slice]! | (s[q + G.slice + 1]! << 8));
    o.raw(c.x);
    o.fx(s, q + G.x);
    o.raw(c.y);
    o.fx(s, q + G.y);
    const mirror = s[q + G.mirror]!;
    o.raw(c.flipX);
    o.bool((mirror & 1) !== 0);
    o.raw(c.flipY);
    o.bool((mirror & 2) !== 0);
    if (m === MARKER.expanded) {
      o.raw(c.originX);
      o.fx(s, q + G.originX);
      o.raw(c.originY);
      o.fx(s, q + G.originY);
      o.raw(c.rotation);
      o.fx(s, q + G.rotation);
      o.raw(c.scaleX);
      o.fx(s, q + G.scaleX);
      o.raw(c.scaleY);
      o.fx(s, q + G.scaleY);
      o.raw(c.opacity);
      o.num(s[q + G.opacity]! | (s[q + G.opacity + 1]! << 8));
    }
    return;
  }
  if (m === MARKER.attachment) {
    o.raw(c.attachment);
    o.raw(c.name);
    o.name(name);
    o.raw(c.id);
    o.num(s[q + A.id]! | (s[q + A.id + 1]! << 8));
    o.raw(c.x);
    o.fx(s, q + A.x);
    o.raw(c.y);
    o.fx(s, q + A.y);
    const mirror = s[q + A.mirror]!;
    o.raw(c.flipX);
    o.bool((mirror & 1) !== 0);
    o.raw(c.flipY);
    o.bool((mirror & 2) !== 0);
    o.raw(c.rotation);
    o.fx(s, q + A.rotation);
    o.raw(c.scaleX);
    o.fx(s, q + A.scaleX);
    o.raw(c.scaleY);
    o.fx(s, q + A.scaleY);
    o.raw(c.opacity);
    o.num(s[q + A.opacity]! | (s[q + A.opacity + 1]! << 8));
    return;
  }
  const shape = m === MARKER.collision ? s[q + R.shape] : -1;
  if (shape === MARKER.rect) {
    o.raw(c.rect);
    o.raw(c.name);
    o.name(name);
    o.raw(c.id);
    o.num(s[q + R.id]! | (s[q + R.id + 1]! << 8));
    o.raw(c.x);
    o.fx(s, q + R.x);
    o.raw(c.y);
    o.fx(s, q + R.y);
    o.raw(c.width);
    o.fx(s, q + R.width);
    o.raw(c.height);
    o.fx(s, q + R.height);
    o.raw(c.rotation);
    o.fx(s, q + R.rotation);
  } else if (shape === MARKER.circle) {
    o.raw(c.circle);
    o.raw(c.name);
    o.name(name);
    o.raw(c.id);
    o.num(s[q + CI.id]! | (s[q + CI.id + 1]! << 8));
    o.raw(c.x);
    o.fx(s, q + CI.x);
    o.raw(c.y);
    o.fx(s, q + CI.y);
    o.raw(c.radius);
    o.fx(s, q + CI.radius);
  } else {
    o.raw(c.unknown);
    o.raw(c.marker);
    o.num(m);
    o.raw(c.name);
    o.name(name);
    o.raw(c.size);
    o.num(s[q + EL_SIZE]!);
  }
}

function* framesText(frames: readonly IspriteFrame[], compact: CompactElements[], depth: number, pad: (n: number) => string) {
  if (frames.length === 0) {
    yield '[]';
    return;
  }
  const c = parts(depth, pad);
  const o = new Out();
  o.raw(encoder.encode('['));
  for (let f = 0; f < frames.length; f++) {
    const fr = frames[f]!;
    o.raw(f === 0 ? c.frameOpen : c.nextFrameOpen);
    o.num(fr.holdTime);
    o.raw(c.loopPoint);
    o.bool(fr.loopPoint);
    o.raw(c.label);
    o.str(fr.label);
    o.raw(c.triggers);
    o.str(fr.triggers);
    o.raw(c.notes);
    o.str(fr.notes);
    const { store, at, count } = compact[f]!;
    if (count === 0) {
      o.raw(c.elementsEmpty);
      continue;
    }
    o.raw(c.elementsOpen);
    const s = store.bytes;
    for (let e = 0, q = at; e < count; e++, q += ELEMENT.size + s[q + EL_SIZE]!) {
      o.raw(e === 0 ? c.first : c.next);
      writeElement(o, c, s, q);
      o.raw(c.end);
      if (o.pos >= CHUNK) yield o.take();
    }
    o.raw(c.elementsClose);
    if (o.pos >= CHUNK) yield o.take();
  }
  o.raw(c.close);
  yield o.end();
}

/**
 * `list` (the frames' JSON, made as objects) as a JsonText whose text is
 * written from the records, when every frame is compact and its fields are
 * what the text writes (a whole hold time, a boolean loop point, strings);
 * else null (the caller writes `list`).
 */
export function framesJsonText(frames: readonly IspriteFrame[], list: JsonList<unknown>): JsonText | null {
  const compact: CompactElements[] = new Array(frames.length);
  for (let f = 0; f < frames.length; f++) {
    const fr = frames[f]!;
    const c = compactElements(fr);
    const h = fr.holdTime;
    if (!c || h !== h >>> 0 || typeof fr.loopPoint !== 'boolean') return null;
    if (typeof fr.label !== 'string' || typeof fr.triggers !== 'string' || typeof fr.notes !== 'string') return null;
    compact[f] = c;
  }
  return new JsonText(
    list.length,
    (i) => list.at(i),
    (depth, pad) => framesText(frames, compact, depth, pad),
  );
}
