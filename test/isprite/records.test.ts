import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ByteReader } from '../../src/binary/reader.js';
import { FormatError } from '../../src/binary/errors.js';
import type { IspriteElement } from '../../src/formats/isprite/model.js';
import {
  ATTACHMENT,
  CHUNK,
  COLLISION_CIRCLE,
  COLLISION_RECT,
  EXPANDED_GRAPHIC,
  FRAME,
  HEADER,
  MAX_ELEMENT_SIZE,
  META,
  MIN_FRAME,
  SEQUENCE,
  SIMPLE_GRAPHIC,
  SLICE,
  elementFields,
  elementSize,
  putFields,
  readElements,
  readFields,
  writeKnownElement,
  type KnownElement,
} from '../../src/formats/isprite/records.js';
import { element } from './arb.js';
import { createIsprite, writeIsprite } from '../../src/formats/isprite/index.js';

const slices = [{ texture: 0, rotated: false, x: 0, y: 0, width: 31, height: 10 }];
const known = element.filter((el): el is KnownElement => el.type !== 'unknown');

describe('ISPRITE record layouts (records.ts)', () => {
  it('give the sizes and offsets of the contract (errata 1, 3, 4, 12)', () => {
    expect([
      HEADER.size,
      HEADER.at.fileSize,
      HEADER.at.major,
      HEADER.at.flags,
      HEADER.at.nonStandardId,
      HEADER.at.frameRate,
      HEADER.at.reserved,
    ]).toEqual([24, 8, 12, 14, 15, 18, 19]);
    expect([CHUNK.size, META.size, SLICE.size, SEQUENCE.size, FRAME.size, MIN_FRAME]).toEqual([8, 24, 10, 9, 10, 16]);
    expect([SIMPLE_GRAPHIC.size, EXPANDED_GRAPHIC.size, ATTACHMENT.size, COLLISION_RECT.size, COLLISION_CIRCLE.size]).toEqual([
      13, 30, 25, 24, 17,
    ]);
    expect(MAX_ELEMENT_SIZE).toBe(30);
    // Erratum 3: collision fields at 5, 6, 8, 14, 17, 21; bytes 4 and 20 reserved.
    const r = COLLISION_RECT.at;
    expect([r.reserved, r.shape, r.id, r.x, r.y, r.width, r.height, r.reserved2, r.rotation]).toEqual([4, 5, 6, 8, 11, 14, 17, 20, 21]);
    expect(COLLISION_CIRCLE.at.radius).toBe(14);
    // Erratum 4: attachment mirroring is a u16 at 12, graphic mirroring a u8 at 12.
    expect([ATTACHMENT.at.mirror, ATTACHMENT.at.rotation, EXPANDED_GRAPHIC.at.mirror, EXPANDED_GRAPHIC.at.originX]).toEqual([
      12, 14, 12, 13,
    ]);
  });

  it('property: each element codec writes what putFields writes from the layout, and reads it back', () => {
    fc.assert(
      fc.property(known, (el) => {
        const size = elementSize(el);
        const fast = new Uint8Array(MAX_ELEMENT_SIZE).fill(0xaa);
        expect(writeKnownElement(fast, 0, el, slices, 0, 0)).toBe(size);
        const { layout, values } = elementFields(el, slices);
        expect(layout.size).toBe(size);
        const slow = new Uint8Array(MAX_ELEMENT_SIZE).fill(0xaa);
        putFields(slow, 0, layout, values);
        expect(fast).toEqual(slow);
        const r = new ByteReader(fast, { format: 'isprite' });
        const back = readElements(r, 0, 1, size, true, 0)[0] as KnownElement;
        // The generic field reader agrees with the codec's reader.
        const fields = readFields(r, layout, 0);
        const vals = elementFields(back, slices).values;
        for (const fl of layout.fields) if (!fl.type.startsWith('zero')) expect(fields[fl.key], fl.key).toBe(vals[fl.key]);
        // What is read is what was written, rounded to 1/256 (the arbitrary's values are exact).
        const again = new Uint8Array(MAX_ELEMENT_SIZE).fill(0xaa);
        writeKnownElement(again, 0, back, slices, 0, 0);
        expect(again).toEqual(fast);
      }),
      { numRuns: 300 },
    );
  });

  it('the writer names the field that does not fit', () => {
    const write = (el: IspriteElement) => {
      try {
        writeKnownElement(new Uint8Array(MAX_ELEMENT_SIZE), 0, el as KnownElement, slices, 3, 2);
      } catch (e) {
        expect(e).toBeInstanceOf(FormatError);
        return (e as Error).message;
      }
      return 'no error';
    };
    const att = {
      type: 'attachment',
      name: null,
      id: 1,
      x: 0,
      y: 0,
      flipX: false,
      flipY: false,
      rotation: 0,
      scaleX: 1,
      scaleY: 1,
      opacity: 65535,
    } as const;
    expect(write({ ...att, opacity: 70000 })).toBe("frame 3 element 2 opacity 70000 does not fit the file's 16-bit field (0 to 65535)");
    expect(write({ ...att, id: -1 })).toBe("frame 3 element 2 attachment ID -1 does not fit the file's 16-bit field (0 to 65535)");
    expect(write({ ...att, scaleY: 40000 })).toMatch(/^frame 3 element 2 scaleY: 40000 is outside the fixed-point range/);
    expect(write({ ...att, name: 65536 })).toBe("frame 3 element 2 name index 65536 does not fit the file's 16-bit field (0 to 65535)");
    expect(write({ type: 'circle', name: null, id: 1.5, x: 0, y: 0, radius: 1 })).toBe(
      "frame 3 element 2 collision ID 1.5 is not a whole number, which the file's 16-bit field (0 to 65535) needs",
    );
    expect(write({ type: 'graphic', expanded: true, name: null, slice: 0, x: 0, y: 0, flipX: false, flipY: false, rotation: NaN })).toMatch(
      /rotation: NaN is outside/,
    );
    expect(write({ type: 'bogus' } as unknown as IspriteElement)).toBe('frame 3 element 2: unknown element type "bogus"');
  });

  it('writeIsprite names the record and field of a value that does not fit', () => {
    const doc = createIsprite(30);
    doc.slices = [{ texture: 256, rotated: false, x: 0, y: 0, width: 1, height: 1 }];
    expect(() => writeIsprite(doc)).toThrow("slice 0 texture 256 does not fit the file's 8-bit field (0 to 255)");
    doc.slices = [];
    doc.frameRate = 300;
    expect(() => writeIsprite(doc)).toThrow("frame rate 300 does not fit the file's 8-bit field (0 to 255)");
  });
});
