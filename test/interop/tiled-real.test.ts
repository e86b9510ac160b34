/**
 * sprat against real Tiled (Debian's `tiled` 1.8): test maps generated here
 * (every flip on square and non-square tiles, tiles bigger than the grid,
 * the four render orders, tileoffset, transparentcolor, margin and spacing,
 * layer and group offsets, visibility, opacity, tint, image layers (repeated
 * along x, y or both), tile
 * objects with rotation, flips, scaling, alignment and templates, animated
 * tiles, infinite maps, every compression) rendered by `sprat render` match
 * `tmxrasterizer --no-smoothing` pixel for pixel (translucent draws: within
 * 2 of 255 per channel: Qt rounds its opacity to 1/256 and its two products
 * apart); the TMX files
 * sprat writes open in Tiled, and `tiled --export-map` turns them into the
 * JSON sprat writes; and Tiled's own examples (as Debian's `tiled` package
 * installs them in /usr/share/doc/tiled/examples, copied to a temporary folder
 * and unpacked there; test/fixtures/REAL-FILES.md) read and render as
 * tmxrasterizer renders them.
 * Skipped where `tmxrasterizer` is missing, except in CI.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gzipSync, zlibSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { tiledHandler } from '../../src/interop/tiled/index.js';
import { createImage, type RgbaImage } from '../../src/render/image.js';
import { decodePng, encodePng } from '../../src/render/png.js';
import { runCli } from '../helpers/cli.js';
import { copyOf, haveSource, SOURCES } from '../helpers/real.js';

const TMXRASTERIZER = '/usr/bin/tmxrasterizer';
const TILED = '/usr/bin/tiled';
const haveTiled = fs.existsSync(TMXRASTERIZER) && fs.existsSync(TILED);
if (!haveTiled && process.env.CI) throw new Error("CI must have Debian's tiled (tmxrasterizer) for the Tiled differential tests");
const ENV = { ...process.env, QT_QPA_PLATFORM: 'offscreen' };
const haveExamples = haveTiled && haveSource(SOURCES.tiled);
/** Tiled's examples, copied (and gunzipped) into a temporary folder. */
const REAL = haveExamples ? copyOf(SOURCES.tiled) : '';

/** Opaque pixels all different, a transparent hole and a magenta (transparentcolor) patch in each tile. */
function tilesetImage(w: number, h: number, tw: number, th: number, seed: number): RgbaImage {
  const img = createImage(w, h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const o = (y * w + x) * 4;
      const lx = x % tw;
      const ly = y % th;
      if (lx === 1 && ly === 1) continue; // transparent
      if (lx === tw - 2 && ly === th - 2) {
        img.data.set([255, 0, 255, 255], o);
        continue;
      }
      img.data.set([(x * 13 + seed) & 255, (y * 7 + seed * 5) & 255, (x * 3 + y * 5 + 60) & 255, 255], o);
    }
  }
  return img;
}

const b64 = (u: Uint8Array) => Buffer.from(u).toString('base64');
const gidBytes = (g: number[]) => new Uint8Array(new Uint32Array(g).buffer);
const H = 0x80000000;
const V = 0x40000000;
const D = 0x20000000;
const FLIPS = [0, H, V, H | V, D, D | H, D | V, D | H | V].map((f) => f >>> 0);

function csv(gids: number[]): string {
  return `<data encoding="csv">\n${gids.map((g) => g >>> 0).join(',')}\n</data>`;
}

const TILESETS = `
 <tileset firstgid="1" name="small" tilewidth="8" tileheight="8" tilecount="16" columns="4">
  <image source="small.png" trans="ff00ff" width="32" height="32"/>
  <tile id="5"><animation><frame tileid="7" duration="100"/><frame tileid="2" duration="100"/></animation></tile>
 </tileset>
 <tileset firstgid="17" name="big" tilewidth="16" tileheight="24" tilecount="4" columns="2" margin="1" spacing="2">
  <tileoffset x="3" y="-5"/>
  <image source="big.png" width="36" height="52"/>
 </tileset>
 <tileset firstgid="21" name="aligned" tilewidth="8" tileheight="8" tilecount="16" columns="4" objectalignment="topleft">
  <image source="small.png" width="32" height="32"/>
 </tileset>`;

function map(body: string, attrs = 'width="6" height="5"', order = 'right-down', infinite = 0): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" tiledversion="1.8.2" orientation="orthogonal" renderorder="${order}" ${attrs} tilewidth="8" tileheight="8" infinite="${infinite}" nextlayerid="20" nextobjectid="40">${TILESETS}
${body}
</map>
`;
}

const W = 6;
const HH = 5;
/** Layer 1: every flip of several small tiles; layer 2: big tiles (16×24, offset) with flips, overlapping. */
const flipsLayer = csv(Array.from({ length: W * HH }, (_, i) => (i % 7 === 6 ? 0 : ((i % 16) + 1 + FLIPS[i % 8]!) >>> 0)));
const bigLayer = csv(Array.from({ length: W * HH }, (_, i) => (i % 3 === 0 ? (17 + (i % 4) + FLIPS[((i / 3) % 8) | 0]!) >>> 0 : 0)));

const MAPS: Record<string, { text: string; tolerance?: number }> = {
  flips: {
    text: map(
      `<layer id="1" name="small" width="6" height="5">${flipsLayer}</layer>\n<layer id="2" name="big" width="6" height="5">${bigLayer}</layer>`,
    ),
  },
  ...Object.fromEntries(
    ['right-up', 'left-down', 'left-up'].map((o) => [
      `order-${o}`,
      { text: map(`<layer id="2" name="big" width="6" height="5">${bigLayer}</layer>`, 'width="6" height="5"', o) },
    ]),
  ),
  layers: {
    text: map(`
 <imagelayer id="9" name="bg" offsetx="-3" offsety="4"><image source="small.png" trans="ff00ff" width="32" height="32"/></imagelayer>
 <layer id="1" name="shifted" width="6" height="5" offsetx="-5" offsety="7">${flipsLayer}</layer>
 <layer id="3" name="hidden" width="6" height="5" visible="0">${flipsLayer}</layer>
 <group id="4" name="g" offsetx="3" offsety="2" tintcolor="#ff8040">
  <layer id="5" name="tinted" width="6" height="5" tintcolor="#80ff80">${bigLayer}</layer>
 </group>
 <group id="6" name="hiddengroup" visible="0">
  <layer id="7" name="in hidden group" width="6" height="5">${flipsLayer}</layer>
 </group>`),
  },
  // repeatx / repeaty (Tiled 1.8): the image tiles the whole canvas along that axis, aligned on the layer's offset.
  repeat: {
    text: map(`
 <imagelayer id="11" name="xy" offsetx="7" offsety="3" repeatx="1" repeaty="1"><image source="small.png" width="32" height="32"/></imagelayer>
 <imagelayer id="9" name="x" offsetx="-3" offsety="4" repeatx="1"><image source="small.png" trans="ff00ff" width="32" height="32"/></imagelayer>
 <imagelayer id="10" name="y" offsetx="5" offsety="-7" repeaty="1" opacity="1"><image source="big.png" width="36" height="52"/></imagelayer>
 <layer id="1" name="shifted" width="6" height="5" offsetx="-5" offsety="7">${flipsLayer}</layer>`),
  },
  opacity: {
    text: map(`
 <layer id="1" name="base" width="6" height="5">${flipsLayer}</layer>
 <group id="4" name="g" opacity="0.8">
  <layer id="5" name="half" width="6" height="5" opacity="0.5">${bigLayer}</layer>
 </group>`),
    tolerance: 2,
  },
  objects: {
    text: map(`
 <objectgroup id="1" name="objects">
  <object id="1" gid="2" x="8" y="16" width="8" height="8"/>
  <object id="2" gid="${(3 + H) >>> 0}" x="16" y="16" width="8" height="8" rotation="90"/>
  <object id="3" gid="${(4 + D) >>> 0}" x="32" y="24" width="8" height="8" rotation="180"/>
  <object id="4" gid="17" x="8" y="40" width="16" height="24"/>
  <object id="5" gid="${(18 + V) >>> 0}" x="24" y="40" width="16" height="24" rotation="270"/>
  <object id="6" gid="1" x="0" y="0" width="16" height="16"/>
  <object id="7" gid="22" x="40" y="8" width="8" height="8"/>
  <object id="8" gid="6" x="40" y="32" width="8" height="8"/>
  <object id="9" gid="7" x="44" y="20" width="8" height="8" visible="0"/>
 </objectgroup>
 <objectgroup id="2" name="indexed" draworder="index" offsetx="2" offsety="1">
  <object id="11" gid="9" x="8" y="30" width="8" height="8"/>
  <object id="12" gid="10" x="10" y="26" width="8" height="8"/>
 </objectgroup>`),
  },
  infinite: {
    text: map(
      `<layer id="1" name="chunks" width="32" height="32" offsetx="4">
  <data encoding="base64" compression="zlib">
   <chunk x="-16" y="-16" width="16" height="16">${b64(zlibSync(gidBytes(Array.from({ length: 256 }, (_, i) => (i % 5 === 0 ? (i % 16) + 1 : 0)))))}</chunk>
   <chunk x="16" y="0" width="16" height="16">${b64(zlibSync(gidBytes(Array.from({ length: 256 }, (_, i) => (i % 7 === 0 ? ((i % 4) + 17 + FLIPS[i % 8]!) >>> 0 : 0)))))}</chunk>
  </data>
 </layer>`,
      'width="30" height="20"',
      'right-down',
      1,
    ),
  },
  gzip: {
    text: map(
      `<layer id="1" name="g" width="6" height="5"><data encoding="base64" compression="gzip">${b64(
        gzipSync(gidBytes(Array.from({ length: 30 }, (_, i) => ((i % 16) + 1 + FLIPS[i % 8]!) >>> 0))),
      )}</data></layer>`,
    ),
  },
};

const TEMPLATE = `<?xml version="1.0" encoding="UTF-8"?>
<template>
 <tileset firstgid="1" source="small.tsx"/>
 <object gid="${(12 + H) >>> 0}" width="8" height="8"/>
</template>
`;
const SMALL_TSX = `<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="small" tilewidth="8" tileheight="8" tilecount="16" columns="4">
 <image source="small.png" trans="ff00ff" width="32" height="32"/>
</tileset>
`;

function tmxrasterize(file: string, out: string, extra: string[] = []) {
  execFileSync(TMXRASTERIZER, ['--no-smoothing', ...extra, file, out], { env: ENV, stdio: 'pipe' });
  return decodePng(fs.readFileSync(out));
}

/** Pixels that differ (transparent pixels equal whatever their colour) by more than `tolerance`; the first one described. */
function differences(a: RgbaImage, b: RgbaImage, tolerance = 0): { count: number; first?: string } {
  expect([b.width, b.height]).toEqual([a.width, a.height]);
  let count = 0;
  let first: string | undefined;
  for (let i = 0; i < a.data.length; i += 4) {
    if (a.data[i + 3] === 0 && b.data[i + 3] === 0) continue;
    let d = 0;
    for (let c = 0; c < 4; c++) d = Math.max(d, Math.abs(a.data[i + c]! - b.data[i + c]!));
    if (d > tolerance) {
      count++;
      first ??= `(${(i / 4) % a.width}, ${Math.floor(i / 4 / a.width)}): tiled ${a.data.subarray(i, i + 4).join(',')}, sprat ${b.data.subarray(i, i + 4).join(',')}`;
    }
  }
  return { count, first };
}

async function spratRender(dir: string, file: string, out: string): Promise<RgbaImage> {
  const r = await runCli(['render', file, '-o', out], dir);
  expect(r.code, r.stderr).toBe(0);
  return decodePng(fs.readFileSync(path.join(dir, out)));
}

/** A Tiled JSON document with Tiled's defaults filled in and the keys that only say how it was stored left out. */
function normal(v: unknown, key = ''): unknown {
  if (Array.isArray(v)) return v.map((x) => normal(x, key));
  if (typeof v !== 'object' || v === null) return v;
  const o = { ...(v as Record<string, unknown>) };
  for (const k of ['tiledversion', 'version', 'compressionlevel', 'editorsettings']) delete o[k];
  if (o.type === 'tilelayer' || o.type === 'objectgroup' || o.type === 'imagelayer' || o.type === 'group') {
    o.opacity ??= 1;
    o.visible ??= true;
    o.x ??= 0;
    o.y ??= 0;
    o.offsetx ??= 0;
    o.offsety ??= 0;
  }
  if (o.type === 'objectgroup') o.draworder ??= 'topdown';
  if (o.type === 'imagelayer') {
    // Tiled 1.8's JSON has no image size for image layers.
    delete o.imagewidth;
    delete o.imageheight;
  }
  if (key === 'objects') {
    o.name ??= '';
    o.type ??= '';
    o.rotation ??= 0;
    o.visible ??= true;
  }
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o).sort()) out[k] = normal(o[k], k);
  return out;
}

describe.skipIf(!haveTiled)('tiled: sprat renders as tmxrasterizer', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-tiled-'));
  fs.writeFileSync(path.join(dir, 'small.png'), encodePng(tilesetImage(32, 32, 8, 8, 1)));
  fs.writeFileSync(path.join(dir, 'big.png'), encodePng(tilesetImage(36, 52, 18, 26, 2)));
  fs.writeFileSync(path.join(dir, 'obj.tx'), TEMPLATE);
  fs.writeFileSync(path.join(dir, 'small.tsx'), SMALL_TSX);
  for (const [name, m] of Object.entries(MAPS)) fs.writeFileSync(path.join(dir, `${name}.tmx`), m.text);

  for (const [name, m] of Object.entries(MAPS)) {
    it(`${name}: the same pixels`, async () => {
      const tiled = tmxrasterize(path.join(dir, `${name}.tmx`), path.join(dir, `${name}-tiled.png`));
      const sprat = await spratRender(dir, `${name}.tmx`, `${name}-sprat.png`);
      expect(differences(tiled, sprat, m.tolerance)).toEqual({ count: 0, first: undefined });
    });
  }

  it('a tileset with margin and spacing and no right or bottom margin: every row as Tiled cuts it (the margin counted once)', async () => {
    // 3 × 3 tiles of 8 × 8 after a margin of 3, 1 pixel apart: 29 × 29 (Tileset::columnCountForWidth: (29 - 3 + 1) / 9).
    fs.writeFileSync(path.join(dir, 'edge.png'), encodePng(tilesetImage(29, 29, 9, 9, 3)));
    const gids = Array.from({ length: W * HH }, (_, i) => (i % 10) + FLIPS[i % 8]!);
    fs.writeFileSync(
      path.join(dir, 'margin.tmx'),
      `<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" tiledversion="1.8.2" orientation="orthogonal" renderorder="right-down" width="6" height="5" tilewidth="8" tileheight="8" infinite="0" nextlayerid="2" nextobjectid="1">
 <tileset firstgid="1" name="edge" tilewidth="8" tileheight="8" tilecount="9" columns="3" margin="3" spacing="1">
  <image source="edge.png" width="29" height="29"/>
 </tileset>
 <layer id="1" name="m" width="6" height="5">${csv(gids.map((g) => g >>> 0))}</layer>
</map>
`,
    );
    const tiled = tmxrasterize(path.join(dir, 'margin.tmx'), path.join(dir, 'margin-tiled.png'));
    const sprat = await spratRender(dir, 'margin.tmx', 'margin-sprat.png');
    expect(differences(tiled, sprat)).toEqual({ count: 0, first: undefined });
  });

  it('zstd layers: the same pixels (when this Tiled reads zstd)', async () => {
    // A zstd frame of one raw block: valid for every decoder.
    const data = gidBytes(Array.from({ length: 30 }, (_, i) => ((i % 16) + 1 + FLIPS[i % 8]!) >>> 0));
    const n = data.length;
    const bh = (n << 3) | 1;
    const frame = new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0x20, n, bh & 255, (bh >> 8) & 255, (bh >> 16) & 255, ...data]);
    fs.writeFileSync(
      path.join(dir, 'zstd.tmx'),
      map(`<layer id="1" name="z" width="6" height="5"><data encoding="base64" compression="zstd">${b64(frame)}</data></layer>`),
    );
    let tiled: RgbaImage;
    try {
      tiled = tmxrasterize(path.join(dir, 'zstd.tmx'), path.join(dir, 'zstd-tiled.png'));
    } catch {
      return; // built without zstd
    }
    const sprat = await spratRender(dir, 'zstd.tmx', 'zstd-sprat.png');
    expect(differences(tiled, sprat)).toEqual({ count: 0, first: undefined });
  });

  for (const name of ['flips', 'layers', 'objects', 'infinite']) {
    it(`${name}: the TMX and JSON sprat writes open in Tiled and export to the same document`, async () => {
      for (const [from, to] of [
        [`${name}.tmx`, `${name}-sprat.tmj`],
        [`${name}-sprat.tmj`, `${name}-sprat.tmx`],
      ]) {
        const r = await runCli(['convert', from!, to!, '--overwrite'], dir);
        expect(r.code, r.stderr).toBe(0);
      }
      execFileSync(TILED, ['--export-map', 'json', `${name}-sprat.tmx`, `${name}-tiled.json`], { cwd: dir, env: ENV, stdio: 'pipe' });
      const theirs = JSON.parse(fs.readFileSync(path.join(dir, `${name}-tiled.json`), 'utf8'));
      const ours = JSON.parse(fs.readFileSync(path.join(dir, `${name}-sprat.tmj`), 'utf8'));
      // Tiled writes tile data in its own encoding: compare decoded documents.
      const strip = (o: unknown) => {
        const doc = tiledHandler.read(new TextEncoder().encode(JSON.stringify(o)));
        const visit = (ls: any[]) => {
          for (const l of ls) {
            if (l.type === 'tilelayer') l.encoding = l.compression = undefined;
            if (l.type === 'group') visit(l.layers);
          }
        };
        visit(doc.layers);
        const d = JSON.parse(JSON.stringify(tiledHandler.inspectJson(doc)));
        const drop = (ls: any[]) => {
          for (const l of ls) {
            delete l.encoding;
            delete l.compression;
            if (l.layers) drop(l.layers);
          }
        };
        drop(d.layers);
        return normal(d);
      };
      expect(strip(theirs)).toEqual(strip(ours));
      // And the map Tiled wrote draws the same as the one sprat wrote.
      const a = tmxrasterize(path.join(dir, `${name}-sprat.tmx`), path.join(dir, `${name}-rt.png`));
      const b = tmxrasterize(path.join(dir, `${name}.tmx`), path.join(dir, `${name}-orig.png`));
      expect(differences(b, a)).toEqual({ count: 0, first: undefined });
    });
  }
});

describe.skipIf(!haveExamples)("tiled: Tiled's own examples", () => {
  const maps = [
    'desert.tmx',
    'perspective_walls.tmx',
    'sewers.tmx',
    'orthogonal-outside.tmx',
    'rpg/island.tmx',
    'hexagonal-mini.tmx',
    'isometric_grass_and_water.tmx',
    'isometric_staggered_grass_and_water.tmx',
    'test_hexagonal_tile_60x60x30.tmx',
    ...fs
      .readdirSync(path.join(REAL, 'sewer_automap'))
      .filter((f) => f.endsWith('.tmx'))
      .map((f) => `sewer_automap/${f}`),
  ];

  it('every map and tileset validates', async () => {
    const files = [...maps, 'desert.tsx', 'perspective_walls.tsx', 'rpg/beach_tileset.tsx'];
    const r = await runCli(['validate', ...files], REAL);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(files.length);
  });

  // Tile objects at fractional places land where Qt's sampling puts them: orthogonal-outside's object layer is left out here
  // (real-collection.test.ts compares it within a tolerance). Shape objects (island's, the sewer rules') are drawn as Tiled
  // draws them, pixel for pixel (tiled-objects.test.ts).
  const ORTHO: [string, string[], number?][] = [
    ['desert.tmx', []],
    ['perspective_walls.tmx', []],
    ['sewers.tmx', [], 1],
    ['orthogonal-outside.tmx', ['Objects']],
    ['rpg/island.tmx', []],
    ...maps.filter((m) => m.startsWith('sewer_automap/')).map((m): [string, string[]] => [m, []]),
  ];
  for (const [file, hide, tolerance] of ORTHO) {
    it(`${file}: drawn as tmxrasterizer draws it`, async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-tiled-real-'));
      const tiled = tmxrasterize(
        path.join(REAL, file),
        path.join(dir, 'tiled.png'),
        hide.flatMap((h) => ['--hide-layer', h]),
      );
      let target = file;
      if (hide.length) {
        // The same map less the hidden layers, written beside the original (its tilesets are found from there).
        const doc = tiledHandler.read(fs.readFileSync(path.join(REAL, file)));
        doc.layers = doc.layers.filter((l: { name: string }) => !hide.includes(l.name));
        const out = (await tiledHandler.writeFiles!(doc, 'x.tmx'))[0]!.bytes;
        target = path.join(path.dirname(file), `.sprat-test-${path.basename(file)}`);
        fs.writeFileSync(path.join(REAL, target), out);
      }
      try {
        const r = await runCli(['render', target, '-o', path.join(dir, 'sprat.png')], REAL);
        expect(r.code, r.stderr).toBe(0);
        const sprat = decodePng(fs.readFileSync(path.join(dir, 'sprat.png')));
        expect(differences(tiled, sprat, tolerance)).toEqual({ count: 0, first: undefined });
      } finally {
        if (target !== file) fs.rmSync(path.join(REAL, target));
      }
    });
  }

  it('every map and tileset comes back byte for byte when sprat re-encodes it (TMX to TMX, TSX to TSX)', async () => {
    const files = [...maps, 'desert.tsx', 'perspective_walls.tsx', 'rpg/beach_tileset.tsx'];
    for (const f of files) {
      const bytes = new Uint8Array(fs.readFileSync(path.join(REAL, f)));
      const out = (await tiledHandler.writeFiles!(tiledHandler.read(bytes), path.basename(f)))[0]!.bytes;
      expect(new TextDecoder().decode(out), f).toBe(new TextDecoder().decode(bytes));
    }
  });

  it('isometric, staggered and hexagonal maps: read, converted to JSON and back, not drawn (one line)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-tiled-iso-'));
    for (const f of ['hexagonal-mini.tmx', 'isometric_grass_and_water.tmx', 'isometric_staggered_grass_and_water.tmx']) {
      const json = path.join(dir, `${path.basename(f)}.tmj`);
      expect((await runCli(['convert', f, json], REAL)).code).toBe(0);
      const back = path.join(dir, `${path.basename(f)}.tmx`);
      expect((await runCli(['convert', json, back], REAL)).code).toBe(0);
      const a = tiledHandler.read(fs.readFileSync(path.join(REAL, f)));
      const b = tiledHandler.read(fs.readFileSync(back));
      expect(tiledHandler.inspectJson(b)).toEqual(tiledHandler.inspectJson(a));
      const r = await runCli(['render', f, '-o', path.join(dir, 'x.png')], REAL);
      expect(r.code).toBe(1);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/maps are not drawn/);
    }
  });
});

describe.skipIf(!haveTiled)('tiled: a missing file is left out, the rest drawn as tmxrasterizer draws it', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-tiled-missing-'));
  fs.writeFileSync(path.join(dir, 'small.png'), encodePng(tilesetImage(32, 32, 8, 8, 1)));
  const gids = Array.from({ length: W * HH }, (_, i) => (i % 16) + 1);
  const goneGids = Array.from({ length: W * HH }, (_, i) => (i % 2 ? 17 + (i % 4) : 0));
  const TMX = `<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" tiledversion="1.8.2" orientation="orthogonal" renderorder="right-down" width="6" height="5" tilewidth="8" tileheight="8" infinite="0" nextlayerid="5" nextobjectid="3">
 <tileset firstgid="1" name="small" tilewidth="8" tileheight="8" tilecount="16" columns="4">
  <image source="small.png" width="32" height="32"/>
 </tileset>
 <tileset firstgid="17" name="gone" tilewidth="8" tileheight="8" tilecount="4" columns="2">
  <image source="gone.png" width="16" height="16"/>
 </tileset>
 <layer id="1" name="small" width="6" height="5">${csv(gids)}</layer>
 <layer id="2" name="gone" width="6" height="5">${csv(goneGids)}</layer>
 <imagelayer id="3" name="backdrop"><image source="nothere.png" width="16" height="16"/></imagelayer>
 <objectgroup id="4" name="things">
  <object id="1" template="gone.tx" x="8" y="16"/>
  <object id="2" template="gone.tx" x="24" y="32"/>
 </objectgroup>
</map>
`;
  fs.writeFileSync(path.join(dir, 'missing.tmx'), TMX);
  // tmxrasterizer draws a placeholder for a missing image; sprat leaves out what it cannot draw. "The rest" is the map
  // with no layer or object that uses a missing file, as tmxrasterizer draws it.
  const REST = TMX.replace(/ <layer id="2"[\s\S]*?<\/layer>\n/, '')
    .replace(/ <imagelayer[^\n]*\n/, '')
    .replace(/ {2}<object [^\n]*\n/g, '');
  fs.writeFileSync(path.join(dir, 'rest.tmx'), REST);
  const WARNINGS = [
    'missing.tmx: warning: the image of tileset "gone" "gone.png" not found',
    'missing.tmx: warning: the image of image layer "backdrop" "nothere.png" not found',
    'missing.tmx: warning: the object template "gone.tx" not found',
  ];

  it('TMX: the pixels tmxrasterizer draws for the rest, one warning per missing file', async () => {
    const tiled = tmxrasterize(path.join(dir, 'rest.tmx'), path.join(dir, 'rest-tiled.png'));
    const r = await runCli(['render', 'missing.tmx', '-o', 'missing-sprat.png'], dir);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.length, r.stderr).toBe(3);
    for (const w of WARNINGS) expect(lines.filter((l) => l.startsWith(w)).length, r.stderr).toBe(1);
    const sprat = decodePng(fs.readFileSync(path.join(dir, 'missing-sprat.png')));
    expect(differences(tiled, sprat)).toEqual({ count: 0, first: undefined });
  });

  it('JSON (as Tiled exports it): the pixels of the rest, the same warnings', async () => {
    execFileSync(TILED, ['--export-map', 'json', 'missing.tmx', 'missing.json'], { cwd: dir, env: ENV, stdio: 'pipe' });
    const tiled = tmxrasterize(path.join(dir, 'rest.tmx'), path.join(dir, 'rest-tiled.png'));
    const r = await runCli(['render', 'missing.json', '-o', 'missing-json.png'], dir);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.length, r.stderr).toBe(3);
    for (const w of WARNINGS) expect(lines.filter((l) => l.startsWith(w.replace('missing.tmx', 'missing.json'))).length, r.stderr).toBe(1);
    const sprat = decodePng(fs.readFileSync(path.join(dir, 'missing-json.png')));
    expect(differences(tiled, sprat)).toEqual({ count: 0, first: undefined });
  });

  it('--strict: the error of before, exit 1, nothing written', async () => {
    const r = await runCli(['render', 'missing.tmx', '-o', 'strict.png', '--strict'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^sprat: error: missing\.tmx: .*"gone\.png" not found.*\(and 2 more missing file\(s\)\)\n$/);
    expect(fs.existsSync(path.join(dir, 'strict.png'))).toBe(false);
  });

  it('check still reports each missing file as an error', async () => {
    const r = await runCli(['check', 'missing.tmx'], dir);
    expect(r.code).toBe(1);
    for (const f of ['gone.png', 'nothere.png', 'gone.tx']) expect(r.stdout + r.stderr).toContain(f);
  });
});
