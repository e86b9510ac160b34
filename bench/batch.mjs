// `sprat check` and a batch convert over many files, with 1 and 2 worker
// threads, in files per second next to a plain read of the same files
// (readFileSync of each, the floor for any tool). Run `npm run build` first.
//
// Sets: the corpus folders (../shared/corpus: Solarus zsdx, the initial quest,
// SpriteTile levels) and a synthetic Solarus quest generated into a temporary
// folder: the initial quest's sprites and sheets copied into sprites/copyN/
// until it holds BENCH_FILES sprite files (default 5000). Pass set names to
// run only some: `node bench/batch.mjs synthetic`; `--no-convert` measures check only.
//
// Each run also gives its CPU time (process.cpuUsage: every thread of the
// process, the workers too) per file: on a loaded machine the wall-clock
// ratios say more about the other processes than about the pool, while the
// CPU time shows what the pool costs (worker starts, messages) over one
// thread; `os.loadavg()` is printed before and after.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../dist/cli/main.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const corpus = path.resolve(here, '../../shared/corpus');
const noConvert = process.argv.includes('--no-convert');
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const syntheticFiles = Number(process.env.BENCH_FILES ?? 5000);

const quiet = (cwd) => ({ out: () => {}, err: () => {}, cwd, debug: false });

function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath ?? e.path, e.name));
}

/** Wall seconds of `fn`; its CPU seconds (all threads) in `time.cpu`. */
async function time(fn) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const c = process.cpuUsage(c0);
  time.cpu = (c.user + c.system) / 1e6;
  return (performance.now() - t0) / 1000;
}

/** The synthetic quest: quest.dat, the initial quest's sheets once, its sprite files copied until there are `n`. */
function synthetic(n) {
  const root = mkdtempSync(path.join(tmpdir(), 'sprat-bench-'));
  const src = path.join(corpus, 'solarus/quest-editor-initial/data');
  cpSync(src, path.join(root, 'data'), {
    recursive: true,
    filter: (p) => !p.endsWith('.dat') || p.endsWith('quest.dat') || p.includes('tilesets'),
  });
  const sprites = filesUnder(path.join(src, 'sprites')).filter((f) => f.endsWith('.dat'));
  for (let i = 0; i < n; i++) {
    const f = sprites[i % sprites.length];
    const rel = path.relative(path.join(src, 'sprites'), f);
    const to = path.join(root, 'data/sprites', `copy${Math.floor(i / sprites.length)}`, rel);
    mkdirSync(path.dirname(to), { recursive: true });
    writeFileSync(to, readFileSync(f));
  }
  return root;
}

const sets = [
  { name: 'zsdx', dir: path.join(corpus, 'solarus/zsdx') },
  { name: 'quest', dir: path.join(corpus, 'solarus/quest-editor-initial') },
  { name: 'spritetile', dir: path.join(corpus, 'spritetile') },
  { name: 'synthetic', make: () => synthetic(syntheticFiles) },
].filter((s) => !only.length || only.includes(s.name));

console.log(
  `${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
const rows = [
  [
    'set',
    'files',
    'read files/s',
    'check 1 worker',
    'check 2 workers',
    'speed-up',
    'cpu ms/file 1',
    'cpu ms/file 2',
    'check/read (1)',
    ...(noConvert ? [] : ['convert 1', 'convert 2', 'speed-up']),
  ],
];
for (const s of sets) {
  const dir = s.dir ?? s.make();
  try {
    const files = filesUnder(dir);
    const read = await time(() => {
      for (const f of files) readFileSync(f);
    });
    // which of the files check reads: its own report
    let report = '';
    const check1 = await time(() => main(['check', dir, '--json', '--jobs', '1'], { ...quiet(dir), out: (t) => (report += t) }));
    const cpu1 = time.cpu;
    const checked = JSON.parse(report).files.length;
    const check2 = await time(() => main(['check', dir, '--json', '--jobs', '2'], quiet(dir)));
    const cpu2 = time.cpu;
    let conv1 = 0;
    let conv2 = 0;
    const to = s.name === 'spritetile' ? 'tiled' : 'solarus-lua';
    if (!noConvert) {
      const out = mkdtempSync(path.join(tmpdir(), 'sprat-bench-out-'));
      conv1 = await time(() => main(['convert', dir, path.join(out, '1'), '--to', to, '--jobs', '1'], quiet(dir)));
      conv2 = await time(() => main(['convert', dir, path.join(out, '2'), '--to', to, '--jobs', '2'], quiet(dir)));
      rmSync(out, { recursive: true, force: true });
    }
    const fps = (n, t) => Math.round(n / t).toLocaleString('en');
    rows.push([
      s.name,
      `${checked} of ${files.length}`,
      fps(files.length, read),
      fps(checked, check1),
      fps(checked, check2),
      `${(check1 / check2).toFixed(2)}x`,
      ((cpu1 / checked) * 1000).toFixed(1),
      ((cpu2 / checked) * 1000).toFixed(1),
      `1/${Math.round(check1 / checked / (read / files.length))}`,
      ...(noConvert ? [] : [fps(checked, conv1), fps(checked, conv2), `${(conv1 / conv2).toFixed(2)}x`]),
    ]);
    console.log(`${s.name}: ${rows[0].map((h, i) => `${h} ${rows.at(-1)[i]}`).join(', ')}`);
  } finally {
    if (!s.dir) rmSync(dir, { recursive: true, force: true });
  }
}
const w = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
for (const r of rows) console.log(r.map((c, i) => (i === 0 ? c.padEnd(w[i]) : c.padStart(w[i]))).join('  '));
console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
