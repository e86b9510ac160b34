// Interchange formats: read speed against plain JSON.parse (the floor any
// JSON reader pays), and the cost of writing a sheet (bake + pack + PNG).
import { asepriteHandler, texturePackerHandler, tiledHandler } from '../dist/interop/index.js';

const enc = new TextEncoder();

function time(fn, minMs = 400) {
  fn();
  let n = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < minMs) {
    fn();
    n++;
    t = performance.now();
  }
  return (t - t0) / n;
}

function report(name, bytes, ms, peerMs) {
  const mbs = bytes / 1e6 / (ms / 1000);
  console.log(
    `${name.padEnd(34)} ${mbs.toFixed(1).padStart(8)} MB/s  ${ms.toFixed(2).padStart(8)} ms` +
      (peerMs ? `  x${(ms / peerMs).toFixed(2)} JSON.parse` : ''),
  );
}

// An Aseprite export with 4000 frames and 40 tags.
const frames = {};
for (let i = 0; i < 4000; i++) {
  frames[`hero ${i}.aseprite`] = {
    frame: { x: (i % 64) * 33, y: Math.floor(i / 64) * 33, w: 32, h: 32 },
    rotated: false,
    trimmed: i % 3 === 0,
    spriteSourceSize: { x: 0, y: 0, w: 32, h: 32 },
    sourceSize: { w: 32, h: 32 },
    duration: 100,
  };
}
const frameTags = Array.from({ length: 40 }, (_, i) => ({
  name: `t${i}`,
  from: i * 100,
  to: i * 100 + 99,
  direction: 'pingpong',
  color: '#000000ff',
}));
const ase = enc.encode(
  JSON.stringify(
    {
      frames,
      meta: {
        app: 'https://www.aseprite.org/',
        version: '1.3',
        image: 'hero.png',
        format: 'RGBA8888',
        size: { w: 2112, h: 2079 },
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
const aseText = new TextDecoder().decode(ase);
const aseParse = time(() => JSON.parse(aseText));
report(
  'aseprite read (4000 frames)',
  ase.length,
  time(() => asepriteHandler.read(ase)),
  aseParse,
);
report(
  'texturepacker read (same frames)',
  ase.length,
  time(() => texturePackerHandler.read(ase)),
  aseParse,
);

// A 256x256 Tiled map with 3 layers, a quarter of the cells flipped.
const W = 256;
const layers = [0, 1, 2].map((l) => ({
  type: 'tilelayer',
  id: l + 1,
  name: `L${l}`,
  width: W,
  height: W,
  x: 0,
  y: 0,
  opacity: 1,
  visible: true,
  data: Array.from({ length: W * W }, (_, i) => ((i * 7 + l) % 5 === 0 ? 0 : (((i % 64) + 1) | (i % 4 === 0 ? 0xa0000000 : 0)) >>> 0)),
}));
const map = enc.encode(
  JSON.stringify({
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
  }),
);
const mapText = new TextDecoder().decode(map);
const mapParse = time(() => JSON.parse(mapText));
report(
  'tiled read (256x256x3)',
  map.length,
  time(() => tiledHandler.read(map)),
  mapParse,
);
const doc = tiledHandler.read(map);
const none = {
  load: async () => {
    throw new Error('none');
  },
  exists: async () => false,
};
let model;
for (let i = 0; i < 3; i++) model = await tiledHandler.toModel(doc, none); // warm-up
const t0 = performance.now();
for (let i = 0; i < 8; i++) model = await tiledHandler.toModel(doc, none);
report('tiled toModel', map.length, (performance.now() - t0) / 8);
report(
  'tiled fromModel',
  map.length,
  time(() => tiledHandler.fromModel(model)),
);
const written = tiledHandler.fromModel(model);
report(
  'tiled write JSON',
  map.length,
  time(() => tiledHandler.writeFiles(written, 'm.tmj')),
);

// Writing a sheet: 600 frames of 24x24 from one source sheet.
const img = { width: 600, height: 24, data: new Uint8Array(600 * 24 * 4).map((_, i) => (i * 31) & 255) };
const sprite = {
  kind: 'sprite',
  name: 'x',
  sheets: [{ path: 's', image: img }],
  animations: Array.from({ length: 6 }, (_, a) => ({
    name: `a${a}`,
    loopTo: 0,
    frames: Array.from({ length: 100 }, (_, f) => ({
      durationMs: 100,
      parts: [{ sheet: 0, sx: ((a * 100 + f) % 25) * 24, sy: 0, sw: 24, sh: 24, x: -12, y: -24, flipX: f % 2 === 1 }],
    })),
  })),
};
const pixels = 600 * 24 * 24 * 4;
let files = await asepriteHandler.writeFiles(asepriteHandler.fromModel(sprite), 'x.json'); // warm-up
const t1 = performance.now();
for (let i = 0; i < 3; i++) files = await asepriteHandler.writeFiles(asepriteHandler.fromModel(sprite), 'x.json');
report('aseprite bake+pack+PNG, 600 frames', pixels, (performance.now() - t1) / 3);
console.log(`  sheet PNG ${files[1].bytes.length} bytes, JSON ${files[0].bytes.length} bytes`);
