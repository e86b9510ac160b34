// LZF: sprat against liblzf (C, Debian's liblzf-dev, a persistent child
// process interleaved with the JS rounds) and the npm package lzfjs, on the
// same SpriteTile-like level and the same compressed stream. C's outputs are
// compared byte for byte with sprat's (its compressed stream with sprat's
// `liblzf` flavour, its decompressed bytes with the input).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { beginSuite, compare, config, log, sameBytes } from './lib.mjs';
import { askOk, startNative, tempDir } from './native.mjs';
import { sprat } from './sprat.mjs';

const require = createRequire(import.meta.url);
const { compress, decompress, decompressInto, decompressView } = sprat.lzf;
const { addLayer, createLevel, readSpriteTile, serializeLevel } = sprat.spritetile;

/** A level like the TileEditor's, scaled up: 3 layers of side x side cells, mostly empty, with terrain, decorations and runs. */
export function makeLevel(side = 700) {
  let s = 12345;
  const rnd = (n) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 8) % n;
  };
  const level = createLevel();
  const W = side;
  const H = side;
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

/** liblzf's peer: null (with a printed reason) when it cannot be built. */
function liblzf() {
  const c = startNative('lzfbench.c', { include: ['/usr/include/liblzf'], libs: ['-llzf'], headers: ['lzf.h'] });
  if (c.why) {
    log(`liblzf C: skipped (${c.why})`);
    if (process.env.CI) throw new Error(`liblzf C peer unavailable in CI: ${c.why}`);
    return null;
  }
  return c;
}

export async function run() {
  beginSuite('lzf');
  const side = config.mode === 'tiny' ? 60 : config.mode === 'quick' ? 400 : 700;
  const raw = makeLevel(side);
  const n = raw.length;
  log(`input: ${(n / 1e6).toFixed(2)} MB SpriteTile-like level (3 layers of ${side}x${side} cells)`);
  const packed = { clzf2: compress(raw, 'clzf2'), liblzf: compress(raw, 'liblzf'), best: compress(raw, 'best') };
  for (const [f, p] of Object.entries(packed)) {
    const diff = sameBytes(decompress(p), raw);
    if (diff) throw new Error(`LZF round trip (${f}): ${diff}`);
  }
  const lzfjs = require('lzfjs');
  const dir = tempDir();
  const rawFile = path.join(dir, 'level.raw');
  const packedFile = path.join(dir, 'level.lzf');
  writeFileSync(rawFile, raw);
  // Every decoder decodes this one stream: liblzf's own format, as sprat's `liblzf` flavour writes it (and C, checked below).
  writeFileSync(packedFile, packed.liblzf);
  const c = liblzf();
  try {
    const cPeer = (cmd, outCmd, outName) =>
      c && {
        name: cmd === 'c' ? 'liblzf C' : cmd === 'd' ? 'liblzf C' : 'liblzf C, reused buffer',
        external: {
          async output() {
            await askOk(c, `${cmd} 1`);
            const f = path.join(dir, outName);
            await askOk(c, `${outCmd} ${f}`);
            return readFileSync(f);
          },
          async round(reps) {
            return Number((await askOk(c, `${cmd} ${reps}`)).split(' ')[0]);
          },
        },
      };
    if (c) {
      await askOk(c, `raw ${rawFile}`);
      await askOk(c, `packed ${packedFile}`);
    }
    await compare(`LZF decompress ${(n / 1e6).toFixed(1)} MB (the same liblzf stream)`, {
      amount: n,
      unit: 'MB/s',
      peers: [
        { name: 'sprat decompress', fn: () => decompress(packed.liblzf) },
        cPeer('d', 'wd', 'c.out'),
        cPeer('dr', 'wd', 'c2.out'),
        { name: 'lzfjs', fn: () => lzfjs.decompress(packed.liblzf) },
      ].filter(Boolean),
      note: 'no target here: the target (>= 0.8x liblzf) is for decoding into the caller\'s memory (the next two tables). decompress returns a new array each call (decoded in WebAssembly memory, then copied out); C "new buffer": malloc per call, as a function returning the data must; "reused buffer": into one buffer.',
    });
    // One buffer of the caller's, reused every call (as C's reused buffer): the output is written into it.
    const dest = new Uint8Array(n);
    await compare(`LZF decompress ${(n / 1e6).toFixed(1)} MB into the caller's buffer (decompressInto)`, {
      amount: n,
      unit: 'MB/s',
      peers: [
        {
          name: 'sprat decompressInto',
          fn: () => {
            if (decompressInto(packed.liblzf, dest) !== n) throw new Error('decompressInto: wrong length');
            return dest;
          },
        },
        cPeer('dr', 'wd', 'c4.out'),
      ].filter(Boolean),
      target: c ? { peer: 'liblzf C, reused buffer', ratio: 0.8 } : undefined,
      note: "decoded in WebAssembly a 128 KiB window at a time, each window copied into the caller's buffer; C decodes into one reused buffer.",
    });
    await compare(`LZF decompress ${(n / 1e6).toFixed(1)} MB into memory the caller reads in place (decompressView)`, {
      amount: n,
      unit: 'MB/s',
      peers: [{ name: 'sprat decompressView', fn: () => decompressView(packed.liblzf) }, cPeer('dr', 'wd', 'c3.out')].filter(Boolean),
      target: c ? { peer: 'liblzf C, reused buffer', ratio: 0.8 } : undefined,
      note: 'the WebAssembly memory viewed without a copy (valid until the next sprat/lzf call), against C decoding into one reused buffer.',
    });
    // Compression: the liblzf flavour must give C's stream byte for byte; the others are checked by decoding them.
    const roundTrip = (_a, b) => sameBytes(decompress(b instanceof Uint8Array ? b : new Uint8Array(b)), raw);
    for (const flavour of ['liblzf', 'clzf2', 'best']) {
      if (flavour === 'best' && config.mode !== 'full' && config.mode !== 'tiny') continue;
      const cp = cPeer('c', 'wc', `c-${flavour}.out`);
      if (cp && flavour !== 'liblzf') {
        cp.check = (_a, b) => roundTrip(_a, b);
        cp.checkNote = 'decodes to the input (a different stream)';
      }
      await compare(`LZF compress ${(n / 1e6).toFixed(1)} MB, sprat's ${flavour} flavour`, {
        amount: n,
        unit: 'MB/s',
        peers: [
          { name: `sprat compress ${flavour}`, fn: () => compress(raw, flavour) },
          cp,
          { name: 'lzfjs', fn: () => lzfjs.compress(raw), check: roundTrip, checkNote: 'decodes to the input (a different stream)' },
        ].filter(Boolean),
        checkNote: 'equal bytes',
        target: c && flavour !== 'best' ? { peer: 'liblzf C', ratio: 0.3 } : undefined,
      });
    }
    await compare(`SpriteTile read ${(n / 1e6).toFixed(1)} MB level (decompress + parse)`, {
      amount: n,
      unit: 'MB/s',
      peers: [
        { name: 'sprat readSpriteTile', fn: () => readSpriteTile(packed.clzf2) },
        { name: 'sprat decompress alone', fn: () => decompress(packed.clzf2), check: false, checkNote: 'part of the work' },
      ],
      note: 'target: the whole read within 2x the decompression alone (ratio >= 0.5x)',
      target: { peer: 'sprat decompress alone', ratio: 0.5 },
    });
  } finally {
    c?.close();
  }
}
