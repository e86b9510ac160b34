import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

describe('sprat command line', () => {
  it('prints help and exits 0', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/usage: sprat COMMAND/);
  });

  it('exits 2 with no command or an unknown one', async () => {
    expect((await runCli([])).code).toBe(2);
    const r = await runCli(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('sprat: error: unknown command "frobnicate" (see sprat --help)\n');
  });

  it('exits 2 for unknown options and missing values', async () => {
    const r = await runCli(['inspect', 'x', '--nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('sprat: error: unknown option --nope\n');
    expect((await runCli(['inspect', 'x', '--format'])).code).toBe(2);
    expect((await runCli(['inspect'])).code).toBe(2);
  });

  it('every command has --help', async () => {
    for (const c of ['inspect', 'validate', 'convert', 'render', 'play', 'demo', 'view']) {
      const r = await runCli([c, '--help']);
      expect(r.code, c).toBe(0);
      expect(r.stdout, c).toMatch(/^usage: sprat /);
    }
  });

  it('names a missing file in one error line, exit 1', async () => {
    const r = await runCli(['inspect', 'does-not-exist.isprite']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('sprat: error: does-not-exist.isprite: no such file\n');
  });
});
