// `npm run bench [-- OPTIONS] [SUITE...]`: every benchmark, in one run
// (bench/README.md says how to read the tables).
//   --quick   a short version (small inputs, short rounds, sweep at 1 MB)
//   --full    longer rounds, and the size sweep up to 100 MB
//   --tiny    tiny inputs, to prove the benches run (the test suite's mode)
//   --json    the tables go to stderr, the results as JSON to stdout
//             (bench/table.mjs turns them into docs/performance.md's tables)
//   SUITE...  only these suites (names below; a prefix is enough)
import { pathToFileURL } from 'node:url';
import { BenchMismatch, config, log, machine, results, setMode } from './lib.mjs';
import { cleanup } from './native.mjs';

const LOADERS = {
  lzf: () => import('./lzf.mjs'),
  render: () => import('./render.mjs'),
  isprite: () => import('./isprite.mjs'),
  'isprite-play': () => import('./isprite-play.mjs'),
  cthg: () => import('./cthg.mjs'),
  solarus: () => import('./solarus.mjs'),
  hallgeir: () => import('./hallgeir.mjs'),
  interop: () => import('./interop.mjs'),
  json: () => import('./json.mjs'),
  cli: () => import('./cli.mjs'),
  sweep: () => import('./sweep.mjs'),
  batch: () => import('./batch.mjs'),
  pack: () => import('./pack.mjs'),
};
export const SUITES = Object.keys(LOADERS);
/** Suites run only with --full or when named (minutes of work). */
const ON_REQUEST = new Set(['batch', 'pack']);

export async function runBench(argv, { out = (s) => process.stdout.write(s), err = (s) => process.stderr.write(s) } = {}) {
  const flags = new Set(argv.filter((a) => a.startsWith('--')));
  const names = argv.filter((a) => !a.startsWith('--'));
  for (const f of flags) if (!['--quick', '--full', '--tiny', '--json'].includes(f)) throw new Error(`unknown option ${f}`);
  const mode = flags.has('--tiny') ? 'tiny' : flags.has('--quick') ? 'quick' : flags.has('--full') ? 'full' : 'default';
  const json = flags.has('--json');
  setMode(mode, { json, log: (s) => (json ? err : out)(`${s}\n`) });
  results.length = 0;
  const chosen = SUITES.filter((s) =>
    names.length ? names.some((n) => s === n || (!SUITES.includes(n) && s.startsWith(n))) : !ON_REQUEST.has(s) || mode === 'full',
  );
  for (const n of names) if (!SUITES.some((s) => s.startsWith(n))) throw new Error(`unknown suite ${n} (${SUITES.join(', ')})`);
  const m = machine();
  const { LIB } = await import('./sprat.mjs');
  log(
    `sprat benchmarks, ${mode} mode; library from ${LIB === 'dist' ? 'dist/' : 'src/ (no dist/: run npm run build to measure the built package)'}\n` +
      `machine: ${m.cpu}, ${m.cores} cores, load average ${m.loadavg.join(' ')}; node ${m.node}; CPU time, medians of ${config.rounds} rounds`,
  );
  const failures = [];
  try {
    for (const s of chosen) {
      try {
        const suite = await LOADERS[s]();
        await suite.run();
      } catch (e) {
        failures.push({ suite: s, message: e.message, mismatch: e instanceof BenchMismatch });
        log(`!! ${s}: ${e instanceof BenchMismatch ? 'OUTPUT MISMATCH: ' : ''}${e.stack ?? e.message}`);
      }
    }
  } finally {
    cleanup();
  }
  const end = machine();
  if (json) out(`${JSON.stringify({ machine: m, loadavgAtEnd: end.loadavg, mode, lib: LIB, results, failures }, null, 1)}\n`);
  log(failures.length ? `\n${failures.length} suite(s) failed: ${failures.map((f) => f.suite).join(', ')}` : '\nall suites ran');
  return { failures, results: [...results] };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const { failures } = await runBench(process.argv.slice(2));
    process.exitCode = failures.length ? 1 : 0;
  } catch (e) {
    process.stderr.write(`bench: ${e.message}\n`);
    process.exitCode = 2;
  }
}
