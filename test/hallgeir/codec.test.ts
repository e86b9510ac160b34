import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/binary/errors.js';
import {
  createMap,
  createObject,
  createSprite,
  readHallgeir,
  readMap,
  readObject,
  readSprite,
  sniffHallgeir,
  writeHallgeir,
  type HallgeirDocument,
  type HallgeirKind,
  type HallgeirMap,
  type HallgeirObject,
  type HallgeirSprite,
} from '../../src/formats/hallgeir/index.js';
import { detectFormat } from '../../src/detect.js';
import { getFormat } from '../../src/registry.js';
import { Builder, mapBytes, objectBytes, spriteBytes } from './bytes.js';
import { errorOf } from '../helpers/errors.js';

const WALK = {
  name: 'walk',
  frames: [
    { x: 0, y: 0, delay: 0.1, next: 1 },
    { x: 32, y: 0, delay: 0.1, next: 0 },
  ],
};

describe.each([true, false])('layouts (littleEndian %s)', (le) => {
  it('reads and re-writes a .spr byte for byte', () => {
    const bytes = spriteBytes(le, 'hero', 'hero_tex', [WALK, { name: 'idle', frames: [{ x: -5, y: 7, delay: 0, next: -1 }] }]);
    const s = readSprite(bytes);
    expect(s).toEqual({
      kind: 'sprite',
      littleEndian: le,
      name: 'hero',
      texture: 'hero_tex',
      animations: [WALK, { name: 'idle', frames: [{ x: -5, y: 7, delay: 0, next: -1 }] }],
    });
    expect(writeHallgeir(s)).toEqual(bytes);
  });

  it('reads and re-writes a .obj byte for byte', () => {
    const bytes = objectBytes(le, 'goomba', 'goomba');
    const o = readObject(bytes);
    expect(o).toEqual({ kind: 'object', littleEndian: le, name: 'goomba', sprite: 'goomba' });
    expect(writeHallgeir(o)).toEqual(bytes);
  });

  it('reads and re-writes a .map byte for byte', () => {
    const bytes = mapBytes(
      le,
      [{ path: 'gfx/tiles.bmp', name: 'tiles' }],
      [
        { x: 32, y: 64, object: 'objects/goomba.obj' },
        { x: -1, y: 2147483647, object: '' },
      ],
    );
    const m = readMap(bytes);
    expect(m).toEqual({
      kind: 'map',
      littleEndian: le,
      textures: [{ path: 'gfx/tiles.bmp', name: 'tiles' }],
      objects: [
        { x: 32, y: 64, object: 'objects/goomba.obj' },
        { x: -1, y: 2147483647, object: '' },
      ],
    });
    expect(writeHallgeir(m)).toEqual(bytes);
  });

  it('reads empty documents', () => {
    expect(readSprite(spriteBytes(le, '', '', [])).animations).toEqual([]);
    expect(readSprite(spriteBytes(le, 'a', 'b', [{ name: 'e', frames: [] }])).animations[0]!.frames).toEqual([]);
    expect(readMap(mapBytes(le, [], [])).objects).toEqual([]);
  });

  it('sniffs each kind by its identifier and the registry finds it', () => {
    const spr = spriteBytes(le, 'a', 'b', []);
    const obj = objectBytes(le, 'a', 'b');
    const map = mapBytes(le, [], []);
    expect(sniffHallgeir(spr, 'sprite')).toBe(true);
    expect(sniffHallgeir(spr, 'object')).toBe(false);
    expect(sniffHallgeir(obj, 'object')).toBe(true);
    expect(sniffHallgeir(map, 'map')).toBe(true);
    expect(detectFormat(spr, 'x.bin')?.name).toBe('hallgeir-sprite');
    expect(detectFormat(obj, 'x.bin')?.name).toBe('hallgeir-object');
    expect(detectFormat(map, 'x.bin')?.name).toBe('hallgeir-map');
  });

  it('writes the other byte order on request', () => {
    const bytes = spriteBytes(le, 'hero', 'tex', [WALK]);
    const other = writeHallgeir(readSprite(bytes), { endian: le ? 'big' : 'little' });
    expect(other).toEqual(spriteBytes(!le, 'hero', 'tex', [WALK]));
    expect(readSprite(other).littleEndian).toBe(!le);
  });
});

describe('byte order detection', () => {
  it('auto reads big-endian when little-endian fails', () => {
    expect(readObject(objectBytes(false, 'a', 'b')).littleEndian).toBe(false);
    expect(readObject(objectBytes(true, 'a', 'b')).littleEndian).toBe(true);
  });

  it('reports the little-endian error when both fail', () => {
    const bytes = new Builder(true).str('obj').str('name').int(100).bytes();
    const e = errorOf(() => readObject(bytes));
    expect(e.offset).toBe(15);
    expect(e.message).toMatch(/sprite name length 100 is longer than the 0 bytes left \(at byte 15\)/);
    // The big-endian reading fails first at the identifier: not what is reported.
  });

  it('an endian option names the order tried first (and its error when both fail)', () => {
    const le = objectBytes(true, 'a', 'b');
    expect(readObject(le, { endian: 'big' }).littleEndian).toBe(true);
    expect(readObject(objectBytes(false, 'a', 'b'), { endian: 'little' }).littleEndian).toBe(false);
    const bad = new Builder(true).str('obj').str('x').bytes();
    const e = errorOf(() => readObject(bad, { endian: 'big' }));
    expect(e.offset).toBe(0);
    expect(e.message).toMatch(/identifier length is 50331648/);
  });

  it('the identifier decides: its length 3 cannot read as 3 in the other order', () => {
    const bytes = spriteBytes(true, 'h', 't', [WALK]);
    expect(readSprite(bytes).littleEndian).toBe(true);
    expect(readSprite(spriteBytes(false, 'h', 't', [WALK])).littleEndian).toBe(false);
  });
});

describe('decisions', () => {
  const le = true;

  it('identifier: wrong length or letters', () => {
    let e = errorOf(() => readSprite(new Builder(le).str('strx').bytes()));
    expect(e.offset).toBe(0);
    e = errorOf(() => readSprite(objectBytes(le, 'a', 'b')));
    expect(e.offset).toBe(0);
    e = errorOf(() => readSprite(new Builder(le).str('obj').str('a').str('b').bytes()));
    expect(e.message).toBe('identifier is "obj", not "str" (at byte 4)');
    e = errorOf(() => readSprite(new Uint8Array(0)));
    expect(e.offset).toBe(0);
  });

  it('1: negative lengths and counts, lengths past the end', () => {
    let e = errorOf(() => readObject(new Builder(le).str('obj').int(-1).bytes()));
    expect(e.message).toBe('object name length -1 is negative (at byte 7)');
    e = errorOf(() => readObject(new Builder(le).str('obj').int(5).raw(1, 2).bytes()));
    expect(e.message).toBe('object name length 5 is longer than the 2 bytes left (at byte 7)');
    e = errorOf(() => readSprite(new Builder(le).str('str').str('').str('').int(-3).bytes()));
    expect(e.message).toBe('animation count -3 is negative (at byte 15)');
    e = errorOf(() => readSprite(new Builder(le).str('str').str('').str('').int(2).str('a').bytes()));
    expect(e.offset).toBe(15);
    e = errorOf(() => readSprite(new Builder(le).str('str').str('').str('').int(1).str('a').int(1000).bytes()));
    expect(e.message).toMatch(/frame count 1000 needs at least 20000 bytes but only 0 remain \(at byte 24\)/);
    e = errorOf(() => readMap(new Builder(le).str('map').int(0).int(0x7fffffff).bytes()));
    expect(e.offset).toBe(11);
    e = errorOf(() => readMap(new Builder(le).str('map').int(-1).bytes()));
    expect(e.message).toBe('texture count -1 is negative (at byte 7)');
  });

  it('2: bytes after the last field', () => {
    const bytes = new Builder(le).str('obj').str('a').str('b').raw(0).bytes();
    const e = errorOf(() => readObject(bytes));
    expect(e.message).toBe('1 unexpected byte after the last field (at byte 17)');
    const m = new Builder(le).str('map').int(0).int(0).raw(1, 2, 3).bytes();
    expect(errorOf(() => readMap(m)).message).toBe('3 unexpected bytes after the last field (at byte 15)');
  });

  it('3: next frame must be -1 or a frame of the same animation', () => {
    const at = (next: number) =>
      errorOf(() =>
        readSprite(
          spriteBytes(le, '', '', [
            {
              name: 'a',
              frames: [
                { x: 0, y: 0, delay: 1, next: 0 },
                { x: 0, y: 0, delay: 1, next },
              ],
            },
          ]),
        ),
      );
    // header 3 + 4 + 4 + 4, animation name 5, count 4, frame 20, then x, y, delay of frame 1
    const nextOffset = 3 + 4 + 4 + 4 + 5 + 4 + 20 + 16;
    for (const n of [2, -2, 1000, -2147483648]) {
      const e = at(n);
      expect(e.offset).toBe(nextOffset);
      expect(e.message).toContain(`next frame ${n} is not -1 or a frame of the animation (0-1)`);
    }
    expect(
      readSprite(spriteBytes(le, '', '', [{ name: 'a', frames: [{ x: 0, y: 0, delay: 1, next: -1 }] }])).animations[0]!.frames[0]!.next,
    ).toBe(-1);
  });

  it('4: delay <= 0 is kept; NaN and infinity are errors', () => {
    for (const d of [0, -0, -1.5]) {
      const s = readSprite(spriteBytes(le, '', '', [{ name: 'a', frames: [{ x: 0, y: 0, delay: d, next: 0 }] }]));
      expect(Object.is(s.animations[0]!.frames[0]!.delay, d)).toBe(true);
    }
    const delayOffset = 3 + 4 + 4 + 4 + 5 + 4 + 8;
    for (const d of [NaN, Infinity, -Infinity]) {
      const e = errorOf(() => readSprite(spriteBytes(le, '', '', [{ name: 'a', frames: [{ x: 0, y: 0, delay: d, next: 0 }] }])));
      expect(e.offset).toBe(delayOffset);
      expect(e.message).toContain('is not a finite number');
    }
  });

  it('invalid UTF-8 is a warning, not an error', () => {
    const bytes = new Builder(le).str('obj').int(2).raw(0xff, 0xfe).str('b').bytes();
    const warnings: string[] = [];
    const o = readObject(bytes, { warn: (d) => warnings.push(d.message) });
    expect(o.name).toBe('\uFFFD\uFFFD');
    expect(warnings).toEqual(['string is not valid UTF-8 (at byte 11)']);
  });

  it('the writer refuses what the reader would reject', () => {
    const s: HallgeirSprite = {
      kind: 'sprite',
      littleEndian: true,
      name: '',
      texture: '',
      animations: [{ name: 'a', frames: [{ x: 0, y: 0, delay: NaN, next: 0 }] }],
    };
    expect(() => writeHallgeir(s)).toThrow(FormatError);
    s.animations[0]!.frames[0] = { x: 0, y: 0, delay: 1, next: 1 };
    expect(() => writeHallgeir(s)).toThrow(/next frame 1/);
    s.animations[0]!.frames[0] = { x: 0.5, y: 0, delay: 1, next: 0 };
    expect(() => writeHallgeir(s)).toThrow(/not a 32-bit integer/);
  });
});

const str = fc.string({ maxLength: 12, unit: 'grapheme' });
const int32 = fc.integer({ min: -0x80000000, max: 0x7fffffff });
const animation = fc.integer({ min: 0, max: 5 }).chain((n) =>
  fc.record({
    name: str,
    frames: fc.array(
      fc.record({
        x: int32,
        y: int32,
        delay: fc.double({ noNaN: true, noDefaultInfinity: true }),
        next: fc.integer({ min: -1, max: n - 1 }),
      }),
      { minLength: n, maxLength: n },
    ),
  }),
);
const sprite: fc.Arbitrary<HallgeirSprite> = fc.record({
  kind: fc.constant('sprite' as const),
  littleEndian: fc.boolean(),
  name: str,
  texture: str,
  animations: fc.array(animation, { maxLength: 4 }),
});
const object: fc.Arbitrary<HallgeirObject> = fc.record({
  kind: fc.constant('object' as const),
  littleEndian: fc.boolean(),
  name: str,
  sprite: str,
});
const map: fc.Arbitrary<HallgeirMap> = fc.record({
  kind: fc.constant('map' as const),
  littleEndian: fc.boolean(),
  textures: fc.array(fc.record({ path: str, name: str }), { maxLength: 4 }),
  objects: fc.array(fc.record({ x: int32, y: int32, object: str }), { maxLength: 4 }),
});

describe('properties', () => {
  it('write then read gives the document back (all three kinds, both orders)', () => {
    fc.assert(
      fc.property(fc.oneof(sprite, object, map), (doc: HallgeirDocument) => {
        const bytes = writeHallgeir(doc);
        const back = readHallgeir(bytes, doc.kind);
        // contract: auto reads little-endian first, so a big-endian file that also reads as little-endian is little-endian
        if (back.littleEndian === doc.littleEndian) expect(back).toEqual(doc);
        else expect(doc.littleEndian).toBe(false);
        expect(writeHallgeir(back)).toEqual(bytes);
      }),
      { numRuns: 300 },
    );
  });

  it('random bytes, truncations and byte flips give a document or a FormatError, quickly', () => {
    const kinds: HallgeirKind[] = ['sprite', 'object', 'map'];
    const attempt = (bytes: Uint8Array) => {
      for (const k of kinds) {
        try {
          readHallgeir(bytes, k);
        } catch (e) {
          if (!(e instanceof FormatError)) throw e;
          expect(e.offset).toBeTypeOf('number');
        }
      }
    };
    fc.assert(fc.property(fc.uint8Array({ maxLength: 200 }), attempt), { numRuns: 300 });
    // Past the identifier, so the body parsers see the random bytes.
    fc.assert(
      fc.property(fc.constantFrom('str', 'obj', 'map'), fc.boolean(), fc.uint8Array({ maxLength: 200 }), (id, le, body) => {
        const head = new Builder(le).str(id).bytes();
        const all = new Uint8Array(head.length + body.length);
        all.set(head);
        all.set(body, head.length);
        attempt(all);
      }),
      { numRuns: 600 },
    );
    fc.assert(
      fc.property(fc.oneof(sprite, object, map), fc.nat(), fc.nat(), fc.integer({ min: 0, max: 255 }), (doc, cut, at, v) => {
        const bytes = writeHallgeir(doc);
        attempt(bytes.subarray(0, cut % (bytes.length + 1)));
        const flipped = bytes.slice();
        if (flipped.length) flipped[at % flipped.length] = v;
        attempt(flipped);
      }),
      { numRuns: 300 },
    );
  });

  it('validate never throws and reports an error exactly when reading fails', () => {
    const kinds = [
      ['sprite', 'hallgeir-sprite'],
      ['object', 'hallgeir-object'],
      ['map', 'hallgeir-map'],
    ] as const;
    fc.assert(
      fc.property(fc.oneof(sprite, object, map), fc.nat(), fc.integer({ min: 0, max: 255 }), (doc, at, v) => {
        const bytes = writeHallgeir(doc);
        bytes[at % bytes.length] = v;
        for (const [kind, name] of kinds) {
          const diags = getFormat(name)!.validate(bytes);
          let ok = true;
          try {
            readHallgeir(bytes, kind);
          } catch {
            ok = false;
          }
          expect(diags.some((d) => d.severity === 'error')).toBe(!ok);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('the identifier (source document: "Identifier, string, size 3", with no length field before it)', () => {
  it('is 3 bytes in the files the project writes, and such files read', () => {
    const s = createSprite('hero', 'tex');
    s.animations.push({ name: 'walk', frames: [{ x: 0, y: 0, delay: 0.1, next: -1 }] });
    const bytes = writeHallgeir(s);
    expect(Array.from(bytes.subarray(0, 7))).toEqual([0x73, 0x74, 0x72, 4, 0, 0, 0]);
    expect(bytes).toEqual(spriteBytes(true, 'hero', 'tex', [{ name: 'walk', frames: [{ x: 0, y: 0, delay: 0.1, next: -1 }] }]));
    expect(readSprite(bytes)).toEqual(s);
    expect(Array.from(writeHallgeir(createObject('a', 'b')).subarray(0, 3))).toEqual([0x6f, 0x62, 0x6a]);
    expect(Array.from(writeHallgeir(createMap()))).toEqual([0x6d, 0x61, 0x70, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(detectFormat(bytes, 'x.bin')?.name).toBe('hallgeir-sprite');
    expect(detectFormat(writeHallgeir(createMap()), 'x.bin')?.name).toBe('hallgeir-map');
    // text that merely starts with the letters is not taken for one
    expect(sniffHallgeir(new TextEncoder().encode('map_icon hud/map.png 1 0 -1\n'), 'map')).toBe(false);
  });

  it('given as a string with its length (int 3 then the letters) it reads too, and is written back so', () => {
    for (const le of [true, false]) {
      const bytes = new Builder(le).str('obj').str('goomba').str('g').bytes();
      const o = readObject(bytes);
      expect(o).toEqual({ kind: 'object', littleEndian: le, name: 'goomba', sprite: 'g', lengthPrefixedId: true });
      expect(writeHallgeir(o)).toEqual(bytes);
      expect(sniffHallgeir(bytes, 'object')).toBe(true);
    }
  });

  it('auto byte order: little-endian first, big-endian when that fails (contract)', () => {
    expect(readObject(objectBytes(false, 'goomba', 'g')).littleEndian).toBe(false);
    // a big-endian file that also reads as little-endian is little-endian
    expect(readObject(objectBytes(false, '', '')).littleEndian).toBe(true);
    const e = errorOf(() => readObject(new Builder(true).id('obj').int(100).bytes()));
    expect(e.message).toMatch(/object name length 100 is longer than the 0 bytes left \(at byte 3\)/);
  });
});
