import { describe, expect, it } from 'vitest';
import {
  createCthg,
  playCthg,
  readCthg,
  renderCthg,
  spriteFromImage,
  validateCthg,
  writeCthg,
  type CthgDocument,
} from '../../src/formats/cthg/index.js';
import { encodePng } from '../../src/render/png.js';
import type { ResourceLoader } from '../../src/formats/types.js';
import { NONE, TINY_SPRITE, rawFile, type RawBlock } from './helpers.js';
import { errorOf } from '../helpers/errors.js';

const noResources: ResourceLoader = { load: async (p) => Promise.reject(new Error(`no ${p}`)), exists: async () => false };

const simple: RawBlock[] = [
  TINY_SPRITE,
  { t: 'FR', elements: [{ sprite: 0 }] },
  { t: 'CA', name: 'a', frameCount: 1, views: [0, NONE, NONE, NONE] },
];

describe('CTHG decisions', () => {
  it('1: only version 513; 0-511 are the free graphics formats', () => {
    expect(readCthg(rawFile(simple)).version).toBe(513);
    const e = errorOf(() => readCthg(rawFile(simple, undefined, 2)));
    expect(e.message).toMatch(/free graphics formats.*at byte 4/);
    expect(errorOf(() => readCthg(rawFile(simple, undefined, 514))).message).toMatch(/unsupported CTHG version 514 .*at byte 4/);
  });

  it('2: header counts that lie are a warning on read, an error in validate, and corrected on write', () => {
    const bytes = rawFile(simple, [1, 9, 1, 1, 5]);
    const warnings: string[] = [];
    const doc = readCthg(bytes, { warn: (d) => warnings.push(d.message) });
    expect(warnings).toEqual(["the header's frame count is 9 but the file holds 1 (at byte 10)"]);
    const v = validateCthg(bytes);
    expect(v).toHaveLength(1);
    expect(v[0]!.severity).toBe('error');
    expect(writeCthg(doc)).toEqual(rawFile(simple));
  });

  it('3: frames and sprites must be defined before use; a view needs all its frames', () => {
    expect(errorOf(() => readCthg(rawFile([{ t: 'FR', elements: [{ sprite: 0 }] }, TINY_SPRITE]))).message).toMatch(
      /refers to sprite 0 but only 0 sprites are defined before it \(at byte 32\)/,
    );
    const e = errorOf(() =>
      readCthg(
        rawFile([TINY_SPRITE, { t: 'FR', elements: [{ sprite: 0 }] }, { t: 'CA', name: 'a', frameCount: 2, views: [0, NONE, NONE, NONE] }]),
      ),
    );
    expect(e.message).toMatch(/north view of "a" uses frames 0 to 1 but only 1 frame is defined/);
    expect(errorOf(() => readCthg(rawFile([{ t: 'CA', name: 'a', frameCount: 1, views: [NONE, 0, NONE, NONE] }]))).message).toMatch(
      /east view/,
    );
    // Any order that defines first is fine, and is kept.
    const order: RawBlock[] = [
      TINY_SPRITE,
      TINY_SPRITE,
      { t: 'FR', elements: [{ sprite: 1 }] },
      { t: 'FR', elements: [{ sprite: 0 }] },
      { t: 'CA', name: 'b', frameCount: 2, views: [NONE, NONE, 0, NONE] },
    ];
    const bytes = rawFile(order);
    const doc = readCthg(bytes);
    expect(doc.blockOrder).toBe('SSFFA');
    expect(writeCthg(doc)).toEqual(bytes);
  });

  it('4: an unknown block ID is an error naming its offset', () => {
    const bytes = rawFile([TINY_SPRITE, { t: 'raw', bytes: [0x58, 0x59, 0, 0] }]);
    expect(errorOf(() => readCthg(bytes)).message).toBe(
      'unknown block ID "XY" (expected CA, FR or SP; blocks have no size, so it cannot be skipped) (at byte 41)',
    );
  });

  it('5: count = byte & 63, type = byte >> 6; 0-length runs are legal and never written', () => {
    const data = [0x00, 0x80, 0x40, 9, 0xc0, 3, 9, 0x01, 1, 2, 3, 0x81];
    const bytes = rawFile([
      { t: 'SP', width: 2, height: 1, data },
      { t: 'FR', elements: [{ sprite: 0 }] },
      { t: 'CA', name: 'z', frameCount: 1, views: [0, NONE, NONE, NONE] },
    ]);
    const doc = readCthg(bytes);
    expect(writeCthg(doc)).toEqual(bytes);
    const big = spriteFromImage({ width: 130, height: 1, data: new Uint8Array(130 * 4).fill(255) });
    expect([big.data[0], big.data[1 + 63 * 3], big.data[2 + 126 * 3]]).toEqual([63, 63, 4]);
  });

  it('6 and 13: the runs must cover exactly width × height and use exactly the data length', () => {
    const sp = (data: number[], w = 2, h = 1) => rawFile([{ t: 'SP', width: w, height: h, data }]);
    expect(errorOf(() => readCthg(sp([0x83]))).message).toMatch(
      /a run of 3 pixels passes the end of the sprite \(2 pixels left\) \(at byte 36\)/,
    );
    expect(errorOf(() => readCthg(sp([0x81]))).message).toMatch(/ends after 1 of 2 pixels \(at byte 37\)/);
    expect(errorOf(() => readCthg(sp([0x82, 0x80]))).message).toMatch(/1 unused byte after the last pixel of the sprite \(at byte 37\)/);
    expect(errorOf(() => readCthg(sp([0x82, 0x00, 0x00]))).message).toMatch(/2 unused bytes/);
    expect(errorOf(() => readCthg(sp([0x02, 1, 2]))).message).toMatch(/needs 7 bytes but only 3 remain/);
    // A data length longer than the file.
    expect(errorOf(() => readCthg(rawFile([{ t: 'SP', width: 1, height: 1, data: [0x81], length: 99 }]))).message).toMatch(
      /sprite data byte count 99/,
    );
  });

  it('7: flags 0x1 flips vertically and 0x2 horizontally; --flip-convention corsixth swaps them', async () => {
    // A 2x2 sprite: red green / blue white.
    const img = { width: 2, height: 2, data: Uint8Array.from([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255]) };
    const doc = createCthg();
    doc.sprites.push(spriteFromImage(img));
    for (const flags of [0, 1, 2]) doc.frames.push({ sound: 0, elements: [{ sprite: 0, x: 0, y: 0, layerClass: 0, layerId: 0, flags }] });
    doc.animations.push({ name: 'v', tileSize: 64, frameCount: 1, views: { north: 0, east: 1, south: 2, west: null } });
    const names: Record<string, string> = { '255,0,0': 'R', '0,255,0': 'G', '0,0,255': 'B', '255,255,255': 'W' };
    const px = async (view: string, conv?: string) => {
      const r = await renderCthg(doc, { view, ...(conv ? { 'flip-convention': conv } : {}) }, noResources);
      const d = r.frames[0]!.data;
      return [0, 1, 2, 3].map((i) => names[`${d[i * 4]},${d[i * 4 + 1]},${d[i * 4 + 2]}`]).join('');
    };
    expect(await px('north')).toBe('RGBW');
    expect(await px('east')).toBe('BWRG'); // 0x1: vertical, rows swap
    expect(await px('south')).toBe('GRWB'); // 0x2: horizontal, columns swap
    expect(await px('east', 'corsixth')).toBe('GRWB');
    expect(await px('south', 'corsixth')).toBe('BWRG');
  });

  it('8: 0x4 draws at 50 %, 0x8 at 25 %, both at 50 %; other bits are kept', async () => {
    const doc = createCthg();
    doc.sprites.push(spriteFromImage({ width: 1, height: 1, data: Uint8Array.from([200, 100, 50, 255]) }));
    for (const flags of [4, 8, 12, 0x100])
      doc.frames.push({ sound: 0, elements: [{ sprite: 0, x: 0, y: 0, layerClass: 0, layerId: 0, flags }] });
    doc.animations.push({ name: 'o', tileSize: 64, frameCount: 4, views: { north: 0, east: null, south: null, west: null } });
    const r = await renderCthg(doc, {}, noResources);
    expect(r.frames.map((f) => f.data[3])).toEqual([128, 64, 128, 255]);
    expect(readCthg(writeCthg(doc)).frames[3]!.elements[0]!.flags).toBe(0x100);
  });

  it('9: recolour runs use the layer table, else the grey ramp, with the run opacity', async () => {
    const bytes = rawFile([
      { t: 'SP', width: 2, height: 1, data: [0xc2, 7, 100, 10, 20] },
      { t: 'FR', elements: [{ sprite: 0 }] },
      { t: 'CA', name: 'r', frameCount: 1, views: [0, NONE, NONE, NONE] },
    ]);
    const doc = readCthg(bytes);
    const grey = await renderCthg(doc, { sprite: '0' }, noResources);
    expect([...grey.frames[0]!.data]).toEqual([10, 10, 10, 100, 20, 20, 20, 100]);
    const pal = { width: 256, height: 1, data: new Uint8Array(256 * 4) };
    pal.data.set([1, 2, 3, 255], 10 * 4);
    pal.data.set([4, 5, 6, 255], 20 * 4);
    const res: ResourceLoader = { load: async () => encodePng(pal), exists: async () => true };
    const col = await renderCthg(doc, { sprite: '0', recolour: '7=pal.png' }, res);
    expect([...col.frames[0]!.data]).toEqual([1, 2, 3, 100, 4, 5, 6, 100]);
    const other = await renderCthg(doc, { sprite: '0', recolour: '6=pal.png' }, res);
    expect([...other.frames[0]!.data]).toEqual([10, 10, 10, 100, 20, 20, 20, 100]);
  });

  it('10: layer id 0 always draws; others only when selected for their class', async () => {
    const doc = createCthg();
    doc.sprites.push(spriteFromImage({ width: 1, height: 1, data: Uint8Array.from([255, 0, 0, 255]) }));
    doc.sprites.push(spriteFromImage({ width: 1, height: 1, data: Uint8Array.from([0, 255, 0, 255]) }));
    doc.sprites.push(spriteFromImage({ width: 1, height: 1, data: Uint8Array.from([0, 0, 255, 255]) }));
    doc.frames.push({
      sound: 0,
      elements: [
        { sprite: 0, x: 0, y: 0, layerClass: 3, layerId: 0, flags: 0 },
        { sprite: 1, x: 1, y: 0, layerClass: 3, layerId: 1, flags: 0 },
        { sprite: 2, x: 2, y: 0, layerClass: 3, layerId: 2, flags: 0 },
      ],
    });
    doc.animations.push({ name: 'l', tileSize: 64, frameCount: 1, views: { north: 0, east: null, south: null, west: null } });
    const alphas = async (layers?: string) =>
      [...(await renderCthg(doc, layers ? { layers } : {}, noResources)).frames[0]!.data].filter((_, i) => i % 4 === 3);
    expect(await alphas()).toEqual([255, 0, 0]);
    expect(await alphas('3=1')).toEqual([255, 255, 0]);
    expect(await alphas('3=2,4=1')).toEqual([255, 0, 255]);
    expect(await alphas('2=1')).toEqual([255, 0, 0]);
  });

  it('11: tile size is part of the identity', () => {
    const bytes = rawFile([
      TINY_SPRITE,
      { t: 'FR', sound: 1, elements: [{ sprite: 0 }] },
      { t: 'FR', sound: 2, elements: [{ sprite: 0 }] },
      { t: 'CA', name: 'a', tileSize: 64, frameCount: 1, views: [0, NONE, NONE, NONE] },
      { t: 'CA', name: 'a', tileSize: 32, frameCount: 1, views: [1, NONE, NONE, NONE] },
    ]);
    const doc = readCthg(bytes);
    expect(playCthg(doc, { animation: 'a' }).records).toEqual([{ tick: 0, frame: 0, sound: 1 }]);
    expect(playCthg(doc, { animation: 'a', 'tile-size': '32' }).records).toEqual([{ tick: 0, frame: 1, sound: 2 }]);
    expect(() => playCthg(doc, { animation: 'a', 'tile-size': '16' })).toThrow(/option --tile-size 16 names no tile size/);
  });

  it('12: a view loops, one frame per tick, sound when shown', () => {
    const bytes = rawFile([
      TINY_SPRITE,
      { t: 'FR', elements: [{ sprite: 0 }] },
      { t: 'FR', sound: 5, elements: [{ sprite: 0 }] },
      { t: 'FR', elements: [{ sprite: 0 }] },
      { t: 'FR', sound: 9, elements: [{ sprite: 0 }] },
      { t: 'CA', name: 'w', frameCount: 2, views: [0, 2, NONE, NONE] },
    ]);
    const doc = readCthg(bytes);
    expect(playCthg(doc, { animation: 'w', view: 'east', ticks: '5' }).records).toEqual([
      { tick: 0, frame: 2, sound: 0 },
      { tick: 1, frame: 3, sound: 9 },
      { tick: 2, frame: 2, sound: 0 },
      { tick: 3, frame: 3, sound: 9 },
      { tick: 4, frame: 2, sound: 0 },
    ]);
    expect(playCthg(doc, {}).records).toHaveLength(2);
    expect(() => playCthg(doc, { view: 'west' })).toThrow(/option --view "west" names no view/);
  });

  it('14: recolour pixels with alpha 0 are still type 3 runs', () => {
    const s = spriteFromImage({ width: 1, height: 1, data: Uint8Array.from([50, 60, 70, 0]) }, { recolour: Uint8Array.from([2]) });
    expect([...s.data]).toEqual([0xc1, 2, 0, 70]);
  });

  it('15: a 0x0 sprite is allowed with no data; rendering it alone is an error', async () => {
    const bytes = rawFile([{ t: 'SP', width: 0, height: 5, data: [] }]);
    const doc = readCthg(bytes);
    expect(doc.sprites[0]).toMatchObject({ width: 0, height: 5 });
    await expect(renderCthg(doc, { sprite: '0' }, noResources)).rejects.toThrow(/no pixels to draw/);
    expect(errorOf(() => readCthg(rawFile([{ t: 'SP', width: 0, height: 5, data: [0x80] }]))).message).toMatch(/unused byte/);
  });

  it('16: sprite reference 0xFFFFFFFF draws nothing and prints null', async () => {
    const bytes = rawFile([
      TINY_SPRITE,
      { t: 'FR', elements: [{ sprite: NONE }, { sprite: 0, x: 3 }] },
      { t: 'CA', name: 'n', frameCount: 1, views: [0, NONE, NONE, NONE] },
    ]);
    const doc = readCthg(bytes);
    expect(doc.frames[0]!.elements[0]!.sprite).toBeNull();
    const r = await renderCthg(doc, {}, noResources);
    expect(r.frames[0]).toMatchObject({ width: 2, height: 1 });
    expect(writeCthg(doc)).toEqual(bytes);
  });

  it('17: --sprite N is 0-based in file order', async () => {
    const bytes = rawFile([TINY_SPRITE, { t: 'SP', width: 1, height: 1, data: [0x01, 0, 0, 9] }]);
    const doc = readCthg(bytes);
    const r = await renderCthg(doc, { sprite: '1' }, noResources);
    expect([...r.frames[0]!.data]).toEqual([0, 0, 9, 255]);
    await expect(renderCthg(doc, { sprite: '2' }, noResources)).rejects.toThrow(
      /option --sprite 2 is past the last sprite \(the file has 2 sprites: 0-1\)/,
    );
  });

  it('writing: new documents get the canonical order, renumbered; a still-valid read order is kept', () => {
    const doc: CthgDocument = createCthg();
    const px = (v: number) => spriteFromImage({ width: 1, height: 1, data: Uint8Array.from([v, v, v, 255]) });
    doc.sprites.push(px(1), px(2), px(3));
    // Frames listed in an order that is not the encoder's: west view first in the array.
    doc.frames.push({ sound: 0, elements: [{ sprite: 2, x: 0, y: 0, layerClass: 0, layerId: 0, flags: 0 }] });
    doc.frames.push({
      sound: 0,
      elements: [
        { sprite: 0, x: 0, y: 0, layerClass: 0, layerId: 0, flags: 0 },
        { sprite: 1, x: 1, y: 0, layerClass: 0, layerId: 0, flags: 0 },
      ],
    });
    doc.animations.push({ name: 'c', tileSize: 64, frameCount: 1, views: { north: 1, east: null, south: null, west: 0 } });
    const bytes = writeCthg(doc);
    const back = readCthg(bytes);
    expect(back.blockOrder).toBe('SSFSFA');
    expect(back.animations[0]!.views).toEqual({ north: 0, east: null, south: null, west: 1 });
    expect(back.frames[0]!.elements.map((e) => e.sprite)).toEqual([0, 1]);
    expect(back.frames[1]!.elements.map((e) => e.sprite)).toEqual([2]);
    expect(writeCthg(back)).toEqual(bytes);
  });
});
