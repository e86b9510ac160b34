// The library under test, for every benchmark: the built package (dist/,
// `npm run build`) when it exists, else the TypeScript sources through tsx
// (a note says so), or through vitest's own loader in test/meta/bench.test.ts.
// SPRAT_BENCH_LIB=dist|src forces one (child processes get it from their parent).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const distIndex = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const chosen = process.env.SPRAT_BENCH_LIB || (process.env.VITEST ? 'vite' : existsSync(distIndex) ? 'dist' : 'src');
if (chosen === 'src') {
  const { register } = await import('tsx/esm/api');
  register();
}
const fromSrc = chosen !== 'dist';
const base = fromSrc ? '../src/' : '../dist/';
const ext = fromSrc ? '.ts' : '.js';
/** Imports a library module by its path under src/ without extension, e.g. `cli/main`. */
export const mod = (rel) => import(/* @vite-ignore */ new URL(`${base}${rel}${ext}`, import.meta.url).href);

/** Where the library came from: `dist` or `src`, and what child processes must be told. */
export const LIB = fromSrc ? 'src' : 'dist';
export const childEnv = { ...process.env, SPRAT_BENCH_LIB: LIB };
/** node arguments a child process needs to load the same library (tsx for the sources). */
export const childNodeArgs = fromSrc ? ['--import', 'tsx'] : [];

export const sprat = await mod('index');
