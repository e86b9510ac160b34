// Size sweep and memory: for every format, inputs of about 1 and 10 MB (and
// 100 MB with --full), each read and printed by `inspect --json` in a fresh
// child process (bench/child.mjs), which reports the operation's CPU time and
// the process's peak RSS (VmHWM). Memory is the peak minus the peak of a
// child that loaded the library and read nothing, as a multiple of the input
// (for SpriteTile, of the decompressed level). Sheet building (CTHG ->
// Aseprite, one sprite per kB) and packing (10,000 rectangles per MB) grow
// the same way. The growth per 10x of input is flagged when above 13x
// (superlinear) and written `!` (`?` when the smaller point took under 50 ms
// of CPU or 16 MB of memory: too small to judge). The memory table: every size
// from 10 MB (the largest size when the run measured fewer).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beginSuite, config, log, printTable, record } from './lib.mjs';
import { SWEEP_FORMATS, makeInput } from './inputs.mjs';
import { tempDir } from './native.mjs';
import { childEnv, childNodeArgs } from './sprat.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const SUPERLINEAR = 13;

function child(op, format, file) {
  const timeout = (config.mode === 'full' ? 1800 : 300) * 1000;
  const r = spawnSync(process.execPath, [...childNodeArgs, '--expose-gc', path.join(here, 'child.mjs'), op, format, file], {
    env: childEnv,
    encoding: 'utf8',
    timeout,
    maxBuffer: 1 << 20,
  });
  if (r.error?.code === 'ETIMEDOUT' || r.signal === 'SIGTERM') return { error: `timed out after ${timeout / 1000} s` };
  if (r.status !== 0) {
    const oom = /heap out of memory|Invalid array length|Allocation failed/i.exec(r.stderr ?? '');
    return { error: oom ? `failed: ${oom[0]}` : `failed (exit ${r.status ?? r.signal}): ${why(r.stderr ?? '')}`.slice(0, 160) };
  }
  return JSON.parse(r.stdout.trim().split('\n').at(-1));
}

/** What a failed child said: the line of the error it threw (not node's version line after the stack). */
export function why(stderr) {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.find((l) => /^[A-Za-z]*Error\b.*:/.test(l)) ?? lines.filter((l) => !/^Node\.js v|^at /.test(l)).at(-1) ?? '';
}

/** Growth per 10x of input between two points, or null. */
function per10x(a, b, sa, sb) {
  if (!(a > 0 && b > 0) || sb <= sa) return null;
  return (b / a) ** (1 / Math.log10(sb / sa));
}

export async function run() {
  beginSuite('sweep');
  const dir = tempDir();
  const base = child('none', 'none', '-');
  if (base.error) throw new Error(`baseline child ${base.error}`);
  log(
    `baseline (node + the library loaded, nothing read): peak RSS ${(base.peakKB / 1024).toFixed(0)} MB; sizes ${config.sizes.join(', ')} MB`,
  );
  const formats = config.mode === 'tiny' ? ['isprite'] : SWEEP_FORMATS;
  const jobs = [];
  for (const f of formats) {
    jobs.push({ format: f, op: 'read' }, { format: f, op: 'inspect' });
    if (f === 'cthg' && config.mode !== 'tiny') jobs.push({ format: f, op: 'convert:aseprite', label: 'sheet: CTHG -> Aseprite' });
  }
  if (config.mode !== 'tiny') jobs.push({ format: 'rects', op: 'pack', label: 'packing (200 rects per MB: MaxRects searches page sizes)' });
  const points = new Map();
  for (const mb of config.sizes) {
    const inputs = new Map();
    for (const j of jobs) {
      let inp = inputs.get(j.format);
      if (!inp) {
        if (j.format === 'rects') {
          const n = Math.max(1, Math.round(mb * 200));
          const file = path.join(dir, `rects-${mb}.txt`);
          writeFileSync(file, String(n));
          inp = { file, size: mb * 1e6, bytes: { length: mb * 1e6 }, items: n };
        } else {
          const made = await makeInput(j.format, mb * 1e6);
          const file = path.join(dir, `${mb}-${made.name}`);
          writeFileSync(file, made.bytes);
          inp = { ...made, file, bytes: { length: made.bytes.length } };
        }
        inputs.set(j.format, inp);
      }
      const r = child(j.op, inp.format ?? j.format, inp.file);
      const key = `${j.format} ${j.op}`;
      if (!points.has(key)) points.set(key, { job: j, list: [] });
      const extraKB = r.error ? null : Math.max(0, r.peakKB - base.peakKB);
      points.get(key).list.push({
        mb,
        fileBytes: inp.bytes.length,
        size: inp.size,
        cpuMs: r.cpuMs ?? null,
        peakKB: r.peakKB ?? null,
        extraKB,
        multiple: extraKB === null ? null : (extraKB * 1024) / inp.size,
        outBytes: r.outBytes ?? null,
        error: r.error ?? null,
      });
      const last = points.get(key).list.at(-1);
      log(
        `   ${key} ${mb} MB: ${last.error ?? `${(last.cpuMs / 1000).toFixed(2)} s CPU, peak +${(last.extraKB / 1024).toFixed(0)} MB = ${last.multiple.toFixed(1)}x the input`}`,
      );
    }
    inputs.clear();
  }
  const head = ['format', 'operation', 'input MB', 'CPU s', 'peak MB over baseline', 'x input', 'time per 10x', 'memory per 10x'];
  const body = [];
  const rows = [];
  for (const { job, list } of points.values()) {
    list.forEach((p, i) => {
      const prev = list[i - 1];
      const gt = prev && !p.error && !prev.error ? per10x(prev.cpuMs, p.cpuMs, prev.size, p.size) : null;
      const gm =
        prev && !p.error && !prev.error ? per10x(Math.max(prev.extraKB, 1024), Math.max(p.extraKB, 1024), prev.size, p.size) : null;
      // Growth from a point too small to time (< 50 ms of CPU) or to weigh (< 16 MB of memory) is shown with `?`, not flagged.
      const smallT = prev && prev.cpuMs < 50;
      const smallM = prev && prev.extraKB < 16 * 1024;
      const flag = (g, small) => (g === null ? '' : `${g.toFixed(1)}x${g > SUPERLINEAR ? (small ? ' ?' : ' !') : ''}`);
      body.push([
        i === 0 ? job.format : '',
        i === 0 ? (job.label ?? job.op) : '',
        (p.size / 1e6).toFixed(p.size < 1e6 ? 2 : 1),
        p.error ? p.error : (p.cpuMs / 1000).toFixed(2),
        p.error ? '' : (p.extraKB / 1024).toFixed(0),
        p.error ? '' : p.multiple.toFixed(1),
        flag(gt, smallT),
        flag(gm, smallM),
      ]);
      rows.push({
        format: job.format,
        op: job.op,
        label: job.label ?? job.op,
        ...p,
        timeGrowth: gt,
        memoryGrowth: gm,
        superlinear: (gt ?? 0) > SUPERLINEAR,
      });
    });
  }
  log('-- size sweep (a fresh process per point; CPU time of the operation, peak RSS of the process)');
  printTable(head, body, '   ');
  const flagged = rows.filter((r) => r.superlinear);
  log(
    flagged.length
      ? `   superlinear (> ${SUPERLINEAR}x per 10x): ${flagged.map((r) => `${r.format} ${r.label}`).join(', ')}`
      : '   no superlinear step',
  );
  record({ kind: 'sweep', title: 'size sweep', baselineKB: base.peakKB, sizesMB: config.sizes, rows });

  // Memory: the largest size each format reached, as a multiple of its input; and every size from 10 MB
  // (the targets are for real sizes: at 1 MB a fixed cost of a few MB is several times the input).
  const memSizes = config.sizes.filter((s) => s >= 10).length ? config.sizes.filter((s) => s >= 10) : [config.sizes.at(-1)];
  const mem = [];
  for (const f of formats) {
    const list = (op) => points.get(`${f} ${op}`)?.list ?? [];
    const pick = (op) =>
      list(op)
        .filter((p) => !p.error)
        .at(-1);
    const rd = pick('read');
    const ins = pick('inspect');
    const at = (op, mb) => list(op).find((p) => p.mb === mb);
    const bySize = memSizes.map((mb) => ({
      mb,
      read: at('read', mb)?.multiple ?? null,
      inspect: at('inspect', mb)?.multiple ?? null,
      readError: at('read', mb)?.error ?? null,
      inspectError: at('inspect', mb)?.error ?? null,
    }));
    mem.push({
      format: f,
      readMB: rd?.size / 1e6,
      read: rd?.multiple ?? null,
      inspectMB: ins?.size / 1e6,
      inspect: ins?.multiple ?? null,
      bySize,
    });
  }
  const over = (v, max) => (v === null ? 'failed' : `${v.toFixed(1)}x${v > max ? ` (over ${max}x)` : ''}`);
  log(`-- peak memory when reading, as a multiple of the input (targets: read <= 4x, inspect --json <= 3x)`);
  printTable(
    ['format', ...memSizes.map((mb) => `read ${mb} MB`), ...memSizes.map((mb) => `inspect --json ${mb} MB`)],
    mem.map((m) => [m.format, ...m.bySize.map((b) => over(b.read, 4)), ...m.bySize.map((b) => over(b.inspect, 3))]),
    '   ',
  );
  record({ kind: 'memory', title: 'peak memory when reading', baselineKB: base.peakKB, sizesMB: memSizes, rows: mem });
}
