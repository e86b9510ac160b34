import { afterAll, describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { CORPUS, SAMPLES } from '../helpers/paths.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-check-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function place(rel: string, data: Uint8Array | string): string {
  const p = path.join(tmp, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, data);
  return p;
}

// a quest whose sprite names a PNG that is not there
place('quest/data/quest.dat', 'quest{\n  solarus_version = "1.6",\n  write_dir = "x",\n}\n');
place('quest/data/sprites/slime.dat', fs.readFileSync(path.join(SAMPLES, 'solarus/sprites/slime_lua.dat')));
// an Aseprite export whose sheet is missing
place('ase/hero.json', fs.readFileSync(path.join(SAMPLES, 'interop/hero.json')));
// a corrupt ISPRITE
place('bad/hero.isprite', fs.readFileSync(path.join(SAMPLES, 'isprite/hero.isprite')).subarray(0, 20));
// unrelated files only
place('other/notes.txt', 'hello\n');
place('other/package.json', '{"name": "x", "version": "1.0.0"}\n');
place('other/picture.png', fs.readFileSync(path.join(SAMPLES, 'interop/hero.png')));
place('other/quest.dat', 'quest{\n  solarus_version = "1.6",\n}\n');
place('other/node_modules/bad.isprite', 'junk');
// a Solarus sprite (line syntax) with one warning: an extra token after loop_on_frame
const slime = fs.readFileSync(path.join(SAMPLES, 'solarus/sprites/slime.dat'), 'utf8');
place('warn/sprites/slime.dat', slime.replace(/^(stopped enemies\/slime\.png 4 0 -1)/, '$1 extra'));
place('warn/sprites/enemies/slime.png', fs.readFileSync(path.join(SAMPLES, 'solarus/sprites/enemies/slime.png')));

describe('sprat check', () => {
  it('the corpus quest: every sprite and its sheets are fine (tilesets and quest.dat are not sprites)', async () => {
    const r = await runCli(['check', 'data'], path.join(CORPUS, 'solarus/quest-editor-initial'));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/: (error|warning): /);
    expect(r.stdout).toMatch(/^solarus-lua +55 +0 +0$/m);
    expect(r.stdout).toMatch(/^total +55 +0 +0$/m);
  }, 60000);

  it('the bundled samples are all fine', async () => {
    const r = await runCli(['check', SAMPLES]);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/: error: /);
    expect(r.stdout).toMatch(/^total +12 +0 +0$/m);
  }, 60000);

  it('a sprite naming a missing PNG: one error naming the file and the PNG', async () => {
    const r = await runCli(['check', 'quest'], tmp);
    expect(r.code).toBe(1);
    const lines = r.stdout.split('\n').filter((l) => / error: /.test(l));
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(l).toMatch(/^quest[\\/]data[\\/]sprites[\\/]slime\.dat: error: .*slime\.png/);
    expect(r.stdout).toMatch(/^total +1 +1 +0$/m);
  });

  it('an Aseprite JSON whose sheet is missing', async () => {
    const r = await runCli(['check', 'ase'], tmp);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^ase[\\/]hero\.json: error: .*hero\.png/m);
    expect(r.stdout).toMatch(/^aseprite +1 +1 +0$/m);
  });

  it('a corrupt ISPRITE gives its FormatError line with the place', async () => {
    const r = await runCli(['check', 'bad'], tmp);
    expect(r.code).toBe(1);
    const v = await runCli(['validate', path.join('bad', 'hero.isprite')], tmp);
    expect(r.stdout.split('\n')[0]).toBe(v.stdout.trim());
    expect(r.stdout).toMatch(/\(at byte \d+\)$/m);
  });

  it('unrelated files are skipped quietly (and node_modules is not walked)', async () => {
    const r = await runCli(['check', 'other'], tmp);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^total +0 +0 +0$/m);
    expect(r.stdout).not.toMatch(/notes|package|picture|quest|bad/);
  });

  it('--json prints one report', async () => {
    const r = await runCli(['check', 'quest', 'ase', 'bad', 'other', '--json'], tmp);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.stdout);
    expect(Object.keys(j)).toEqual(['files', 'summary']);
    expect(j.files.map((f: { path: string }) => f.path.replace(/\\/g, '/'))).toEqual([
      'quest/data/sprites/slime.dat',
      'ase/hero.json',
      'bad/hero.isprite',
    ]);
    expect(j.files.map((f: { format: string }) => f.format)).toEqual(['solarus-lua', 'aseprite', 'isprite']);
    for (const f of j.files) {
      expect(f.problems.length).toBeGreaterThan(0);
      for (const p of f.problems) {
        expect(p.severity).toBe('error');
        expect(typeof p.message).toBe('string');
      }
    }
    expect(typeof j.files[2].problems[0].offset).toBe('number');
    expect(j.summary.files).toBe(3);
    expect(j.summary.warnings).toBe(0);
    expect(j.summary.errors).toBe(j.files.reduce((n: number, f: { problems: unknown[] }) => n + f.problems.length, 0));
  });

  it('exit codes: 0 clean, 2 for a place that does not exist, --warnings-as-errors counts warnings', async () => {
    expect((await runCli(['check', 'other'], tmp)).code).toBe(0);
    const missing = await runCli(['check', 'nowhere'], tmp);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^sprat: error: nowhere: /);
    const w = await runCli(['check', 'warn'], tmp);
    expect(w.code).toBe(0);
    expect(w.stdout).toMatch(
      /^warn[\\/]sprites[\\/]slime\.dat: warning: extra tokens after loop_on_frame are ignored \(at line 1, column \d+\)$/m,
    );
    expect(w.stdout).toMatch(/^total +1 +0 +1$/m);
    const strict = await runCli(['check', 'warn', '--warnings-as-errors'], tmp);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toBe(w.stdout);
  });
});
