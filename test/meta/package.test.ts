/**
 * The package as people install it.
 *
 * - Fast: `sprat --version`, and `npm pack --dry-run` of the checkout: what
 *   the tarball holds besides the build (README, LICENSE, CHANGELOG, bin,
 *   schemas, samples) and nothing it must not (tests, sources, scripts).
 * - SLOW (one build, about 30 s alone): the package is built in a temporary
 *   copy of the checkout, packed, and installed into a fresh project
 *   (`npm install --offline` of the tarball; where the npm cache lacks the
 *   dependencies, as on a machine that never ran `npm install`, the tarball is
 *   unpacked into node_modules/ and the dependencies are linked from this
 *   checkout, which is what npm would have made). There the CLI runs, Node
 *   imports `sprat` and `sprat/node`, TypeScript compiles against the shipped
 *   types, and Chromium loads dist/index.js from a static page with an import
 *   map (no bundler) and draws samples to the same PNG bytes as Node.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { runCli } from '../helpers/cli.js';
import { ROOT, SAMPLES } from '../helpers/paths.js';
import { haveChromium, launchChromium, watchedPage } from '../web/harness.js';
import { load, render } from '../../src/api.js';
import { encodeRender } from '../../src/render/output.js';
import { getZlibDeflate, setZlibDeflate } from '../../src/render/deflate.js';
import { fsResourceLoader } from '../../src/node/fs.js';

const run = promisify(execFile);
const PKG = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  files: string[];
  main: string;
  types: string;
  bin: Record<string, string>;
  exports: Record<string, { types: string; import: string }>;
  dependencies: Record<string, string>;
};

interface PackFile {
  path: string;
  size: number;
  mode: number;
}

/** `npm pack --json` in `dir` (no lifecycle scripts: the build is done before when wanted). */
async function pack(dir: string, dryRun: boolean, dest?: string): Promise<{ filename: string; files: PackFile[] }> {
  const args = ['pack', '--json', '--ignore-scripts', ...(dryRun ? ['--dry-run'] : []), ...(dest ? ['--pack-destination', dest] : [])];
  const { stdout } = await run('npm', args, { cwd: dir, maxBuffer: 64 << 20, timeout: 120_000 });
  const [result] = JSON.parse(stdout) as { filename: string; files: PackFile[] }[];
  return result!;
}

/** Every file under dir, relative, with `/`. */
function listFiles(dir: string, base = dir): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...listFiles(p, base));
    else out.push(path.relative(base, p).split(path.sep).join('/'));
  }
  return out;
}

/** What must never be in the tarball. */
const FORBIDDEN = [
  /^test\//,
  /^src\//,
  /^bench\//,
  /^scripts\//,
  /^web\//,
  /\.test\.[jt]s$/,
  /node_modules\//,
  /\.sprat-tmp-/,
  /^fuzz-findings\//,
];

describe('sprat --version', () => {
  it("prints the package's version and exits 0", async () => {
    const r = await runCli(['--version']);
    expect(r).toEqual({ code: 0, stdout: `sprat ${PKG.version}\n`, stderr: '' });
    expect(PKG.version).toMatch(/^\d+\.\d+\.\d+(-[\w.]+)?$/);
  });

  it('the main help says how to ask for it', async () => {
    expect((await runCli(['--help'])).stdout).toContain('sprat --version');
  });
});

describe('npm pack (fast: the checkout as it is)', () => {
  it('holds README, LICENSE, CHANGELOG, bin, every schema and sample; no tests, sources or scripts', async () => {
    const { files } = await pack(ROOT, true);
    const paths = files.map((f) => f.path);
    for (const p of ['README.md', 'LICENSE', 'CHANGELOG.md', 'package.json', 'bin/sprat.js', 'schemas/index.json'])
      expect(paths).toContain(p);
    for (const f of fs.readdirSync(path.join(ROOT, 'schemas'))) expect(paths).toContain(`schemas/${f}`);
    for (const f of listFiles(SAMPLES)) expect(paths).toContain(`samples/${f}`);
    for (const f of listFiles(path.join(ROOT, 'conformance'))) expect(paths).toContain(`conformance/${f}`);
    for (const p of paths) for (const re of FORBIDDEN) expect(p, `${p} should not be packed`).not.toMatch(re);
    // every place package.json points to is inside what "files" ships
    const targets = [PKG.main, PKG.types, ...Object.values(PKG.bin), ...Object.values(PKG.exports).flatMap((e) => [e.types, e.import])];
    for (const t of targets)
      expect(
        PKG.files.some((f) => t.replace(/^\.\//, '').startsWith(`${f}/`)),
        t,
      ).toBe(true);
    expect(PKG.files).not.toContain('web'); // the viewer ships built, in dist/web
  }, 120_000);
});

// ---------------------------------------------------------------- SLOW: build, pack, install

/** Not copied for the build: what the build makes, installs, or what a run leaves behind. */
const NOT_COPIED = new Set(['node_modules', 'dist', '.git', 'out', 'test-results', 'fuzz-findings', '.scratch']);

let work = '';
let built = '';
let project = '';
let tarball = '';
let packed: PackFile[] = [];
let installedBy = '';

/** The package directory a bare specifier resolves to from the installed sprat (its own node_modules, then this checkout's). */
function packageDir(name: string): string {
  for (const base of [path.join(project, 'node_modules'), path.join(ROOT, 'node_modules')]) {
    const d = path.join(base, name);
    if (fs.existsSync(path.join(d, 'package.json'))) return fs.realpathSync(d);
  }
  throw new Error(`dependency ${name} not found`);
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-package-'));
  built = path.join(work, 'src-copy');
  project = path.join(work, 'project');
  fs.mkdirSync(built);
  for (const e of fs.readdirSync(ROOT)) if (!NOT_COPIED.has(e)) fs.cpSync(path.join(ROOT, e), path.join(built, e), { recursive: true });
  fs.symlinkSync(fs.realpathSync(path.join(ROOT, 'node_modules')), path.join(built, 'node_modules'));
  await run('npm', ['run', 'build'], { cwd: built, timeout: 240_000 });
  const result = await pack(built, false, work);
  tarball = path.join(work, result.filename);
  packed = result.files;

  fs.mkdirSync(project);
  fs.writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }),
  );
  try {
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], { cwd: project, timeout: 120_000 });
    installedBy = 'npm install --offline';
  } catch (e) {
    // Only a cache without the dependencies is worked around; any other failure of the install is the package's.
    if (!/ENOTCACHED/.test(String((e as { stderr?: string }).stderr))) throw e;
    // Unpack as npm would, with the dependencies linked from this checkout.
    const dest = path.join(project, 'node_modules', PKG.name);
    fs.mkdirSync(dest, { recursive: true });
    await run('tar', ['-xzf', tarball, '-C', dest, '--strip-components=1']);
    for (const dep of Object.keys(PKG.dependencies)) {
      const to = path.join(project, 'node_modules', dep);
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.symlinkSync(fs.realpathSync(path.join(ROOT, 'node_modules', dep)), to);
    }
    fs.mkdirSync(path.join(project, 'node_modules/.bin'), { recursive: true });
    for (const [name, target] of Object.entries(PKG.bin)) {
      fs.symlinkSync(path.join('..', PKG.name, target), path.join(project, 'node_modules/.bin', name));
    }
    installedBy = 'unpacked, dependencies linked';
  }
}, 400_000);

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe('SLOW: the built package, packed and installed', () => {
  it('the tarball holds the build: every export with its types, the viewer, and source maps whose sources are there', () => {
    const paths = new Set(packed.map((f) => f.path));
    const targets = [PKG.main, PKG.types, ...Object.values(PKG.exports).flatMap((e) => [e.types, e.import])];
    for (const t of targets) expect(paths.has(t.replace(/^\.\//, '')), t).toBe(true);
    for (const p of ['dist/web/index.html', 'dist/web/viewer.js', 'dist/web/viewer.css', 'dist/cli/main.js'])
      expect(paths.has(p), p).toBe(true);
    for (const p of paths) for (const re of FORBIDDEN) expect(p, `${p} should not be packed`).not.toMatch(re);
    const bin = packed.find((f) => f.path === 'bin/sprat.js')!;
    expect(bin.mode & 0o111, 'bin/sprat.js is executable').not.toBe(0);
    const maps = [...paths].filter((p) => p.endsWith('.js.map')); // (not the Hallgeir sample level1.map)
    expect(maps.length).toBeGreaterThan(50);
    const unpacked = path.join(project, 'node_modules', PKG.name);
    for (const m of maps) {
      const map = JSON.parse(fs.readFileSync(path.join(unpacked, m), 'utf8')) as { sources: string[]; sourcesContent?: (string | null)[] };
      map.sources.forEach((s, i) => {
        const shipped = paths.has(path.posix.normalize(path.posix.join(path.posix.dirname(m), s)));
        expect(shipped || typeof map.sourcesContent?.[i] === 'string', `${m}: source ${s} is neither shipped nor inlined`).toBe(true);
      });
    }
  });

  it('the installed CLI runs: --version, inspect --json as in the checkout, render, an error line', async () => {
    const sprat = path.join(project, 'node_modules/.bin/sprat');
    const v = await run(sprat, ['--version'], { cwd: project });
    expect(v.stdout).toBe(`sprat ${PKG.version}\n`);
    const sample = path.join(project, 'node_modules', PKG.name, 'samples/isprite/hero.isprite');
    const inspected = await run(sprat, ['inspect', '--json', sample], { cwd: project });
    expect(JSON.parse(inspected.stdout)).toEqual(
      JSON.parse((await runCli(['inspect', '--json', path.join(SAMPLES, 'isprite/hero.isprite')])).stdout),
    );
    await run(sprat, ['render', sample, '--animation', 'walk', '-o', 'walk.gif'], { cwd: project });
    expect(fs.readFileSync(path.join(project, 'walk.gif')).subarray(0, 6).toString()).toBe('GIF89a');
    const bad = await run(sprat, ['inspect', 'missing.isprite'], { cwd: project }).catch((e: { code: number; stderr: string }) => e);
    expect('code' in bad && bad.code).toBe(1);
    expect((bad as { stderr: string }).stderr).toMatch(/^sprat: error: missing\.isprite: /);
    expect(installedBy).not.toBe('');
  }, 60_000);

  it("Node imports 'sprat' and 'sprat/node' by name, and TypeScript compiles against the shipped types", async () => {
    const script = [
      "import { load, validate, encodeRender, render } from 'sprat';",
      "import { fsResourceLoader } from 'sprat/node';",
      "import { readFileSync } from 'node:fs';",
      `const dir = 'node_modules/${PKG.name}/samples/isprite/';`,
      "const bytes = readFileSync(dir + 'hero.isprite');",
      "const loaded = load(bytes, 'hero.isprite');",
      'const png = encodeRender(await render(loaded, {}, fsResourceLoader(dir)), "png");',
      "console.log(JSON.stringify({ format: loaded.handler.name, valid: validate(bytes, 'hero.isprite').valid, png: png.length }));",
    ].join('\n');
    fs.writeFileSync(path.join(project, 'use.ts'), script);
    fs.writeFileSync(path.join(project, 'use.mjs'), script);
    const { stdout } = await run(process.execPath, ['use.mjs'], { cwd: project });
    const out = JSON.parse(stdout) as { format: string; valid: boolean; png: number };
    expect(out.format).toBe('isprite');
    expect(out.valid).toBe(true);
    expect(out.png).toBeGreaterThan(100);
    fs.writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          strict: true,
          skipLibCheck: true,
          noEmit: true,
          types: ['node'],
          typeRoots: [path.join(ROOT, 'node_modules/@types')],
        },
        files: ['use.ts'],
      }),
    );
    const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
    const r = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project }).catch((e: { stdout: string }) => e);
    expect((r as { stdout: string }).stdout).toBe('');
  }, 60_000);

  it.skipIf(!haveChromium && !process.env.CI)(
    'Chromium loads dist/index.js from a static page with an import map (no bundler) and draws samples as Node does',
    async () => {
      const installed = path.join(project, 'node_modules', PKG.name);
      // The bare names the package and its dependencies import, mapped to each one's browser ES module.
      const dirs = new Map<string, string>([[PKG.name, fs.realpathSync(installed)]]);
      const entries = new Map<string, string>([[PKG.name, 'dist/index.js']]);
      const cjs = new Map<string, string>();
      const subpaths = new Map<string, string>();
      const todo = Object.keys(PKG.dependencies);
      while (todo.length) {
        const name = todo.shift()!;
        if (dirs.has(name)) continue;
        const dir = packageDir(name);
        dirs.set(name, dir);
        const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
        const entry = esmEntry(pkg);
        if (entry) {
          entries.set(name, entry);
          // Subpath exports (`eta/core`), as an import-map generator maps them.
          for (const [sub, target] of Object.entries(pkg.exports ?? {})) {
            if (sub === '.' || !sub.startsWith('./')) continue;
            const t = typeof target === 'string' ? target : (target as { import?: unknown }).import;
            if (typeof t === 'string' && t.endsWith('.js'))
              subpaths.set(`${name}/${sub.slice(2)}`, `/pkg/${name}/${t.replace(/^\.\//, '')}`);
          }
        } else {
          // CommonJS only (decode-bmp): a browser cannot load it; served converted to one ES module, as an ESM CDN would.
          const out = await build({
            entryPoints: [dir],
            bundle: true,
            format: 'esm',
            platform: 'browser',
            write: false,
            logLevel: 'silent',
          });
          cjs.set(name, out.outputFiles[0]!.text);
          continue;
        }
        todo.push(...Object.keys(pkg.dependencies ?? {}));
      }
      const imports: Record<string, string> = {};
      for (const [name, entry] of entries) {
        imports[name] = `/pkg/${name}/${entry.replace(/^\.\//, '')}`;
        imports[`${name}/`] = `/pkg/${name}/`;
      }
      for (const name of cjs.keys()) imports[name] = `/cjs/${encodeURIComponent(name)}.js`;
      for (const [spec, url] of subpaths) imports[spec] = url;
      const cases = [
        { file: 'isprite/hero.isprite', options: { animation: 'Root/Armed/attack', frame: '1', shapes: true } },
        { file: 'hallgeir/level1.map', options: {} },
        { file: 'spritetile/level.bytes', options: { tileset: '0=tiles.png:16x16' } },
        { file: 'solarus/sprites/slime.dat', options: { sheet: true } },
        { file: 'interop/dungeon.tmj', options: {} },
        { file: 'cthg/fan.dat', options: { animation: 'desk_fan', view: 'south', frame: '0', recolour: '1=fan_palette.png' } },
      ];
      const page = `<!doctype html><meta charset="utf-8"><title>sprat without a bundler</title>
<script type="importmap">${JSON.stringify({ imports })}</script>
<script type="module">
import * as sprat from 'sprat';
const cases = ${JSON.stringify(cases)};
const results = [];
for (const c of cases) {
  const base = new URL('/pkg/sprat/samples/' + c.file, location.href);
  const resources = {
    async load(p) {
      const r = await fetch(new URL(p, base));
      if (!r.ok) throw Object.assign(new Error(p + ': ' + r.status), r.status === 404 ? { code: 'ENOENT' } : {});
      return new Uint8Array(await r.arrayBuffer());
    },
    async exists(p) {
      return (await fetch(new URL(p, base), { method: 'HEAD' })).ok;
    },
  };
  try {
    const bytes = new Uint8Array(await (await fetch(base)).arrayBuffer());
    const loaded = sprat.load(bytes, c.file.replace(/^.*\\//, ''));
    const png = sprat.encodeRender(await sprat.render(loaded, c.options, resources), 'png');
    results.push({ file: c.file, png: Array.from(png) });
  } catch (e) {
    results.push({ file: c.file, error: String(e && e.stack || e) });
  }
}
window.results = results;
</script>`;
      const server = http.createServer((req, res) => {
        const url = new URL(req.url ?? '/', 'http://x');
        const send = (status: number, body: string | Uint8Array, type = 'text/plain') => {
          res.writeHead(status, { 'Content-Type': type });
          res.end(req.method === 'HEAD' ? undefined : body);
        };
        if (url.pathname === '/') return send(200, page, 'text/html');
        if (url.pathname.startsWith('/cjs/')) {
          const text = cjs.get(decodeURIComponent(url.pathname.slice(5, -3)));
          return text === undefined ? send(404, 'no') : send(200, text, 'text/javascript');
        }
        const m = /^\/pkg\/(@[^/]+\/[^/]+|[^/]+)\/(.*)$/.exec(decodeURIComponent(url.pathname));
        const dir = m && dirs.get(m[1]!);
        if (!m || !dir) return send(404, 'no');
        const file = path.join(dir, m[2]!);
        if (!file.startsWith(dir + path.sep) || !fs.existsSync(file)) return send(404, 'no');
        if (fs.statSync(file).isDirectory()) return send(m[2]!.endsWith('/') ? 200 : 404, '');
        const type = /\.m?js$/.test(file) ? 'text/javascript' : file.endsWith('.json') ? 'application/json' : 'application/octet-stream';
        return send(200, fs.readFileSync(file), type);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const browser = await launchChromium();
      try {
        const { page: tab, errors } = await watchedPage(browser);
        await tab.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
        await tab.waitForFunction(() => (window as unknown as { results?: unknown }).results !== undefined, undefined, { timeout: 60_000 });
        const results = (await tab.evaluate(() => (window as unknown as { results: unknown }).results)) as {
          file: string;
          png?: number[];
          error?: string;
        }[];
        // 404s of candidate places (a texture tried with several extensions) are expected console noise
        expect(errors.filter((e) => !/404/.test(e))).toEqual([]);
        for (const [i, c] of cases.entries()) {
          const r = results[i]!;
          expect(r.error, c.file).toBeUndefined();
          const bytes = fs.readFileSync(path.join(SAMPLES, c.file));
          const loaded = load(bytes, path.basename(c.file));
          const result = await render(loaded, c.options, fsResourceLoader(path.dirname(path.join(SAMPLES, c.file))));
          // The browser compresses with fflate; the CLI loaded here installed node's zlib (other bytes, the same pixels).
          const zlib = getZlibDeflate();
          setZlibDeflate(null);
          const expected = encodeRender(result, 'png');
          setZlibDeflate(zlib);
          expect(Buffer.from(r.png!).equals(Buffer.from(expected)), `${c.file}: the browser's PNG differs from Node's`).toBe(true);
        }
      } finally {
        await browser.close();
        await new Promise((resolve) => server.close(resolve));
      }
    },
    120_000,
  );
});

/**
 * A package's ES module entry for browsers, or undefined when it has only
 * CommonJS: `exports` through its "import" or "module" condition (or any
 * entry of a "type": "module" package), else `module`, else `main` of a
 * "type": "module" package.
 */
function esmEntry(pkg: { type?: string; main?: string; module?: string; exports?: unknown }): string | undefined {
  const isModule = pkg.type === 'module';
  const pick = (e: unknown, esm: boolean): string | undefined => {
    if (typeof e === 'string') return esm || isModule || e.endsWith('.mjs') ? e : undefined;
    if (!e || typeof e !== 'object') return undefined;
    const o = e as Record<string, unknown>;
    if ('.' in o) return pick(o['.'], esm);
    for (const k of ['import', 'module', 'default']) {
      const v = pick(o[k], esm || k !== 'default');
      if (v) return v;
    }
    return undefined;
  };
  return pick(pkg.exports, false) ?? pkg.module ?? (isModule ? (pkg.main ?? 'index.js') : undefined);
}
