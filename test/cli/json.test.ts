import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { jsonChunks, stringifyJson } from '../../src/binary/json-chunks.js';
import { isJsonNumbers, JsonList, jsonNumbers, plainJson } from '../../src/binary/json-array.js';
import { NumberRun } from '../../src/binary/json-out.js';
import { runCli } from '../helpers/cli.js';
import { CORPUS, SAMPLES } from '../helpers/paths.js';
import { createIsprite, writeIsprite, type IspriteGroup } from '../../src/formats/isprite/index.js';

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && !/\.(png|md)$/.test(e.name) && e.name !== 'demo.json')
    .map((e) => path.join(e.parentPath, e.name));
}

describe('the CLI JSON writer', () => {
  it('prints what JSON.stringify(v, null, 2) prints', () => {
    const samples: unknown[] = [
      {},
      [],
      { a: [], b: {} },
      [1, 'x', null, true, false],
      { u: undefined, f: () => 1, n: NaN, i: -Infinity, z: -0 },
      [undefined, () => 1, Symbol('s')],
      { d: new Date(0) },
      { nested: [{ a: [[[]]] }] },
      'str"\n\u2028',
      5,
      null,
      { toJSON: () => ({ x: 1 }) },
      new Uint8Array([1, 2]),
      { s: new String('a'), n: new Number(2), b: new Boolean(false) },
    ];
    for (const v of samples) expect(stringifyJson(v)).toBe(JSON.stringify(v, null, 2));
    expect(stringifyJson(undefined)).toBe(undefined);
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(stringifyJson(v)).toBe(JSON.stringify(v, null, 2));
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withObjectString: true }), (v) => {
        expect(stringifyJson(v)).toBe(JSON.stringify(v, null, 2));
      }),
      { numRuns: 300 },
    );
  });

  it('prints runs of numbers (written as bytes) as JSON.stringify does: any number, mixed with other items, any depth and indent, across chunks', () => {
    const odd = [
      0,
      -0,
      1,
      -1,
      9,
      10,
      99,
      100,
      2 ** 31,
      2 ** 32 - 1,
      0xa0000001,
      2 ** 53 - 1,
      -(2 ** 53 - 1),
      2 ** 53,
      2 ** 53 + 2,
      1e21,
      1.5,
      -0.25,
    ];
    const more = [1e-7, 123.456, NaN, Infinity, -Infinity, Number.MAX_VALUE, Number.MIN_VALUE, 5e-324];
    const samples: unknown[] = [
      odd,
      more,
      [...odd, 'x', null, ...more, { a: odd }, [more], true],
      { deep: [[[[odd]]]] },
      Array.from({ length: 200_000 }, (_, i) => ((i * 7919) % 1000003) * (i % 3 === 0 ? -1 : 1) * (i % 5 === 0 ? 0.5 : 1)),
      new Float64Array(more),
    ];
    for (const v of samples) {
      expect(stringifyJson(v)).toBe(JSON.stringify(v, null, 2));
      expect(stringifyJson(v, 7)).toBe(JSON.stringify(v, null, 7));
    }
    const cells = new Uint32Array(100_000).map((_, i) => (i * 2654435761) >>> 0);
    expect(stringifyJson({ cells: jsonNumbers(cells) })).toBe(JSON.stringify({ cells: Array.from(cells) }, null, 2));
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer(), fc.double(), fc.maxSafeInteger(), fc.constant(null), fc.string())), (v) => {
        expect(stringifyJson(v)).toBe(JSON.stringify(v, null, 2));
      }),
      { numRuns: 300 },
    );
  });

  it('prints typed-array views of every element type at any depth and indent as JSON.stringify prints their numbers', () => {
    const kinds = [Int8Array, Uint8Array, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array] as const;
    fc.assert(
      fc.property(
        fc.constantFrom(...kinds),
        fc.array(fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -0, NaN, Infinity, 2 ** 31, 2 ** 32 - 1))),
        fc.integer({ min: 0, max: 7 }),
        fc.integer({ min: 1, max: 8 }),
        (Kind, values, depth, indent) => {
          const typed = new Kind(values);
          const nest = (a: unknown) => {
            let v: unknown = { cells: a, more: [1, a] };
            for (let d = 0; d < depth; d++) v = d % 2 ? [v] : { x: v };
            return v;
          };
          expect(stringifyJson(nest(jsonNumbers(typed)), indent)).toBe(JSON.stringify(nest(Array.from(typed)), null, indent));
        },
      ),
      { numRuns: 400 },
    );
    // Longer than one piece of text.
    const big = new Int16Array(40_000).map((_, i) => (i * 7919) % 65536);
    expect(stringifyJson({ a: { b: jsonNumbers(big) } })).toBe(JSON.stringify({ a: { b: Array.from(big) } }, null, 2));
  });

  it('writes every kind of jsonNumbers view as JSON.stringify writes its plain array (NumberRun: a number run cut at any byte count)', () => {
    const kinds = [Int8Array, Uint8Array, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array];
    fc.assert(
      fc.property(
        fc.constantFrom(...kinds),
        fc.array(fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -0, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 0xa0000001, -1)), {
          maxLength: 60,
        }),
        fc.integer({ min: 0, max: 4 }),
        (Kind, v, depth) => {
          const a = new Kind(v.length);
          for (let i = 0; i < v.length; i++) a[i] = v[i]!;
          let doc: unknown = { data: jsonNumbers(a) };
          for (let d = 0; d < depth; d++) doc = [doc];
          expect(stringifyJson(doc)).toBe(JSON.stringify(doc, null, 2));
          // Cut anywhere: the pieces join to the same items.
          const run = new NumberRun();
          const lead = new TextEncoder().encode(',\n  ');
          const parts: string[] = [];
          for (let i = 0, max = 1 + (v.length % 7); i < a.length; ) {
            const next = run.write(a, i, lead, max);
            expect(next).toBeGreaterThan(i);
            parts.push(new TextDecoder().decode(run.buf.subarray(0, run.end)));
            i = next;
          }
          if (a.length) expect(`[${parts.join('')}\n]`).toBe(JSON.stringify(Array.from(a), null, 2));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('rejects cycles and BigInt like JSON.stringify', () => {
    const a: Record<string, unknown> = {};
    a.self = a;
    expect(() => stringifyJson(a)).toThrow(TypeError);
    expect(() => stringifyJson({ b: 1n })).toThrow(TypeError);
    const shared = { x: 1 };
    expect(stringifyJson([shared, shared])).toBe(JSON.stringify([shared, shared], null, 2));
  });

  it('prints a tree far deeper than the call stack', () => {
    let v: unknown[] = [];
    const top = v;
    for (let i = 0; i < 50_000; i++) {
      const next: unknown[] = [];
      v.push(next);
      v = next;
    }
    const text = stringifyJson(top)!;
    expect(text.startsWith('[\n  [\n    [')).toBe(true);
    expect(text.length).toBeLessThan(50_000 * 2 * 210);
    expect(JSON.parse(text)).toEqual(expect.any(Array));
  });
});

describe('inspect --json', () => {
  it('prints valid JSON for every sample and corpus file', async () => {
    const files = [...filesUnder(SAMPLES), ...filesUnder(CORPUS)];
    expect(files.length).toBeGreaterThan(10);
    for (const f of files) {
      const r = await runCli(['inspect', f, '--json']);
      expect(r.stderr.includes('internal error'), f).toBe(false);
      if (r.code !== 0) continue; // companions that are not documents, and the corpus's broken files
      expect(() => JSON.parse(r.stdout), f).not.toThrow();
    }
  });

  it('an ISPRITE group tree 20,000 deep prints as JSON', async () => {
    const doc = createIsprite();
    let g: IspriteGroup = { kind: 'group', name: 'g', children: [] };
    doc.tree.push(g);
    for (let i = 0; i < 20_000; i++) {
      const c: IspriteGroup = { kind: 'group', name: 'g', children: [] };
      g.children.push(c);
      g = c;
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-json-'));
    try {
      const file = path.join(dir, 'deep.isprite');
      fs.writeFileSync(file, writeIsprite(doc));
      const r = await runCli(['inspect', file, '--json']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout.length).toBeGreaterThan(20_000 * 10);
      expect(r.stdout.endsWith('}\n')).toBe(true);
      expect(JSON.parse(r.stdout)).toEqual(expect.any(Object));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the JSON writer streams, and writes typed-array numbers without copies', () => {
  it('gives its text a chunk at a time: the first chunk comes before the rest is made, and the chunks make JSON.stringify’s text', () => {
    const big = { cells: Array.from({ length: 300_000 }, (_, i) => (i % 7 === 0 ? -i : i)), tail: [{ a: 'x' }, 1.5, null] };
    const it = jsonChunks(big);
    const first = it.next();
    expect(first.done).toBe(false);
    const text = JSON.stringify(big, null, 2);
    expect(first.value!.length).toBeLessThan(text.length / 10);
    expect(text.startsWith(first.value!)).toBe(true);
    let rest = '';
    for (const c of it) rest += c;
    expect(first.value! + rest).toBe(text);
  });

  it('a jsonNumbers view prints as the plain array, in sprat’s writer and in JSON.stringify; a plain typed array stays what JSON.stringify makes of it', () => {
    const tiles = new Int16Array([1, -2, 3, 32767, -32768]);
    const flags = new Uint16Array(new ArrayBuffer(16), 4, 3).fill(0x8000);
    const doc = {
      tile: jsonNumbers(tiles),
      flags: jsonNumbers(flags),
      f: jsonNumbers(new Float32Array([0.5, -0])),
      empty: jsonNumbers(new Uint8Array(0)),
    };
    const plain = { tile: Array.from(tiles), flags: Array.from(flags), f: [0.5, 0], empty: [] };
    expect(JSON.stringify(doc, null, 2)).toBe(JSON.stringify(plain, null, 2));
    expect(stringifyJson(doc)).toBe(JSON.stringify(plain, null, 2));
    // the view shares memory with the typed array
    tiles[0] = 9;
    expect(doc.tile[0]).toBe(9);
    expect(isJsonNumbers(doc.tile)).toBe(true);
    expect(isJsonNumbers(tiles)).toBe(false);
    expect(stringifyJson({ raw: tiles })).toBe(JSON.stringify({ raw: tiles }, null, 2));
  });

  it('plainJson turns views into arrays in place, however deep the document', () => {
    let deep: { child?: unknown; cells?: unknown } = { cells: jsonNumbers(new Uint8Array([1, 2])) };
    const root = deep;
    for (let i = 0; i < 50_000; i++) deep = deep.child = { cells: jsonNumbers(new Uint8Array([i & 255])) };
    plainJson(root);
    expect(root.cells).toEqual([1, 2]);
    expect(Array.isArray(deep.cells)).toBe(true);
  });

  it('SpriteTile inspect --json of a level prints the cells as before (the sample, against its JSON.parse round trip)', async () => {
    const r = await runCli(['inspect', path.join(SAMPLES, 'spritetile/level.bytes'), '--json']);
    expect(r.code).toBe(0);
    const parsed = JSON.parse(r.stdout) as { layers: { cells: { tile: unknown } }[] };
    expect(Array.isArray(parsed.layers[0]!.cells.tile)).toBe(true);
    expect(r.stdout).toBe(`${JSON.stringify(parsed, null, 2)}\n`);
  });
});

describe('JsonList: records made one at a time as they are written', () => {
  it('prints as JSON.stringify prints the whole array, and the first chunk comes before most items are made', () => {
    let made = 0;
    const list = new JsonList(50_000, (i) => {
      made++;
      return { i, name: `r${i}`, xs: [i, -i] };
    });
    const doc = { records: list, after: true };
    const it = jsonChunks(doc);
    it.next();
    expect(made).toBeLessThan(5_000);
    made = 0;
    expect(stringifyJson(doc)).toBe(JSON.stringify(doc, null, 2));
    expect(made).toBe(50_000 * 2); // once by sprat's writer, once by JSON.stringify's toJSON
    expect(plainJson({ doc }).doc.records).toEqual(list.toJSON());
  });
});
