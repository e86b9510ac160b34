import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JSON_OUT_CHUNK, JsonOut, jsonBytes, jsonListText, objectParts } from '../../src/binary/json-out.js';
import { EDGE_NUMBERS } from '../helpers/json-edges.js';

const EDGE_STRINGS = [
  '',
  'a',
  'name',
  '"',
  '\\',
  '\b\f\n\r\t',
  '\u0000\u0001\u001f\u007f',
  'é',
  'ünïcödé 日本',
  '😀',
  '\ud800',
  '\udc00',
  'a\ud800b',
  '\udc00\ud800',
  '</script>',
  'x'.repeat(3 * JSON_OUT_CHUNK),
];

const anyNumber = fc.oneof(
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
  fc.integer({ min: 0, max: 999 }),
  fc.maxSafeInteger(),
  fc.double(),
  fc.constantFrom(...EDGE_NUMBERS),
);
const anyString = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), fc.string(), fc.constantFrom(...EDGE_STRINGS));
const anyValue = fc.oneof(anyNumber, anyString, fc.boolean(), fc.constant(null));

/** The text of writing `values` one after the other (each after a comma), taken in chunks as the writers do. */
function written(values: readonly (number | string | boolean | null)[]): string {
  const o = new JsonOut();
  const comma = jsonBytes(',');
  const parts: string[] = [];
  for (let i = 0; i < values.length; i++) {
    if (i > 0) o.raw(comma);
    o.value(values[i]!);
    if (o.full) parts.push(o.take());
  }
  parts.push(o.take());
  return parts.join('');
}

const stringified = (values: readonly unknown[]): string => values.map((v) => JSON.stringify(v)).join(',');

describe('JsonOut writes values as JSON.stringify does', () => {
  it('numbers: edge values (-0, NaN, Infinity, 2^31, 2^32, 2^53 and above, 1e21, fractions, negatives)', () => {
    expect(written(EDGE_NUMBERS)).toBe(stringified(EDGE_NUMBERS));
    for (const v of EDGE_NUMBERS) {
      const o = new JsonOut();
      o.num(v);
      expect(o.take()).toBe(JSON.stringify(v));
    }
  });

  it('numbers: random ones, many to a buffer', () => {
    fc.assert(
      fc.property(fc.array(anyNumber, { maxLength: 3000 }), (values) => {
        expect(written(values)).toBe(stringified(values));
      }),
      { numRuns: 200 },
    );
  });

  it('strings: escapes, control characters, non-ASCII, lone surrogates, longer than a chunk', () => {
    expect(written(EDGE_STRINGS)).toBe(stringified(EDGE_STRINGS));
    fc.assert(
      fc.property(fc.array(anyString, { maxLength: 50 }), (values) => {
        expect(written(values)).toBe(stringified(values));
      }),
      { numRuns: 300 },
    );
  });

  it('any mix of numbers, strings, booleans and null, and raw bytes between them, across chunks', () => {
    fc.assert(
      fc.property(fc.array(anyValue, { maxLength: 2000 }), (values) => {
        expect(written(values)).toBe(stringified(values));
      }),
      { numRuns: 100 },
    );
    const o = new JsonOut();
    o.bool(true);
    o.bool(false);
    o.raw(jsonBytes(' '.repeat(5 * JSON_OUT_CHUNK)));
    o.ascii('ok');
    expect(o.take()).toBe(`truefalse${' '.repeat(5 * JSON_OUT_CHUNK)}ok`);
  });

  it('slice copies any range of a byte array as it is, short or long, across chunks', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.nat(),
        fc.nat(),
        fc.integer({ min: 0, max: JSON_OUT_CHUNK + 50 }),
        (src, a, b, lead) => {
          const start = src.length ? a % (src.length + 1) : 0;
          const end = start + (src.length ? b % (src.length - start + 1) : 0);
          const o = new JsonOut();
          o.raw(new Uint8Array(lead).fill(32));
          o.slice(src, start, end);
          o.raw(jsonBytes('|'));
          const want = new Uint8Array(lead + end - start + 1).fill(32);
          want.set(src.subarray(start, end), lead);
          want[want.length - 1] = 124;
          // take() decodes UTF-8: compare through the same decoder
          expect(o.take()).toBe(new TextDecoder().decode(want));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('end() gives its buffer to the next JsonOut: writers that take turns, end and write again keep their own text', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.constantFrom('value', 'take', 'end'), anyValue), { maxLength: 300 }),
        (steps) => {
          const outs = [new JsonOut(), new JsonOut(), new JsonOut()];
          const texts = ['', '', ''];
          const expected = ['', '', ''];
          for (const [k, op, v] of steps) {
            const o = outs[k]!;
            if (op === 'value') {
              o.value(v);
              expected[k] += JSON.stringify(v);
            } else texts[k] += op === 'take' ? o.take() : o.end();
          }
          for (let k = 0; k < 3; k++) expect(texts[k] + outs[k]!.end()).toBe(expected[k]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('jsonListText with objectParts writes what JSON.stringify writes for a list of records at any depth and indent', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ a: anyValue, b: anyValue }), { maxLength: 3000 }),
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 1, max: 4 }),
        (items, depth, indent) => {
          const pad = (n: number) => ' '.repeat(n * indent);
          const parts = objectParts(['a', 'b'], depth + 1, pad);
          const text = [
            ...jsonListText(items, depth, pad, (o, x) => {
              o.raw(parts.lead[0]!);
              o.value(x.a);
              o.raw(parts.lead[1]!);
              o.value(x.b);
              o.raw(parts.close);
            }),
          ].join('');
          // The list as JSON.stringify writes it at `depth`: its lines after the first indented by `depth` levels.
          const expected = JSON.stringify(items, null, indent).replace(/\n/g, `\n${pad(depth)}`);
          expect(text).toBe(expected);
        },
      ),
      { numRuns: 100 },
    );
  });
});
