import { describe, expect, it } from 'vitest';
import * as path from 'node:path';
import { runCli } from '../helpers/cli.js';
import * as fs from 'node:fs';
import { CORPUS, SAMPLES } from '../helpers/paths.js';
import { tempTree } from '../helpers/tree.js';

const hero = path.join(SAMPLES, 'isprite', 'hero.isprite');

describe('format names on the command line', () => {
  it('an unknown --format/--from/--to name is a command-line error (exit 2), before any file is read', async () => {
    for (const argv of [
      ['inspect', hero, '--format', 'nope'],
      ['validate', hero, 'missing.file', '--format', 'nope'],
      ['play', hero, '--format', 'nope', '--json'],
      ['render', hero, '--format', 'nope', '-o', 'x.png'],
      ['convert', hero, 'x.isprite', '--from', 'nope'],
      ['convert', hero, 'x.isprite', '--to', 'ISPRITE'],
    ]) {
      const r = await runCli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        /^sprat: error: unknown format "(nope|ISPRITE)" for --(format|from|to)(, did you mean "isprite"\?)? \(known: isprite, cthg, [^\n]*\)\n$/,
      );
    }
  });

  it('--format forcing the wrong format on a file is bad input (exit 1) with a location', async () => {
    for (const format of [
      'cthg',
      'spritetile',
      'solarus',
      'solarus-lua',
      'hallgeir-sprite',
      'hallgeir-object',
      'hallgeir-map',
      'aseprite',
      'texturepacker',
      'tiled',
    ]) {
      const r = await runCli(['inspect', hero, '--format', format]);
      expect(r.code, format).toBe(1);
      expect(r.stderr.split('\n'), format).toHaveLength(2);
      expect(r.stderr, format).toMatch(/^sprat: error: [^\n]*hero\.isprite: [^\n]*\(at (byte \d+|line \d+, column \d+)[^)]*\)\n$/);
    }
  });
});

describe('convert option values', () => {
  it('a wrong --lzf flavour is a command-line error; a foreign option names each format once', async () => {
    const level = path.join(SAMPLES, 'spritetile', 'level.bytes');
    let r = await runCli(['convert', level, 'x.bytes', '--lzf', 'nope']);
    expect([r.code, r.stderr]).toEqual([2, 'sprat: error: option --lzf must be one of clzf2, liblzf, best, not "nope"\n']);
    r = await runCli(['convert', hero, 'x.isprite', '--endian', 'big']);
    expect([r.code, r.stderr]).toEqual([2, 'sprat: error: option --endian does not apply to isprite files\n']);
  });
});

describe("convert without --to: OUT's extension shared by several formats", () => {
  const { dir } = tempTree('sprat-shared-ext-');
  const tunic = path.join(CORPUS, 'solarus/zsdx/new/hero/tunic1.dat');

  it("keeps the input's format (the contract) and says so once, naming the formats that share the extension", async () => {
    const r = await runCli(['convert', tunic, 'e9.json'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(
      `${tunic}: note: e9.json is written as solarus-lua, the input's format (.json is shared by aseprite, texturepacker and tiled: give --to to choose one)\n`,
    );
    // the bytes are the input's, re-encoded in its own format
    expect(fs.readFileSync(path.join(dir, 'e9.json'))).toEqual(fs.readFileSync(tunic));
  });

  it("no note with --to, for the input's own extension, nor for an extension one format has", async () => {
    for (const argv of [
      ['convert', tunic, 'a.json', '--to', 'solarus-lua'],
      ['convert', tunic, 'b.dat'],
      ['convert', hero, 'c.isprite'],
    ]) {
      const r = await runCli(argv, dir);
      expect([r.code, r.stderr], argv.join(' ')).toEqual([0, '']);
    }
  });
});
