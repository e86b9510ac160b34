import { describe, expect, it } from 'vitest';
import { FormatError, type Diagnostic } from '../../src/binary/errors.js';
import { readIsprite, writeIsprite, validateIsprite, type IspriteDocument } from '../../src/formats/isprite/index.js';
import { ascii, chunk, element, file, fram, frame, fx, fxp, str, u16, u32 } from './bytes.js';
import { errorOf } from '../helpers/errors.js';

function read(bytes: Uint8Array): { doc: IspriteDocument; warnings: Diagnostic[] } {
  const warnings: Diagnostic[] = [];
  const doc = readIsprite(bytes, { warn: (d) => warnings.push(d) });
  return { doc, warnings };
}

function readError(bytes: Uint8Array): FormatError {
  return errorOf(() => readIsprite(bytes));
}

const meta = (tags = 'a,b') =>
  chunk(
    'META',
    [21, 11, ...u16(2026), 3, 4, 5, 6], // created: day, month, year, h, m, s, cs
    [0, 0, 0, 0, 0, 0, 0, 0], // saved: unknown
    u32(1234),
    u32(1), // work time = 2^32 + 1234
    str(tags),
    ...['title', 'project', 'author', 'company', 'contact', 'url', 'copyright', 'comments', 'orig', 'prog'].map(str),
  );

describe('ISPRITE errata, byte by byte', () => {
  it('erratum 1: the header is 24 bytes; META tags start at byte 56', () => {
    const bytes = file({ frameRate: 12, id: 'AB', flags: 3 }, meta('hero,tags'));
    expect(bytes[56]).toBe(9); // the tags' length
    expect(String.fromCharCode(...bytes.subarray(58, 67))).toBe('hero,tags');
    const { doc, warnings } = read(bytes);
    expect(warnings).toEqual([]);
    expect(doc.frameRate).toBe(12);
    expect(doc.nonStandard).toBe(true);
    expect(doc.workFile).toBe(true);
    expect(doc.nonStandardId).toBe('AB');
    expect(doc.meta!.tags).toBe('hero,tags');
    expect(doc.meta!.created).toEqual({ year: 2026, month: 11, day: 21, hour: 3, minute: 4, second: 5, centisecond: 6 });
    expect(doc.meta!.saved).toBeNull();
    expect(doc.meta!.workTimeMs).toBe(2n ** 32n + 1234n);
    expect(doc.meta!.program).toBe('prog');
    // Reserved bytes 19-23 are ignored on read (validate warns) and written as zero.
    const odd = file({ reserved: [1, 2, 3, 4, 5] });
    expect(read(odd).doc.frameRate).toBe(30);
    expect(writeIsprite(read(odd).doc).subarray(19, 24)).toEqual(new Uint8Array(5));
    expect(validateIsprite(odd).some((d) => /reserved/.test(d.message))).toBe(true);
  });

  it('a file that is only the 24-byte header reads as an empty sprite', () => {
    const { doc } = read(file({}));
    expect(doc.tree).toEqual([]);
    expect(doc.frames).toEqual([]);
    expect(doc.meta).toBeNull();
    expect(doc.extraMeta).toBeNull();
    // Erratum 13: validate warns about each missing chunk.
    const d = validateIsprite(file({}));
    expect(d.filter((x) => /^no (TEX|SLIC|NAME|TIER|FRAM) chunk/.test(x.message))).toHaveLength(5);
    expect(d.every((x) => x.severity === 'warning')).toBe(true);
  });

  it('erratum 2: the TIER closing marker is 0x43 "C"', () => {
    const tier = chunk(
      'TIER',
      [0x47],
      str('Armed'),
      [0x53],
      u32(2),
      u32(0xffffffff),
      str('attack'),
      str('idle'),
      u32(3),
      u32(4),
      [0x43],
      [0x53],
      u32(1),
      u32(0),
      str('idle'),
      str(''),
      u32(0),
    );
    const { doc } = read(file({}, tier));
    expect(doc.tree).toEqual([
      { kind: 'group', name: 'Armed', children: [{ kind: 'sequence', name: 'attack', loopPoint: null, followUp: 'idle', frames: [3, 4] }] },
      { kind: 'sequence', name: 'idle', loopPoint: 0, followUp: '', frames: [0] },
    ]);
    // The writer closes groups with 0x43.
    const out = writeIsprite(doc);
    const at = indexOf(out, ascii('TIER'));
    expect(out.subarray(at).includes(0x43)).toBe(true);
    expect(writeIsprite(read(out).doc)).toEqual(out);
  });

  it('erratum 14: a C with no open group, an unclosed group, an unknown marker are errors', () => {
    expect(readError(file({}, chunk('TIER', [0x43]))).message).toMatch(/no open group.*at byte 32/);
    expect(readError(file({}, chunk('TIER', [0x47], str('A'), [0x47], str('B'), [0x43]))).message).toMatch(/not closed.*"A".*at byte 32/);
    expect(readError(file({}, chunk('TIER', [0x58]))).message).toMatch(/unknown marker "X".*at byte 32/);
  });

  it('erratum 3: collision fields at offsets 5, 6, 8, 14, 17, 21; bytes 4 and 20 reserved', () => {
    const rect = [
      0x43,
      ...u16(1),
      20, // marker, name, size
      0xaa, // 4: reserved (ignored)
      0x72, // 5: "r"
      ...u16(7), // 6: id
      ...fx(-6),
      ...fx(-20.5), // 8: upper-left
      ...fx(12), // 14: width
      ...fx(20.25), // 17: height
      0xbb, // 20: reserved (ignored)
      ...fx(45.5), // 21: rotation
    ];
    expect(rect).toHaveLength(24);
    const circle = [0x43, ...u16(0xffff), 13, 0xcc, 0x63, ...u16(8), ...fx(1), ...fx(-10), ...fx(6.5)];
    expect(circle).toHaveLength(17);
    const bytes = file({ minor: 0 }, fram([frame({}, rect, circle)], 2));
    const { doc } = read(bytes);
    expect(doc.frames[0]!.elements).toEqual([
      { type: 'rect', name: 1, id: 7, x: -6, y: -20.5, width: 12, height: 20.25, rotation: 45.5 },
      { type: 'circle', name: null, id: 8, x: 1, y: -10, radius: 6.5 },
    ]);
    // Written back with the reserved bytes as zero.
    const out = writeIsprite(doc);
    const r = indexOf(out, rect.slice(5, 12));
    expect(out[r - 1]).toBe(0);
    expect(out[r + 15]).toBe(0);
    expect(out.subarray(r - 5, r + 19)).toEqual(new Uint8Array([...rect.slice(0, 4), 0, ...rect.slice(5, 20), 0, ...rect.slice(21)]));
  });

  it('erratum 4: attachment mirroring is a u16, graphic mirroring a u8', () => {
    const att = [0x41, ...u16(0), 21, ...u16(3), ...fx(4), ...fx(-12), ...u16(0x0002), ...fx(90), ...fx(1), ...fx(0.5), ...u16(0x8000)];
    expect(att).toHaveLength(25);
    const g = [0x67, ...u16(0xffff), 9, ...u16(2), ...fx(-8), ...fx(-24), 0x01];
    expect(g).toHaveLength(13);
    const G = [
      0x47,
      ...u16(0),
      26,
      ...u16(1),
      ...fx(2.5),
      ...fx(-10),
      0x03,
      ...fx(3),
      ...fx(4),
      ...fx(45),
      ...fx(1),
      ...fx(0.5),
      ...u16(65535),
    ];
    expect(G).toHaveLength(30);
    const { doc } = read(file({}, fram([frame({}, att, g, G)], 3)));
    expect(doc.frames[0]!.elements).toEqual([
      {
        type: 'attachment',
        name: 0,
        id: 3,
        x: 4,
        y: -12,
        flipX: false,
        flipY: true,
        rotation: 90,
        scaleX: 1,
        scaleY: 0.5,
        opacity: 0x8000,
      },
      { type: 'graphic', expanded: false, name: null, slice: 2, x: -8, y: -24, flipX: true, flipY: false },
      {
        type: 'graphic',
        expanded: true,
        name: 0,
        slice: 1,
        x: 2.5,
        y: -10,
        flipX: true,
        flipY: true,
        originX: 3,
        originY: 4,
        rotation: 45,
        scaleX: 1,
        scaleY: 0.5,
        opacity: 65535,
      },
    ]);
    expect(writeIsprite(doc)).toEqual(
      file({}, chunk('TEX ', [0, 1]), chunk('SLIC', u32(0), [10]), chunk('NAME', u16(0)), chunk('TIER'), fram([frame({}, att, g, G)], 3)),
    );
  });

  it('fixed point: int16 then u8/256, so -0.5 is stored as -1 and 128', () => {
    const g = [0x67, ...u16(0xffff), 9, ...u16(0), ...fxp(-1, 128), ...fxp(-32768, 0), 0];
    const { doc } = read(file({}, fram([frame({}, g)], 1)));
    const el = doc.frames[0]!.elements[0]!;
    expect(el).toMatchObject({ x: -0.5, y: -32768 });
    expect(fx(-0.5)).toEqual([0xff, 0xff, 128]);
    // The writer stores them the same way.
    const out = writeIsprite(doc);
    expect(indexOf(out, [0x67, 0xff, 0xff, 9, 0, 0, 0xff, 0xff, 128, 0x00, 0x80, 0, 0])).toBeGreaterThan(0);
  });

  it('erratum 9: fileSize = length - 12; a mismatch is an error at byte 8', () => {
    const good = file({});
    expect(good[8]).toBe(12);
    expect(readError(file({ fileSize: 13 })).message).toMatch(/file size.*at byte 8/);
    expect(readError(file({ fileSize: 24 })).offset).toBe(8);
    expect(readError(new Uint8Array([...good, 0])).offset).toBe(8);
  });

  it('erratum 12: a frame size is the whole record length - 4', () => {
    const f = frame({ label: 'x' });
    // F + size(4) + count(2) + hold(2) + flags(1) + 3 strings (3 + 2 + 2)
    expect(f).toHaveLength(17);
    expect(f.slice(1, 5)).toEqual(u32(13));
    expect(read(file({}, fram([f]))).doc.frames[0]!.label).toBe('x');
    // One byte more or less is an error in version 1.0.
    const big = frame({ label: 'x', size: 14 });
    expect(readError(file({}, fram([[...big, 0]]))).message).toMatch(/frame 0: 1 unexpected byte/);
    const small = frame({ label: 'x', size: 12 });
    expect(readError(file({}, fram([small]))).offset).toBeGreaterThan(0);
  });

  it('erratum 17: a frame marker other than F is an error', () => {
    const f = frame({});
    f[0] = 0x47;
    expect(readError(file({}, fram([f]))).message).toMatch(/frame 0: marker "G".*is not "F".*at byte 38/);
  });

  it('errata 8, 15, 19: minor version 0 is strict, later minors skip trailing extras', () => {
    const g11 = element('g', 0xffff, [...u16(0), ...fx(1), ...fx(2), 0, 0xee, 0xee]); // 2 extra bytes
    const cx = element('C', 0xffff, [0, 0x78, ...u16(1), 9, 9]); // collision type "x"
    const fr = [...frame({}, g11, cx), 0x99]; // one extra byte at the end of the frame
    fr.splice(1, 4, ...u32(fr.length - 4));
    const slic = chunk('SLIC', u32(1), [12], [0, 1, ...u16(2), ...u16(3), ...u16(4), ...u16(5), 0xde, 0xad], [0x77]); // stride 12 + leftover byte
    const parts = [slic, fram([fr], 2)];
    // Version 1.1: read, extras skipped, the unknown collision kept as unknown.
    const { doc, warnings } = read(file({ minor: 1 }, ...parts));
    expect(doc.version).toEqual([1, 1]);
    expect(doc.slices).toEqual([{ texture: 0, rotated: true, x: 2, y: 3, width: 4, height: 5 }]);
    expect(doc.frames[0]!.elements).toEqual([
      { type: 'graphic', expanded: false, name: null, slice: 0, x: 1, y: 2, flipX: false, flipY: false },
      { type: 'unknown', marker: 0x43, name: null, data: new Uint8Array([0, 0x78, 1, 0, 9, 9]) },
    ]);
    expect(warnings.map((w) => w.message)).toEqual([expect.stringMatching(/SLIC stride 12 is larger.*at byte 36/)]);
    // Written canonically (stride 10, exact sizes), readable again, stable.
    const out = writeIsprite(doc);
    expect(writeIsprite(read(out).doc)).toEqual(out);
    // Version 1.0: each of those is an error.
    expect(readError(file({ minor: 0 }, slic)).message).toMatch(/1 unexpected byte at the end of the SLIC chunk/);
    expect(readError(file({ minor: 0 }, fram([frame({}, g11)], 1))).message).toMatch(/simple graphic \("g"\) size 11 is not 9/);
    expect(readError(file({ minor: 0 }, fram([frame({}, cx)], 1))).message).toMatch(/unknown collision type "x"/);
    const fr0 = [...frame({}), 0x99];
    fr0.splice(1, 4, ...u32(fr0.length - 4));
    expect(readError(file({ minor: 0 }, fram([fr0]))).message).toMatch(/frame 0: 1 unexpected byte after its elements/);
    // A record too small for its fields is an error in every minor version.
    expect(readError(file({ minor: 5 }, fram([frame({}, element('g', 0, [1, 2, 3]))], 1))).message).toMatch(/is smaller than 9/);
  });

  it('erratum 8: another major version is an error', () => {
    expect(readError(file({ major: 2 })).message).toMatch(/major version 2.*at byte 12/);
    expect(readError(file({ major: 0 })).offset).toBe(12);
  });

  it('erratum 16: META not first is read with a warning', () => {
    const { doc, warnings } = read(file({}, chunk('XTRA', [1, 2]), meta()));
    expect(doc.meta!.title).toBe('title');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toMatch(/META chunk is not the first.*at byte 34/);
    expect(warnings[0]!.offset).toBe(34);
  });

  it('erratum 18: a larger TEX stride skips the extra bytes, with a warning', () => {
    const tex = chunk('TEX ', [2, 3], [1, 0xaa, 0xbb], str('sheets/a'), [0, 0, 0], str('b'));
    const { doc, warnings } = read(file({}, tex));
    expect(doc.textures).toEqual([
      { path: 'sheets/a', nearest: true },
      { path: 'b', nearest: false },
    ]);
    expect(warnings[0]!.message).toMatch(/TEX stride 3/);
    expect(readError(file({}, chunk('TEX ', [1, 0], str('a')))).message).toMatch(/TEX stride 0/);
    expect(readError(file({}, chunk('SLIC', u32(1), [9], new Array(9).fill(0)))).message).toMatch(/SLIC stride 9/);
  });

  it('a known chunk twice is an error; unknown chunks are kept in order', () => {
    expect(readError(file({}, chunk('NAME', u16(0)), chunk('NAME', u16(0)))).message).toMatch(/duplicate "NAME" chunk.*at byte 34/);
    const { doc } = read(file({}, chunk('ZZZZ', [9]), chunk('NAME', u16(1), str('hand')), chunk('AAAA')));
    expect(doc.unknownChunks).toEqual([
      { id: 'ZZZZ', data: new Uint8Array([9]) },
      { id: 'AAAA', data: new Uint8Array([]) },
    ]);
    const out = writeIsprite(doc);
    // Unknown chunks go last, in read order.
    expect(indexOf(out, ascii('ZZZZ'))).toBeGreaterThan(indexOf(out, ascii('FRAM')));
    expect(indexOf(out, ascii('AAAA'))).toBeGreaterThan(indexOf(out, ascii('ZZZZ')));
  });

  it('unknown element markers are kept with their bytes', () => {
    const x = element('X', 5, [1, 2, 3, 4]);
    const { doc } = read(file({}, fram([frame({}, x)], 1)));
    expect(doc.frames[0]!.elements[0]).toEqual({ type: 'unknown', marker: 0x58, name: 5, data: new Uint8Array([1, 2, 3, 4]) });
    expect(indexOf(writeIsprite(doc), x)).toBeGreaterThan(0);
  });

  it('strings: longer than the rest of the chunk is an error; invalid UTF-8 is a warning', () => {
    expect(readError(file({}, chunk('NAME', u16(1), u16(10), ascii('abc')))).message).toMatch(
      /name 0 of 10 bytes is longer than the 3 bytes left.*at byte 34/,
    );
    const { doc, warnings } = read(file({}, chunk('NAME', u16(1), u16(2), [0xff, 0x41])));
    expect(doc.names).toEqual(['\ufffdA']);
    expect(warnings[0]!.message).toMatch(/name 0 is not valid UTF-8.*at byte 36/);
    expect(read(file({}, chunk('NAME', u16(1), str('héros ✓')))).doc.names).toEqual(['héros ✓']);
  });

  it('MET+ pairs, in order; a name without a value is an error', () => {
    const { doc } = read(file({}, chunk('MET+', str('default-sequence'), str('Root/idle'), str('k'), str(''))));
    expect(doc.extraMeta).toEqual([
      ['default-sequence', 'Root/idle'],
      ['k', ''],
    ]);
    expect(readError(file({}, chunk('MET+', str('lonely')))).message).toMatch(/has no value/);
    expect(read(file({}, chunk('MET+'))).doc.extraMeta).toEqual([]);
  });

  it('hold time 0 and loop point 0xFFFFFFFF read as stored', () => {
    const { doc } = read(file({}, fram([frame({ hold: 0, flags: 1 })])));
    expect(doc.frames[0]).toEqual({ holdTime: 0, loopPoint: true, label: '', triggers: '', notes: '', elements: [] });
  });

  it('the writer computes FRAM maximum element count and every size', () => {
    const { doc } = read(file({}, fram([frame({}, element('X', 0, [])), frame({}, element('X', 0, []), element('Y', 0, [7]))], 0)));
    const out = writeIsprite(doc);
    const at = indexOf(out, ascii('FRAM'));
    expect(out.subarray(at + 8, at + 14)).toEqual(new Uint8Array([...u32(2), ...u16(2)]));
    expect(
      validateIsprite(file({}, fram([frame({}, element('X', 0, []))], 0))).some((d) => /maximum element count 0/.test(d.message)),
    ).toBe(true);
  });

  it('the writer refuses values that do not fit, as FormatErrors', () => {
    const base = read(file({}, fram([frame({}, element('g', 0xffff, [...u16(0), ...fx(0), ...fx(0), 0]))], 1))).doc;
    const bad = (change: (d: IspriteDocument) => void, re: RegExp) => {
      const d = structuredClone(base);
      change(d);
      expect(() => writeIsprite(d)).toThrow(FormatError);
      expect(() => writeIsprite(d)).toThrow(re);
    };
    bad((d) => ((d.frames[0]!.elements[0] as { x: number }).x = 32768), /frame 0 element 0 x: 32768 is outside the fixed-point range/);
    bad((d) => ((d.frames[0]!.elements[0] as { y: number }).y = -32768.01), /outside the fixed-point range/);
    bad((d) => ((d.frames[0]!.elements[0] as { x: number }).x = NaN), /outside/);
    bad((d) => ((d.frames[0]!.elements[0] as { slice: number }).slice = 65536), /slice/);
    bad((d) => (d.frames[0]!.holdTime = -1), /hold time/);
    bad((d) => (d.frameRate = 256), /frame rate/);
    bad((d) => (d.version = [2, 0]), /major version 2/);
    bad((d) => (d.names = ['x'.repeat(65536)]), /name 0 is 65536 bytes long/);
    bad((d) => (d.unknownChunks = [{ id: 'TIER', data: new Uint8Array() }]), /known ID/);
    // Rounding to the nearest 1/256.
    const d = structuredClone(base);
    (d.frames[0]!.elements[0] as { x: number }).x = 1.3;
    (d.frames[0]!.elements[0] as { y: number }).y = 32767.998;
    const back = readIsprite(writeIsprite(d)).frames[0]!.elements[0] as { x: number; y: number };
    expect(back.x).toBe(Math.round(1.3 * 256) / 256);
    expect(back.y).toBe(32767 + 255 / 256);
  });
});

function indexOf(hay: Uint8Array, needle: number[]): number {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

describe('ISPRITE reader warnings', () => {
  it('reserved header bits, and many invalid strings summarised', () => {
    const names = Array.from({ length: 25 }, () => [...u16(1), 0xff]);
    const { warnings } = read(file({ flags: 0x84 }, chunk('NAME', u16(25), ...names)));
    expect(warnings[0]!.message).toBe('header flags 0x84 set bits other than 0 and 1 (they must be zero) (at byte 14)');
    expect(warnings.filter((w) => /is not valid UTF-8/.test(w.message))).toHaveLength(20);
    expect(warnings[warnings.length - 1]!.message).toBe('5 more strings are not valid UTF-8 (not listed)');
  });
});
