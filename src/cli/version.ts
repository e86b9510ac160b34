import { readFileSync } from 'node:fs';

/**
 * The package's version, read from its package.json (two folders up from
 * here: src/cli/ in the checkout, dist/cli/ once built or installed), so it
 * can never drift from the release.
 */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  if (typeof pkg.version !== 'string') throw new Error('package.json has no version');
  return pkg.version;
}
