import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { stringifyJson } from '../../src/cli/json.js';
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
