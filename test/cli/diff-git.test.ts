/**
 * The git setup of docs/git.md, in a real repository: `textconv` through
 * `sprat diff --textconv`, and `sprat diff --git-driver` as the diff driver
 * (`diff.sprat.command`) and as GIT_EXTERNAL_DIFF.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { CORPUS, ROOT, SAMPLES } from '../helpers/paths.js';
import { readCthg, writeCthg } from '../../src/formats/cthg/index.js';

let haveGit = true;
try {
  execFileSync('git', ['--version'], { stdio: 'ignore' });
} catch {
  haveGit = false;
}
if (!haveGit && process.env.CI) throw new Error('CI must have git for the git diff tests');

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-diff-git-'));
const repo = path.join(tmp, 'repo');
/** `sprat` as the installed command runs: here the sources through tsx. */
const sprat = path.join(tmp, 'sprat');
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function git(args: string[], env: Record<string, string> = {}): string {
  return execFileSync('git', args, {
    cwd: repo,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: tmp, GIT_PAGER: 'cat', ...env },
  });
}

const slime = fs.readFileSync(path.join(SAMPLES, 'solarus/sprites/slime.dat'), 'utf8');
const plant = fs.readFileSync(path.join(CORPUS, 'cthg/plant_anim.dat'));

describe.skipIf(!haveGit)('git diff of sprite files (docs/git.md)', () => {
  beforeAll(() => {
    const loader = createRequire(import.meta.url)
      .resolve('tsx')
      .replace(/[^/\\]+$/, 'loader.mjs');
    fs.writeFileSync(
      path.join(tmp, 'run.ts'),
      `import { main } from ${JSON.stringify(path.join(ROOT, 'src/cli/main.ts'))};\nmain(process.argv.slice(2)).then((c) => { process.exitCode = c; });\n`,
    );
    fs.writeFileSync(sprat, `#!/bin/sh\nexec "${process.execPath}" --import "${loader}" "${path.join(tmp, 'run.ts')}" "$@"\n`, {
      mode: 0o755,
    });
    fs.mkdirSync(path.join(repo, 'sprites'), { recursive: true });
    git(['init', '-q']);
    git(['config', 'user.email', 'test@example.invalid']);
    git(['config', 'user.name', 'test']);
    fs.writeFileSync(path.join(repo, '.gitattributes'), '*.dat diff=sprat\n*.isprite diff=sprat\n*.bytes diff=sprat\n');
    fs.writeFileSync(path.join(repo, 'sprites/slime.dat'), slime);
    fs.writeFileSync(path.join(repo, 'plant_anim.dat'), plant);
    fs.copyFileSync(path.join(SAMPLES, 'isprite/hero.isprite'), path.join(repo, 'hero.isprite'));
    git(['add', '-A']);
    git(['commit', '-qm', 'sprites']);
    // real changes: a Solarus direction moved, a CTHG element moved, an ISPRITE removed, a level added
    fs.writeFileSync(path.join(repo, 'sprites/slime.dat'), slime.replace(/^32\t0\t16\t16\t8\t13\t4\t2$/m, '33\t0\t16\t16\t8\t13\t4\t2'));
    const doc = readCthg(new Uint8Array(plant));
    doc.frames[3]!.elements[0]!.y -= 1;
    fs.writeFileSync(path.join(repo, 'plant_anim.dat'), writeCthg(doc));
    fs.rmSync(path.join(repo, 'hero.isprite'));
    fs.copyFileSync(path.join(SAMPLES, 'spritetile/level.bytes'), path.join(repo, 'level.bytes'));
    fs.appendFileSync(path.join(repo, '.gitattributes'), '*.tmj diff=sprat\n');
    fs.writeFileSync(path.join(repo, 'package.json'), '{ "name": "game", "version": "1.0.0" }\n');
    git(['add', '-A']);
  }, 60_000);

  it('textconv: git diff shows the changed lines of the text form, each naming its animation, direction or frame', () => {
    git(['config', 'diff.sprat.textconv', `${sprat} diff --textconv`]);
    const out = git(['diff', '--cached', '--', 'sprites/slime.dat', 'plant_anim.dat']);
    git(['config', '--unset', 'diff.sprat.textconv']);
    expect(out).toMatch(/^-animation walking, direction 1: x 32, y 0, frameWidth 16/m);
    expect(out).toMatch(/^\+animation walking, direction 1: x 33, y 0, frameWidth 16/m);
    expect(out).toMatch(/^-frame 3, element 0: sprite \d+, x -?\d+, y -?\d+/m);
    expect(out).not.toMatch(/Binary files/);
  }, 60_000);

  it('the diff driver (diff.sprat.command): the structural diff of each changed file', () => {
    git(['config', 'diff.sprat.command', `${sprat} diff --git-driver`]);
    const out = git(['diff', '--cached']);
    git(['config', '--unset', 'diff.sprat.command']);
    expect(out).toContain('diff --sprat a/sprites/slime.dat b/sprites/slime.dat\nanimation walking, direction 1: x 32 -> 33\n');
    expect(out).toMatch(/^diff --sprat a\/plant_anim\.dat b\/plant_anim\.dat\nframe 3, element 0: y (-?\d+) -> -?\d+\n/m);
    expect(out).toMatch(/^diff --sprat a\/hero\.isprite b\/hero\.isprite\ndeleted file\n- format "isprite"/m);
    expect(out).toMatch(/^diff --sprat a\/level\.bytes b\/level\.bytes\nnew file\n\+ format "spritetile"/m);
  }, 60_000);

  it('GIT_EXTERNAL_DIFF: the same driver for every file; files of no format sprat knows differ as binary files', () => {
    const out = git(['diff', '--cached', '--', 'sprites/slime.dat', '.gitattributes', 'package.json'], {
      GIT_EXTERNAL_DIFF: `${sprat} diff --git-driver`,
    });
    expect(out).toBe(
      'diff --sprat a/.gitattributes b/.gitattributes\nBinary files a/.gitattributes and b/.gitattributes differ\n' +
        'diff --sprat a/package.json b/package.json\nBinary files /dev/null and b/package.json differ\n' +
        'diff --sprat a/sprites/slime.dat b/sprites/slime.dat\nanimation walking, direction 1: x 32 -> 33\n',
    );
  }, 60_000);
});
