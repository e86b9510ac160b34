/**
 * Work bombs: small files that ask for much CPU work, not only much memory (the shapes of the
 * hostile sweep's table, test/hostile/cases.ts): Aseprite files of many full layers in a blend
 * mode, TMX maps with long polygons and polylines or many full-map rectangles, SpriteTile levels
 * and Tiled layers of millions of cells in a few KB. Each either stays within the budgets of
 * src/binary/limits.ts or stops with a LimitError before the work. The fixed seeds (the table's
 * sizes) and random ones the fuzzer makes as it runs. Browser-safe.
 */
import { zlibSync } from 'fflate';
import type { FormatName } from '../formats/types.js';

export interface WorkSeed {
  name: string;
  format: FormatName;
  bytes: Uint8Array;
  /** The samples/ folder its resources come from (relative to samples/). */
  dir: string;
}

const text = (s: string) => new TextEncoder().encode(s);

// ------------------------------------------------------------------ Aseprite

/** Little-endian bytes, for the .aseprite writer below. */
class Bytes {
  readonly out: number[] = [];
  u8(v: number): this {
    this.out.push(v & 255);
    return this;
  }
  u16(v: number): this {
    return this.u8(v).u8(v >> 8);
  }
  u32(v: number): this {
    return this.u16(v & 0xffff).u16((v >>> 16) & 0xffff);
  }
  zeros(n: number): this {
    for (let i = 0; i < n; i++) this.u8(0);
    return this;
  }
  raw(b: ArrayLike<number>): this {
    for (let i = 0; i < b.length; i++) this.out.push(b[i]!);
    return this;
  }
}

/** One chunk of a frame (docs/ase-file-specs.md: DWORD size, WORD type, data). */
function aseChunk(type: number, body: Bytes): Bytes {
  return new Bytes()
    .u32(body.out.length + 6)
    .u16(type)
    .raw(body.out);
}

/**
 * A native .aseprite (RGBA) of `frames` frames of `layers` layers of side x side, each layer in
 * `blend` (0 normal, 1 multiply, 2 screen, ... 18): frame 0's cels one compressed opaque image
 * each, the later frames' cels linked to them (docs/ase-file-specs.md, chunks 0x2004 and 0x2005).
 * (1024, 64, 16, 2: about 90 KB, and 2^30 pixels to blend.)
 */
export function asepriteBlendBomb(
  side: number,
  frames: number,
  layers: number,
  blend: number | ((layer: number) => number) = 2,
): Uint8Array {
  const pixels = new Uint8Array(side * side * 4);
  for (let i = 0; i < pixels.length; i += 4) pixels.set([i & 255, 90, 160, 255], i);
  const z = zlibSync(pixels);
  const body = new Bytes();
  for (let f = 0; f < frames; f++) {
    const chunks: Bytes[] = [];
    if (f === 0) {
      for (let l = 0; l < layers; l++) {
        const name = text(`l${l}`);
        const mode = typeof blend === 'number' ? blend : blend(l);
        chunks.push(aseChunk(0x2004, new Bytes().u16(3).u16(0).u16(0).u16(0).u16(0).u16(mode).u8(255).zeros(3).u16(name.length).raw(name)));
      }
    }
    for (let l = 0; l < layers; l++) {
      const cel = new Bytes().u16(l).u16(0).u16(0).u8(255);
      if (f === 0) cel.u16(2).u16(0).zeros(5).u16(side).u16(side).raw(z);
      else cel.u16(1).u16(0).zeros(5).u16(0);
      chunks.push(aseChunk(0x2005, cel));
    }
    const size = 16 + chunks.reduce((s, c) => s + c.out.length, 0);
    body.u32(size).u16(0xf1fa).u16(Math.min(chunks.length, 0xffff)).u16(100).zeros(2).u32(chunks.length);
    for (const c of chunks) body.raw(c.out);
  }
  const head = new Bytes()
    .u32(128 + body.out.length)
    .u16(0xa5e0)
    .u16(frames)
    .u16(side)
    .u16(side)
    .u16(32)
    .u32(1)
    .u16(100)
    .zeros(8)
    .u8(0)
    .zeros(3)
    .u16(0)
    .u8(1)
    .u8(1)
    .u16(0)
    .u16(0)
    .u16(16)
    .u16(16)
    .zeros(84);
  return Uint8Array.from([...head.out, ...body.out]);
}

// ------------------------------------------------------------------ TMX shapes

/** A TMX map of side x side pixels (8-pixel tiles) with these objects in one object layer. */
export function tmx(objects: string, side = 8000): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down" width="${Math.ceil(side / 8)}" height="${Math.ceil(side / 8)}" tilewidth="8" tileheight="8" infinite="0" nextlayerid="2" nextobjectid="2">\n` +
    ` <objectgroup id="1" name="o">\n${objects}\n </objectgroup>\n</map>\n`
  );
}

/** The points of a star of `points` points round a side x side map (`step` points round the circle each). */
function starPoints(points: number, step: number, side: number): string {
  const c = side / 2;
  const r = side * 0.4875;
  return Array.from({ length: points }, (_, k) => {
    const a = (2 * Math.PI * k * step) / points;
    return `${(c + r * Math.cos(a)).toFixed(1)},${(c + r * Math.sin(a)).toFixed(1)}`;
  }).join(' ');
}

/**
 * One polygon (or polyline, stroked) of `points` points on a side x side map: a star whose edges
 * cross the whole map (`step` points round the circle from one to the next), or with a small step,
 * a coil of short edges.
 */
export function tmxPolygon(
  points: number,
  step = Math.floor(points / 2) - 1,
  side = 8000,
  shape: 'polygon' | 'polyline' = 'polygon',
): string {
  return tmx(`  <object id="1" x="0" y="0"><${shape} points="${starPoints(points, step, side)}"/></object>`, side);
}

/** `n` rectangles (or ellipses) each covering the whole side x side map. */
export function tmxRectangles(n: number, side = 8000, ellipse = false): string {
  return tmx(
    Array.from(
      { length: n },
      (_, i) => `  <object id="${i + 1}" x="0" y="0" width="${side}" height="${side}"${ellipse ? '><ellipse/></object>' : '/>'}`,
    ).join('\n'),
    side,
  );
}

// ------------------------------------------------------------------ many cells

/**
 * A SpriteTile level whose one layer has `cells` cells (tile 5), as a raw LZF stream written by
 * hand: the header and the first cell as literals, then back-references (3 bytes for 264 bytes of
 * cells each). About 88 bytes of level per byte of file.
 */
export function bigSpriteTile(cells: number, width = 1024): Uint8Array {
  const height = Math.ceil(cells / width);
  const n = width * height;
  const head: number[] = [];
  const ascii = (s: string) => {
    for (const c of s) head.push(c.charCodeAt(0));
  };
  const i32 = (v: number) => head.push(v & 255, (v >>> 8) & 255, (v >>> 16) & 255, (v >>> 24) & 255);
  const f32 = (v: number) => {
    for (const b of new Uint8Array(new Float32Array([v]).buffer)) head.push(b);
  };
  ascii('SpriteTileLevel');
  head.push(1); // little-endian
  i32(3); // version
  i32(1); // one tag
  ascii('lvlayrs');
  i32(35); // its data right after the table
  i32(1); // one layer
  ascii('lyrdata');
  f32(1);
  f32(1);
  i32(0);
  i32(0);
  i32(64);
  f32(0);
  i32(0);
  i32(0);
  i32(width);
  i32(height);
  head.push(5, 0, 0, 0, 0, 0, 0); // cell 0: tile 5
  const out: number[] = [];
  for (let i = 0; i < head.length; i += 32) {
    const run = head.slice(i, i + 32);
    out.push(run.length - 1);
    for (const b of run) out.push(b);
  }
  let left = (n - 1) * 7;
  const refs = new Uint8Array(Math.ceil(left / 264) * 3 + 3);
  let o = 0;
  while (left > 0) {
    let len = Math.min(264, left);
    if (left - len > 0 && left - len < 3) len -= 3; // every reference copies at least 3 bytes
    left -= len;
    // offset 7 (one cell back, stored as 6), length len (stored as len - 2)
    if (len - 2 < 7) refs[o++] = ((len - 2) << 5) | 0;
    else {
      refs[o++] = (7 << 5) | 0;
      refs[o++] = len - 2 - 7;
    }
    refs[o++] = 6;
  }
  const file = new Uint8Array(out.length + o);
  file.set(out);
  file.set(refs.subarray(0, o), out.length);
  return file;
}

/** A Tiled JSON map of one zlib-compressed w x h layer, every cell a tile of samples/interop/tiles.png (16x16 tiles). */
export function tiledManyCells(w: number, h: number): string {
  const gids = new Uint32Array(w * h);
  gids.fill(1);
  const z = zlibSync(new Uint8Array(gids.buffer), { level: 9 });
  let b64 = '';
  for (let i = 0; i < z.length; i++) b64 += String.fromCharCode(z[i]!);
  return JSON.stringify({
    type: 'map',
    orientation: 'orthogonal',
    renderorder: 'right-down',
    width: w,
    height: h,
    tilewidth: 16,
    tileheight: 16,
    infinite: false,
    layers: [{ type: 'tilelayer', name: 'a', width: w, height: h, x: 0, y: 0, encoding: 'base64', compression: 'zlib', data: btoa(b64) }],
    tilesets: [
      {
        firstgid: 1,
        name: 't',
        image: 'tiles.png',
        imagewidth: 16,
        imageheight: 16,
        tilewidth: 16,
        tileheight: 16,
        tilecount: 1,
        columns: 1,
      },
    ],
  });
}

// ------------------------------------------------------------------ the seeds

/** The formats the work bombs are made in, and the folder each seed sits in (beside the files it names). */
const WORK_DIRS = { ase: 'interop', tiled: 'interop', spritetile: 'spritetile' } as const;

/** A maker of fixed seeds of one work format. */
function seedOf(format: keyof typeof WORK_DIRS): (name: string, bytes: Uint8Array) => WorkSeed {
  return (name, bytes) => ({ name, format, dir: WORK_DIRS[format], bytes });
}

/**
 * The fixed work seeds: the sizes of the hostile sweep's table (each stops with a LimitError
 * before the work) and smaller ones of the same shapes that are drawn within the budgets.
 */
export function workSeeds(): WorkSeed[] {
  const ase = seedOf('ase');
  const tiled = seedOf('tiled');
  const level = seedOf('spritetile');
  return [
    ase('screen-1024x64x16.aseprite', asepriteBlendBomb(1024, 64, 16)),
    ase(
      'blend-256x8x6.aseprite',
      asepriteBlendBomb(256, 8, 6, (l) => 1 + (l % 18)),
    ),
    tiled('polygon-100.tmx', text(tmxPolygon(100))),
    tiled('polygon-5000.tmx', text(tmxPolygon(5000))),
    tiled('coil-5000.tmx', text(tmxPolygon(5000, 37))),
    tiled('polyline-2000.tmx', text(tmxPolygon(2000, 999, 4000, 'polyline'))),
    tiled('rectangles-16.tmx', text(tmxRectangles(16))),
    tiled('ellipses-4.tmx', text(tmxRectangles(4, 2000, true))),
    tiled('cells-4m.tmj', text(tiledManyCells(2048, 2048))),
    level('cells-4.7m.bytes', bigSpriteTile(4_700_000, 2048)),
    level('cells-100k.bytes', bigSpriteTile(100_000, 512)),
  ];
}

/** The formats `randomWorkSeed` makes files of. */
export const WORK_FORMATS = Object.keys(WORK_DIRS) as readonly FormatName[];

/** A number between lo and hi, spread evenly over their magnitudes. */
function logUniform(random: () => number, lo: number, hi: number): number {
  return Math.round(Math.exp(Math.log(lo) + random() * (Math.log(hi) - Math.log(lo))));
}

/** A new random work bomb of `format` (one of WORK_FORMATS), named by `index`. */
export function randomWorkSeed(random: () => number, format: FormatName, index: number): WorkSeed {
  if (format === 'ase') {
    const side = 2 ** (5 + Math.floor(random() * 6));
    const blend = Math.floor(random() * 19);
    return {
      name: `work-${index}.aseprite`,
      format,
      dir: 'interop',
      bytes: asepriteBlendBomb(
        side,
        logUniform(random, 1, 64),
        logUniform(random, 1, 16),
        random() < 0.5 ? blend : (l) => (l * 7 + blend) % 19,
      ),
    };
  }
  if (format === 'spritetile') {
    return {
      name: `work-${index}.bytes`,
      format,
      dir: 'spritetile',
      bytes: bigSpriteTile(logUniform(random, 1000, 6_000_000), 2 ** (6 + Math.floor(random() * 6))),
    };
  }
  const side = logUniform(random, 256, 8000);
  const kind = Math.floor(random() * 4);
  const points = logUniform(random, 3, 6000);
  const doc =
    kind === 0
      ? tmxPolygon(points, random() < 0.5 ? Math.max(1, Math.floor(points / 2) - 1) : 1 + Math.floor(random() * 40), side)
      : kind === 1
        ? tmxPolygon(points, 1 + Math.floor(random() * Math.max(1, points / 2)), side, 'polyline')
        : kind === 2
          ? tmxRectangles(logUniform(random, 1, 64), side, random() < 0.3)
          : '';
  if (kind < 3) return { name: `work-${index}.tmx`, format, dir: 'interop', bytes: text(doc) };
  return {
    name: `work-${index}.tmj`,
    format,
    dir: 'interop',
    bytes: text(tiledManyCells(logUniform(random, 1, 2048), logUniform(random, 1, 2048))),
  };
}
