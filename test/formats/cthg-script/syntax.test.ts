/**
 * The AnimationEncoder language: tokens and grammar as scanner.l and
 * parser.y have them, the encoder's checks, errors at a line and column,
 * print/parse round trips, and hostile input.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { FormatError } from '../../../src/binary/errors.js';
import { mutate, rng } from '../../../src/fuzz/mutate.js';
import { detectFormat } from '../../../src/detect.js';
import {
  cthgScriptHandler,
  parseScript,
  printScript,
  quotable,
  readScript,
  sniffScript,
  type CthgScript,
  type ScriptElement,
} from '../../../src/formats/cthg/script/index.js';
import { CORPUS } from '../../helpers/paths.js';

const TEST_SCRIPT = path.join(CORPUS, 'cthg', 'encoder-test', 'anims.txt');
const enc = (s: string) => new TextEncoder().encode(s);

function errorOf(text: string): FormatError {
  try {
    readScript(enc(text));
  } catch (e) {
    expect(e).toBeInstanceOf(FormatError);
    return e as FormatError;
  }
  throw new Error(`no error for: ${text}`);
}

/** A document without positions, for comparisons. */
function strip(s: CthgScript): unknown {
  return s.animations.map(({ line, column, ...a }) => ({
    ...a,
    frames: a.frames.map(({ line, column, ...f }) => ({ ...f, elements: f.elements.map(({ line, column, at, ...e }) => e) })),
  }));
}

/** The 1-based column of `needle` in a one-line `text`. */
const col = (text: string, needle: string) => text.indexOf(needle) + 1;

const one = (element: string, extra = '') => `animation "a" { view = north; frame { ${extra} element { ${element} } } }`;

describe('reading scripts', () => {
  it('reads the shared test script: flips without ";", diplay_if, recolour layers, several views', () => {
    const doc = readScript(new Uint8Array(readFileSync(TEST_SCRIPT)));
    expect(doc.animations.map((a) => `${a.name}/${a.view}/${a.frames.length}`)).toEqual([
      'walker/north/3',
      'walker/east/3',
      'walker/west/3',
      'recoloured/south/1',
      'plain/north/2',
    ]);
    const e = doc.animations[0]!.frames[1]!.elements[0]!;
    expect([e.horFlip, e.alpha, e.xOffset]).toEqual([true, 50, -40]);
    expect(doc.animations[0]!.frames[0]!.elements[1]!.displayIf).toEqual({ layerClass: 2, layerId: 1 });
    expect(doc.animations[3]!.frames[0]!.elements[0]!.layer).toEqual({ from: 1, to: 5 });
    expect(doc.animations[0]!.frames[0]!.sound).toBe(3);
  });

  it('is found by content (before Solarus, which takes any text), also after comments', () => {
    const bytes = new Uint8Array(readFileSync(TEST_SCRIPT));
    expect(detectFormat(bytes, 'anims.txt')?.name).toBe('cthg-script');
    expect(detectFormat(bytes, 'anims.dat')?.name).toBe('cthg-script');
    expect(sniffScript(enc('\ufeff// c\n\n  animation\t"x"\n{'))).toBe(true);
    expect(sniffScript(enc('animation "x" view'))).toBe(false);
    expect(sniffScript(enc('animation x {'))).toBe(false);
    expect(detectFormat(enc('animation stopped 1 0 0 0 0 0 0 0 0\n'), 'x.dat')?.name).not.toBe('cthg-script');
  });

  it('numbers as scanner.l cuts them: "0", [1-9][0-9]*, -[1-9][0-9]*', () => {
    expect(readScript(enc(one('base = "a.png"; x_offset = -12; y_offset = 0;'))).animations[0]!.frames[0]!.elements[0]).toMatchObject({
      xOffset: -12,
      yOffset: 0,
    });
    let t = one('base = "a.png"; x_offset = 007;');
    expect(errorOf(t).message).toBe(`expected ";" after the x_offset, found the number 0 (at line 1, column ${col(t, '007') + 1})`);
    t = one('base = "a.png"; x_offset = -0;');
    expect(errorOf(t).message).toBe(`unexpected character "-" (at line 1, column ${col(t, '-0')})`);
    t = one('base = "a.png"; x_offset = 99999999999;');
    expect(errorOf(t).message).toBe(
      `the number 99999999999 is too large (at most 2147483647 either way) (at line 1, column ${col(t, '999')})`,
    );
  });

  it('keywords match without word boundaries, as flex does; unknown words are errors', () => {
    expect(readScript(enc(one('base = "a.png"; hor_flipvert_flip'))).animations[0]!.frames[0]!.elements[0]).toMatchObject({
      horFlip: true,
      vertFlip: true,
    });
    let t = one('base = "a.png"; leftx = 1;');
    expect(errorOf(t).message).toBe(`unknown word "x" (at line 1, column ${col(t, 'x =')})`);
    t = one('bse = "a.png";');
    expect(errorOf(t).message).toBe(`unknown word "bse" (at line 1, column ${col(t, 'bse')})`);
  });

  it('takes "display_if" (the manual) as "diplay_if" (the scanner), a ";" after a flip, CRLF line ends and a BOM', () => {
    const doc = readScript(
      enc('\ufeffanimation "a" {\r\n view = east;\r\n frame { element { base = "a.png"; display_if 3 = 2; hor_flip; } }\r\n}\r\n'),
    );
    expect(doc.animations[0]!.frames[0]!.elements[0]).toMatchObject({ displayIf: { layerClass: 3, layerId: 2 }, horFlip: true });
  });

  it('errors name the line and column (columns count characters)', () => {
    expect(errorOf('animation "a" {\n  view = up;\n}').message).toBe('unknown word "up" (at line 2, column 10)');
    expect(errorOf('animation "é" {\n  view = north;\n  frame { }\n}').message).toBe(
      'expected "element" (a frame needs at least one, after an optional "sound"), found "}" (at line 3, column 11)',
    );
    const bang = 'animation "é" { view = north; frame { element { base = "é.png"; ! } } }';
    expect(errorOf(`// x\n${bang}`).message).toBe(`unexpected character "!" (at line 2, column ${col(bang, '!')})`);
    expect(errorOf('animation "a" { frame { element { base = "a.png"; } } }').message).toBe(
      'expected "tile_size" or "view" (an animation starts with its properties), found "frame" (at line 1, column 17)',
    );
    expect(errorOf('animation "a" { view = north; }').message).toBe(
      'expected "frame" (an animation needs at least one frame), found "}" (at line 1, column 31)',
    );
    expect(errorOf('animation "a').message).toBe('the string is not closed (a missing `"`) (at line 1, column 11)');
    expect(errorOf('animation "a\nb" {').message).toBe('a string must end on the line it starts (a missing `"`?) (at line 1, column 11)');
    expect(errorOf('animation "a" { view = north; frame { element { base = "a.png"; } } } }').message).toBe(
      'expected "animation", found "}" (at line 1, column 71)',
    );
  });

  it("the encoder's checks", () => {
    const t = one('base = "a.png"; alpha = 60;');
    expect(errorOf(t).message).toBe(`alpha must be 50, 75 or 100, not 60 (at line 1, column ${col(t, 'alpha')})`);
    const u = one('x_offset = 1;');
    expect(errorOf(u).message).toBe(`an element needs an image (base = "file.png") (at line 1, column ${col(u, 'element')})`);
    const v = one('base = "";');
    expect(errorOf(v).message).toBe(`an element needs an image (base = "file.png") (at line 1, column ${col(v, 'base')})`);
    expect(errorOf(one('base = "a.png"; diplay_if 13 = 1;')).message).toMatch(
      /^the display condition's class must be from 0 to 12, not 13 /,
    );
    expect(errorOf(one('base = "a.png"; diplay_if 1 = 256;')).message).toMatch(
      /^the display condition's value must be from 0 to 255, not 256 /,
    );
    const w = one('base = "a.png"; alpha = 50; alpha = 75;');
    expect(errorOf(w).message).toBe(
      `"alpha" is already given at line 1, column ${col(w, 'alpha')} (at line 1, column ${col(w, 'alpha = 75')})`,
    );
    // One `layer` per element: the encoder's "already assigned" check counts fields, not layers.
    const x = one('base = "a.png"; layer 1 = 2; layer 2 = 1;');
    expect(errorOf(x).message).toBe(
      `"layer" is already given at line 1, column ${col(x, 'layer')} (at line 1, column ${col(x, 'layer 2')})`,
    );
    expect(errorOf(one('base = "a.png"; layer 256 = 1;')).message).toMatch(/^a recolour layer must be from 0 to 255 \(layer 256 = 1\) /);
    expect(errorOf(one('base = "a.png"; left = -1;')).message).toMatch(/^left must be 0 or more, not -1 /);
    expect(errorOf('animation "a" { tile_size = 32; view = north; frame { element { base = "a.png"; } } }').message).toBe(
      'tile size 32 is not valid: the encoder knows only 64 (at line 1, column 1)',
    );
    expect(errorOf('animation "" { view = north; frame { element { base = "a.png"; } } }').message).toMatch(
      /^the name of an animation may not be empty/,
    );
    expect(errorOf('animation "a" { tile_size = 64; frame { element { base = "a.png"; } } }').message).toMatch(
      /^animation "a" has no view/,
    );
    expect(errorOf('animation "a" { view = north; view = east; frame { element { base = "a.png"; } } }').message).toBe(
      '"view" is already given at line 1 (at line 1, column 31)',
    );
    const two = 'animation "a" { view = north; frame { element { base = "a.png"; } } }\n';
    expect(errorOf(two + two).message).toBe('animation "a" (north) is already given at line 1 (at line 2, column 1)');
    expect(
      errorOf(`${two}animation "a" { view = east; frame { element { base = "a.png"; } } frame { element { base = "a.png"; } } }`).message,
    ).toBe('animation "a" (east) has 2 frames, but its north view at line 1 has 1 (at line 2, column 1)');
  });

  it('an empty script (or only comments) is valid: no animations', () => {
    expect(readScript(enc('// nothing\n')).animations).toEqual([]);
    expect(cthgScriptHandler.validate(enc(''))).toEqual([]);
  });

  it('validate: problems as diagnostics, the sounds the encoder drops as warnings', () => {
    const t = one('base = "a.png"; alpha = 1;');
    expect(cthgScriptHandler.validate(enc(t))).toEqual([expect.objectContaining({ severity: 'error', line: 1, column: col(t, 'alpha') })]);
    expect(cthgScriptHandler.validate(enc(one('base = "a.png";', 'sound = 4;')))).toEqual([
      expect.objectContaining({ severity: 'warning', message: expect.stringMatching(/^sound 4: the real encoder drops frame sounds/) }),
    ]);
  });
});

// ---------------------------------------------------------------- round trips

const nameArb = fc.oneof(
  fc.constantFrom('walker', 'a b', 'café', '\u00e9t\u00e9', 'x/y'),
  fc.string({ minLength: 1, maxLength: 8 }).filter((s) => quotable(s) && !s.includes('\ufffd')),
);
const int = fc.integer({ min: -100000, max: 100000 });
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
const elementArb: fc.Arbitrary<ScriptElement> = fc
  .record({
    base: nameArb,
    recolour: opt(nameArb),
    layer: opt(fc.record({ from: fc.integer({ min: 0, max: 255 }), to: fc.integer({ min: 0, max: 255 }) })),
    left: opt(fc.nat(1000)),
    top: opt(fc.nat(1000)),
    width: opt(int),
    height: opt(int),
    xOffset: opt(int),
    yOffset: opt(int),
    alpha: opt(fc.constantFrom(50, 75, 100)),
    horFlip: opt(fc.constant(true as const)),
    vertFlip: opt(fc.constant(true as const)),
    displayIf: opt(fc.record({ layerClass: fc.integer({ min: 0, max: 12 }), layerId: fc.integer({ min: 0, max: 255 }) })),
  })
  .map((e) => {
    const out: Record<string, unknown> = { line: 0, column: 0 };
    for (const [k, v] of Object.entries(e)) if (v !== undefined) out[k] = v;
    return out as unknown as ScriptElement;
  });

const scriptArb: fc.Arbitrary<CthgScript> = fc
  .uniqueArray(
    fc.record({
      name: nameArb,
      view: fc.constantFrom('north', 'east', 'south', 'west' as const),
      tileSize: opt(fc.constant(64)),
      frames: fc.array(fc.record({ sound: opt(fc.nat(70000)), elements: fc.array(elementArb, { minLength: 1, maxLength: 3 }) }), {
        minLength: 1,
        maxLength: 3,
      }),
    }),
    { selector: (a) => `${a.name}\u0000${a.view}`, maxLength: 4 },
  )
  .map((anims) => {
    // The views of one name share a frame count.
    const counts = new Map<string, number>();
    return {
      animations: anims.map((a) => {
        const n = counts.get(a.name) ?? counts.set(a.name, a.frames.length).get(a.name)!;
        const frames = Array.from({ length: n }, (_, i) => a.frames[i % a.frames.length]!).map((f) => ({
          line: 0,
          column: 0,
          elements: f.elements,
          ...(f.sound !== undefined ? { sound: f.sound } : {}),
        }));
        return { line: 0, column: 0, name: a.name, view: a.view, ...(a.tileSize !== undefined ? { tileSize: a.tileSize } : {}), frames };
      }),
    } as CthgScript;
  });

describe('print and parse', () => {
  it('parse(print(doc)) is doc, and print is stable', () => {
    fc.assert(
      fc.property(scriptArb, (doc) => {
        const text = printScript(doc);
        const back = readScript(text);
        expect(strip(back)).toEqual(strip(doc));
        expect(printScript(back)).toEqual(text);
      }),
      { numRuns: 200 },
    );
  });

  it('the shared test script prints to a script with the same document', () => {
    const doc = readScript(new Uint8Array(readFileSync(TEST_SCRIPT)));
    expect(strip(readScript(printScript(doc)))).toEqual(strip(doc));
  });

  it('a name that is not UTF-8 keeps its bytes', () => {
    const bytes = new Uint8Array([...enc('animation "'), 0xe9, ...enc('" { view = north; frame { element { base = "a.png"; } } }')]);
    const doc = readScript(bytes);
    expect(doc.animations[0]!.rawName).toEqual(new Uint8Array([0xe9]));
    expect(printScript(doc).subarray(0, 13)).toEqual(bytes.subarray(0, 13));
    expect(cthgScriptHandler.validate(bytes)).toEqual([expect.objectContaining({ severity: 'warning' })]);
  });
});

describe('hostile scripts', () => {
  it('mutations of the test script: a document or a FormatError, nothing else', () => {
    const bytes = new Uint8Array(readFileSync(TEST_SCRIPT));
    const random = rng(0x5c71);
    for (let i = 0; i < 1500; i++) {
      const m = mutate(bytes, random);
      for (const fn of [() => parseScript(m), () => readScript(m), () => cthgScriptHandler.validate(m)]) {
        try {
          fn();
        } catch (e) {
          if (!(e instanceof FormatError)) throw new Error(`mutation ${i}: ${(e as Error).stack}`);
        }
      }
    }
  });

  it('a 4 MB line of tokens reads in linear time', () => {
    const el = 'element { base = "a.png"; x_offset = 1; } ';
    const text = `animation "a" { view = north; frame { ${el.repeat(100_000)} } }`;
    const t = Date.now();
    expect(readScript(enc(text)).animations[0]!.frames[0]!.elements).toHaveLength(100_000);
    expect(Date.now() - t).toBeLessThan(20_000);
  });
});
