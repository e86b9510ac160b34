import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../src/detect.js';
import { packShelves } from '../../src/model/pack.js';
import { fixture } from './helpers.js';

describe('shelf packer', () => {
  it('places every rectangle inside the sheet, 1 px apart, deterministically', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ w: fc.integer({ min: 1, max: 40 }), h: fc.integer({ min: 1, max: 40 }) }), { maxLength: 60 }),
        (rects) => {
          const r = packShelves(rects, 1);
          expect(packShelves(rects, 1)).toEqual(r);
          rects.forEach((a, i) => {
            const p = r.positions[i]!;
            expect(p.x + a.w).toBeLessThanOrEqual(r.width);
            expect(p.y + a.h).toBeLessThanOrEqual(r.height);
            for (let j = 0; j < i; j++) {
              const b = rects[j]!;
              const q = r.positions[j]!;
              const apart = p.x >= q.x + b.w + 1 || q.x >= p.x + a.w + 1 || p.y >= q.y + b.h + 1 || q.y >= p.y + a.h + 1;
              expect(apart).toBe(true);
            }
          });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('is reasonably dense for equal squares', () => {
    const r = packShelves(Array.from({ length: 64 }, () => ({ w: 16, h: 16 })));
    expect(r.width * r.height).toBeLessThan(64 * 17 * 17 * 1.3);
  });
});

describe('content detection between the JSON formats', () => {
  it('tells each fixture apart, whatever the extension', () => {
    expect(detectFormat(fixture('hero-aseprite-hash.json'), 'x.tmj')?.name).toBe('aseprite');
    expect(detectFormat(fixture('hero-aseprite-array.json'), 'x.json')?.name).toBe('aseprite');
    expect(detectFormat(fixture('coins-pixi.json'), 'x.tmj')?.name).toBe('texturepacker');
    expect(detectFormat(fixture('dungeon.tmj'), 'x.json')?.name).toBe('tiled');
    const enc = (o: unknown) => new TextEncoder().encode(JSON.stringify(o));
    // A TexturePacker file from another tool: frames + meta.image, no app.
    expect(detectFormat(enc({ frames: {}, meta: { image: 'a.png' } }))?.name).toBe('texturepacker');
    // A Phaser atlas naming no image (Atlas Packer Gamma: the game passes the image to load.atlas), anchors per frame.
    const gamma = { frames: [{ filename: 'a', frame: { w: 4, h: 4, x: 0, y: 0 }, anchor: { x: 0.5, y: 0.5 } }], meta: { web: 'x' } };
    expect(detectFormat(enc(gamma), 'a_atlas.json')?.name).toBe('texturepacker');
    // A Tiled map written without "type" (old Tiled): layers + tilesets.
    expect(detectFormat(enc({ width: 1, height: 1, layers: [], tilesets: [] }))?.name).toBe('tiled');
    expect(detectFormat(enc({ hello: 'world' }))).toBeUndefined();
    expect(detectFormat(new TextEncoder().encode('  \n [1, 2]'))).toBeUndefined();
  });
});
