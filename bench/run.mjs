// Runs every bench/*.mjs script except this one, one after another, in this process.
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const scripts = readdirSync(here)
  .filter((f) => f.endsWith('.mjs') && f !== 'run.mjs')
  .sort();
for (const f of scripts) {
  console.log(`\n== ${f}`);
  const mod = await import(pathToFileURL(path.join(here, f)).href);
  if (typeof mod.run === 'function') await mod.run();
}
