// Runs every bench/*.mjs script except this one, one after another.
// Run `npm run build` first: the scripts import the library from dist/.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const scripts = readdirSync(here)
  .filter((f) => f.endsWith('.mjs') && f !== 'run.mjs')
  .sort();
let failed = 0;
for (const s of scripts) {
  console.log(`\n== ${s}`);
  const r = spawnSync(process.execPath, [...process.execArgv, path.join(here, s)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
