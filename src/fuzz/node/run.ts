/**
 * The fuzzing run `npm run fuzz` and the fuzz test share: seeds from folders
 * (every file of a known format, JSON included) plus hand-made hostile ones,
 * format-aware mutations, every command on every input in worker threads
 * (pool.ts), findings saved with the command that shows them, and counts per
 * format and command.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync, appendFileSync } from 'node:fs';
import * as path from 'node:path';
import { detectFormat } from '../../detect.js';
import { FORMATS, getFormat } from '../../registry.js';
import type { FormatName } from '../../formats/types.js';
import { compress } from '../../lzf/compress.js';
import { decompress } from '../../lzf/decompress.js';
import { commandsFor, optionsFor, type FuzzJob } from '../commands.js';
import { headerVariants, hostileSeeds } from '../hostile.js';
import { mutate, mutateBinary, mutateText, rng } from '../mutate.js';
import { generatedSolarusSheet } from '../solarus.js';
import { randomWorkSeed, WORK_FORMATS, workSeeds } from '../work.js';
import { DEFAULT_POOL, FuzzPool, type JobResult, type PoolOptions } from './pool.js';

export interface Seed {
  /** The file name the input goes by (extension included). */
  name: string;
  /** Where it came from, for the report. */
  origin: string;
  format: FormatName;
  bytes: Uint8Array;
  /** The folder its resources (sheets, textures) are read from. */
  dir: string;
  /** Which kind of seed it is (SEED_FAMILIES), for the counts. */
  family: SeedFamily;
}

/**
 * The kinds of seed: files of samples/ and of the corpus, hostile header variants of binary
 * samples, the hand-made hostile files (src/fuzz/hostile.ts), generated Solarus sheets
 * (src/fuzz/solarus.ts) and work bombs (src/fuzz/work.ts).
 */
export const SEED_FAMILIES = ['sample', 'corpus', 'header', 'hostile', 'solarus-sheet', 'work'] as const;
export type SeedFamily = (typeof SEED_FAMILIES)[number];

export interface FuzzOptions {
  /** Stop after this many seconds (of generating inputs; running jobs finish). */
  seconds?: number;
  /** Stop after this many mutated inputs (per format), for a deterministic run. */
  inputsPerFormat?: number;
  seed: number;
  jobs?: number;
  /** Only these formats / commands (default all). */
  formats?: readonly string[];
  commands?: readonly string[];
  /** Folders to take seeds from (recursively). */
  roots: readonly string[];
  /** samples/: the hostile seeds' resources. */
  samplesDir: string;
  /** Hostile header variants made from each binary sample (default 24). */
  headerVariants?: number;
  /** Take the work bombs (src/fuzz/work.ts) among the seeds and make new ones as the run goes (default true). */
  workSeeds?: boolean;
  /** Run every seed unmutated once, between the mutations (default true). */
  seedsFirst?: boolean;
  /** Where findings go (default fuzz-findings); null keeps them in memory only. */
  findingsDir?: string | null;
  pool?: Partial<PoolOptions>;
  log?: (line: string) => void;
  /** Commands not to run on a seed (and its mutations): known findings a test leaves out. */
  skip?: (seed: Seed, command: string) => boolean;
}

export interface Finding {
  format: string;
  command: string;
  cls: string;
  message: string;
  /** The first line of the stack inside the project, or the message: what groups findings. */
  signature: string;
  seed: string;
  job: FuzzJob;
  dir: string;
  cpuMs: number;
  /** Where the input was saved, if it was. */
  file?: string;
}

export interface FuzzSummary {
  seed: number;
  seconds: number;
  /** Inputs per format (unmutated seeds included). */
  inputs: Record<string, number>;
  /** format -> seed family -> inputs (a mutation counts in its seed's family). */
  families: Record<string, Partial<Record<SeedFamily, number>>>;
  /** The command run that used the most CPU time. */
  slowest?: { format: string; command: string; seed: string; cls: string; cpuMs: number };
  /** The peak resident size of the fuzzing process, every worker thread included (MiB). */
  peakRssMb: number;
  /** format -> command -> outcome class -> count. */
  counts: Record<string, Record<string, Record<string, number>>>;
  /** format -> command -> CPU milliseconds the runs used (as the pool measured them). */
  cpuMs: Record<string, Record<string, number>>;
  findings: Finding[];
  /** Command runs left out because their seed and command had already cost three heavy findings. */
  retired: number;
}

/** Findings that cost a worker (and seconds of CPU): after three of them, a seed's command is retired. */
const HEAVY = /^(heap-out-of-memory|cpu-time-out|hang|rss|worker-)/;
const RETIRE_AFTER = 3;

const TEXT_FORMATS = new Set<string>(FORMATS.filter((f) => f.text).map((f) => f.name));
const MAX_SEED_BYTES = 1 << 20;

function walk(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) walk(p, out);
    else if (st.isFile() && st.size <= MAX_SEED_BYTES) out.push(p);
  }
  return out;
}

/** Every file of a known format under `roots`, and the hostile seeds. */
export function collectSeeds(roots: readonly string[], samplesDir: string, variants = 24, work = true): Seed[] {
  const seeds: Seed[] = [];
  for (const root of roots) {
    const family: SeedFamily = path.resolve(root) === path.resolve(samplesDir) ? 'sample' : 'corpus';
    for (const p of walk(root)) {
      const bytes = new Uint8Array(readFileSync(p));
      let format: FormatName | undefined;
      try {
        format = detectFormat(bytes, p)?.name;
      } catch {
        format = undefined;
      }
      if (!format) continue;
      seeds.push({ name: path.basename(p), origin: p, format, bytes, dir: path.dirname(p), family });
    }
  }
  const binary = seeds.filter((s) => !TEXT_FORMATS.has(s.format) && s.origin.startsWith(samplesDir));
  for (const s of binary) {
    headerVariants(s.bytes, variants).forEach((bytes, i) =>
      seeds.push({ ...s, bytes, origin: `${s.origin} (hostile header ${i})`, family: 'header' }),
    );
  }
  for (const h of hostileSeeds()) {
    seeds.push({
      name: h.name,
      origin: `hostile:${h.name}`,
      format: h.format,
      bytes: h.bytes,
      dir: path.join(samplesDir, h.dir),
      family: 'hostile',
    });
  }
  if (work) {
    for (const w of workSeeds())
      seeds.push({
        name: w.name,
        origin: `work:${w.name}`,
        format: w.format,
        bytes: w.bytes,
        dir: path.join(samplesDir, w.dir),
        family: 'work',
      });
  }
  // Whole multi-animation Solarus sheets (src/fuzz/solarus.ts), the same ones every run; the run makes more as it goes.
  const random = rng(0x501a7);
  for (let i = 0; i < GENERATED_SEEDS; i++) seeds.push(generatedSeed(random, i, samplesDir));
  return seeds;
}

/** Generated Solarus sheets among the seeds. */
const GENERATED_SEEDS = 8;
/** How often a turn of a Solarus format runs a new generated sheet instead of a mutation. */
const GENERATED_SHARE = 0.25;

function generatedSeed(random: () => number, index: number, samplesDir: string): Seed {
  const g = generatedSolarusSheet(random, index);
  return {
    name: g.name,
    origin: `generated:${g.name}`,
    format: g.format,
    bytes: g.bytes,
    dir: path.join(samplesDir, g.dir),
    family: 'solarus-sheet',
  };
}

/** How often a turn of a work format (WORK_FORMATS) runs a new work bomb instead of a mutation. */
const WORK_SHARE = 0.05;

function generatedWorkSeed(random: () => number, format: FormatName, index: number, samplesDir: string): Seed {
  const w = randomWorkSeed(random, format, index);
  return { name: w.name, origin: `work:${w.name}`, format: w.format, bytes: w.bytes, dir: path.join(samplesDir, w.dir), family: 'work' };
}

/** A format-aware mutation of a seed. */
function mutateSeed(seed: Seed, random: () => number, other: Seed): Uint8Array {
  if (TEXT_FORMATS.has(seed.format)) return random() < 0.7 ? mutateText(seed.bytes, random) : mutate(seed.bytes, random);
  if (seed.format === 'spritetile' && random() < 0.6) {
    // Mutate the level inside the LZF stream, so the mutation reaches the level parser.
    try {
      const level = decompress(seed.bytes, { limit: 16 << 20 });
      return compress(mutateBinary(level, random, level), 'clzf2');
    } catch {
      return mutateBinary(seed.bytes, random, other.bytes);
    }
  }
  return mutateBinary(seed.bytes, random, other.bytes);
}

/** The command line that shows a job's outcome (the input saved as FILE, its resources beside it). */
export function cliFor(job: FuzzJob, file = 'FILE'): string {
  const fmt = job.format ? ` --format ${job.format}` : '';
  const opts = Object.entries(job.options)
    .map(([k, v]) => (v === true ? ` --${k}` : ` --${k} ${JSON.stringify(String(v))}`))
    .join('');
  const c = job.command;
  if (c === 'read') return `sprat inspect ${file}${fmt}${opts}`;
  if (c === 'validate') return `sprat validate ${file}${fmt}${opts}`;
  if (c === 'inspect') return `sprat inspect ${file} --json${fmt}${opts}`;
  if (c === 'play') return `sprat play ${file} --json${fmt}${opts}`;
  if (c === 'render-frame') return `sprat render ${file}${fmt}${opts} -o out.png`;
  if (c === 'render-anim') return `sprat render ${file}${fmt}${opts} -o out.${job.image ?? 'gif'}`;
  if (c.startsWith('convert:')) {
    const to = c.slice('convert:'.length);
    const from = job.format ? ` --from ${job.format}` : '';
    return `sprat convert ${file} out${getFormat(to)?.extensions[0] ?? ''}${from} --to ${to}${opts}`;
  }
  return `${c} ${file}`;
}

function signatureOf(r: JobResult): string {
  // A worker stopped for its time or memory has no stack, and its message names numbers that vary.
  if (HEAVY.test(r.cls)) return r.cls;
  const frame = r.stack?.split('\n').find((l) => /\/src\//.test(l));
  const where = frame
    ? frame
        .replace(/^\s*at\s+/, '')
        .replace(/^.*\/src\//, 'src/')
        .replace(/\)$/, '')
    : (r.message ?? '').slice(0, 80);
  return `${r.cls} ${where}`;
}

/** Runs a fuzzing session; resolves with the counts and findings. */
export async function fuzz(options: FuzzOptions): Promise<FuzzSummary> {
  const log = options.log ?? (() => {});
  const random = rng(options.seed);
  const work = options.workSeeds !== false;
  const all = collectSeeds(options.roots, options.samplesDir, options.headerVariants, work);
  const seeds = all.filter((s) => !options.formats || options.formats.includes(s.format));
  const byFormat = new Map<string, Seed[]>();
  for (const s of seeds) byFormat.set(s.format, [...(byFormat.get(s.format) ?? []), s]);
  const formats = [...byFormat.keys()].sort();
  const jobs = options.jobs ?? DEFAULT_POOL.jobs;
  const pool = new FuzzPool({ ...DEFAULT_POOL, ...options.pool, jobs });
  const summary: FuzzSummary = {
    seed: options.seed,
    seconds: 0,
    inputs: {},
    families: {},
    peakRssMb: 0,
    counts: {},
    cpuMs: {},
    findings: [],
    retired: 0,
  };
  const heavy = new Map<string, number>();
  const findingsDir = options.findingsDir === undefined ? 'fuzz-findings' : options.findingsDir;
  const saved = new Map<string, number>();
  const t0 = Date.now();
  const end = options.seconds !== undefined ? t0 + options.seconds * 1000 : Infinity;
  const inflight = new Set<Promise<void>>();
  log(
    `fuzzing ${formats.length} formats from ${seeds.length} seeds (${formats.map((f) => `${f} ${byFormat.get(f)!.length}`).join(', ')}), seed ${options.seed}, ${jobs} workers`,
  );

  const record = (seed: Seed, job: FuzzJob, r: JobResult) => {
    const byCommand = (summary.counts[seed.format] ??= {});
    const byClass = (byCommand[job.command] ??= {});
    byClass[r.cls] = (byClass[r.cls] ?? 0) + 1;
    const cpu = (summary.cpuMs[seed.format] ??= {});
    cpu[job.command] = (cpu[job.command] ?? 0) + r.cpuMs;
    if (!summary.slowest || r.cpuMs > summary.slowest.cpuMs)
      summary.slowest = { format: seed.format, command: job.command, seed: seed.origin, cls: r.cls, cpuMs: Math.round(r.cpuMs) };
    if (!r.finding) return;
    if (HEAVY.test(r.cls)) heavy.set(`${seed.origin}|${job.command}`, (heavy.get(`${seed.origin}|${job.command}`) ?? 0) + 1);
    const signature = signatureOf(r);
    const f: Finding = {
      format: seed.format,
      command: job.command,
      cls: r.cls,
      message: (r.message ?? '').split('\n')[0]!.slice(0, 300),
      signature,
      seed: seed.origin,
      job,
      dir: seed.dir,
      cpuMs: Math.round(r.cpuMs),
    };
    const n = (saved.get(`${f.format} ${f.command} ${signature}`) ?? 0) + 1;
    saved.set(`${f.format} ${f.command} ${signature}`, n);
    if (findingsDir && n <= 3) {
      mkdirSync(findingsDir, { recursive: true });
      const base = `${f.format}.${f.command.replace(':', '-')}.${f.cls.replace(/[^\w-]+/g, '_')}.${summary.findings.length}`;
      const ext = path.extname(seed.name) || '.bin';
      f.file = path.join(findingsDir, base + ext);
      writeFileSync(f.file, job.bytes);
      const line = `${f.format} ${f.command}: ${f.cls}: ${f.message} (cpu ${f.cpuMs} ms; seed ${f.seed})`;
      writeFileSync(
        path.join(findingsDir, base + '.txt'),
        `${line}\n\nreproduce (resources from ${seed.dir}: copy the input there):\n  ${cliFor(job, base + ext)}\n\n${r.stack ?? ''}\n`,
      );
      appendFileSync(path.join(findingsDir, 'findings.log'), `${f.file}: ${line}\n`);
    }
    summary.findings.push(f);
    if (n <= 3) log(`FINDING ${f.format} ${f.command}: ${f.cls}: ${f.message}${f.file ? ` -> ${f.file}` : ''}`);
  };

  const submit = async (seed: Seed, bytes: Uint8Array) => {
    summary.inputs[seed.format] = (summary.inputs[seed.format] ?? 0) + 1;
    const families = (summary.families[seed.format] ??= {});
    families[seed.family] = (families[seed.family] ?? 0) + 1;
    const handler = getFormat(seed.format)!;
    const format = random() < 0.75 ? seed.format : undefined;
    for (const command of commandsFor(handler)) {
      if (options.commands && !options.commands.includes(command)) continue;
      if (options.skip?.(seed, command)) continue;
      if ((heavy.get(`${seed.origin}|${command}`) ?? 0) >= RETIRE_AFTER) {
        summary.retired++;
        continue;
      }
      const job: FuzzJob = {
        bytes,
        fileName: seed.name,
        format,
        command,
        options: optionsFor(seed.format, command),
        image: random() < 0.5 ? 'gif' : 'apng',
      };
      const p = pool.run(job, seed.dir).then((r) => {
        record(seed, job, r);
        inflight.delete(p);
      });
      inflight.add(p);
      while (inflight.size >= jobs * 4) await Promise.race(inflight);
    }
  };

  try {
    // The formats in turn; each turn of a format runs its next unmutated seed
    // (every other turn, until all have run) or a mutation of a random seed.
    const produced = new Map<string, number>();
    const cursor = new Map<string, number>();
    const seedsLeft = (f: string) => options.seedsFirst !== false && (cursor.get(f) ?? 0) < byFormat.get(f)!.length;
    const done = (f: string) => !seedsLeft(f) && options.inputsPerFormat !== undefined && (produced.get(f) ?? 0) >= options.inputsPerFormat;
    for (let round = 0; formats.length && Date.now() < end; round++) {
      if (formats.every(done)) break;
      const format = formats[round % formats.length]!;
      if (done(format)) continue;
      const list = byFormat.get(format)!;
      const turn = Math.floor(round / formats.length);
      const mutating = options.inputsPerFormat === undefined || (produced.get(format) ?? 0) < options.inputsPerFormat;
      if (seedsLeft(format) && (turn % 2 === 0 || !mutating)) {
        const c = cursor.get(format) ?? 0;
        cursor.set(format, c + 1);
        await submit(list[c]!, list[c]!.bytes);
        continue;
      }
      produced.set(format, (produced.get(format) ?? 0) + 1);
      if (format.startsWith('solarus') && random() < GENERATED_SHARE) {
        const g = generatedSeed(random, produced.get(format)!, options.samplesDir);
        // (in its own syntax, whichever the turn's format)
        await submit(g, g.bytes);
        continue;
      }
      if (work && WORK_FORMATS.includes(format as FormatName) && random() < WORK_SHARE) {
        const w = generatedWorkSeed(random, format as FormatName, produced.get(format)!, options.samplesDir);
        await submit(w, w.bytes);
        continue;
      }
      const seed = list[Math.floor(random() * list.length)]!;
      const other = list[Math.floor(random() * list.length)]!;
      await submit(seed, mutateSeed(seed, random, other));
    }
    await Promise.all(inflight);
  } finally {
    await pool.close();
  }
  summary.seconds = (Date.now() - t0) / 1000;
  // (the whole process's peak: the worker threads live in it; resourceUsage gives KiB)
  summary.peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  return summary;
}

const COLUMNS = ['ok', 'FormatError', 'OptionError', 'LimitError', 'UnknownFormatError', 'FsError'];

/** The counts as a table: one row per format and command, a column per accepted outcome and one for findings. */
export function formatSummary(s: FuzzSummary): string {
  const head = ['format', 'command', 'runs', ...COLUMNS, 'findings', 'cpu s'];
  const rows: string[][] = [];
  for (const format of Object.keys(s.counts).sort()) {
    for (const [command, byClass] of Object.entries(s.counts[format]!)) {
      const runs = Object.values(byClass).reduce((a, b) => a + b, 0);
      const findings = Object.entries(byClass)
        .filter(([k]) => !COLUMNS.includes(k))
        .reduce((a, [, b]) => a + b, 0);
      const cpu = ((s.cpuMs[format]?.[command] ?? 0) / 1000).toFixed(1);
      rows.push([format, command, String(runs), ...COLUMNS.map((c) => String(byClass[c] ?? 0)), String(findings), cpu]);
    }
  }
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i < 2 ? c.padEnd(width[i]!) : c.padStart(width[i]!))).join('  ');
  const inputs = Object.entries(s.inputs)
    .sort()
    .map(([f, n]) => `${f} ${n}`)
    .join(', ');
  const total = Object.values(s.inputs).reduce((a, b) => a + b, 0);
  const runs = rows.reduce((a, r) => a + Number(r[2]), 0);
  const classes = new Map<string, number>();
  for (const f of s.findings)
    classes.set(`${f.format} ${f.command} ${f.signature}`, (classes.get(`${f.format} ${f.command} ${f.signature}`) ?? 0) + 1);
  return [
    `${total} inputs (${inputs}), ${runs} command runs in ${Math.round(s.seconds)} s, seed ${s.seed}, ${s.findings.length} findings` +
      (s.retired
        ? ` (${s.retired} runs left out: their seed and command had already run out of memory or time ${RETIRE_AFTER} times)`
        : ''),
    `slowest run: ${s.slowest ? `${s.slowest.format} ${s.slowest.command} on ${s.slowest.seed}: ${(s.slowest.cpuMs / 1000).toFixed(2)} s of CPU (${s.slowest.cls})` : 'none'}; peak resident size of the run ${s.peakRssMb} MiB`,
    '',
    'inputs per seed family:',
    ...Object.keys(s.families)
      .sort()
      .map(
        (f) =>
          `  ${f.padEnd(16)} ${SEED_FAMILIES.filter((k) => s.families[f]![k])
            .map((k) => `${k} ${s.families[f]![k]}`)
            .join(', ')}`,
      ),
    '',
    line(head),
    ...rows.map(line),
    ...(classes.size ? ['', 'findings by kind:', ...[...classes].map(([k, n]) => `  ${n} x ${k}`)] : []),
  ].join('\n');
}
