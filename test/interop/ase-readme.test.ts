/**
 * The parts of an Aseprite file docs/formats/aseprite.md says sprat reads that
 * test/interop/ase.test.ts does not reach: layer UUIDs (header flag 4), the
 * cel extra chunk, the two old palette chunks (0x0004, 8-bit; 0x0011, 6-bit),
 * and the user data of a tileset's tiles.
 */
import { zlibSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readAse } from '../../src/interop/aseprite/ase.js';
import { aseHandler } from '../../src/interop/aseprite/file.js';
import { drawPicture } from '../../src/render/pipeline.js';
import { AseOut, aseFile, rgbaPixels } from '../helpers/ase-writer.js';
import { memoryLoader } from './helpers.js';

const bytes = (o: AseOut) => Uint8Array.from(o.bytes);

describe('ase: what docs/formats/aseprite.md says it reads', () => {
  it('a layer UUID when header flag 4 is set', () => {
    const uuid = Array.from({ length: 16 }, (_, i) => i * 17);
    const layer = new AseOut().u16(3).u16(0).u16(0).u16(0).u16(0).u16(0).u8(255).zeros(3).str('named').raw(uuid);
    const file = aseFile({ width: 1, height: 1, flags: 1 | 4, layers: [], frames: [{ cels: [], chunks: [[0x2004, bytes(layer)]] }] });
    const doc = readAse(file);
    expect(doc.layers.map((l) => l.name)).toEqual(['named']);
    expect(doc.layers[0]!.uuid).toBe('00112233-4455-6677-8899-aabbccddeeff');
  });

  it('the cel extra chunk after a cel (its precise bounds, 16.16 fixed point)', () => {
    const extra = new AseOut().u32(1).u32(0x18000).u32(0x28000).u32(0x30000).u32(0x4000).zeros(16);
    const file = aseFile({
      width: 2,
      height: 2,
      layers: [{ name: 'a' }],
      frames: [{ cels: [{ layer: 0, w: 1, h: 1, pixels: rgbaPixels(1, 1, () => [1, 2, 3, 255]) }], chunks: [[0x2006, bytes(extra)]] }],
    });
    expect(readAse(file).frames[0]!.cels[0]!.extra).toEqual({ flags: 1, x: 1.5, y: 2.5, width: 3, height: 0.25 });
  });

  it('the old palette chunks: 0x0004 (8-bit components) and 0x0011 (6-bit, scaled to 8), drawn', async () => {
    // Packets: skip N entries, then M colours. 0x0004 sets 1 and 2; 0x0011 then sets 2 again.
    const old4 = new AseOut().u16(1).u8(1).u8(2).raw([10, 20, 30, 40, 50, 60]);
    const old11 = new AseOut().u16(1).u8(2).u8(1).raw([63, 32, 0]);
    const file = aseFile({
      width: 2,
      height: 1,
      depth: 8,
      layers: [{ name: 'a' }],
      frames: [
        {
          chunks: [
            [0x0004, bytes(old4)],
            [0x0011, bytes(old11)],
          ],
          cels: [{ layer: 0, w: 2, h: 1, pixels: Uint8Array.from([1, 2]) }],
        },
      ],
    });
    const doc = readAse(file);
    expect(doc.paletteChunks.map((p) => p.kind)).toEqual(['old-0x0004', 'old-0x0011']);
    const [img] = drawPicture(await aseHandler.picture!(doc, {}, memoryLoader({}))).frames;
    expect(Array.from(img!.data)).toEqual([10, 20, 30, 255, 255, 130, 0, 255]);
  });

  it("user data on a tileset's tiles (the user data chunks after the tileset: its own, then one per tile)", () => {
    const pixels = new Uint8Array(2 * 2 * 2 * 4);
    const z = zlibSync(pixels);
    const ts = new AseOut().u32(0).u32(2).u32(2).u16(2).u16(2).u16(1).zeros(14).str('ts').u32(z.length).raw(z);
    const text = (t: string) => bytes(new AseOut().u32(1).str(t));
    const file = aseFile({
      width: 2,
      height: 2,
      layers: [{ name: 'a' }],
      frames: [
        {
          cels: [],
          chunks: [
            [0x2023, bytes(ts)],
            [0x2020, text('the set')],
            [0x2020, text('tile 0')],
            [0x2020, text('tile 1')],
          ],
        },
      ],
    });
    const doc = readAse(file);
    expect(doc.tilesets[0]!.userData).toEqual({ text: 'the set' });
    expect(doc.tilesets[0]!.tileUserData).toEqual([{ text: 'tile 0' }, { text: 'tile 1' }]);
  });
});
