import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../src/cli/main.js';
import { listDocuments, startViewer } from '../../src/node/server.js';
import { runCli } from '../helpers/cli.js';
import { SAMPLES } from '../helpers/paths.js';

let dir: string;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-view-')));
  fs.mkdirSync(path.join(dir, 'v', 'sub', 'deeper'), { recursive: true });
  fs.copyFileSync(path.join(SAMPLES, 'cthg', 'fan.dat'), path.join(dir, 'v', 'sub', 'deeper', 'f.dat'));
  fs.writeFileSync(path.join(dir, 'v', 'sub', 'ok.txt'), 'ok');
  fs.writeFileSync(path.join(dir, 'v', 'secret.txt'), 'secret');
  fs.symlinkSync(path.join(dir, 'v', 'secret.txt'), path.join(dir, 'v', 'sub', 'deeper', 'link.txt'));
  fs.symlinkSync(path.join(dir, 'v'), path.join(dir, 'v', 'sub', 'up'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

async function get(url: string): Promise<[number, string]> {
  const r = await fetch(url);
  return [r.status, await r.text()];
}

describe('sprat view', () => {
  it('starts on a free port on 127.0.0.1, lists its files, and stops on SIGINT', async () => {
    const port = await freePort();
    let announce!: (url: string) => void;
    const announced = new Promise<string>((resolve) => (announce = resolve));
    let stderr = '';
    const done = main(['view', 'v/sub/deeper/f.dat', '--port', String(port)], {
      out: (t) => announce(t.trim().replace(/^sprat view: /, '')),
      err: (t) => (stderr += t),
      cwd: dir,
      debug: false,
    });
    const url = await announced;
    expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/[\\w-]{32}/$`));
    expect(await get(url + 'api/files')).toEqual([200, JSON.stringify([{ id: 0, name: 'f.dat' }])]);
    const [code, body] = await get(url + 'files/0');
    expect(code).toBe(200);
    expect(body.startsWith('CTHG')).toBe(true);
    process.emit('SIGINT');
    expect(await done).toBe(0);
    expect(stderr).toBe('');
  });

  it('--tileset: the page gets it relative to the level, and the image it names is served wherever it lies; nothing else there', async () => {
    fs.mkdirSync(path.join(dir, 'levels'));
    fs.mkdirSync(path.join(dir, 'art'));
    fs.copyFileSync(path.join(SAMPLES, 'spritetile', 'level.bytes'), path.join(dir, 'levels', 'x.bytes'));
    fs.copyFileSync(path.join(SAMPLES, 'spritetile', 'tiles.png'), path.join(dir, 'art', 'tiles.png'));
    fs.copyFileSync(path.join(SAMPLES, 'spritetile', 'tiles.png'), path.join(dir, 'art', 'other.png'));
    const port = await freePort();
    let announce!: (url: string) => void;
    const announced = new Promise<string>((resolve) => (announce = resolve));
    let stderr = '';
    const done = main(['view', 'levels/x.bytes', 'v/sub/deeper/f.dat', '--tileset', '0=art/tiles.png:16x16', '--port', String(port)], {
      out: (t) => announce(t.trim().replace(/^sprat view: /, '')),
      err: (t) => (stderr += t),
      cwd: dir,
      debug: false,
    });
    const url = await announced;
    try {
      expect(await get(url + 'files/0/options')).toEqual([200, JSON.stringify({ tileset: '0=../art/tiles.png:16x16' })]);
      const [code, body] = await get(url + 'files/0/res/..%2Fart%2Ftiles%2Epng');
      expect([code, body.slice(1, 4)]).toEqual([200, 'PNG']);
      expect((await get(url + 'files/0/res/..%2Fart%2Fother%2Epng'))[0]).toBe(404);
      // A file whose format does not take the option gets none of it.
      expect(await get(url + 'files/1/options')).toEqual([200, '{}']);
      expect((await get(url + `files/1/res/${encodeURIComponent('../../../art/tiles.png').replace(/\./g, '%2E')}`))[0]).toBe(404);
    } finally {
      process.emit('SIGINT');
    }
    expect(await done).toBe(0);
    expect(stderr).toBe('');
  });

  it('serves the named file and nothing else of its folders (test/node/server.test.ts has every hostile request)', async () => {
    const viewer = await startViewer([path.join(dir, 'v', 'sub', 'deeper', 'f.dat')]);
    try {
      const u = viewer.url;
      expect(u).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[\w-]{32}\/$/);
      expect((viewer.server.address() as net.AddressInfo).address).toBe('127.0.0.1');
      expect((await get(u + 'files/0'))[0]).toBe(200);
      for (const p of [
        'files/0/res/..%2Fok.txt',
        'files/0/res/..%2F..%2Fsecret.txt',
        'files/0/res/%2E%2E%2F%2E%2E%2Fsecret.txt',
        `files/0/res/${encodeURIComponent(path.join(dir, 'v', 'secret.txt'))}`,
        'files/0/res/%2Fetc%2Fpasswd',
        'files/0/res/link.txt',
        'files/0/res/..%2Fup%2Fsecret.txt',
        'files/0/res/a%00b',
      ]) {
        const [code, body] = await get(u + p);
        expect(code, p).toBe(404);
        expect(body).not.toContain('secret');
      }
      expect((await get(u + 'files/0/res/%E0%A4%A'))[0]).toBe(400);
      expect((await get(u + 'files/7'))[0]).toBe(404);
      expect((await get(u + '..%2F..%2Fpackage.json'))[0]).toBe(404);
      // Without the token: nothing.
      const bare = u.replace(/[\w-]+\/$/, '');
      for (const p of ['', 'api/files', 'files/0']) expect((await get(bare + p))[0], p).toBe(404);
    } finally {
      await viewer.close();
    }
  });

  it('opens a folder as the list of every file sprat knows under it (no links, no node_modules or .git), serving their references', async () => {
    fs.mkdirSync(path.join(dir, 'v', 'node_modules', 'x'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'v', '.git'));
    fs.copyFileSync(path.join(SAMPLES, 'cthg', 'fan.dat'), path.join(dir, 'v', 'node_modules', 'x', 'g.dat'));
    fs.copyFileSync(path.join(SAMPLES, 'cthg', 'fan.dat'), path.join(dir, 'v', '.git', 'g.dat'));
    fs.writeFileSync(path.join(dir, 'v', 'sub', 'data.json'), '{"not": "a sprite"}');
    fs.copyFileSync(path.join(SAMPLES, 'interop', 'hero.json'), path.join(dir, 'v', 'sub', 'hero.json'));
    fs.copyFileSync(path.join(SAMPLES, 'interop', 'hero.png'), path.join(dir, 'v', 'sub', 'hero.png'));
    // No extension: found by its magic bytes.
    fs.copyFileSync(path.join(SAMPLES, 'isprite', 'hero.isprite'), path.join(dir, 'v', 'sub', 'herosprite'));
    expect((await listDocuments(path.join(dir, 'v'))).files.map((f) => path.relative(path.join(dir, 'v'), f))).toEqual([
      path.join('sub', 'deeper', 'f.dat'),
      path.join('sub', 'hero.json'),
      path.join('sub', 'herosprite'),
    ]);
    const capped = await listDocuments(path.join(dir, 'v'), { max: 2 });
    expect(capped.files).toHaveLength(2);
    expect(capped.note).toMatch(/only the first 2 files/);

    let lines = '';
    let announce!: () => void;
    const announced = new Promise<void>((resolve) => (announce = resolve));
    const done = main(['view', 'v'], {
      out: (t) => {
        lines += t;
        if (/files from/.test(lines)) announce();
      },
      err: () => undefined,
      cwd: dir,
      debug: false,
    });
    await announced;
    const url = /sprat view: (\S+)/.exec(lines)![1]!;
    expect(lines).toMatch(/sprat view: 3 files from v\n$/);
    const list = JSON.parse((await get(url + 'api/files'))[1]) as { id: number; name: string }[];
    expect(list.map((f) => f.name)).toEqual(['sub/deeper/f.dat', 'sub/hero.json', 'sub/herosprite']);
    // The allow-list of a listed document is found when it is asked for.
    expect((await get(url + 'files/1/res/hero.png'))[0]).toBe(200);
    expect((await get(url + 'files/1/res/..%2Fsecret.txt'))[0]).toBe(404);
    // A listed file swapped for a link out of the folder is refused.
    fs.writeFileSync(path.join(dir, 'outside.json'), 'secret');
    fs.rmSync(path.join(dir, 'v', 'sub', 'herosprite'));
    fs.symlinkSync(path.join(dir, 'outside.json'), path.join(dir, 'v', 'sub', 'herosprite'));
    const [code, body] = await get(url + 'files/2');
    expect(code).toBe(403);
    expect(body).not.toContain('secret');
    process.emit('SIGINT');
    expect(await done).toBe(0);
  });

  it('errors cleanly for a missing file, a bad port', async () => {
    let r = await runCli(['view', 'missing.file'], dir);
    expect([r.code, r.stderr]).toEqual([1, 'sprat: error: missing.file: no such file\n']);
    r = await runCli(['view', '/dev/null'], dir);
    expect([r.code, r.stderr]).toEqual([1, 'sprat: error: /dev/null: not a regular file\n']);
    if (process.platform !== 'win32') {
      execFileSync('mkfifo', [path.join(dir, 'pipe')]);
      r = await runCli(['view', 'pipe'], dir);
      expect([r.code, r.stderr]).toEqual([1, 'sprat: error: pipe: not a regular file\n']);
    }
    r = await runCli(['view', '--port', '70000'], dir);
    expect([r.code, r.stderr]).toEqual([2, 'sprat: error: option --port must be 0 to 65535, not "70000"\n']);
    const busy = await startViewer([]);
    try {
      const port = new URL(busy.url).port;
      r = await runCli(['view', '--port', port], dir);
      expect([r.code, r.stderr]).toEqual([1, `sprat: error: port ${port} is in use\n`]);
    } finally {
      await busy.close();
    }
  });
});
