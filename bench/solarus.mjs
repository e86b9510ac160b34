// Solarus sprite sheet parsing throughput. Run `npm run build` first.
// Parses all 207 corpus files (zsdx, each syntax) repeated to >= 10 MB of text
// and prints MB/s per syntax, with V8's native JSON.parse on the same sheets
// (as the contract's inspect JSON) as a same-process reference point.
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  parseLines,
  parseLua,
  formatLines,
  formatLua,
  inspectJson,
  solarusHandler,
  solarusLuaHandler,
} from '../dist/formats/solarus/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const zsdx = path.resolve(here, '../../shared/corpus/solarus/zsdx');
const ids = readdirSync(path.join(zsdx, 'old'), { recursive: true })
  .map(String)
  .filter((f) => f.endsWith('.dat'));
const TARGET = 10 * 1024 * 1024;

function load(which) {
  return ids.map((id) => readFileSync(path.join(zsdx, which, id), 'utf8'));
}

/** Repeats the texts until their total length reaches TARGET. */
function repeat(texts) {
  const out = [];
  let n = 0;
  while (n < TARGET) {
    for (const t of texts) {
      out.push(t);
      n += t.length;
    }
  }
  return { texts: out, bytes: n };
}

function measure(name, texts, parse, rounds = 5) {
  const { texts: all, bytes } = repeat(texts);
  for (let i = 0; i < 2; i++) for (const t of all) parse(t);
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    globalThis.gc?.();
    // CPU time of this process (user + system), steadier than wall time on a shared machine.
    const c0 = process.cpuUsage();
    for (const t of all) parse(t);
    const c = process.cpuUsage(c0);
    best = Math.min(best, (c.user + c.system) / 1000);
  }
  const mbs = bytes / 1e6 / (best / 1000);
  return { name, mb: bytes / 1e6, ms: best, mbs };
}

const old = load('old');
const neu = load('new');
const json = old.map((t) => JSON.stringify(inspectJson('solarus', parseLines(t))));
const results = [
  measure('solarus (line syntax) parse', old, (t) => parseLines(t)),
  measure('solarus-lua (Lua syntax) parse', neu, (t) => parseLua(t)),
  measure('JSON.parse of the same sheets (reference)', json, (t) => JSON.parse(t)),
];
// From bytes through the format handlers (UTF-8 decoding included), as `sprat` reads files.
const te = new TextEncoder();
const oldBytes = old.map((t) => te.encode(t));
const newBytes = neu.map((t) => te.encode(t));
let b = 0;
const h1 = measure('solarus handler.read (bytes)', old, () => solarusHandler.read(oldBytes[b++ % oldBytes.length]));
b = 0;
const h2 = measure('solarus-lua handler.read (bytes)', neu, () => solarusLuaHandler.read(newBytes[b++ % newBytes.length]));
const sheets = old.map((t) => parseLines(t));
const ref = results[2].mbs;
console.log(`Solarus parsing, 207 zsdx sprites repeated to >= ${TARGET / 1024 / 1024} MiB per syntax (best of 5, process CPU time):`);
for (const r of results) {
  console.log(
    `  ${r.name.padEnd(44)} ${r.mbs.toFixed(1).padStart(7)} MB/s  (${r.mb.toFixed(1)} MB in ${r.ms.toFixed(0)} ms)  ${(r.mbs / ref).toFixed(2)}x JSON.parse`,
  );
}
for (const r of [h1, h2]) {
  console.log(
    `  ${r.name.padEnd(44)} ${r.mbs.toFixed(1).padStart(7)} MB/s  (${r.mb.toFixed(1)} MB in ${r.ms.toFixed(0)} ms)  ${(r.mbs / ref).toFixed(2)}x JSON.parse`,
  );
}
// Writing, for completeness: text produced per second.
let k = 0;
const w1 = measure('solarus write', old, () => formatLines(sheets[k++ % sheets.length]));
k = 0;
const w2 = measure('solarus-lua write', neu, () => formatLua(sheets[k++ % sheets.length]));
for (const r of [w1, w2]) console.log(`  ${r.name.padEnd(44)} ${r.mbs.toFixed(1).padStart(7)} MB/s of input-equivalent text`);
const target = 50;
const ok = results[0].mbs >= target && results[1].mbs >= target;
console.log(`  target >= ${target} MB/s for each syntax: ${ok ? 'met' : 'NOT met'}`);
