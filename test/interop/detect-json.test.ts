import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../src/detect.js';
import { fixture } from './helpers.js';

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
