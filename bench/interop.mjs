// Interchange formats: reading Aseprite, TexturePacker and Tiled JSON next to
// plain JSON.parse of the same text (the floor any JSON reader pays), Tiled
// to and from the common model, and writing a sheet (bake + pack + PNG).
import { beginSuite, compare, config } from './lib.mjs';
import { sprat } from './sprat.mjs';

const { asepriteHandler, texturePackerHandler, tiledHandler } = sprat.interop;
const enc = new TextEncoder();

/** An Aseprite JSON export with `n` frames of 32x32 and a tag per 100 frames. */
export function asepriteJson(n) {
  const frames = {};
  const cols = Math.ceil(Math.sqrt(n));
  for (let i = 0; i < n; i++) {
    frames[`hero ${i}.aseprite`] = {
      frame: { x: (i % cols) * 33, y: Math.floor(i / cols) * 33, w: 32, h: 32 },
      rotated: false,
      trimmed: i % 3 === 0,
      spriteSourceSize: { x: 0, y: 0, w: 32, h: 32 },
      sourceSize: { w: 32, h: 32 },
      duration: 100,
    };
  }
  const frameTags = Array.from({ length: Math.floor(n / 100) }, (_, i) => ({
    name: `t${i}`,
    from: i * 100,
    to: i * 100 + 99,
    direction: 'pingpong',
    color: '#000000ff',
  }));
  const size = cols * 33;
  return enc.encode(
    JSON.stringify(
      {
        frames,
        meta: {
          app: 'https://www.aseprite.org/',
          version: '1.3',
          image: 'hero.png',
          format: 'RGBA8888',
          size: { w: size, h: size },
          scale: '1',
          frameTags,
          layers: [],
          slices: [],
        },
      },
      null,
      1,
    ),
  );
}

/** `n` GIDs for layer `seed`: a fifth of the cells empty, a quarter flipped. */
export function tiledGids(n, seed) {
  return Array.from({ length: n }, (_, i) => ((i * 7 + seed) % 5 === 0 ? 0 : (((i % 64) + 1) | (i % 4 === 0 ? 0xa0000000 : 0)) >>> 0));
}

/** Tile layer `l` (id l + 1) of a W x W map holding `data`. */
export function tiledTileLayer(W, l, data) {
  return { type: 'tilelayer', id: l + 1, name: `L${l}`, width: W, height: W, x: 0, y: 0, opacity: 1, visible: true, data };
}

/** A W x W Tiled JSON map with 3 layers, a quarter of the cells flipped. */
export function tiledJson(W) {
  return enc.encode(
    JSON.stringify(
      tiledMap(
        W,
        [0, 1, 2].map((l) => tiledTileLayer(W, l, tiledGids(W * W, l))),
      ),
    ),
  );
}

/** A W x W Tiled map (the object) with these layers and one 8 x 8 tileset of 16 x 16 tiles. */
export function tiledMap(W, layers) {
  return {
    compressionlevel: -1,
    height: W,
    infinite: false,
    layers,
    nextlayerid: 4,
    nextobjectid: 1,
    orientation: 'orthogonal',
    renderorder: 'right-down',
    tiledversion: '1.10.2',
    tileheight: 16,
    tilesets: [
      {
        columns: 8,
        firstgid: 1,
        image: 't.png',
        imageheight: 128,
        imagewidth: 128,
        margin: 0,
        name: 't',
        spacing: 0,
        tilecount: 64,
        tileheight: 16,
        tilewidth: 16,
      },
    ],
    tilewidth: 16,
    type: 'map',
    version: '1.10',
    width: W,
  };
}

/** A sprite model of `frames` frames of 24x24 cut from one source sheet (for sheet building). */
export function sheetSprite(frames) {
  const img = { width: 600, height: 24, data: new Uint8Array(600 * 24 * 4).map((_, i) => (i * 31) & 255) };
  const per = 100;
  return {
    kind: 'sprite',
    name: 'x',
    sheets: [{ path: 's', image: img }],
    animations: Array.from({ length: Math.ceil(frames / per) }, (_, a) => ({
      name: `a${a}`,
      loopTo: 0,
      frames: Array.from({ length: Math.min(per, frames - a * per) }, (_, f) => ({
        durationMs: 100,
        parts: [{ sheet: 0, sx: ((a * per + f) % 25) * 24, sy: 0, sw: 24, sh: 24, x: -12, y: -24, flipX: f % 2 === 1 }],
      })),
    })),
  };
}

/** `n` rectangles of varied sizes for the packer. */
export function packRects(n) {
  let s = 7;
  const rnd = (k) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return 1 + ((s >>> 8) % k);
  };
  return Array.from({ length: n }, (_, id) => ({ id, width: rnd(48), height: rnd(48) }));
}

const none = {
  load: async () => {
    throw new Error('none');
  },
  exists: async () => false,
};

export async function run() {
  beginSuite('interop');
  const tiny = config.mode === 'tiny';
  const ase = asepriteJson(tiny ? 200 : 4000);
  const aseText = new TextDecoder().decode(ase);
  const floor = (text) => ({ name: 'JSON.parse of the text', fn: () => JSON.parse(text), check: false, checkNote: 'a floor' });
  const kb = (b) => `${(b.length / 1e3).toFixed(0)} kB`;
  await compare(`Aseprite read (${tiny ? 200 : 4000} frames, ${kb(ase)})`, {
    amount: ase.length,
    peers: [{ name: 'sprat asepriteHandler.read', fn: () => asepriteHandler.read(ase) }, floor(aseText)],
  });
  await compare(`TexturePacker read (the same frames, ${kb(ase)})`, {
    amount: ase.length,
    peers: [{ name: 'sprat texturePackerHandler.read', fn: () => texturePackerHandler.read(ase) }, floor(aseText)],
  });
  const W = tiny ? 32 : 256;
  const map = tiledJson(W);
  const mapText = new TextDecoder().decode(map);
  await compare(`Tiled read (${W}x${W}x3 map, ${kb(map)})`, {
    amount: map.length,
    peers: [{ name: 'sprat tiledHandler.read', fn: () => tiledHandler.read(map) }, floor(mapText)],
  });
  const doc = tiledHandler.read(map);
  const model = await tiledHandler.toModel(doc, none);
  const back = tiledHandler.fromModel(model);
  await compare(`Tiled to the common model and back (${W}x${W}x3)`, {
    amount: map.length,
    peers: [
      { name: 'sprat tiled toModel', afn: () => tiledHandler.toModel(doc, none) },
      { name: 'sprat tiled fromModel', fn: () => tiledHandler.fromModel(model), check: false, checkNote: 'the other direction' },
      { name: 'sprat tiled write JSON', afn: () => tiledHandler.writeFiles(back, 'm.tmj'), check: false, checkNote: 'writing' },
    ],
  });
  const frames = tiny ? 60 : 600;
  const sprite = sheetSprite(frames);
  const files = await asepriteHandler.writeFiles(asepriteHandler.fromModel(sprite), 'x.json');
  await compare(`Aseprite sheet: bake + pack + PNG, ${frames} frames of 24x24`, {
    amount: frames * 24 * 24,
    unit: 'Mpx/s',
    peers: [
      { name: 'sprat fromModel + writeFiles', afn: async () => asepriteHandler.writeFiles(asepriteHandler.fromModel(sprite), 'x.json') },
      { name: 'sprat fromModel alone', fn: () => asepriteHandler.fromModel(sprite), check: false, checkNote: 'part of the work' },
    ],
    check: false,
    note: `sheet PNG ${files[1].bytes.length} bytes, JSON ${files[0].bytes.length} bytes`,
  });
}
