/**
 * Makes the ISPRITE conformance suite, conformance/isprite/: one
 * small file per rule of the specification or erratum of the contract, with
 * what sprat (the reference) prints for it. Run with `npm run conformance`.
 *
 * Every case (scripts/conformance/isprite-cases.ts) states by hand what it
 * expects: the error class and byte offset of an invalid file, the class and
 * offset of each problem `validate` reports, facts of the `inspect --json`
 * document, and the `play --json` records of its scripts. This script runs
 * the command line in-process on each file, requires those expectations, and
 * writes the full outputs as the case's expected.json; it fails, writing
 * nothing, when sprat disagrees with a case. test/isprite/conformance.test.ts
 * requires the committed suite to be what this makes, byte for byte.
 */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { main } from '../src/cli/main.js';
import { CASES, CLASSES, type Case, type Offset, type Rec } from './conformance/isprite-cases.js';

export interface SuiteFile {
  /** Relative to conformance/isprite/, with `/`. */
  name: string;
  bytes: Uint8Array;
}

/** The files the generator makes: cases.json, classes.json, cases/ID/{ID.isprite, expected.json}. */
export const GENERATED = ['cases.json', 'classes.json', 'cases'];

export interface Problem {
  severity: 'error' | 'warning';
  class: string;
  offset: number | null;
  message: string;
}

async function run(argv: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { out: (t) => (stdout += t), err: (t) => (stderr += t), cwd, debug: false });
  return { code, stdout, stderr };
}

/** The class of a problem message (the one whose pattern matches), or an error. */
export function classify(severity: 'error' | 'warning', message: string): string {
  const hits = CLASSES.filter((c) => c.severity === severity && c.pattern.test(message));
  if (hits.length !== 1) throw new Error(`${hits.length} ${severity} classes match "${message}"`);
  return hits[0]!.id;
}

/** `(at byte N)` at the end of a message, or null. */
export function offsetOf(message: string): number | null {
  const m = / \(at byte (\d+)\)$/.exec(message);
  return m ? Number(m[1]) : null;
}

function problem(severity: 'error' | 'warning', message: string): Problem {
  return { severity, class: classify(severity, message), offset: offsetOf(message), message };
}

/** The value at a JSON pointer (`/frames/0/holdTime`). */
function pointer(doc: unknown, p: string): unknown {
  let v: any = doc;
  for (const key of p.split('/').slice(1)) v = v?.[key.replace(/~1/g, '/').replace(/~0/g, '~')];
  return v;
}

const at = (c: Case, o: Offset): number => (typeof o === 'function' ? o(c.bytes) : o);

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

function fail(c: Case, what: string, got: unknown, want: unknown): never {
  throw new Error(`case ${c.id}: ${what}: sprat gives ${JSON.stringify(got)}, the case expects ${JSON.stringify(want)}`);
}

/** Pretty JSON: arrays and objects that fit in a line of 120 characters stay on one line. */
export function formatJson(value: unknown, indent = ''): string {
  const flat = JSON.stringify(value);
  if (flat === undefined) throw new Error('not JSON');
  if (value === null || typeof value !== 'object' || indent.length + flat.length <= 120) return flat;
  const inner = indent + '  ';
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => inner + formatJson(v, inner)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${formatJson(v, inner)}`).join(',\n')}\n${indent}}`;
}

const text = (s: string): Uint8Array => new TextEncoder().encode(s);

/** Runs every case, checks it, and returns the suite's generated files. */
export async function makeIspriteConformance(): Promise<SuiteFile[]> {
  const ids = new Set<string>();
  for (const c of CASES) {
    if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(c.id)) throw new Error(`case id "${c.id}" is not lower-case-with-dashes`);
    if (ids.has(c.id)) throw new Error(`duplicate case id ${c.id}`);
    ids.add(c.id);
  }
  const tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'sprat-conformance-'));
  try {
    const files: SuiteFile[] = [];
    const index: unknown[] = [];
    const used = new Set<string>();
    for (const c of CASES) {
      const dir = `cases/${c.id}`;
      const spriteName = `${dir}/${c.id}.isprite`;
      await fsp.mkdir(path.join(tmp, dir), { recursive: true });
      await fsp.writeFile(path.join(tmp, spriteName), c.bytes);
      const expected = await expectedFor(c, spriteName, tmp);
      for (const p of (expected.validate as { problems: Problem[] }).problems) used.add(p.class);
      const err = (expected.inspect as { error?: Problem }).error;
      if (err) used.add(err.class);
      for (const p of (expected.play ?? []) as { warnings: Problem[] }[]) for (const w of p.warnings) used.add(w.class);
      files.push({ name: spriteName, bytes: c.bytes });
      files.push({ name: `${dir}/expected.json`, bytes: text(formatJson(expected) + '\n') });
      index.push({
        id: c.id,
        section: c.section,
        rule: c.rule,
        expect: (expected.validate as { exitCode: number }).exitCode === 0 ? 'valid' : 'invalid',
        files: { sprite: spriteName, expected: `${dir}/expected.json` },
        commands: ['inspect', 'validate', ...(c.play?.length ? ['play'] : [])],
      });
    }
    const unused = CLASSES.filter((k) => !used.has(k.id)).map((k) => k.id);
    if (unused.length) throw new Error(`classes no case uses: ${unused.join(', ')}`);
    const classes = CLASSES.map((k) => ({
      id: k.id,
      severity: k.severity,
      stage: k.stage,
      description: k.description,
      spratMessage: k.pattern.source,
    }));
    files.unshift(
      { name: 'cases.json', bytes: text(formatJson({ format: 'isprite', suiteVersion: 1, cases: index }) + '\n') },
      { name: 'classes.json', bytes: text(formatJson({ classes }) + '\n') },
    );
    return files;
  } finally {
    await fsp.rm(tmp, { recursive: true, force: true });
  }
}

async function expectedFor(c: Case, spriteName: string, cwd: string): Promise<Record<string, unknown>> {
  // inspect --json
  const ins = await run(['inspect', spriteName, '--json'], cwd);
  let inspect: Record<string, unknown>;
  if (ins.code === 0) {
    if (c.error) fail(c, 'inspect', 'success', c.error);
    const json = JSON.parse(ins.stdout);
    for (const [p, want] of Object.entries(c.facts ?? {})) {
      if (!same(pointer(json, p), want)) fail(c, `inspect ${p}`, pointer(json, p), want);
    }
    inspect = { exitCode: 0, json };
  } else {
    const prefix = `sprat: error: ${spriteName}: `;
    if (!ins.stderr.startsWith(prefix) || !ins.stderr.endsWith('\n') || ins.stderr.split('\n').length !== 2)
      throw new Error(`case ${c.id}: inspect printed ${JSON.stringify(ins.stderr)}`);
    const e = problem('error', ins.stderr.slice(prefix.length, -1));
    if (!c.error) fail(c, 'inspect', e, 'success');
    const want = { exitCode: 1, class: c.error.class, offset: at(c, c.error.offset) };
    if (e.class !== want.class || e.offset !== want.offset || ins.code !== 1)
      fail(c, 'inspect error', { exitCode: ins.code, class: e.class, offset: e.offset }, want);
    if (c.facts) throw new Error(`case ${c.id}: facts for a file that does not read`);
    inspect = { exitCode: ins.code, error: e };
  }

  // validate --json
  const val = await run(['validate', spriteName, '--json'], cwd);
  const [report] = JSON.parse(val.stdout) as { valid: boolean; errors: string[]; warnings: string[] }[];
  const problems = [...report!.errors.map((m) => problem('error', m)), ...report!.warnings.map((m) => problem('warning', m))];
  const wantProblems = [...(c.error ? [c.error] : []), ...(c.problems ?? [])].map((p) => ({
    class: p.class,
    offset: p.offset === undefined || p.offset === null ? null : at(c, p.offset),
  }));
  const key = (p: { class: string; offset: number | null }) => `${p.class}@${p.offset}`;
  const got = problems.map(key).sort();
  const want = wantProblems.map(key).sort();
  if (!same(got, want)) fail(c, 'validate problems', got, want);
  const errors = problems.some((p) => p.severity === 'error');
  if (val.code !== (errors ? 1 : 0) || report!.valid === errors) fail(c, 'validate exit code', val.code, errors ? 1 : 0);

  // play --json
  const play: unknown[] = [];
  for (const p of c.play ?? []) {
    const args = ['--ticks', String(p.ticks), ...(p.script ? ['--script', p.script] : [])];
    const r = await run(['play', spriteName, ...args, '--json'], cwd);
    if (r.code !== 0) fail(c, `play ${args.join(' ')}`, r, 'exit 0');
    const records = JSON.parse(r.stdout) as unknown[];
    const wantRecords = p.records.map((x: Rec, tick: number) => ({
      tick,
      sequence: x[0],
      position: x[1],
      frame: x[2],
      triggers: x[3],
      stopped: x[4],
    }));
    if (!same(records, wantRecords)) {
      const i = records.findIndex((x, k) => !same(x, wantRecords[k]));
      fail(c, `play ${args.join(' ')} record ${i}`, records[i], wantRecords[i]);
    }
    const prefix = `${spriteName}: warning: `;
    const warnings = r.stderr === '' ? [] : r.stderr.slice(0, -1).split('\n');
    for (const w of warnings) if (!w.startsWith(prefix)) throw new Error(`case ${c.id}: play printed ${JSON.stringify(w)}`);
    const classes = warnings.map((w) => classify('warning', w.slice(prefix.length)));
    if (!same(classes, p.warnings ?? [])) fail(c, `play ${args.join(' ')} warnings`, classes, p.warnings ?? []);
    play.push({
      args,
      exitCode: 0,
      records,
      warnings: warnings.map((w) => problem('warning', w.slice(prefix.length))),
    });
  }

  return {
    id: c.id,
    inspect,
    validate: { exitCode: val.code, valid: report!.valid, problems },
    ...(play.length ? { play } : {}),
  };
}

/** Writes the suite into `dir` (default conformance/isprite/), replacing the generated files only. */
export async function writeIspriteConformance(dir: string): Promise<SuiteFile[]> {
  const files = await makeIspriteConformance();
  for (const g of GENERATED) await fsp.rm(path.join(dir, g), { recursive: true, force: true });
  for (const f of files) {
    const target = path.join(dir, f.name);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await fsp.writeFile(target, f.bytes);
  }
  return files;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const dir = path.join(root, 'conformance', 'isprite');
  const files = await writeIspriteConformance(dir);
  const cases = files.filter((f) => f.name.endsWith('.isprite')).length;
  console.log(`${path.relative(root, dir)}: ${cases} cases, ${files.length} files`);
}
