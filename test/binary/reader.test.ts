import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ByteReader, ByteWriter, FormatError, fixed24ToParts, fixed24FromParts } from '../../src/binary/index.js';

describe('ByteReader', () => {
  it('reads little- and big-endian integers and floats', () => {
    const w = new ByteWriter({ format: 't' });
    w.u8(0xfe).i8(-2).u16(0x1234).i16(-2).u32(0xdeadbeef).i32(-5).f32(1.5).f64(-2.25).u16(0x1234, false).i32(-7, false);
    const r = new ByteReader(w.finish(), { format: 't' });
    expect([r.u8(), r.i8(), r.u16(), r.i16(), r.u32(), r.i32(), r.f32(), r.f64(), r.u16(false), r.i32(false)]).toEqual([
      0xfe, -2, 0x1234, -2, 0xdeadbeef, -5, 1.5, -2.25, 0x1234, -7,
    ]);
    expect(r.atEnd).toBe(true);
  });

  it('throws a FormatError with the offset when data runs out', () => {
    const r = new ByteReader(new Uint8Array([1, 2, 3]), { format: 'x' });
    r.u16();
    const e = (() => {
      try {
        r.u32();
      } catch (err) {
        return err;
      }
    })() as FormatError;
    expect(e).toBeInstanceOf(FormatError);
    expect(e.offset).toBe(2);
    expect(e.format).toBe('x');
    expect(e.message).toMatch(/at byte 2/);
  });

  it('limits sub-readers to their region but keeps absolute offsets', () => {
    const r = new ByteReader(new Uint8Array(10), { format: 'x' });
    r.skip(4);
    const s = r.sub(3);
    expect(r.pos).toBe(7);
    s.u16();
    expect(() => s.u16()).toThrow(/at byte 6/);
  });

  it('rejects strings longer than the data left', () => {
    const r = new ByteReader(new Uint8Array([5, 0, 65, 66]), { format: 'x' });
    expect(() => r.str16()).toThrow(FormatError);
  });

  it('rejects counts that cannot fit before looping', () => {
    const r = new ByteReader(new Uint8Array(8), { format: 'x' });
    expect(() => r.checkCount(3, 4, 'item')).toThrow(/item count 3/);
    expect(() => r.checkCount(2, 4, 'item')).not.toThrow();
  });

  it('round-trips strings of every length prefix', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (s) => {
        // At most 20 code points (never a split surrogate pair), so at most 80 UTF-8 bytes for str8.
        const short = Array.from(s).slice(0, 20).join('');
        const w = new ByteWriter({ format: 't', initialSize: 1 });
        w.str8(short).str16(s).str32(s, 'x', false);
        const r = new ByteReader(w.finish(), { format: 't' });
        expect(r.str8()).toBe(short);
        expect(r.str16()).toBe(s);
        expect(r.str32('x', false)).toBe(s);
      }),
    );
  });

  it('reports invalid UTF-8', () => {
    const bad: number[] = [];
    const r = new ByteReader(new Uint8Array([2, 0, 0xff, 0x41]), { format: 'x', onInvalidUtf8: (o) => bad.push(o) });
    expect(r.str16()).toBe('\ufffdA');
    expect(bad).toEqual([2]);
  });
});

describe('fixed24', () => {
  it('stores -0.5 as -1 and 128', () => {
    expect(fixed24ToParts(-0.5)).toEqual([-1, 128]);
    expect(fixed24FromParts(-1, 128)).toBe(-0.5);
  });

  it('rejects values out of range', () => {
    expect(fixed24ToParts(32768)).toBeNull();
    expect(fixed24ToParts(-32768.01)).toBeNull();
    expect(fixed24ToParts(32767 + 255 / 256)).toEqual([32767, 255]);
    expect(fixed24ToParts(NaN)).toBeNull();
  });

  it('round-trips every representable value through the writer and reader', () => {
    fc.assert(
      fc.property(fc.integer({ min: -32768 * 256, max: 32767 * 256 + 255 }), (n) => {
        const v = n / 256;
        const w = new ByteWriter({ format: 't' });
        w.fixed24(v);
        expect(new ByteReader(w.finish(), { format: 't' }).fixed24()).toBe(v);
      }),
    );
  });
});

describe('ByteReader and ByteWriter additions for fixed-size records', () => {
  it('reads unchecked little-endian fields at absolute offsets (after one bounds check)', () => {
    const r = new ByteReader(new Uint8Array([9, 0x34, 0x12, 0xef, 0xbe, 0xad, 0xde, 0xff, 0xff, 0x80]), { format: 't' });
    r.need(10);
    expect([r.u8At(0), r.u16At(1), r.u32At(3), r.fixed24At(7)]).toEqual([9, 0x1234, 0xdeadbeef, -0.5]);
    expect(r.pos).toBe(0);
  });

  it('sub-readers share the parent view and report absolute offsets', () => {
    const r = new ByteReader(new Uint8Array(8), { format: 't' });
    r.skip(2);
    const s = r.sub(4);
    expect(s.view).toBe(r.view);
    expect([s.start, s.end, r.pos]).toEqual([2, 6, 6]);
    expect(() => s.checkCount(3, 2, 'item', 2, ' in the chunk', false)).toThrow(
      'item count 3 needs 6 bytes but only 4 remain in the chunk (at byte 2)',
    );
    expect(() => s.checkCount(5, 1, 'item', 2, ' in the chunk')).toThrow(
      'item count 5 needs at least 5 bytes but only 4 remain in the chunk (at byte 2)',
    );
  });

  it('retarget aims a reader at another region (absolute offsets, bounds of the new region)', () => {
    const r = new ByteReader(new Uint8Array([1, 2, 3, 4, 5, 6]), { format: 't' }).sub(2);
    r.retarget(3, 5);
    expect([r.pos, r.remaining, r.u8()]).toEqual([3, 2, 4]);
    expect(() => r.u16()).toThrow('(at byte 4)');
    expect(() => r.retarget(4, 7)).toThrow(RangeError);
  });

  it('ByteWriter.reserve makes room for a record and returns where it starts', () => {
    const w = new ByteWriter({ format: 't', initialSize: 16 });
    w.u8(1);
    const at = w.reserve(40);
    expect([at, w.pos]).toEqual([1, 41]);
    w.buffer[at + 39] = 7;
    expect(w.finish()[40]).toBe(7);
  });
});
