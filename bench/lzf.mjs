// LZF and SpriteTile reading speed on a 10 MB SpriteTile-like level, against
// liblzf (C, built here from Debian's liblzf-dev with gcc -O2 when present)
// and the npm package lzfjs, all in one run. Run `npm run build` first.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { compress, decompress } from '../dist/lzf/index.js';
import { addLayer, createLevel, readSpriteTile, serializeLevel } from '../dist/formats/spritetile/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const MB = 1e6;

/** A level like the TileEditor's, scaled up: 3 layers of 700 × 700 cells, mostly empty, with terrain, decorations and runs. */
function makeLevel() {
  let s = 12345;
  const rnd = (n) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 8) % n;
  };
  const level = createLevel();
  const W = 700;
  const H = 700;
  for (let li = 0; li < 3; li++) {
    const l = addLayer(level, { width: W, height: H, tileSizeX: 0.32, z: -li });
    for (let y = 0; y < H; y++) {
      const ground = 200 + ((y * 7) % 50);
      for (let x = 0; x < W; x++) {
        const i = y * W + x;
        const solid = li === 0 ? (y + ((x >> 4) % 5)) % 60 < 8 || x % 97 < 2 : rnd(100) < (li === 1 ? 12 : 3);
        if (!solid) continue;
        l.tiles[i] = li === 0 ? ground + (x & 3) : 1024 * li + rnd(64);
        l.flags[i] = (rnd(10) === 0 ? 0x8000 : 0) | (rnd(8) === 0 ? 0x1000 : 0) | (rnd(6) === 0 ? 450 : 0);
        if (li === 2) l.order[i] = rnd(4);
        if (rnd(50) === 0) l.trigger[i] = rnd(256);
      }
    }
  }
  return serializeLevel(level);
}

/** The fastest single call (ms) within about `budgetMs`: the machine is shared, and the minimum is what load disturbs least. */
function time(fn, budgetMs = 1000, minCalls = 5) {
  let best = Infinity;
  const t0 = performance.now();
  for (let calls = 0; calls < minCalls || performance.now() - t0 < budgetMs; calls++) {
    const t = performance.now();
    fn();
    best = Math.min(best, performance.now() - t);
  }
  return best;
}

const raw = makeLevel();
const n = raw.length;
const mbs = (ms) => n / MB / (ms / 1000);
const fmt = (v) => v.toFixed(1).padStart(8);
console.log(`input: ${(n / MB).toFixed(2)} MB SpriteTile-like level (3 layers of 700x700 cells)`);

const flavours = ['clzf2', 'liblzf', 'best'];
const packed = {};
const ours = {};
for (const f of flavours) {
  const ms = time(() => (packed[f] = compress(raw, f)), f === 'best' ? 0 : 1000, f === 'best' ? 1 : 5);
  ours[`compress ${f}`] = mbs(ms);
}
for (const f of flavours) {
  const back = decompress(packed[f]);
  if (back.length !== n || Buffer.compare(Buffer.from(back), Buffer.from(raw)) !== 0) throw new Error(`round trip failed (${f})`);
}
const decMs = time(() => decompress(packed.clzf2));
ours.decompress = mbs(decMs);
const readMs = time(() => readSpriteTile(packed.clzf2));
ours['read whole level'] = mbs(readMs);

// liblzf (C)
let native = null;
const include = ['/usr/include/liblzf', '/usr/include'].find((d) => existsSync(path.join(d, 'lzf.h')));
if (include) {
  try {
    const build = path.join(here, '.build');
    mkdirSync(build, { recursive: true });
    const exe = path.join(build, 'lzfbench');
    execFileSync('gcc', ['-O2', '-I', include, '-o', exe, path.join(here, 'lzfbench.c'), '-llzf'], { stdio: 'pipe' });
    const file = path.join(build, 'level.raw');
    writeFileSync(file, raw);
    native = JSON.parse(execFileSync(exe, [file], { encoding: 'utf8' }));
  } catch (e) {
    console.log(`liblzf benchmark failed: ${e.message}`);
  }
} else {
  console.log('liblzf: skipped (install liblzf-dev and gcc to compare with C)');
}

// lzfjs (npm)
const lzfjs = require('lzfjs');
const jsPacked = lzfjs.compress(raw);
const lzfjsDec = mbs(time(() => lzfjs.decompress(packed.liblzf), 0, 2));
const lzfjsComp = mbs(time(() => lzfjs.compress(raw), 0, 3));

console.log('\nsizes (bytes):');
for (const f of flavours)
  console.log(`  ${f.padEnd(8)} ${String(packed[f].length).padStart(9)}  (${((100 * packed[f].length) / n).toFixed(2)}% of input)`);
if (native)
  console.log(
    `  liblzf C ${String(native.compressedBytes).padStart(9)}  (identical to 'liblzf': ${native.compressedBytes === packed.liblzf.length})`,
  );
console.log(`  lzfjs    ${String(jsPacked.length).padStart(9)}`);

console.log('\nMB/s of uncompressed data (higher is better):');
console.log('                          sprat   liblzf C     lzfjs   vs C   vs lzfjs');
const row = (name, v, c, j) =>
  console.log(
    `  ${name.padEnd(20)}${fmt(v)}   ${c ? fmt(c) : '       -'}  ${fmt(j)}  ${c ? (v / c).toFixed(2).padStart(5) + 'x' : '     -'}  ${(v / j).toFixed(1).padStart(7)}x`,
  );
row('decompress', ours.decompress, native?.decompressFreshMBs, lzfjsDec);
if (native) row('  (C into a reused buffer)', ours.decompress, native.decompressMBs, lzfjsDec);
for (const f of flavours) row(`compress ${f}`, ours[`compress ${f}`], native?.compressMBs, lzfjsComp);
console.log(
  `  read whole level    ${fmt(ours['read whole level'])}   (decompress + parse: ${(readMs / decMs).toFixed(2)}x the decompression alone; target <= 2x)`,
);
console.log('\nC decompress: into a newly allocated buffer each call (as sprat returns a new array), and into one reused buffer.');
console.log('targets: decompress >= 0.5x C and >= 20x lzfjs; clzf2 and liblzf compression >= 0.3x C');
