import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readIsprite, writeIsprite, validateIsprite, inspectIspriteJson, type IspriteDocument } from '../../src/formats/isprite/index.js';
import { makeHeroDocument } from '../../scripts/samples/isprite.js';
import { ispriteDocument } from './arb.js';

describe('ISPRITE round trips', () => {
  it('the hero sample: every chunk and element kind survives write -> read', () => {
    const doc = makeHeroDocument();
    doc.unknownChunks = [{ id: 'XTRA', data: new Uint8Array([1, 2, 3]) }];
    doc.frames[0]!.elements.push({ type: 'unknown', marker: 0x58, name: null, data: new Uint8Array([9, 8, 7, 6]) });
    const kinds = new Set(doc.frames.flatMap((f) => f.elements.map((e) => (e.type === 'graphic' ? (e.expanded ? 'G' : 'g') : e.type))));
    expect([...kinds].sort()).toEqual(['G', 'attachment', 'circle', 'g', 'rect', 'unknown']);
    const bytes = writeIsprite(doc);
    const back = readIsprite(bytes);
    expect(back).toEqual(doc);
    expect(writeIsprite(back)).toEqual(bytes);
    expect(validateIsprite(bytes).filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('an unknown collision type survives in a later minor version', () => {
    const doc = makeHeroDocument();
    doc.version = [1, 2];
    doc.frames[0]!.elements.push({ type: 'unknown', marker: 0x43, name: 1, data: new Uint8Array([0, 0x70, 1, 0]) });
    const bytes = writeIsprite(doc);
    expect(readIsprite(bytes)).toEqual(doc);
    doc.version = [1, 0];
    expect(() => writeIsprite(doc)).toThrow(/cannot be written in version 1.0/);
  });

  it('simple graphics written as expanded get the documented defaults', () => {
    const doc = makeHeroDocument();
    doc.frames[0]!.elements = [{ type: 'graphic', expanded: true, name: null, slice: 0, x: 1, y: 2, flipX: false, flipY: false }];
    const el = readIsprite(writeIsprite(doc)).frames[0]!.elements[0];
    expect(el).toEqual({
      type: 'graphic',
      expanded: true,
      name: null,
      slice: 0,
      x: 1,
      y: 2,
      flipX: false,
      flipY: false,
      originX: 8,
      originY: 12,
      rotation: 0,
      scaleX: 1,
      scaleY: 1,
      opacity: 65535,
    });
  });

  it('property: random documents read back equal, and write the same bytes again', () => {
    fc.assert(
      fc.property(ispriteDocument, (doc: IspriteDocument) => {
        const bytes = writeIsprite(doc);
        // The writer's size estimate leaves no hidden slack behind the result.
        expect(bytes.buffer.byteLength).toBe(bytes.length);
        const back = readIsprite(bytes);
        expect(back).toEqual(doc);
        expect(writeIsprite(back)).toEqual(bytes);
        // validate and inspect never throw on what the writer makes.
        validateIsprite(bytes);
        JSON.stringify(inspectIspriteJson(back));
      }),
      { numRuns: 300 },
    );
  });
});
