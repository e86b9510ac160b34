// Turns the JSON of `npm run bench -- --json` into the performance tables
// of docs/performance.md (Markdown), with the machine and its load:
//   npm run bench -- --json > bench.json
//   node bench/table.mjs bench.json                 prints the tables
//   node bench/table.mjs bench.json --write [FILE.md]
//                                                   replaces the text between
//   <!-- bench-table:start --> and <!-- bench-table:end --> in FILE.md
//   (default docs/performance.md)
// Several files (`bench.json sweep.json`): a later run's suites replace the
// same suites of the earlier ones (re-running one suite), and every run's
// machine and load are listed.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const START = '<!-- bench-table:start -->';
const END = '<!-- bench-table:end -->';

const num = (v, d = 2) =>
  v === null || v === undefined || Number.isNaN(v) ? '-' : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(d);
const x = (v) => (v === null || v === undefined ? '-' : `${num(v)}x`);
const cell = (s) => String(s).replaceAll('|', '\\|');

/** Merges runs: a later run's suites replace the earlier runs' results of the same suites. */
export function mergeRuns(runs) {
  if (runs.length === 1) return runs[0];
  const last = runs.at(-1);
  const results = [];
  const failures = [];
  runs.forEach((r, i) => {
    const later = new Set(runs.slice(i + 1).flatMap((x) => [...x.results.map((y) => y.suite), ...(x.failures ?? []).map((f) => f.suite)]));
    results.push(...r.results.filter((x) => !later.has(x.suite)));
    failures.push(...(r.failures ?? []).filter((f) => !later.has(f.suite)));
  });
  return {
    ...runs[0],
    results,
    failures,
    others: runs.slice(1).map((r) => ({
      machine: r.machine,
      loadavgAtEnd: r.loadavgAtEnd,
      mode: r.mode,
      suites: [...new Set(r.results.map((x) => x.suite))],
    })),
    lib: last.lib,
  };
}

export function tables(run) {
  const m = run.machine;
  // Other jobs show in the load average at the start of a run; at its end it also counts the benchmark's own
  // processes (the run, its C peers and the garbage collector's threads: about 1.5 on a quiet machine).
  const load = Math.max(m.loadavg[0], ...(run.others ?? []).map((o) => o.machine.loadavg[0]));
  const out = [];
  out.push(
    `Measured ${m.date.slice(0, 16).replace('T', ' ')} UTC on ${m.cpu}, ${m.cores} cores, ${m.platform}, node ${m.node}; ` +
      `load average ${m.loadavg[0]} at the start and ${run.loadavgAtEnd?.[0] ?? '?'} at the end; \`npm run bench${run.mode === 'default' ? '' : ` -- --${run.mode}`}\`` +
      `${run.lib === 'dist' ? '' : ' (from the sources through tsx)'}.`,
  );
  for (const o of run.others ?? [])
    out.push(
      `Re-run ${o.machine.date.slice(0, 16).replace('T', ' ')} UTC (${o.suites.join(', ')}; \`--${o.mode}\` mode): load average ${o.machine.loadavg[0]} at the start and ${o.loadavgAtEnd?.[0] ?? '?'} at the end.`,
    );
  if (load > m.cores * 0.5)
    out.push(
      '',
      `**The machine was loaded** (load average ${load} on ${m.cores} cores at the start of a run: other jobs running): CPU time keeps the figures comparable within a run, but caches and turbo are shared; the figures will be re-run on a quiet machine.`,
    );
  out.push('', '| benchmark | sprat | peer | sprat vs peer (min-max of rounds) | target |', '| --- | --- | --- | --- | --- |');
  for (const r of run.results.filter((r) => r.kind === 'compare')) {
    const s = r.rows[0];
    const rate = (row) => (row.rate === null ? `${num(row.medianMs)} ms` : `${num(row.rate)} ${r.unit}`);
    const peers = r.rows.slice(1);
    const tgt = r.target
      ? `${r.target.peer ? `>= ${r.target.ratio}x ${r.target.peer}` : `>= ${r.target.rate} ${r.unit}`}: ${r.target.met ? 'met' : '**not met**'}`
      : '';
    if (!peers.length) out.push(`| ${cell(r.title)} | ${cell(`${s.peer}: ${rate(s)}`)} | - | - | ${tgt} |`);
    peers.forEach((p, i) =>
      out.push(
        `| ${i === 0 ? cell(r.title) : ''} | ${i === 0 ? cell(`${s.peer}: ${rate(s)}`) : ''} | ${cell(`${p.peer}: ${rate(p)}`)} | ${x(p.ratio)} (${x(p.ratioMin)}-${x(p.ratioMax)}) | ${i === 0 ? tgt : ''} |`,
      ),
    );
  }
  const mem = run.results.find((r) => r.kind === 'memory');
  if (mem) {
    out.push(
      '',
      'Peak memory over a process that loaded the library, as a multiple of the input (SpriteTile: of the decompressed level); targets: read <= 4x, `inspect --json` <= 3x.',
      '',
    );
    // One column per size from 10 MB when the run measured several (`--full`: 10 and 100 MB), else the largest size.
    const sizes = mem.sizesMB?.length > 1 && mem.rows.every((r) => r.bySize) ? mem.sizesMB : null;
    if (sizes) {
      const both = (r, op) => r.bySize.map((b) => (b[op] === null ? 'failed' : x(b[op])));
      const cols = [...sizes.map((s) => `read ${s} MB`), ...sizes.map((s) => `inspect --json ${s} MB`)];
      out.push(`| format | ${cols.join(' | ')} |`, `| --- |${cols.map(() => ' --- |').join('')}`);
      for (const r of mem.rows) out.push(`| ${r.format} | ${[...both(r, 'read'), ...both(r, 'inspect')].join(' | ')} |`);
    } else {
      out.push('| format | input MB | read | inspect --json |', '| --- | --- | --- | --- |');
      for (const r of mem.rows) out.push(`| ${r.format} | ${num(r.readMB, 1)} | ${x(r.read)} | ${x(r.inspect)} |`);
    }
  }
  const sweep = run.results.find((r) => r.kind === 'sweep');
  if (sweep) {
    const sizes = sweep.sizesMB;
    // Growth per 10x at each step (1 -> 10 MB, 10 -> 100 MB with --full), flagged above 13x.
    const steps = sizes.slice(1).map((s, i) => `${sizes[i]}→${s} MB`);
    const per = steps.length > 1 ? ` (${steps.join(', ')})` : '';
    out.push(
      '',
      `Size sweep (a fresh process per point): CPU seconds / peak MB over the baseline at ${sizes.join(', ')} MB, and growth per 10x of input (linear: 10x; flagged above 13x).`,
      '',
    );
    out.push(
      `| format | operation | ${sizes.map((s) => `${s} MB`).join(' | ')} | time per 10x${per} | memory per 10x${per} |`,
      `| --- | --- |${sizes.map(() => ' --- |').join('')} --- | --- |`,
    );
    const groups = new Map();
    for (const r of sweep.rows) {
      const k = `${r.format}|${r.label}`;
      if (!groups.has(k)) groups.set(k, []);
      groups.get(k).push(r);
    }
    for (const [k, rs] of groups) {
      const [f, label] = k.split('|');
      const cells = sizes.map((s) => {
        const p = rs.find((r) => r.mb === s);
        return !p ? '-' : p.error ? cell(p.error) : `${num(p.cpuMs / 1000)} s / ${num(p.extraKB / 1024, 0)} MB`;
      });
      const g = (v, small) =>
        v === null || v === undefined ? '-' : `${num(v, 1)}x${v > 13 ? (small ? ' (too small to judge)' : ' **superlinear**') : ''}`;
      // Each step's growth is on its larger point; from a point under 50 ms of CPU or 16 MB of memory it is too
      // small to judge (as bench/sweep.mjs marks it).
      const grow = (key, small) =>
        sizes
          .slice(1)
          .map((s, i) => {
            const p = rs.find((r) => r.mb === s);
            const prev = rs.find((r) => r.mb === sizes[i]);
            return g(p?.[key], Boolean(prev && small(prev)));
          })
          .join(' / ');
      out.push(
        `| ${f} | ${cell(label)} | ${cells.join(' | ')} | ${grow('timeGrowth', (p) => p.cpuMs < 50)} | ${grow('memoryGrowth', (p) => p.extraKB < 16 * 1024)} |`,
      );
    }
  }
  if (run.failures?.length)
    out.push('', `Failed suites: ${run.failures.map((f) => `${f.suite} (${cell(f.message.split('\n')[0])})`).join('; ')}.`);
  return out.join('\n');
}

export function replaceInReadme(readme, text) {
  const a = readme.indexOf(START);
  const b = readme.indexOf(END);
  if (a < 0 || b < a) throw new Error(`the file has no ${START} ... ${END} section`);
  return `${readme.slice(0, a + START.length)}\n${text}\n${readme.slice(b)}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const w = args.indexOf('--write');
  // `--write` names the Markdown file, or (followed by nothing or a JSON run) writes docs/performance.md.
  const named = w >= 0 && args[w + 1]?.endsWith('.md');
  const target =
    w < 0 ? null : named ? args.splice(w, 2)[1] : (args.splice(w, 1), fileURLToPath(new URL('../docs/performance.md', import.meta.url)));
  const run = mergeRuns((args.length ? args : [0]).map((f) => JSON.parse(readFileSync(f, 'utf8'))));
  const text = tables(run);
  if (target) {
    // Written beside it and renamed into place, so a failed write leaves the page as it was.
    const temp = `${target}.tmp-${process.pid}`;
    writeFileSync(temp, replaceInReadme(readFileSync(target, 'utf8'), text));
    renameSync(temp, target);
    console.log(`updated ${target}`);
  } else console.log(text);
}
