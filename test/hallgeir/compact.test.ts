/**
 * The compact documents the readers make (src/formats/hallgeir/compact.ts):
 * frame records kept as read and map objects in typed arrays, behind
 * `frames` / `objects` accessors that make the plain objects on first use.
 * A compact document must be the same document as one whose objects were
 * made (equality, JSON, writing, inspect text and JSON, playback), stay
 * compact through the library's own readers, and change like a plain one.
 */
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { JsonText, plainJson } from '../../src/binary/json-array.js';
import { stringifyJson } from '../../src/binary/json-chunks.js';
import {
  compactFrames,
  compactObjects,
  frameByIndex,
  frameCount,
  framesOf,
  objectPaths,
  objectsOf,
} from '../../src/formats/hallgeir/compact.js';
import {
  frameChain,
  hallgeirInspectJson,
  hallgeirInspectText,
  hallgeirMapHandler,
  hallgeirSpriteHandler,
  playRecords,
  readHallgeir,
  renderMap,
  renderSprite,
  spriteToModel,
  writeHallgeir,
  type HallgeirDocument,
  type HallgeirKind,
  type HallgeirMap,
  type HallgeirSprite,
} from '../../src/formats/hallgeir/index.js';
import { documentWarnings, validateHallgeir } from '../../src/formats/hallgeir/validate.js';
import { SAMPLES } from '../helpers/paths.js';
import { runCli } from '../helpers/cli.js';
import { Builder } from './bytes.js';
import { memoryLoader } from './memory.js';

/** A sprite of `animations` x `frames` frames, as bench/hallgeir.mjs makes them. */
function makeSprite(animations: number, frames: number): HallgeirSprite {
  const anims = Array.from({ length: animations }, (_, a) => ({
    name: `animation_${a}`,
    frames: Array.from({ length: frames }, (_, f) => ({ x: f * 32, y: a * 32, delay: 0.05 + (f % 7) / 100, next: (f + 1) % frames })),
  }));
  return { kind: 'sprite', littleEndian: true, name: 'bench', texture: 'bench_tex', animations: anims };
}

/** The document with every frame and object made (as the readers made them before). */
function made<D extends HallgeirDocument>(doc: D): D {
  if (doc.kind === 'sprite') for (const a of doc.animations) void a.frames;
  if (doc.kind === 'map') void doc.objects;
  return doc;
}

/** Whether the document holds frames or objects to make. */
function hasLists(doc: HallgeirDocument): boolean {
  return (doc.kind === 'sprite' && doc.animations.length > 0) || doc.kind === 'map';
}

function isCompact(doc: HallgeirDocument): boolean {
  if (doc.kind === 'sprite') return doc.animations.every((a) => compactFrames(a) !== null);
  if (doc.kind === 'map') return compactObjects(doc) !== null;
  return true;
}

/** Equal bytes (vitest's toEqual is slow on big typed arrays): the first difference shown. */
function expectSameBytes(a: Uint8Array, b: Uint8Array): void {
  if (Buffer.from(a.buffer, a.byteOffset, a.length).equals(b)) return;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  expect({ length: a.length, at: i, byte: a[i] }).toEqual({ length: b.length, at: i, byte: b[i] });
}

/** Everything the library shows of a document, from a compact read and from one with its objects made: the same. */
function checkSame(bytes: Uint8Array, kind: HallgeirKind): void {
  const compact = readHallgeir(bytes, kind);
  const objects = made(readHallgeir(bytes, kind));
  expect(isCompact(compact)).toBe(true);
  // JSON, inspect (text and JSON), writing both ways, playback and validation: the library's readers.
  const jsonC = hallgeirInspectJson(compact);
  const jsonO = hallgeirInspectJson(objects);
  const want = JSON.stringify(jsonO, null, 2);
  expect(stringifyJson(jsonC)).toBe(want);
  expect(stringifyJson(jsonO)).toBe(want);
  expect(hallgeirInspectText(compact)).toBe(hallgeirInspectText(objects));
  expectSameBytes(writeHallgeir(compact), bytes);
  for (const endian of ['little', 'big'] as const) expectSameBytes(writeHallgeir(compact, { endian }), writeHallgeir(objects, { endian }));
  expect(documentWarnings(compact)).toEqual(documentWarnings(objects));
  if (compact.kind === 'sprite' && objects.kind === 'sprite') {
    compact.animations.forEach((a, i) => {
      const b = objects.animations[i]!;
      expect(frameChain(a)).toEqual(frameChain(b));
      // (Delays too small to advance the time make playback step long before it knows: one test below.)
      if (b.frames.every((f) => !(f.delay > 0) || f.delay >= 1e-3)) expect(playRecords(a, 2000, 30)).toEqual(playRecords(b, 2000, 30));
      expect(frameCount(a)).toBe(b.frames.length);
      const t = framesOf(a);
      const table = Array.from({ length: t.length }, (_, j) => ({ x: t.x(j), y: t.y(j), delay: t.delay(j), next: t.next(j) }));
      expect(table).toEqual(b.frames);
      expect(Array.from({ length: t.length }, (_, j) => frameByIndex(a, j))).toEqual(b.frames);
      expect(frameByIndex(a, t.length)).toBeUndefined();
      expect(frameByIndex(a, -1)).toBeUndefined();
    });
  }
  if (compact.kind === 'map' && objects.kind === 'map') {
    const t = objectsOf(compact);
    expect(t.length).toBe(objects.objects.length);
    expect(Array.from({ length: t.length }, (_, j) => ({ x: t.x(j), y: t.y(j), object: t.object(j) }))).toEqual(objects.objects);
    expect(objectPaths(compact)).toEqual([...new Set(objects.objects.map((o) => o.object))]);
  }
  expect(isCompact(compact)).toBe(true);
  // The lists' items, made one at a time, are the objects' too.
  expect(JSON.stringify(jsonC, null, 2)).toBe(want);
  expect(JSON.stringify(plainJson(jsonC))).toBe(JSON.stringify(JSON.parse(want)));
  // The model itself: equal, with its keys in the same order.
  expect(compact).toEqual(objects);
  expect(JSON.stringify(compact)).toBe(JSON.stringify(objects));
  if (hasLists(compact)) expect(isCompact(compact)).toBe(false); // made on first use, and kept
  expect(JSON.stringify(compact)).toBe(JSON.stringify(objects));
}

const int32 = fc.integer({ min: -0x80000000, max: 0x7fffffff });
const text = fc.oneof(fc.string({ maxLength: 8 }), fc.string({ unit: 'binary', maxLength: 8 }));
const delay = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 0.05, 0.1, 1 / 3, 5e-324, 1e21, 1e-7, 123456789.125),
);
const animation = fc.integer({ min: 0, max: 8 }).chain((n) =>
  fc.record({
    name: text,
    frames: fc.array(fc.record({ x: int32, y: int32, delay, next: fc.integer({ min: -1, max: n - 1 }) }), {
      minLength: n,
      maxLength: n,
    }),
  }),
);
const sprite: fc.Arbitrary<HallgeirSprite> = fc.record({
  kind: fc.constant('sprite' as const),
  littleEndian: fc.boolean(),
  name: text,
  texture: text,
  animations: fc.array(animation, { maxLength: 5 }),
});
const map: fc.Arbitrary<HallgeirMap> = fc.record({
  kind: fc.constant('map' as const),
  littleEndian: fc.boolean(),
  textures: fc.array(fc.record({ path: text, name: text }), { maxLength: 3 }),
  objects: fc.array(fc.record({ x: int32, y: int32, object: fc.oneof(fc.constantFrom('a.obj', 'b/c.obj', '', 'ü.obj'), text) }), {
    maxLength: 40,
  }),
});

describe('Hallgeir compact documents', () => {
  it('are the documents with their objects made: the samples and the benchmark inputs', () => {
    for (const f of readdirSync(path.join(SAMPLES, 'hallgeir'))) {
      const kind = ({ '.spr': 'sprite', '.map': 'map', '.obj': 'object' } as const)[path.extname(f)];
      if (kind) checkSame(new Uint8Array(readFileSync(path.join(SAMPLES, 'hallgeir', f))), kind);
    }
    const big = makeSprite(20, 50);
    checkSame(writeHallgeir(big), 'sprite');
    checkSame(writeHallgeir(big, { endian: 'big' }), 'sprite');
    const objects = Array.from({ length: 5000 }, (_, i) => ({ x: i * 37 - 9000, y: (i * 91) % 4096, object: `obj/o${i % 50}.obj` }));
    checkSame(writeHallgeir({ kind: 'map', littleEndian: true, textures: [{ path: 't.bmp', name: 't' }], objects }), 'map');
  });

  it('property: random sprites and maps, both byte orders, any strings and delays', () => {
    fc.assert(
      fc.property(sprite, (doc) => checkSame(writeHallgeir(doc), 'sprite')),
      { numRuns: 150 },
    );
    fc.assert(
      fc.property(map, (doc) => checkSame(writeHallgeir(doc), 'map')),
      { numRuns: 150 },
    );
  });

  it('play as the documents with their frames made, delays too small to advance the time too', () => {
    const frames = [
      { x: 0, y: 0, delay: 5e-324, next: 1 },
      { x: 1, y: 0, delay: 0.25, next: 2 },
      { x: 2, y: 0, delay: 1e-300, next: 1 },
    ];
    const bytes = writeHallgeir({ kind: 'sprite', littleEndian: false, name: '', texture: '', animations: [{ name: 'a', frames }] });
    const a = readHallgeir(bytes, 'sprite').animations[0]!;
    expect(compactFrames(a)).not.toBeNull();
    expect(playRecords(a, 5000, 70)).toEqual(playRecords({ name: 'a', frames }, 5000, 70));
    const tiny = frames.map((f) => ({ ...f, delay: 5e-324 }));
    const t = readHallgeir(
      writeHallgeir({ kind: 'sprite', littleEndian: true, name: '', texture: '', animations: [{ name: 'a', frames: tiny }] }),
      'sprite',
    );
    const r = playRecords(t.animations[0]!, 300, 100);
    expect(r).toEqual(playRecords({ name: 'a', frames: tiny }, 300, 100));
    expect(r.stuck).toBe(true);
    expect(compactFrames(t.animations[0]!)).not.toBeNull();
  });

  it('map paths: shared by their bytes, past the sharing limit and through hash collisions', () => {
    // Two paths of the same length and hash (FNV-1a with the length), and over 4096 distinct paths.
    const paths = ['o1062789.obj', 'o1279192.obj', 'o1062789.obj', 'o1279192.obj'];
    for (let i = 0; i < 5000; i++) paths.push(`p${i}.obj`, `p${i % 7}.obj`);
    const objects = paths.map((object, i) => ({ x: i, y: -i, object }));
    const bytes = writeHallgeir({ kind: 'map', littleEndian: false, textures: [], objects });
    const m = readHallgeir(bytes, 'map');
    const t = objectsOf(m);
    expect(Array.from({ length: t.length }, (_, i) => t.object(i))).toEqual(paths);
    // A path met again shares its first string.
    expect(compactObjects(m)!.paths.filter((p) => p === 'p3.obj')).toHaveLength(1);
    checkSame(bytes, 'map');
  });

  it('warn for a path that is not UTF-8 at every object that has it, as before', () => {
    const b = new Builder(true).id('map').int(0).int(3);
    const at: number[] = [];
    for (const x of [1, 2, 3]) {
      b.int(x).int(0).int(2);
      at.push(b.length);
      b.raw(0xff, 0x41);
    }
    const warnings: number[] = [];
    const m = readHallgeir(b.bytes(), 'map', { warn: (d) => warnings.push(d.offset!) });
    expect(warnings).toEqual(at);
    expect(m.objects.map((o) => o.object)).toEqual(['\ufffdA', '\ufffdA', '\ufffdA']);
  });

  it('change like plain documents: made on first use, then the arrays the user changes', () => {
    const bytes = writeHallgeir(makeSprite(3, 4));
    const s = readHallgeir(bytes, 'sprite');
    const frames = s.animations[1]!.frames;
    expect(s.animations[1]!.frames).toBe(frames); // kept
    frames[2]!.x = 999;
    frames.push({ x: 1, y: 2, delay: 0, next: -1 });
    expect(framesOf(s.animations[1]!).x(2)).toBe(999);
    expect(frameCount(s.animations[1]!)).toBe(5);
    expect(readHallgeir(writeHallgeir(s), 'sprite').animations[1]!.frames).toEqual(frames);
    s.animations[0]!.frames = [{ x: 7, y: 8, delay: 1, next: 0 }];
    expect(readHallgeir(writeHallgeir(s), 'sprite').animations[0]!.frames).toEqual([{ x: 7, y: 8, delay: 1, next: 0 }]);
    // The compact ones are still written from the records.
    expect(compactFrames(s.animations[2]!)).not.toBeNull();
    expect({ ...s.animations[2]! }).toEqual({ name: 'animation_2', frames: s.animations[2]!.frames });

    const m = readHallgeir(writeHallgeir({ kind: 'map', littleEndian: true, textures: [], objects: [{ x: 1, y: 2, object: 'a' }] }), 'map');
    m.objects.push({ x: 3, y: 4, object: 'b' });
    m.objects[0]!.x = 5;
    expect(readHallgeir(writeHallgeir(m), 'map').objects).toEqual([
      { x: 5, y: 2, object: 'a' },
      { x: 3, y: 4, object: 'b' },
    ]);
    expect(structuredClone(m)).toEqual({ ...m });
  });

  it('keep the caller’s bytes only when told they never change', () => {
    const bytes = writeHallgeir(makeSprite(2, 3));
    const copy = readHallgeir(bytes.slice(), 'sprite');
    const input = bytes.slice();
    const kept = readHallgeir(input, 'sprite', { keepBytes: true });
    const own = readHallgeir(input, 'sprite');
    expect(compactFrames(kept.animations[0]!)!.store.bytes.buffer).toBe(input.buffer);
    expect(compactFrames(own.animations[0]!)!.store.bytes.buffer).not.toBe(input.buffer);
    input.fill(0);
    expect(own).toEqual(copy);
  });

  it('stay compact through rendering, conversion, references and validation', async () => {
    const dir = path.join(SAMPLES, 'hallgeir');
    const files = Object.fromEntries(readdirSync(dir).map((f) => [f, new Uint8Array(readFileSync(path.join(dir, f)))]));
    const loader = memoryLoader(files);
    const spr = readHallgeir(files['hero.spr']!, 'sprite');
    const map = readHallgeir(files['level1.map']!, 'map');
    await renderSprite(spr, { 'frame-size': '16x16' }, loader);
    const model = await spriteToModel(spr, loader, { 'frame-size': '16x16' });
    expect(model).toEqual(await spriteToModel(made(readHallgeir(files['hero.spr']!, 'sprite')), loader, { 'frame-size': '16x16' }));
    await renderMap(map, {}, loader);
    await hallgeirMapHandler.references!(map, loader);
    await hallgeirMapHandler.checkResources!(map, loader, {});
    hallgeirSpriteHandler.play!(spr, {});
    expect(validateHallgeir(files['hero.spr']!, 'sprite')).toEqual(
      validateHallgeir(writeHallgeir(made(readHallgeir(files['hero.spr']!, 'sprite'))), 'sprite'),
    );
    expect(isCompact(spr)).toBe(true);
    expect(isCompact(map)).toBe(true);
  });

  it('inspect --json: the text at any depth, and the command line’s output', async () => {
    const doc = readHallgeir(writeHallgeir(makeSprite(2, 3)), 'sprite');
    const json = hallgeirInspectJson(doc) as { animations: { at(i: number): { frames: unknown } } };
    const frames = json.animations.at(0).frames;
    expect(frames).toBeInstanceOf(JsonText);
    const plain = JSON.parse(JSON.stringify(frames));
    for (const depth of [0, 1, 5, 99, 100, 101, 130]) {
      let a: unknown = frames;
      let b: unknown = plain;
      for (let i = 0; i < depth; i++) {
        a = { k: a };
        b = { k: b };
      }
      expect(stringifyJson(a), `depth ${depth}`).toBe(stringifyJson(b));
    }
    // The animations of a document share one buffer: their texts can be taken in turns.
    const two = readHallgeir(writeHallgeir(makeSprite(2, 3000)), 'sprite');
    const lists = [0, 1].map(
      (i) => (hallgeirInspectJson(two) as { animations: { at(i: number): { frames: JsonText } } }).animations.at(i).frames,
    );
    const pad = (n: number) => ' '.repeat(2 * n);
    const alone = lists.map((l) => [...l.text(3, pad)].join(''));
    const its = lists.map((l) => l.text(3, pad)[Symbol.iterator]());
    const turns = ['', ''];
    let pieces = 0;
    for (let done = [false, false]; !done[0] || !done[1]; ) {
      for (const i of [0, 1]) {
        const r = its[i]!.next();
        if (r.done) done[i] = true;
        else {
          turns[i] += r.value;
          pieces++;
        }
      }
    }
    expect(pieces).toBeGreaterThan(4);
    expect(turns).toEqual(alone);
    expect(JSON.parse(alone[1]!)).toEqual(two.animations[1]!.frames);
    const file = path.join(SAMPLES, 'hallgeir', 'level1.map');
    const r = await runCli(['inspect', file, '--json']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${JSON.stringify(hallgeirInspectJson(made(readHallgeir(readFileSync(file), 'map'))), null, 2)}\n`);
  });
});
