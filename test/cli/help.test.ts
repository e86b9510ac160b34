import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/main.js';
import { runCli } from '../helpers/cli.js';

describe('help', () => {
  it('every command has --help, -h and "sprat help COMMAND" (exit 0, on stdout)', async () => {
    for (const c of COMMANDS) {
      for (const argv of [
        [c.name, '--help'],
        [c.name, '-h'],
        ['help', c.name],
      ]) {
        const r = await runCli(argv);
        expect([r.code, r.stderr], argv.join(' ')).toEqual([0, '']);
        expect(r.stdout.startsWith(`usage: sprat ${c.name}`), argv.join(' ')).toBe(true);
      }
    }
  });

  it('"sprat help NOPE" is an unknown command (exit 2); "--help" after "--" is a file name', async () => {
    const r = await runCli(['help', 'nope']);
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', 'sprat: error: unknown command "nope" (see sprat --help)\n']);
    const f = await runCli(['inspect', '--', '--help']);
    expect([f.code, f.stdout, f.stderr]).toEqual([1, '', 'sprat: error: --help: no such file\n']);
  });
});
