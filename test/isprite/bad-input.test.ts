import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FormatError } from '../../src/binary/errors.js';
import { inspectIspriteJson, inspectIspriteText, readIsprite, validateIsprite, writeIsprite } from '../../src/formats/isprite/index.js';
import { makeHeroDocument } from '../../scripts/samples/isprite.js';
import { chunk, file, fram, frame, str, u16, u32 } from './bytes.js';

const sample = writeIsprite(makeHeroDocument());

/**
 * Reads; returns null on success, the FormatError otherwise; anything else
 * fails the test. What reads must also write, read back the same, and inspect.
 */
function tryRead(bytes: Uint8Array): FormatError | null {
  let doc;
  try {
    doc = readIsprite(bytes, { warn: () => {} });
  } catch (e) {
    if (!(e instanceof FormatError)) throw new Error(`not a FormatError: ${String(e)}\n${(e as Error).stack}`);
    expect(e.message).toMatch(/\(at byte \d+\)$/);
    return e;
  }
  const out = writeIsprite(doc);
  expect(readIsprite(out)).toEqual(doc);
  inspectIspriteText(doc);
  JSON.stringify(inspectIspriteJson(doc));
  return null;
}

describe('ISPRITE bad input gives FormatError, never a crash', () => {
  it('truncated at every offset', () => {
    for (let n = 0; n < sample.length; n++) {
      const e = tryRead(sample.subarray(0, n));
      expect(e, `length ${n}`).not.toBeNull();
      // validate reports it as one error, never throws
      expect(validateIsprite(sample.subarray(0, n)).some((d) => d.severity === 'error')).toBe(true);
    }
    // With the file size field fixed up, the truncation is found inside the
    // chunks (a cut exactly between two chunks is a valid, smaller file).
    let errors = 0;
    for (let n = 24; n < sample.length; n++) {
      const cut = sample.slice(0, n);
      new DataView(cut.buffer).setUint32(8, n - 12, true);
      if (tryRead(cut)) errors++;
    }
    expect(errors).toBeGreaterThan(sample.length - 24 - 8);
  });

  it('wrong magic, wrong major version', () => {
    const bad = sample.slice();
    bad[0] = 0x58;
    expect(tryRead(bad)!.message).toMatch(/not an ISPRITE file.*at byte 0/);
    const major = sample.slice();
    major[12] = 2;
    expect(tryRead(major)!.message).toMatch(/major version 2 .*at byte 12/);
    expect(tryRead(new Uint8Array(0))!.offset).toBe(0);
  });

  it('lying sizes and counts are caught before allocating', () => {
    expect(
      tryRead(
        file(
          {},
          [...chunk('NAME', u16(1), str('a'))].map((b, i) => (i === 4 ? 0xff : b)),
        ),
      )!.message,
    ).toMatch(/chunk "NAME" size \d+ is larger/);
    expect(tryRead(file({}, chunk('SLIC', u32(0xffffffff), [10])))!.message).toMatch(/slice count 4294967295 needs/);
    expect(tryRead(file({}, chunk('NAME', u16(0xffff))))!.message).toMatch(/name count 65535 needs/);
    expect(tryRead(file({}, chunk('TEX ', [255, 1])))!.message).toMatch(/texture count 255 needs/);
    expect(tryRead(file({}, chunk('FRAM', u32(0xffffffff), u16(0))))!.message).toMatch(/frame count 4294967295 needs/);
    expect(tryRead(file({}, chunk('TIER', [0x53], u32(0xfffffff0), u32(0), str('a'), str(''))))!.message).toMatch(
      /frame count 4294967280 needs/,
    );
    expect(tryRead(file({}, fram([frame({ count: 0xffff })])))!.message).toMatch(/element count 65535 needs/);
    expect(tryRead(file({}, fram([frame({ size: 0xfffffff0 })])))!.message).toMatch(/size 4294967280 runs past/);
    expect(tryRead(file({}, fram([frame({ size: 3 })])))!.message).toMatch(/size 3 is smaller/);
    expect(tryRead(file({}, fram([frame({}, [0x67, 0xff, 0xff, 200])], 1)))!.message).toMatch(/size 200 runs past the end of the frame/);
  });

  it('strings longer than their chunk or frame', () => {
    expect(tryRead(file({}, chunk('TIER', [0x47], u16(50), [0x41])))!.message).toMatch(/group name of 50 bytes/);
    const f = frame({ label: 'abc' });
    f[10] = 0x40; // the label's length
    expect(tryRead(file({}, fram([f])))!.message).toMatch(/frame 0 label of 64 bytes is longer/);
  });

  it('unclosed groups', () => {
    expect(tryRead(file({}, chunk('TIER', [0x47], str('a'))))!.message).toMatch(/not closed/);
  });

  it('deeply nested groups do not overflow the stack', () => {
    const depth = 20_000; // far deeper than a recursive walk survives
    const body: number[] = [];
    for (let i = 0; i < depth; i++) body.push(0x47, 1, 0, 0x61);
    for (let i = 0; i < depth; i++) body.push(0x43);
    const bytes = file({}, chunk('TIER', body));
    const doc = readIsprite(bytes);
    const once = writeIsprite(doc);
    expect(Buffer.compare(once, writeIsprite(readIsprite(once)))).toBe(0);
    expect(validateIsprite(bytes).filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('random mutations: only FormatError, quickly', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(sample.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        (muts, fixSize) => {
          const b = sample.slice();
          for (const [at, v] of muts) b[at] = v;
          if (fixSize) new DataView(b.buffer).setUint32(8, b.length - 12, true);
          tryRead(b);
          const d = validateIsprite(b);
          expect(Array.isArray(d)).toBe(true);
        },
      ),
      { numRuns: 4000 },
    );
  });

  it('random bytes after a valid header: only FormatError', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.integer({ min: 0, max: 3 }), (tail, minor) => {
        const b = new Uint8Array(24 + tail.length);
        b.set(sample.subarray(0, 24));
        b.set(tail, 24);
        b[13] = minor;
        new DataView(b.buffer).setUint32(8, b.length - 12, true);
        tryRead(b);
        validateIsprite(b);
      }),
      { numRuns: 3000 },
    );
  });
});
