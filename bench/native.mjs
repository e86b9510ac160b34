// C peers: built with gcc -O2 into a temporary folder, run as one persistent
// child process that answers a command per line on stdin (its rounds
// interleave with the JavaScript rounds; it reports its own CPU time).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const temps = [];
/** A temporary folder, removed by cleanup() (run.mjs calls it at the end). */
export function tempDir(prefix = 'sprat-bench-') {
  const d = mkdtempSync(path.join(tmpdir(), prefix));
  temps.push(d);
  return d;
}
export function cleanup() {
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
}

/**
 * Builds bench/`source` and starts it. Returns null with a reason when gcc or
 * a header is missing (`why`), or `{ ask(line) -> Promise<string>, close() }`.
 */
export function startNative(source, { include = [], libs = [], headers = [], args = [] } = {}) {
  for (const h of headers) {
    if (![...include, '/usr/include'].some((d) => existsSync(path.join(d, h)))) return { why: `${h} missing (install its -dev package)` };
  }
  const dir = tempDir('sprat-bench-c-');
  const exe = path.join(dir, path.basename(source, '.c'));
  try {
    execFileSync('gcc', ['-O2', ...include.flatMap((d) => ['-I', d]), '-o', exe, path.join(here, source), ...libs], { stdio: 'pipe' });
  } catch (e) {
    return { why: `gcc failed: ${String(e.stderr ?? e.message).split('\n')[0]}` };
  }
  const child = spawn(exe, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  let buf = '';
  const waiting = [];
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d) => {
    buf += d;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      waiting.shift()?.resolve(line);
    }
  });
  child.on('exit', () => {
    for (const w of waiting.splice(0)) w.reject(new Error(`${source} exited`));
  });
  return {
    ask(line) {
      return new Promise((resolve, reject) => {
        waiting.push({ resolve, reject });
        child.stdin.write(`${line}\n`);
      });
    },
    close() {
      child.stdin.end();
    },
  };
}

/** Asks and checks the answer is not `error`. */
export async function askOk(peer, line) {
  const a = await peer.ask(line);
  if (a.startsWith('error')) throw new Error(`C peer: "${line}" failed`);
  return a;
}
