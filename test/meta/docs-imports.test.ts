/**
 * Every import line in the README's and docs' code blocks runs against the
 * package as published: the specifier must be one of package.json's
 * `exports` (no relative paths, no `sprat/dist/...`), and every value it
 * names must be exported there.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../helpers/paths.js';

const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  exports: Record<string, { import: string; types: string }>;
};

function markdownFiles(): string[] {
  const out = [path.join(ROOT, 'README.md')];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir)) {
      const p = path.join(dir, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.md')) out.push(p);
    }
  };
  walk(path.join(ROOT, 'docs'));
  return out;
}

interface ImportLine {
  file: string;
  specifier: string;
  names: string[];
}

function importsOf(file: string): ImportLine[] {
  const text = readFileSync(file, 'utf8');
  const out: ImportLine[] = [];
  for (const block of text.matchAll(/```(?:ts|js|typescript|javascript)\n([\s\S]*?)```/g)) {
    for (const m of block[1]!.matchAll(/import\s*\{([^}]*)\}\s*from\s*'([^']+)'/g)) {
      const names = m[1]!
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s && !s.startsWith('type '))
        .map((s) => s.split(/\s+as\s+/)[0]!.trim());
      out.push({ file: path.relative(ROOT, file), specifier: m[2]!, names });
    }
  }
  return out;
}

/** The source module behind a package specifier (dist/X.js is built from src/X.ts). */
function sourceOf(specifier: string): string | undefined {
  const sub = specifier === pkg.name ? '.' : specifier.startsWith(pkg.name + '/') ? '.' + specifier.slice(pkg.name.length) : undefined;
  const target = sub !== undefined ? pkg.exports[sub]?.import : undefined;
  if (!target) return undefined;
  return path.join(ROOT, target.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'));
}

const lines = markdownFiles().flatMap(importsOf);

describe('the docs import what the package exports', () => {
  it('finds the import lines', () => {
    expect(lines.length).toBeGreaterThan(10);
  });

  it.each(lines.map((l) => [`${l.file}: ${l.specifier} { ${l.names.join(', ')} }`, l] as const))('%s', async (_, l) => {
    const src = sourceOf(l.specifier);
    expect(src, `${l.file}: "${l.specifier}" is not one of package.json's exports`).toBeDefined();
    const mod = (await import(pathToFileURL(src!).href)) as Record<string, unknown>;
    const missing = l.names.filter((n) => !(n in mod));
    expect(missing, `${l.file}: ${l.specifier} does not export these`).toEqual([]);
  });

  it('every export of package.json has a source module', () => {
    for (const [sub, e] of Object.entries(pkg.exports)) {
      const src = path.join(ROOT, e.import.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'));
      expect(statSync(src).isFile(), sub).toBe(true);
      expect(e.types).toBe(e.import.replace(/\.js$/, '.d.ts'));
    }
  });
});
