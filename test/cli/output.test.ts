import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { SAMPLES } from '../helpers/paths.js';

let dir: string;
let original: Buffer;
const hero = () => path.join(dir, 'a', 'a.isprite');
const listing = () => fs.readdirSync(dir, { recursive: true }).map(String).sort();

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-out-'));
  fs.mkdirSync(path.join(dir, 'a'));
  original = fs.readFileSync(path.join(SAMPLES, 'isprite', 'hero.isprite'));
  fs.writeFileSync(hero(), original);
  fs.copyFileSync(path.join(SAMPLES, 'isprite', 'hero.png'), path.join(dir, 'a', 'hero.png'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function expectOneErrorLine(stderr: string, file: string) {
  expect(stderr.split('\n')).toHaveLength(2);
  expect(stderr.startsWith(`sprat: error: ${file}: `)).toBe(true);
  expect(stderr).not.toMatch(/internal error|\n\s+at /);
}

describe('convert and render never touch their input', () => {
  it('OUT = IN through another spelling, a symbolic link or a hard link', async () => {
    fs.symlinkSync('a/a.isprite', path.join(dir, 'link.isprite'));
    fs.linkSync(hero(), path.join(dir, 'hard.isprite'));
    for (const [inp, out] of [
      ['a/a.isprite', './a/../a/a.isprite'],
      ['a/a.isprite', 'a//a.isprite'],
      ['a/a.isprite', 'link.isprite'],
      ['link.isprite', 'a/a.isprite'],
      ['a/a.isprite', 'hard.isprite'],
    ]) {
      const r = await runCli(['convert', inp!, out!], dir);
      expect(r.code, `${inp} -> ${out}`).toBe(2);
      expectOneErrorLine(r.stderr, out!);
      expect(fs.readFileSync(hero()).equals(original)).toBe(true);
      expect(fs.lstatSync(path.join(dir, 'link.isprite')).isSymbolicLink()).toBe(true);
    }
    const r = await runCli(['render', 'a/a.isprite', '-o', 'a/a.isprite.png'], dir);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(listing().filter((f) => f.includes('sprat-tmp'))).toEqual([]);
  });

  it('writing through a symbolic link replaces the file it names and keeps the link', async () => {
    fs.writeFileSync(path.join(dir, 'real.isprite'), 'old');
    fs.symlinkSync('real.isprite', path.join(dir, 'out.isprite'));
    const r = await runCli(['convert', 'a/a.isprite', 'out.isprite'], dir);
    expect(r.code).toBe(0);
    expect(fs.lstatSync(path.join(dir, 'out.isprite')).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'real.isprite')).equals(original)).toBe(true);
  });
});

describe('write failures', () => {
  it('name the output, exit 1, and leave no file behind', async () => {
    fs.mkdirSync(path.join(dir, 'folder'));
    fs.writeFileSync(path.join(dir, 'plain'), 'x');
    const before = listing();
    for (const out of ['folder', 'plain/x.isprite', 'nowhere/x.isprite']) {
      const r = await runCli(['convert', 'a/a.isprite', out], dir);
      expect(r.code, out).toBe(1);
      expectOneErrorLine(r.stderr, out);
    }
    for (const out of ['plain/x.png', 'nowhere/x.png']) {
      const r = await runCli(['render', 'a/a.isprite', '-o', out], dir);
      expect(r.code, out).toBe(1);
      expectOneErrorLine(r.stderr, out);
    }
    fs.mkdirSync(path.join(dir, 'folder.png'));
    const r = await runCli(['render', 'a/a.isprite', '-o', 'folder.png'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('sprat: error: folder.png: is a folder, not a file\n');
    const n = await runCli(['convert', 'a/a.isprite', 'nowhere/x.isprite'], dir);
    expect(n.stderr).toBe('sprat: error: nowhere/x.isprite: cannot write: its folder does not exist\n');
    expect(listing()).toEqual([...before, 'folder.png'].sort());
    expect(fs.readFileSync(hero()).equals(original)).toBe(true);
  });

  it('a conversion that cannot be done leaves no partial file', async () => {
    const r = await runCli(['convert', 'a/a.isprite', 'out.xyz'], dir);
    expect(r.code).toBe(1);
    expectOneErrorLine(r.stderr, 'a/a.isprite');
    const before = listing();
    fs.writeFileSync(path.join(dir, 'bad.isprite'), original.subarray(0, 100));
    const r2 = await runCli(['convert', 'bad.isprite', 'out.isprite'], dir);
    expect(r2.code).toBe(1);
    expectOneErrorLine(r2.stderr, 'bad.isprite');
    expect(r2.stderr).toMatch(/at byte \d+/);
    expect(listing()).toEqual([...before, 'bad.isprite'].sort());
  });
});

describe('companion files of a conversion', () => {
  it('stay in the output folder, whatever names the document gives them', async () => {
    const { outputTargets } = await import('../../src/cli/convert.js');
    const bytes = new Uint8Array(1);
    const out = path.join(dir, 'o', 'x.json');
    expect(
      outputTargets(out, [
        { name: 'x.json', bytes },
        { name: 'x-sheet.png', bytes },
      ]).map((t) => t.path),
    ).toEqual([out, path.join(dir, 'o', 'x-sheet.png')]);
    for (const name of ['../x.png', 'x-/../../../etc/x.png', '/etc/x.png', '.', 'a/../..']) {
      expect(
        () =>
          outputTargets(
            out,
            [
              { name: 'x.json', bytes },
              { name, bytes },
            ],
            'o/x.json',
          ),
        name,
      ).toThrow(/^a file ".*" would be written outside the output's folder$/);
    }
  });
});
