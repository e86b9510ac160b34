// Solarus sprite sheet parsing and writing throughput: all 207 zsdx corpus
// sprites (each syntax) repeated to >= 10 MB of text (1 MB in --quick), next
// to V8's JSON.parse of the same sheets (as the contract's inspect JSON) in
// the same rounds, a floor rather than a peer.
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beginSuite, compare, config, log } from './lib.mjs';
import { sprat } from './sprat.mjs';

const { parseLines, parseLua, formatLines, formatLua, inspectJson, solarusHandler, solarusLuaHandler } = sprat.solarus;
const here = path.dirname(fileURLToPath(import.meta.url));
const zsdx = path.resolve(here, '../../shared/corpus/solarus/zsdx');

/** Repeats the texts until their total length reaches `target`. */
function repeat(texts, target) {
  const out = [];
  let n = 0;
  while (n < target) {
    for (const t of texts) {
      out.push(t);
      n += t.length;
      if (n >= target) break;
    }
  }
  return { texts: out, bytes: n };
}

export async function run() {
  beginSuite('solarus');
  let ids;
  try {
    ids = readdirSync(path.join(zsdx, 'old'), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.dat'));
  } catch {
    log(`skipped: the corpus is not at ${zsdx}`);
    if (process.env.CI) throw new Error('the Solarus corpus is missing');
    return;
  }
  const target = config.mode === 'tiny' ? 50e3 : config.mode === 'quick' ? 1e6 : 10e6;
  const load = (which) => ids.map((id) => readFileSync(path.join(zsdx, which, id), 'utf8'));
  const old = repeat(load('old'), target);
  const neu = repeat(load('new'), target);
  const json = repeat(
    load('old').map((t) => JSON.stringify(inspectJson('solarus', parseLines(t)))),
    target,
  );
  const te = new TextEncoder();
  const oldBytes = old.texts.map((t) => te.encode(t));
  const newBytes = neu.texts.map((t) => te.encode(t));
  const jsonFloor = () => ({
    name: 'JSON.parse of the same sheets',
    fn: () => {
      for (const t of json.texts) JSON.parse(t);
    },
    check: false,
    checkNote: `a floor (${(json.bytes / 1e6).toFixed(1)} MB of JSON)`,
  });
  const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;
  await compare(`Solarus line syntax: parse ${mb(old.bytes)}`, {
    amount: old.bytes,
    peers: [
      { name: 'sprat parseLines', fn: () => old.texts.map((t) => parseLines(t)) },
      {
        name: 'sprat solarusHandler.read (bytes)',
        fn: () => oldBytes.map((b) => solarusHandler.read(b)),
        check: false,
        checkNote: 'the same, from bytes',
      },
      jsonFloor(),
    ],
    target: { rate: 50 },
  });
  await compare(`Solarus Lua syntax: parse ${mb(neu.bytes)}`, {
    amount: neu.bytes,
    peers: [
      { name: 'sprat parseLua', fn: () => neu.texts.map((t) => parseLua(t)) },
      {
        name: 'sprat solarusLuaHandler.read (bytes)',
        fn: () => newBytes.map((b) => solarusLuaHandler.read(b)),
        check: false,
        checkNote: 'the same, from bytes',
      },
      jsonFloor(),
    ],
    target: { rate: 50 },
  });
  const sheets = old.texts.map((t) => parseLines(t));
  await compare(`Solarus write both syntaxes (${sheets.length} sheets, ${mb(old.bytes)} of line syntax)`, {
    amount: old.bytes,
    peers: [
      { name: 'sprat formatLines', fn: () => sheets.map((s) => formatLines(s)) },
      { name: 'sprat formatLua', fn: () => sheets.map((s) => formatLua(s)), check: false, checkNote: 'the other syntax' },
    ],
  });
}
