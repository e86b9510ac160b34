// The long-running fuzzer: every command on mutated samples, corpus files and
// hostile seeds, in worker threads with heap and CPU-time limits. Runs the
// TypeScript sources (through tsx), so it needs no build. See --help.
import { register } from 'tsx/esm/api';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const HELP = `usage: npm run fuzz -- [options]

Runs every command (read, validate, inspect --json, convert to each format,
render a frame and an animation, play) on mutated inputs of every format, each
in a worker thread with a heap limit and a CPU-time limit. Seeds: samples/,
../shared/corpus/ (when present) and hand-made hostile files.

Accepted outcomes: success, FormatError, OptionError, LimitError,
UnknownFormatError (an unsupported conversion) and file-system errors from
resources. Anything else (TypeError, RangeError, a heap out of memory, a
CPU time-out, a hang) is a finding: the input and the command that shows it
are saved under fuzz-findings/, and the run exits 1.

options:
  --seconds N     how long to generate inputs (default 30)
  --format F      only this format (repeatable, or comma-separated)
  --command C     only this command: read, validate, inspect, render-frame,
                  render-anim, play, convert:FORMAT (repeatable, or comma-separated)
  --seed S        the random seed (default: from the clock; printed)
  --jobs N        worker threads (default 2)
  --cpu-ms N      CPU time one command may use, in ms (default 10000)
  --heap-mb N     each worker's V8 heap limit, in MB (default 512)
  --no-corpus     seed from samples/ only
  --help          print this and exit
`;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const values = new Map();
const flags = new Set();
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--help' || a === '-h') flags.add('help');
  else if (a === '--no-corpus') flags.add('no-corpus');
  else if (/^--(seconds|format|command|seed|jobs|cpu-ms|heap-mb)$/.test(a)) {
    if (i + 1 >= args.length) fail(`${a} needs a value`);
    const k = a.slice(2);
    values.set(k, [...(values.get(k) ?? []), ...args[++i].split(',')]);
  } else fail(`unknown argument "${a}"`);
}
if (flags.has('help')) {
  process.stdout.write(HELP);
  process.exit(0);
}

function fail(message) {
  process.stderr.write(`fuzz: ${message} (see --help)\n`);
  process.exit(2);
}
function num(name, dflt) {
  const v = values.get(name)?.at(-1);
  if (v === undefined) return dflt;
  if (!/^\d+$/.test(v)) fail(`--${name} needs a whole number, not "${v}"`);
  return Number(v);
}

register();
const { fuzz, formatSummary } = await import('../src/fuzz/node/run.ts');
const { allCommands } = await import('../src/fuzz/commands.ts');
const { FORMAT_NAMES } = await import('../src/formats/types.ts');

const formats = values.get('format');
for (const f of formats ?? []) if (!FORMAT_NAMES.includes(f)) fail(`unknown format "${f}" (known: ${FORMAT_NAMES.join(', ')})`);
const commands = values.get('command');
for (const c of commands ?? []) if (!allCommands().includes(c)) fail(`unknown command "${c}" (known: ${allCommands().join(', ')})`);
const jobs = num('jobs', 2);
if (jobs < 1) fail('--jobs must be at least 1');

const summary = await fuzz({
  seconds: num('seconds', 30),
  seed: num('seed', Date.now() % 0x100000000),
  jobs,
  formats,
  commands,
  roots: [path.join(root, 'samples'), ...(flags.has('no-corpus') ? [] : [path.join(root, '..', 'shared', 'corpus')])],
  samplesDir: path.join(root, 'samples'),
  findingsDir: path.join(root, 'fuzz-findings'),
  pool: { cpuMs: num('cpu-ms', 10_000), heapMb: num('heap-mb', 512) },
  log: (line) => console.log(line),
});
console.log(formatSummary(summary));
process.exitCode = summary.findings.length ? 1 : 0;
