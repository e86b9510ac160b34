/**
 * TMX layer data read without the XML parser's per-character text (memory): the long text
 * of leaf elements is cut out before parsing and put back by element (cutPayloads), and csv data is
 * scanned in place (csvGids). Both must give exactly what the plain path gives: on every real map
 * and tileset of the collection, on CRLF text, comments, CDATA, entities and DTD subsets, and on
 * malformed csv entries (the same error, at the same line and column).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gzipSync, zlibSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { decodeText } from '../../src/interop/json.js';
import { tiledHandler, type TiledDoc, type TiledTileLayer } from '../../src/interop/tiled/index.js';
import { csvGids, cutPayloads, parseXml } from '../../src/interop/tiled/xml.js';
import { copyOf, filesUnder, haveSource, SOURCES } from '../helpers/real.js';

const enc = (s: string) => new TextEncoder().encode(s);

/** The csv reading before csvGids: split on commas, each entry a number when Number() of it is finite. */
function splitGids(text: string): unknown[] {
  const t = text.trim();
  if (t === '') return [];
  return t.split(',').map((s) => {
    const n = Number(s.trim());
    return s.trim() !== '' && Number.isFinite(n) ? n : s.trim();
  });
}

function same(text: string) {
  let plain: unknown;
  let cut: unknown;
  try {
    plain = parseXml('tiled', text, false);
  } catch (e) {
    plain = String(e);
  }
  try {
    cut = parseXml('tiled', text);
  } catch (e) {
    cut = String(e);
  }
  expect(cut).toEqual(plain);
}

const LONG = Array.from({ length: 40 }, (_, i) => (i * 7) % 13).join(',');

describe('tmx: layer data read in place', () => {
  it('csvGids gives what splitting gave, entry for entry', () => {
    const cases = [
      '',
      '  \n ',
      '\u00a0',
      '1,2,3',
      '\n1,2,3\n',
      ' 1 , 2 ,\t3\r\n,4',
      '1,,2',
      '1,2,',
      ',',
      '1 2,3',
      '0x10,1e3,+5,-3,.5,Infinity,NaN,abc',
      '007,4294967295,4294967296,2684354565',
      '1234567890123456,12345678901234567890,00000000000000000001',
      '\u00a01\u00a0,2\u3000',
      '1.0,1.5,-0',
      LONG,
    ];
    for (const c of cases) expect(csvGids(c), JSON.stringify(c)).toEqual(splitGids(c));
    expect(Object.is(csvGids('-0')[0], splitGids('-0')[0])).toBe(true);
  });

  it('parses to the same elements with the long texts cut out: CRLF, comments, CDATA, entities, DTD subsets', () => {
    const body = `<data encoding="csv">\r\n${LONG}\r\n</data>`;
    same(`<?xml version="1.0"?>\r\n<map width="2">\r\n <layer>\r\n  ${body}\r\n </layer>\r\n</map>`);
    same(`<map>\n<!-- <data>${LONG}</data> -->\n<layer>${body}</layer>\n<p><![CDATA[<data>${LONG}</data>]]></p></map>`);
    same(`<map a="x>y" b='1/'><data encoding="csv">${LONG}</data><e>${LONG}&amp;${LONG}</e><f/><g>${LONG}<h/></g></map>`);
    same(`<!DOCTYPE map [ <!ENTITY e "1,2"> ]>\n<map><data encoding="csv">${LONG}</data></map>`);
    same(`<!DOCTYPE map>\n<map><data encoding="csv">${LONG}</data><data encoding="base64">${'QUJD'.repeat(40)}</data></map>`);
    same(`<map>\n<data encoding="csv">${LONG}</data>\n<layer>\n<data>${LONG}</data>\n</layer>\n</map>`);
    // Not XML: the same error either way.
    same(`<map><data encoding="csv">${LONG}</map>`);
    // Every element is found where it starts in the text given.
    const text = `<map>\n<a>${LONG}</a>\n<b>${LONG}</b><c x="1"/>\n</map>`;
    const c = cutPayloads(text);
    expect(c.text).toBe('<map>\n<a></a>\n<b></b><c x="1"/>\n</map>');
    expect(c.original(c.text.indexOf('<c'))).toBe(text.indexOf('<c'));
    expect(c.original(c.text.indexOf('<b'))).toBe(text.indexOf('<b'));
    expect([...c.texts.keys()]).toEqual([text.indexOf('<a>'), text.indexOf('<b>')]);
  });

  it('reads every encoding of a large layer to the same GIDs as before, errors at the same line and column', () => {
    const w = 40;
    const h = 30;
    const gids = Array.from({ length: w * h }, (_, i) => ((i * 7) % 5 === 0 ? 0 : (((i % 64) + 1) | (i % 4 === 0 ? 0xa0000000 : 0)) >>> 0));
    const raw = new Uint8Array(new Uint32Array(gids).buffer);
    const b64 = (u: Uint8Array) => btoa(String.fromCharCode(...u));
    const map = (data: string) => `<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" width="${w}" height="${h}" tilewidth="8" tileheight="8" infinite="0">
 <layer id="1" name="L" width="${w}" height="${h}">
  ${data}
 </layer>
</map>
`;
    const rows = Array.from({ length: h }, (_, y) => gids.slice(y * w, y * w + w).join(',')).join(',\n');
    const datas = [
      `<data encoding="csv">\n${rows}\n</data>`,
      `<data encoding="csv">\r\n${rows.replace(/\n/g, '\r\n')}\r\n</data>`,
      `<data encoding="base64">\n   ${b64(raw)}\n  </data>`,
      `<data encoding="base64" compression="zlib">${b64(zlibSync(raw))}</data>`,
      `<data encoding="base64" compression="gzip">${b64(gzipSync(raw))}</data>`,
    ];
    for (const d of datas) {
      const doc = tiledHandler.read(enc(map(d))) as TiledDoc;
      expect(Array.from((doc.layers[0] as TiledTileLayer).data), d.slice(0, 50)).toEqual(gids);
    }
    // A bad entry is named by its index, at the line and column of its <data> element.
    const bad = map(`<data encoding="csv">\n${rows.replace(/^(\d+),/, '$1,x7,')}\n</data>`);
    let err: unknown;
    try {
      tiledHandler.read(enc(bad));
    } catch (e) {
      err = e;
    }
    expect(String(err)).toMatch(/has 1201 entries for 1200 cells/);
    expect(err).toMatchObject({ line: 4, column: 3 });
    const bad2 = map(`<data encoding="csv">\n${rows.replace(/^(\d+),\d+,/, '$1,x7,')}\n</data>`);
    expect(() => tiledHandler.read(enc(bad2))).toThrow(/\$\.layers\[0\]\.data\[1\]: expected a number, found "x7"|data\[1\]/);
    const bad3 = map(`<data encoding="base64" compression="zlib">${b64(zlibSync(raw)).slice(0, 100)}AAAA</data>`);
    expect(() => tiledHandler.read(enc(bad3))).toThrow(/line 4/);
  });

  for (const source of Object.values(SOURCES)) {
    describe.skipIf(!haveSource(source))(`every TMX/TSX/TX file of ${source.name}`, () => {
      it('parses to the same elements with the texts cut out', () => {
        const dir = copyOf(source);
        const files = filesUnder(dir, /\.(tmx|tsx|tx)$/i);
        for (const f of files) {
          const text = decodeText(new Uint8Array(fs.readFileSync(path.join(dir, f))));
          if (!text.trimStart().startsWith('<')) continue;
          same(text);
        }
      });
    });
  }
});
