// Runs every bench/*.mjs script except this one, one after the other.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
let failed = 0;
for (const f of readdirSync(here)
  .filter((n) => n.endsWith('.mjs') && n !== 'run.mjs')
  .sort()) {
  if (only.length && !only.some((o) => f.includes(o))) continue;
  console.log(`== ${f}`);
  const r = spawnSync(process.execPath, ['--expose-gc', join(here, f)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
