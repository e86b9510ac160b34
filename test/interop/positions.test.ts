// Structural errors (wrong type, missing field, bad value) of the JSON
// formats name the JSON path AND the line and column of the offending value,
// or of the object that lacks a missing field; so do validator diagnostics.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/binary/errors.js';
import type { FormatHandler } from '../../src/formats/types.js';
import { asepriteHandler } from '../../src/interop/aseprite/index.js';
import { jsonValueOffset, lineColumn, pathSegments } from '../../src/interop/json.js';
import { texturePackerHandler } from '../../src/interop/texturepacker/index.js';
import { tiledHandler, type TiledDoc } from '../../src/interop/tiled/index.js';
import { memoryLoader } from './helpers.js';

const enc = new TextEncoder();

/** The FormatError reading `text` throws. */
function errorOf(read: (b: Uint8Array) => unknown, text: string): FormatError {
  try {
    read(enc.encode(text));
  } catch (e) {
    expect(e).toBeInstanceOf(FormatError);
    return e as FormatError;
  }
  throw new Error('expected a FormatError');
}

function expectAt(e: FormatError, reason: string | RegExp, line: number, column: number) {
  if (typeof reason === 'string') expect(e.reason).toBe(reason);
  else expect(e.reason).toMatch(reason);
  expect([e.line, e.column]).toEqual([line, column]);
  expect(e.message).toBe(`${e.reason} (at line ${line}, column ${column})`);
}

const ase = (b: Uint8Array) => asepriteHandler.read(b);
const tp = (b: Uint8Array) => texturePackerHandler.read(b);
const tiled = (b: Uint8Array) => tiledHandler.read(b);

describe('aseprite structural errors have a line and column', () => {
  it('a bad value: at the value', () => {
    const doc = [
      '{',
      '  "frames": [',
      '    {"filename": "a", "frame": {"x": 0, "y": 0, "w": 1, "h": 1}}',
      '  ],',
      '  "meta": {',
      '    "frameTags": [',
      '      {"name": "walk", "from": 0, "to": 0, "direction": "sideways"}',
      '    ]',
      '  }',
      '}',
    ].join('\n');
    expectAt(errorOf(ase, doc), '$.meta.frameTags[0].direction: unknown direction "sideways"', 7, 57);
  });

  it('a missing field: at the object that lacks it', () => {
    expectAt(errorOf(ase, '\n\n   {"meta": {}}'), '$.frames: expected an object, found nothing', 3, 4);
    const doc = ['{"frames": [', '  {"frame": {"x": 0, "y": 0, "w": 1, "h": 1}},', '  {"filename": "b"}', ']}'].join('\n');
    expectAt(errorOf(ase, doc), '$.frames[1].frame: expected an object, found nothing', 3, 3);
  });

  it('a wrong type under a quoted key, in the hash layout', () => {
    const doc = ['{"frames": {', '  "hero 0.png": {', '    "frame": {"x": 0, "y": 0, "w": -4, "h": 1}', '  }', '}}'].join('\n');
    expectAt(errorOf(ase, doc), '$.frames["hero 0.png"].frame.w: must be at least 0, found -4', 3, 36);
  });

  it('a duplicate key: at the last one, which JSON.parse keeps', () => {
    const doc = '{"frames": {},\n "meta": {"frameTags": 1},\n "meta": {"frameTags": "x"}}';
    expectAt(errorOf(ase, doc), '$.meta.frameTags: expected an array, found a string', 3, 24);
  });

  it('columns count characters as the syntax errors do (UTF-16 units after a BOM)', () => {
    const good = '\ufeff{"frames": {"h\u00e9ros \ud83d\ude00": {"frame": 7}}}';
    const e = errorOf(ase, good);
    expectAt(e, /^\$\.frames\["h\u00e9ros \ud83d\ude00"\]\.frame: expected an object, found the number 7$/, 1, 35);
    // The same spot made a syntax error gets the same column.
    const syntax = errorOf(ase, good.replace(': 7', ': ]'));
    expect([syntax.line, syntax.column]).toEqual([1, 35]);
  });
});

describe('texturepacker structural errors have a line and column', () => {
  const doc = (anim: string, pivot = '0.5') =>
    [
      '{',
      '  "frames": {',
      `    "a.png": {"frame": {"x": 0, "y": 0, "w": 2, "h": 2}, "pivot": {"x": ${pivot}, "y": 0.5}},`,
      '    "b.png": {"frame": {"x": 2, "y": 0, "w": 2, "h": 2}}',
      '  },',
      `  "animations": {"walk": ${anim}},`,
      '  "meta": {"image": "s.png"}',
      '}',
    ].join('\n');

  it('an animation naming a missing frame: at that name', () => {
    expectAt(errorOf(tp, doc('["a.png", "zz.png"]')), '$.animations.walk[1]: names no frame "zz.png"', 6, 36);
  });

  it('a wrong type: at the value', () => {
    expectAt(errorOf(tp, doc('[]', '"mid"')), '$.frames["a.png"].pivot.x: expected a number, found a string', 3, 73);
    expectAt(errorOf(tp, doc('{"a": 1}')), '$.animations.walk: expected an array, found an object', 6, 26);
  });

  it('a multiatlas (Phaser): at the texture that lacks its frames', () => {
    expectAt(errorOf(tp, '{\n "textures": [\n  {}\n ]\n}'), '$.textures[0].frames: expected an object, found nothing', 3, 3);
  });
});

describe('tiled structural errors have a line and column', () => {
  const map = (layers: string, tilesets = '[{"firstgid": 1, "tilewidth": 8, "tileheight": 8, "image": "t.png"}]') =>
    [
      '{"type": "map", "width": 2, "height": 2, "tilewidth": 8, "tileheight": 8,',
      ' "layers": [',
      layers,
      ' ],',
      ` "tilesets": ${tilesets}`,
      '}',
    ].join('\n');
  const layer = (data: string) => `  {"type": "tilelayer", "name": "g", "width": 2, "height": 2, "data": ${data}}`;

  it('a bad cell: at the cell', () => {
    expectAt(errorOf(tiled, map(layer('[1, 0,\n    -5, 2]'))), '$.layers[0].data[2]: must be at least 0, found -5', 4, 5);
  });

  it('the wrong number of cells: at the data array', () => {
    expectAt(errorOf(tiled, map(layer('[1, 2, 3]'))), '$.layers[0].data: has 3 entries for 4 cells', 3, 71);
  });

  it('an unknown layer type inside a group', () => {
    const g = '  {"type": "group", "name": "g",\n   "layers": [{"type": "weird"}]}';
    expectAt(errorOf(tiled, map(g)), '$.layers[0].layers[0].type: unknown layer type "weird"', 4, 24);
  });

  it('a tileset without a tile width: at the tileset', () => {
    expectAt(
      errorOf(tiled, map(layer('[0, 0, 0, 0]'), '[\n   {"firstgid": 1, "tileheight": 8}]')),
      '$.tilesets[0].tilewidth: expected a number, found nothing',
      6,
      4,
    );
  });

  it('an error in an external tileset: its line and column in that file', async () => {
    const doc = tiledHandler.read(enc.encode(map(layer('[1, 0, 0, 0]'), '[{"firstgid": 1, "source": "ts.tsj"}]'))) as TiledDoc;
    const files = { 'ts.tsj': enc.encode('{"name": "ts",\n "tilewidth": "8", "tileheight": 8}') };
    const e = await tiledHandler.toModel!(doc, memoryLoader(files)).then(
      () => null,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(FormatError);
    expectAt(e as FormatError, 'ts.tsj.tilewidth: expected a number, found a string', 2, 15);
  });
});

describe('errors found later about a read document are placed too', () => {
  const rejection = (p: Promise<unknown>) =>
    p.then(
      () => {
        throw new Error('expected a FormatError');
      },
      (e: unknown) => {
        expect(e).toBeInstanceOf(FormatError);
        return e as FormatError;
      },
    );

  it('a sheet that cannot be loaded: at meta.image', async () => {
    const text = '{"frames": [],\n "meta": {"app": "x", "image": "gone.png"}}';
    for (const h of [asepriteHandler, texturePackerHandler] as FormatHandler[]) {
      const e = await rejection(h.toModel!(h.read(enc.encode(text)), memoryLoader({})));
      expectAt(e, '$.meta.image: the sheet "gone.png" not found (looked for gone.png)', 2, 32);
      const none = await rejection(h.toModel!(h.read(enc.encode('{"frames": [],\n  "meta": {}}')), memoryLoader({})));
      expectAt(none, '$.meta.image: the document names no sheet image (give it with --sheet-image IMAGE)', 2, 11);
    }
  });

  it('tiled: an unsupported orientation, an external tileset that is missing or XML or bad JSON', async () => {
    const map = (orientation: string, source: string) =>
      `{"width": 1, "height": 1, "tilewidth": 8, "tileheight": 8, "orientation": "${orientation}",\n "tilesets": [{"firstgid": 1,\n  "source": "${source}"}]}`;
    const toModel = (text: string, files: Record<string, Uint8Array> = {}) =>
      rejection(tiledHandler.toModel!(tiledHandler.read(enc.encode(text)), memoryLoader(files)));
    expectAt(await toModel(map('isometric', 'a.tsj')), '$.orientation: "isometric" maps are not supported (orthogonal only)', 1, 75);
    expectAt(
      await toModel(map('orthogonal', 'a.tsj')),
      '$.tilesets[0].source: the external tileset "a.tsj" not found (looked for a.tsj)',
      3,
      13,
    );
    expectAt(await toModel(map('orthogonal', 'a.tsx')), /^\$\.tilesets\[0\]\.source: the external tileset "a\.tsx" not found/, 3, 13);
    const e = await toModel(map('orthogonal', 'a.tsj'), { 'a.tsj': enc.encode('{\n  "name": x}') });
    expectAt(e, 'a.tsj: not valid JSON: unexpected character "x", expected a value', 2, 11);
  });
});

describe('validators place their diagnostics', () => {
  it('aseprite / texturepacker: read errors and warnings have a line and column', () => {
    const bad = asepriteHandler.validate(enc.encode('{"frames": {"a": {"frame": {"x": 0, "y": 0, "w": 1,\n "h": null}}}}'));
    expect(bad).toEqual([
      {
        severity: 'error',
        message: '$.frames.a.frame.h: expected a number, found null (at line 2, column 7)',
        line: 2,
        column: 7,
        offset: undefined,
      },
    ]);
    const outside = [
      '{"frames": [',
      '  {"filename": "a", "frame": {"x": 0, "y": 0, "w": 1, "h": 1}},',
      '  {"filename": "b", "frame": {"x": 9, "y": 0, "w": 4, "h": 1}}',
      '], "meta": {"size": {"w": 10, "h": 1}}}',
    ].join('\n');
    for (const h of [asepriteHandler, texturePackerHandler]) {
      const d = h.validate(enc.encode(outside));
      expect(d).toEqual([
        { severity: 'warning', message: '$.frames[1].frame reaches outside the 10x1 sheet (at line 3, column 30)', line: 3, column: 30 },
        { severity: 'warning', message: '$.meta.image: the document names no sheet image (at line 4, column 12)', line: 4, column: 12 },
      ]);
    }
  });

  it('tiled: warnings and errors have a line and column', () => {
    const doc = [
      '{"width": 0, "height": 0, "tilewidth": 8, "tileheight": 8,',
      ' "properties": [{"name": "c", "type": "class", "value": {}}],',
      ' "tilesets": [{"firstgid": 1, "source": "a.tsj"},',
      '   {"firstgid": 1, "source": "b.tsj"}]}',
    ].join('\n');
    // (class properties are kept since TMX support: no warning)
    expect(tiledHandler.validate(enc.encode(doc))).toEqual([
      {
        severity: 'error',
        message: '$.tilesets[1].firstgid: the same firstgid (1) as an earlier tileset (at line 4, column 17)',
        line: 4,
        column: 17,
      },
    ]);
  });
});

describe('jsonValueOffset', () => {
  /** Every path into a value, with the value there. */
  function paths(v: unknown, p = '$', out: [string, unknown][] = []): [string, unknown][] {
    out.push([p, v]);
    if (Array.isArray(v)) v.forEach((x, i) => paths(x, `${p}[${i}]`, out));
    else if (typeof v === 'object' && v !== null) {
      for (const k of Object.keys(v))
        paths((v as Record<string, unknown>)[k], `${p}${/^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`}`, out);
    }
    return out;
  }

  it('finds every value of any JSON text, in any layout', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom(undefined, 1, '\t', '\r\n \t'), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        for (const [p, v] of paths(JSON.parse(text))) {
          const off = jsonValueOffset(text, pathSegments(p.slice(1)));
          if (typeof v === 'object' && v !== null) expect(text[off]).toBe(Array.isArray(v) ? '[' : '{');
          else expect(text.startsWith(JSON.stringify(v), off)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('a missing key or index gives the enclosing value; deep nesting is fine', () => {
    const text = '{"a": [1, {"b": 2}]}';
    expect(jsonValueOffset(text, ['a', 5])).toBe(6);
    expect(jsonValueOffset(text, ['a', 1, 'c'])).toBe(10);
    expect(jsonValueOffset(text, ['a', 1, 'b', 'x'])).toBe(16);
    const deep = '['.repeat(100000) + '7' + ']'.repeat(100000);
    expect(jsonValueOffset(deep, new Array(100000).fill(0))).toBe(100000);
    expect(lineColumn(deep, 100000)).toEqual({ line: 1, column: 100001 });
  });
});
