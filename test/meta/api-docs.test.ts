/**
 * The API reference (`npm run docs:api`, settings in typedoc.json): TypeDoc
 * runs in-process on the package's entry points with the project's settings
 * and writes the HTML to a temporary folder; any warning or error (a broken
 * `{@link}`, a type the API uses that no entry point exports, a bad option)
 * fails. A small project with one broken link and one unexported type shows
 * that those settings do catch both.
 */
import { describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Application, Logger, LogLevel, TSConfigReader, TypeDocReader, type TypeDocOptions } from 'typedoc';
import { ROOT } from '../helpers/paths.js';

const CONFIG = path.join(ROOT, 'typedoc.json');

/** Keeps every message TypeDoc logs at warning level or above. */
class CapturingLogger extends Logger {
  readonly messages: string[] = [];
  override log(message: string, level: LogLevel): void {
    if (level >= LogLevel.Warn) this.messages.push(`${LogLevel[level]}: ${message}`);
  }
}

/** Converts, validates and renders into `out`; returns the warnings and errors. */
async function runTypedoc(options: TypeDocOptions, out: string, readConfig: boolean): Promise<{ messages: string[]; files: string[] }> {
  const app = await Application.bootstrapWithPlugins(options, readConfig ? [new TypeDocReader(), new TSConfigReader()] : []);
  const logger = new CapturingLogger();
  if (app.logger.hasErrors() || app.logger.hasWarnings()) logger.messages.push('Error: the options did not load (see the output above)');
  app.logger = logger;
  const project = await app.convert();
  if (!project) return { messages: [...logger.messages, 'Error: TypeDoc converted nothing'], files: [] };
  app.validate(project);
  await app.generateDocs(project, out);
  return { messages: logger.messages, files: fs.existsSync(out) ? fs.readdirSync(out, { recursive: true }).map(String) : [] };
}

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-api-docs-'));
}

describe('API reference (TypeDoc)', () => {
  it('is generated from every entry point of the package without a warning', async () => {
    const config = JSON.parse(fs.readFileSync(CONFIG, 'utf8')) as { entryPoints: string[]; treatWarningsAsErrors: boolean };
    expect(config.treatWarningsAsErrors).toBe(true);
    // Every "exports" subpath of package.json is an entry point (dist/X/index.js <- src/X/index.ts).
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      exports: Record<string, { import: string }>;
      scripts: Record<string, string>;
    };
    const fromExports = Object.values(pkg.exports).map((e) => e.import.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'));
    expect([...config.entryPoints].sort()).toEqual(fromExports.sort());
    expect(pkg.scripts['docs:api']).toBeDefined();

    const out = tempDir();
    try {
      const { messages, files } = await runTypedoc({ options: CONFIG }, out, true);
      expect(messages).toEqual([]);
      for (const mod of ['sprat', 'sprat_cthg', 'sprat_spritetile', 'sprat_node', 'sprat_lzf', 'sprat_render', 'sprat_interop']) {
        expect(files, mod).toContain(path.join('modules', `${mod}.html`));
      }
      expect(files).toContain('index.html');
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  }, 180_000);

  it('fails on a broken link and on a type the API uses but does not export', async () => {
    const dir = tempDir();
    try {
      // TypeDoc names a symbol by its package: without a package.json it does not check exports.
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'demo', version: '1.0.0' }));
      fs.writeFileSync(path.join(dir, 'hidden.ts'), 'export interface Hidden {\n  a: number;\n}\n');
      fs.writeFileSync(
        path.join(dir, 'index.ts'),
        [
          "import type { Hidden } from './hidden.js';",
          '/** Reads a thing; see {@link Nowhere}. */',
          'export function read(h: Hidden): number {',
          '  return h.a;',
          '}',
          '',
        ].join('\n'),
      );
      fs.writeFileSync(
        path.join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: { strict: true, target: 'ES2022', module: 'ES2022', moduleResolution: 'bundler', types: [] },
          files: ['index.ts'],
        }),
      );
      const settings = JSON.parse(fs.readFileSync(CONFIG, 'utf8')) as Record<string, unknown>;
      const { messages } = await runTypedoc(
        {
          validation: settings.validation as TypeDocOptions['validation'],
          treatWarningsAsErrors: settings.treatWarningsAsErrors as boolean,
          skipErrorChecking: true,
          disableSources: true,
          readme: 'none',
          entryPoints: [path.join(dir, 'index.ts')],
          tsconfig: path.join(dir, 'tsconfig.json'),
        },
        path.join(dir, 'out'),
        false,
      );
      expect(
        messages.some((m) => m.includes('Nowhere')),
        messages.join('\n'),
      ).toBe(true);
      expect(
        messages.some((m) => m.includes('Hidden')),
        messages.join('\n'),
      ).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
