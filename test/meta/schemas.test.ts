/**
 * The JSON Schemas in schemas/ (draft 2020-12) against what the CLI prints:
 * `inspect --json` of every sample and corpus file, `play --json`,
 * `check --json` and `validate --json`, and every JSON example of the
 * contract. The schemas must be tight: an extra key anywhere, or a missing
 * required one, makes a real output invalid.
 */
import { describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import { runCli } from '../helpers/cli.js';
import { CORPUS, ROOT, SAMPLES, SHARED } from '../helpers/paths.js';
import { FORMAT_NAMES } from '../../src/formats/types.js';
import { load } from '../../src/api.js';
import { writeSpriteTile, type SpriteTileLevel } from '../../src/formats/spritetile/index.js';

const SCHEMAS = path.join(ROOT, 'schemas');
const BASE = 'https://sprat.invalid/schemas/';
const CONTRACT = path.join(SHARED, 'contract');

const schemaFiles = fs
  .readdirSync(SCHEMAS)
  .filter((f) => f.endsWith('.schema.json'))
  .sort();
const schemas = new Map(schemaFiles.map((f) => [f, JSON.parse(fs.readFileSync(path.join(SCHEMAS, f), 'utf8')) as Record<string, unknown>]));

// strict: unknown keywords, types left implicit and the like are errors in the schemas themselves.
const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
for (const s of schemas.values()) ajv.addSchema(s);

function validator(ref: string): ValidateFunction {
  const v = ajv.getSchema(BASE + ref);
  if (!v) throw new Error(`no schema ${ref}`);
  return v;
}

function expectValid(ref: string, value: unknown, what: string): void {
  const v = validator(ref);
  if (!v(value)) throw new Error(`${what} does not match ${ref}: ${ajv.errorsText(v.errors, { separator: '\n  ' })}`);
}

function expectInvalid(ref: string, value: unknown, what: string): void {
  if (validator(ref)(value)) throw new Error(`${what} should not match ${ref}`);
}

/** The schema file that describes a format's inspect JSON. */
const INSPECT_SCHEMA: Record<string, string> = {
  isprite: 'isprite.inspect.schema.json',
  cthg: 'cthg.inspect.schema.json',
  'cthg-script': 'cthg-script.inspect.schema.json',
  spritetile: 'spritetile.inspect.schema.json',
  solarus: 'solarus.inspect.schema.json',
  'solarus-lua': 'solarus.inspect.schema.json',
  'hallgeir-sprite': 'hallgeir.inspect.schema.json',
  'hallgeir-object': 'hallgeir.inspect.schema.json',
  'hallgeir-map': 'hallgeir.inspect.schema.json',
  ase: 'ase.inspect.schema.json',
  aseprite: 'aseprite.inspect.schema.json',
  texturepacker: 'texturepacker.inspect.schema.json',
  tiled: 'tiled.inspect.schema.json',
};

async function inspectJson(file: string): Promise<Record<string, unknown>> {
  const r = await runCli(['inspect', '--json', file]);
  expect(r.code, `${file}: ${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

/** Every file under dir (no symbolic links), sorted. */
function walk(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p));
    else if (e.isFile()) out.push(p);
  }
  return out.sort();
}

const NOT_DOCUMENTS = /\.(png|bmp|txt|md)$/i;
/** Not documents of a format: what `sprat demo` does, and the CTHG builder's description of the fan. */
const NOT_FORMAT_FILES = new Set(['demo.json', 'fan.json']);
const sampleFiles = walk(SAMPLES).filter((f) => !NOT_DOCUMENTS.test(f) && !NOT_FORMAT_FILES.has(path.basename(f)));
const corpusFiles = fs.existsSync(CORPUS)
  ? walk(CORPUS).filter(
      (f) =>
        /\.(dat|bytes)$/.test(f) &&
        // a Solarus quest's other data files are not sprites
        !/quest-editor-initial[\\/]data[\\/](quest\.dat|tilesets[\\/])/.test(f),
    )
  : [];

/**
 * Adds a key to every object of the value in turn (up to `max` of them) and
 * yields each altered copy with the JSON path of the object; objects under
 * `skip` paths are left alone.
 */
function* withExtraKeys(value: unknown, max: number, skip: (p: string) => boolean): Generator<[string, unknown]> {
  const paths: (string | number)[][] = [];
  const visit = (v: unknown, p: (string | number)[]) => {
    if (paths.length >= max) return;
    if (Array.isArray(v)) v.slice(0, 3).forEach((x, i) => visit(x, [...p, i]));
    else if (v !== null && typeof v === 'object') {
      if (skip(p.join('.'))) return;
      paths.push(p);
      for (const [k, x] of Object.entries(v)) visit(x, [...p, k]);
    }
  };
  visit(value, []);
  for (const p of paths) {
    const copy = structuredClone(value) as Record<string | number, unknown>;
    let o: Record<string | number, unknown> = copy;
    for (const k of p) o = o[k] as Record<string | number, unknown>;
    o.spratUnexpectedKey = 1;
    yield [p.join('.') || '(top)', copy];
  }
}

/** Checks a real inspect output against its schemas, and that the schemas refuse it altered. */
function checkInspect(json: Record<string, unknown>, what: string, tight: boolean): void {
  const format = json.format as string;
  expect(INSPECT_SCHEMA[format], `${what}: format ${format}`).toBeDefined();
  expectValid('inspect.schema.json', json, what);
  expectValid(INSPECT_SCHEMA[format]!, json, what);
  if (!tight) return;
  // Tiled's object and image layers are passed through as read: any keys.
  const open = (p: string) => format === 'tiled' && /^layers\.\d+$/.test(p) && !['tilelayer', 'group'].includes(pick(json, p));
  for (const [where, altered] of withExtraKeys(json, 40, open))
    expectInvalid('inspect.schema.json', altered, `${what} with an extra key at ${where}`);
  for (const k of Object.keys(json)) {
    const { [k]: _, ...rest } = json;
    const required = (schemas.get(INSPECT_SCHEMA[format]!)?.required as string[] | undefined) ?? [];
    if (required.includes(k)) expectInvalid(INSPECT_SCHEMA[format]!, rest, `${what} without ${k}`);
  }
  expectInvalid('inspect.schema.json', { ...json, format: 'nonsense' }, `${what} with an unknown format`);
}

function pick(v: unknown, p: string): string {
  let o = v as Record<string, unknown>;
  for (const k of p.split('.')) o = o[k] as Record<string, unknown>;
  return String(o?.type);
}

describe('the schemas themselves', () => {
  it('are draft 2020-12, each $id is its file name under one base, and index.json lists every one', () => {
    const index = JSON.parse(fs.readFileSync(path.join(SCHEMAS, 'index.json'), 'utf8')) as { schemas: { file: string; id: string }[] };
    expect(index.schemas.map((s) => s.file).sort()).toEqual(schemaFiles);
    for (const [file, s] of schemas) {
      expect(s.$schema, file).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(s.$id, file).toBe(BASE + file);
      expect(index.schemas.find((e) => e.file === file)?.id).toBe(s.$id);
      expect(typeof s.title, file).toBe('string');
      expect(typeof s.description, file).toBe('string');
    }
    // every format has its inspect schema, and the dispatching one names them all
    expect(Object.keys(INSPECT_SCHEMA).sort()).toEqual([...FORMAT_NAMES].sort());
    const dispatch = schemas.get('inspect.schema.json') as { properties: { format: { enum: string[] } } };
    expect(dispatch.properties.format.enum.sort()).toEqual([...FORMAT_NAMES].sort());
  });

  it('the package ships them', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files).toContain('schemas');
  });

  it('are not trivially permissive', () => {
    for (const ref of ['inspect.schema.json', 'play.schema.json', 'check.schema.json', 'validate.schema.json']) {
      for (const v of [null, 1, 'x', { format: 'isprite' }, [{}], { files: [] }]) expectInvalid(ref, v, JSON.stringify(v));
    }
  });
});

describe('inspect --json matches the schemas', () => {
  it('every sample', async () => {
    expect(sampleFiles.length).toBeGreaterThanOrEqual(12);
    const seen = new Set<string>();
    for (const f of sampleFiles) {
      const json = await inspectJson(f);
      seen.add(json.format as string);
      checkInspect(json, path.relative(ROOT, f), true);
    }
    // the samples cover every format but TexturePacker, which is made by converting one, and CorsixTH
    // scripts, which are made by decompiling one (next test)
    // (and native Aseprite files, which sprat does not write: test/interop/ase.test.ts checks them against their schema)
    expect([...seen].sort()).toEqual(FORMAT_NAMES.filter((f) => f !== 'texturepacker' && f !== 'cthg-script' && f !== 'ase').sort());
  });

  it("CorsixTH animation scripts: the encoder test script and the samples' CTHG file decompiled", async () => {
    checkInspect(await inspectJson(path.join(CORPUS, 'cthg/encoder-test/anims.txt')), 'cthg/encoder-test/anims.txt', true);
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-schemas-script-'));
    try {
      const out = path.join(tmp, 'fan.txt');
      const r = await runCli(['convert', path.join(SAMPLES, 'cthg/fan.dat'), out]);
      expect(r.code, r.stderr).toBe(0);
      checkInspect(await inspectJson(out), 'fan.dat decompiled', true);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('TexturePacker, Aseprite and Tiled as sprat writes them (hash and array layouts)', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-schemas-'));
    try {
      const hero = path.join(SAMPLES, 'isprite/hero.isprite');
      for (const [to, ext] of [
        ['texturepacker', 'json'],
        ['aseprite', 'json'],
      ] as const) {
        const out = path.join(tmp, `${to}.${ext}`);
        const r = await runCli(['convert', hero, out, '--to', to]);
        expect(r.code, r.stderr).toBe(0);
        const json = await inspectJson(out);
        checkInspect(json, `${to} from hero.isprite`, true);
        // the same sheet in the array layout
        const raw = JSON.parse(fs.readFileSync(out, 'utf8')) as { frames: Record<string, object> };
        raw.frames = Object.entries(raw.frames).map(([filename, f]) => ({ filename, ...f })) as never;
        const arr = path.join(tmp, `${to}-array.json`);
        fs.writeFileSync(arr, JSON.stringify(raw));
        const json2 = await inspectJson(arr);
        expect(json2.layout).toBe('array');
        checkInspect(json2, `${to} in the array layout`, true);
        expectInvalid(INSPECT_SCHEMA[to]!, { ...json2, layout: 'hash' }, 'array frames under layout "hash"');
      }
      const level = path.join(tmp, 'level.tmj');
      const r = await runCli(['convert', path.join(SAMPLES, 'spritetile/level.bytes'), level]);
      expect(r.code, r.stderr).toBe(0);
      checkInspect(await inspectJson(level), 'tiled from level.bytes', true);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('a SpriteTile float that JSON cannot hold (NaN, an infinity) prints as null, and the schema says so', async () => {
    const loaded = load(fs.readFileSync(path.join(SAMPLES, 'spritetile/level.bytes')), 'level.bytes');
    const level = loaded.doc as SpriteTileLevel;
    level.layers![0]!.tileSizeX = Number.NaN;
    level.layers![0]!.z = Number.POSITIVE_INFINITY;
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-schemas-'));
    try {
      const file = path.join(tmp, 'nan.bytes');
      fs.writeFileSync(file, writeSpriteTile(level));
      const json = await inspectJson(file);
      const layer = (json.layers as Record<string, unknown>[])[0]!;
      expect([layer.tileSizeX, layer.z]).toEqual([null, null]);
      checkInspect(json, 'a level with NaN and infinity', false);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  it.skipIf(corpusFiles.length === 0 && !process.env.CI)(
    'every corpus file (CTHG, SpriteTile levels, Solarus sprites in both syntaxes)',
    async () => {
      expect(corpusFiles.length).toBeGreaterThan(450);
      const formats = new Map<string, number>();
      for (const f of corpusFiles) {
        const json = await inspectJson(f);
        formats.set(json.format as string, (formats.get(json.format as string) ?? 0) + 1);
        // the extra-key sweep once per format is enough (the shapes repeat)
        checkInspect(json, path.relative(CORPUS, f), (formats.get(json.format as string) ?? 0) <= 2);
      }
      expect(formats.get('cthg')).toBe(2);
      expect(formats.get('spritetile')).toBe(16);
      expect(formats.get('solarus')).toBe(207);
      expect(formats.get('solarus-lua')).toBe(207 + 55);
    },
    120_000,
  );
});

describe('play --json matches the schemas', () => {
  const runs: [string, string[], string][] = [
    [
      'isprite/hero.isprite',
      ['--ticks', '40', '--script', '0:play nothing-here;2:play idle;10:group Root/Armed;10:play attack;30:restart'],
      'ispriteRecords',
    ],
    ['isprite/hero.isprite', ['--ticks', '3'], 'ispriteRecords'],
    ['cthg/fan.dat', ['--ticks', '12'], 'cthgRecords'],
    ['solarus/sprites/slime.dat', ['--ms', '3000', '--step-ms', '50'], 'timedRecords'],
    ['solarus/sprites/slime_lua.dat', [], 'timedRecords'],
    ['hallgeir/hero.spr', ['--ms', '2000', '--step-ms', '33'], 'timedRecords'],
    ['hallgeir/coin.spr', [], 'timedRecords'],
  ];
  for (const [file, args, kind] of runs) {
    it(`${file} ${args.join(' ')}`, async () => {
      const r = await runCli(['play', path.join(SAMPLES, file), ...args, '--json']);
      expect(r.code, r.stderr).toBe(0);
      const records = JSON.parse(r.stdout) as Record<string, unknown>[];
      expect(records.length).toBeGreaterThan(0);
      expectValid('play.schema.json', records, file);
      expectValid(`play.schema.json#/$defs/${kind}`, records, file);
      for (const [where, altered] of withExtraKeys(records, 3, () => false))
        expectInvalid('play.schema.json', altered, `${file} at ${where}`);
      const { [Object.keys(records[0]!)[0]!]: _, ...fewer } = records[0]!;
      expectInvalid('play.schema.json', [fewer], `${file} without its first key`);
    });
  }

  it('an ISPRITE record with no sequence must say stopped, with no position or frame', () => {
    const ref = 'play.schema.json#/$defs/ispriteRecord';
    expectValid(ref, { tick: 0, sequence: null, position: null, frame: null, triggers: [], stopped: true }, 'no sequence');
    expectInvalid(ref, { tick: 0, sequence: null, position: 0, frame: 1, triggers: [], stopped: true }, 'no sequence, a frame');
    expectInvalid(ref, { tick: 0, sequence: null, position: null, frame: null, triggers: [], stopped: false }, 'no sequence, playing');
    expectInvalid(ref, { tick: 0, sequence: 'Root/idle', position: 0, frame: 0, triggers: [''], stopped: false }, 'an empty trigger');
  });

  it.skipIf(!fs.existsSync(CORPUS) && !process.env.CI)('every animation of the CorsixTH plant', async () => {
    const plant = path.join(CORPUS, 'cthg/plant_anim.dat');
    const json = await inspectJson(plant);
    for (const a of json.animations as { name: string }[]) {
      const r = await runCli(['play', plant, '--animation', a.name, '--ticks', '3', '--json']);
      expect(r.code, r.stderr).toBe(0);
      expectValid('play.schema.json#/$defs/cthgRecords', JSON.parse(r.stdout), a.name);
    }
  });
});

describe('check --json and validate --json match the schemas', () => {
  it('check over the samples (no problems) and over a folder with errors and warnings', async () => {
    const clean = await runCli(['check', SAMPLES, '--json']);
    const report = JSON.parse(clean.stdout);
    expectValid('check.schema.json', report, 'check samples');
    expect(report.files.length).toBeGreaterThan(10);
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-schemas-check-'));
    try {
      fs.mkdirSync(path.join(tmp, 'sprites'));
      const slime = fs.readFileSync(path.join(SAMPLES, 'solarus/sprites/slime.dat'), 'utf8');
      fs.writeFileSync(path.join(tmp, 'sprites/warn.dat'), slime.replace(/^(stopped enemies\/slime\.png 4 0 -1)/, '$1 extra'));
      fs.writeFileSync(path.join(tmp, 'bad.isprite'), fs.readFileSync(path.join(SAMPLES, 'isprite/hero.isprite')).subarray(0, 40));
      fs.writeFileSync(path.join(tmp, 'notes.bin'), 'hello');
      const r = await runCli(['check', tmp, path.join(tmp, 'notes.bin'), '--json']);
      expect(r.code).toBe(1);
      const bad = JSON.parse(r.stdout);
      expectValid('check.schema.json', bad, 'check with problems');
      const problems = bad.files.flatMap((f: { problems: object[] }) => f.problems);
      expect(problems.some((p: { offset?: number }) => p.offset !== undefined)).toBe(true);
      expect(problems.some((p: { line?: number }) => p.line !== undefined)).toBe(true);
      expect(bad.files.some((f: { format: unknown }) => f.format === null)).toBe(true);
      // the project files check reads: a Tiled project, Theme Hospital data beside CorsixTH graphics, an encoder script
      fs.writeFileSync(path.join(tmp, 'game.tiled-project'), '{"folders": ["."], "propertyTypes": [{"name": "A"}, {"name": "A"}]}');
      fs.mkdirSync(path.join(tmp, 'Data'));
      fs.writeFileSync(path.join(tmp, 'Data/VSPR-0.TAB'), new Uint8Array([9, 0, 0, 0, 1, 1]));
      fs.writeFileSync(path.join(tmp, 'Data/VSPR-0.DAT'), new Uint8Array(4));
      fs.writeFileSync(path.join(tmp, 'Data/MPalette.dat'), new Uint8Array(700));
      fs.cpSync(path.join(CORPUS, 'cthg/encoder-test'), path.join(tmp, 'enc'), { recursive: true });
      const project = JSON.parse((await runCli(['check', tmp, '--json'])).stdout);
      expectValid('check.schema.json', project, 'check of project files');
      const formats = new Set(project.files.map((f: { format: unknown }) => f.format));
      for (const f of ['tiled-project', 'th-sprite-table', 'th-palette', 'cthg-script']) expect(formats.has(f), f).toBe(true);
      for (const [where, altered] of withExtraKeys(bad, 20, () => false)) expectInvalid('check.schema.json', altered, `check at ${where}`);

      const v = await runCli([
        'validate',
        '--json',
        ...sampleFiles.slice(0, 4),
        path.join(tmp, 'bad.isprite'),
        path.join(tmp, 'missing.spr'),
      ]);
      expect(v.code).toBe(1);
      const results = JSON.parse(v.stdout);
      expectValid('validate.schema.json', results, 'validate');
      expect(results.filter((x: { valid: boolean }) => !x.valid)).toHaveLength(2);
      for (const [where, altered] of withExtraKeys(results, 10, () => false))
        expectInvalid('validate.schema.json', altered, `validate at ${where}`);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  it.skipIf(!fs.existsSync(CORPUS) && !process.env.CI)(
    'check over the corpus quest (its real problems)',
    async () => {
      const r = await runCli(['check', path.join(CORPUS, 'solarus/quest-editor-initial'), '--json']);
      const report = JSON.parse(r.stdout);
      expectValid('check.schema.json', report, 'check corpus quest');
      expect(report.summary.errors).toBeGreaterThan(0);
    },
    60_000,
  );
});

/** The JSON values of a ```json block (one may hold several, one after another). */
function jsonValues(text: string): unknown[] {
  const out: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      if (depth++ === 0) start = i;
    } else if (c === '}' || c === ']') {
      if (--depth === 0) out.push(JSON.parse(text.slice(start, i + 1)));
    }
  }
  return out;
}

describe.skipIf(!fs.existsSync(CONTRACT) && !process.env.CI)("the contract's examples match the schemas", () => {
  it('every ```json block of every contract file', () => {
    let count = 0;
    const formats = new Set<string>();
    for (const f of fs.readdirSync(CONTRACT).filter((x) => x.endsWith('.md'))) {
      const md = fs.readFileSync(path.join(CONTRACT, f), 'utf8');
      for (const m of md.matchAll(/```json\n([\s\S]*?)```/g)) {
        for (const v of jsonValues(m[1]!)) {
          count++;
          const what = `${f} example ${count}`;
          const o = v as Record<string, unknown>;
          if (typeof o.format === 'string') {
            formats.add(o.format);
            expectValid('inspect.schema.json', o, what);
            expectValid(INSPECT_SCHEMA[o.format]!, o, what);
          } else if ('tick' in o && 'sequence' in o) expectValid('play.schema.json#/$defs/ispriteRecord', o, what);
          else if ('tick' in o) expectValid('play.schema.json#/$defs/cthgRecord', o, what);
          else if ('time' in o) expectValid('play.schema.json#/$defs/timedRecord', o, what);
          else throw new Error(`${what}: a JSON example no schema is for: ${JSON.stringify(v).slice(0, 80)}`);
        }
      }
    }
    expect(count).toBeGreaterThanOrEqual(8);
    expect([...formats].sort()).toEqual(['cthg', 'hallgeir-map', 'hallgeir-object', 'hallgeir-sprite', 'isprite', 'solarus', 'spritetile']);
  });
});
