import { describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { detectFormat } from '../../src/detect.js';
import { runCli } from '../helpers/cli.js';

const text = (s: string) => new TextEncoder().encode(s);

describe('format detection: the .dat rule', () => {
  it('CTHG magic, else Solarus Lua when the first statement is an animation call, else the line syntax', () => {
    expect(detectFormat(text('CTHG\x01\x02'), 'a.dat')?.name).toBe('cthg');
    expect(detectFormat(text('-- c\nanimation{ name = "a" }\n'), 'a.dat')?.name).toBe('solarus-lua');
    expect(detectFormat(text('animation x.png 1 100 -1\n'), 'a.dat')?.name).toBe('solarus');
    expect(detectFormat(text('x = 1\nanimation{ name = "a" }\n'), 'a.dat')?.name).toBe('solarus');
    // Not CTHG, not Lua, nothing the line sniffer recognises: still Solarus lines by the contract.
    for (const s of ['', 'CTH', 'single\n', '\x00\x01garbage'])
      expect(detectFormat(text(s), 'a.dat')?.name, JSON.stringify(s)).toBe('solarus');
    expect(detectFormat(text(''), 'A.DAT')?.name).toBe('solarus');
    // Magic bytes come before the extension.
    expect(detectFormat(text('ISPRITE '), 'a.dat')?.name).toBe('isprite');
  });

  it('validate names solarus for a broken .dat and reports a line and column', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-dat-'));
    try {
      fs.writeFileSync(path.join(dir, 'x.dat'), 'single\n');
      const r = await runCli(['validate', '--json', 'x.dat'], dir);
      expect(r.code).toBe(1);
      const [res] = JSON.parse(r.stdout) as { format: string; errors: string[] }[];
      expect(res!.format).toBe('solarus');
      expect(res!.errors[0]).toMatch(/at line 1, column \d+/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("convert's output format without --to", () => {
  it("the input's format for its own or a shared extension, else the one the extension names", async () => {
    const { outputFormatFor, formatByName } = await import('../../src/api.js');
    const f = (input: string, out: string) => outputFormatFor(formatByName(input), out).name;
    expect(f('solarus', 'x.dat')).toBe('solarus');
    expect(f('solarus', 'x.lua')).toBe('solarus-lua');
    expect(f('solarus-lua', 'x.dat')).toBe('solarus-lua');
    expect(f('cthg', 'x.dat')).toBe('cthg');
    expect(f('isprite', 'x.dat')).toBe('isprite'); // .dat is shared by several formats
    expect(f('cthg', 'x.json')).toBe('cthg'); // so is .json
    expect(f('isprite', 'x.sprite')).toBe('isprite');
    expect(f('tiled', 'x.bytes')).toBe('spritetile');
    expect(f('spritetile', 'x.tmj')).toBe('tiled');
    expect(f('hallgeir-sprite', 'x.isprite')).toBe('isprite');
    expect(f('isprite', 'X.ISPRITE')).toBe('isprite');
    expect(() => f('isprite', 'x.xyz')).toThrow(/use --to/);
  });
});
