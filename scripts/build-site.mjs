// The static site (docs/site.md): the viewer as files any static host serves, working without a server.
// Writes site/ (entry site/index.html): the viewer bundled with the core library, its styles, and the page
// marked static (`<meta name="sprat-source" content="static">`), so that it asks no server for files.
import { build } from 'esbuild';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';

const out = process.argv[2] ?? 'site';
await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });
await build({
  entryPoints: ['web/viewer.ts'],
  bundle: true,
  // A classic script, not a module: Chromium loads no module script from a page opened as a file (file://).
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  outfile: `${out}/viewer.js`,
  minify: true,
  logLevel: 'warning',
});
const html = await readFile('web/index.html', 'utf8');
const marked = html
  .replace('<script type="module" src="viewer.js"></script>', '<script defer src="viewer.js"></script>')
  .replace('<meta charset="utf-8">', '<meta charset="utf-8">\n<meta name="sprat-source" content="static">');
if (!marked.includes('sprat-source') || !marked.includes('<script defer'))
  throw new Error('web/index.html: the script tag or <meta charset="utf-8"> the site build marks is not there');
await writeFile(`${out}/index.html`, marked.replace('<title>sprat viewer</title>', '<title>sprat</title>'));
await copyFile('web/viewer.css', `${out}/viewer.css`);
console.log(`site written to ${out}/ (open ${out}/index.html, or serve the folder from any static host)`);
