// Hallgeir .spr read/write speed. No other library reads this format, so the
// peers are an unchecked reader building the same objects and a bare
// DataView loop over the same layout: the ratios are the price of the checks.
import { beginSuite, compare, config } from './lib.mjs';
import { sprat } from './sprat.mjs';

const { readHallgeir, writeHallgeir } = sprat.hallgeir;

export function makeSprite(animations, frames) {
  const anims = [];
  for (let a = 0; a < animations; a++) {
    const fr = [];
    for (let f = 0; f < frames; f++) fr.push({ x: f * 32, y: a * 32, delay: 0.05 + (f % 7) / 100, next: (f + 1) % frames });
    anims.push({ name: `animation_${a}`, frames: fr });
  }
  return { kind: 'sprite', littleEndian: true, name: 'bench', texture: 'bench_tex', animations: anims };
}

function bareRead(bytes, le) {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let p = 3; // after the 3-byte identifier
  const str = () => {
    const n = v.getInt32(p, le);
    p += 4 + n;
  };
  str();
  str();
  const na = v.getInt32(p, le);
  p += 4;
  let sum = 0;
  for (let a = 0; a < na; a++) {
    str();
    const nf = v.getInt32(p, le);
    p += 4;
    for (let f = 0; f < nf; f++) {
      sum += v.getInt32(p, le) + v.getInt32(p + 4, le) + v.getFloat64(p + 8, le) + v.getInt32(p + 16, le);
      p += 20;
    }
  }
  return sum;
}

function bareObjects(bytes, le) {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dec = new TextDecoder();
  let p = 3; // the identifier: 3 bytes
  const str = () => {
    const n = v.getInt32(p, le);
    const s = dec.decode(bytes.subarray(p + 4, p + 4 + n));
    p += 4 + n;
    return s;
  };
  const name = str();
  const texture = str();
  const na = v.getInt32(p, le);
  p += 4;
  const animations = [];
  for (let a = 0; a < na; a++) {
    const an = str();
    const nf = v.getInt32(p, le);
    p += 4;
    const frames = new Array(nf);
    for (let f = 0; f < nf; f++, p += 20) {
      frames[f] = { x: v.getInt32(p, le), y: v.getInt32(p + 4, le), delay: v.getFloat64(p + 8, le), next: v.getInt32(p + 16, le) };
    }
    animations.push({ name: an, frames });
  }
  return { name, texture, animations };
}

function forceFrames(doc) {
  for (const a of doc.animations) void a.frames;
  return doc;
}

export async function run() {
  beginSuite('hallgeir');
  const [na, nf] = config.mode === 'tiny' ? [20, 50] : [200, 500];
  const doc = makeSprite(na, nf);
  const le = writeHallgeir(doc);
  const be = writeHallgeir(doc, { endian: 'big' });
  const read = readHallgeir(le, 'sprite');
  const what = `${(le.length / 1e6).toFixed(2)} MB sprite (${na} animations x ${nf} frames)`;
  const same = (a, b) => (JSON.stringify(a.animations) === JSON.stringify(b.animations) ? null : 'animations differ');
  const unchecked = { name: 'unchecked reader, same objects', fn: () => bareObjects(le, true), check: same, checkNote: 'same animations' };
  const bare = { name: 'bare DataView loop (no objects)', fn: () => bareRead(le, true), check: false, checkNote: 'a floor' };
  await compare(`Hallgeir read little-endian ${what}`, {
    amount: le.length,
    peers: [
      { name: 'sprat readHallgeir', fn: () => readHallgeir(le, 'sprite') },
      // The reader keeps the frames as records; this is the cost of making every frame object too.
      { name: 'sprat readHallgeir, every frame made', fn: () => forceFrames(readHallgeir(le, 'sprite')), check: same },
      unchecked,
      bare,
    ],
  });
  await compare(`Hallgeir read big-endian ${what}`, {
    amount: be.length,
    peers: [
      { name: 'sprat readHallgeir (auto: little fails first)', fn: () => readHallgeir(be, 'sprite') },
      { name: 'sprat readHallgeir --endian big', fn: () => readHallgeir(be, 'sprite', { endian: 'big' }), check: same },
      { name: 'unchecked reader, same objects', fn: () => bareObjects(be, false), check: same, checkNote: 'same animations' },
    ],
  });
  await compare(`Hallgeir write ${what}`, {
    amount: le.length,
    peers: [
      { name: 'sprat writeHallgeir', fn: () => writeHallgeir(doc) },
      { name: 'sprat writeHallgeir of a read sprite (records as read)', fn: () => writeHallgeir(read) },
      { name: 'plain copy of the bytes (slice)', fn: () => le.slice() },
    ],
    checkNote: 'equal bytes',
  });
}
