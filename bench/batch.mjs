// `sprat check` and a batch convert over many files, with 1 and 2 worker
// threads, in files per second next to a plain read of the same files
// (readFileSync of each, the floor for any tool). Run with --full or by
// name (`npm run bench -- batch`): minutes of work. Worker pools are about
// elapsed time, so this suite reports wall-clock files per second (the
// machine's load matters), and the CPU time of all threads beside it.
//
// Sets: the corpus folders (../shared/corpus: Solarus zsdx, the initial quest,
// SpriteTile levels) and a synthetic Solarus quest generated into a temporary
// folder: the initial quest's sprites and sheets copied into sprites/copyN/
// until it holds BENCH_FILES sprite files (default 5000). Pass set names to
// run only some: BENCH_SETS=synthetic.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beginSuite, config, log, printTable, record } from './lib.mjs';
import { mod } from './sprat.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const corpus = path.resolve(here, '../../shared/corpus');
const only = (process.env.BENCH_SETS ?? '').split(',').filter(Boolean);

const quiet = (cwd) => ({ out: () => {}, err: () => {}, cwd, debug: false });

function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath ?? e.path, e.name));
}

let cpuTotal = 0;
/** Wall seconds of `fn`; its CPU seconds (every thread, the workers too) in `time.cpu`. */
async function time(fn) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  await fn();
  const c = process.cpuUsage(c0);
  time.cpu = (c.user + c.system) / 1e6;
  cpuTotal += time.cpu;
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

export async function run() {
  beginSuite('batch');
  const { main } = await mod('cli/main');
  const syntheticFiles = Number(process.env.BENCH_FILES ?? (config.mode === 'tiny' ? 20 : 5000));
  const sets = [
    { name: 'zsdx', dir: path.join(corpus, 'solarus/zsdx') },
    { name: 'quest', dir: path.join(corpus, 'solarus/quest-editor-initial') },
    { name: 'spritetile', dir: path.join(corpus, 'spritetile') },
    { name: 'synthetic', make: () => synthetic(syntheticFiles) },
  ].filter((s) => (!only.length || only.includes(s.name)) && (config.mode !== 'tiny' || s.name === 'synthetic'));

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
      'convert 1',
      'convert 2',
      'speed-up',
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
      const checked = JSON.parse(report).files.length;
      const cpu1 = time.cpu;
      const check2 = await time(() => main(['check', dir, '--json', '--jobs', '2'], quiet(dir)));
      const cpu2 = time.cpu;
      const out = mkdtempSync(path.join(tmpdir(), 'sprat-bench-out-'));
      const to = s.name === 'spritetile' ? 'tiled' : 'solarus-lua';
      const conv1 = await time(() => main(['convert', dir, path.join(out, '1'), '--to', to, '--jobs', '1'], quiet(dir)));
      const conv2 = await time(() => main(['convert', dir, path.join(out, '2'), '--to', to, '--jobs', '2'], quiet(dir)));
      rmSync(out, { recursive: true, force: true });
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
        fps(checked, conv1),
        fps(checked, conv2),
        `${(conv1 / conv2).toFixed(2)}x`,
      ]);
      log(`${s.name}: ${rows[0].map((h, i) => `${h} ${rows.at(-1)[i]}`).join(', ')}`);
    } finally {
      if (!s.dir) rmSync(dir, { recursive: true, force: true });
    }
  }
  log('-- batch (wall-clock files per second; the CPU time of all threads below)');
  printTable(rows[0], rows.slice(1), '   ');
  log(`   CPU time of every thread over the suite: ${cpuTotal.toFixed(1)} s`);
  record({ kind: 'batch', title: 'batch check and convert', head: rows[0], rows: rows.slice(1), cpuSeconds: cpuTotal });
}
