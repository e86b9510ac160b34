import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { FormatError, OptionError } from '../../src/binary/errors.js';
import { LimitError, LIMIT_SPECS } from '../../src/binary/limits.js';
import { UnknownFormatError } from '../../src/api.js';
import { classify, commandsFor, optionsFor, type FuzzJob } from '../../src/fuzz/commands.js';
import { hostileSeeds } from '../../src/fuzz/hostile.js';
import { mutateText, rng } from '../../src/fuzz/mutate.js';
import { FuzzPool, DEFAULT_POOL } from '../../src/fuzz/node/pool.js';
import { cliFor, collectSeeds, fuzz, formatSummary, type Finding, type Seed } from '../../src/fuzz/node/run.js';
import { randomWorkSeed, WORK_FORMATS, workSeeds } from '../../src/fuzz/work.js';
import { runCommand } from '../../src/fuzz/commands.js';
import { fsResourceLoader } from '../../src/node/fs.js';
import { getFormat } from '../../src/registry.js';
import type { FormatName } from '../../src/formats/types.js';
import { ROOT, SAMPLES } from '../helpers/paths.js';

/**
 * Findings the deterministic run knows about and does not run (each is a real
 * bug, left to the change that owns the code). Each has a test below, skipped
 * with its reason, that runs exactly that input and command.
 */
interface KnownFinding {
  /** The seed, as FuzzOptions names it (`hostile:NAME` or a path under samples/). */
  seed: string;
  format: string;
  /** Commands that fail on it (a RegExp over the command name). */
  commands: RegExp;
  reason: string;
  /** The input, when it is not a hostile seed (found by mutation); its resources come from samples/interop. */
  bytes?: () => Uint8Array;
}

/**
 * Findings the fuzzer made that are fixed since (the budgets of the hostile
 * branch: --max-items for model frames, the pipeline's --max-pixels before a
 * level canvas, MIN_DRAW_CHARGE): they run on every test run and must stay fixed.
 */
const FIXED_FINDINGS: KnownFinding[] = [
  {
    seed: 'hostile:frames-1e9.dat',
    format: 'solarus',
    commands: /^convert:(?!solarus$)/,
    reason:
      'Solarus nb_frames 10^9: sheetToModel makes one model frame per frame, heap out of memory in every conversion; needs the work budget across model frames ("Budgets")',
  },
  {
    seed: 'hostile:frames-1e9-lua.dat',
    format: 'solarus-lua',
    commands: /^convert:(?!solarus-lua$)/,
    reason: 'the same in the Lua syntax (num_frames 10^9)',
  },
  {
    seed: 'hostile:layer-0x2e31.tmj',
    format: 'tiled',
    commands: /^render-/,
    reason:
      'a Tiled layer 0 x 2^31-1: renderLevelModel (src/model/bake-level.ts) allocates the whole canvas, RangeError "Invalid typed array length"; needs the --max-pixels budget before createImage ("Budgets")',
  },
  {
    seed: 'mutation of hostile:anim-1e4.json',
    format: 'texturepacker',
    commands: /^convert:aseprite$/,
    reason:
      'a TexturePacker animation of 10^4 frames of 16x65535 (rotated, scale 0.0001) to Aseprite bakes every frame: over 10 s of CPU; needs the --max-pixels / --max-draw-pixels budget in the model bake ("Budgets")',
    bytes: () =>
      new TextEncoder().encode(
        `{"frames":{"a":{"frame":{"x":0,"y":0,"w":16,"h":65535},"rotated":true,"trimmed":false,"spriteSourceSize":{"x":0,"y":0,"w":16,"h":16},"sourceSize":{"w":16,"h":16}}},"animations":{"a":[${Array(10000).fill('"a"').join(',')}]},"meta":{"image":"hero.png","format":"RGBA8888","size":{"w":48,"h":16},"scale":"0.0001"}}`,
      ),
  },
  {
    seed: 'mutation of hostile:chunks.tmj',
    format: 'tiled',
    commands: /^render-/,
    reason:
      'a finite Tiled map (the "infinite" key mutated) whose layer has chunks at -2^31 and 2^31-1: the chunks were merged into one dense grid of their bounds, RangeError "Invalid array length"; the grid is now charged to --max-pixels first',
    bytes: () =>
      new TextEncoder().encode(
        '{"type":"map","orientation":"orthogonal","renderorder":"right-down","width":1,"height":1,"tilewidth":8,"tileheight":8,"xnfinite":true,"layers":[{"type":"tilelayer","name":"a","startx":-2147483648,"starty":0,"width":1,"height":1,"x":0,"y":0,"chunks":[{"x":-2147483648,"y":2147483647,"width":1,"height":1,"data":[1]},{"x":2147483647,"y":-2147483648,"width":1,"height":1,"data":[1]}]}],"tilesets":[{"firstgid":1,"name":"t","image":"tiles.png","imagewidth":16,"imageheight":16,"tilewidth":8,"tileheight":8,"tilecount":4,"columns":2}]}',
      ),
  },
];

/** Findings not fixed yet: the short run leaves them out; FUZZ_KNOWN=1 runs them. */
export const KNOWN_FINDINGS: KnownFinding[] = [];

const known = (seed: Seed, command: string) =>
  KNOWN_FINDINGS.some((k) => k.seed === seed.origin && k.format === seed.format && k.commands.test(command));

function describeFinding(f: Finding): string {
  return `${f.format} ${f.command}: ${f.cls}: ${f.message} (seed ${f.seed}; ${cliFor(f.job)})`;
}

describe('fuzzing every command', () => {
  it('a short deterministic run over every format and command finds nothing', async () => {
    const summary = await fuzz({
      seed: 0x5eed10,
      inputsPerFormat: 12,
      headerVariants: 2,
      jobs: 2,
      roots: [SAMPLES],
      samplesDir: SAMPLES,
      findingsDir: null,
      skip: known,
      // (the work bombs cost seconds each: their own test below reads them, the sweep and `npm run fuzz` run them)
      workSeeds: false,
      pool: { heapMb: 384 },
    });
    expect(summary.findings.map(describeFinding)).toEqual([]);
    // counted by seed family; the slowest run and the peak memory named
    expect(summary.families.isprite?.sample).toBeGreaterThan(0);
    expect(summary.families.tiled?.hostile).toBeGreaterThan(0);
    expect((summary.families.solarus?.['solarus-sheet'] ?? 0) + (summary.families['solarus-lua']?.['solarus-sheet'] ?? 0)).toBeGreaterThan(
      0,
    );
    expect(summary.families.tiled?.work).toBeUndefined();
    expect(summary.slowest?.cpuMs).toBeGreaterThan(0);
    expect(summary.peakRssMb).toBeGreaterThan(0);
    // Every format got inputs of its own, JSON ones included, and every command ran.
    for (const f of [
      'isprite',
      'cthg',
      'spritetile',
      'solarus',
      'solarus-lua',
      'hallgeir-sprite',
      'hallgeir-object',
      'hallgeir-map',
      'aseprite',
      'texturepacker',
      'tiled',
    ]) {
      expect(summary.inputs[f], f).toBeGreaterThan(12);
      expect(Object.keys(summary.counts[f]!).sort(), f).toEqual(commandsFor(getFormat(f)!).sort());
    }
    expect(formatSummary(summary)).toMatch(/^\d+ inputs .* 0 findings\n/);
  }, 120_000);

  for (const [k, fixed] of [...KNOWN_FINDINGS.map((f) => [f, false] as const), ...FIXED_FINDINGS.map((f) => [f, true] as const)]) {
    // FUZZ_KNOWN=1 runs the known ones (they fail until fixed); fixed ones always run.
    (fixed || process.env.FUZZ_KNOWN === '1' ? it : it.skip)(
      `${fixed ? 'FIXED' : 'KNOWN'} FINDING: ${k.seed} ${k.commands}: ${k.reason}`,
      async () => {
        const seed = k.bytes
          ? { name: 'finding.json', format: k.format as FormatName, dir: 'interop', bytes: k.bytes() }
          : hostileSeeds().find((h) => `hostile:${h.name}` === k.seed)!;
        const pool = new FuzzPool({ ...DEFAULT_POOL, jobs: 1 });
        try {
          for (const command of commandsFor(getFormat(k.format)!).filter((c) => k.commands.test(c))) {
            const job: FuzzJob = {
              bytes: seed.bytes,
              fileName: seed.name,
              format: seed.format,
              command,
              options: optionsFor(seed.format, command),
            };
            const r = await pool.run(job, path.join(SAMPLES, seed.dir));
            expect(r.finding, `${command}: ${r.cls} ${r.message}`).toBe(false);
          }
        } finally {
          await pool.close();
        }
      },
      120_000,
    );
  }
});

const selfJob = (command: string): FuzzJob => ({ bytes: new Uint8Array(), fileName: 'x', command, options: {} });

describe('the fuzzing pool', () => {
  it('stops a job on its CPU time, a full heap, and sorts exceptions', async () => {
    const pool = new FuzzPool({ jobs: 2, cpuMs: 200, wallMs: 120_000, heapMb: 64, rssMb: 8192 });
    try {
      // The full heap in a pool of its own with a CPU limit it cannot reach: filling 64 MB takes
      // more than 200 ms of CPU on a loaded machine, and the test must not depend on load.
      const heapPool = new FuzzPool({ jobs: 1, cpuMs: 60_000, wallMs: 120_000, heapMb: 64, rssMb: 8192 });
      const [spin, heap, thrown, read] = await Promise.all([
        pool.run(selfJob('selftest:spin'), SAMPLES),
        heapPool.run(selfJob('selftest:heap'), SAMPLES).finally(() => heapPool.close()),
        pool.run(selfJob('selftest:throw'), SAMPLES),
        pool.run({ ...selfJob('read'), format: 'isprite' }, SAMPLES),
      ]);
      expect(spin.cls).toBe('cpu-time-out');
      expect(spin.cpuMs).toBeGreaterThanOrEqual(200);
      expect(heap.cls).toBe('heap-out-of-memory');
      expect(thrown).toMatchObject({ cls: 'TypeError', finding: true });
      expect(read).toMatchObject({ cls: 'FormatError', finding: false });
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('reports a job blocked without using CPU as a hang, with the CPU time it used', async () => {
    const pool = new FuzzPool({ jobs: 1, cpuMs: 10_000, wallMs: 1500, heapMb: 64, rssMb: 8192 });
    try {
      const sleep = await pool.run(selfJob('selftest:sleep'), SAMPLES);
      expect(sleep.cls).toBe('hang');
      expect(sleep.cpuMs).toBeLessThan(1000);
      expect(sleep.message).toMatch(/no answer after \d+ s of wall time, having used \d+ ms of CPU/);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('accepts the errors the CLI reports in one line, and nothing else', () => {
    expect(classify(new FormatError('isprite', 'bad', { offset: 3 }))).toMatchObject({ cls: 'FormatError', finding: false });
    expect(classify(new OptionError('option --x'))).toMatchObject({ cls: 'OptionError', finding: false });
    expect(classify(new LimitError(LIMIT_SPECS[0]!, 'a frame', 10, 5))).toMatchObject({ cls: 'LimitError', finding: false });
    expect(classify(new UnknownFormatError('converting to x is not supported'))).toMatchObject({
      cls: 'UnknownFormatError',
      finding: false,
    });
    expect(classify(Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' }))).toMatchObject({
      cls: 'FsError',
      finding: false,
    });
    expect(classify(new RangeError('Maximum call stack size exceeded'))).toMatchObject({ cls: 'RangeError', finding: true });
    expect(classify(Object.assign(new Error('x'), { code: 'ERR_OUT_OF_RANGE' }))).toMatchObject({ cls: 'Error', finding: true });
    expect(classify(new UnknownFormatError('two\nlines'))).toMatchObject({ cls: 'UnknownFormatError(multi-line message)', finding: true });
    // OptionError (like FormatError and LimitError) makes its message one line itself.
    expect(classify(new OptionError('two\nlines'))).toMatchObject({ cls: 'OptionError', finding: false });
  });
});

describe('inputs', () => {
  it('every format gets seeds of its own, the JSON formats and hostile seeds included', () => {
    const names = new Set(hostileSeeds().map((h) => h.format));
    for (const f of ['solarus', 'solarus-lua', 'tiled', 'aseprite', 'texturepacker']) expect(names.has(f as never), f).toBe(true);
  });

  it('the work bombs (small files that ask for much work) are seeds of their formats, and every one reads', async () => {
    const seeds = collectSeeds([SAMPLES], SAMPLES, 0);
    const work = seeds.filter((s) => s.family === 'work');
    expect(new Set(work.map((s) => s.format))).toEqual(new Set(WORK_FORMATS));
    expect(work.map((s) => s.name)).toEqual(workSeeds().map((s) => s.name));
    const random = rng(25);
    for (const w of work) expect(w.bytes.length, w.name).toBeLessThan(1 << 20);
    // (read here only the smaller ones: the 1024x1024 blend bomb and the levels of millions of cells take
    // seconds to read, and test/hostile/work.test.ts runs them)
    const made = [
      ...work.filter((w) => w.bytes.length < 100_000),
      ...WORK_FORMATS.flatMap((f) => [0, 1].map((i) => randomWorkSeed(random, f, i))),
    ];
    for (const w of made) {
      const r = await runCommand(
        { bytes: w.bytes, fileName: w.name, format: w.format, command: 'read', options: optionsFor(w.format, 'read') },
        fsResourceLoader('dir' in w && path.isAbsolute(w.dir) ? w.dir : path.join(SAMPLES, w.dir)),
      );
      expect(r, w.name).toEqual({ cls: 'ok', finding: false });
    }
  });

  it('text mutations replace numbers with boundary values and are deterministic', () => {
    const input = new TextEncoder().encode('{"w": 16, "h": 16}');
    const a = [...Array(20)].map(
      (
        (r) => () =>
          new TextDecoder().decode(mutateText(input, r))
      )(rng(7)),
    );
    const b = [...Array(20)].map(
      (
        (r) => () =>
          new TextDecoder().decode(mutateText(input, r))
      )(rng(7)),
    );
    expect(a).toEqual(b);
    expect(a.some((t) => /2147483648|1e15|NaN|-1/.test(t))).toBe(true);
  });

  it('prints the command line that shows a finding', () => {
    const job: FuzzJob = { bytes: new Uint8Array(), fileName: 'a.dat', format: 'solarus', command: 'convert:tiled', options: {} };
    expect(cliFor(job, 'a.dat')).toBe('sprat convert a.dat out.tmj --from solarus --to tiled');
    expect(cliFor({ ...job, command: 'render-frame', options: { frame: '0' } }, 'a.dat')).toBe(
      'sprat render a.dat --format solarus --frame "0" -o out.png',
    );
  });
});

describe('npm run fuzz', () => {
  it('--help prints the help and runs nothing', () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/fuzz.mjs'), '--help'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^usage: npm run fuzz/);
    expect(r.stdout).toMatch(/--seconds N.*\n[\s\S]*--format F[\s\S]*--command C[\s\S]*--seed S[\s\S]*--jobs N/);
    expect(r.stdout).not.toMatch(/fuzzing/);
  });

  it('refuses an unknown option', () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/fuzz.mjs'), '--bogus'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/unknown argument "--bogus"/);
  });
});
