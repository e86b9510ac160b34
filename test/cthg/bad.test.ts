import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { FormatError } from '../../src/binary/errors.js';
import { readCthg, validateCthg, writeCthg } from '../../src/formats/cthg/index.js';
import { cthgHandler } from '../../src/formats/cthg/index.js';
import { CORPUS } from '../helpers/paths.js';
import { NONE, TINY_SPRITE, rawFile } from './helpers.js';

const plant = new Uint8Array(readFileSync(path.join(CORPUS, 'cthg', 'plant_anim.dat')));

function readsOrFormatError(bytes: Uint8Array): void {
  try {
    const doc = readCthg(bytes);
    // Whatever reads also writes and re-reads.
    expect(readCthg(writeCthg(doc)).animations.length).toBe(doc.animations.length);
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    expect(e.message).toMatch(/at byte \d+/);
  }
  const v = validateCthg(bytes);
  expect(Array.isArray(v)).toBe(true);
}

describe('CTHG bad input', () => {
  it('every truncation of the real file is invalid: a FormatError, or (at a block boundary) lying header counts', () => {
    for (let n = 0; n < plant.length; n += n < 200 ? 1 : 97) {
      const cut = plant.subarray(0, n);
      try {
        readCthg(cut);
        expect(n >= 26).toBe(true);
      } catch (e) {
        expect(e).toBeInstanceOf(FormatError);
      }
      const v = validateCthg(cut);
      expect(v.some((d) => d.severity === 'error')).toBe(true);
    }
  });

  it('counts that lie are checked before allocating', () => {
    // Element count 65535 with no elements.
    expect(() => readCthg(rawFile([TINY_SPRITE, { t: 'FR', elements: [], count: 65535 }]))).toThrow(
      /sprite element count 65535 needs at least 786420 bytes/,
    );
    // Sprite data length 4 GiB.
    expect(() => readCthg(rawFile([{ t: 'SP', width: 65535, height: 65535, data: [], length: 0xfffffff0 }]))).toThrow(
      /sprite data byte count/,
    );
    // A name longer than the file.
    const bytes = rawFile([{ t: 'raw', bytes: [0x43, 0x41, 64, 0, 1, 0, 0, 0, 200, 0x61] }]);
    expect(() => readCthg(bytes)).toThrow(/animation name length 200/);
    // A huge view range does not overflow.
    expect(() =>
      readCthg(
        rawFile([
          TINY_SPRITE,
          { t: 'FR', elements: [{ sprite: 0 }] },
          { t: 'CA', name: 'a', frameCount: 0xffffffff, views: [0, NONE, NONE, NONE] },
        ]),
      ),
    ).toThrow(/uses frames 0 to 4294967294/);
    expect(() => readCthg(rawFile([{ t: 'CA', name: 'a', frameCount: 0, views: [NONE, NONE, NONE, NONE] }]))).toThrow(/0 frames per view/);
  });

  it('not CTHG, or a bad header, is a FormatError', () => {
    expect(() => readCthg(new Uint8Array())).toThrow(FormatError);
    expect(() => readCthg(new TextEncoder().encode('CTHX\x01\x02'))).toThrow(/does not start with "CTHG"/);
    expect(() => readCthg(plant.subarray(0, 20))).toThrow(/unexpected end of header/);
    expect(cthgHandler.sniff!(plant)).toBe(true);
    expect(cthgHandler.sniff!(new TextEncoder().encode('animation{'))).toBe(false);
  });

  it('random mutations of the real file give a document or a FormatError, never a crash', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(plant.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }),
        fc.option(fc.nat(plant.length), { nil: undefined }),
        (muts, cut) => {
          const b = plant.slice(0, cut ?? plant.length);
          for (const [at, v] of muts) if (at < b.length) b[at] = v;
          readsOrFormatError(b);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('mutations in the block structure of a small file', () => {
    const base = rawFile([
      TINY_SPRITE,
      { t: 'SP', width: 1, height: 2, data: [0xc2, 1, 200, 5, 6] },
      {
        t: 'FR',
        sound: 3,
        elements: [
          { sprite: 0, x: -2, flags: 5 },
          { sprite: 1, layerClass: 2, layerId: 1 },
        ],
      },
      { t: 'FR', elements: [{ sprite: NONE }] },
      { t: 'CA', name: 'anim', frameCount: 1, views: [0, 1, NONE, 0] },
    ]);
    expect(readCthg(base).frames).toHaveLength(2);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(base.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }), (muts) => {
        const b = base.slice();
        for (const [at, v] of muts) b[at] = v;
        readsOrFormatError(b);
      }),
      { numRuns: 1000 },
    );
  });

  it('random bytes after a valid header give a FormatError', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (tail) => {
        const b = new Uint8Array(26 + tail.length);
        b.set(plant.subarray(0, 26));
        b.set(tail, 26);
        readsOrFormatError(b);
      }),
      { numRuns: 500 },
    );
  });
});
