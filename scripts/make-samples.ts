/**
 * Runs every sample generator in scripts/samples/*.ts (each exports a
 * function `make...Sample(): { files: { name, bytes }[] }`, names relative
 * to samples/, or to samples/SAMPLE_DIR when the module exports SAMPLE_DIR)
 * and writes the files. Run with `npm run samples`.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

type Generator = () => { files: { name: string; bytes: Uint8Array }[] };

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const genDir = path.join(root, 'scripts', 'samples');
const outDir = path.join(root, 'samples');

const names = (await fsp.readdir(genDir)).filter((f) => f.endsWith('.ts')).sort();
for (const f of names) {
  const mod = (await import(pathToFileURL(path.join(genDir, f)).href)) as Record<string, unknown>;
  const sub = typeof mod.SAMPLE_DIR === 'string' ? mod.SAMPLE_DIR : '';
  const gens = Object.entries(mod).filter(([k, v]) => /^make\w*Sample$/.test(k) && typeof v === 'function');
  for (const [k, gen] of gens) {
    for (const file of (gen as Generator)().files) {
      const target = path.join(outDir, sub, file.name);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      await fsp.writeFile(target, file.bytes);
      console.log(`${f} ${k}: ${path.relative(root, target)} (${file.bytes.length} bytes)`);
    }
  }
}
