/**
 * Tiled's XML syntax (TMX/TSX) and what came with it: one document for JSON
 * and XML, every layer encoding, infinite maps, properties of every type,
 * external .tsx tilesets, errors placed at their line and column, and
 * validate agreeing with render on a missing external tileset.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gzipSync, zlibSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../src/detect.js';
import { tiledHandler, type TiledDoc, type TiledTileLayer } from '../../src/interop/tiled/index.js';
import { drawPicture } from '../../src/render/pipeline.js';
import { encodePng } from '../../src/render/png.js';
import { runCli } from '../helpers/cli.js';
import { memoryLoader, patternImage, pixel } from './helpers.js';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);
const b64 = (u: Uint8Array) => btoa(String.fromCharCode(...u));
const gidBytes = (g: number[]) => new Uint8Array(new Uint32Array(g).buffer);

/** A zstd frame holding `data` as one raw block (what any zstd decoder must read). */
function zstdRaw(data: Uint8Array): Uint8Array {
  const n = data.length;
  const head = [0x28, 0xb5, 0x2f, 0xfd, 0xa0, n & 255, (n >> 8) & 255, (n >> 16) & 255, (n >> 24) & 255];
  const bh = (n << 3) | 1;
  return new Uint8Array([...head, bh & 255, (bh >> 8) & 255, (bh >> 16) & 255, ...data]);
}

function tmx(layerData: string, extra = '', attrs = 'width="3" height="2"'): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down" ${attrs} tilewidth="8" tileheight="8" infinite="0" nextlayerid="2" nextobjectid="1">
 <tileset firstgid="1" name="t" tilewidth="8" tileheight="8" tilecount="4" columns="2">
  <image source="t.png" width="16" height="16"/>
 </tileset>
 <layer id="1" name="L" width="3" height="2">
  ${layerData}
 </layer>${extra}
</map>
`;
}

const GIDS = [1, 0x80000002, 0, 3, 0x40000004, 0x20000001];

describe('tmx: reading', () => {
  it('is found by its root element and by extension', () => {
    const bytes = enc(tmx(`<data encoding="csv">${GIDS.join(',')}</data>`));
    expect(detectFormat(bytes, 'x.tmx')?.name).toBe('tiled');
    expect(detectFormat(bytes, 'x.bin')?.name).toBe('tiled');
    expect(detectFormat(enc('<?xml version="1.0"?>\n<!-- a -->\n<tileset name="a" tilewidth="8" tileheight="8"/>'), 'a')?.name).toBe(
      'tiled',
    );
  });

  it('reads every layer encoding to the same GIDs: csv, <tile> elements, base64 plain, zlib, gzip and zstd', () => {
    const raw = gidBytes(GIDS);
    const datas = [
      `<data encoding="csv">\n${GIDS.join(',')}\n</data>`,
      `<data>${GIDS.map((g) => (g ? `<tile gid="${g >>> 0}"/>` : '<tile/>')).join('')}</data>`,
      `<data encoding="base64">${b64(raw)}</data>`,
      `<data encoding="base64" compression="zlib">${b64(zlibSync(raw))}</data>`,
      `<data encoding="base64" compression="gzip">${b64(gzipSync(raw))}</data>`,
      `<data encoding="base64" compression="zstd">${b64(zstdRaw(raw))}</data>`,
    ];
    for (const d of datas) {
      const doc = tiledHandler.read(enc(tmx(d))) as TiledDoc;
      expect(Array.from((doc.layers[0] as TiledTileLayer).data), d.slice(0, 40)).toEqual(GIDS.map((g) => g >>> 0));
    }
    // zstd in a JSON map too.
    const json = {
      type: 'map',
      width: 3,
      height: 2,
      tilewidth: 8,
      tileheight: 8,
      layers: [{ type: 'tilelayer', name: 'L', width: 3, height: 2, encoding: 'base64', compression: 'zstd', data: b64(zstdRaw(raw)) }],
      tilesets: [],
    };
    expect(Array.from((tiledHandler.read(enc(JSON.stringify(json))).layers[0] as TiledTileLayer).data)).toEqual(GIDS.map((g) => g >>> 0));
  });

  it('reads infinite maps: chunks in any encoding, drawn at their place', async () => {
    const c1 = [1, 2, 3, 4];
    const text = `<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="30" height="20" tilewidth="8" tileheight="8" infinite="1">
 <tileset firstgid="1" name="t" tilewidth="8" tileheight="8" tilecount="4" columns="2"><image source="t.png" width="16" height="16"/></tileset>
 <layer id="1" name="L" width="30" height="20">
  <data encoding="base64" compression="zlib">
   <chunk x="-16" y="0" width="2" height="2">${b64(zlibSync(gidBytes(c1)))}</chunk>
   <chunk x="16" y="16" width="2" height="2">${b64(zlibSync(gidBytes([0, 0, 0, 4])))}</chunk>
  </data>
 </layer>
</map>`;
    const doc = tiledHandler.read(enc(text)) as TiledDoc;
    const l = doc.layers[0] as TiledTileLayer;
    expect(doc.infinite).toBe(true);
    expect(l.chunks?.map((c) => [c.x, c.y, Array.from(c.data)])).toEqual([
      [-16, 0, c1],
      [16, 16, [0, 0, 0, 4]],
    ]);
    const tiles = patternImage(16, 16);
    const pic = await tiledHandler.picture!(doc, {}, memoryLoader({ 't.png': encodePng(tiles) }));
    const img = drawPicture(pic).frames[0]!;
    // The 16-tile chunks holding tiles: x from -16 to 32, y from 0 to 32 (tmxrasterizer's bounds).
    expect([img.width, img.height]).toEqual([48 * 8, 32 * 8]);
    expect(pixel(img, 0, 0)).toEqual(pixel(tiles, 0, 0));
    expect(pixel(img, 8, 8)).toEqual(pixel(tiles, 8, 8));
    expect(pixel(img, (16 + 17) * 8, 17 * 8)).toEqual(pixel(tiles, 8, 8));
    // JSON and back keeps the chunks.
    const files = await tiledHandler.writeFiles!(doc, 'inf.tmj');
    const again = tiledHandler.read(files[0]!.bytes) as TiledDoc;
    expect((again.layers[0] as TiledTileLayer).chunks).toEqual(l.chunks);
    // To the common model: one grid over all chunks, with a note.
    const model = await tiledHandler.toModel!(doc, memoryLoader({ 't.png': encodePng(tiles) }));
    expect(model.kind === 'level' && [model.layers[0]!.width, model.layers[0]!.height]).toEqual([34, 18]);
    expect(model.notes?.join('\n')).toMatch(/infinite map's chunks became layers of 34x18 tiles starting at tile \(-16, 0\)/);
  });

  it('keeps properties of every type, class values and lists included', async () => {
    const props = `
 <properties>
  <property name="s" value="a &amp; b"/>
  <property name="multi">line 1
line 2</property>
  <property name="i" type="int" value="3"/>
  <property name="f" type="float" value="1.5"/>
  <property name="b" type="bool" value="true"/>
  <property name="c" type="color" value="#ff102030"/>
  <property name="file" type="file" value="a/b.png"/>
  <property name="o" type="object" value="7"/>
  <property name="k" type="class" propertytype="Spawn">
   <properties>
    <property name="count" type="int" value="2"/>
    <property name="tag" value="x"/>
   </properties>
  </property>
  <property name="l" type="list">
   <item type="int" value="1"/>
   <item value="two"/>
  </property>
 </properties>`;
    const text = tmx('<data encoding="csv">0,0,0,0,0,0</data>').replace('<tileset', `${props}\n <tileset`);
    const doc = tiledHandler.read(enc(text)) as TiledDoc;
    expect(doc.properties.map((p) => [p.name, p.type, p.value])).toEqual([
      ['s', 'string', 'a & b'],
      ['multi', 'string', 'line 1\nline 2'],
      ['i', 'int', 3],
      ['f', 'float', 1.5],
      ['b', 'bool', true],
      ['c', 'color', '#ff102030'],
      ['file', 'file', 'a/b.png'],
      ['o', 'object', 7],
      ['k', 'class', { count: 2, tag: 'x' }],
      [
        'l',
        'list',
        [
          { type: 'int', value: 1 },
          { type: 'string', value: 'two' },
        ],
      ],
    ]);
    expect(doc.properties.find((p) => p.name === 'k')?.propertytype).toBe('Spawn');
    // Through JSON and back to TMX and back: the same properties.
    const json = (await tiledHandler.writeFiles!(doc, 'a.tmj'))[0]!.bytes;
    const back = (await tiledHandler.writeFiles!(tiledHandler.read(json), 'a.tmx'))[0]!.bytes;
    expect((tiledHandler.read(back) as TiledDoc).properties).toEqual(doc.properties);
  });

  it('names the line and column of XML syntax errors and of bad values', () => {
    const bad = (t: string) => () => tiledHandler.read(enc(t));
    expect(bad('<map width="2">\n <layer>\n</map>')).toThrow(/not valid XML: .*\(at line 3, column \d+\)|line 3/);
    const text = tmx('<data encoding="csv">1,2,3</data>');
    let err: unknown;
    try {
      tiledHandler.read(enc(text));
    } catch (e) {
      err = e;
    }
    expect(String(err)).toMatch(/\$\.layers\[0\]\.data: has 3 entries for 6 cells/);
    expect(err).toMatchObject({ line: 7 });
    const v = tiledHandler.validate(enc(text.replace('tilewidth="8" tileheight="8" infinite', 'tilewidth="x" tileheight="8" infinite')));
    expect(v[0]?.message).toMatch(/\$\.tilewidth: expected a number/);
    expect(v[0]).toMatchObject({ severity: 'error', line: 2 });
  });

  it('keeps object layers, image layers, groups, tileset tiles and unknown fields through JSON and back', async () => {
    const extra = `
 <group id="3" name="G" offsetx="4" offsety="-2" opacity="0.5" tintcolor="#80ff0000" visible="0">
  <imagelayer id="4" name="I" offsetx="1"><image source="bg.png" trans="ff00ff" width="16" height="16"/></imagelayer>
  <objectgroup id="5" name="O" color="#a0a0a4" draworder="index">
   <object id="1" name="p" type="T" x="1.5" y="2" width="8" height="8" rotation="90" gid="2147483650"/>
   <object id="2" x="3" y="4"><ellipse/></object>
   <object id="3" x="3" y="4"><polygon points="0,0 4,0 4,4"/></object>
   <object id="4" x="3" y="4" width="40" height="10"><text wrap="1" color="#ff0000">Hello &lt;world&gt;</text></object>
   <object id="5" template="a.tx" x="9" y="9"/>
  </objectgroup>
 </group>`;
    const text = tmx('<data encoding="csv">1,2,3,4,0,0</data>', extra).replace(
      '<image source="t.png" width="16" height="16"/>',
      '<tileoffset x="2" y="-3"/>\n  <image source="t.png" trans="00ff00" width="16" height="16"/>\n  <tile id="1" probability="0.5"><animation><frame tileid="2" duration="100"/><frame tileid="3" duration="100"/></animation></tile>',
    );
    const doc = tiledHandler.read(enc(text)) as TiledDoc;
    const json = JSON.parse(dec((await tiledHandler.writeFiles!(doc, 'm.tmj'))[0]!.bytes));
    const g = json.layers[1];
    expect(g).toMatchObject({ type: 'group', name: 'G', offsetx: 4, offsety: -2, opacity: 0.5, tintcolor: '#80ff0000', visible: false });
    expect(g.layers[0]).toMatchObject({ type: 'imagelayer', image: 'bg.png', transparentcolor: '#ff00ff', offsetx: 1 });
    expect(g.layers[1].objects).toEqual([
      { id: 1, name: 'p', type: 'T', x: 1.5, y: 2, width: 8, height: 8, rotation: 90, gid: 2147483650 },
      { id: 2, x: 3, y: 4, ellipse: true },
      {
        id: 3,
        x: 3,
        y: 4,
        polygon: [
          { x: 0, y: 0 },
          { x: 4, y: 0 },
          { x: 4, y: 4 },
        ],
      },
      { id: 4, x: 3, y: 4, width: 40, height: 10, text: { wrap: true, color: '#ff0000', text: 'Hello <world>' } },
      { id: 5, template: 'a.tx', x: 9, y: 9 },
    ]);
    expect(json.tilesets[0]).toMatchObject({
      tileoffset: { x: 2, y: -3 },
      transparentcolor: '#00ff00',
      tiles: [{ id: 1, probability: 0.5 }],
    });
    // Back to TMX and read again: the same JSON.
    const tmx2 = (await tiledHandler.writeFiles!(tiledHandler.read(enc(JSON.stringify(json))), 'm.tmx'))[0]!.bytes;
    const json2 = JSON.parse(dec((await tiledHandler.writeFiles!(tiledHandler.read(tmx2), 'm.tmj'))[0]!.bytes));
    expect(json2).toEqual(json);
  });

  it('writes every encoding back as it was read (zstd as zlib: sprat has no zstd encoder)', async () => {
    const raw = gidBytes(GIDS);
    for (const [attrs, data, expected] of [
      ['encoding="csv"', GIDS.map((g) => g >>> 0).join(','), 'encoding="csv"'],
      ['encoding="base64" compression="gzip"', b64(gzipSync(raw)), 'encoding="base64" compression="gzip"'],
      ['encoding="base64" compression="zstd"', b64(zstdRaw(raw)), 'encoding="base64" compression="zlib"'],
    ] as const) {
      const doc = tiledHandler.read(enc(tmx(`<data ${attrs}>${data}</data>`)));
      const out = dec((await tiledHandler.writeFiles!(doc, 'o.tmx'))[0]!.bytes);
      expect(out).toContain(`<data ${expected}>`);
      expect(Array.from((tiledHandler.read(enc(out)).layers[0] as TiledTileLayer).data)).toEqual(GIDS.map((g) => g >>> 0));
    }
  });

  it('says so when convert writes a zstd layer as zlib (one note naming the layers); nothing for the others', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-zstd-'));
    fs.writeFileSync(path.join(dir, 'z.tmx'), tmx(`<data encoding="base64" compression="zstd">${b64(zstdRaw(gidBytes(GIDS)))}</data>`));
    fs.writeFileSync(path.join(dir, 'g.tmx'), tmx(`<data encoding="base64" compression="gzip">${b64(gzipSync(gidBytes(GIDS)))}</data>`));
    for (const out of ['z2.tmx', 'z2.tmj']) {
      const r = await runCli(['convert', 'z.tmx', out], dir);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe('z.tmx: note: tiled: zstd-compressed layer data is written with zlib (sprat has no zstd encoder): "L"\n');
    }
    const r = await runCli(['convert', 'g.tmx', 'g2.tmx'], dir);
    expect(r.stderr).toBe('');
  });
});

describe('tmx: files on disk (CLI)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-tmx-'));
  const tsx = `<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="ext" tilewidth="8" tileheight="8" tilecount="4" columns="2">
 <image source="../t.png" width="16" height="16"/>
</tileset>
`;
  const map = tmx('<data encoding="csv">1,2,3,4,0,1</data>').replace(
    /<tileset firstgid="1" name="t"[\s\S]*?<\/tileset>/,
    '<tileset firstgid="1" source="sets/ext.tsx"/>',
  );
  fs.mkdirSync(path.join(dir, 'sets'));
  fs.writeFileSync(path.join(dir, 'sets/ext.tsx'), tsx);
  fs.writeFileSync(path.join(dir, 't.png'), encodePng(patternImage(16, 16)));
  fs.writeFileSync(path.join(dir, 'map.tmx'), map);

  it('converts TMX to JSON and back, renders and validates with an external .tsx tileset', async () => {
    expect((await runCli(['validate', 'map.tmx'], dir)).stdout).toBe('map.tmx: ok\n');
    expect((await runCli(['validate', 'sets/ext.tsx'], dir)).stdout).toBe('sets/ext.tsx: ok\n');
    const r1 = await runCli(['convert', 'map.tmx', 'map.tmj'], dir);
    expect(r1.code, r1.stderr).toBe(0);
    const r2 = await runCli(['convert', 'map.tmj', 'again.tmx'], dir);
    expect(r2.code, r2.stderr).toBe(0);
    const a = tiledHandler.read(fs.readFileSync(path.join(dir, 'map.tmx')));
    const b = tiledHandler.read(fs.readFileSync(path.join(dir, 'again.tmx')));
    expect(b.layers.map((l) => [l.name, (l as TiledTileLayer).data])).toEqual(a.layers.map((l) => [l.name, (l as TiledTileLayer).data]));
    expect(b.tilesets).toEqual(a.tilesets);
    const r3 = await runCli(['render', 'map.tmx', '-o', 'map.png'], dir);
    expect(r3.code, r3.stderr).toBe(0);
    const r4 = await runCli(['convert', 'sets/ext.tsx', 'ext.tsj'], dir);
    expect(r4.code, r4.stderr).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'ext.tsj'), 'utf8'))).toMatchObject({
      type: 'tileset',
      name: 'ext',
      image: '../t.png',
    });
  });

  it('validate fails, as render does, when an external tileset is missing or broken', async () => {
    fs.writeFileSync(path.join(dir, 'lost.tmx'), map.replace('sets/ext.tsx', 'sets/none.tsx'));
    const v = await runCli(['validate', 'lost.tmx'], dir);
    expect(v.code).toBe(1);
    expect(v.stdout).toMatch(/^lost\.tmx: error: .*none\.tsx/);
    const r = await runCli(['render', 'lost.tmx', '-o', 'lost.png'], dir);
    expect(r.code).toBe(1);
    fs.writeFileSync(path.join(dir, 'sets/broken.tsx'), '<tileset name="b" tilewidth="8">\n<image></tileset>');
    fs.writeFileSync(path.join(dir, 'broken.tmx'), map.replace('sets/ext.tsx', 'sets/broken.tsx'));
    const v2 = await runCli(['validate', 'broken.tmx'], dir);
    expect(v2.code).toBe(1);
    expect(v2.stdout).toMatch(/broken\.tsx: not valid XML.*line 2/);
    const c = await runCli(['check', 'broken.tmx', 'lost.tmx'], dir);
    expect(c.code).toBe(1);
  });

  it('draws isometric maps not at all, with one clear line', async () => {
    fs.writeFileSync(path.join(dir, 'iso.tmx'), map.replace('orientation="orthogonal"', 'orientation="isometric"'));
    const r = await runCli(['render', 'iso.tmx', '-o', 'iso.png'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^sprat: error: iso\.tmx: .*"isometric" maps are not drawn.*\n$/);
    const c = await runCli(['convert', 'iso.tmx', 'iso.tmj'], dir);
    expect(c.code, c.stderr).toBe(0);
  });
});

describe('tmx: object templates', () => {
  it('draws a template tile object with the template tileset, the instance overriding the position', async () => {
    const tiles = patternImage(16, 16);
    const tx = `<?xml version="1.0" encoding="UTF-8"?>
<template>
 <tileset firstgid="5" source="../t.tsx"/>
 <object gid="${(6 + 0x80000000) >>> 0}" width="8" height="8"/>
</template>`;
    const tsx =
      '<tileset name="t" tilewidth="8" tileheight="8" tilecount="4" columns="2"><image source="t.png" width="16" height="16"/></tileset>';
    const text = tmx(
      '<data encoding="csv">0,0,0,0,0,0</data>',
      '\n <objectgroup id="2" name="O"><object id="1" template="tpl/a.tx" x="8" y="16"/></objectgroup>',
    );
    const res = memoryLoader({
      'tpl/a.tx': enc(tx),
      'tpl/../t.tsx': enc(tsx),
      'tpl/../t.png': encodePng(tiles),
      't.png': encodePng(tiles),
    });
    const doc = tiledHandler.read(enc(text));
    const img = drawPicture(await tiledHandler.picture!(doc, {}, res)).frames[0]!;
    // Tile 1 of the template's tileset, flipped horizontally, its bottom-left corner at (8, 16).
    for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) expect(pixel(img, 8 + x, 8 + y)).toEqual(pixel(tiles, 8 + 7 - x, y));
    expect(await tiledHandler.references!(doc, res)).toContain('tpl/a.tx');
  });
});

describe('tmx: .tsx is also TypeScript', () => {
  it('a .tsx file is Tiled by its content only (check, the viewer listing), not by its extension', async () => {
    const { checkFormatOf } = await import('../../src/check.js');
    const { listDocuments } = await import('../../src/node/server.js');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-tsx-'));
    const app = enc('{\n  "compilerOptions": {}\n}\n'); // not a Tiled document (whatever else may claim it)
    fs.writeFileSync(path.join(dir, 'App.tsx'), app);
    const set = enc('<?xml version="1.0"?>\n<tileset name="s" tilewidth="8" tileheight="8"/>\n');
    fs.writeFileSync(path.join(dir, 'set.tsx'), set);
    expect(checkFormatOf(app, 'App.tsx')?.name).not.toBe('tiled');
    expect(checkFormatOf(set, 'set.tsx')?.name).toBe('tiled');
    expect((await listDocuments(dir)).files.map((f) => path.basename(f))).toEqual(['set.tsx']);
  });
});
