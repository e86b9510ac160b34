// The Solarus writers were tuned for speed (one TextOut byte buffer, tokens
// of a line-syntax sheet copied from its text, no string per value). These
// properties hold them to the writers as they were (writers-reference.ts):
// the same text, bytes, errors and warnings for random sheets (built, and
// read from random layouts of both syntaxes, as text and as bytes), names
// with any characters (lone surrogates too), and the zsdx corpus files.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatLines,
  formatLua,
  parseLines,
  parseLua,
  readLines,
  readLua,
  writeLines,
  writeLua,
  type SolarusSheet,
} from '../../src/formats/solarus/index.js';
import { corpusFiles, enc, parserSheet, ZSDX } from './helpers.js';
import { referenceFormatLines, referenceFormatLua } from './writers-reference.js';

/** What a writer gives: its text (or error message) and warnings. */
function outcome(write: () => string, warnings: string[]): unknown {
  try {
    return { text: write(), warnings: [...warnings] };
  } catch (e) {
    return { error: (e as Error).message, warnings: [...warnings] };
  }
}

/** The sheet a reader makes of a text, or null when it refuses it (duplicate names: the generator makes some). */
function tryRead(read: () => SolarusSheet): SolarusSheet | null {
  try {
    return read();
  } catch {
    return null;
  }
}

function sameLines(sheet: SolarusSheet, style?: null): void {
  const want = outcome(() => referenceFormatLines(sheet, style), []);
  expect(outcome(() => formatLines(sheet, style), [])).toEqual(want);
  if ('text' in (want as object)) expect(writeLines(sheet, style)).toEqual(enc((want as { text: string }).text));
}

function sameLua(sheet: SolarusSheet, style?: 'converter' | 'editor'): void {
  const w1: string[] = [];
  const w2: string[] = [];
  const want = outcome(() => referenceFormatLua(sheet, (m) => w1.push(m), style), w1);
  expect(outcome(() => formatLua(sheet, (m) => w2.push(m), style), w2)).toEqual(want);
  if ('text' in (want as object)) expect(writeLua(sheet, undefined, style)).toEqual(enc((want as { text: string }).text));
}

const token = fc.stringMatching(/^[A-Za-z0-9_./-]{1,12}$/);
// Anything, white space, quotes, controls, non-ASCII and lone surrogates included.
const anyName = fc.oneof(
  token,
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.constantFrom('', 'a b', 'a\rb', 'é', '\ud800', 'x\udc00y', '"\\\n\u007f'),
);
const sheets = parserSheet(anyName, 4, 5);
const plainSheets = parserSheet(token, 4, 5);

/** The line syntax of a sheet with a random layout: gaps, CR LF, empty lines, numbers with leading zeros or -0. */
const laidOut = fc
  .tuple(
    plainSheets,
    fc.array(fc.constantFrom(' ', '\t', '  ', ' \t', '\r\n', '\n', '\n\n', ' x', '\t9'), { minLength: 1, maxLength: 30 }),
    fc.nat(),
    fc.boolean(),
  )
  .map(([s, seps, seed, zeros]) => {
    let k = seed;
    const next = () => seps[k++ % seps.length]!;
    let t = referenceFormatLines(s, null).replace(/[ \t\n]+/g, (m) => {
      const sep = next();
      return m.includes('\n') ? (sep.includes('\n') ? sep : `${sep}\n`) : sep.includes('\n') ? ' ' : sep;
    });
    if (zeros) t = t.replace(/(^|[ \t])(-?)(\d)/gm, (_m, g, sign, d) => `${g}${sign || (k++ % 5 === 0 ? '-' : '')}0${d}`);
    if (seed % 3 === 0) t = `\ufeff${t}`;
    return t;
  });

describe('the tuned Solarus writers write what the writers as they were wrote', () => {
  it('built sheets: names with any characters, both syntaxes and styles', () => {
    fc.assert(
      fc.property(sheets, (s) => {
        sameLines(s);
        sameLines(s, null);
        sameLua(s);
        sameLua(s, 'editor');
      }),
      { numRuns: 200 },
    );
  });

  it('line-syntax sheets read from random layouts (text and bytes), written in their own layout and as Lua', () => {
    fc.assert(
      fc.property(laidOut, (text) => {
        const fromText = tryRead(() => parseLines(text));
        if (!fromText) return;
        sameLines(fromText);
        sameLines(fromText, null);
        sameLua(fromText);
        const fromBytes = tryRead(() => readLines(enc(text)));
        if (!fromBytes) return;
        sameLines(fromBytes);
        sameLua(fromBytes, 'editor');
      }),
      { numRuns: 400 },
    );
  });

  it('Lua sheets read in either style, written back and as lines', () => {
    fc.assert(
      fc.property(plainSheets, fc.constantFrom<'converter' | 'editor'>('converter', 'editor'), fc.boolean(), (s, style, crlf) => {
        let text = referenceFormatLua(s, undefined, style);
        if (crlf) text = text.replaceAll('\n', '\r\n');
        const fromText = tryRead(() => parseLua(text));
        if (!fromText) return;
        for (const read of [fromText, tryRead(() => readLua(enc(text)))]) {
          if (!read) continue;
          sameLua(read);
          sameLua(read, style === 'editor' ? 'converter' : 'editor');
          sameLines(read);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('every third zsdx corpus file, both syntaxes', () => {
    for (const id of corpusFiles().filter((_, i) => i % 3 === 0)) {
      for (const which of ['old', 'new'] as const) {
        const text = readFileSync(path.join(ZSDX, which, id), 'utf8');
        const sheet = which === 'old' ? parseLines(text) : parseLua(text);
        sameLines(sheet);
        sameLua(sheet);
        sameLua(sheet, 'editor');
      }
    }
  });
});
