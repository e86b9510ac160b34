/**
 * The JSON sheet files written a chunk at a time (src/binary/json-chunks.ts
 * jsonFile; the frames' text from a store, src/interop/sheetcompact.ts): the
 * bytes are those of the old writer, JSON.stringify(value, null, 2) and a
 * newline, whatever the frames hold; the --max-json-bytes budget is spent
 * before the text is made (a lower bound from the frames) and as it is made.
 */
import fc from 'fast-check';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { joinChunks, jsonFile } from '../../src/binary/json-chunks.js';
import { LimitError } from '../../src/binary/limits.js';
import { StringMap, StringSet } from '../../src/binary/string-map.js';
import { type AsepriteDoc, asepriteHandler, asepriteToJson } from '../../src/interop/aseprite/index.js';
import { framesJsonMinBytes, storeOf } from '../../src/interop/sheetcompact.js';
import type { SheetJsonFrame } from '../../src/interop/sheetjson.js';
import { type TexturePackerDoc, texturePackerHandler, texturePackerToJson } from '../../src/interop/texturepacker/index.js';
import { createImage } from '../../src/render/image.js';
import { encodePng } from '../../src/render/png.js';
import { runCli } from '../helpers/cli.js';

const text = (b: Uint8Array) => new TextDecoder().decode(b);

/** A frame as sprat makes them (fromModel), with `i` in its numbers and name. */
function frame(i: number, extra: Partial<SheetJsonFrame> = {}): SheetJsonFrame {
  return {
    filename: `walk/${String(i).padStart(4, '0')}`,
    frame: { x: i * 3, y: 7, w: 16, h: 24 },
    rotated: false,
    trimmed: i % 2 === 1,
    spriteSourceSize: { x: 1, y: 2, w: 16, h: 24 },
    sourceSize: { w: 18, h: 26 },
    pivot: { x: 0.5, y: 1 / 3 },
    anchor: { x: 0.5, y: 1 / 3 },
    duration: 100,
    ...extra,
  };
}

const aseDoc = (frames: SheetJsonFrame[], layout: 'hash' | 'array' = 'hash'): AsepriteDoc => ({
  layout,
  frames,
  meta: { app: 'sprat', image: 'a.png', frameTags: [{ name: 'walk', from: 0, to: 0, direction: 'forward' }], layers: [], slices: [] },
});
const tpDoc = (frames: SheetJsonFrame[], layout: 'hash' | 'array' = 'hash'): TexturePackerDoc => ({
  layout,
  frames,
  animations: [['walk', frames.map((f) => f.filename)]],
  meta: { app: 'sprat', image: 'a.png', size: { w: 64, h: 64 } },
});

/** The file as the old writer made it: the value with plain records (inspect's form of a plain document), through JSON.stringify. */
function oldBytes(doc: AsepriteDoc | TexturePackerDoc, kind: 'aseprite' | 'texturepacker'): string {
  const value = kind === 'aseprite' ? asepriteToJson(doc as AsepriteDoc) : texturePackerToJson(doc as TexturePackerDoc);
  return `${JSON.stringify(value, null, 2)}\n`;
}

function newBytes(doc: AsepriteDoc | TexturePackerDoc, kind: 'aseprite' | 'texturepacker', limits = {}): string {
  const write = { image: doc.meta.image };
  const value = kind === 'aseprite' ? asepriteToJson(doc as AsepriteDoc, write) : texturePackerToJson(doc as TexturePackerDoc, write);
  const file = jsonFile('x.json', value, limits);
  return text(joinChunks(file.chunks()));
}

/** Frames of every shape: sprat's own, and the odd ones a program may build (keys in another order, other types, repeated or numeric names). */
const anyFrame: fc.Arbitrary<SheetJsonFrame> = fc
  .record({
    i: fc.nat(1000),
    name: fc.oneof(fc.constant(undefined), fc.string(), fc.constantFrom('0', '12', '4294967295', 'a"b', 'ü', '\u0007', 'x\\y')),
    num: fc.oneof(fc.integer(), fc.double(), fc.constantFrom(-0, 2 ** 31, -(2 ** 31), 1e21, 0.1)),
    odd: fc.constantFrom('none', 'order', 'extra', 'string', 'nopivot', 'noduration', 'nullpivot', 'nullduration'),
  })
  .map(({ i, name, num, odd }) => {
    const f = frame(i, name === undefined ? {} : { filename: name });
    f.frame.x = num;
    if (odd === 'order') f.spriteSourceSize = { w: 1, h: 2, x: 3, y: 4 };
    if (odd === 'extra') (f.sourceSize as Record<string, unknown>).z = 1;
    if (odd === 'string') (f.frame as unknown as Record<string, unknown>).y = '7';
    if (odd === 'nopivot') delete f.pivot;
    if (odd === 'noduration') delete f.duration;
    if (odd === 'nullpivot') (f as unknown as Record<string, unknown>).pivot = null;
    if (odd === 'nullduration') (f as unknown as Record<string, unknown>).duration = null;
    return f;
  });

describe('sheet JSON written in chunks', () => {
  it('is the old writer text for sprat-made frames, both formats, both layouts', () => {
    const frames = Array.from({ length: 3000 }, (_, i) => frame(i));
    for (const layout of ['hash', 'array'] as const) {
      expect(storeOf(frames, layout)).not.toBeNull();
      expect(newBytes(aseDoc(frames, layout), 'aseprite')).toBe(oldBytes(aseDoc(frames, layout), 'aseprite'));
      expect(newBytes(tpDoc(frames, layout), 'texturepacker')).toBe(oldBytes(tpDoc(frames, layout), 'texturepacker'));
    }
  });

  it('is the old writer text for frames of any shape (a store when they fit one, the records otherwise)', () => {
    fc.assert(
      fc.property(fc.array(anyFrame, { maxLength: 12 }), fc.constantFrom('hash', 'array'), (frames, layout) => {
        const l = layout as 'hash' | 'array';
        expect(newBytes(aseDoc(frames, l), 'aseprite')).toBe(oldBytes(aseDoc(frames, l), 'aseprite'));
        expect(newBytes(tpDoc(frames, l), 'texturepacker')).toBe(oldBytes(tpDoc(frames, l), 'texturepacker'));
      }),
      { numRuns: 300 },
    );
  });

  it('a hash whose names repeat or are array indices, or a frame of another shape, is not put in a store', () => {
    expect(storeOf([frame(0), frame(0)], 'hash')).toBeNull();
    expect(storeOf([frame(0), frame(0)], 'array')).not.toBeNull();
    expect(storeOf([frame(0, { filename: '7' })], 'hash')).toBeNull();
    expect(storeOf([frame(0, { filename: '07' })], 'hash')).not.toBeNull();
    expect(storeOf([frame(0, { frame: { w: 1, h: 1, x: 0, y: 0 } })], 'hash')).toBeNull();
  });

  it('the lower bound of the frames text is never above it', () => {
    fc.assert(
      fc.property(fc.array(anyFrame, { maxLength: 12 }), fc.constantFrom('hash', 'array'), (frames, layout) => {
        const l = layout as 'hash' | 'array';
        for (const kind of ['aseprite', 'texturepacker'] as const) {
          const doc = kind === 'aseprite' ? aseDoc(frames, l) : tpDoc(frames, l);
          const write = { image: 'a.png' };
          const value = (
            kind === 'aseprite' ? asepriteToJson(doc as AsepriteDoc, write) : texturePackerToJson(doc as TexturePackerDoc, write)
          ) as {
            frames: unknown;
          };
          expect(framesJsonMinBytes(value.frames)).toBeLessThanOrEqual(JSON.stringify({ frames: value.frames }, null, 2).length);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('--max-json-bytes: below the lower bound, refused before any text is made; above it, stopped as the text passes the limit', async () => {
    const frames = Array.from({ length: 2000 }, (_, i) => frame(i));
    const doc = tpDoc(frames);
    const full = newBytes(doc, 'texturepacker').length - 1;
    const min = framesJsonMinBytes(texturePackerToJson(doc, { image: 'a.png' }).frames);
    expect(min).toBeGreaterThan(full * 0.8);
    await expect(texturePackerHandler.writeFiles!(doc, 'x.json', { 'max-json-bytes': String(min - 1) })).rejects.toThrow(
      /the JSON of the frames would need \d+ bytes, more than the limit of \d+ \(raise it with --max-json-bytes\)/,
    );
    const files = await texturePackerHandler.writeFiles!(doc, 'x.json', { 'max-json-bytes': String(full - 1) });
    expect(() => files[0]!.bytes).toThrow(LimitError);
    const exact = await texturePackerHandler.writeFiles!(doc, 'x.json', { 'max-json-bytes': String(full) });
    expect(text(exact[0]!.bytes).length).toBe(full + 1);
    await expect(asepriteHandler.writeFiles!(aseDoc(frames), 'x.json', { 'max-json-bytes': String(1000) })).rejects.toThrow(LimitError);
  });

  it('convert over --max-json-bytes: one error line, no output and no temporary left', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-jsonstream-'));
    try {
      // 3,000 1x1 frames: a TexturePacker JSON of about 1.4 MB, of which the lower bound is most.
      fs.writeFileSync(path.join(dir, 'a.dat'), 'a x.png 1 100 0\n0\t0\t1\t1\t0\t0\t3000\t1\n');
      fs.writeFileSync(path.join(dir, 'x.png'), encodePng(createImage(1, 1)));
      const ok = await runCli(['convert', 'a.dat', 'ok.json', '--to', 'texturepacker'], dir);
      expect(ok.code).toBe(0);
      const size = fs.statSync(path.join(dir, 'ok.json')).size;
      for (const limit of [size - 200_000, 1000]) {
        const r = await runCli(['convert', 'a.dat', 'out.json', '--to', 'texturepacker', '--max-json-bytes', String(limit)], dir);
        expect(r.code).toBe(1);
        expect(r.stderr).toMatch(
          /^sprat: error: [^\n]*would need \d+ bytes, more than the limit of \d+ \(raise it with --max-json-bytes\)\n$/,
        );
      }
      // (the JSON streamed, past the lower bound, into a temporary that is gone)
      expect(fs.readdirSync(dir).sort()).toEqual(['a.dat', 'ok.json', 'ok.png', 'x.png']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('StringMap and StringSet', () => {
  it('keep long strings of one length apart (V8 hashes only their length)', () => {
    const base = 'n'.repeat(20_000);
    const m = new StringMap<number>();
    const s = new StringSet();
    for (let i = 0; i < 300; i++) {
      m.set(`${base}/${String(i).padStart(4, '0')}`, i);
      s.add(`${base}/${String(i).padStart(4, '0')}`);
      s.add('short');
    }
    m.set(`${base}/0007`, 70);
    expect(m.size).toBe(300);
    expect(s.size).toBe(301);
    expect(m.get(`${base}/0007`)).toBe(70);
    expect(m.get(`${base}/0008`)).toBe(8);
    expect(m.has(`${base}/9999`)).toBe(false);
    expect(m.get(`${base}/9999`)).toBeUndefined();
    expect(s.has(`${base}/0299`)).toBe(true);
    expect(s.has('short')).toBe(true);
    expect(s.has(`${base}/0300`)).toBe(false);
  });
});
