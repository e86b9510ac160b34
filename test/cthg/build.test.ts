import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { FormatError } from '../../src/binary/errors.js';
import {
  buildCthg,
  cthgFromModel,
  cthgToModel,
  decodeSprite,
  readCthg,
  renderFrame,
  writeCthg,
  type CthgDescription,
} from '../../src/formats/cthg/index.js';
import { createImage, type RgbaImage } from '../../src/render/image.js';
import { CORPUS, SAMPLES } from '../helpers/paths.js';

function sheet(): RgbaImage {
  // 8x4: left half opaque gradient, right half half-transparent blue.
  const img = createImage(8, 4);
  for (let y = 0; y < 4; y++) {
    for (let x = 0; x < 8; x++) img.data.set(x < 4 ? [x * 60, y * 60, 100, 255] : [0, 0, 255, 128], (y * 8 + x) * 4);
  }
  return img;
}

function recolourMap(): RgbaImage {
  const img = createImage(8, 4);
  img.data.set([2, 2, 2, 255], 0); // pixel (0, 0) on layer 2
  return img;
}

describe('building CTHG files', () => {
  it('buildCthg makes a document from a JSON description and PNG regions', async () => {
    const desc: CthgDescription = {
      animations: [
        {
          name: 'thing',
          views: {
            north: [
              { sound: 3, elements: [{ image: 'sheet.png', width: 4, x: -2, y: -4, recolour: 'map.png' }] },
              { elements: [{ image: 'sheet.png', left: 4, x: -2, y: -4, flags: 4, layerClass: 2, layerId: 1 }] },
            ],
            west: [
              { elements: [{ image: 'sheet.png', width: 4, x: -2, y: -4, flags: 2, recolour: 'map.png' }] },
              { elements: [{ image: 'sheet.png', left: 4, x: -2, y: -4 }] },
            ],
          },
        },
      ],
    };
    const images: Record<string, RgbaImage> = { 'sheet.png': sheet(), 'map.png': recolourMap() };
    const doc = await buildCthg(desc, async (p) => images[p]!);
    expect(doc.sprites).toHaveLength(2); // identical regions are shared
    expect(doc.animations[0]).toEqual({
      name: 'thing',
      tileSize: 64,
      frameCount: 2,
      views: { north: 0, east: null, south: null, west: 2 },
    });
    expect(doc.frames[0]!.sound).toBe(3);
    expect(doc.sprites[0]!.data[0]).toBe(0xc1); // a one-pixel recolour run on layer 2
    expect(doc.sprites[0]!.data[1]).toBe(2);
    const bytes = writeCthg(doc);
    const back = readCthg(bytes);
    expect(back.blockOrder).toBe('SFSFFFA');
    expect(writeCthg(back)).toEqual(bytes);
    const px = decodeSprite(back.sprites[1]!);
    expect([...px.data.subarray(0, 4)]).toEqual([0, 0, 255, 128]);
  });

  it('buildCthg rejects bad descriptions with a FormatError', async () => {
    const load = async () => sheet();
    await expect(buildCthg({ animations: [{ name: 'x', views: {} }] }, load)).rejects.toThrow(/has no views/);
    await expect(buildCthg({ animations: [{ name: 'x', views: { north: [{ elements: [] }], east: [] } }] }, load)).rejects.toThrow(
      /every view needs 1 frames/,
    );
    await expect(
      buildCthg({ animations: [{ name: 'x', views: { north: [{ elements: [{ image: 'a', x: 0.5, y: 0 }] }] } }] }, load),
    ).rejects.toBeInstanceOf(FormatError);
    await expect(
      buildCthg({ animations: [{ name: 'x', views: { north: [{ elements: [{ image: 'a', width: 99, x: 0, y: 0 }] }] } }] }, load),
    ).rejects.toThrow(/width/);
  });

  it('toModel then fromModel keeps what the model can hold', async () => {
    for (const file of [path.join(CORPUS, 'cthg', 'plant_anim.dat'), path.join(SAMPLES, 'cthg', 'fan.dat')]) {
      const doc = readCthg(new Uint8Array(readFileSync(file)));
      const model = cthgToModel(doc);
      expect(model.animations.length).toBe(doc.animations.reduce((n, a) => n + Object.values(a.views).filter((v) => v !== null).length, 0));
      const again = cthgFromModel(model);
      const back = readCthg(writeCthg(again));
      expect(back.animations.map((a) => [a.name, a.frameCount])).toEqual(doc.animations.map((a) => [a.name, a.frameCount]));
      // Every frame draws the same (layer 0 elements only).
      for (const a of doc.animations) {
        for (const v of ['north', 'east', 'south', 'west'] as const) {
          if (a.views[v] === null) continue;
          const b = back.animations.find((x) => x.name === a.name)!;
          for (let k = 0; k < a.frameCount; k++) {
            const original = renderFrame(doc, a.views[v]! + k);
            const converted = renderFrame(back, b.views[v]! + k);
            expect(converted).toEqual(original);
          }
          expect(back.frames[b.views[v]!]!.sound).toBe(doc.frames[a.views[v]!]!.sound);
        }
      }
    }
  });

  it('the plant converts back to the identical file', () => {
    const bytes = new Uint8Array(readFileSync(path.join(CORPUS, 'cthg', 'plant_anim.dat')));
    expect(writeCthg(cthgFromModel(cthgToModel(readCthg(bytes))))).toEqual(bytes);
  });

  it('fromModel refuses rotation and levels', () => {
    const model = {
      kind: 'sprite' as const,
      name: 'm',
      sheets: [{ path: 'a', image: sheet() }],
      animations: [
        {
          name: 'a',
          frames: [{ durationMs: 100, parts: [{ sheet: 0, sx: 0, sy: 0, sw: 2, sh: 2, x: 0, y: 0, rotation: 45 }] }],
          loopTo: 0,
        },
      ],
    };
    expect(() => cthgFromModel(model)).toThrow(/rotates or scales/);
    expect(() => cthgFromModel({ kind: 'level', layers: [], tilesets: [] })).toThrow(FormatError);
  });
});
