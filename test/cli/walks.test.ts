/**
 * Walks that go on: a folder that cannot be read is one error for that
 * folder in every command that walks (check in each form, convert, render,
 * diff, validate), and the walk goes on past it; exit 1 at the end.
 *
 * Tests run as root here, where `chmod 000` does not stop a read: the folder
 * named `locked` fails as an unreadable one does, by the file system's own
 * EACCES from `readdir`, injected below (vi.mock of node:fs/promises). A path
 * too long (a tree 2,200 folders deep) fails for real (ENAMETOOLONG). And one test runs the built
 * CLI on a real `chmod 000` folder: as user nobody through `setpriv` when the tests run as root.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { ROOT, SAMPLES } from '../helpers/paths.js';

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const readdir = ((p: fs.PathLike, o?: unknown) => {
    if (path.basename(String(p)) === 'locked')
      return Promise.reject(Object.assign(new Error(`EACCES: permission denied, scandir '${String(p)}'`), { code: 'EACCES' }));
    return (real.readdir as (p: fs.PathLike, o?: unknown) => Promise<unknown>)(p, o);
  }) as typeof real.readdir;
  return { ...real, readdir, default: { ...real, readdir } };
});

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-walks-'));
  for (const side of ['a', 'b']) {
    fs.mkdirSync(path.join(dir, side, 'locked'), { recursive: true });
    fs.mkdirSync(path.join(dir, side, 'z'), { recursive: true });
    for (const f of ['hero.isprite', 'hero.png']) {
      fs.copyFileSync(path.join(SAMPLES, 'isprite', f), path.join(dir, side, f));
      fs.copyFileSync(path.join(SAMPLES, 'isprite', f), path.join(dir, side, 'z', f));
    }
  }
  // 2,200 folders deep, made one step at a time (no path of it is ever named whole).
  fs.mkdirSync(path.join(dir, 'deep'));
  fs.copyFileSync(path.join(SAMPLES, 'isprite', 'hero.isprite'), path.join(dir, 'deep', 'hero.isprite'));
  fs.copyFileSync(path.join(SAMPLES, 'isprite', 'hero.png'), path.join(dir, 'deep', 'hero.png'));
  const step = Array(200).fill('d').join('/'); // 200 folders a step, each made from the last (relative paths)
  execFileSync('sh', ['-c', `cd deep && for i in 1 2 3 4 5 6 7 8 9 10 11; do mkdir -p ${step} && cd -P ${step} || exit 1; done`], {
    cwd: dir,
  });
});
// rm -r, which walks by folder handles: Node's rmSync names each path whole (too long here)
afterAll(() => execFileSync('rm', ['-rf', dir]));

describe('an unreadable folder', () => {
  it('is one error of check, which goes on with the others (text, --json, --sarif)', async () => {
    const r = await runCli(['check', 'a'], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('a/locked: error: permission denied\n');
    expect(r.stdout).not.toMatch(/scandir|EACCES/);
    expect(r.stdout).toMatch(/^total\s+3\s+1\s+0$/m); // the two sprites and the folder
    const j = await runCli(['check', 'a', '--json'], dir);
    expect(j.code).toBe(1);
    const report = JSON.parse(j.stdout);
    expect(report.files.map((f: { path: string }) => f.path)).toEqual(['a/hero.isprite', 'a/locked', 'a/z/hero.isprite']);
    expect(report.files[1]).toEqual({ path: 'a/locked', format: null, problems: [{ severity: 'error', message: 'permission denied' }] });
    const s = await runCli(['check', 'a', '--sarif'], dir);
    expect(s.code).toBe(1);
    const results = JSON.parse(s.stdout).runs[0].results;
    expect(results).toHaveLength(1);
    expect(JSON.stringify(results[0])).toContain('a/locked');
    expect(JSON.stringify(results[0])).toContain('permission denied');
  });

  it('is one failure of a batch convert and render, the other files done', async () => {
    const c = await runCli(['convert', 'a', 'out-c', '--to', 'aseprite'], dir);
    expect(c.code).toBe(1);
    expect(c.stderr.match(/^sprat: error: .*$/gm)).toEqual(['sprat: error: a/locked: permission denied']);
    expect(c.stdout).toMatch(/^convert: 2 written, 0 unchanged, 1 failed/m);
    expect(fs.existsSync(path.join(dir, 'out-c', 'z', 'hero.json'))).toBe(true);
    const r = await runCli(['render', 'a', '-o', 'out-r'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr.match(/^sprat: error: .*$/gm)).toEqual(['sprat: error: a/locked: permission denied']);
    expect(r.stdout).toMatch(/^render: 2 written, 0 unchanged, 1 failed/m);
  });

  it('is one error of diff DIR DIR and of validate DIR', async () => {
    const d = await runCli(['diff', 'a', 'b'], dir);
    expect(d.code).toBe(1);
    expect(d.stderr).toBe('sprat: error: a/locked: permission denied\nsprat: error: b/locked: permission denied\n');
    const dj = await runCli(['diff', 'a', 'b', '--json'], dir);
    expect(JSON.parse(dj.stdout).files).toEqual([
      { path: 'locked', status: 'error', error: 'a/locked: permission denied' },
      { path: 'locked', status: 'error', error: 'b/locked: permission denied' },
    ]);
    const v = await runCli(['validate', 'a'], dir);
    expect(v.code).toBe(1);
    expect(v.stdout).toBe('a/hero.isprite: ok\na/locked: error: permission denied\na/z/hero.isprite: ok\n');
  });
});

describe('a real chmod 000 folder', () => {
  it('is one error of check (the built CLI; as nobody through setpriv when run as root)', () => {
    const t = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-walks-real-'));
    try {
      fs.chmodSync(t, 0o755);
      fs.mkdirSync(path.join(t, 'a', 'locked'), { recursive: true });
      fs.mkdirSync(path.join(t, 'a', 'z'));
      for (const f of ['hero.isprite', 'hero.png']) fs.copyFileSync(path.join(SAMPLES, 'isprite', f), path.join(t, 'a', 'z', f));
      fs.chmodSync(path.join(t, 'a', 'locked'), 0o000);
      const cli = [path.join(ROOT, 'bin', 'sprat.js'), 'check', 'a'];
      const asRoot = process.getuid?.() === 0;
      const [cmd, args] = asRoot
        ? ['setpriv', ['--reuid', '65534', '--regid', '65534', '--clear-groups', process.execPath, ...cli]]
        : [process.execPath, cli];
      let out = '';
      let code = 0;
      try {
        out = execFileSync(cmd, args, { cwd: t, encoding: 'utf8' });
      } catch (e) {
        const err = e as { status: number; stdout: string };
        code = err.status;
        out = err.stdout;
      }
      expect(code).toBe(1);
      expect(out).toMatch(/^a\/locked: error: permission denied\n/);
      expect(out).toMatch(/^total\s+2\s+1\s+0$/m);
    } finally {
      fs.chmodSync(path.join(t, 'a', 'locked'), 0o755);
      fs.rmSync(t, { recursive: true, force: true });
    }
  });
});

describe('an unreadable folder under a glob', () => {
  it('is an error only when the glob could match below it', async () => {
    const below = await runCli(['check', 'a/**/*.isprite'], dir);
    expect(below.code).toBe(1);
    expect(below.stdout).toContain('a/locked: error: permission denied\n');
    const beside = await runCli(['check', 'a/*.isprite'], dir);
    expect(beside.stdout).not.toContain('locked');
    expect(beside.code).toBe(0);
  });
});

describe('a glob of many stars', () => {
  it('is matched against a long file name at once (it took 14 s by backtracking)', async () => {
    fs.mkdirSync(path.join(dir, 'stars'));
    fs.writeFileSync(path.join(dir, 'stars', `${'a'.repeat(200)}.dat`), 'x');
    const r = await runCli(['validate', 'stars/*a*a*a*a*a*a*a*a*b.dat'], dir);
    expect(r.code).toBe(2); // the glob names no file
    expect(r.stderr).toMatch(/^sprat: error: stars\/\*a.*b\.dat: /);
  });
});

describe('a tree too deep for its paths', () => {
  it('is one error for the folder whose path is too long; the walk goes on', async () => {
    const r = await runCli(['check', 'deep'], dir);
    expect(r.code).toBe(1);
    const lines = r.stdout.split('\n').filter((l) => l.includes(': error: '));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^deep(\/d)+: error: the path is too long$/);
    expect(r.stdout).not.toMatch(/ENAMETOOLONG|scandir/);
    expect(r.stdout).toMatch(/^isprite\s+1\s+0\s+0$/m);
  });
});
