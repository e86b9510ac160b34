/**
 * Tiled GIDs in Uint32Arrays (issue 16, memory): a JSON map's big `data` arrays are cut out of the
 * bytes before JSON.parse and scanned straight into Uint32Arrays (json-gids.ts), TMX csv is scanned
 * into one (csvGidArray). Both must give exactly what the plain path gives (JSON.parse of the whole
 * text, then the reader): the same document, the same inspect --json text, the same error at the
 * same line and column; a `data` array anywhere but a csv tile layer stays a plain array.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonChunks } from '../../src/cli/json.js';
import { JsonReader } from '../../src/interop/json.js';
import { readTiledObject, tiledHandler, tiledJsonText, type TiledDoc, type TiledTileLayer } from '../../src/interop/tiled/index.js';
import { cutGidArrays, parseTiledJson } from '../../src/interop/tiled/json-gids.js';
import { csvGidArray, csvGids } from '../../src/interop/tiled/xml.js';

const enc = (s: string) => new TextEncoder().encode(s);

/** The plain path: the whole text through JSON.parse, then the reader. */
function plainRead(bytes: Uint8Array): TiledDoc {
  const r = new JsonReader('tiled');
  return r.remember(readTiledObject(r, r.obj(r.parse(bytes), '$')));
}

function outcome(read: () => TiledDoc): { doc?: TiledDoc; json?: string; error?: string } {
  try {
    const doc = read();
    return { doc, json: [...jsonChunks(tiledHandler.inspectJson!(doc, {}), 2)].join('') };
  } catch (e) {
    return { error: String(e) + JSON.stringify(e) };
  }
}

function same(text: string) {
  const bytes = enc(text);
  const plain = outcome(() => plainRead(bytes));
  const cut = outcome(() => tiledHandler.read(bytes) as TiledDoc);
  expect(cut.error).toEqual(plain.error);
  expect(cut.json).toEqual(plain.json);
  expect(cut.doc).toEqual(plain.doc);
}

const gids = (n: number, seed = 1) =>
  Array.from({ length: n }, (_, i) => ((i * 7 + seed) % 5 === 0 ? 0 : (((i % 64) + 1) | (i % 4 === 0 ? 0xa0000000 : 0)) >>> 0));

function map(layers: unknown[], extra: Record<string, unknown> = {}) {
  return {
    compressionlevel: -1,
    height: 20,
    infinite: false,
    layers,
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
        name: 't',
        tilecount: 64,
        tileheight: 16,
        tilewidth: 16,
      },
    ],
    tilewidth: 16,
    type: 'map',
    version: '1.10',
    width: 20,
    ...extra,
  };
}
const tileLayer = (data: unknown, more: Record<string, unknown> = {}) => ({
  type: 'tilelayer',
  id: 1,
  name: 'L',
  width: 20,
  height: 20,
  x: 0,
  y: 0,
  opacity: 1,
  visible: true,
  data,
  ...more,
});

describe('tiled JSON: GID arrays read straight into Uint32Arrays', () => {
  it('cuts the big data arrays out of the text and reads them as they are', () => {
    const text = JSON.stringify(map([tileLayer(gids(400)), tileLayer(gids(400, 2), { id: 2, name: 'M' })]));
    const cut = cutGidArrays(enc(text))!;
    expect(cut.arrays.map((a) => Array.from(a))).toEqual([gids(400), gids(400, 2)]);
    expect(cut.text.length).toBeLessThan(1000);
    expect(() => JSON.parse(cut.text)).not.toThrow();
    const doc = tiledHandler.read(enc(text)) as TiledDoc;
    const l = doc.layers[0] as TiledTileLayer;
    expect(l.data).toBeInstanceOf(Uint32Array);
    expect(Array.from(l.data)).toEqual(gids(400));
    // The raw layer shares the layer's GIDs.
    expect(l.raw?.data).toBe(l.data);
    same(text);
    same(tiledJsonText(JSON.parse(text)));
    same(JSON.stringify(JSON.parse(text), null, '\t'));
  });

  it('leaves small arrays, other keys and anything but plain whole numbers to JSON.parse', () => {
    expect(cutGidArrays(enc(JSON.stringify(map([tileLayer(gids(4))]))))).toBeNull();
    const big = gids(400);
    for (const bad of [-1, 1.5, 4294967296, '"x"', '1e3', '01', 'null', '00', '-0', '0.0']) {
      const text = JSON.stringify(map([tileLayer(big)])).replace('"data":[', `"data":[${bad},`);
      expect(cutGidArrays(enc(text)), String(bad)).toBeNull();
      same(text);
    }
    // A "data" that is a string value, or an object key that is not "data".
    same(JSON.stringify(map([tileLayer(big)], { note: '"data": [1, 2, 3]', datas: big })));
  });

  it('puts a cut array back as a plain array where the reader does not read GIDs', () => {
    const big = gids(400);
    const objects = {
      type: 'objectgroup',
      name: 'O',
      objects: [{ id: 1, properties: [{ name: 'p', type: 'class', value: { data: big } }] }],
    };
    const text = JSON.stringify(
      map([tileLayer(big), objects, { type: 'group', name: 'G', data: big, layers: [tileLayer(big, { name: 'in' })] }], {
        properties: [{ name: 'c', type: 'class', value: { data: big } }],
      }),
    );
    expect(cutGidArrays(enc(text))!.arrays.length).toBe(5);
    const doc = parseTiledJson(new JsonReader('tiled'), enc(text)) as Record<string, any>;
    expect(doc.layers[0].data).toBeInstanceOf(Uint32Array);
    expect(doc.layers[2].layers[0].data).toBeInstanceOf(Uint32Array);
    expect(doc.layers[1].objects[0].properties[0].value.data).toEqual(big);
    expect(Array.isArray(doc.layers[2].data)).toBe(true);
    expect(doc.properties[0].value.data).toEqual(big);
    same(text);
  });

  it('base64 and chunked layers: an array where a string belongs is the same error; chunks are read in place', () => {
    const big = gids(400);
    same(JSON.stringify(map([tileLayer(big, { encoding: 'base64' })])));
    same(JSON.stringify(map([tileLayer(big, { encoding: 'base64', compression: 'zlib' })])));
    const chunks = [
      { x: 0, y: 0, width: 20, height: 20, data: big },
      { x: 20, y: 0, width: 20, height: 20, data: gids(400, 3) },
    ];
    const text = JSON.stringify(map([tileLayer(undefined, { chunks, startx: 0, starty: 0, width: 40 })], { infinite: true }));
    expect(cutGidArrays(enc(text))!.arrays.length).toBe(2);
    const doc = tiledHandler.read(enc(text)) as TiledDoc;
    expect((doc.layers[0] as TiledTileLayer).chunks![1]!.data).toBeInstanceOf(Uint32Array);
    same(text);
  });

  it('errors: a wrong count, a syntax error after a cut array, at the same line and column', () => {
    const big = gids(400);
    same(JSON.stringify(map([tileLayer(gids(399))]), null, 1));
    const text = JSON.stringify(map([tileLayer(big), tileLayer(big, { name: 'M' })]), null, 2);
    same(text.replace('"name": "M"', '"name": "M",,'));
    same(text.replace(/\]\s*$/, ''));
    same(text.slice(0, text.length - 40));
    same(`${text}x`);
    // A key written with an escape is not cut (JSON.parse reads it as "data").
    same(JSON.stringify(map([tileLayer(big)])).replace('"data"', '"d\\u0061ta"'));
    // \u0000 anywhere in the text: nothing is cut (a sentinel could not be told from the file's string).
    const nul = JSON.stringify(map([tileLayer(big)], { note: '\u0000sprat-gids:0' }));
    expect(cutGidArrays(enc(nul))).toBeNull();
    same(nul);
    // A BOM.
    same(`\ufeff${JSON.stringify(map([tileLayer(big)]))}`);
  });

  it('any map: the same document, inspect text and errors as the plain path (property)', () => {
    const entry = fc.oneof(
      { weight: 20, arbitrary: fc.integer({ min: 0, max: 0xffffffff }).map(String) },
      { weight: 1, arbitrary: fc.constantFrom('-1', '1.5', '4294967296', '"7"', '1e2', '01', 'null', '99999999999', '0') },
    );
    const ws = fc.constantFrom('', ' ', '\n', '\r\n  ', '\t');
    const arrayText = fc
      .tuple(fc.array(fc.tuple(ws, entry, ws), { minLength: 0, maxLength: 500 }), ws)
      .map(([es, end]) => ({ text: `[${es.map(([a, e, b]) => a + e + b).join(',')}${end}]`, n: es.length }));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(arrayText, fc.constantFrom('csv', 'base64', undefined), fc.nat({ max: 30 }), fc.boolean()), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.constantFrom(0, 2),
        (layers, indent) => {
          const ls = layers.map(([a, encoding, w, grouped], i) => {
            // Mostly the right size (a wrong one now and then).
            const width = w === 0 ? a.n + 1 : a.n;
            const l = tileLayer(`@${i}@`, { name: `L${i}`, width, height: 1, ...(encoding ? { encoding } : {}) });
            return grouped ? { type: 'group', name: `G${i}`, layers: [l] } : l;
          });
          let text = JSON.stringify(map(ls), null, indent);
          layers.forEach(([a], i) => {
            text = text.replace(`"@${i}@"`, a.text);
          });
          same(text);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('tmx: csv read straight into a Uint32Array', () => {
  it('gives csvGids entry for entry, or null for csvGids to name the bad one', () => {
    const cases = [
      '',
      ' \n ',
      '1,2,3',
      '\n1,2,3\n',
      ' 1 , 2 ,\t3\r\n,4',
      '1,,2',
      '1,2,',
      ',',
      '1 2,3',
      '007,4294967295',
      '4294967296',
      '1e3',
      '-0',
    ];
    for (const c of cases) {
      const a = csvGidArray(c);
      if (a) expect(Array.from(a), JSON.stringify(c)).toEqual(csvGids(c));
    }
    expect(csvGidArray('1,2,')).toBeNull();
    expect(csvGidArray('4294967296')).toBeNull();
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('', ' ', '\n', '\r\n'), fc.oneof(fc.nat().map(String), fc.constantFrom('x', '', '-1', '1.5'))), {
          maxLength: 60,
        }),
        (es) => {
          const text = es.map(([w, e]) => w + e + w).join(',');
          const a = csvGidArray(text);
          if (a) expect(Array.from(a)).toEqual(csvGids(text));
          else expect(csvGids(text).some((v) => typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 0xffffffff)).toBe(true);
        },
      ),
    );
  });
});
