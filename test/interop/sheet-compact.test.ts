/**
 * The compact JSON sheet reader (src/interop/sheetcompact.ts):
 * Aseprite and TexturePacker sheets read by the byte scanner must give the
 * documents, errors, `inspect` texts, models and diagnostics the old reader
 * (JSON.parse + readFrames) gives. The old reader is what the readers fall
 * back to; here `scanSheet` is switched off to run it.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { asepriteHandler, asepriteModel, type AsepriteDoc } from '../../src/interop/aseprite/index.js';
import { texturePackerHandler, texturePackerModel, type TexturePackerDoc } from '../../src/interop/texturepacker/index.js';
import { compactFrames, frameCount } from '../../src/interop/sheetcompact.js';
import { stringifyJson } from '../../src/binary/json-chunks.js';
import type { FormatHandler } from '../../src/formats/types.js';
import { runCli } from '../helpers/cli.js';
import { SAMPLES } from '../helpers/paths.js';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const flags = vi.hoisted(() => ({ old: false }));
vi.mock('../../src/interop/sheetcompact.js', async (importOriginal) => {
  const m = await importOriginal<typeof import('../../src/interop/sheetcompact.js')>();
  return { ...m, scanSheet: (...a: Parameters<typeof m.scanSheet>) => (flags.old ? null : m.scanSheet(...a)) };
});

type Doc = AsepriteDoc | TexturePackerDoc;
const handlers = [asepriteHandler, texturePackerHandler] as unknown as FormatHandler<Doc>[];

/** What `read` gives (a document, or the error's message), with the scanner or the old way. */
function read(h: FormatHandler<Doc>, bytes: Uint8Array, old: boolean): { doc?: Doc; error?: string } {
  flags.old = old;
  try {
    return { doc: h.read(bytes, {}) };
  } catch (e) {
    return { error: `${(e as Error).name}: ${(e as Error).message}` };
  } finally {
    flags.old = false;
  }
}

const modelOf = (h: FormatHandler<Doc>, d: Doc) =>
  h === (asepriteHandler as unknown) ? asepriteModel(d as AsepriteDoc) : texturePackerModel(d as TexturePackerDoc);

/** Everything a reader's document shows, the frames last (asking for them makes them). */
function views(h: FormatHandler<Doc>, d: Doc) {
  return {
    json: stringifyJson(h.inspectJson(d)),
    text: h.inspectText(d),
    model: modelOf(h, d),
    frames: JSON.stringify(d.frames),
    doc: JSON.stringify(d),
  };
}

/** Documents the scanner read (the rest it left to the old reader). */
let scanned = 0;

/** Reads `bytes` both ways with both handlers and expects the same everything. */
function same(bytes: Uint8Array) {
  for (const h of handlers) {
    const a = read(h, bytes, false);
    const b = read(h, bytes, true);
    if (b.doc) expect(compactFrames(b.doc)).toBeNull();
    if (a.doc && compactFrames(a.doc)) scanned++;
    expect(a.error, h.name).toBe(b.error);
    if (a.doc && b.doc) {
      expect(views(h, a.doc), h.name).toEqual(views(h, b.doc));
      expect(a.doc, h.name).toEqual(b.doc);
      flags.old = true;
      try {
        expect(h.validate(bytes), h.name).toEqual(
          (() => {
            flags.old = false;
            return h.validate(bytes);
          })(),
        );
      } finally {
        flags.old = false;
      }
    }
  }
}

const enc = (t: string) => new TextEncoder().encode(t);

// ---------------------------------------------------------------- generated sheets

const num = fc.oneof(
  fc.integer({ min: -5, max: 5000 }),
  fc.constantFrom(0.5, 1.25, -0, 1e21, 2 ** 31, -(2 ** 31) - 1, 123456789012345680000),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const size = fc.oneof(fc.integer({ min: 0, max: 5000 }), fc.constantFrom(0.5, 2 ** 33));
const rect = fc.record({ x: num, y: num, w: size, h: size });
const name = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('hero 0.aseprite', 'a"b', 'back\\slash', 'ünï 😀', '\u2028', '0', '17', '__proto__', 'x'.repeat(1100)),
);
const extra = fc.dictionary(fc.constantFrom('source', 'z', 'frame2', 'uv'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 });
const record = fc.record(
  {
    filename: name,
    frame: rect,
    rotated: fc.boolean(),
    trimmed: fc.boolean(),
    spriteSourceSize: rect,
    sourceSize: fc.record({ w: size, h: size }),
    duration: fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.constant(12.5)),
    pivot: fc.record({ x: num, y: num }),
    anchor: fc.record({ x: num, y: num }),
  },
  { requiredKeys: ['frame'] },
);
const sheet = fc.record({
  layout: fc.constantFrom('hash', 'array'),
  frames: fc.array(fc.tuple(name, record, extra), { maxLength: 6 }),
  indent: fc.constantFrom(0, 1, 2, '\t'),
  app: fc.constantFrom('https://www.aseprite.org/', 'https://www.codeandweb.com/texturepacker'),
  tags: fc.boolean(),
});

type Sheet = typeof sheet extends fc.Arbitrary<infer T> ? T : never;

function sheetText(s: Sheet): string {
  const recs = s.frames.map(([n, r, x]) => ({ ...r, ...x, ...(s.layout === 'hash' ? { filename: undefined } : {}), name: n }));
  const frames =
    s.layout === 'hash'
      ? `{${recs.map((r) => `${JSON.stringify(r.name)}:${JSON.stringify({ ...r, name: undefined })}`).join(',')}}`
      : JSON.stringify(recs.map((r) => ({ ...r, name: undefined })));
  const meta = {
    app: s.app,
    image: 'sheet.png',
    size: { w: 64, h: 64 },
    frameTags: s.tags && recs.length ? [{ name: 't', from: 0, to: recs.length - 1, direction: 'pingpong' }] : [],
  };
  // Through JSON.parse and back for the indentation (keys in a hash stay as written: duplicates, numeric names).
  const body = JSON.stringify({ frames: '@F', meta }, null, s.indent);
  return body.replace('"@F"', frames);
}

describe('the compact sheet reader gives what the old one gave', () => {
  it('on the samples and fixtures', () => {
    for (const f of ['interop/hero.json']) same(readFileSync(path.join(SAMPLES, f)));
    for (const f of ['hero-aseprite-hash.json', 'hero-aseprite-array.json', 'coins-pixi.json']) {
      same(readFileSync(path.join(__dirname, 'fixtures', f)));
    }
  });

  it('on generated sheets (names, escapes, numbers, optional and extra keys, layouts, indentation)', () => {
    scanned = 0;
    fc.assert(
      fc.property(sheet, (s) => {
        same(enc(sheetText(s)));
      }),
      { numRuns: 300 },
    );
    // (Most of them by the scanner: the others have a duplicate or numeric name, or an escaped key.)
    expect(scanned).toBeGreaterThan(300);
  });

  it('on documents it leaves to the old reader: duplicate and numeric names, escaped keys, a multiatlas, not JSON', () => {
    const docs = [
      '{"frames":{"a":{"frame":{"x":1,"y":2,"w":3,"h":4}},"a":{"frame":{"x":5,"y":6,"w":7,"h":8}}},"meta":{}}',
      '{"frames":{"b":{"frame":{"x":1,"y":2,"w":3,"h":4}},"2":{"frame":{"x":5,"y":6,"w":7,"h":8}}},"meta":{}}',
      '{"fr\\u0061mes":{"b":{"frame":{"x":1,"y":2,"w":3,"h":4}}},"meta":{}}',
      '{"frames":{"b":{"fr\\u0061me":{"x":1,"y":2,"w":3,"h":4}}},"meta":{}}',
      '{"frames":{"b":{"frame":{"x":1,"y":2,"w":3,"h":4},"frame":{"x":1,"y":2,"w":3,"h":4}}},"frames":{},"meta":{}}',
      '{"textures":[{"image":"a.png","frames":[{"filename":"f","frame":{"x":0,"y":0,"w":2,"h":2}}]}],"meta":{}}',
      '{"frames":{"b":{"frame":{"x":1e400,"y":2,"w":3,"h":4}}},"meta":{}}',
      '\ufeff\ufeff{"frames":{},"meta":{}}',
      '\ufeff{"frames":{},"meta":{"app":"aseprite"}}  \n',
      '{"frames":{"b":{"frame":{"x":1,"y":2,"w":-3,"h":4}}},"meta":{}}',
      '{"frames":[{"filename":null,"frame":{"x":1,"y":2,"w":3,"h":4}}],"meta":{}}',
      '{"frames":{"b":{"frame":{"x":1,"y":2,"w":3,"h":4},"rotated":null}},"meta":{}}',
      '{"frames":{"b":{"frame":{"x":1,"y":2,"w":3,"h":4},"pivot":{"x":0.5}}},"meta":{}}',
      '{"frames":{"b":{"frame":{"x":1,"y":2,"w":3,"h":4},"duration":-1}},"meta":{}}',
      '{"frames":{"b":{"frame":{"x":1,"y":2,"w":3,"h":4},"other":[1,{"a":[true,false,null,"x\\n"]},-0.5e-3]}},"meta":{"frameTags":[{"name":"t","from":0,"to":3}]}}',
      '{"frames":{"b":{"frame":{"x":1,"y":2,"w":3,"h":4}}},"meta":{"frameTags":[{"name":"t","from":0,"to":0}]}} x',
      '{"frames":{"b":{"frame":{"x":01,"y":2,"w":3,"h":4}}}}',
      '{"frames":{"b":{"frame":{"x":1.,"y":2,"w":3,"h":4}}}}',
      '{"frames":{"b":{"frame":{"x":1,"y":2,"w":3,"h":4}}},"animations":{"run":["b","c"]},"meta":{}}',
      '{"frames":[{"frame":{"x":1,"y":2,"w":3,"h":4}}],"animations":{"run":["0","1"]},"meta":{}}',
      '{"frames":{"b":{"frame":{"x":1,"y":2,"w":3,"h":4}}},"__proto__":{"a":1},"meta":{"size":{"w":2,"h":2}}}',
      '[]',
      '{"frames":{"b":{"frame":{"x":-0,"y":-0.0,"w":0,"h":4e0},"duration":1E2}},"meta":{}}',
      '{"frames":{"b":{"frame":{"x":1,"y":2,"w":3,"h":4}}',
      '{"frames":{"b":{"frame":{"x":1,"y":2,"w":3,"h":4}}},"meta":{"image":"a\x01.png"}}',
    ];
    // Names: the same name written with an escape, two filenames in one record, a long one, many (the hash table grows).
    docs.push(
      '{"frames":{"a":{"frame":{"x":1,"y":2,"w":3,"h":4}},"\\u0061":{"frame":{"x":5,"y":6,"w":7,"h":8}}},"meta":{}}',
      '{"frames":{"\\u00e9":{"frame":{"x":1,"y":2,"w":3,"h":4}},"é":{"frame":{"x":5,"y":6,"w":7,"h":8}}},"meta":{}}',
      '{"frames":[{"filename":"a","frame":{"x":1,"y":2,"w":3,"h":4},"filename":"b\\n"},{"filename":"é","filename":"c"}],"meta":{}}',
      `{"frames":{"${'n'.repeat(5000)}":{"frame":{"x":1,"y":2,"w":3,"h":4}}},"meta":{}}`,
    );
    const many = (last: string) =>
      `{"frames":{${Array.from({ length: 1200 }, (_, i) => `"f${i}":{"frame":{"x":${i},"y":2,"w":3,"h":4}}`).join(',')},${last}:{"frame":{"x":1,"y":2,"w":3,"h":4}}},"meta":{}}`;
    docs.push(many('"f2999"'), many('"f\\u0031"'), many('"g"'), many('"4294967295"'), many('"4294967294"'));
    for (const d of docs) same(enc(d));
    // Invalid UTF-8 in a name and outside strings.
    same(new Uint8Array([...enc('{"frames":{"a'), 0xff, 0xc3, ...enc('":{"frame":{"x":1,"y":2,"w":3,"h":4}}},"meta":{}}')]));
    same(new Uint8Array([...enc('{"frames":{}'), 0xff, ...enc(',"meta":{}}')]));
  });

  it('on corrupted sheets: the same error (with its line and column) or the same document', () => {
    const base = readFileSync(path.join(SAMPLES, 'interop/hero.json'));
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: base.length - 1 }),
        fc.constantFrom(...'{}[]",:-.0159eE tfn\\u \n'.split('').map((c) => c.charCodeAt(0)), 0x80, 0),
        fc.constantFrom('replace', 'insert', 'delete'),
        (at, byte, how) => {
          const b = [...base];
          if (how === 'replace') b[at] = byte;
          else if (how === 'insert') b.splice(at, 0, byte);
          else b.splice(at, 1);
          same(new Uint8Array(b));
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('a compact document', () => {
  const text = sheetText({
    layout: 'hash',
    frames: Array.from({ length: 5 }, (_, i) => [
      `f${i}`,
      { frame: { x: i, y: 0, w: 2, h: 2 }, rotated: false, trimmed: i === 1, duration: 50, pivot: { x: 0.5, y: 1 } },
      {},
    ]),
    indent: 1,
    app: 'https://www.codeandweb.com/texturepacker',
    tags: false,
  } as never);

  it('stays compact through inspect, the model and validation; its frames are made when asked for, then are the document', () => {
    const doc = texturePackerHandler.read(enc(text), {});
    expect(compactFrames(doc)).not.toBeNull();
    // The store is a document extra: non-enumerable, out of the document's data.
    expect(Object.keys(doc)).not.toContain('frameStore');
    expect(JSON.stringify(texturePackerHandler.read(enc(text), {}))).not.toContain('frameStore');
    expect('frameStore' in { ...texturePackerHandler.read(enc(text), {}) }).toBe(false);
    stringifyJson(texturePackerHandler.inspectJson(doc));
    texturePackerHandler.inspectText(doc);
    texturePackerModel(doc);
    expect(compactFrames(doc)).not.toBeNull();
    expect(frameCount(doc)).toBe(5);
    const frames = doc.frames;
    expect(compactFrames(doc)).toBeNull();
    expect(doc.frames).toBe(frames);
    expect(Object.keys(doc)).toEqual(['layout', 'frames', 'animations', 'meta']);
    expect(Object.hasOwn(doc, 'frameStore')).toBe(false);
    frames[0]!.frame.x = 40;
    frames.pop();
    const json = JSON.parse(stringifyJson(texturePackerHandler.inspectJson(doc))!);
    expect(json.frames.f0.frame.x).toBe(40);
    expect(Object.keys(json.frames)).toHaveLength(4);
  });

  it('takes an assigned frames list, and spreads and clones as a plain document', () => {
    const doc = asepriteHandler.read(enc(text.replace('codeandweb.com/texturepacker', 'aseprite.org/')), {});
    const copy = { ...doc };
    expect(Array.isArray(copy.frames)).toBe(true);
    expect(structuredClone(doc).frames).toEqual(doc.frames);
    const doc2 = asepriteHandler.read(enc(text.replace('codeandweb.com/texturepacker', 'aseprite.org/')), {});
    doc2.frames = [];
    expect(compactFrames(doc2)).toBeNull();
    expect(asepriteHandler.inspectText(doc2)).toContain('0 frame(s)');
  });

  it('gives a frozen document its frames too (made once)', () => {
    const doc = Object.freeze(texturePackerHandler.read(enc(text), {}));
    expect(doc.frames).toHaveLength(5);
    expect(doc.frames).toBe(doc.frames);
    expect(compactFrames(doc)).toBeNull();
    expect(texturePackerHandler.inspectText(doc)).toContain('5 frame(s)');
  });

  it('prints the same `inspect --json` as before through the CLI', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sprat-compact-'));
    const file = path.join(dir, 'big.json');
    const frames: Record<string, unknown> = {};
    for (let i = 0; i < 3000; i++) {
      frames[`hero ${i}.aseprite`] = {
        frame: { x: (i % 50) * 33, y: Math.floor(i / 50) * 33, w: 32, h: 32 },
        rotated: false,
        trimmed: i % 3 === 0,
        spriteSourceSize: { x: 0, y: 0, w: 32, h: 32 },
        sourceSize: { w: 32, h: 32 },
        duration: 100,
      };
    }
    const bytes = enc(JSON.stringify({ frames, meta: { app: 'https://www.aseprite.org/', image: 'hero.png', frameTags: [] } }, null, 1));
    writeFileSync(file, bytes);
    for (const format of ['aseprite', 'texturepacker']) {
      const r = await runCli(['inspect', file, '--json', '--format', format]);
      expect(r.code).toBe(0);
      const h = handlers.find((x) => x.name === format)!;
      const old = read(h, bytes, true).doc!;
      expect(r.stdout).toBe(`${stringifyJson(h.inspectJson(old))}\n`);
    }
  });
});
