/**
 * Tiled GIDs in Uint32Arrays (memory): a JSON map's big `data` arrays are cut out of the
 * bytes before JSON.parse and scanned straight into Uint32Arrays (json-gids.ts), TMX csv is scanned
 * into one (csvGidArray). Both must give exactly what the plain path gives (JSON.parse of the whole
 * text, then the reader): the same document, the same inspect --json text, the same error at the
 * same line and column; a `data` array anywhere but a csv tile layer stays a plain array.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tiledGids, tiledMap, tiledTileLayer } from '../../bench/interop.mjs';
import { jsonChunks } from '../../src/binary/json-chunks.js';
import { JsonReader } from '../../src/interop/json.js';
import { readTiledObject, tiledHandler, tiledJsonText, type TiledDoc, type TiledTileLayer } from '../../src/interop/tiled/index.js';
import { cutGidArrays, parseTiledJson } from '../../src/interop/tiled/json-gids.js';
import { csvGidArray, csvGids, cutCsvBytes, readXmlDocument, type XmlReader } from '../../src/interop/tiled/xml.js';

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

// The interop bench's map (bench/interop.mjs), 20 x 20.
const gids = (n: number, seed = 1) => tiledGids(n, seed);
const map = (layers: unknown[], extra: Record<string, unknown> = {}) => ({ ...tiledMap(20, layers), ...extra });
const tileLayer = (data: unknown, more: Record<string, unknown> = {}) => ({ ...tiledTileLayer(20, 0, data), ...more });

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

/** Everything reading gives: the document, inspect --json, the places of values, warnings, or the error. */
function tmxOutcome(text: string) {
  const warnings: unknown[] = [];
  try {
    const doc = tiledHandler.read(enc(text), { warn: (d: unknown) => warnings.push(d) } as never) as TiledDoc;
    const src = doc.jsonSource as XmlReader;
    return {
      doc,
      json: [...jsonChunks(tiledHandler.inspectJson!(doc, {}), 2)].join(''),
      places: src.linePositions(),
      warnings,
      doctype: readXmlDocument('tiled', enc(text)).doctype,
    };
  } catch (e) {
    return { error: String(e) + JSON.stringify(e), warnings };
  }
}

/** ASCII text read from its bytes (csv cut out of them) gives what the decoded text gives: a non-ASCII comment after the root makes the reader take the text path. */
function sameTmx(text: string, cuts?: number) {
  if (cuts !== undefined) expect(cutCsvBytes(enc(text))?.gids.size ?? 0).toBe(cuts);
  const viaText = tmxOutcome(`${text}\n<!-- \u00e9 -->\n`);
  expect(cutCsvBytes(enc(`${text}<!-- \u00e9 -->`))).toBeNull();
  expect(tmxOutcome(text)).toEqual(viaText);
}

describe('tmx: csv read straight from ASCII bytes', () => {
  const W = 20;
  const rows = (seed: number, h = 3) =>
    Array.from({ length: h }, (_, y) =>
      gids(W, seed + y)
        .map((g) => g)
        .join(','),
    ).join(',\n');
  const tmx = (layers: string, head = '') => `<?xml version="1.0" encoding="UTF-8"?>
${head}<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down" width="${W}" height="3" tilewidth="16" tileheight="16" infinite="0" nextlayerid="9" nextobjectid="1">
 <tileset firstgid="1" name="t" tilewidth="16" tileheight="16" tilecount="64" columns="8">
  <image source="t.png" width="128" height="128"/>
 </tileset>
${layers}
</map>`;
  const layer = (id: number, data: string) => ` <layer id="${id}" name="L${id}" width="${W}" height="3">\n  ${data}\n </layer>`;

  it('gives the document, inspect text, places and warnings the text path gives', () => {
    const csv = (seed: number) => `<data encoding="csv">\n${rows(seed)}\n</data>`;
    sameTmx(tmx([layer(1, csv(1)), layer(2, csv(2))].join('\n')), 2);
    // CRLF, a comment and CDATA that look like data, a long property text of digits, base64 of digits only.
    const crlf = tmx(
      [
        layer(1, csv(1)).replace(/\n/g, '\r\n'),
        `<!-- <data encoding="csv">${rows(3)}</data> -->`,
        ` <layer id="2" name="P" width="${W}" height="3">\n  <properties><property name="p">${'1234,'.repeat(20)}1</property></properties>\n  ${csv(4)}\n </layer>`,
        ` <layer id="3" name="B" width="1" height="1"><data encoding="base64">${'0000'.repeat(30)}</data></layer>`,
        ` <objectgroup id="4" name="O"><object id="1"><text><![CDATA[<data encoding="csv">${rows(5)}</data>]]></text></object></objectgroup>`,
      ].join('\n'),
    );
    sameTmx(crlf, 2);
    // An unknown <data> element (kept as it is: its text read from the bytes when asked) and a DOCTYPE.
    sameTmx(tmx(`${layer(1, csv(1))}\n <imagelayer id="2" name="I">${csv(6)}</imagelayer>`, '<!DOCTYPE map SYSTEM "x.dtd">\n'), 2);
    // An infinite map's chunks.
    const chunk = (x: number, seed: number) => `<chunk x="${x}" y="0" width="${W}" height="3">\n${rows(seed)}\n</chunk>`;
    const inf = tmx(
      ` <layer id="1" name="C" width="${W}" height="3">\n  <data encoding="csv">\n${chunk(0, 1)}\n${chunk(W, 2)}\n</data>\n </layer>`,
    ).replace('infinite="0"', 'infinite="1"');
    sameTmx(inf, 2);
    const doc = tiledHandler.read(enc(inf)) as TiledDoc;
    expect(Array.from((doc.layers[0] as TiledTileLayer).chunks![1]!.data)).toEqual(rows(2).split(/,\n?/).map(Number));
  });

  it('errors at the same line and column: bad entries, wrong counts, broken XML after a cut payload', () => {
    const csv = (seed: number, h = 3) => `<data encoding="csv">\n${rows(seed, h)}\n</data>`;
    sameTmx(tmx(layer(1, csv(1).replace(/,(\d+),/, ',x7,'))), 0);
    sameTmx(tmx(layer(1, csv(1).replace(/,(\d+),/, ',4294967296,'))), 0);
    sameTmx(tmx(layer(1, csv(1).replace(/,(\d+),/, ',,'))), 0);
    sameTmx(tmx([layer(1, csv(1, 4)), layer(2, csv(2))].join('\n')), 2);
    sameTmx(
      tmx(
        [
          layer(1, csv(1)),
          layer(2, csv(2)),
          ' <layer id="3" name="bad" width="1" height="1"><data encoding="zip">AAAA</data></layer>',
        ].join('\n'),
      ),
    );
    sameTmx(tmx([layer(1, csv(1)), ' <layer id="2"><data encoding="csv">1</data></layer', layer(3, csv(3))].join('\n')));
    sameTmx(tmx([layer(1, csv(1)), ' <bogus>', layer(3, csv(3))].join('\n')));
    sameTmx(
      tmx(layer(1, csv(1)))
        .replace('<map', '<mop')
        .replace('</map>', '</mop>'),
    );
    // An internal DTD subset: nothing is cut.
    expect(cutCsvBytes(enc(tmx(layer(1, csv(1)), '<!DOCTYPE map [ <!ENTITY e "1"> ]>\n')))).toBeNull();
  });
});
