import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { runCli } from '../helpers/cli.js';
import { ROOT, SAMPLES } from '../helpers/paths.js';
import { fsResourceLoader, recordingLoader, sweepStaleTemps, writeFilesAtomic, WriteError } from '../../src/node/fs.js';

let dir: string;
const at = (...p: string[]) => path.join(dir, ...p);
const read = (p: string) => fs.readFileSync(at(p));
const hidden = () =>
  fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => /sprat-(tmp|bak)/.test(f));
const FAN = path.join(SAMPLES, 'cthg', 'fan.dat');

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-writes-'));
  for (const f of fs.readdirSync(path.join(SAMPLES, 'isprite'))) fs.copyFileSync(path.join(SAMPLES, 'isprite', f), at(f));
});
afterEach(() => {
  vi.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

function oneError(stderr: string): string {
  const errors = stderr.split('\n').filter((l) => l.startsWith('sprat: error:'));
  expect(errors).toHaveLength(1);
  expect(stderr).not.toMatch(/internal error|\n\s+at /);
  return errors[0]!;
}

describe('convert never replaces a file it was not asked to write', () => {
  it("a sheet named like the sprite's own texture: exit 1 before writing anything, even with --overwrite", async () => {
    const texture = read('hero.png');
    for (const extra of [[], ['--overwrite']]) {
      const r = await runCli(['convert', 'hero.isprite', 'hero.json', '--to', 'aseprite', ...extra], dir);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(oneError(r.stderr)).toBe(
        'sprat: error: hero.png: is the input or a file it uses; convert never overwrites those (choose another output name)',
      );
      expect(read('hero.png').equals(texture)).toBe(true);
      expect(fs.readdirSync(dir).sort()).toEqual(['hero.isprite', 'hero.png']);
    }
  });

  it('render -o naming a texture the sprite uses is refused too', async () => {
    const texture = read('hero.png');
    const r = await runCli(['render', 'hero.isprite', '-o', 'hero.png', '--force'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'sprat: error: hero.png: is the input or a file it uses; render never overwrites those (choose another output name)\n',
    );
    expect(read('hero.png').equals(texture)).toBe(true);
  });

  it("prints every file it writes; a second conversion into the folder stops at the first one's sheet unless --overwrite", async () => {
    fs.mkdirSync(at('out'));
    const a = await runCli(['convert', 'hero.isprite', 'out/hero.json', '--to', 'aseprite'], dir);
    expect([a.code, a.stdout]).toEqual([0, 'wrote out/hero.json\nwrote out/hero.png\n']);
    const json = read('out/hero.json');
    const png = read('out/hero.png');
    const b = await runCli(['convert', FAN, 'out/hero.json', '--to', 'texturepacker'], dir);
    expect(b.code).toBe(1);
    expect(b.stdout).toBe('');
    expect(oneError(b.stderr)).toBe(
      'sprat: error: out/hero.png: already exists and is not the output named; nothing was written (--overwrite replaces it)',
    );
    expect(read('out/hero.json').equals(json)).toBe(true);
    expect(read('out/hero.png').equals(png)).toBe(true);
    const c = await runCli(['convert', FAN, 'out/hero.json', '--to', 'texturepacker', '--overwrite'], dir);
    expect([c.code, c.stdout]).toEqual([0, 'wrote out/hero.json\nwrote out/hero.png\n']);
    expect(read('out/hero.png').equals(png)).toBe(false);
    expect(JSON.parse(read('out/hero.json').toString()).meta.image).toBe('hero.png');
    // A single-file conversion prints its one file; an absolute OUT is printed as given.
    const d = await runCli(['convert', 'hero.isprite', at('out', 'same.isprite')], dir);
    expect([d.code, d.stdout, d.stderr]).toEqual([0, `wrote ${at('out', 'same.isprite')}\n`, '']);
    expect(hidden()).toEqual([]);
  });

  it('a user file where only the sheet would go stops the conversion; OUT is not created', async () => {
    fs.writeFileSync(at('mine.png'), 'my picture');
    const r = await runCli(['convert', FAN, 'mine.json', '--to', 'aseprite'], dir);
    expect(r.code).toBe(1);
    expect(oneError(r.stderr)).toMatch(/^sprat: error: mine\.png: already exists/);
    expect(fs.existsSync(at('mine.json'))).toBe(false);
    expect(read('mine.png').toString()).toBe('my picture');
  });

  it('two outputs of one command naming the same file are refused', async () => {
    const r = await runCli(['convert', FAN, 'fan.png', '--to', 'isprite'], dir);
    expect(r.code).toBe(1);
    expect(oneError(r.stderr)).toBe('sprat: error: fan.png: two outputs would be the same file (fan.png too); choose another output name');
    expect(fs.existsSync(at('fan.png'))).toBe(false);
  });
});

describe("OUT's permissions", () => {
  it('a 0600 OUT stays 0600; a new OUT gets the usual mode', async () => {
    fs.writeFileSync(at('secret.isprite'), 'old');
    fs.chmodSync(at('secret.isprite'), 0o600);
    fs.writeFileSync(at('secret.png'), 'old');
    fs.chmodSync(at('secret.png'), 0o640);
    expect((await runCli(['convert', 'hero.isprite', 'secret.isprite'], dir)).code).toBe(0);
    expect((await runCli(['render', 'hero.isprite', '-o', 'secret.png'], dir)).code).toBe(0);
    expect(fs.statSync(at('secret.isprite')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(at('secret.png')).mode & 0o777).toBe(0o640);
    expect(read('secret.isprite').equals(read('hero.isprite'))).toBe(true);
    expect((await runCli(['convert', 'hero.isprite', 'new.isprite'], dir)).code).toBe(0);
    const umask = process.umask();
    expect(fs.statSync(at('new.isprite')).mode & 0o777).toBe(0o666 & ~umask);
  });

  it('a read-only OUT is refused (exit 1, one line) unless --force, which keeps it read-only', async () => {
    for (const [argv, out, cmd] of [
      [['convert', 'hero.isprite', 'ro.isprite'], 'ro.isprite', 'convert'],
      [['render', 'hero.isprite', '-o', 'ro.png'], 'ro.png', 'render'],
    ] as const) {
      fs.writeFileSync(at(out), 'old');
      fs.chmodSync(at(out), 0o444);
      const r = await runCli([...argv], dir);
      expect(r.code, cmd).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`sprat: error: ${out}: is read-only; nothing was written (--force replaces it)\n`);
      expect(read(out).toString()).toBe('old');
      const f = await runCli([...argv, '--force'], dir);
      expect(f.code, cmd).toBe(0);
      expect(read(out).toString()).not.toBe('old');
      expect(fs.statSync(at(out)).mode & 0o777).toBe(0o444);
    }
    expect(hidden()).toEqual([]);
  });
});

describe('a group of outputs is written all or none', () => {
  it('when the second rename fails, the first file is put back and the error names the second', async () => {
    fs.writeFileSync(at('out.json'), 'old json');
    fs.writeFileSync(at('out.png'), 'old png');
    const rename = fs.renameSync;
    vi.spyOn(fs, 'renameSync').mockImplementation((from, to) => {
      if (String(to) === at('out.png')) throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
      rename(from, to);
    });
    const r = await runCli(['convert', 'hero.isprite', 'out.json', '--to', 'aseprite', '--overwrite'], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(oneError(r.stderr)).toBe('sprat: error: out.png: cannot write: permission denied');
    expect(read('out.json').toString()).toBe('old json');
    expect(read('out.png').toString()).toBe('old png');
    expect(hidden()).toEqual([]);
    // A first file that did not exist before is removed again.
    fs.rmSync(at('out.json'));
    const r2 = await runCli(['convert', 'hero.isprite', 'out.json', '--to', 'aseprite', '--overwrite'], dir);
    expect(r2.code).toBe(1);
    expect(fs.existsSync(at('out.json'))).toBe(false);
    expect(hidden()).toEqual([]);
  });

  it('the library function checks every target before writing any', async () => {
    fs.writeFileSync(at('a'), 'a');
    fs.writeFileSync(at('b'), 'b');
    const bytes = new Uint8Array([1]);
    await expect(
      writeFilesAtomic([
        { path: at('a'), bytes },
        { path: at('b'), bytes, mayReplace: false },
      ]),
    ).rejects.toMatchObject({ kind: 'exists', file: at('b') });
    await expect(
      writeFilesAtomic(
        [
          { path: at('new'), bytes },
          { path: at('hero.png'), bytes },
        ],
        { protect: [at('hero.png')] },
      ),
    ).rejects.toBeInstanceOf(WriteError);
    expect(read('a').toString()).toBe('a');
    expect(fs.existsSync(at('new'))).toBe(false);
    await writeFilesAtomic(
      [
        { path: at('a'), bytes },
        { path: at('b'), bytes, mayReplace: false },
      ],
      { overwrite: true },
    );
    expect([...read('a'), ...read('b')]).toEqual([1, 1]);
  });
});

describe('the files a document uses', () => {
  it('are recorded by the wrapped resource loader: each loaded, and each found to exist', async () => {
    const loader = recordingLoader(fsResourceLoader(dir), dir);
    expect(await loader.exists('nope.png')).toBe(false);
    expect(await loader.exists('hero.png')).toBe(true);
    await loader.load('hero.isprite');
    await expect(loader.load('missing.png')).rejects.toThrow();
    expect([...loader.used].sort()).toEqual([at('hero.isprite'), at('hero.png')]);
  });

  it("are the files as found: a Solarus sheet in the quest's sprites/ folder, a --tileset typed relative to the current folder", async () => {
    fs.mkdirSync(at('quest', 'data', 'sprites', 'enemies'), { recursive: true });
    fs.writeFileSync(at('quest', 'data', 'quest.dat'), 'quest{}');
    fs.copyFileSync(path.join(SAMPLES, 'solarus', 'sprites', 'slime.dat'), at('quest', 'data', 'sprites', 'slime.dat'));
    fs.copyFileSync(
      path.join(SAMPLES, 'solarus', 'sprites', 'enemies', 'slime.png'),
      at('quest', 'data', 'sprites', 'enemies', 'slime.png'),
    );
    const sheet = read('quest/data/sprites/enemies/slime.png');
    const sheetOut = path.join('quest', 'data', 'sprites', 'enemies', 'slime.png');
    const a = await runCli(['render', 'quest/data/sprites/slime.dat', '-o', sheetOut, '--force'], dir);
    expect([a.code, a.stderr]).toEqual([
      1,
      `sprat: error: ${sheetOut}: is the input or a file it uses; render never overwrites those (choose another output name)\n`,
    ]);
    expect(read('quest/data/sprites/enemies/slime.png').equals(sheet)).toBe(true);

    fs.mkdirSync(at('level'));
    for (const f of ['level.bytes', 'tiles.png']) fs.copyFileSync(path.join(SAMPLES, 'spritetile', f), at('level', f));
    const tiles = read('level/tiles.png');
    const tilesOut = path.join('level', 'tiles.png');
    const b = await runCli(['render', 'level/level.bytes', '--tileset', '0=level/tiles.png:16x16', '-o', tilesOut, '--force'], dir);
    expect([b.code, b.stderr]).toEqual([
      1,
      `sprat: error: ${tilesOut}: is the input or a file it uses; render never overwrites those (choose another output name)\n`,
    ]);
    expect(read('level/tiles.png').equals(tiles)).toBe(true);
  });
});

/** Spawns the CLI in a child process whose second output write never finishes. */
function blockedConvert(args: string[]) {
  const script = `
    const fs = (await import('node:fs')).default;
    const writeFile = fs.writeFile;
    let n = 0;
    fs.writeFile = function (...a) {
      if (typeof a[0] === 'number' && ++n === 2) {
        setInterval(() => {}, 1000);
        process.stdout.write('BLOCKED\\n');
        return;
      }
      return writeFile.apply(this, a);
    };
    const m = await import('./src/cli/main.ts');
    process.exitCode = await m.main(${JSON.stringify(args)});
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const blocked = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d) => String(d).includes('BLOCKED') && resolve());
    child.on('close', () => reject(new Error(`the child ended before writing: ${stderr}`)));
  });
  const closed = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  return { child, blocked, closed, stderr: () => stderr };
}

describe('temporaries', () => {
  it('are removed on SIGTERM and SIGINT while writing (exit 143, 130), and nothing is replaced', async () => {
    fs.writeFileSync(at('out.json'), 'old json');
    fs.writeFileSync(at('out.png'), 'old png');
    for (const [signal, code] of [
      ['SIGTERM', 143],
      ['SIGINT', 130],
    ] as const) {
      const run = blockedConvert(['convert', at('hero.isprite'), at('out.json'), '--to', 'aseprite', '--overwrite']);
      await run.blocked;
      expect(hidden().length).toBe(2);
      run.child.kill(signal);
      const end = await run.closed;
      expect(end, run.stderr()).toEqual({ code, signal: null });
      expect(hidden()).toEqual([]);
      expect(read('out.json').toString()).toBe('old json');
      expect(read('out.png').toString()).toBe('old png');
    }
  }, 60_000);

  it('left by kill -9 are swept by the next write into that folder; those of live processes stay', async () => {
    const run = blockedConvert(['convert', at('hero.isprite'), at('out.json'), '--to', 'aseprite']);
    await run.blocked;
    run.child.kill('SIGKILL');
    expect((await run.closed).signal).toBe('SIGKILL');
    const left = hidden();
    expect(left.map((f) => f.replace(/-\d+-[0-9a-f]+$/, ''))).toEqual(['.out.json.sprat-tmp', '.out.png.sprat-tmp'].sort());
    const dead = run.child.pid!;
    fs.writeFileSync(at(`.old.png.sprat-tmp-${dead}-00ff00ff`), 'stale');
    fs.writeFileSync(at(`.busy.png.sprat-tmp-${process.pid}-00ff00ff`), 'being written');
    fs.writeFileSync(at('.other.sprat-tmp-notapid'), 'not ours');
    const r = await runCli(['convert', 'hero.isprite', 'out.json', '--to', 'aseprite'], dir);
    expect(r.code).toBe(0);
    expect(hidden().sort()).toEqual([`.busy.png.sprat-tmp-${process.pid}-00ff00ff`, '.other.sprat-tmp-notapid']);
    expect(await sweepStaleTemps(dir)).toEqual([]);
  }, 60_000);
});
