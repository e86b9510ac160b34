// Bundles the command line (dist/cli/main.js and everything it imports) into
// one CommonJS file, dist/cli/sprat.cjs, and writes V8's compiled code for it
// beside it (dist/cli/sprat.cjs.cache), for a fast start: bin/sprat.js loads
// the bundle through node:vm with that cache, so a `sprat` call skips
// resolving ~140 modules and compiling 1 MB of JavaScript. Node 20 has no
// compile cache of its own for ES modules (module.enableCompileCache came in
// Node 22). When the cache was made by another Node version, V8 rejects it
// and compiles as usual: the cache only ever saves time.
//
// Runs after `tsc -p tsconfig.build.json` (npm run build).
import { build } from 'esbuild';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist/cli/sprat.cjs');

// `import.meta.url` in a module of the bundle means that module's own place
// in dist/ (package.json, samples/, web/ and the worker scripts are found
// from it), so each file gets its own URL, computed from the bundle's place.
const metaUrl = {
  name: 'import-meta-url',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/].*\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const rel = relative(dirname(out), args.path).split('\\').join('/');
      const url = `require("node:url").pathToFileURL(require("node:path").join(__dirname, ${JSON.stringify(rel)})).href`;
      return { contents: text.replaceAll('import.meta.url', url), loader: 'js' };
    });
  },
};

// What only some commands use is loaded on first use instead of at start:
// Node's own modules (the viewer's HTTP server, the batch pool's threads,
// crypto for atomic writes' names, zlib for PNG writing) and the npm
// packages that only some files need (fflate for zlib data and PNG,
// fast-png, the XML parser for Tiled's TMX, fzstd, gifenc), which are then
// not bundled. Each becomes a module of getters that requires the real one
// the first time one of its names is read. fflate is taken in its plain
// build: its Node build loads node:worker_threads at start for its
// asynchronous functions, which sprat never calls.
const LAZY = {
  'node:http': 'node:http',
  'node:worker_threads': 'node:worker_threads',
  'node:crypto': 'node:crypto',
  'node:os': 'node:os',
  'node:zlib': 'node:zlib',
  fflate: 'fflate/browser',
  'fast-png': 'fast-png',
  'fast-xml-parser': 'fast-xml-parser',
  fzstd: 'fzstd',
  gifenc: 'gifenc',
};
const lazyModules = {
  name: 'lazy-modules',
  setup(b) {
    // (the real module, required from its module of getters, stays outside the bundle)
    b.onResolve({ filter: /.*/, namespace: 'lazy' }, (args) => ({ path: args.path, external: true }));
    b.onResolve({ filter: /.*/ }, (args) => (Object.hasOwn(LAZY, args.path) ? { path: args.path, namespace: 'lazy' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'lazy' }, (args) => {
      const target = LAZY[args.path];
      const names = Object.keys(createRequire(join(root, 'package.json'))(target)).filter((n) => n !== 'default' && n !== '__esModule');
      const lines = names.map(
        (n) => `Object.defineProperty(exports, ${JSON.stringify(n)}, { enumerable: true, get: () => load()[${JSON.stringify(n)}] });`,
      );
      return { contents: `let m; const load = () => (m ??= require(${JSON.stringify(target)}));\n${lines.join('\n')}\n`, loader: 'js' };
    });
  },
};

await build({
  stdin: {
    contents: "export { main } from './main.js';",
    resolveDir: join(root, 'dist/cli'),
    sourcefile: 'sprat-cli.js',
  },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  outfile: out,
  plugins: [metaUrl, lazyModules],
  logLevel: 'warning',
  legalComments: 'inline',
  // Smaller to read and check at each start; names are kept, for readable stack traces (--debug).
  minifyWhitespace: true,
  minifySyntax: true,
});

// The code cache: compile the bundle as bin/sprat.js does, run a typical
// small command so the functions it uses are compiled too, then save V8's
// data for all of it.
const source = readFileSync(out, 'utf8');
const script = new vm.Script(Module.wrap(source), { filename: out });
const mod = { exports: {} };
script.runInThisContext().call(mod.exports, mod.exports, createRequire(out), mod, out, dirname(out));
const quiet = { out: () => {}, err: () => {}, cwd: root, debug: false, errTty: false };
const warm = ['cthg/fan.dat', 'isprite/hero.isprite', 'hallgeir/hero.spr', 'spritetile/level.bytes', 'interop/hero.json'];
for (const argv of [
  ...warm.map((f) => ['inspect', `samples/${f}`]),
  ['inspect', '--json', 'samples/cthg/fan.dat'],
  ['validate', 'samples/cthg/fan.dat'],
  ['--help'],
]) {
  const code = await mod.exports.main(argv, quiet);
  if (code !== 0) throw new Error(`build-cli: warming with "sprat ${argv.join(' ')}" exited ${code}`);
}
writeFileSync(`${out}.cache.tmp`, script.createCachedData());
renameSync(`${out}.cache.tmp`, `${out}.cache`);
