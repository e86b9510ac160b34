// Runs every bench/*.mjs script (after `npm run build`).
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as path from 'node:path';

const dir = path.dirname(fileURLToPath(import.meta.url));
for (const f of readdirSync(dir).filter((n) => n.endsWith('.mjs') && n !== 'run.mjs').sort()) {
  console.log(`# ${f}`);
  await import(pathToFileURL(path.join(dir, f)).href);
}
