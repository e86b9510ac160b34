import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { build } from 'esbuild';
import { ROOT } from '../helpers/paths.js';

/** The core library runs in browsers: no Node APIs outside src/cli/ and src/node/. */
function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== 'cli' && name !== 'node') sources(p, out);
    } else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
}

describe('browser safety', () => {
  it('no core module imports a Node builtin or uses Buffer/process', () => {
    const offenders: string[] = [];
    for (const f of sources(path.join(ROOT, 'src'))) {
      const text = readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      if (/from\s+['"](node:|fs|path|os|crypto|child_process|url)['"]/.test(text) || /\bBuffer\.|\bprocess\./.test(text)) {
        offenders.push(path.relative(ROOT, f));
      }
    }
    expect(offenders).toEqual([]);
  });

  it('the whole library bundles for the browser platform', async () => {
    const r = await build({
      entryPoints: [path.join(ROOT, 'src/index.ts')],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    expect(r.errors).toEqual([]);
    expect(r.outputFiles[0]!.contents.length).toBeGreaterThan(1000);
  });
});
