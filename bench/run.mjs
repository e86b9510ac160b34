// Runs every bench/*.mjs script (after `npm run build`), one after another.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as path from 'node:path';

const dir = path.dirname(fileURLToPath(import.meta.url));
let failed = 0;
for (const f of readdirSync(dir).filter((n) => n.endsWith('.mjs') && n !== 'run.mjs').sort()) {
  console.log(`== ${f}`);
  const r = spawnSync(process.execPath, [...process.execArgv, path.join(dir, f)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
