import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { ROOT, SAMPLES } from '../helpers/paths.js';

describe('a closed output pipe', () => {
  it('ends the command quietly, without a stack trace', async () => {
    const hero = path.join(SAMPLES, 'isprite', 'hero.isprite');
    const script = `import('./src/cli/main.ts').then(async (m) => { process.exitCode = await m.main(${JSON.stringify(['play', hero, '--ticks', '200000', '--json'])}); })`;
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  }, 30_000);
});
