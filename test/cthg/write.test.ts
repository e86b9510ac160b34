import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/binary/errors.js';
import {
  canonicalLayout,
  createCthg,
  decodePixels,
  decodePixelsInto,
  encodePixels,
  orderFits,
  readCthg,
  setSpritePixels,
  spriteFromImage,
  writeCthg,
  type CthgDocument,
} from '../../src/formats/cthg/index.js';
import { NONE, TINY_SPRITE, rawFile } from './helpers.js';

const el = (sprite: number | null) => ({ sprite, x: 0, y: 0, layerClass: 0, layerId: 0, flags: 0 });

describe('CTHG writer', () => {
  it('views that overlap so renumbering would break them keep every index', () => {
    const doc: CthgDocument = createCthg();
    doc.sprites.push(spriteFromImage({ width: 1, height: 1, data: Uint8Array.from([1, 2, 3, 255]) }));
    for (let i = 0; i < 3; i++) doc.frames.push({ sound: i, elements: [el(0)] });
    doc.animations.push({ name: 'a', tileSize: 64, frameCount: 2, views: { north: 1, east: null, south: null, west: null } });
    doc.animations.push({ name: 'b', tileSize: 64, frameCount: 2, views: { north: 0, east: null, south: null, west: null } });
    expect(canonicalLayout(doc)).toBeNull();
    const back = readCthg(writeCthg(doc));
    expect(back.frames.map((f) => f.sound)).toEqual([0, 1, 2]);
    expect(back.animations.map((a) => a.views.north)).toEqual([1, 0]);
    expect(back.blockOrder).toBe('SFFFAA');
  });

  it('a header-only file is valid with zero counts, and an empty document writes it', () => {
    const empty = rawFile([]);
    expect(readCthg(empty).animations).toEqual([]);
    expect(writeCthg(createCthg())).toEqual(empty);
  });

  it('orderFits checks counts and references', () => {
    const doc = readCthg(
      rawFile([TINY_SPRITE, { t: 'FR', elements: [{ sprite: 0 }] }, { t: 'CA', name: 'a', frameCount: 1, views: [0, NONE, NONE, NONE] }]),
    );
    expect(orderFits(doc, 'SFA')).toBe(true);
    expect(orderFits(doc, 'FSA')).toBe(false);
    expect(orderFits(doc, 'SAF')).toBe(false);
    expect(orderFits(doc, 'SF')).toBe(false);
    expect(orderFits(doc, 'SFAX')).toBe(false);
  });

  it('changed pixels are re-encoded; the rest stays byte for byte', () => {
    const bytes = rawFile([
      { t: 'SP', width: 2, height: 1, data: [0x00, 0x81, 0x01, 9, 9, 9] }, // a 0-length run the encoder would not write
      TINY_SPRITE,
      { t: 'FR', elements: [{ sprite: 0 }, { sprite: 1 }] },
      { t: 'CA', name: 'a', frameCount: 1, views: [0, NONE, NONE, NONE] },
    ]);
    const doc = readCthg(bytes);
    expect(writeCthg(doc)).toEqual(bytes);
    setSpritePixels(doc.sprites[1]!, { width: 1, height: 1, data: Uint8Array.from([7, 7, 7, 255]) });
    const again = readCthg(writeCthg(doc));
    expect([...again.sprites[0]!.data]).toEqual([0x00, 0x81, 0x01, 9, 9, 9]);
    expect([...again.sprites[1]!.data]).toEqual([0x01, 7, 7, 7]);
  });

  it('refuses documents it cannot write', () => {
    const doc = createCthg();
    doc.frames.push({ sound: 0, elements: [el(3)] });
    expect(() => writeCthg(doc)).toThrow(FormatError);
    const d2 = createCthg();
    d2.sprites.push({ width: 2, height: 2, data: Uint8Array.from([0x81]) });
    expect(() => writeCthg(d2)).toThrow(/bad pixel data/);
    const d3 = createCthg();
    d3.animations.push({ name: 'x', tileSize: 64, frameCount: 1, views: { north: 0, east: null, south: null, west: null } });
    expect(() => writeCthg(d3)).toThrow(/refers to frames that do not exist/);
    const d4 = createCthg();
    d4.animations.push({ name: 'x'.repeat(300), tileSize: 64, frameCount: 1, views: { north: null, east: null, south: null, west: null } });
    expect(() => writeCthg(d4)).toThrow(FormatError);
  });

  it('decodePixelsInto works on unaligned output and reports layers', () => {
    const img = { width: 5, height: 1, data: Uint8Array.from([1, 2, 3, 255, 4, 5, 6, 255, 7, 8, 9, 100, 0, 0, 0, 0, 50, 60, 70, 255]) };
    const map = Uint8Array.from([0, 0, 0, 0, 3]);
    const data = encodePixels(img, { recolour: map });
    const backing = new Uint8Array(1 + 20);
    const out = backing.subarray(1);
    const layers = new Int16Array(5);
    decodePixelsInto(out, data, 5, 1, undefined, layers);
    expect([...out]).toEqual([...decodePixels(data, 5, 1).data]);
    expect([...out.subarray(16)]).toEqual([70, 70, 70, 255]);
    expect([...layers]).toEqual([-1, -1, -1, -1, 3]);
  });

  it('long opaque and partial runs decode through the 4-pixel path and the tail', () => {
    for (const a of [255, 77]) {
      for (const w of [1, 3, 4, 5, 7, 8, 63, 64, 67, 130]) {
        const img = { width: w, height: 1, data: new Uint8Array(w * 4) };
        for (let i = 0; i < w; i++) img.data.set([i & 255, (i * 7) & 255, (i * 13) & 255, a], i * 4);
        expect(decodePixels(encodePixels(img), w, 1).data).toEqual(img.data);
      }
    }
  });
});
