// Synthetic inputs of about a given size for every format (the size sweep and
// the memory figures): `makeInput(format, bytes)` -> { bytes, name, format,
// size } where `size` is what the memory multiple is taken of (the file, or
// for SpriteTile the decompressed level).
import { makeDoc } from './isprite.mjs';
import { makeLevel } from './lzf.mjs';
import { makeSprite } from './hallgeir.mjs';
import { asepriteJson, tiledJson } from './interop.mjs';
import { sprat } from './sprat.mjs';

const { writeIsprite } = sprat;
const { createCthg, writeCthg, encodePixels } = sprat.cthg;
const { formatLines, formatLua } = sprat.solarus;
const { writeHallgeir } = sprat.hallgeir;
const { compress } = sprat.lzf;

/** Every format the sweep and the memory table cover (hallgeir-object: a fixed-size file, nothing to scale). */
export const SWEEP_FORMATS = [
  'isprite',
  'cthg',
  'spritetile',
  'solarus',
  'solarus-lua',
  'hallgeir-sprite',
  'hallgeir-map',
  'aseprite',
  'texturepacker',
  'tiled',
  'tiled-tmx',
];

/** A CTHG file of many small sprites (about 1 kB each), one frame and element per sprite, 8 frames per animation. */
function cthgFile(target) {
  let seed = 99;
  const rnd = (n) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  const doc = createCthg();
  // Every sprite different (a sheet builder may share identical images): 16 sizes, random colours.
  let size = 0;
  let n = 0;
  while (size < target) {
    const w = 16 + (n % 16);
    const h = 20 + (n % 5);
    const img = { width: w, height: h, data: new Uint8Array(w * h * 4) };
    for (let i = 0; i < w * h; i++) {
      const x = i % w;
      const y = Math.floor(i / w);
      if ((x - w / 2) ** 2 + (y - h / 2) ** 2 > (w * w) / 4) continue;
      img.data[i * 4] = rnd(256);
      img.data[i * 4 + 1] = rnd(256);
      img.data[i * 4 + 2] = rnd(256);
      img.data[i * 4 + 3] = x % 7 === 0 ? 128 : 255;
    }
    const data = encodePixels(img);
    doc.sprites.push({ width: w, height: h, data });
    doc.frames.push({ sound: 0, elements: [{ sprite: n, x: -8, y: -16, layerClass: 0, layerId: 0, flags: n % 3 === 0 ? 2 : 0 }] });
    size += data.length + 60;
    n++;
  }
  for (let f = 0; f < n; f += 8) {
    const count = Math.min(8, n - f);
    doc.animations.push({
      name: `anim_${f / 8}`,
      tileSize: 64,
      frameCount: count,
      views: { north: f, east: null, south: null, west: null },
    });
  }
  return writeCthg(doc);
}

/** A Solarus sheet of many 4-direction animations. */
function solarusSheet(target, perAnimation) {
  const animations = [];
  for (let i = 0; i * perAnimation < target; i++) {
    animations.push({
      name: `anim_${i}`,
      image: `enemies/sheet_${i % 10}.png`,
      frameDelay: 100 + (i % 5) * 10,
      loopOnFrame: i % 3 === 0 ? -1 : 0,
      directions: [0, 1, 2, 3].map((d) => ({
        x: 0,
        y: d * 16,
        frameWidth: 16,
        frameHeight: 16,
        originX: 8,
        originY: 13,
        frameCount: 4,
        columns: 4,
      })),
    });
  }
  return { animations };
}

const enc = new TextEncoder();

export async function makeInput(format, target) {
  switch (format) {
    case 'isprite': {
      const bytes = writeIsprite(makeDoc(target));
      return { bytes, name: 'big.isprite', format, size: bytes.length };
    }
    case 'cthg': {
      const bytes = cthgFile(target);
      return { bytes, name: 'big.dat', format, size: bytes.length };
    }
    case 'spritetile': {
      // 3 layers of side² cells; the level is about 21 bytes per cell before compression.
      const side = Math.max(8, Math.round(Math.sqrt(target / 21)));
      const raw = makeLevel(side);
      return { bytes: compress(raw, 'clzf2'), name: 'big.bytes', format, size: raw.length, note: 'multiples of the decompressed level' };
    }
    case 'solarus': {
      const bytes = enc.encode(formatLines(solarusSheet(target, 118)));
      return { bytes, name: 'big.dat', format, size: bytes.length };
    }
    case 'solarus-lua': {
      const bytes = enc.encode(formatLua(solarusSheet(target, 560)));
      return { bytes, name: 'big.dat', format, size: bytes.length };
    }
    case 'hallgeir-sprite': {
      const bytes = writeHallgeir(makeSprite(Math.max(1, Math.round(target / 10_030)), 500));
      return { bytes, name: 'big.spr', format, size: bytes.length };
    }
    case 'hallgeir-map': {
      const n = Math.max(1, Math.round(target / 23));
      const doc = {
        kind: 'map',
        littleEndian: true,
        textures: Array.from({ length: 16 }, (_, i) => ({ path: `tex/t${i}.bmp`, name: `t${i}` })),
        objects: Array.from({ length: n }, (_, i) => ({ x: (i * 37) % 4096, y: (i * 91) % 4096, object: `obj/o${i % 50}.obj` })),
      };
      const bytes = writeHallgeir(doc);
      return { bytes, name: 'big.map', format, size: bytes.length };
    }
    case 'aseprite':
    case 'texturepacker': {
      const bytes = asepriteJson(Math.max(100, Math.round(target / 290)));
      return { bytes, name: 'big.json', format, size: bytes.length };
    }
    case 'tiled': {
      const bytes = tiledJson(Math.max(4, Math.round(Math.sqrt(target / 13))));
      return { bytes, name: 'big.tmj', format, size: bytes.length };
    }
    case 'tiled-tmx': {
      // The same map written as TMX (XML, CSV layers) by sprat's Tiled writer.
      const json = tiledJson(Math.max(4, Math.round(Math.sqrt(target / 13))));
      const [file] = await sprat.interop.tiledHandler.writeFiles(sprat.interop.tiledHandler.read(json), 'big.tmx');
      return { bytes: file.bytes, name: 'big.tmx', format: 'tiled', size: file.bytes.length };
    }
    default:
      throw new Error(`no generator for ${format}`);
  }
}
