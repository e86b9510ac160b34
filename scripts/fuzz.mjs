// Long-running fuzzer over every format reader and validator (uses the built dist/).
//   npm run fuzz -- [--seconds N] [--seed S]
// Seeds: the bundled samples and ../shared/corpus when present. Any exception
// other than FormatError, or a single input taking over 2 s, is a finding: the
// input is saved under fuzz-findings/ and the run exits 1.
import { readFileSync, readdirSync, statSync, mkdirSync, writeFileSync, existsSync } from 'node:fs';
import * as path from 'node:path';
import { FORMATS, FormatError, detectFormat } from '../dist/index.js';
import { mutate, rng } from '../dist/fuzz/mutate.js';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const seconds = opt('seconds', 30);
const seed = opt('seed', Date.now() % 0x100000000);

function walk(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (!/\.(md|png|bmp|json)$/i.test(name)) out.push(p);
  }
  return out;
}

const seeds = [...walk('samples'), ...walk('../shared/corpus')]
  .map((p) => ({ p, bytes: new Uint8Array(readFileSync(p)) }))
  .map((s) => ({ ...s, handler: detectFormat(s.bytes, s.p) }))
  .filter((s) => s.handler);
if (seeds.length === 0) {
  console.log('no seed files of a known format');
  process.exit(0);
}
console.log(`fuzzing ${seeds.length} seeds for ${seconds}s, seed ${seed}`);
const random = rng(seed);
const end = Date.now() + seconds * 1000;
let runs = 0;
let findings = 0;
while (Date.now() < end) {
  const s = seeds[Math.floor(random() * seeds.length)];
  const input = mutate(s.bytes, random);
  for (const f of [s.handler, FORMATS[Math.floor(random() * FORMATS.length)]]) {
    for (const op of ['read', 'validate']) {
      const t0 = Date.now();
      try {
        f[op](input);
      } catch (e) {
        if (!(e instanceof FormatError)) {
          findings++;
          mkdirSync('fuzz-findings', { recursive: true });
          const name = `fuzz-findings/${f.name}-${op}-${runs}.bin`;
          writeFileSync(name, input);
          console.log(`FINDING ${name}: ${e?.stack ?? e}`);
        }
      }
      if (Date.now() - t0 > 2000) {
        findings++;
        mkdirSync('fuzz-findings', { recursive: true });
        writeFileSync(`fuzz-findings/${f.name}-${op}-slow-${runs}.bin`, input);
        console.log(`SLOW ${f.name} ${op}: ${Date.now() - t0} ms`);
      }
    }
  }
  runs++;
}
console.log(`${runs} inputs, ${findings} findings`);
process.exitCode = findings ? 1 : 0;
