// The Lua syntax's ASCII files are lexed from their bytes (no
// string of the whole file), any other text from its UTF-16 code units (one
// lexer for both: values and messages sliced from the text). These properties
// hold readLua (bytes) to parseLua over the decoded text with the style found
// in the text (detectLuaStyle, kept as the reference): the same sheets,
// warnings, positions, style and errors (message, line, column) on the
// corpus, the benchmark's input, random sheets in every style, random escapes
// and random damage, ASCII or not.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeInput } from '../../bench/inputs.mjs';
import type { Diagnostic } from '../../src/binary/errors.js';
import { FormatError } from '../../src/binary/errors.js';
import { formatLua, parseLua, readLua, type AnimationPositions, type SolarusSheet } from '../../src/formats/solarus/index.js';
import { detectLuaStyle, styleOf } from '../../src/formats/solarus/style.js';
import { decodeText } from '../../src/formats/solarus/text.js';
import { corpusBytes, corpusFiles, enc, parserSheet } from './helpers.js';

/** Names with quotes, backslashes and control characters (escaped by the writer). */
const token = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_./-]{1,16}$/),
  fc
    .array(fc.constantFrom('a', ' ', '~', '\n', '\t', '\x01', '\x7f', '"', '\\', "'", '-', '['), { maxLength: 12 })
    .map((cs) => cs.join('')),
);
const sheet = parserSheet(token, 4, 5);
const styled = fc.tuple(sheet, fc.constantFrom('converter', 'editor' as const), fc.boolean()).map(([s, kind, crlf]) => {
  const t = formatLua(s, undefined, kind);
  return crlf ? t.replace(/\n/g, '\r\n') : t;
});

/** Pieces that reach every lexer path: comments, long brackets, escapes, numbers, names, punctuation, non-ASCII. */
const PIECES = [
  '',
  '-',
  '--',
  '--[[',
  ']]',
  '--[==[ x\n]==]',
  '[',
  ']',
  '=',
  '"',
  "'",
  '\\',
  '\\n',
  '\\x4',
  '\\xff',
  '\\xC3\\xA9',
  '\\u{48}',
  '\\u{110000}',
  '\\u{',
  '\\z  \n ',
  '\\\r\n',
  '\\300',
  '\\25',
  '\\9',
  '\\q',
  '0',
  '9',
  '1.5',
  '0x1',
  '2147483648',
  '99999999999',
  'a',
  'nil',
  'true',
  'foo = 1,',
  'bar = { 1, "x", { y = -2 } },',
  '{',
  '}',
  '(',
  ')',
  ',',
  ';',
  '\r',
  '\n',
  '\t',
  '\v',
  '\f',
  '\0',
  '@',
  '\u00e9',
];
const damaged = fc.tuple(styled, fc.array(fc.tuple(fc.nat(), fc.constantFrom(...PIECES)), { maxLength: 5 })).map(([text, edits]) => {
  let t = text;
  for (const [at, what] of edits) {
    const i = t.length ? at % (t.length + 1) : 0;
    t = t.slice(0, i) + what + t.slice(i + (at % 3 === 0 ? 1 : 0));
  }
  return t;
});

type Outcome = Record<string, unknown>;
function capture(
  run: (warn: (d: Diagnostic) => void, positions: AnimationPositions[]) => SolarusSheet,
  style: (s: SolarusSheet) => unknown,
): Outcome {
  const warnings: Diagnostic[] = [];
  const positions: AnimationPositions[] = [];
  try {
    const s = run((d) => warnings.push(d), positions);
    return { sheet: JSON.parse(JSON.stringify(s)), warnings, positions, style: style(s) };
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    return { error: e.message, line: e.line, column: e.column, warnings };
  }
}

/** readLua's outcome (from the bytes for ASCII files) and parseLua's on the decoded text (from its code units). */
function both(bytes: Uint8Array, strict = false): [Outcome, Outcome] {
  const read = capture(
    (warn, positions) => readLua(bytes, { warn, positions, strict }),
    (s) => styleOf(s, 'solarus-lua'),
  );
  // The reference: parseLua on the decoded text, and the style readLua remembered for it before.
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  let text = '';
  const reference = capture(
    (warn, positions) => {
      text = decodeText(bytes, { warn });
      return parseLua(text, { warn, positions, strict });
    },
    () => detectLuaStyle(text, bom, (o) => parseLua(text, o)),
  );
  return [read, reference];
}

function isAscii(b: Uint8Array): boolean {
  const from = b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
  for (let i = from; i < b.length; i++) if (b[i]! >= 0x80) return false;
  return true;
}

describe('readLua (bytes) gives what parseLua (text) gives', () => {
  it('on every zsdx corpus sheet, with and without a BOM', () => {
    for (const id of corpusFiles()) {
      const bytes = corpusBytes('new', id);
      expect(isAscii(bytes), id).toBe(true);
      const [a, b] = both(bytes);
      expect(a, id).toEqual(b);
      expect(a.error, id).toBeUndefined();
      const [c, d] = both(Uint8Array.of(0xef, 0xbb, 0xbf, ...bytes));
      expect(c, id).toEqual(d);
    }
  });

  it('on the benchmark input (bench/inputs.mjs: 2000 animations of 4 directions)', async () => {
    const { bytes } = await makeInput('solarus-lua', 2000 * 560);
    const [a, b] = both(bytes);
    expect(a.error).toBeUndefined();
    expect(a).toEqual(b);
  });

  it('on random sheets in both styles and line endings', () => {
    fc.assert(
      fc.property(styled, fc.boolean(), fc.boolean(), (text, bom, strict) => {
        const bytes = enc(bom ? `\ufeff${text}` : text);
        const [a, b] = both(bytes, strict);
        expect(a).toEqual(b);
      }),
      { numRuns: 300 },
    );
  });

  it('on random layouts (the style found: line endings, indentation, breaks between and after)', () => {
    const BREAKS = ['', ' ', '\n', '\r\n', '\n\n', '\r\n\r\n', '\n\r\n', '\r', ' \n', '\n\n\n', '\n-- x\n'];
    const layout = fc.tuple(
      sheet,
      fc.constantFrom('converter', 'editor' as const),
      fc.array(fc.constantFrom(...BREAKS), { minLength: 1, maxLength: 6 }),
      fc.constantFrom(...BREAKS, '\n}', '}\n'),
      fc.constantFrom('  ', '\t', ' \t', '', '    '),
    );
    fc.assert(
      fc.property(layout, fc.boolean(), ([sh, kind, seps, tail, indent], bom) => {
        let k = 0;
        const text =
          formatLua(sh, undefined, kind)
            .replace(/\}\n+animation/g, () => `}${seps[k++ % seps.length]}animation`)
            .replace(/\n {2}/g, `\n${indent}`)
            .replace(/\n+$/, '') + tail;
        const [a, b] = both(enc(bom ? `\ufeff${text}` : text));
        expect(a).toEqual(b);
      }),
      { numRuns: 400 },
    );
  });

  it('on damaged texts (the same error, line and column), ASCII or not', () => {
    fc.assert(
      fc.property(damaged, fc.boolean(), (text, strict) => {
        const [a, b] = both(enc(text), strict);
        expect(a).toEqual(b);
      }),
      { numRuns: 2000 },
    );
  });

  it('at the end of the file in every state (every prefix of a sheet full of escapes and comments)', () => {
    const text =
      '-- c\n--[==[ long\n]==]\nanimation({ name = "a\\n\\x41\\u{48}\\z  \n b\\065\\\r\nc\\xff", src_image = \'i\', ' +
      'x_y = { 1, -2, "s", { nil, true } }; frame_delay = 10, directions = { { x = 0, y = 0, frame_width = 1, frame_height = 1 } } });\n';
    for (let k = 0; k <= text.length; k++) {
      const [a, b] = both(enc(text.slice(0, k)));
      expect(a, String(k)).toEqual(b);
    }
  });
});

describe('parseLua on non-ASCII text (its UTF-16 code units lexed as bytes, values and messages from the text)', () => {
  const error = (text: string) =>
    capture(
      (warn) => parseLua(text, { warn }),
      () => null,
    );
  const dir = 'directions = { { x = 0, y = 0, frame_width = 1, frame_height = 1 } }';

  it('keeps the text of names and images, lone surrogates included', () => {
    const s = parseLua(`animation{ name = "é😀\ud800", src_image = 'ü/x\\u{1F600}\\xC3\\xA9.png', ${dir} }`);
    const [a] = JSON.parse(JSON.stringify(s)).animations;
    expect(a.name).toBe('é😀\ud800');
    expect(a.image).toBe('ü/x😀é.png');
  });

  it('counts columns in UTF-16 code units, after comments and strings', () => {
    expect(error('-- é😀\n--[[ ü\n😀 ]] animation{ name = "é😀", src_image = 1 }')).toMatchObject({
      error: 'src_image must be a string, found the number 1 (at line 3, column 44)',
      line: 3,
      column: 44,
    });
    expect(error('animation{ name = "😀", 😀')).toMatchObject({ error: 'unexpected character "😀" (at line 1, column 25)', column: 25 });
    expect(error('animation{ name = "é\\😀" }')).toMatchObject({
      error: 'invalid escape sequence "\\\ud83d" (at line 1, column 21)',
      column: 21,
    });
    expect(error('animation{ name = "é\\xé" }')).toMatchObject({
      error: '\\x needs two hexadecimal digits (at line 1, column 21)',
      column: 21,
    });
    expect(error('\ufeffanimation{}')).toMatchObject({ error: 'unexpected character "\ufeff" (at line 1, column 1)' });
  });
});
