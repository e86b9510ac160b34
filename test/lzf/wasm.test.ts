import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { ROOT } from '../helpers/paths.js';

describe('LZF WebAssembly module', () => {
  it('src/lzf/wasm-bytes.ts is what src/lzf/lzf.wat assembles to', () => {
    const out = execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-lzf-wasm.mjs'), '--check'], { encoding: 'utf8' });
    expect(out).toMatch(/up to date/);
  });
});
