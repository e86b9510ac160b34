/**
 * The ISPRITE conformance suite (conformance/isprite/): the
 * committed files are what scripts/make-conformance.ts makes now, byte for
 * byte (so the suite cannot go stale), and sprat's command line, run
 * in-process, gives every case's expected output, error and records, by the
 * procedure the suite's README gives other implementations.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { ROOT } from '../helpers/paths.js';
import { makeIspriteConformance } from '../../scripts/make-conformance.js';
import { Ajv2020 } from 'ajv/dist/2020.js';

const SUITE = path.join(ROOT, 'conformance', 'isprite');
/** The suite's files that are not generated. */
const HAND_WRITTEN = ['README.md', 'suite.schema.json'];

interface Problem {
  severity: 'error' | 'warning';
  class: string;
  offset: number | null;
  message: string;
}

interface Expected {
  id: string;
  inspect: { exitCode: number; json?: unknown; error?: Problem };
  validate: { exitCode: number; valid: boolean; problems: Problem[] };
  play?: { args: string[]; exitCode: number; records: unknown[]; warnings: Problem[] }[];
}

interface IndexEntry {
  id: string;
  section: string;
  rule: string;
  expect: 'valid' | 'invalid';
  files: { sprite: string; expected: string };
  commands: string[];
}

const index = JSON.parse(readFileSync(path.join(SUITE, 'cases.json'), 'utf8')) as { cases: IndexEntry[] };
const classes = JSON.parse(readFileSync(path.join(SUITE, 'classes.json'), 'utf8')) as { classes: { id: string }[] };

/** Every file under dir, relative, with `/`. */
function listFiles(dir: string, base = dir): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...listFiles(p, base));
    else out.push(path.relative(base, p).split(path.sep).join('/'));
  }
  return out.sort();
}

/** A value's JSON with keys in their order: equal text means equal values, keys in the same order. */
const ordered = (v: unknown): string => JSON.stringify(v);

describe('the ISPRITE conformance suite', () => {
  it('the committed suite is exactly what `npm run conformance` makes now', async () => {
    const files = await makeIspriteConformance();
    const committed = listFiles(SUITE).filter((f) => !HAND_WRITTEN.includes(f));
    expect(committed).toEqual(files.map((f) => f.name).sort());
    for (const f of files) {
      const bytes = readFileSync(path.join(SUITE, f.name));
      expect(Buffer.compare(bytes, f.bytes), `${f.name} differs: run npm run conformance`).toBe(0);
    }
  }, 60_000);

  it('covers the spec broadly: 40+ cases, valid and invalid, every contract erratum and every class of problem', () => {
    const cases = index.cases;
    expect(cases.length).toBeGreaterThanOrEqual(40);
    expect(cases.filter((c) => c.expect === 'valid').length).toBeGreaterThan(20);
    expect(cases.filter((c) => c.expect === 'invalid').length).toBeGreaterThan(20);
    const text = cases.map((c) => c.section).join('\n');
    for (let n = 1; n <= 19; n++) expect(text, `erratum ${n}`).toMatch(new RegExp(`erratum ${n}\\b`));
    for (const s of [
      '§7.2',
      '§7.3',
      '§7.4',
      '§7.5',
      '§7.6',
      '§7.7',
      '§7.8',
      '§7.9',
      '§7.10',
      '§4.1',
      '§4.2',
      '§4.3',
      '§5.2.4',
      '§5.2.5',
      '§5.2.6',
      '§5.2.7',
      '§5.3.3',
      '§5.3.5',
    ])
      expect(text, s).toContain(s);
    const used = new Set<string>();
    for (const c of cases) {
      const e = JSON.parse(readFileSync(path.join(SUITE, c.files.expected), 'utf8')) as Expected;
      expect(e.id).toBe(c.id);
      if (e.inspect.error) used.add(e.inspect.error.class);
      for (const p of e.validate.problems) used.add(p.class);
      for (const r of e.play ?? []) for (const w of r.warnings) used.add(w.class);
    }
    expect([...used].sort()).toEqual(classes.classes.map((k) => k.id).sort());
  });

  it("its README's counts are the suite's", () => {
    const readme = readFileSync(path.join(SUITE, 'README.md'), 'utf8').replace(/\s+/g, ' ');
    const cases = index.cases;
    const expected = cases.map((c) => JSON.parse(readFileSync(path.join(SUITE, c.files.expected), 'utf8')) as Expected);
    const valid = cases.filter((c) => c.expect === 'valid').length;
    const unreadable = expected.filter((e) => e.inspect.exitCode === 1).length;
    const played = cases.filter((c) => c.commands.includes('play')).length;
    expect(readme).toContain(
      `${cases.length} cases: ${valid} valid files (some with warnings) and ${cases.length - valid} invalid ones (${unreadable} that cannot be read at all, ${cases.length - valid - unreadable} that read but break a rule \`validate\` checks); ${played} cases also have playback scripts.`,
    );
    expect(readFileSync(path.join(ROOT, 'docs', 'conformance.md'), 'utf8').replace(/\s+/g, ' ')).toContain(
      `package) is for other ISPRITE implementations: ${cases.length} small files`,
    );
    const largest = Math.max(...cases.map((c) => readFileSync(path.join(SUITE, c.files.sprite)).length));
    expect(largest).toBeLessThan(400);
  });

  it("its files match suite.schema.json, and the outputs in them sprat's schemas", () => {
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
    const schemaDir = path.join(ROOT, 'schemas');
    for (const f of readdirSync(schemaDir).filter((f) => f.endsWith('.schema.json')))
      ajv.addSchema(JSON.parse(readFileSync(path.join(schemaDir, f), 'utf8')));
    ajv.addSchema(JSON.parse(readFileSync(path.join(SUITE, 'suite.schema.json'), 'utf8')));
    const check = (ref: string, value: unknown, what: string): void => {
      const v = ajv.getSchema(ref)!;
      expect(v(value), `${what}: ${ajv.errorsText(v.errors)}`).toBe(true);
    };
    const suite = 'https://sprat.invalid/conformance/isprite/suite.schema.json#/$defs/';
    check(suite + 'cases', index, 'cases.json');
    check(suite + 'classes', classes, 'classes.json');
    for (const c of index.cases) {
      const e = JSON.parse(readFileSync(path.join(SUITE, c.files.expected), 'utf8')) as Expected;
      check(suite + 'expected', e, c.files.expected);
      if (e.inspect.json) check('https://sprat.invalid/schemas/isprite.inspect.schema.json', e.inspect.json, `${c.id} inspect`);
      for (const p of e.play ?? [])
        check('https://sprat.invalid/schemas/play.schema.json#/$defs/ispriteRecords', p.records, `${c.id} play`);
    }
  });

  describe.each(index.cases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const expected = JSON.parse(readFileSync(path.join(SUITE, c.files.expected), 'utf8')) as Expected;

    it('inspect --json', async () => {
      const r = await runCli(['inspect', c.files.sprite, '--json'], SUITE);
      expect(r.code).toBe(expected.inspect.exitCode);
      if (expected.inspect.error) {
        expect(r.stdout).toBe('');
        expect(r.stderr).toBe(`sprat: error: ${c.files.sprite}: ${expected.inspect.error.message}\n`);
        expect(r.stderr).toContain(`(at byte ${expected.inspect.error.offset})`);
      } else {
        expect(ordered(JSON.parse(r.stdout))).toBe(ordered(expected.inspect.json));
        // Warnings the reader finds go to stderr: each is one of the case's validate warnings.
        const warnings = expected.validate.problems
          .filter((p) => p.severity === 'warning')
          .map((p) => `${c.files.sprite}: warning: ${p.message}`);
        for (const line of r.stderr.split('\n').filter((l) => l !== '')) expect(warnings).toContain(line);
      }
    });

    it('validate --json', async () => {
      const r = await runCli(['validate', c.files.sprite, '--json'], SUITE);
      expect(r.code).toBe(expected.validate.exitCode);
      expect(r.code === 0 ? 'valid' : 'invalid').toBe(c.expect);
      const [report] = JSON.parse(r.stdout) as { valid: boolean; errors: string[]; warnings: string[] }[];
      expect(report!.valid).toBe(expected.validate.valid);
      const want = expected.validate.problems;
      expect(report!.errors).toEqual(want.filter((p) => p.severity === 'error').map((p) => p.message));
      expect(report!.warnings).toEqual(want.filter((p) => p.severity === 'warning').map((p) => p.message));
      for (const p of want) expect(p.offset === null ? p.message : p.message.endsWith(`(at byte ${p.offset})`)).toBeTruthy();
    });

    if (expected.play)
      it('play --json', async () => {
        for (const p of expected.play!) {
          const r = await runCli(['play', c.files.sprite, ...p.args, '--json'], SUITE);
          expect(r.code).toBe(p.exitCode);
          expect(ordered(JSON.parse(r.stdout))).toBe(ordered(p.records));
          const warnings = r.stderr.split('\n').filter((l) => l !== '');
          expect(warnings).toEqual(p.warnings.map((w) => `${c.files.sprite}: warning: ${w.message}`));
        }
      });
  });
});
