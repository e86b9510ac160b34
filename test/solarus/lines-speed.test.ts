// The line-syntax parser was tuned for speed (shared scratch
// arrays, no closures per animation, exact-length result arrays). These
// properties hold it to the parser as it was (lines-reference.ts): the same
// sheets, warnings, positions and errors (message, line, column) for random
// sheets, random layouts and random damage, and nested calls from a warn
// callback do not disturb the outer parse.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/binary/errors.js';
import { FormatError } from '../../src/binary/errors.js';
import { formatLines, parseLines, readLines, type AnimationPositions } from '../../src/formats/solarus/index.js';
import { animationStore } from '../../src/formats/solarus/compact.js';
import { decodeText } from '../../src/formats/solarus/text.js';
import { referenceParseLines } from './lines-reference.js';
import { corpusFiles, parserSheet, ZSDX } from './helpers.js';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

const token = fc.stringMatching(/^[A-Za-z0-9_./-]{1,16}$/);
const sheet = parserSheet(token, 5, 6);

/** The outcome of a parse: the sheet, the warnings and positions, or the error. */
function outcome(parse: typeof parseLines, text: string, strict: boolean): unknown {
  const warnings: Diagnostic[] = [];
  const positions: AnimationPositions[] = [];
  try {
    const s = parse(text, { warn: (d) => warnings.push(d), positions, strict });
    return { sheet: JSON.parse(JSON.stringify(s)), warnings, positions };
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    return { error: e.message, line: e.line, column: e.column, warnings };
  }
}

/** A text of a sheet with a random layout: spaces or tabs between tokens, CR LF or LF, blank lines, extra tokens. */
const laidOut = fc
  .tuple(
    sheet,
    fc.array(fc.constantFrom(' ', '\t', '  ', ' \t', '\r\n', '\n', '\n\n', ' x', '\t9'), { minLength: 1, maxLength: 40 }),
    fc.nat(),
  )
  .map(([s, seps, seed]) => {
    let k = seed;
    const next = () => seps[k++ % seps.length]!;
    return formatLines(s, null).replace(/[ \t\n]+/g, (m) => {
      const sep = next();
      // keep line structure where the original had a line break
      return m.includes('\n') ? (sep.includes('\n') ? sep : `${sep}\n`) : sep.includes('\n') ? ' ' : sep;
    });
  });

/** Damage: characters replaced, inserted or removed (digits, signs, CR, vertical tab, NUL, letters). */
const damaged = fc
  .tuple(
    laidOut,
    fc.array(
      fc.tuple(
        fc.nat(),
        fc.constantFrom(
          '',
          '-',
          '0',
          '9',
          'a',
          '\r',
          '\v',
          '\f',
          '\n',
          ' ',
          '99999999999',
          '2147483647',
          '2147483648',
          '4294967297',
          '0000000001',
          '\u00e9',
        ),
      ),
      {
        maxLength: 4,
      },
    ),
  )
  .map(([text, edits]) => {
    let t = text;
    for (const [at, what] of edits) {
      const i = t.length ? at % t.length : 0;
      t = t.slice(0, i) + what + t.slice(i + (at % 2));
    }
    return t;
  });

describe('parseLines (tuned) gives what the reference parser gives', () => {
  it('on random sheets in random layouts', () => {
    fc.assert(
      fc.property(laidOut, fc.boolean(), (text, strict) => {
        expect(outcome(parseLines, text, strict)).toEqual(outcome(referenceParseLines, text, strict));
      }),
      { numRuns: 400 },
    );
  });

  it('on damaged texts (the same error, line and column)', () => {
    fc.assert(
      fc.property(damaged, fc.boolean(), (text, strict) => {
        expect(outcome(parseLines, text, strict)).toEqual(outcome(referenceParseLines, text, strict));
      }),
      { numRuns: 1000 },
    );
  });

  it('on every zsdx corpus sheet, and on many sheets in a row (reused scratch leaves nothing behind)', () => {
    const texts = corpusFiles().map((id) => readFileSync(path.join(ZSDX, 'old', id), 'utf8'));
    const kept = texts.map((t) => parseLines(t));
    texts.forEach((t, i) => {
      expect(outcome(parseLines, t, false)).toEqual(outcome(referenceParseLines, t, false));
      expect(kept[i]).toEqual(referenceParseLines(t));
    });
  });

  it('a parse nested in a warn callback does not disturb the outer one', () => {
    fc.assert(
      fc.property(laidOut, laidOut, (outer, inner) => {
        const innerWant = outcome(referenceParseLines, inner, false);
        const innerGot: unknown[] = [];
        let got: unknown;
        try {
          got = parseLines(outer, { warn: () => innerGot.push(outcome(parseLines, inner, false)) });
        } catch (e) {
          got = (e as Error).message;
        }
        let want: unknown;
        try {
          want = referenceParseLines(outer, { warn: () => {} });
        } catch (e) {
          want = (e as Error).message;
        }
        expect(got).toEqual(want);
        for (const g of innerGot) expect(g).toEqual(innerWant);
      }),
      { numRuns: 200 },
    );
  });
});

/** A big sheet's text (more than a few 64 KB pieces), its lines laid out in turn with spaces, tabs, CR LF and blank lines. */
function bigText(animations: number): string {
  const seps = [' ', '\t', '  ', ' \t'];
  const ends = ['\n', '\r\n', '\n\n', ' \n'];
  let out = '';
  for (let i = 0; i < animations; i++) {
    const s = seps[i % 4]!;
    out += `anim_${i}${s}img/${i % 7}.png ${1 + (i % 4)}${s}${(i % 5) * 10} ${(i % 3) - 1}${ends[i % 4]}`;
    for (let k = 0; k <= i % 4; k++) out += `${s}${k}\t${k * 16}${s}16 16 8 13 ${1 + (k % 3)} ${1 + (k % 3)}${ends[(i + k) % 4]}`;
  }
  return out;
}

describe('readLines of ASCII bytes (read in 64 KB pieces, the sheet over the bytes) gives what parseLines of the text gives', () => {
  const readBytes = (text: string, opts: Parameters<typeof parseLines>[1]) => readLines(new TextEncoder().encode(text), opts);
  /** readLines as it was: the whole text decoded (a BOM dropped), then parsed. */
  const readText = (text: string, opts: Parameters<typeof parseLines>[1] = {}) =>
    parseLines(decodeText(new TextEncoder().encode(text), opts), opts);
  const base = bigText(4000);

  it('on a big sheet, whole, with a BOM, cut anywhere, and with lines longer than a piece', () => {
    expect(base.length).toBeGreaterThan(3 * 65536);
    for (const text of [base, `\ufeff${base}`, base.slice(0, 65536), base.slice(0, 65537), base.slice(0, 131071)]) {
      expect(outcome(readBytes, text, false)).toEqual(outcome(readText, text, false));
    }
    const long = `${' '.repeat(70000)}${base}${'\t'.repeat(140000)}\nlast x.png 1 0 -1\n${' '.repeat(70000)}1 2 3 4 5 6 7 8`;
    expect(outcome(readBytes, long, false)).toEqual(outcome(readText, long, false));
    const sheet = readBytes(base, {});
    expect(animationStore(sheet)).not.toBeNull();
    expect(sheet).toEqual(referenceParseLines(base));
  });

  it('on damaged big texts (the same error, line and column, warnings and positions)', () => {
    const edit = fc.tuple(
      fc.oneof(fc.nat({ max: base.length - 1 }), fc.constantFrom(65535, 65536, 65537, 131071, 131072)),
      fc.constantFrom('', '-', '0', '9', 'a', '\r', '\v', '\n', ' ', '2147483648', 'anim_3', '\r\n'),
      fc.boolean(),
    );
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 3 }), fc.boolean(), (edits, strict) => {
        let t = base;
        for (const [at, what, cut] of edits) t = t.slice(0, at) + what + t.slice(at + (cut ? 1 : 0));
        expect(outcome(readBytes, t, strict)).toEqual(outcome(readText, t, strict));
      }),
      { numRuns: 40 },
    );
  });
});
