/**
 * The compact sheets the readers make (src/formats/solarus/compact.ts) and
 * the `inspect --json` text written straight from them (json.ts): the same
 * model as the plain objects for its users, the same text as the object
 * path, and the library's own readers leave a sheet compact.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonText, plainJson } from '../../src/binary/json-array.js';
import { LimitError } from '../../src/binary/limits.js';
import { jsonChunks, stringifyJson } from '../../src/binary/json-chunks.js';
import { animationStore, animationsOf } from '../../src/formats/solarus/compact.js';
import {
  convertSyntax,
  formatLines,
  formatLua,
  inspectJson,
  inspectText,
  parseLines,
  parseLua,
  readLines,
  readLua,
  solarusHandler,
  solarusLuaHandler,
  type SolarusSheet,
  type SolarusSyntax,
} from '../../src/formats/solarus/index.js';
import { makeInput } from '../../bench/inputs.mjs';
import { runCli } from '../helpers/cli.js';
import { corpusBytes, corpusFiles, enc, NO_FILES } from './helpers.js';
import * as path from 'node:path';
import { ZSDX } from './helpers.js';

const int = (min: number, max: number) => fc.integer({ min, max });
const direction = fc.record({
  x: int(-2147483647, 2147483647),
  y: int(-50, 5000),
  frameWidth: int(1, 300),
  frameHeight: int(1, 2147483647),
  originX: int(-100, 300),
  originY: int(-100, 300),
  frameCount: int(1, 40),
  columns: int(1, 40),
});
const token = fc.stringMatching(/^[A-Za-z0-9_./-]{1,20}$/);

function sheetArb(name: fc.Arbitrary<string>, image: fc.Arbitrary<string>): fc.Arbitrary<SolarusSheet> {
  return fc
    .uniqueArray(
      fc.record({
        name,
        image,
        frameDelay: int(0, 5000),
        loopOnFrame: int(-1, 60),
        directions: fc.array(direction, { minLength: 1, maxLength: 5 }),
      }),
      { selector: (a) => a.name, maxLength: 6 },
    )
    .map((animations) => ({ animations }));
}
const lineSheet = sheetArb(token, token);
const luaSheet = sheetArb(fc.string({ unit: 'binary', maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 12 }));

const read = (format: SolarusSyntax, bytes: Uint8Array) => (format === 'solarus' ? readLines(bytes) : readLua(bytes));

/** The inspect JSON of `bytes` as read (compact: its text from the store) and with the animations made (objects). */
function checkSame(format: SolarusSyntax, bytes: Uint8Array): void {
  const compact = read(format, bytes);
  const made = read(format, bytes);
  void made.animations;
  expect(animationStore(compact)).not.toBeNull();
  expect(animationStore(made)).toBeNull();
  const text = inspectJson(format, compact) as { animations: unknown };
  const objects = inspectJson(format, made) as { animations: unknown };
  expect(text.animations).toBeInstanceOf(JsonText);
  expect(objects.animations).not.toBeInstanceOf(JsonText);
  const want = JSON.stringify(objects, null, 2);
  expect(stringifyJson(text)).toBe(want);
  expect(stringifyJson(objects)).toBe(want);
  expect(JSON.stringify(text, null, 2)).toBe(want);
  expect(JSON.stringify(plainJson(text))).toBe(JSON.stringify(JSON.parse(want)));
  // Writing them read nothing into objects.
  expect(animationStore(compact)).not.toBeNull();
}

describe('Solarus compact sheets', () => {
  it('inspect --json text from the store is the object path’s: every corpus file, both syntaxes', () => {
    const ids = corpusFiles();
    expect(ids.length).toBeGreaterThan(200);
    for (const id of ids) {
      checkSame('solarus', corpusBytes('old', id));
      checkSame('solarus-lua', corpusBytes('new', id));
    }
  });

  it('the same on the benchmark inputs, on empty sheets, on hand-laid-out text, CR LF, BOM and non-ASCII names', async () => {
    for (const format of ['solarus', 'solarus-lua'] as const) {
      const made = await makeInput(format, 300_000);
      checkSame(format, made.bytes);
      checkSame(format, enc(''));
    }
    checkSame('solarus', enc('\ufeff\r\n  wälk\t  héros/ß.png 2 100 -1 extra\r\n 0 0 16 16 8 13 3 3\r\n\t-5\t-0 1 2 -3 4 5 6 7 8\r\n\r\n'));
    checkSame(
      'solarus-lua',
      enc(
        'animation{ name = "w\\"ä\\n\\0", src_image = "x\\xff.png", directions = { { x = -1, y = 2, frame_width = 3, frame_height = 4 } } }',
      ),
    );
  });

  it('property: random sheets in both syntaxes (Lua: any strings)', () => {
    fc.assert(
      fc.property(lineSheet, (s) => checkSame('solarus', enc(formatLines(s)))),
      { numRuns: 100 },
    );
    fc.assert(
      fc.property(luaSheet, (s) => checkSame('solarus-lua', enc(formatLua(s)))),
      { numRuns: 100 },
    );
  });

  it('the text is the same at any depth, past the deepest indentation too', () => {
    const sheet = parseLines('a i.png 2 100 0\n0 0 8 8 0 0 2 2\n0 8 8 8 0 0 2 2\nb j.png 1 0 -1\n1 2 3 4 5 6 7 8\n');
    const list = (inspectJson('solarus', sheet) as { animations: JsonText }).animations;
    const plain = JSON.parse(JSON.stringify(list));
    for (const depth of [0, 1, 5, 99, 100, 101, 130]) {
      let a: unknown = list;
      let b: unknown = plain;
      for (let i = 0; i < depth; i++) {
        a = { k: a };
        b = { k: b };
      }
      expect(stringifyJson(a), `depth ${depth}`).toBe(stringifyJson(b));
    }
  });

  it('counts against --max-json-bytes', async () => {
    const doc = readLines((await makeInput('solarus', 200_000)).bytes);
    const json = inspectJson('solarus', doc);
    const full = stringifyJson(json)!.length;
    expect(() => [...jsonChunks(json, 2, { maxJsonBytes: full - 1 })]).toThrow(LimitError);
    expect([...jsonChunks(json, 2, { maxJsonBytes: full })].join('').length).toBe(full);
  });

  it('is the plain model to its users: equality, keys, JSON, spreading, changes and assignment', () => {
    const text = 'walk a.png 2 100 0\n0 0 16 16 8 13 3 3\n0 16 16 16 8 13 3 3\n\nstop b.png 1 0 -1\n1 2 3 4 5 6 7 8\n';
    const plain: SolarusSheet = {
      animations: [
        {
          name: 'walk',
          image: 'a.png',
          frameDelay: 100,
          loopOnFrame: 0,
          directions: [
            { x: 0, y: 0, frameWidth: 16, frameHeight: 16, originX: 8, originY: 13, frameCount: 3, columns: 3 },
            { x: 0, y: 16, frameWidth: 16, frameHeight: 16, originX: 8, originY: 13, frameCount: 3, columns: 3 },
          ],
        },
        {
          name: 'stop',
          image: 'b.png',
          frameDelay: 0,
          loopOnFrame: -1,
          directions: [{ x: 1, y: 2, frameWidth: 3, frameHeight: 4, originX: 5, originY: 6, frameCount: 7, columns: 8 }],
        },
      ],
    };
    for (const sheet of [parseLines(text), parseLua(formatLua(plain))]) {
      expect(Object.keys(sheet)).toEqual(['animations']);
      expect(animationsOf(sheet)).toEqual(plain.animations);
      expect(animationStore(sheet)).not.toBeNull();
      expect(JSON.parse(JSON.stringify(sheet))).toEqual(plain);
      expect({ ...sheet }).toEqual(plain);
      expect(sheet).toEqual(plain);
      // Made once and kept: changes stay.
      expect(animationStore(sheet)).toBeNull();
      expect(sheet.animations).toBe(sheet.animations);
      sheet.animations[0]!.directions[1]!.x = 99;
      sheet.animations[1]!.name = 'halt';
      expect(sheet.animations[0]!.directions[1]!.x).toBe(99);
      expect(formatLines(sheet)).toContain('halt');
      expect((inspectJson('solarus', sheet) as { animations: unknown }).animations).not.toBeInstanceOf(JsonText);
      sheet.animations = [];
      expect(sheet.animations).toEqual([]);
    }
    // Assigned before it was ever read.
    const fresh = parseLines(text);
    fresh.animations = plain.animations.slice(1);
    expect(fresh.animations.map((a) => a.name)).toEqual(['stop']);
    // One string per distinct image once made.
    const shared = parseLines('a x.png 1 0 -1\n1 1 1 1 0 0 1 1\nb x.png 1 0 -1\n1 1 1 1 0 0 1 1\n');
    expect(shared.animations[0]!.image).toBe(shared.animations[1]!.image);
  });

  it('the library’s own readers leave a read sheet compact (write, inspect, validate, convert, model, play, views)', async () => {
    for (const [format, handler, bytes] of [
      ['solarus', solarusHandler, corpusBytes('old', corpusFiles()[0]!)],
      ['solarus-lua', solarusLuaHandler, corpusBytes('new', corpusFiles()[0]!)],
    ] as const) {
      const sheet = handler.read(bytes);
      handler.write!(sheet);
      handler.write!(sheet, { style: format === 'solarus' ? undefined : 'editor' });
      stringifyJson(handler.inspectJson(sheet));
      inspectText(format, sheet);
      handler.linePositions?.(sheet, bytes);
      convertSyntax(sheet, format === 'solarus' ? 'solarus-lua' : 'solarus');
      await handler.toModel!(sheet, NO_FILES);
      handler.play!(sheet, {});
      handler.renderViews!(sheet);
      expect(animationStore(sheet), format).not.toBeNull();
    }
  });

  it('a sheet read from bytes the caller may change keeps a copy (a Node Buffer too); with keepBytes, the bytes themselves', () => {
    const text = 'walk a.png 1 100 0\n0 0 16 16 8 13 3 3\n';
    for (const bytes of [enc(text), Buffer.from(text)]) {
      const sheet = readLines(bytes);
      bytes.fill(0x31);
      expect(animationsOf(sheet)[0]!.name).toBe('walk');
    }
    const kept = enc(text);
    const sheet = solarusHandler.read(kept, { keepBytes: true });
    expect(animationsOf(sheet)[0]!.directions[0]!.x).toBe(0);
  });

  it('Lua: a directions list given twice keeps the last one only (and the animations before keep theirs)', () => {
    const d = (x: number) => `{ x = ${x}, y = 0, frame_width = 1, frame_height = 1 }`;
    const sheet = parseLua(
      `animation{ name = "a", src_image = "i", directions = { ${d(1)} } }\n` +
        `animation{ name = "b", src_image = "i", directions = { ${d(2)}, ${d(3)} }, directions = { ${d(4)} } }\n`,
    );
    expect(animationsOf(sheet).map((a) => a.directions.map((x) => x.x))).toEqual([[1], [4]]);
  });

  it('the command line prints the same text as the object path', async () => {
    for (const [format, file] of [
      ['solarus', path.join(ZSDX, 'old', corpusFiles()[0]!)],
      ['solarus-lua', path.join(ZSDX, 'new', corpusFiles()[0]!)],
    ] as const) {
      const r = await runCli(['inspect', file, '--json', '--format', format]);
      expect(r.code).toBe(0);
      const made = read(format, format === 'solarus' ? corpusBytes('old', corpusFiles()[0]!) : corpusBytes('new', corpusFiles()[0]!));
      void made.animations;
      expect(r.stdout).toBe(`${JSON.stringify(inspectJson(format, made), null, 2)}\n`);
    }
  });
});
