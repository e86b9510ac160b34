// Bundles the browser viewer (web/viewer.ts and the core library it imports) into dist/web/.
import { build } from 'esbuild';
import { copyFile, mkdir } from 'node:fs/promises';

await mkdir('dist/web', { recursive: true });
await build({
  entryPoints: ['web/viewer.ts'],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  outfile: 'dist/web/viewer.js',
  sourcemap: true,
  minify: true,
  logLevel: 'warning',
});
await copyFile('web/index.html', 'dist/web/index.html');
await copyFile('web/viewer.css', 'dist/web/viewer.css');
