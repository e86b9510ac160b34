// The number-run writer (NumberRun, src/binary/json-out.ts): windows of typed arrays, int32 digit pairs, the
// lead's spaces filled in advance; every path against JSON.stringify of the plain array.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { jsonChunks, stringifyJson } from '../../src/binary/json-chunks.js';
import { jsonNumbers } from '../../src/binary/json-array.js';
import { NumberRun } from '../../src/binary/json-out.js';
import { EDGE_NUMBERS as EDGES } from '../helpers/json-edges.js';

/** jsonNumbers's element types; NumberRun takes Uint8ClampedArray too. */
const JSON_KINDS = [Int8Array, Uint8Array, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array] as const;
const KINDS = [...JSON_KINDS, Uint8ClampedArray] as const;

const anyNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(...EDGES),
  fc.integer({ min: 0, max: 2 ** 32 - 1 }),
  fc.maxSafeInteger(),
);

const enc = new TextEncoder();
const dec = new TextDecoder();

/** The text NumberRun makes for `a` cut at `max` bytes a write, joined as JSON.stringify's indented array. */
function runText(a: ArrayLike<unknown>, lead: string, max: number, run = new NumberRun()): string {
  const leadBytes = enc.encode(lead);
  let text = '';
  let i = 0;
  while (i < a.length) {
    const next = run.write(a, i, leadBytes, max);
    expect(next).toBeGreaterThan(i);
    text += dec.decode(run.buf.subarray(0, run.end));
    i = next;
  }
  return text;
}

describe('NumberRun', () => {
  it('writes every typed-array type and plain arrays as JSON.stringify does, cut at any byte count, with any lead', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...KINDS, Array),
        fc.array(anyNumber, { maxLength: 80 }),
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 0, max: 12 }),
        fc.boolean(),
        (Kind, values, max, gap, odd) => {
          const a = Kind === Array ? values : new (Kind as (typeof KINDS)[number])(values);
          const plain = Array.from(a as ArrayLike<number>);
          // Indented JSON's lead, or one of another shape (the plain loop).
          const lead = odd ? `,${' '.repeat(gap)}\t` : `,\n${' '.repeat(gap)}`;
          const want = plain.map((v, i) => (i ? lead : lead.slice(1)) + JSON.stringify(v)).join('');
          expect(runText(a, lead, max)).toBe(want);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('writes long typed arrays (many windows, many chunks) as JSON.stringify writes their plain arrays', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...JSON_KINDS),
        fc.integer({ min: 4000, max: 20_000 }),
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.integer({ min: 1, max: 6 }),
        (Kind, n, seed, indent) => {
          const a = new Kind(n);
          let s = seed;
          for (let i = 0; i < n; i++) {
            s = (Math.imul(s, 1103515245) + 12345) | 0;
            a[i] = i % 97 === 0 ? EDGES[(s >>> 8) % EDGES.length]! : i % 3 ? s >> (s & 31) : (s >>> 20) - 600;
          }
          const doc = { layers: [{ cells: { tile: jsonNumbers(a) } }] };
          const want = JSON.stringify({ layers: [{ cells: { tile: Array.from(a) } }] }, null, indent);
          expect(stringifyJson(doc, indent)).toBe(want);
          expect(runText(a, `,\n${' '.repeat(indent)}`, 1 << 16)).toBe(
            Array.from(a, (v, i) => (i ? `,\n${' '.repeat(indent)}` : `\n${' '.repeat(indent)}`) + JSON.stringify(v)).join(''),
          );
        },
      ),
      { numRuns: 30 },
    );
  });

  it('stops at an item that is not a number in a plain array, and the writer writes the rest', () => {
    const a = [1, 2, -0, 'x\n"é', 3, null, 4.5, true, [5], NaN, 2 ** 32, {}, -7];
    expect(stringifyJson({ a })).toBe(JSON.stringify({ a }, null, 2));
    const run = new NumberRun();
    expect(run.write(a, 0, enc.encode(',\n  '), 1000)).toBe(3);
    expect(dec.decode(run.buf.subarray(0, run.end))).toBe('\n  1,\n  2,\n  0');
    expect(run.write(a, 3, enc.encode(',\n  '), 1000)).toBe(3);
    expect(run.end).toBe(0);
  });

  it('a typed array after writes of other kinds and leads (the reused buffer holds no stale bytes)', () => {
    const run = new NumberRun();
    const wide = new Uint32Array(3000).fill(4294967295);
    runText(wide, ',\n', 1 << 16, run);
    runText(wide, ',\tx', 1 << 16, run);
    const small = new Uint8Array(9000).map((_, i) => i % 11);
    expect(runText(small, ',\n        ', 1 << 16, run)).toBe(Array.from(small, (v, i) => (i ? ',\n        ' : '\n        ') + v).join(''));
    runText(wide, ',\n', 1 << 16, run);
    expect(runText(small, ',\n   ', 1 << 16, run)).toBe(Array.from(small, (v, i) => (i ? ',\n   ' : '\n   ') + v).join(''));
  });

  it('jsonChunks of a big typed array is the text of JSON.stringify, in bounded chunks', () => {
    const a = new Int16Array(200_000).map((_, i) => ((i * 7919) % 65536) - 32768);
    const chunks = [...jsonChunks({ cells: jsonNumbers(a) }, 10)];
    expect(chunks.join('')).toBe(JSON.stringify({ cells: Array.from(a) }, null, 10));
    for (const c of chunks) expect(c.length).toBeLessThan(3 << 16);
  });
});
