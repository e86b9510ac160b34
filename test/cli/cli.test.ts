import { describe, expect, it } from 'vitest';
import * as path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { SAMPLES } from '../helpers/paths.js';

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

  it('an option only another format takes is a command-line error', async () => {
    const hero = path.join(SAMPLES, 'isprite', 'hero.isprite');
    const r = await runCli(['play', hero, '--ticks', '2', '--view', 'north']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('sprat: error: option --view does not apply to isprite files\n');
  });

  it("help lists each format's own options: a FILE's, --format F's, or with --all every format's", async () => {
    const short = await runCli(['render', '--help']);
    expect(short.stdout).not.toMatch(/\nisprite options:\n/);
    expect(short.stdout).toMatch(/\nexamples:\n {2}sprat render /);
    expect(short.stdout).toMatch(/\n {2}sprat render --help --format F +the options of format F\n/);
    const all = await runCli(['render', '--help', '--all']);
    expect(all.stdout).toMatch(/\nisprite options:\n/);
    expect(all.stdout).toMatch(/\nsolarus, solarus-lua options:\n/);
    const one = await runCli(['render', '--help', '--format', 'solarus']);
    expect(one.stdout.match(/\n[^\n]* options:\n/g)).toEqual(['\nsolarus options:\n']);
    const file = await runCli(['render', path.join(SAMPLES, 'isprite', 'hero.isprite'), '-o', 'x.png', '--help']);
    expect(file.stdout.match(/\n[^\n]* options:\n/g)).toEqual(['\nisprite options:\n']);
    const typo = await runCli(['render', '--help', '--format', 'solarsu']);
    expect([typo.code, typo.stdout]).toEqual([2, '']);
    expect(typo.stderr).toMatch(/^sprat: error: unknown format "solarsu" for --format, did you mean "solarus"\? /);
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
