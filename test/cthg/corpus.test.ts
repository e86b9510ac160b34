import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { CORPUS } from '../helpers/paths.js';
import { plainJson } from '../../src/binary/json-array.js';
import {
  canonicalLayout,
  decodeSprite,
  encodePixels,
  inspectCthgJson,
  readCthg,
  validateCthg,
  writeCthg,
} from '../../src/formats/cthg/index.js';

const PLANT = path.join(CORPUS, 'cthg', 'plant_anim.dat');
const bytes = () => new Uint8Array(readFileSync(PLANT));

describe('plant_anim.dat (the real file)', () => {
  it('reads without warnings and validates', () => {
    const warnings: unknown[] = [];
    const doc = readCthg(bytes(), { warn: (d) => warnings.push(d) });
    expect(warnings).toEqual([]);
    expect(validateCthg(bytes())).toEqual([]);
    expect(doc.blockOrder).toBe('SFASFASFASFASFA');
  });

  it('re-writes to the same bytes', () => {
    const b = bytes();
    expect(writeCthg(readCthg(b))).toEqual(b);
  });

  it('is in the canonical order, so a fresh layout gives the same bytes', () => {
    const doc = readCthg(bytes());
    const c = canonicalLayout(doc)!;
    expect(c.order).toBe(doc.blockOrder);
    expect(writeCthg({ ...doc, blockOrder: null })).toEqual(bytes());
  });

  it("re-encoding every sprite's pixels gives the encoder's bytes", () => {
    const doc = readCthg(bytes());
    for (const s of doc.sprites) expect(encodePixels(decodeSprite(s))).toEqual(s.data);
  });

  it('inspect --json matches the contract', () => {
    const j = plainJson(inspectCthgJson(readCthg(bytes()))) as any; // lists made as written: plain arrays to index
    expect(Object.keys(j)).toEqual(['format', 'version', 'header', 'blockOrder', 'animations', 'frames', 'sprites']);
    expect(j.header).toEqual({ animations: 5, frames: 5, elements: 5, sprites: 5, spriteBytes: 18329 });
    expect(JSON.stringify(j.animations[0])).toBe(
      '{"name":"plant_dead","tileSize":64,"frameCount":1,"views":{"north":0,"east":null,"south":null,"west":null}}',
    );
    expect(JSON.stringify(j.frames[0])).toBe('{"sound":0,"elements":[{"sprite":0,"x":-15,"y":-20,"layerClass":0,"layerId":0,"flags":0}]}');
    expect(j.sprites[0]).toEqual({ width: 31, height: 30, dataLength: 2186 });
  });
});
