import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/binary/errors.js';
import {
  formatLines,
  formatLua,
  frameAt,
  looksLikeLines,
  looksLikeLua,
  modelToSheet,
  parseLines,
  parseLua,
  readLines,
  readLua,
  sheetToModel,
  solarusHandler,
  solarusLuaHandler,
  type SolarusSheet,
} from '../../src/formats/solarus/index.js';
import { corpusBytes, corpusFiles, enc, NO_FILES } from './helpers.js';

const int = (min: number, max: number) => fc.integer({ min, max });
const direction = fc.record({
  x: int(-50, 5000),
  y: int(-50, 5000),
  frameWidth: int(1, 300),
  frameHeight: int(1, 300),
  originX: int(-100, 300),
  originY: int(-100, 300),
  frameCount: int(1, 40),
  columns: int(1, 40),
});
const token = fc.stringMatching(/^[A-Za-z0-9_./-]{1,20}$/);

function sheetArb(name: fc.Arbitrary<string>, image: fc.Arbitrary<string>): fc.Arbitrary<SolarusSheet> {
  return fc
    .uniqueArray(
      fc.record({
        name,
        image,
        frameDelay: int(0, 5000),
        loopOnFrame: int(-1, 60),
        directions: fc.array(direction, { minLength: 1, maxLength: 5 }),
      }),
      { selector: (a) => a.name, maxLength: 6 },
    )
    .map((animations) => ({ animations }));
}

const lineSheet = sheetArb(token, token);
const luaSheet = sheetArb(fc.string({ unit: 'binary', maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 12 }));

describe('Solarus property tests', () => {
  it('the line syntax round-trips any sheet it can hold', () => {
    fc.assert(
      fc.property(lineSheet, (s) => {
        expect(parseLines(formatLines(s))).toEqual(s);
      }),
    );
  });

  it('the Lua syntax round-trips any sheet, any strings', () => {
    fc.assert(
      fc.property(luaSheet, (s) => {
        expect(readLua(enc(formatLua(s)))).toEqual(s);
      }),
    );
  });

  it('both syntaxes describe the same sheet', () => {
    fc.assert(
      fc.property(lineSheet, (s) => {
        expect(readLua(solarusLuaHandler.write!(readLines(solarusHandler.write!(s))))).toEqual(s);
        expect(looksLikeLua(solarusLuaHandler.write!(s)) || s.animations.length === 0).toBe(true);
        // (A first name starting with "--" reads as a Lua comment to the sniffer.)
        const comment = s.animations[0]?.name.startsWith('--');
        expect(looksLikeLines(solarusHandler.write!(s)) || s.animations.length === 0 || comment).toBe(true);
        expect(looksLikeLines(solarusLuaHandler.write!(s))).toBe(false);
      }),
    );
  });

  it('the common model round-trips (columns > frames becomes one row of frames)', async () => {
    await fc.assert(
      fc.asyncProperty(lineSheet, async (s) => {
        const back = modelToSheet('solarus', await sheetToModel('solarus', s, NO_FILES));
        const expected = s.animations.map((a) => ({
          ...a,
          loopOnFrame: a.loopOnFrame >= a.directions[0]!.frameCount ? -1 : a.loopOnFrame,
          directions: a.directions.map((d) => ({ ...d, columns: Math.min(d.columns, d.frameCount) })),
        }));
        // The model keeps loops per direction; the sheet takes the first direction's.
        expect(back.animations).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });

  it('playback follows the engine rules step by step', () => {
    fc.assert(
      fc.property(int(0, 300), int(1, 12), int(-1, 11), int(0, 5000), (delay, n, loop, t) => {
        const a = { name: 'a', image: 'i', frameDelay: delay, loopOnFrame: loop, directions: [] };
        const d = { x: 0, y: 0, frameWidth: 1, frameHeight: 1, originX: 0, originY: 0, frameCount: n, columns: n };
        // Reference: simulate the engine's update loop.
        let frame: number | null = 0;
        let due = delay;
        if (delay > 0) {
          while (due <= t && frame !== null) {
            frame = frame + 1 < n ? frame + 1 : loop >= 0 && loop < n ? loop : null;
            due += delay;
          }
        }
        expect(frameAt(a, d, t)).toBe(frame);
      }),
    );
  });
});

/** Runs a reader and fails on anything but success or a FormatError with a location. */
function onlyFormatErrors(read: () => unknown): void {
  try {
    read();
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    expect(e.line).toBeGreaterThanOrEqual(1);
    expect(e.column).toBeGreaterThanOrEqual(1);
  }
}

describe('Solarus fuzz: random and damaged input gives FormatError, never a crash or a hang', () => {
  const pieces = [
    'animation',
    '{',
    '}',
    '(',
    ')',
    '=',
    ',',
    ';',
    '-',
    '--',
    '--[[',
    ']]',
    '--[==[',
    ']==]',
    '"',
    "'",
    '\\',
    '\\x4',
    '\\u{',
    '\\999',
    '\n',
    '\r\n',
    ' ',
    '\t',
    'name',
    'src_image',
    'frame_delay',
    'frame_to_loop_on',
    'directions',
    'x',
    'y',
    'frame_width',
    'frame_height',
    'num_frames',
    'num_columns',
    'origin_x',
    '0',
    '1',
    '7',
    '-1',
    '99999999999',
    '1.5',
    '0x1',
    '"a"',
    "'b'",
    'true',
    'nil',
    'tileset',
    'a.png',
    'é',
    '\u0000',
    '[[',
    '[',
  ];
  const soup = fc.array(fc.constantFrom(...pieces), { maxLength: 80 }).map((a) => a.join(''));

  it('token soup', () => {
    fc.assert(
      fc.property(soup, (t) => {
        onlyFormatErrors(() => parseLua(t));
        onlyFormatErrors(() => parseLines(t));
        expect(solarusHandler.validate(enc(t)).every((d) => d.line !== undefined)).toBe(true);
        expect(solarusLuaHandler.validate(enc(t)).every((d) => d.line !== undefined)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (b) => {
        onlyFormatErrors(() => readLua(b));
        onlyFormatErrors(() => readLines(b));
        looksLikeLua(b);
        looksLikeLines(b);
      }),
      { numRuns: 1000 },
    );
  });

  it('damaged corpus files (bytes changed, cut, duplicated)', () => {
    const ids = corpusFiles();
    fc.assert(
      fc.property(int(0, ids.length - 1), fc.boolean(), int(0, 1 << 30), int(0, 255), int(0, 3), (k, old, at, byte, how) => {
        const src = corpusBytes(old ? 'old' : 'new', ids[k]!);
        const i = at % (src.length + 1);
        let b: Uint8Array;
        if (how === 0) {
          b = src.slice();
          if (i < b.length) b[i] = byte;
        } else if (how === 1) b = src.slice(0, i);
        else if (how === 2) b = new Uint8Array([...src.subarray(0, i), ...src.subarray(i >> 1)]);
        else b = new Uint8Array([...src.subarray(0, i), byte, ...src.subarray(i)]);
        onlyFormatErrors(() => readLua(b));
        onlyFormatErrors(() => readLines(b));
      }),
      { numRuns: 1500 },
    );
  });

  it('deep nesting and long input stay fast and bounded', () => {
    onlyFormatErrors(() => parseLua('animation{ x = ' + '{'.repeat(100000)));
    onlyFormatErrors(() => parseLua('--[[' + ' '.repeat(1_000_000)));
    onlyFormatErrors(() => parseLua('--[==[' + ']'.repeat(300_000)));
    onlyFormatErrors(() => parseLua('animation{ name = "' + '\\z'.repeat(200_000)));
    onlyFormatErrors(() => parseLua('animation{ name = ' + '-'.repeat(200_000)));
    onlyFormatErrors(() => parseLines('a'.repeat(1_000_000) + ' ' + '\t '.repeat(100_000)));
    onlyFormatErrors(() => parseLines('a b 2147483647 0 -1\n' + '0 0 1 1 0 0 1 1\n'.repeat(1000)));
  });
});
