// Hallgeir .spr read/write speed (import from dist/: run `npm run build` first).
// No other library reads this format, so the peer is a bare DataView loop over
// the same layout with no checks: the ratio is the price of the checks.
import { readHallgeir, writeHallgeir } from '../dist/formats/hallgeir/index.js';

function makeSprite(animations, frames) {
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

function time(fn, bytes, minMs = 300) {
  let runs = 0;
  const t0 = performance.now();
  let t;
  do {
    fn();
    runs++;
    t = performance.now() - t0;
  } while (t < minMs);
  return (bytes * runs) / 1e6 / (t / 1000);
}

const doc = makeSprite(200, 500);
for (let i = 0; i < 3; i++) readHallgeir(writeHallgeir(doc), 'sprite'); // warm up
const le = writeHallgeir(doc);
const be = writeHallgeir(doc, { endian: 'big' });
console.log(`hallgeir: sprite of ${(le.length / 1e6).toFixed(2)} MB (200 animations x 500 frames)`);
const rows = [
  ['read little-endian', time(() => readHallgeir(le, 'sprite'), le.length)],
  ['read big-endian (auto: little fails first)', time(() => readHallgeir(be, 'sprite'), be.length)],
  ['read big-endian (--endian big)', time(() => readHallgeir(be, 'sprite', { endian: 'big' }), be.length)],
  ['write little-endian', time(() => writeHallgeir(doc), le.length)],
  ['unchecked reader building the same objects (peer)', time(() => bareObjects(le, true), le.length)],
  ['bare DataView loop (no checks, no objects)', time(() => bareRead(le, true), le.length)],
];
const peer = rows[rows.length - 2][1];
for (const [name, mbs] of rows) console.log(`  ${name.padEnd(52)} ${mbs.toFixed(1).padStart(8)} MB/s  ${(mbs / peer).toFixed(2)}x peer`);
