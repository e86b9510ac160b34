import { describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { tempTree } from '../helpers/tree.js';
import { CORPUS, SAMPLES } from '../helpers/paths.js';

const { dir: tmp, place } = tempTree('sprat-check-');

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
// a frame beyond the right edge of its sheet (solarus issue 458)
place('bounds/sprites/slime.dat', slime.replace(/^96\t0\t16/gm, '960\t0\t16'));
place('bounds/sprites/enemies/slime.png', fs.readFileSync(path.join(SAMPLES, 'solarus/sprites/enemies/slime.png')));
place('warn/sprites/enemies/slime.png', fs.readFileSync(path.join(SAMPLES, 'solarus/sprites/enemies/slime.png')));

// a Hallgeir map whose chain breaks: a missing map texture, a missing object file, an object whose sprite is missing
for (const f of ['level1.map', 'hero.obj', 'hero.png', 'coin.obj', 'coin.spr'])
  place(`hallgeir/${f}`, fs.readFileSync(path.join(SAMPLES, 'hallgeir', f)));
fs.renameSync(path.join(tmp, 'hallgeir/hero.obj'), path.join(tmp, 'hallgeir/hero-gone.obj'));

describe('sprat check', () => {
  it("the corpus quest: its real problems only (the initial quest ships 16x16 placeholder sheets for the hero's sword animations)", async () => {
    const r = await runCli(['check', 'data'], path.join(CORPUS, 'solarus/quest-editor-initial'));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    const problems = r.stdout.split('\n').filter((l) => /: (error|warning): /.test(l));
    // tilesets/castle.dat and quest.dat are not sprites: skipped; every sprite's sheets exist and decode
    expect(problems).toHaveLength(28);
    const animations = new Set<string>();
    for (const l of problems) {
      const m =
        /^data[\\/]sprites[\\/]hero[\\/]tunic1\.dat: error: (\w+) \((right|up|left|down)\), frame 0: the rectangle .* lies outside its 16x16 image/.exec(
          l,
        );
      expect(m, l).not.toBeNull();
      animations.add(m![1]!);
    }
    expect([...animations].sort()).toEqual([
      'spin_attack',
      'super_spin_attack',
      'sword',
      'sword_loading_stopped',
      'sword_loading_walking',
      'sword_tapping',
      'victory',
    ]);
    // those sheets really are 16x16 (the PNG header's width and height)
    const hero = path.join(CORPUS, 'solarus/quest-editor-initial/data/sprites/hero');
    for (const png of ['spin_attack.tunic1.png', 'sword.tunic1.png', 'victory.tunic.png', 'sword_tapping.tunic.png']) {
      const b = fs.readFileSync(path.join(hero, png));
      expect([b.readUInt32BE(16), b.readUInt32BE(20)], png).toEqual([16, 16]);
    }
    expect(r.stdout).toMatch(/^solarus-lua +55 +28 +0$/m);
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

  it('a frame rectangle outside its image is an error per animation and direction', async () => {
    const r = await runCli(['check', 'bounds'], tmp);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /^bounds[\\/]sprites[\\/]slime\.dat: error: stopped \(down\), frame 0: the rectangle x 960, y 0, 16x16 lies outside its 128x48 image$/m,
    );
    expect(r.stdout).toMatch(/walking \(down\), frame 0: .* lies outside its 128x48 image \(and 3 more frames\)$/m);
    expect(r.stdout).not.toMatch(/\((up|left|right)\), frame/);
  });

  it('the Hallgeir chain map -> object -> sprite -> texture, each broken link named, without a frame size (validate looks at the file alone)', async () => {
    const r = await runCli(['check', 'hallgeir'], tmp);
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n').filter((l) => /: error: /.test(l))).toEqual([
      'hallgeir/coin.obj: error: object "Coin" -> sprite "coin.spr": texture "coin" not found (looked for hallgeir/coin, hallgeir/coin.png, hallgeir/coin.bmp)',
      'hallgeir/coin.spr: error: the sprite: texture "coin" not found (looked for hallgeir/coin, hallgeir/coin.png, hallgeir/coin.bmp)',
      'hallgeir/hero-gone.obj: error: object "Hero": sprite "hero" not found (looked for hallgeir/hero, hallgeir/hero.spr)',
      'hallgeir/level1.map: error: the map\'s texture "coin": texture "coin.bmp" not found (looked for hallgeir/coin.bmp, hallgeir/coin.bmp.png, hallgeir/coin.bmp.bmp)',
      'hallgeir/level1.map: error: the map: object "hero.obj" not found (looked for hallgeir/hero.obj)',
    ]);
    const v = await runCli(['validate', 'hallgeir/level1.map'], tmp);
    expect([v.code, v.stdout]).toEqual([0, 'hallgeir/level1.map: ok\n']);
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
