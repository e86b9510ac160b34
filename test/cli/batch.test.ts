import { describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { main } from '../../src/cli/main.js';
import { globBase, globMatcher } from '../../src/node/files.js';
import { removeOwnTempsSync } from '../../src/node/fs.js';
import { runCli } from '../helpers/cli.js';
import { tempTree } from '../helpers/tree.js';
import { CORPUS, SAMPLES } from '../helpers/paths.js';

const { dir: tmp, place } = tempTree('sprat-batch-');

/** Every file under a folder, relative, sorted. */
function tree(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => fs.statSync(path.join(dir, f)).isFile())
    .map((f) => f.split(path.sep).join('/'))
    .sort();
}

const SPRITETILE = path.join(CORPUS, 'spritetile');
const QUEST = path.join(CORPUS, 'solarus/quest-editor-initial');

// a small mixed project: two good files, a corrupt one, and files that are no sprites
place('mixed/isprite/hero.isprite', fs.readFileSync(path.join(SAMPLES, 'isprite/hero.isprite')));
place('mixed/isprite/hero.png', fs.readFileSync(path.join(SAMPLES, 'isprite/hero.png')));
place('mixed/cthg/fan.dat', fs.readFileSync(path.join(SAMPLES, 'cthg/fan.dat')));
place('mixed/bad/broken.isprite', fs.readFileSync(path.join(SAMPLES, 'isprite/hero.isprite')).subarray(0, 20));
place('mixed/notes.txt', 'hello\n');

describe('sprat convert DIR OUTDIR', () => {
  it('converts the SpriteTile corpus with 2 workers, the tree mirrored; --changed then writes nothing until an input changes', async () => {
    const out = path.join(tmp, 'st-out');
    const r = await runCli(['convert', SPRITETILE, out, '--to', 'tiled', '--jobs', '2']);
    expect(r.stderr).not.toMatch(/error/);
    expect(r.code).toBe(0);
    const inputs = tree(SPRITETILE).filter((f) => f.endsWith('.bytes'));
    expect(inputs.length).toBe(16);
    expect(tree(out)).toEqual(inputs.map((f) => f.replace(/\.bytes$/, '.tmj')).sort());
    expect(r.stdout).toMatch(/^convert: 16 written, 0 unchanged, 0 failed/m);
    // the same as the single-file form
    const single = path.join(tmp, 'single.tmj');
    expect((await runCli(['convert', path.join(SPRITETILE, inputs[0]!), single, '--to', 'tiled'])).code).toBe(0);
    expect(fs.readFileSync(path.join(out, inputs[0]!.replace(/\.bytes$/, '.tmj')))).toEqual(fs.readFileSync(single));

    const mtimes = tree(out).map((f) => fs.statSync(path.join(out, f)).mtimeMs);
    const again = await runCli(['convert', SPRITETILE, out, '--to', 'tiled', '--jobs', '2', '--changed']);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('convert: 0 written, 16 unchanged, 0 failed\n');
    expect(tree(out).map((f) => fs.statSync(path.join(out, f)).mtimeMs)).toEqual(mtimes);

    // an output older than its input is written again
    const first = path.join(out, inputs[0]!.replace(/\.bytes$/, '.tmj'));
    fs.utimesSync(first, new Date(2000, 0, 1), new Date(2000, 0, 1));
    const third = await runCli(['convert', SPRITETILE, out, '--to', 'tiled', '--jobs', '2', '--changed']);
    expect(third.stdout).toMatch(/^convert: 1 written, 15 unchanged, 0 failed$/m);
  }, 120_000);

  it('converts the Solarus corpus (both syntaxes) to the Lua syntax with 2 workers', async () => {
    const out = path.join(tmp, 'lua-out');
    const src = path.join(CORPUS, 'solarus/zsdx/old');
    const r = await runCli(['convert', src, out, '--to', 'solarus-lua', '--jobs', '2']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^convert: 207 written, 0 unchanged, 0 failed$/m);
    expect(tree(out)).toEqual(tree(src));
    const again = await runCli(['convert', src, out, '--to', 'solarus-lua', '--jobs', '2', '--changed']);
    expect(again.stdout).toBe('convert: 0 written, 207 unchanged, 0 failed\n');
  }, 120_000);

  it('a failing file never stops the others: one error line for it, a summary, exit 1', async () => {
    const out = path.join(tmp, 'mixed-out');
    const r = await runCli(['convert', 'mixed', out, '--to', 'aseprite'], tmp);
    expect(r.code).toBe(1);
    const errors = r.stderr.split('\n').filter((l) => l.startsWith('sprat: error:'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^sprat: error: mixed\/bad\/broken\.isprite: /);
    expect(r.stdout).toMatch(/^convert: 2 written, 0 unchanged, 1 failed \(2 other files skipped\)$/m);
    expect(tree(out)).toEqual(['cthg/fan.json', 'cthg/fan.png', 'isprite/hero.json', 'isprite/hero.png']);
    expect(r.stdout).toContain(`wrote ${path.join(out, 'isprite/hero.json')}\n`);
    // again: the sheets the first run wrote beside the outputs are replaced too (OUTDIR holds no input)
    const again = await runCli(['convert', 'mixed', out, '--to', 'aseprite'], tmp);
    expect(again.stdout).toMatch(/^convert: 2 written, 0 unchanged, 1 failed/m);
  }, 60_000);

  it('--dry-run prints what would be written and writes nothing (no folder either)', async () => {
    const out = path.join(tmp, 'dry-out');
    const r = await runCli(['convert', 'mixed', out, '--to', 'aseprite', '--dry-run'], tmp);
    expect(fs.existsSync(out)).toBe(false);
    expect(r.stdout).toContain(`would write ${path.join(out, 'isprite/hero.json')}\n`);
    // the corrupt file is only found out by converting it
    expect(r.stdout).toMatch(/^convert: 3 would be written, 0 unchanged, 0 failed \(2 other files skipped\)$/m);
    expect(r.code).toBe(0);
  });

  it('globs (expanded by sprat) and several files; the tree below the glob is mirrored', async () => {
    const out = path.join(tmp, 'glob-out');
    const r = await runCli(['convert', 'mixed/**/*.{isprite,dat}', out, '--to', 'aseprite'], tmp);
    expect(r.code).toBe(1); // broken.isprite
    expect(tree(out)).toEqual(['cthg/fan.json', 'cthg/fan.png', 'isprite/hero.json', 'isprite/hero.png']);
    const out2 = path.join(tmp, 'files-out');
    const two = await runCli(['convert', 'mixed/isprite/hero.isprite', 'mixed/cthg/fan.dat', out2, '--to', 'aseprite'], tmp);
    expect(two.code).toBe(0);
    expect(tree(out2)).toEqual(['fan.json', 'fan.png', 'hero.json', 'hero.png']);
    const none = await runCli(['convert', 'mixed/*.nothing', out2], tmp);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe('sprat: error: mixed/*.nothing: no file matches\n');
  });

  it('never writes over an input of the batch', async () => {
    const dir = path.join(tmp, 'inplace');
    fs.cpSync(path.join(tmp, 'mixed/isprite'), dir, { recursive: true });
    const before = tree(dir).map((f) => fs.readFileSync(path.join(dir, f)));
    const r = await runCli(['convert', dir, dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/hero\.isprite: its output .* is an input of this convert; nothing was written for it/);
    expect(tree(dir).map((f) => fs.readFileSync(path.join(dir, f)))).toEqual(before);
    // into its own folder: hero.png is the sheet (no sprite, skipped), hero.isprite's output would replace it
    const pics = await runCli(['render', dir, '-o', dir]);
    expect(pics.code).toBe(1);
    expect(pics.stderr).toMatch(
      /^sprat: error: .*hero\.isprite: its output .*hero\.png is an input of this render; nothing was written for it\n$/,
    );
    expect(pics.stdout).toBe('render: 0 written, 0 unchanged, 1 failed (1 other files skipped)\n');
    expect(tree(dir).map((f) => fs.readFileSync(path.join(dir, f)))).toEqual(before);
  });

  it('--changed and --dry-run on the single-file form', async () => {
    const out = path.join(tmp, 'one-changed.json');
    const first = await runCli(['convert', 'mixed/isprite/hero.isprite', out, '--to', 'aseprite', '--changed'], tmp);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(`wrote ${out}\nwrote ${path.join(tmp, 'one-changed.png')}\nconvert: 1 written, 0 unchanged, 0 failed\n`);
    const again = await runCli(['convert', 'mixed/isprite/hero.isprite', out, '--to', 'aseprite', '--changed'], tmp);
    expect(again).toEqual({ code: 0, stdout: 'convert: 0 written, 1 unchanged, 0 failed\n', stderr: '' });
    const dry = await runCli(['render', 'mixed/cthg/fan.dat', '-o', 'fan.gif', '--dry-run'], tmp);
    expect(dry).toEqual({ code: 0, stdout: 'would write fan.gif\nrender: 1 would be written, 0 unchanged, 0 failed\n', stderr: '' });
    expect(fs.existsSync(path.join(tmp, 'fan.gif'))).toBe(false);
    const self = await runCli(['convert', 'mixed/isprite/hero.isprite', 'mixed/isprite/hero.isprite', '--changed'], tmp);
    expect(self.code).toBe(2);
    expect(self.stderr).toMatch(/^sprat: error: mixed\/isprite\/hero\.isprite: OUT is the input file/);
  });

  it('the single-file form keeps its exact output', async () => {
    const out = path.join(tmp, 'one.json');
    const r = await runCli(['convert', 'mixed/isprite/hero.isprite', out, '--to', 'aseprite'], tmp);
    expect(r).toMatchObject({ code: 0, stdout: `wrote ${out}\nwrote ${path.join(tmp, 'one.png')}\n` });
    expect(r.stderr).not.toMatch(/would|written|files/);
  });
});

describe('many inputs and an OUT named like a file', () => {
  const hero = path.join(tmp, 'mixed/isprite/hero.isprite');
  const fan = path.join(tmp, 'mixed/cthg/fan.dat');
  it('render -o OUT.png|.gif|.apng for a folder, a glob or several files: exit 2, one line, nothing made', async () => {
    for (const [inputs, out] of [
      [[path.join(tmp, 'mixed')], 'e6.png'],
      [[`${tmp}/mixed/**/*.isprite`], 'e6.gif'],
      [[hero, fan], 'e6.apng'],
    ] as const) {
      const r = await runCli(['render', ...inputs, '-o', out], tmp);
      expect([r.code, r.stdout], r.stderr).toEqual([2, '']);
      expect(r.stderr.split('\n')[0]).toBe(
        `sprat: error: ${out}: OUT must be a folder for many inputs (a folder, a glob or several files), not a name ending in ${path.extname(out)}`,
      );
      expect(fs.existsSync(path.join(tmp, out))).toBe(false);
    }
  });

  it('convert DIR|GLOB|FILE... OUTDIR with the extension of a format sprat writes: exit 2, nothing made', async () => {
    for (const [inputs, out] of [
      [[path.join(tmp, 'mixed')], 'e9.json'],
      [[hero, fan], 'e9.dat'],
      [[`${tmp}/mixed/**/*.isprite`], 'e9.tmx'],
    ] as const) {
      const r = await runCli(['convert', ...inputs, out], tmp);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^sprat: error: ${out.replace('.', '\\.')}: OUT must be a folder for many inputs`));
      expect(fs.existsSync(path.join(tmp, out))).toBe(false);
    }
  });

  it('a folder that exists keeps its name, and a name without such an extension is a new folder', async () => {
    fs.mkdirSync(path.join(tmp, 'made.png'), { recursive: true });
    expect((await runCli(['render', hero, fan, '-o', 'made.png'], tmp)).code).toBe(0);
    expect(tree(path.join(tmp, 'made.png')).length).toBe(2);
    expect((await runCli(['render', hero, fan, '-o', 'pics.v2'], tmp)).code).toBe(0);
    expect(tree(path.join(tmp, 'pics.v2')).length).toBe(2);
  });
});

describe('sprat render DIR -o OUTDIR', () => {
  it('draws every sprite of the corpus quest with 2 workers, one picture each; --changed then skips them all', async () => {
    const out = path.join(tmp, 'quest-pics');
    const tileset = path.join(QUEST, 'data/tilesets/castle.tiles.png');
    const r = await runCli(['render', QUEST, '-o', out, '--jobs', '2', '--tileset', tileset]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const sprites = tree(QUEST).filter((f) => /^data\/sprites\/.*\.dat$/.test(f));
    expect(sprites.length).toBe(55);
    expect(tree(out)).toEqual(sprites.map((f) => f.replace(/\.dat$/, '.png')).sort());
    expect(r.stdout).toMatch(/^render: 55 written, 0 unchanged, 0 failed \(\d+ other files skipped\)$/m);
    const again = await runCli(['render', QUEST, '-o', out, '--jobs', '2', '--tileset', tileset, '--changed']);
    expect(again.stdout).toMatch(/^render: 0 written, 55 unchanged, 0 failed/);
    // --image gif: animations
    const gifs = path.join(tmp, 'gifs');
    const g = await runCli(['render', path.join(QUEST, 'data/sprites/enemies'), '-o', gifs, '--image', 'gif']);
    expect(g.code).toBe(0);
    expect(tree(gifs).every((f) => f.endsWith('.gif'))).toBe(true);
    expect(
      fs
        .readFileSync(path.join(gifs, tree(gifs)[0]!))
        .subarray(0, 3)
        .toString(),
    ).toBe('GIF');
  }, 120_000);

  it('a file that needs an option fails alone; no empty folders are left', async () => {
    const out = path.join(tmp, 'entities');
    const r = await runCli(['render', path.join(QUEST, 'data/sprites'), '-o', out, '--jobs', '2']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^sprat: error: .*entities\/bush\.dat: the animation draws from the map's tileset/m);
    expect(r.stdout).toMatch(/^render: 45 written, 0 unchanged, 10 failed \(\d+ other files skipped\)$/m);
    expect(tree(out)).toHaveLength(45);
    const folders = (fs.readdirSync(out, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(out, f)).isDirectory());
    for (const f of folders) expect(fs.readdirSync(path.join(out, f)).length, f).toBeGreaterThan(0);
  }, 120_000);

  it('--image belongs to the batch form', async () => {
    const r = await runCli(['render', 'mixed/cthg/fan.dat', '-o', 'x.png', '--image', 'gif'], tmp);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^sprat: error: --image applies to a folder/);
  });
});

describe('sprat check --jobs, --merge', () => {
  it('gives the same report with 2 workers as with one', async () => {
    const one = await runCli(['check', 'data', '--json', '--jobs', '1'], QUEST);
    const two = await runCli(['check', 'data', '--json', '--jobs', '2'], QUEST);
    expect(two.code).toBe(one.code);
    expect(two.stdout).toBe(one.stdout);
  }, 120_000);

  it('merges shard reports into one of the same schema', async () => {
    const a = await runCli(['check', 'mixed/isprite', '--json'], tmp);
    const b = await runCli(['check', 'mixed/bad', 'mixed/cthg', '--json'], tmp);
    place('a.json', a.stdout);
    place('b.json', b.stdout);
    const whole = await runCli(['check', 'mixed', '--json'], tmp);
    const merged = await runCli(['check', '--merge', 'b.json', 'a.json', '--json'], tmp);
    expect(merged.code).toBe(1);
    expect(JSON.parse(merged.stdout)).toEqual(JSON.parse(whole.stdout));
    const text = await runCli(['check', '--merge', 'a.json', 'b.json'], tmp);
    expect(text.stdout).toMatch(/^mixed\/bad\/broken\.isprite: error: /m);
    expect(text.stdout).toMatch(/^total\s+3\s+1\s+0$/m);
    place('junk.json', '{"files": [{"path": 1}]}');
    const junk = await runCli(['check', '--merge', 'a.json', 'junk.json'], tmp);
    expect(junk).toMatchObject({ code: 1, stdout: '' });
    expect(junk.stderr).toBe(
      'sprat: error: junk.json: not a sprat check --json report: files[0] is not a file\'s report ({ "path", "format", "problems" })\n',
    );
    expect((await runCli(['check', '--merge', 'nothing.json'], tmp)).stderr).toMatch(/^sprat: error: nothing\.json: /);
  });
});

describe('sprat validate GLOB', () => {
  it('validates every file a glob matches, as the shell would have named them', async () => {
    const r = await runCli(['validate', 'mixed/**/*.{isprite,dat}', 'mixed/notes.txt'], tmp);
    expect(r.code).toBe(1);
    const lines = r.stdout.split('\n');
    expect(lines.slice(0, 3)).toEqual([
      expect.stringMatching(/^mixed\/bad\/broken\.isprite: error: /),
      'mixed/cthg/fan.dat: ok',
      'mixed/isprite/hero.isprite: ok',
    ]);
    // a file named on the command line is read as its extension's format (.txt: a CorsixTH animation script)
    expect(lines[3]).toMatch(/^mixed\/notes\.txt: error: unknown word "hello" \(at line 1, column 1\)$/);
  });
});

describe('the progress bar', () => {
  async function run(argv: string[], errTty: boolean) {
    let stdout = '';
    let stderr = '';
    const code = await main(argv, { out: (t) => (stdout += t), err: (t) => (stderr += t), cwd: tmp, debug: false, errTty });
    return { code, stdout, stderr };
  }
  it('is drawn on a terminal and cleared at the end; never when stderr is piped', async () => {
    const tty = await run(['check', 'mixed'], true);
    const clear = '\r\x1b[K';
    expect(tty.stderr.startsWith(clear)).toBe(true);
    expect(tty.stderr.split(clear).filter(Boolean)).toContain('[##############################] 5/5 files');
    expect(tty.stderr.endsWith(clear)).toBe(true);
    const piped = await run(['check', 'mixed'], false);
    expect(piped.stderr).toBe('');
    expect(piped.stdout).toBe(tty.stdout);
    const convert = await run(['convert', 'mixed', 'tty-out', '--to', 'aseprite'], true);
    expect(convert.stderr).toMatch(/\/4 files/);
    expect(convert.stderr).toMatch(/^sprat: error: mixed\/bad\/broken\.isprite: /m);
  });
});

describe('globs', () => {
  it('match as a shell would, portably', () => {
    const m = (g: string, p: string) => globMatcher(g)(p);
    expect(m('sprites/**/*.dat', 'sprites/a.dat')).toBe(true);
    expect(m('sprites/**/*.dat', 'sprites/x/y/a.dat')).toBe(true);
    expect(m('sprites/**/*.dat', 'other/a.dat')).toBe(false);
    expect(m('sprites/*.dat', 'sprites/x/a.dat')).toBe(false);
    expect(m('*.{png,gif}', 'a.gif')).toBe(true);
    expect(m('a?.[!x]at', 'ab.dat')).toBe(true);
    expect(m('a?.[!x]at', 'ab.xat')).toBe(false);
    expect(m('a.b', 'axb')).toBe(false);
    expect(m('**', 'a/b/c')).toBe(true);
    expect(m('a/**/**/**/*.dat', 'a/b/c/d.dat')).toBe(true);
    expect(m('**/**/**/**/**/*.x', `${'a/'.repeat(40)}b.y`)).toBe(false);
    expect(globBase('sprites/**/*.dat')).toBe('sprites');
    expect(globBase('*.dat')).toBe('.');
    expect(globBase('/abs/dir/*.dat')).toBe('/abs/dir');
  });
});

describe("a batch's signal cleanup", () => {
  it("removes this process's temporaries and backups in a folder (its workers' too), no one else's", () => {
    const dir = path.join(tmp, 'temps');
    fs.mkdirSync(dir);
    const mine = [`.a.png.sprat-tmp-${process.pid}-1f2e`, `.b.json.sprat-tmp-${process.pid}-00aa`];
    const others = ['.a.png.sprat-tmp-1-1f2e', 'a.png', `a.sprat-tmp-${process.pid}-1f2e`];
    for (const n of [...mine, ...others]) fs.writeFileSync(path.join(dir, n), 'x');
    expect(removeOwnTempsSync(dir).sort()).toEqual(mine.sort());
    expect(fs.readdirSync(dir).sort()).toEqual(others.sort());
    expect(removeOwnTempsSync(path.join(dir, 'nowhere'))).toEqual([]);
  });
});
