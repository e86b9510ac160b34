// Compositing and animation-encoding throughput. Run `npm run build` first.
// Prints megapixels per second (sprite pixels drawn, or frame pixels encoded)
// and the ratio against the slow per-pixel reference compositor of the tests.
// Sprite pixels are those the sprite covers on the canvas (its area times the
// scale factors); no draw is clipped, and each case draws onto a fresh opaque
// 1024² canvas, so a figure does not depend on the cases run before it.
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as path from 'node:path';
import ts from 'typescript';
import * as os from 'node:os';
import { createImage, fillImage } from '../dist/render/image.js';
import { drawImage } from '../dist/render/compose.js';
import { compose, rotate, scale, translate } from '../dist/render/matrix.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The reference compositor from test/render/reference.ts, transpiled and pointed at dist/. */
async function loadReference() {
  const srcFile = path.join(here, '../test/render/reference.ts');
  const js = ts
    .transpileModule(readFileSync(srcFile, 'utf8'), { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } })
    .outputText.replaceAll('../../src/render/', '../../dist/render/');
  const dir = path.join(here, '.build');
  mkdirSync(dir, { recursive: true });
  const out = path.join(dir, 'reference.mjs');
  writeFileSync(out, js);
  return import(pathToFileURL(out).href);
}

/** A 256×256 sprite: an opaque disc with a soft (semi-transparent) rim, transparent corners. */
function sprite(n = 256) {
  const img = createImage(n, n);
  const c = n / 2;
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const r = Math.hypot(x + 0.5 - c, y + 0.5 - c);
      const o = (y * n + x) * 4;
      img.data[o] = x;
      img.data[o + 1] = y;
      img.data[o + 2] = (x * y) & 255;
      img.data[o + 3] = r < c - 8 ? 255 : r < c ? Math.round(((c - r) / 8) * 255) : 0;
    }
  }
  return img;
}

function opaque(n = 256) {
  const img = sprite(n);
  for (let i = 3; i < img.data.length; i += 4) img.data[i] = 255;
  return img;
}

/**
 * Runs fn(i) repeatedly in 3 rounds of about ms/3 milliseconds each; returns
 * the best round's megapixels per second (px per call given). The machine is
 * shared, so the best round is the least disturbed one.
 */
function rate(fn, pxPerCall, ms = 450) {
  for (let i = 0; i < 3; i++) fn(i);
  let best = 0;
  let calls = 0;
  for (let round = 0; round < 3; round++) {
    const t0 = performance.now();
    let t = t0;
    let n = 0;
    while (t - t0 < ms / 3 || n < 2) {
      fn(calls++);
      n++;
      t = performance.now();
    }
    best = Math.max(best, (n * pxPerCall) / ((t - t0) / 1000) / 1e6);
  }
  return best;
}

const fmt = (x) => x.toFixed(x < 10 ? 2 : 1).padStart(8);

/** How busy the machine is: a plain typed-array loop's speed, and the load average. */
function baseline() {
  const a = new Uint8Array(1 << 20);
  let s = 0;
  const mps = rate(
    () => {
      let t = 0;
      for (let i = 0; i < a.length; i++) t = (t + (a[i] ^ i)) | 0;
      s ^= t;
    },
    a.length,
    300,
  );
  const load = os.loadavg()[0];
  console.log(`baseline: plain byte loop ${fmt(mps)} M iterations/s; load average ${load.toFixed(1)} on ${os.cpus().length} cores`);
  return s;
}

export async function run() {
  baseline();
  const ref = await loadReference();
  const canvas = () => {
    const c = createImage(1024, 1024);
    fillImage(c, 96, 80, 64, 255);
    return c;
  };
  const spr = sprite();
  const opq = opaque();
  const N = 256 * 256;
  const pos = (i) => translate((i * 97) % 768, (i * 61) % 768);
  // Positions for transformed draws whose bounding box is `size` px: never clipped, so every sprite pixel counted is drawn.
  const posIn = (i, size) => translate((i * 97) % (1024 - size), (i * 61) % (1024 - size));
  const cases = [
    ['blit opaque 256² → 1024²', opq, (i) => ({ transform: pos(i) })],
    ['blit sprite (disc, soft rim)', spr, (i) => ({ transform: pos(i) })],
    ['blit sprite, opacity 0.5', spr, (i) => ({ transform: pos(i), opacity: 0.5 })],
    ['flip X + scale 2, nearest', spr, (i) => ({ transform: compose(scale(-2, 2), translate(600, 100 + (i % 8))) }), 4],
    ['rotate 90°, nearest', spr, (i) => ({ transform: compose(rotate(90), pos(i), translate(256, 0)) })],
    ['rotate 30°, nearest', spr, (i) => ({ transform: compose(rotate(30), posIn(i, 350), translate(128, 0)) })],
    [
      'rotate 30°, bilinear, opaque',
      opq,
      (i) => ({ transform: compose(rotate(30), posIn(i, 350), translate(128, 0)), filter: 'bilinear' }),
    ],
    [
      'rotate 30°, bilinear, opacity 0.5',
      spr,
      (i) => ({ transform: compose(rotate(30), posIn(i, 350), translate(128, 0)), filter: 'bilinear', opacity: 0.5 }),
    ],
    // Counted as destination pixels covered: the sprite's 256² × 1.3².
    [
      'rotate 30° + scale 1.3, bilinear',
      spr,
      (i) => ({ transform: compose(rotate(30), scale(1.3), posIn(i, 456), translate(167, 0)), filter: 'bilinear' }),
      1.69,
    ],
  ];
  console.log('compositing (Mpx/s of sprite pixels; reference = the per-pixel reference compositor)');
  console.log('  (best of 3 rounds each)');
  for (const [name, src, opts, areaScale = 1] of cases) {
    const px = N * areaScale;
    // A fresh opaque canvas per measurement (like a game screen): it stays opaque, so every case blends onto
    // the same kind of pixels whatever ran before (semi-transparent leftovers take the slower general blend).
    let dst = canvas();
    const fast = rate((i) => drawImage(dst, src, opts(i)), px);
    dst = canvas();
    const slow = rate((i) => ref.refDrawImage(dst, src, opts(i)), px, 300);
    console.log(`  ${name.padEnd(34)} ${fmt(fast)} Mpx/s   reference ${fmt(slow)} Mpx/s   ×${(fast / slow).toFixed(1)}`);
  }
  await encoders();
}

async function encoders() {
  let gif, apng, png;
  try {
    gif = await import('../dist/render/gif.js');
    apng = await import('../dist/render/apng.js');
    png = await import('../dist/render/png.js');
  } catch {
    return;
  }
  // 8 frames of a 128×128 sprite turning, with transparency.
  const frames = [];
  for (let k = 0; k < 8; k++) {
    const f = createImage(128, 128);
    drawImage(f, sprite(96), { transform: compose(translate(-48, -48), rotate(k * 45), translate(64, 64)), filter: 'bilinear' });
    frames.push(f);
  }
  const delays = frames.map(() => 100);
  const px = frames.length * 128 * 128;
  console.log('animation encoding (8 frames 128×128, Mpx/s of frame pixels)');
  const g = gif.encodeGif(frames, delays);
  const a = apng.encodeApng(frames, delays);
  console.log(`  GIF  (gifenc)            ${fmt(rate(() => gif.encodeGif(frames, delays), px, 600))} Mpx/s   ${g.length} bytes`);
  console.log(`  APNG (own writer)        ${fmt(rate(() => apng.encodeApng(frames, delays), px, 600))} Mpx/s   ${a.length} bytes`);
  const { encode } = await import('fast-png');
  const fp = (f) => encode({ width: f.width, height: f.height, data: f.data, channels: 4, depth: 8 });
  const size = (enc) => frames.map(enc).reduce((s, b) => s + b.length, 0);
  console.log(
    `  8 × encodePng (own)      ${fmt(rate(() => frames.forEach((f) => png.encodePng(f)), px, 600))} Mpx/s   ${size((f) => png.encodePng(f))} bytes`,
  );
  console.log(`  8 × PNG (fast-png peer)  ${fmt(rate(() => frames.forEach(fp), px, 600))} Mpx/s   ${size(fp)} bytes`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await run();
