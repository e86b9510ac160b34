// One measurement in a fresh process, for bench/sweep.mjs:
//   node bench/child.mjs OP FORMAT FILE
// OP: none (the baseline: the library loaded, nothing read), read (load),
// inspect (`sprat inspect FILE --json`, the output counted, not kept),
// convert:TARGET (through the API, the files counted, not written), pack
// (FILE holds the rectangle count). Prints one JSON line: the operation's CPU
// time, this process's peak RSS (VmHWM), and the output size.
import { readFileSync } from 'node:fs';
import { mod, sprat } from './sprat.mjs';

const [op, format, file] = process.argv.slice(2);
const none = {
  load: async () => {
    throw new Error('no resources in the benchmark');
  },
  exists: async () => false,
};
// The CLI is loaded for every op (the baseline too), so that its modules are in the baseline.
const cli = await mod('cli/main');
// Every --max-* work limit raised out of the way: the sweep measures what the work costs at 100 MB, where the
// defaults (a user's guard against hostile input) stop some points (a CTHG sheet of 70 Mpx, 76 MB of JSON).
const { LIMIT_SPECS } = await mod('binary/limits');
const unlimited = Object.fromEntries(LIMIT_SPECS.map((s) => [s.option, 2 ** 40]));
const { packRects } = op === 'pack' ? await import('./interop.mjs') : {};
globalThis.gc?.();
let c0 = process.cpuUsage();
let outBytes = 0;
if (op === 'read') {
  sprat.load(readFileSync(file), file, format, unlimited);
} else if (op === 'inspect') {
  const limits = Object.entries(unlimited).flatMap(([k, v]) => [`--${k}`, String(v)]);
  const code = await cli.main(['inspect', file, '--json', '--format', format, ...limits], {
    out: (t) => (outBytes += t.length),
    err: (t) => process.stderr.write(t),
    cwd: process.cwd(),
    debug: false,
  });
  if (code !== 0) throw new Error(`inspect exited with ${code}`);
} else if (op.startsWith('convert:')) {
  const loaded = sprat.load(readFileSync(file), file, format, unlimited);
  const { files } = await sprat.convert(loaded, sprat.formatByName(op.slice(8)), 'out.json', none, unlimited);
  for (const f of files) outBytes += f.bytes.length;
} else if (op === 'pack') {
  const rects = packRects(Number(readFileSync(file, 'utf8')));
  c0 = process.cpuUsage(); // the packing alone
  sprat.interop.packRects(rects.map((r) => ({ w: r.width, h: r.height })));
} else if (op !== 'none') throw new Error(`unknown op ${op}`);
const c = process.cpuUsage(c0);
let peakKB = process.resourceUsage().maxRSS;
try {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  if (m) peakKB = Number(m[1]);
} catch {}
process.stdout.write(`${JSON.stringify({ cpuMs: (c.user + c.system) / 1000, peakKB, outBytes })}\n`);
