// CLI start: `sprat inspect` of a small sample against `node -e 0` and
// against a bare import of the package, each a fresh process, in interleaved
// runs; the CPU time of each child (user + system, from bash's `times`),
// median of >= 10 runs. Target: sprat inspect <= 1.5x `node -e 0` (a ratio
// >= 0.67x in the table). The CLI's output is compared with the same command
// run in this process first.
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beginSuite, compare, config, log, sameBytes } from './lib.mjs';
import { LIB, childEnv, mod } from './sprat.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');

/** Runs argv once; returns { ms: the child's CPU time, stdout }. */
function timed(argv) {
  const r = spawnSync('bash', ['-c', '"$@" 2>/dev/null; s=$?; times >&2; exit $s', 'bash', ...argv], {
    env: childEnv,
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 16 << 20,
  });
  if (r.status !== 0) throw new Error(`${argv.join(' ')} exited with ${r.status}: ${r.stderr}`);
  // `times`: the shell's own user/system line, then its children's.
  const lines = r.stderr.trim().split('\n');
  const m = /(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s/.exec(lines.at(-1));
  if (!m) throw new Error(`cannot read the CPU time from bash's times: ${r.stderr}`);
  return { ms: (Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) * 60 + Number(m[4])) * 1000, stdout: r.stdout };
}

const peer = (name, argv, extra = {}) => ({
  name,
  external: {
    output: async () => timed(argv).stdout,
    async round(reps) {
      let ms = 0;
      for (let i = 0; i < reps; i++) ms += timed(argv).ms;
      return ms;
    },
  },
  maxReps: 1,
  ...extra,
});

export async function run() {
  beginSuite('cli');
  const sample = 'samples/solarus/sprites/slime.dat';
  const size = statSync(path.join(root, sample)).size;
  const node = process.execPath;
  const sprat = LIB === 'dist' ? [node, 'bin/sprat.js'] : [node, path.join(here, 'cli-src.mjs')];
  const index = LIB === 'dist' ? pathToFileURL(path.join(root, 'dist/index.js')).href : null;
  let expected = '';
  const { main } = await mod('cli/main');
  await main(['inspect', sample], { out: (t) => (expected += t), err: () => {}, cwd: root, debug: false });
  const diff = sameBytes(timed([...sprat, 'inspect', sample]).stdout, expected);
  if (diff) throw new Error(`sprat inspect printed something else than the same command in this process: ${diff}`);
  if (LIB !== 'dist')
    log('   (no dist/: sprat runs from the sources through tsx, which costs far more than the built CLI; run npm run build)');
  await compare(`CLI start: sprat inspect ${sample} (${size} bytes), a fresh process each run`, {
    unit: 'runs/s',
    amount: 1,
    rounds: config.cliRuns,
    peers: [
      peer('sprat inspect', [...sprat, 'inspect', sample]),
      peer('node -e 0', [node, '-e', '0'], { check: false, checkNote: 'node alone' }),
      ...(index
        ? [
            peer('node, import of dist/index.js', [node, '--input-type=module', '-e', `await import(${JSON.stringify(index)})`], {
              check: false,
              checkNote: 'the library loaded, nothing run',
            }),
          ]
        : []),
    ],
    target: { peer: 'node -e 0', ratio: 0.67 },
    note: 'sprat vs node -e 0 below 1: sprat costs 1/ratio times node alone (target: at most 1.5 times, a ratio >= 0.67x); the sprat output is checked against the same command in process',
  });
}
