// The one benchmark harness (bench/README.md says how to read its tables).
//
// - Peers run in this process on the same input (or, for C, in a persistent
//   child process that reports its own CPU time per round), in interleaved
//   rounds: A B C, C B A, A B C, ... so that load changes hit every peer alike.
// - Time is CPU time (process.cpuUsage: user + system of every thread of the
//   process, so the garbage collector's helper threads count against us),
//   never wall-clock time.
// - Warm-up rounds first, then >= 5 measured rounds; the median per call and
//   the spread (min-max) are printed, and the ratio against each peer
//   (`0.83x`: > 1 means sprat is faster), with the spread of the per-round
//   ratios.
// - Before anything is timed every peer's output is compared with sprat's
//   (byte for byte, or pixel for pixel within a stated tolerance); a
//   mismatch throws BenchMismatch and fails the run.
import * as os from 'node:os';

export class BenchMismatch extends Error {}

/** Rounds per mode. `tiny` is the test suite's: it proves the benches run, its figures mean nothing. */
export const MODES = {
  tiny: { warmup: 1, rounds: 5, roundMs: 1, sizes: [0.01, 0.1], cliRuns: 2 },
  quick: { warmup: 1, rounds: 5, roundMs: 40, sizes: [1], cliRuns: 10 },
  default: { warmup: 2, rounds: 7, roundMs: 150, sizes: [1, 10], cliRuns: 15 },
  full: { warmup: 3, rounds: 9, roundMs: 300, sizes: [1, 10, 100], cliRuns: 25 },
};
export const config = { mode: 'default', ...MODES.default, json: false, log: (s) => console.log(s) };
export function setMode(mode, extra = {}) {
  if (!MODES[mode]) throw new Error(`unknown bench mode ${mode}`);
  Object.assign(config, { mode }, MODES[mode], extra);
}

/** Every result of this run, for `--json`. */
export const results = [];
let suiteName = '';
export function beginSuite(name) {
  suiteName = name;
  config.log(`\n== ${name}`);
}
export const log = (s = '') => config.log(s);

/** CPU time of this process in milliseconds (user + system). */
export function cpuMs() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

export function machine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    loadavg: os.loadavg().map((x) => Math.round(x * 100) / 100),
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    date: new Date().toISOString(),
  };
}

// ---------------------------------------------------------------- checks

/** null when the two byte arrays are equal, else where they first differ. */
export function sameBytes(a, b) {
  const x = toBytes(a);
  const y = toBytes(b);
  if (x.length !== y.length) {
    const n = Math.min(x.length, y.length);
    let i = 0;
    while (i < n && x[i] === y[i]) i++;
    return `lengths differ (${x.length} vs ${y.length}; first difference at byte ${i})`;
  }
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return `byte ${i} differs (${x[i]} vs ${y[i]})`;
  return null;
}

function toBytes(v) {
  if (v instanceof Uint8Array) return v;
  if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  if (typeof v === 'string') return new TextEncoder().encode(v);
  throw new Error('not bytes');
}

/**
 * Compares RGBA pixel data: null when every channel is within `tol` of the
 * other's on at least `share` of the pixels (and no more than `maxTol` off
 * anywhere), else a description of the difference.
 */
export function pixelsWithin(a, b, { tol = 0, share = 1, maxTol = 255, allowed } = {}) {
  const x = toBytes(a);
  const y = toBytes(b);
  if (x.length !== y.length) return `pixel data lengths differ (${x.length} vs ${y.length})`;
  let off = 0;
  let worst = 0;
  for (let p = 0; p < x.length; p += 4) {
    let d = 0;
    for (let c = 0; c < 4; c++) d = Math.max(d, Math.abs(x[p + c] - y[p + c]));
    if (d > tol) off++;
    if (d > worst) worst = d;
  }
  const px = x.length / 4;
  const may = allowed ?? px * (1 - share);
  if (off > may || worst > maxTol)
    return `${off} of ${px} pixels differ by more than ${tol} (largest difference ${worst}; allowed: ${Math.floor(may)} pixels, at most ${maxTol})`;
  return null;
}

/** The text a check column shows for a pixel tolerance. */
export const tolText = ({ tol = 0, share = 1, maxTol, allowed, allowedText }) =>
  tol === 0 && share === 1 && allowed === undefined
    ? 'pixels equal'
    : `pixels ±${tol}${allowed !== undefined ? ` but ${allowedText ?? `${allowed} px`}` : share < 1 ? ` on ${+(share * 100).toFixed(2)} %` : ''}${maxTol !== undefined && maxTol < 255 ? `, ±${maxTol} all` : ''}`;

// ---------------------------------------------------------------- statistics

export function stats(values) {
  const v = [...values].sort((a, b) => a - b);
  const q = (p) => {
    const i = (v.length - 1) * p;
    const lo = Math.floor(i);
    const hi = Math.ceil(i);
    return v[lo] + (v[hi] - v[lo]) * (i - lo);
  };
  return { median: q(0.5), min: v[0], max: v[v.length - 1], q1: q(0.25), q3: q(0.75), n: v.length };
}

// ---------------------------------------------------------------- comparisons

/**
 * Times sprat against its peers on the same input.
 *
 * `peers[0]` is sprat's side. A peer is `{ name, fn }` (a synchronous
 * function returning its output; or `output()` gives the output to compare
 * and `fn` is what is timed; `afn` instead of `fn` for an async one) or `{ name, external }` with
 * `external.output()` (async, its output) and `external.round(reps)` (async,
 * the CPU milliseconds its own process spent on `reps` calls). Each peer's
 * output is compared with sprat's by `peer.check ?? options.check ??
 * sameBytes` (a function returning null or a difference); `check: false`
 * with `checkNote` for a reference point that does different work (a plain
 * copy, JSON.parse). `amount` and `unit` turn times into rates (e.g. bytes
 * and 'MB/s'). `roundEnd` (optional, timed): finishes a peer's round (e.g.
 * reads a pixel back, so a lazy drawing library cannot defer its work). `target`: `{ peer, ratio }` or `{ rate }`, printed as met or
 * not (never an error: the targets are for a quiet machine).
 */
export async function compare(title, { peers, amount, unit = 'MB/s', check, checkNote = '', target, note, rounds = config.rounds } = {}) {
  const started = cpuMs();
  const outs = [];
  for (const p of peers) outs.push(p.external ? await p.external.output() : p.output ? await p.output() : p.afn ? await p.afn() : p.fn());
  const checks = peers.map((p, i) => {
    if (i === 0) return 'subject';
    const c = p.check ?? check ?? sameBytes;
    if (c === false) return p.checkNote ?? 'not compared (different work)';
    const diff = c(outs[0], outs[i]);
    if (diff) throw new BenchMismatch(`${title}: ${p.name}'s output differs from sprat's: ${diff}`);
    return p.checkNote ?? (checkNote || 'equal');
  });
  outs.length = 0;

  // Calibration: calls per round so that a round takes about config.roundMs of CPU.
  const reps = [];
  for (const p of peers) {
    if (p.maxReps === 1) reps.push(1);
    else if (p.external) {
      const ms = await p.external.round(1);
      reps.push(Math.max(1, Math.min(p.maxReps ?? 1e6, Math.ceil(config.roundMs / Math.max(ms, 0.001)))));
    } else {
      const t0 = cpuMs();
      let n = 0;
      do {
        if (p.afn) await p.afn();
        else p.fn();
        n++;
      } while (cpuMs() - t0 < Math.min(config.roundMs, 20) && n < 1e6);
      p.roundEnd?.();
      const per = (cpuMs() - t0) / n;
      reps.push(Math.max(1, Math.min(p.maxReps ?? 1e6, Math.ceil(config.roundMs / Math.max(per, 0.0005)))));
    }
  }
  const times = peers.map(() => []);
  const total = config.warmup + rounds;
  for (let r = 0; r < total; r++) {
    const order = peers.map((_, i) => i);
    if (r % 2) order.reverse();
    for (const i of order) {
      const p = peers[i];
      let ms;
      if (p.external) ms = await p.external.round(reps[i]);
      else if (p.afn) {
        const t0 = cpuMs();
        for (let k = 0; k < reps[i]; k++) await p.afn();
        p.roundEnd?.();
        ms = cpuMs() - t0;
      } else {
        const fn = p.fn;
        const n = reps[i];
        const t0 = cpuMs();
        for (let k = 0; k < n; k++) fn();
        p.roundEnd?.();
        ms = cpuMs() - t0;
      }
      if (r >= config.warmup) times[i].push(ms / reps[i]);
    }
  }
  const rows = peers.map((p, i) => {
    const s = stats(times[i]);
    const row = {
      peer: p.name,
      medianMs: s.median,
      minMs: s.min,
      maxMs: s.max,
      q1Ms: s.q1,
      q3Ms: s.q3,
      rounds: s.n,
      callsPerRound: reps[i],
      rate: amount ? amount / (s.median / 1000) / (unit.startsWith('M') ? 1e6 : 1) : null,
      check: checks[i],
    };
    if (i > 0) {
      const per = times[i].map((t, r) => t / times[0][r]);
      const rs = stats(per);
      row.ratio = s.median / stats(times[0]).median;
      row.ratioMin = rs.min;
      row.ratioMax = rs.max;
    }
    return row;
  });
  const result = {
    kind: 'compare',
    suite: suiteName,
    title,
    unit,
    amount: amount ?? null,
    rows,
    note: note ?? null,
    cpuSeconds: (cpuMs() - started) / 1000,
  };
  if (target) {
    const t = target.peer ? rows.find((r) => r.peer === target.peer)?.ratio : rows[0].rate;
    const want = target.peer ? target.ratio : target.rate;
    result.target = { ...target, value: t ?? null, met: t !== undefined && t >= want };
  }
  results.push(result);
  printCompare(result);
  return result;
}

const ms = (v) =>
  v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v >= 1 ? v.toFixed(2) : v >= 0.01 ? v.toFixed(3) : v.toExponential(1);
const rateText = (v) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
export const ratioText = (v) => (v === undefined || v === null ? '' : `${v >= 10 ? v.toFixed(1) : v.toFixed(2)}x`);

function printCompare(r) {
  log(`-- ${r.title}   [${r.cpuSeconds.toFixed(1)} s CPU]`);
  const head = ['peer', 'median ms/call', 'min-max', r.amount ? r.unit : '', 'sprat vs peer', 'ratio min-max', 'output check'];
  const body = r.rows.map((x, i) => [
    x.peer,
    ms(x.medianMs),
    `${ms(x.minMs)}-${ms(x.maxMs)}`,
    x.rate === null ? '' : rateText(x.rate),
    i === 0 ? '' : ratioText(x.ratio),
    i === 0 ? '' : `${ratioText(x.ratioMin)}-${ratioText(x.ratioMax)}`,
    i === 0 ? '' : x.check,
  ]);
  printTable(head, body, '   ');
  if (r.target) {
    const t = r.target;
    log(
      t.peer
        ? `   target >= ${t.ratio}x ${t.peer}: ${t.met ? 'met' : 'NOT met'} (${ratioText(t.value)})`
        : `   target >= ${t.rate} ${r.unit}: ${t.met ? 'met' : 'NOT met'} (${rateText(t.value)})`,
    );
  }
  if (r.note) log(`   ${r.note}`);
}

/** One aligned table: the first column left-aligned, the others right-aligned. */
export function printTable(head, body, indent = '') {
  const rows = [head, ...body].map((r) => r.map(String));
  const w = head.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const r of rows)
    log(
      indent +
        r
          .map((c, i) => (i === 0 ? c.padEnd(w[i]) : c.padStart(w[i])))
          .join('  ')
          .trimEnd(),
    );
}

/** Records a result that is not a comparison (memory, size sweep, CLI start). */
export function record(result) {
  results.push({ suite: suiteName, ...result });
}
