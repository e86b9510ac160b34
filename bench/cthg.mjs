// CTHG sprite pixel decoding speed (megapixels per second), next to a plain C
// decoder of the same format (bench/native/cthg_rle.c, built here with gcc -O2).
// Run `npm run build` first: this imports the library from dist/.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodePixels, decodePixelsInto, encodePixels } from '../dist/formats/cthg/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const build = path.join(here, '.build');
mkdirSync(build, { recursive: true });

// A deterministic set of sprites with every run type: transparent margins,
// opaque bodies, partly transparent glows and recoloured stripes.
let seed = 12345;
const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
const sprites = [];
let totalPx = 0;
for (let n = 0; n < 300; n++) {
  const w = 32 + Math.floor(rnd() * 96);
  const h = 32 + Math.floor(rnd() * 96);
  const img = { width: w, height: h, data: new Uint8Array(w * h * 4) };
  const map = new Uint8Array(w * h);
  const cx = w / 2,
    cy = h / 2;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const r = Math.hypot((x - cx) / cx, (y - cy) / cy);
      const i = y * w + x;
      if (r > 1) continue; // transparent
      const c = [Math.floor(rnd() * 256), Math.floor(rnd() * 256), Math.floor(rnd() * 256)];
      if (r > 0.85)
        img.data.set([...c, 96], i * 4); // glow: partial alpha
      else {
        img.data.set([...c, 255], i * 4);
        if (Math.floor(y / 6) % 3 === 1) map[i] = 1 + (Math.floor(x / 10) % 2); // recolour stripes
      }
    }
  }
  const data = encodePixels(img, { recolour: map });
  sprites.push({ w, h, data });
  totalPx += w * h;
}
const fileBytes = 4 + sprites.reduce((a, s) => a + 8 + s.data.length, 0);
const file = new Uint8Array(fileBytes);
const dv = new DataView(file.buffer);
dv.setUint32(0, sprites.length, true);
let p = 4;
for (const s of sprites) {
  dv.setUint16(p, s.w, true);
  dv.setUint16(p + 2, s.h, true);
  dv.setUint32(p + 4, s.data.length, true);
  file.set(s.data, p + 8);
  p += 8 + s.data.length;
}
const binPath = path.join(build, 'cthg_sprites.bin');
writeFileSync(binPath, file);

// Timed in process CPU time (user + system), not wall time: the machine is
// shared and busy, and CPU time is what the decoder itself costs. For JS it
// includes the garbage collector's and compiler's threads, so it is the
// conservative side.
function cpuSeconds() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

function timeJs(seconds) {
  let check = 0;
  const t0 = cpuSeconds();
  let reps = 0;
  let t;
  do {
    for (const s of sprites) check += decodePixels(s.data, s.w, s.h).data[(s.w * s.h * 2) & ~3];
    reps++;
    t = cpuSeconds() - t0;
  } while (t < seconds);
  return (totalPx * reps) / t / 1e6 + check * 0;
}

// The same work as the C loop: one reused output buffer, cleared, then decoded into.
const shared = new Uint8Array(128 * 128 * 4);
function timeJsInto(seconds) {
  let check = 0;
  const t0 = cpuSeconds();
  let reps = 0;
  let t;
  do {
    for (const s of sprites) {
      const out = shared.subarray(0, s.w * s.h * 4);
      out.fill(0);
      decodePixelsInto(out, s.data, s.w, s.h);
      check += out[(s.w * s.h * 2) & ~3];
    }
    reps++;
    t = cpuSeconds() - t0;
  } while (t < seconds);
  return (totalPx * reps) / t / 1e6 + check * 0;
}

console.log(`cthg: ${sprites.length} sprites, ${(totalPx / 1e6).toFixed(2)} Mpx, ${(fileBytes / 1e6).toFixed(2)} MB of RLE data`);
// The machine is shared: alternate short JS and C rounds and keep each one's best.
const ROUNDS = 7;
const ROUND_S = 0.3;
let exe = path.join(build, 'cthg_rle');
try {
  execFileSync('gcc', ['-O2', '-o', exe, path.join(here, 'native', 'cthg_rle.c')], { stdio: 'inherit' });
} catch (e) {
  console.log(`cthg: C decoder unavailable (${e.message.split('\n')[0]})`);
  exe = null;
}
for (let w = 0; w < 5; w++) for (const s of sprites) decodePixels(s.data, s.w, s.h);
let js = 0;
let jsInto = 0;
let c = 0;
for (let r = 0; r < ROUNDS; r++) {
  js = Math.max(js, timeJs(ROUND_S));
  jsInto = Math.max(jsInto, timeJsInto(ROUND_S));
  if (exe) {
    const out = execFileSync(exe, [binPath, String(ROUND_S)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    c = Math.max(c, Number(/Mpx\/s ([\d.]+)/.exec(out)[1]));
  }
}
console.log(`cthg: JS decodePixels (new image per sprite)   ${js.toFixed(1)} Mpx/s (best of ${ROUNDS}, CPU time)`);
console.log(`cthg: JS decodePixelsInto (reused buffer)     ${jsInto.toFixed(1)} Mpx/s`);
if (exe) {
  console.log(`cthg: C decoder, gcc -O2 (reused buffer)      ${c.toFixed(1)} Mpx/s`);
  console.log(
    `cthg: JS / C = ${(jsInto / c).toFixed(2)}x same work (target >= 0.40x); ${(js / c).toFixed(2)}x with a new image per sprite`,
  );
}
