// CTHG sprite pixel decoding speed (megapixels per second) against a plain C
// decoder of the same format (bench/native/cthg_rle.c, gcc -O2, a persistent
// child process interleaved with the JS rounds). The C output (every sprite's
// RGBA pixels) is compared byte for byte with sprat's before timing.
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { beginSuite, compare, config, log } from './lib.mjs';
import { askOk, startNative, tempDir } from './native.mjs';
import { sprat } from './sprat.mjs';

const { decodePixels, decodePixelsInto, encodePixels } = sprat.cthg;

// A deterministic set of sprites with every run type: transparent margins,
// opaque bodies, partly transparent glows and recoloured stripes.
function makeSprites(count) {
  let seed = 12345;
  const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const sprites = [];
  let totalPx = 0;
  for (let n = 0; n < count; n++) {
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
  return { sprites, totalPx, file };
}

export async function run() {
  beginSuite('cthg');
  const { sprites, totalPx, file } = makeSprites(config.mode === 'tiny' ? 10 : 300);
  log(`${sprites.length} sprites, ${(totalPx / 1e6).toFixed(2)} Mpx, ${(file.length / 1e6).toFixed(2)} MB of RLE data`);
  const dir = tempDir();
  const binPath = path.join(dir, 'cthg_sprites.bin');
  writeFileSync(binPath, file);
  const c = startNative('native/cthg_rle.c', { args: [binPath] });
  if (c.why) {
    log(`C decoder: skipped (${c.why})`);
    if (process.env.CI) throw new Error(`C decoder unavailable in CI: ${c.why}`);
  }
  const all = () => {
    const out = new Uint8Array(totalPx * 4);
    let o = 0;
    for (const s of sprites) {
      out.set(decodePixels(s.data, s.w, s.h).data, o);
      o += s.w * s.h * 4;
    }
    return out;
  };
  const shared = new Uint8Array(128 * 128 * 4);
  try {
    await compare(`CTHG RLE decode, ${sprites.length} sprites (${(totalPx / 1e6).toFixed(2)} Mpx)`, {
      amount: totalPx,
      unit: 'Mpx/s',
      peers: [
        {
          name: 'sprat decodePixelsInto (reused buffer)',
          fn: () => {
            for (const s of sprites) {
              const out = shared.subarray(0, s.w * s.h * 4);
              out.fill(0);
              decodePixelsInto(out, s.data, s.w, s.h);
            }
          },
          output: () => {
            const out = new Uint8Array(totalPx * 4);
            let o = 0;
            for (const s of sprites) {
              decodePixelsInto(out.subarray(o, o + s.w * s.h * 4), s.data, s.w, s.h);
              o += s.w * s.h * 4;
            }
            return out;
          },
        },
        {
          name: 'sprat decodePixels (new image each)',
          fn: () => {
            for (const s of sprites) decodePixels(s.data, s.w, s.h);
          },
          output: all,
        },
        !c.why && {
          name: 'C, gcc -O2 (reused buffer)',
          external: {
            async output() {
              const f = path.join(dir, 'c.out');
              await askOk(c, `w ${f}`);
              return readFileSync(f);
            },
            round: async (reps) => Number(await askOk(c, `d ${reps}`)),
          },
        },
      ].filter(Boolean),
      checkNote: 'equal bytes',
      target: c.why ? undefined : { peer: 'C, gcc -O2 (reused buffer)', ratio: 0.4 },
    });
  } finally {
    if (!c.why) c.close();
  }
}
