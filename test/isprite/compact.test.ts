/**
 * The reader's compact frames (src/formats/isprite/compact.ts): the elements
 * a frame makes from its records are the objects the eager reader made
 * (checked against an independent decoder built on the record layouts), on
 * the sample, the conformance suite's files and random documents; the frame
 * behaves as a plain one (equality, spreading, JSON, cloning, changes); the
 * library's readers (elementsOf, elementCount, elementAt, the writer) leave
 * it compact; and the document does not share the caller's bytes unless
 * told it may.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { ByteReader } from '../../src/binary/reader.js';
import {
  inspectIspriteJson,
  ispriteElementAt,
  ispriteElementCount,
  ispriteElementsOf,
  readIsprite,
  readIspriteDetailed,
  writeIsprite,
  type IspriteDocument,
  type IspriteElement,
  type IspriteFrame,
} from '../../src/formats/isprite/index.js';
import { StoredFrame, compactElements } from '../../src/formats/isprite/compact.js';
import {
  ATTACHMENT,
  COLLISION_CIRCLE,
  COLLISION_RECT,
  ELEMENT,
  EXPANDED_GRAPHIC,
  FRAME,
  MARKER,
  SIMPLE_GRAPHIC,
  readFields,
} from '../../src/formats/isprite/records.js';
import { ROOT, SAMPLES } from '../helpers/paths.js';
import { makeHeroDocument } from '../../scripts/samples/isprite.js';
import { makeDoc } from '../../bench/isprite.mjs';
import { ispriteDocument } from './arb.js';
import { cat, chunk, file, fram, frame, fx, u16, u32, u8 } from './bytes.js';

/** Every ISPRITE file of the sample folder and the conformance suite that reads without an error. */
function realFiles(): { name: string; bytes: Uint8Array }[] {
  const out: { name: string; bytes: Uint8Array }[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(isprite|sprite)$/.test(e.name)) {
        const bytes = new Uint8Array(readFileSync(p));
        try {
          readIsprite(bytes);
          out.push({ name: path.relative(ROOT, p), bytes });
        } catch {
          // (an invalid case of the suite)
        }
      }
    }
  };
  walk(path.join(SAMPLES, 'isprite'));
  walk(path.join(ROOT, 'conformance', 'isprite'));
  return out;
}

/**
 * The elements of every frame as the eager reader made them, decoded
 * independently: each record by its layout (readFields), in the key order
 * of the model's literals.
 */
function eagerElements(bytes: Uint8Array): IspriteElement[][] {
  const { info } = readIspriteDetailed(bytes, undefined, true);
  const r = new ByteReader(bytes, { format: 'isprite' });
  const minor = bytes[13]!;
  return info.frameOffsets.map((p) => {
    const count = r.u16At(p + FRAME.at.elementCount);
    let q = p + FRAME.size;
    for (let s = 0; s < 3; s++) q += 2 + r.u16At(q);
    const out: IspriteElement[] = [];
    for (let e = 0; e < count; e++) {
      const h = readFields(r, ELEMENT, q);
      const name = h.name === 0xffff ? null : (h.name as number);
      const m = h.marker as number;
      if (m === MARKER.simple) {
        const g = readFields(r, SIMPLE_GRAPHIC, q);
        out.push({
          type: 'graphic',
          expanded: false,
          name,
          slice: g.slice,
          x: g.x,
          y: g.y,
          flipX: !!(g.mirror & 1),
          flipY: !!(g.mirror & 2),
        });
      } else if (m === MARKER.expanded) {
        const g = readFields(r, EXPANDED_GRAPHIC, q);
        out.push({
          type: 'graphic',
          expanded: true,
          name,
          slice: g.slice,
          x: g.x,
          y: g.y,
          flipX: !!(g.mirror & 1),
          flipY: !!(g.mirror & 2),
          originX: g.originX,
          originY: g.originY,
          rotation: g.rotation,
          scaleX: g.scaleX,
          scaleY: g.scaleY,
          opacity: g.opacity,
        });
      } else if (m === MARKER.attachment) {
        const a = readFields(r, ATTACHMENT, q);
        out.push({
          type: 'attachment',
          name,
          id: a.id,
          x: a.x,
          y: a.y,
          flipX: !!(a.mirror & 1),
          flipY: !!(a.mirror & 2),
          rotation: a.rotation,
          scaleX: a.scaleX,
          scaleY: a.scaleY,
          opacity: a.opacity,
        });
      } else if (m === MARKER.collision && bytes[q + COLLISION_RECT.at.shape] === MARKER.rect) {
        const c = readFields(r, COLLISION_RECT, q);
        out.push({ type: 'rect', name, id: c.id, x: c.x, y: c.y, width: c.width, height: c.height, rotation: c.rotation });
      } else if (m === MARKER.collision && bytes[q + COLLISION_CIRCLE.at.shape] === MARKER.circle) {
        const c = readFields(r, COLLISION_CIRCLE, q);
        out.push({ type: 'circle', name, id: c.id, x: c.x, y: c.y, radius: c.radius });
      } else {
        expect(m !== MARKER.collision || minor > 0).toBe(true);
        out.push({ type: 'unknown', marker: m, name, data: bytes.slice(q + ELEMENT.size, q + ELEMENT.size + h.size) });
      }
      q += ELEMENT.size + (h.size as number);
    }
    return out;
  });
}

/** JSON text with the keys in their order (Uint8Arrays as number lists). */
const ordered = (v: unknown) => JSON.stringify(v, (_, x) => (x instanceof Uint8Array ? [...x] : x));

/** The elements made three ways agree with the eager ones, and making them keeps the frame's own ones. */
function checkAgainstEager(bytes: Uint8Array, name: string): void {
  const want = eagerElements(bytes);
  const doc = readIsprite(bytes);
  expect(doc.frames.length, name).toBe(want.length);
  doc.frames.forEach((fr, f) => {
    expect(compactElements(fr), name).not.toBeNull();
    expect(ispriteElementCount(fr)).toBe(want[f]!.length);
    expect(ordered(ispriteElementsOf(fr)), `${name} frame ${f}`).toBe(ordered(want[f]));
    want[f]!.forEach((el, j) => expect(ordered(ispriteElementAt(fr, j))).toBe(ordered(el)));
    expect(ispriteElementAt(fr, want[f]!.length)).toBeUndefined();
    // None of these made the frame's elements.
    expect(compactElements(fr)).not.toBeNull();
    expect(ordered(fr.elements), `${name} frame ${f}`).toBe(ordered(want[f]));
    expect(compactElements(fr)).toBeNull();
  });
}

describe('ISPRITE compact frames', () => {
  it('make the eager reader’s elements: the sample and every readable file of the conformance suite', () => {
    const files = realFiles();
    expect(files.length).toBeGreaterThan(20);
    expect(files.some((f) => f.name.startsWith('samples'))).toBe(true);
    for (const f of files) checkAgainstEager(f.bytes, f.name);
  });

  it('make the eager reader’s elements: the benchmark’s sprites, whole-pixel and fractional', () => {
    for (const fractional of [false, true]) checkAgainstEager(writeIsprite(makeDoc(60_000, fractional)), `bench ${fractional}`);
  });

  it('property: random documents read back compact, make their elements as the eager reader, and write the same bytes', () => {
    fc.assert(
      fc.property(ispriteDocument, (doc: IspriteDocument) => {
        const bytes = writeIsprite(doc);
        checkAgainstEager(bytes, 'random');
        // Written while compact (from the records) and once made into objects: the same bytes.
        const compact = readIsprite(bytes);
        expect(writeIsprite(compact)).toEqual(bytes);
        for (const fr of compact.frames) void fr.elements;
        expect(writeIsprite(compact)).toEqual(bytes);
      }),
      { numRuns: 150 },
    );
  });

  it('behave as plain frames: own enumerable elements, equality, spreading, JSON, cloning', () => {
    const doc = makeHeroDocument();
    const back = readIsprite(writeIsprite(doc));
    const fr = back.frames[0]!;
    expect(fr).toBeInstanceOf(StoredFrame);
    expect(Object.keys(fr)).toEqual(['holdTime', 'loopPoint', 'label', 'triggers', 'notes', 'elements']);
    expect(back).toEqual(doc);
    expect(JSON.parse(JSON.stringify(back.frames[1]))).toEqual(JSON.parse(JSON.stringify(doc.frames[1])));
    expect({ ...back.frames[2] }).toEqual(doc.frames[2]);
    expect(structuredClone(back.frames[3])).toEqual(doc.frames[3]);
  });

  it('make their elements once: the same objects every time, and changes are kept and written', () => {
    const doc = readIsprite(writeIsprite(makeHeroDocument()));
    const fr = doc.frames[0]!;
    const els = fr.elements;
    expect(fr.elements).toBe(els);
    expect(fr.elements[0]).toBe(els[0]);
    const g = els.find((e) => e.type === 'graphic')!;
    g.x = 12.5;
    els.push({ type: 'circle', name: null, id: 7, x: 1, y: 2, radius: 3 });
    const again = readIsprite(writeIsprite(doc));
    expect(again.frames[0]!.elements).toEqual(els);
    // Assigned.
    doc.frames[1]!.elements = [];
    expect(compactElements(doc.frames[1]!)).toBeNull();
    expect(readIsprite(writeIsprite(doc)).frames[1]!.elements).toEqual([]);
    // A frame not touched is still compact, and written from its records.
    expect(compactElements(doc.frames[2]!)).not.toBeNull();
  });

  it('elementsOf gives a frame’s own array once it has made it', () => {
    const doc = readIsprite(writeIsprite(makeHeroDocument()));
    const fr = doc.frames[0]!;
    const a = ispriteElementsOf(fr);
    expect(ispriteElementsOf(fr)).not.toBe(a); // compact: made anew each time, not kept
    const own = fr.elements;
    expect(ispriteElementsOf(fr)).toBe(own);
    expect(ispriteElementCount(fr)).toBe(own.length);
    expect(ispriteElementAt(fr, 0)).toBe(own[0]);
    // Plain frames (a document built by a program) are read as they are.
    const plain: IspriteFrame = { holdTime: 1, loopPoint: false, label: '', triggers: '', notes: '', elements: [] };
    expect(ispriteElementsOf(plain)).toBe(plain.elements);
  });

  it('copy the bytes they read, unless the caller says it will never change them', () => {
    const bytes = writeIsprite(makeHeroDocument());
    const doc = readIsprite(bytes);
    const kept = readIsprite(bytes, { keepBytes: true });
    const before = inspectIspriteJson(readIsprite(bytes));
    // The last byte of the file is a field of the last frame's last element.
    bytes[bytes.length - 1]! ^= 0x55;
    expect(JSON.stringify(inspectIspriteJson(doc))).toBe(JSON.stringify(before));
    expect(JSON.stringify(inspectIspriteJson(kept))).not.toBe(JSON.stringify(before));
  });

  it('a 1.1 file’s longer element records and unknown collision shapes are written in the canonical form', () => {
    const g = cat(u16(3), ...fxs(1.5, -2.25), u8(0xff), u8(0xee), u8(0xdd)); // slice, x, y, mirror with extra bits, 2 extra bytes
    const a = cat(u16(4), ...fxs(1, 2), u16(0xfff3), ...fxs(0, 1, 1), u16(65535), u8(9));
    const rect = cat(u8(5), u8(0x72), u16(2), ...fxs(1, 2, 3, 4), u8(6), ...fxs(5), u8(1));
    const odd = cat(u8(0), u8(0x70), u16(1), u8(0));
    const bytes = file(
      { minor: 1 },
      chunk('TEX ', u8(0), u8(1)),
      chunk('SLIC', u32(0), u8(10)),
      chunk('NAME', u16(0)),
      chunk('TIER'),
      fram([frame({}, el('g', g), el('A', a), el('C', rect), el('C', odd), el('Z', [1, 2]))], 5),
    );
    const doc = readIsprite(bytes);
    const fromRecords = writeIsprite(doc);
    for (const fr of doc.frames) void fr.elements;
    expect(fromRecords).toEqual(writeIsprite(doc));
    const back = readIsprite(fromRecords);
    expect(back).toEqual(doc);
    expect(back.frames[0]!.elements.map((e) => e.type)).toEqual(['graphic', 'attachment', 'rect', 'unknown', 'unknown']);
    // The unknown collision shape cannot be written in 1.0, compact or not.
    const again = readIsprite(bytes);
    again.version = [1, 0];
    expect(() => writeIsprite(again)).toThrow(/cannot be written in version 1.0/);
  });
});

describe('ISPRITE compact frames written from their records', () => {
  it('clear the mirror bits other than 0 and 1 and the reserved bytes of a 1.0 file, as the object path does', () => {
    const g = cat(u16(3), ...fxs(1.5, -2.25), u8(0xfd));
    const a = cat(u16(4), ...fxs(1, 2), u16(0xfff2), ...fxs(0, 1, 1), u16(65535));
    const rect = cat(u8(5), u8(0x72), u16(2), ...fxs(1, 2, 3, 4), u8(6), ...fxs(5));
    const circle = cat(u8(7), u8(0x63), u16(2), ...fxs(1, 2, 3));
    const clean = cat(u8(0), u8(0x63), u16(2), ...fxs(1, 2, 3));
    const bytes = file(
      {},
      chunk('TEX ', u8(0), u8(1)),
      chunk('SLIC', u32(0), u8(10)),
      chunk('NAME', u16(0)),
      chunk('TIER'),
      fram(
        [frame({}, el('g', g)), frame({}, el('A', a)), frame({}, el('C', rect)), frame({}, el('C', circle)), frame({}, el('C', clean))],
        1,
      ),
    );
    const doc = readIsprite(bytes);
    const fromRecords = writeIsprite(doc);
    for (const fr of doc.frames) void fr.elements;
    expect(fromRecords).toEqual(writeIsprite(doc));
    expect(fromRecords).not.toEqual(bytes);
    expect(readIsprite(fromRecords)).toEqual(doc);
  });
});

/** Fixed-point values as their three bytes each. */
const fxs = (...vs: number[]): number[][] => vs.map(fx);

function el(marker: string, data: number[]): number[] {
  return [marker.charCodeAt(0), 0xff, 0xff, data.length, ...data];
}
