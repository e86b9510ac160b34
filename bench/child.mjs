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
const { packRects } = op === 'pack' ? await import('./interop.mjs') : {};
globalThis.gc?.();
let c0 = process.cpuUsage();
let outBytes = 0;
if (op === 'read') {
  sprat.load(readFileSync(file), file, format);
} else if (op === 'inspect') {
  // The default --max-json-bytes (256 MB of text) stops the 100 MB points: the sweep measures what the JSON costs.
  const code = await cli.main(['inspect', file, '--json', '--format', format, '--max-json-bytes', String(2 ** 40)], {
    out: (t) => (outBytes += t.length),
    err: (t) => process.stderr.write(t),
    cwd: process.cwd(),
    debug: false,
  });
  if (code !== 0) throw new Error(`inspect exited with ${code}`);
} else if (op.startsWith('convert:')) {
  const loaded = sprat.load(readFileSync(file), file, format);
  const { files } = await sprat.convert(loaded, sprat.formatByName(op.slice(8)), 'out.json', none);
  for (const f of files) outBytes += f.bytes.length;
} else if (op === 'pack') {
  const rects = packRects(Number(readFileSync(file, 'utf8')));
  c0 = process.cpuUsage(); // the packing alone
  sprat.interop.packShelves(rects);
} else if (op !== 'none') throw new Error(`unknown op ${op}`);
const c = process.cpuUsage(c0);
let peakKB = process.resourceUsage().maxRSS;
try {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  if (m) peakKB = Number(m[1]);
} catch {}
process.stdout.write(`${JSON.stringify({ cpuMs: (c.user + c.system) / 1000, peakKB, outBytes })}\n`);
