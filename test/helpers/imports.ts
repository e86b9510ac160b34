/** The import scanner the house-rule tests share (test/meta/layering.test.ts, test/meta/cycles.test.ts). */
import { readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';

/** Every .ts file under `dir`. */
export function tsFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) tsFiles(p, out);
    else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
}

/** The relative specifiers a module imports or re-exports (static, side-effect and dynamic imports). */
export function specifiersOf(text: string): string[] {
  const out: string[] = [];
  const patterns = [
    /^\s*(?:import|export)\b[^;'"]*?\bfrom\s*['"]([^'"]+)['"]/gm,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const re of patterns) for (const m of text.matchAll(re)) out.push(m[1]!);
  return out.filter((s) => s.startsWith('.'));
}

/** The file a relative specifier of `from` names (`./x.js` is `./x.ts` in the sources). */
export function resolveSpecifier(from: string, spec: string): string {
  return path.resolve(path.dirname(from), spec).replace(/\.js$/, '.ts');
}
