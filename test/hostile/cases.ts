/**
 * The hostile inputs (and generated ones like them), as files
 * written into a folder. Each case names its main input; `play` gives the
 * format's play options; `pending` names the helper branch whose fix the
 * case needs (see PENDING_OTHER_BRANCH in sweep.test.ts).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { zlibSync } from 'fflate';
import { createIsprite, writeIsprite, type IspriteDocument, type IspriteFrame } from '../../src/formats/isprite/index.js';
import { encodePng } from '../../src/render/png.js';
import { SAMPLES } from '../helpers/paths.js';
import { createImage, fillImage } from '../../src/render/image.js';
import { buildCthgFromImages, writeCthg } from '../../src/formats/cthg/index.js';
import { asepriteBlendBomb, bigSpriteTile, tmxPolygon, tmxRectangles } from '../../src/fuzz/work.js';

// The work bombs' generators are the fuzzer's (src/fuzz/work.ts): one of each.
export { asepriteBlendBomb, bigSpriteTile, tmxPolygon, tmxRectangles };

export interface HostileCase {
  id: string;
  /** What it does to an unprotected sprat (the report's words where it has them). */
  what: string;
  /** Files to write (relative paths); strings are written as UTF-8. */
  files: Record<string, Uint8Array | string>;
  /** The input every command is given. */
  input: string;
  /** Extra arguments for `play` (ISPRITE needs --ticks). */
  play?: string[];
  /** Run only these commands (default: all of them). */
  only?: readonly string[];
  /** Makes the input itself (a FIFO) instead of writing it. */
  special?: 'fifo';
  /** More command lines to run on the case's folder (`new`, `check`, `diff`, batches), each with its run name. */
  extra?: { name: string; args: string[] }[];
  /**
   * A smaller V8 heap for some runs (MiB, by run name) than the sweep's 768: where a fix brought a run's
   * need well down, so that a regression runs out of heap (a resident-size bound would measure how lazy
   * the collector is on a busy machine: these runs peaked at 420-550 MiB quiet and 880-1000 MiB in CI; at 384 MiB one ran out, at 512 all passed).
   */
  heapMb?: Record<string, number>;
}

const png = (w = 1, h = 1): Uint8Array => encodePng(createImage(w, h));
/** An opaque grey PNG (a sheet `new` finds cells in). */
function opaquePng(w: number, h: number): Uint8Array {
  const img = createImage(w, h);
  fillImage(img, 120, 120, 120, 255);
  return encodePng(img);
}

// ------------------------------------------------------------------ Solarus

/** A 0.9-syntax Solarus sheet: one animation (named `name`), one direction of `frames` frames of w x h. */
export function solarus(frames: number, image = 'x.png', delay = 100, w = 1, h = 1, name = 'a'): string {
  return `${name} ${image} 1 ${delay} 0\n0\t0\t${w}\t${h}\t0\t0\t${frames}\t1\n`;
}

// ------------------------------------------------------------------ ISPRITE

function isprite(build: (doc: IspriteDocument) => void): Uint8Array {
  const doc = createIsprite(30);
  doc.textures.push({ path: 'tex', nearest: true });
  build(doc);
  return writeIsprite(doc);
}

const frame = (f: Partial<IspriteFrame>): IspriteFrame => ({
  holdTime: 1,
  loopPoint: false,
  label: '',
  triggers: '',
  notes: '',
  elements: [],
  ...f,
});

// ------------------------------------------------------------------ CTHG

/** One frame of `n` translucent 200x200 elements, all at the origin. */
function cthgManyElements(n: number): Uint8Array {
  const img = createImage(200, 200);
  fillImage(img, 200, 10, 10, 255);
  const elements = Array.from({ length: n }, () => ({ image: 'i.png', x: 0, y: 0, flags: 4 }));
  return writeCthg(buildCthgFromImages({ animations: [{ name: 'a', views: { north: [{ elements }] } }] }, new Map([['i.png', img]])));
}

// ------------------------------------------------------------------ Tiled

function tiledMap(layers: unknown[], tilesets: unknown[] = []): string {
  return JSON.stringify({
    type: 'map',
    version: '1.10',
    tiledversion: '1.10.2',
    orientation: 'orthogonal',
    renderorder: 'right-down',
    infinite: false,
    width: 4,
    height: 3,
    tilewidth: 8,
    tileheight: 8,
    nextlayerid: 2,
    nextobjectid: 1,
    layers,
    tilesets,
  });
}

const tileLayer = (width: number, height: number, data: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'tilelayer',
  id: 1,
  name: 'hostile',
  width,
  height,
  x: 0,
  y: 0,
  opacity: 1,
  visible: true,
  data,
  ...extra,
});

// ------------------------------------------------------------------ PNG bomb

/** One PNG chunk: length, type, data, CRC. */
export function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  let c = ~0;
  for (let i = 4; i < 8 + data.length; i++) {
    c ^= out[i]!;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  dv.setUint32(8 + data.length, ~c >>> 0);
  return out;
}

/** `png` with `chunks` inserted after its IHDR (which encodePng writes first, 33 bytes in). */
export function withChunks(png: Uint8Array, chunks: Uint8Array[]): Uint8Array {
  const parts = [png.subarray(0, 33), ...chunks, png.subarray(33)];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/**
 * A zlib stream of 1 + 258 x `matches` zero bytes at 1032 : 1, written by hand in no time: one
 * dynamic-Huffman deflate block (RFC 1951 3.2.7) whose codes make a length-258, distance-1 match two
 * zero bits (literal/length codes: 285 -> 0, 0 -> 10, 256 -> 11; one distance code, 0), so the
 * block is its header, a literal 0, zero bytes, and the end code.
 */
export function zlibZeros(matches: number): Uint8Array {
  const out = new Uint8Array(2 + 16 + Math.ceil((matches * 2 + 4) / 8) + 4);
  out[0] = 0x78;
  out[1] = 0x01;
  let bit = 16;
  const put = (value: number, n: number) => {
    // LSB first (header fields, extra bits)
    for (let i = 0; i < n; i++, bit++) if ((value >> i) & 1) out[bit >> 3]! |= 1 << (bit & 7);
  };
  const code = (c: string) => {
    // Huffman codes: most significant bit first
    for (const ch of c) put(ch === '1' ? 1 : 0, 1);
  };
  put(1, 1); // BFINAL
  put(2, 2); // dynamic Huffman
  put(29, 5); // 286 literal/length codes
  put(0, 5); // 1 distance code
  put(14, 4); // 18 code length codes
  // code length code lengths in RFC order 16 17 18 0 8 7 9 6 10 5 11 4 12 3 13 2 14 1: 18 -> 1, 2 -> 2, 1 -> 2
  for (const len of [0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2]) put(len, 3);
  // their codes: 18 -> 0, 1 -> 10, 2 -> 11. Lengths: 0: 2, 1-255: 0, 256: 2, 257-284: 0, 285: 1; distance 0: 1.
  code('11');
  code('0');
  put(138 - 11, 7);
  code('0');
  put(117 - 11, 7);
  code('11');
  code('0');
  put(28 - 11, 7);
  code('10');
  code('10');
  code('10'); // the literal 0
  bit += matches * 2; // the matches: 0 (length 258), 0 (distance 1)
  code('11'); // end of block
  const length = 1 + 258 * matches;
  const adler = (((length % 65521) << 16) | 1) >>> 0;
  const at = (bit + 7) >> 3;
  new DataView(out.buffer).setUint32(at, adler);
  return out.subarray(0, at + 4);
}

/** An iCCP chunk whose profile inflates to about `mib` MiB (zlibZeros: about 1 KB a MiB). */
export function iccpBomb(mib: number): Uint8Array {
  const name = new TextEncoder().encode('icc\0\0');
  const z = zlibZeros(Math.ceil((mib * 2 ** 20) / 258));
  const data = new Uint8Array(name.length + z.length);
  data.set(name);
  data.set(z, name.length);
  return pngChunk('iCCP', data);
}

/** A PNG of width x height: IHDR (bit depth, colour type), one IDAT of zlib data `z`, IEND. */
function pngOf(width: number, height: number, depth: number, colour: number, z: Uint8Array): Uint8Array {
  const ihdr = new Uint8Array(13);
  new DataView(ihdr.buffer).setUint32(0, width);
  new DataView(ihdr.buffer).setUint32(4, height);
  ihdr.set([depth, colour, 0, 0, 0], 8);
  return rawPngZ(ihdr, z);
}

/** A PNG: IHDR of `ihdr` (13 bytes), one IDAT of zlib data `z`, IEND. */
function rawPngZ(ihdr: Uint8Array, z: Uint8Array): Uint8Array {
  const parts = [
    new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', z),
    pngChunk('IEND', new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** A 1x1 RGBA PNG whose one IDAT inflates to about `mib` MiB of zeros (the image needs 5 bytes of it). */
export function idatBomb(mib: number): Uint8Array {
  return pngOf(1, 1, 8, 6, zlibZeros(Math.ceil((mib * 2 ** 20) / 258)));
}

/** A 1-bit grey PNG of side x side pixels, all zero: ~110 KB of file, side² x 4 bytes of RGBA. */
export function pngBomb(side = 30000): Uint8Array {
  if (side === 30000 && bomb) return bomb;
  const row = 1 + Math.ceil(side / 8);
  const out = pngOf(side, side, 1, 0, zlibSync(new Uint8Array(row * side), { level: 9 }));
  if (side === 30000) bomb = out;
  return out;
}
let bomb: Uint8Array | undefined;

/** A PNG: IHDR of `ihdr` (13 bytes), one IDAT of `raw` (filter bytes included) compressed, IEND. */
function rawPng(ihdr: Uint8Array, raw: Uint8Array): Uint8Array {
  return rawPngZ(ihdr, zlibSync(raw, { level: 9 }));
}

/**
 * A 1-bit grey PNG of side x side pixels cut into cell x cell cells that all differ: each cell's
 * index in binary along its first rows, the rest black (8192 and 16: 262,144 distinct cells, ~1 MB).
 */
export function distinctCellsPng(side = 8192, cell = 16): Uint8Array {
  const rowBytes = side / 8;
  const raw = new Uint8Array((rowBytes + 1) * side);
  const per = side / cell;
  for (let cy = 0; cy < per; cy++) {
    for (let cx = 0; cx < per; cx++) {
      const index = cy * per + cx;
      for (let b = 0; b < 32 && index >> b; b++) {
        if (!((index >> b) & 1)) continue;
        const x = cx * cell + (b % cell);
        const y = cy * cell + Math.floor(b / cell);
        raw[y * (rowBytes + 1) + 1 + (x >> 3)]! |= 0x80 >> (x & 7);
      }
    }
  }
  const ihdr = new Uint8Array(13);
  new DataView(ihdr.buffer).setUint32(0, side);
  new DataView(ihdr.buffer).setUint32(4, side);
  ihdr.set([1, 0, 0, 0, 0], 8);
  return rawPng(ihdr, raw);
}

function aseprite(image: string, w: number, h: number): string {
  return JSON.stringify({
    frames: {
      'a 0.aseprite': {
        frame: { x: 0, y: 0, w: 16, h: 16 },
        rotated: false,
        trimmed: false,
        spriteSourceSize: { x: 0, y: 0, w: 16, h: 16 },
        sourceSize: { w: 16, h: 16 },
        duration: 100,
      },
    },
    meta: {
      app: 'https://www.aseprite.org/',
      version: '1.3.7-x64',
      image,
      format: 'RGBA8888',
      size: { w, h },
      scale: '1',
      frameTags: [],
      layers: [],
      slices: [],
    },
  });
}

/** The bytes with their last bit flipped (a level that differs in its last cell). */
function flipLast(b: Uint8Array): Uint8Array {
  const out = b.slice();
  out[out.length - 1]! ^= 1;
  return out;
}

// ------------------------------------------------------------------ the cases

export function hostileCases(): HostileCase[] {
  return [
    {
      id: 'solarus-nb-frames-1e9',
      what: 'a 41-byte Solarus sheet with nb_frames 10^9 (every conversion: V8 heap out of memory)',
      files: { 'big.dat': solarus(1e9), 'x.png': png() },
      input: 'big.dat',
    },
    {
      id: 'solarus-nb-frames-1e9-no-image',
      what: 'the same without its image',
      files: { 'big.dat': solarus(1e9) },
      input: 'big.dat',
    },
    {
      id: 'solarus-lua-many-directions',
      what: 'generated: the Lua syntax, 2,000 directions of nb_frames 2^20 each (2^31 frames from 200 KB)',
      files: {
        'lua.dat':
          'animation{\n  name = "a",\n  src_image = "x.png",\n  frame_delay = 100,\n  directions = {\n' +
          '    { x = 0, y = 0, frame_width = 1, frame_height = 1, origin_x = 0, origin_y = 0, num_frames = 1048576 },\n'.repeat(2000) +
          '  },\n}\n',
        'x.png': png(),
      },
      input: 'lua.dat',
    },
    {
      id: 'solarus-60m-1x1-frames',
      what: 'generated: nb_frames 6 x 10^7 of 1x1, under the pixel limit, drawn as an animation',
      files: { 'tiny.dat': solarus(60_000_000, 'x.png', 10), 'x.png': png() },
      input: 'tiny.dat',
      only: ['render-gif', 'render-png', 'convert-aseprite', 'play-json'],
    },
    {
      id: 'solarus-frames-at-limit',
      what: 'generated: nb_frames at the --max-items default (2^18), 1x1 frames (to TexturePacker: 126 MB of JSON, made as one string: 893 MiB)',
      files: { 'many.dat': solarus(1 << 18, 'x.png', 1), 'x.png': png() },
      input: 'many.dat',
      // The JSON streamed to the file (made as one string, it needed over 800 MiB).
      heapMb: { 'convert-texturepacker': 512, 'convert-aseprite': 512, 'convert-hallgeir-sprite': 512 },
    },
    {
      id: 'solarus-long-animation-name',
      what:
        'a 100 KB Solarus sheet: 2^18 1x1 frames of an animation with a 100,000-character name (to TexturePacker: ' +
        'frame names of 26 GB, hashed by length alone: 392 s of CPU, then V8 out of memory)',
      files: { 'long.dat': solarus(1 << 18, 'x.png', 1, 1, 1, 'n'.repeat(100_000)), 'x.png': png() },
      input: 'long.dat',
      heapMb: { 'convert-texturepacker': 640, 'convert-aseprite': 640 },
    },
    {
      id: 'solarus-200k-frame-gif',
      what: 'a 200,000-frame animation drawn as GIF/APNG (Maximum call stack size exceeded: spreading the frames)',
      files: { 'anim.dat': solarus(200_000, 'x.png', 10), 'x.png': png() },
      input: 'anim.dat',
      only: ['render-gif', 'render-apng'],
    },
    {
      id: 'spritetile-2mb-level',
      what: 'a 2 MB SpriteTile level inside the LZF limit, 25M cells (inspect --json and convert to Tiled: heap out of memory)',
      files: { 'big.bytes': bigSpriteTile(25_000_000) },
      input: 'big.bytes',
      // (over 1 MB: the commands of the report, not the whole sweep)
      only: ['inspect', 'inspect-json', 'validate', 'convert-tiled', 'convert-spritetile'],
    },
    {
      id: 'spritetile-1mb-level',
      what: 'generated: a level just under 1 MB, 12M cells',
      files: { 'big.bytes': bigSpriteTile(12_000_000, 4000) },
      input: 'big.bytes',
    },
    {
      id: 'spritetile-cells-at-limit',
      what: 'generated: a level of exactly --max-items cells (2^18), converted and inspected',
      files: { 'limit.bytes': bigSpriteTile(1 << 18) },
      input: 'limit.bytes',
    },
    {
      id: 'isprite-trigger-loop',
      what: 'play of a looping 65 KB trigger for 10^6 ticks (within the tick limit; aborted at 4.2 GB)',
      files: {
        'loop.isprite': isprite((doc) => {
          doc.frames.push(frame({ triggers: 't'.repeat(65_000) }));
          doc.tree.push({ kind: 'sequence', name: 'loop', loopPoint: 0, followUp: '', frames: [0] });
        }),
      },
      input: 'loop.isprite',
      play: ['--ticks', '1000000', '--script', '0:play loop'],
    },
    {
      id: 'isprite-hero-1e6-ticks',
      what: 'play samples/isprite/hero.isprite --ticks 1000000 --json (Maximum call stack size exceeded)',
      files: {
        'hero.isprite': fs.readFileSync(path.join(SAMPLES, 'isprite/hero.isprite')),
        'hero.png': fs.readFileSync(path.join(SAMPLES, 'isprite/hero.png')),
      },
      input: 'hero.isprite',
      play: ['--ticks', '1000000'],
    },
    {
      id: 'isprite-huge-canvas',
      what: 'a ~217-byte ISPRITE: 20 frames of an 8000x8000 canvas (render reached 4.1 GiB)',
      files: {
        'tex.png': png(16, 16),
        'canvas.isprite': isprite((doc) => {
          doc.slices.push({ texture: 0, rotated: false, x: 0, y: 0, width: 8000, height: 8000 });
          doc.frames.push(
            frame({ elements: [{ type: 'graphic', expanded: false, name: null, slice: 0, x: 0, y: 0, flipX: false, flipY: false }] }),
          );
          doc.tree.push({ kind: 'sequence', name: 's', loopPoint: 0, followUp: '', frames: new Array(20).fill(0) });
        }),
      },
      input: 'canvas.isprite',
      play: ['--ticks', '10'],
    },
    {
      id: 'isprite-many-large-elements',
      what: '100 large elements in one frame (render: 114 s of CPU)',
      files: {
        'tex.png': png(16, 16),
        'elements.isprite': isprite((doc) => {
          doc.slices.push({ texture: 0, rotated: false, x: 0, y: 0, width: 4000, height: 4000 });
          const elements = [];
          for (let i = 0; i < 100; i++)
            elements.push({ type: 'graphic' as const, expanded: false, name: null, slice: 0, x: 0, y: 0, flipX: false, flipY: false });
          doc.frames.push(frame({ elements }));
          doc.tree.push({ kind: 'sequence', name: 's', loopPoint: 0, followUp: '', frames: [0] });
        }),
      },
      input: 'elements.isprite',
      play: ['--ticks', '10'],
    },
    {
      id: 'isprite-long-sequence',
      what: 'generated: a sequence of 120,000 frame references (480 KB) converted and drawn',
      files: {
        'tex.png': png(2, 2),
        'seq.isprite': isprite((doc) => {
          doc.slices.push({ texture: 0, rotated: false, x: 0, y: 0, width: 2, height: 2 });
          doc.frames.push(
            frame({
              triggers: 'x',
              elements: [{ type: 'graphic', expanded: false, name: null, slice: 0, x: 0, y: 0, flipX: false, flipY: false }],
            }),
          );
          doc.tree.push({ kind: 'sequence', name: 's', loopPoint: 0, followUp: '', frames: new Array(120_000).fill(0) });
        }),
      },
      input: 'seq.isprite',
      play: ['--ticks', '1000000'],
    },
    {
      id: 'cthg-many-translucent-elements',
      what: 'generated: a CTHG frame of 55,000 translucent 200x200 elements (render and baking: ~17 s of CPU)',
      files: { 'many.dat': cthgManyElements(55_000) },
      input: 'many.dat',
    },
    {
      id: 'tiled-zero-by-1e15',
      what: 'a Tiled layer of width 0 x height 10^15 (convert to SpriteTile: endless loop)',
      files: { 'tall.tmj': tiledMap([tileLayer(0, 1e15, [])]) },
      input: 'tall.tmj',
    },
    {
      id: 'tiled-tilecount-2-28',
      what: 'Tiled tilesets with tilecount 2^28, margin and spacing (render: endless loop)',
      files: {
        'sets.tmj': tiledMap(
          [tileLayer(4, 3, [1, 2, 3, 4, 5, 6, 1 << 27, 3, 2, 1, 2, 1])],
          [
            {
              firstgid: 1,
              name: 'a',
              image: 't.png',
              imagewidth: 8,
              imageheight: 8,
              tilewidth: 1,
              tileheight: 1,
              margin: 1,
              spacing: 1,
              tilecount: 2 ** 27,
              columns: 0,
            },
            {
              firstgid: 2 ** 27 + 1,
              name: 'b',
              image: 't.png',
              imagewidth: 8,
              imageheight: 8,
              tilewidth: 1,
              tileheight: 1,
              margin: 1,
              spacing: 1,
              tilecount: 2 ** 27 - 1,
              columns: 16384,
            },
          ],
        ),
        't.png': png(8, 8),
      },
      input: 'sets.tmj',
    },
    {
      id: 'tiled-compressed-16m-cells',
      what: 'generated: a zlib-compressed Tiled layer of 2^24 cells in a few KB',
      files: {
        'packed.tmj': tiledMap([
          tileLayer(4096, 4096, Buffer.from(zlibSync(new Uint8Array(4096 * 4096 * 4).fill(0), { level: 9 })).toString('base64'), {
            encoding: 'base64',
            compression: 'zlib',
          }),
        ]),
      },
      input: 'packed.tmj',
    },
    {
      id: 'tiled-numbers-spritetile-wraps',
      what: 'Tiled -> SpriteTile: order 70000, trigger 300, scrollX 2^32+1, previewSize 3e9 (silently wrapped)',
      files: {
        'wrap.tmj': tiledMap(
          [
            tileLayer(1, 1, [1], {
              properties: [
                { name: 'sprat:cells', type: 'string', value: JSON.stringify({ 0: { extra: { order: 70000, trigger: 300 } } }) },
                { name: 'scrollX', type: 'float', value: 2 ** 32 + 1 },
                { name: 'previewSize', type: 'float', value: 3e9 },
              ],
            }),
          ],
          [
            {
              firstgid: 1,
              name: 'a',
              tilewidth: 8,
              tileheight: 8,
              tilecount: 1,
              columns: 1,
              margin: 0,
              spacing: 0,
              image: 't.png',
              imagewidth: 8,
              imageheight: 8,
            },
          ],
        ),
        't.png': png(8, 8),
      },
      input: 'wrap.tmj',
    },
    {
      id: 'png-bomb-sheet',
      what: 'a 109 KB 1-bit 30000x30000 PNG as an Aseprite sheet (3.6 GB, then an int32 overflow)',
      files: { 'bomb.json': aseprite('bomb.png', 30000, 30000), 'bomb.png': pngBomb() },
      input: 'bomb.json',
    },
    {
      id: 'png-bomb-solarus',
      what: 'the same PNG bomb as a Solarus sheet',
      files: { 'bomb.dat': solarus(4, 'bomb.png', 100, 16, 16), 'bomb.png': pngBomb() },
      input: 'bomb.dat',
    },
    {
      id: 'dev-zero-sheet',
      what: 'a sheet path naming /dev/zero (reads until the process dies)',
      files: { 'zero.json': aseprite('../'.repeat(40) + 'dev/zero', 16, 16) },
      input: 'zero.json',
    },
    {
      id: 'png-iccp-profiles',
      what: 'a 1 MB PNG with two iCCP chunks, each inflating to 500 MiB, as a Solarus sheet and given to `new` (1.6 GiB)',
      files: {
        'sheet.dat': solarus(4, 'sheet.png', 100, 16, 16),
        'sheet.png': withChunks(opaquePng(64, 64), [iccpBomb(500), iccpBomb(500)]),
      },
      input: 'sheet.dat',
      only: ['render-png', 'render-gif', 'convert-aseprite'],
      extra: [
        { name: 'check', args: ['check', '.'] },
        { name: 'new', args: ['new', 'sheet.png', 'out/new.json', '--to', 'aseprite'] },
      ],
    },
    {
      id: 'png-idat-bomb-1x1',
      what: 'a 970 KB 1x1 PNG whose image data inflates to 960 MiB (2.6 s of CPU to inflate it all), as a Solarus sheet and given to `new`',
      files: { 'sheet.dat': solarus(1, 'sheet.png', 100, 1, 1), 'sheet.png': idatBomb(960) },
      input: 'sheet.dat',
      only: ['render-png', 'convert-aseprite'],
      extra: [
        { name: 'check', args: ['check', '.'] },
        { name: 'new', args: ['new', 'sheet.png', 'out/new.json', '--cell', '1x1', '--to', 'aseprite'] },
      ],
    },
    {
      id: 'aseprite-screen-layers',
      what: 'a 91 KB .aseprite: 1024x1024, 64 frames, 16 layers in "screen" blend (> 120 s of CPU)',
      files: { 'screen.aseprite': asepriteBlendBomb(1024, 64, 16) },
      input: 'screen.aseprite',
      only: ['inspect', 'render-png', 'render-gif', 'convert-texturepacker', 'convert-aseprite'],
      extra: [{ name: 'check', args: ['check', '.'] }],
    },
    {
      id: 'tmx-polygon-100',
      what: 'a 1.3 KB TMX: one 100-point polygon on an 8000x8000 map (7.9 s, 1.6 GiB)',
      files: { 'poly.tmx': tmxPolygon(100) },
      input: 'poly.tmx',
      only: ['render-png'],
      extra: [{ name: 'check', args: ['check', '.'] }],
    },
    {
      id: 'tmx-polygon-5000',
      what: 'a TMX: one 5,000-point polygon on an 8000x8000 map (29 s, 1.8 GiB)',
      files: { 'poly.tmx': tmxPolygon(5000) },
      input: 'poly.tmx',
      only: ['render-png'],
      extra: [{ name: 'check', args: ['check', '.'] }],
    },
    {
      id: 'tmx-polygon-coil',
      what: 'generated: a 5,000-point polygon of short edges coiled 37 times round an 8000x8000 map',
      files: { 'coil.tmx': tmxPolygon(5000, 37) },
      input: 'coil.tmx',
      only: ['render-png'],
    },
    {
      id: 'tmx-rectangles-16',
      what: 'a 1.2 KB TMX: 16 full-map rectangles on an 8000x8000 map (21.6 s, then the --max-draw-pixels error)',
      files: { 'rects.tmx': tmxRectangles(16) },
      input: 'rects.tmx',
      only: ['render-png'],
    },
    {
      id: 'png-distinct-cells',
      what: 'a 8192x8192 PNG of 262,144 distinct 16x16 cells, `new --cell 16x16 --to aseprite` (11.3 s, 1.7 GiB, 91 MB of JSON)',
      files: { 'cells.png': distinctCellsPng() },
      input: 'cells.png',
      only: [],
      extra: [{ name: 'new', args: ['new', 'cells.png', 'out/cells.json', '--cell', '16x16', '--to', 'aseprite'] }],
    },
    {
      id: 'spritetile-diff',
      what: 'two ~400 KB SpriteTile levels of 4.7M cells, `diff` (1.05 GiB before the --max-items error)',
      files: { 'a.bytes': bigSpriteTile(4_700_000, 2048), 'b.bytes': flipLast(bigSpriteTile(4_700_000, 2048)) },
      input: 'a.bytes',
      only: [],
      extra: [{ name: 'diff', args: ['diff', 'a.bytes', 'b.bytes'] }],
    },
    {
      id: 'batch-jobs-64',
      what: '`convert DIR OUT --jobs 64` (accepted up to 256: 1.8 GiB, 31 s on 2 cores)',
      files: Object.fromEntries([['x.png', png()], ...Array.from({ length: 64 }, (_, i) => [`s${i}.dat`, solarus(2, 'x.png', 100)])]),
      input: 's0.dat',
      only: [],
      extra: [
        { name: 'convert-batch', args: ['convert', '.', 'out/batch', '--to', 'aseprite', '--jobs', '64'] },
        { name: 'check-batch', args: ['check', '.', '--jobs', '64'] },
      ],
    },
    {
      id: 'fifo-input',
      what: 'a FIFO as the input (blocks forever)',
      files: {},
      input: 'pipe.isprite',
      special: 'fifo',
      only: ['inspect', 'validate'],
    },
  ];
}

/** Writes a case's files into `dir` (made if needed). */
export function writeCase(c: HostileCase, dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, data] of Object.entries(c.files)) fs.writeFileSync(path.join(dir, name), data);
}
