/**
 * The viewer's server: only the named documents and the files
 * they reference, each a regular file inside its root; a token in every
 * path; Host and Origin checked; security headers on every answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { documentResources, startViewer, type ViewerServer } from '../../src/node/server.js';
import { SAMPLES } from '../helpers/paths.js';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A raw request, so that Host and Origin can be anything. */
function request(port: number, p: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: p, method, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.setTimeout(5000, () => req.destroy(new Error(`timed out: ${p}`)));
    req.on('error', reject);
    req.end();
  });
}

const haveMkfifo = (() => {
  try {
    execFileSync('sh', ['-c', 'command -v mkfifo'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

let dir: string;
let docs: string;
let viewer: ViewerServer;
const hero = JSON.parse(fs.readFileSync(path.join(SAMPLES, 'interop', 'hero.json'), 'utf8')) as { meta: { image: string } };
const heroPng = fs.readFileSync(path.join(SAMPLES, 'interop', 'hero.png'));
/** Each document (an Aseprite sheet) and the sheet path it names. */
const SHEETS: Record<string, string> = {
  'ok.json': 'hero.png',
  'alias.json': 'alias.png', // a symbolic link to hero.png, inside the folder
  'dotdot.json': 'sub/../hero.png',
  'up.json': '../secret.png',
  'abs.json': '', // the absolute path of ../secret.png, set below
  'shadow.json': '/etc/shadow',
  'environ.json': '/proc/self/environ',
  'zero.json': '/dev/zero',
  'fifo.json': 'pipe.png',
  'link.json': 'link.png', // a symbolic link to ../secret.png
  'uplink.json': 'up/secret.png', // a symbolic link to the folder above
};
const NAMES = Object.keys(SHEETS);
const id = (name: string) => NAMES.indexOf(name);
let base: string;
const res = (doc: string, p: string) => `${base}files/${id(doc)}/res/${encodeURIComponent(p).replace(/\./g, '%2E')}`;

beforeAll(async () => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-server-')));
  docs = path.join(dir, 'docs');
  fs.mkdirSync(path.join(docs, 'sub'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'secret.png'), heroPng);
  fs.writeFileSync(path.join(docs, 'hero.png'), heroPng);
  fs.writeFileSync(path.join(docs, 'sibling.png'), heroPng); // not referenced by any document
  fs.writeFileSync(path.join(docs, 'notes.txt'), 'notes');
  fs.symlinkSync('hero.png', path.join(docs, 'alias.png'));
  fs.symlinkSync('../secret.png', path.join(docs, 'link.png'));
  fs.symlinkSync('..', path.join(docs, 'up'));
  if (haveMkfifo) execFileSync('mkfifo', [path.join(docs, 'pipe.png')]);
  SHEETS['abs.json'] = path.join(dir, 'secret.png');
  for (const [name, image] of Object.entries(SHEETS)) {
    fs.writeFileSync(path.join(docs, name), JSON.stringify({ ...hero, meta: { ...hero.meta, image } }));
  }
  const web = path.join(dir, 'web');
  fs.mkdirSync(web);
  fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>viewer</title>');
  fs.writeFileSync(path.join(web, 'viewer.css'), 'body {}');
  viewer = await startViewer(
    NAMES.map((n) => path.join(docs, n)),
    { webDir: web },
  );
  base = `/${viewer.token}/`;
});

afterAll(async () => {
  await viewer?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the viewer server', () => {
  it('prints an address with a random token, listens on 127.0.0.1 only', async () => {
    expect(viewer.url).toBe(`http://127.0.0.1:${viewer.port}/${viewer.token}/`);
    expect(viewer.token).toMatch(/^[\w-]{32}$/);
    expect((viewer.server.address() as { address: string }).address).toBe('127.0.0.1');
    const other = await startViewer([]);
    try {
      expect(other.token).not.toBe(viewer.token);
    } finally {
      await other.close();
    }
    const page = await request(viewer.port, base);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const list = await request(viewer.port, base + 'api/files');
    expect(JSON.parse(list.body.toString())).toEqual(NAMES.map((name, i) => ({ id: i, name })));
    const doc = await request(viewer.port, base + `files/${id('ok.json')}`);
    expect([doc.status, doc.body.toString()]).toEqual([200, fs.readFileSync(path.join(docs, 'ok.json'), 'utf8')]);
    // The token without its slash is sent to the page.
    const bare = await request(viewer.port, `/${viewer.token}`);
    expect([bare.status, bare.headers.location]).toEqual([302, base]);
  });

  it('answers nothing without the right token: not the page, assets, file list, files or resources', async () => {
    const wrong = 'A'.repeat(viewer.token.length);
    for (const p of [
      '/',
      '/index.html',
      '/viewer.css',
      '/api/files',
      '/files/0',
      `/files/0/res/hero.png`,
      `/${wrong}/`,
      `/${wrong}/api/files`,
      `/${wrong}/files/0`,
      `/${viewer.token.slice(1)}/files/0`,
      `/${viewer.token}x/files/0`,
      `/x/${viewer.token}/files/0`,
    ]) {
      const a = await request(viewer.port, p);
      expect(a.status, p).toBe(404);
      expect(a.body.toString()).not.toContain('frames');
    }
  });

  it('serves a referenced sheet, also through a link or a `..` inside the folder, by the path the document names', async () => {
    for (const [doc, p] of [
      ['ok.json', 'hero.png'],
      ['alias.json', 'alias.png'],
      ['dotdot.json', 'sub/../hero.png'],
    ] as const) {
      const a = await request(viewer.port, res(doc, p));
      expect(a.status, doc).toBe(200);
      expect(a.body.equals(heroPng), doc).toBe(true);
      const head = await request(viewer.port, res(doc, p), {}, 'HEAD');
      expect([head.status, head.headers['content-length'], head.body.length]).toEqual([200, String(heroPng.length), 0]);
    }
    // Only under the document that names it.
    expect((await request(viewer.port, res('up.json', 'hero.png'))).status).toBe(404);
  });

  it('serves no file the documents do not reference: siblings, the folder above, absolute paths, `..` however spelled', async () => {
    const ok = `${base}files/${id('ok.json')}/res/`;
    for (const p of [
      ok + 'sibling.png',
      ok + 'notes.txt',
      ok + 'ok.json',
      ok + '..%2Fsecret.png',
      ok + '%2E%2E%2Fsecret.png',
      ok + '%2e%2e/secret.png',
      ok + '../secret.png',
      ok + '..%2F..%2F..%2F..%2Fetc%2Fpasswd',
      ok + '%2fetc%2fshadow',
      ok + '%2Fetc%2Fpasswd',
      ok + '%2Fproc%2Fself%2Fenviron',
      ok + encodeURIComponent(path.join(dir, 'secret.png')),
      ok + 'sub%2F..%2Fsibling.png',
      ok + 'hero.png%00',
      `${base}files/${id('ok.json')}/../../secret.png`,
      `${base}files/${id('ok.json')}/res/`,
      `${base}files/99`,
      `${base}files/99/res/hero.png`,
      `${base}files/-1`,
      `${base}..%2F..%2Fsecret.png`,
      `${base}..%2Fpackage.json`,
      `${base}%2Fetc%2Fpasswd`,
      `${base}.hidden`,
      `/${viewer.token}/../secret.png`,
    ]) {
      const a = await request(viewer.port, p);
      expect([400, 403, 404], p).toContain(a.status);
      expect(a.body.length, p).toBeLessThan(100);
    }
    expect((await request(viewer.port, ok + '%E0%A4%A')).status).toBe(400);
  });

  it('serves nothing a document names outside its folder: /etc/shadow, /proc/self/environ, /dev/zero, a FIFO, links out', async () => {
    for (const doc of [
      'up.json',
      'abs.json',
      'shadow.json',
      'environ.json',
      'zero.json',
      'link.json',
      'uplink.json',
      ...(haveMkfifo ? ['fifo.json'] : []),
    ]) {
      const a = await request(viewer.port, res(doc, SHEETS[doc]!));
      expect([403, 404], doc).toContain(a.status);
      expect(a.body.equals(heroPng)).toBe(false);
      expect((await request(viewer.port, res(doc, SHEETS[doc]!), {}, 'HEAD')).status, doc).not.toBe(200);
      // Its document is still served, for the viewer to show (without a sheet).
      expect((await request(viewer.port, `${base}files/${id(doc)}`)).status).toBe(200);
    }
  });

  it('answers whether a resource exists with 200 either way, true only for what a document references', async () => {
    const exists = async (doc: string, p: string) => {
      const a = await request(viewer.port, res(doc, p).replace('/res/', '/exists/'));
      expect(a.status, `${doc} ${p}`).toBe(200);
      expect(a.headers['content-type']).toMatch(/json/);
      return (JSON.parse(a.body.toString()) as { exists: boolean }).exists;
    };
    expect(await exists('ok.json', 'hero.png')).toBe(true);
    expect(await exists('ok.json', 'nothing.png')).toBe(false);
    for (const doc of ['up.json', 'abs.json', 'shadow.json', 'environ.json', 'zero.json', 'link.json', 'uplink.json']) {
      expect(await exists(doc, SHEETS[doc]!), doc).toBe(false);
    }
    // Without the token: nothing.
    expect((await request(viewer.port, `/nope/files/${id('ok.json')}/exists/hero.png`)).status).toBe(404);
  });

  it('refuses a Host other than 127.0.0.1:PORT or localhost:PORT, and an Origin other than its own (DNS rebinding)', async () => {
    const p = res('ok.json', 'hero.png');
    const port = viewer.port;
    const bad: Record<string, string>[] = [
      { host: 'evil.example' },
      { host: `evil.example:${port}` },
      { host: `127.0.0.1:${port + 1}` },
      { host: '127.0.0.1' },
      { host: `[::1]:${port}` },
      { host: `0.0.0.0:${port}` },
      { host: `127.0.0.1:${port}.evil.example` },
      { origin: 'http://evil.example' },
      { origin: `http://evil.example:${port}` },
      { origin: 'null' },
      { origin: `https://127.0.0.1:${port}` },
      { origin: `http://localhost:${port}` }, // not the Host it came with
      { host: `localhost:${port}`, origin: `http://127.0.0.1:${port}` },
    ];
    for (const headers of bad) {
      for (const path of [p, base, base + 'api/files']) {
        const a = await request(port, path, headers);
        expect(a.status, JSON.stringify(headers)).toBe(403);
        expect(a.body.equals(heroPng)).toBe(false);
      }
    }
    const good: Record<string, string>[] = [
      {},
      { host: `localhost:${port}` },
      { host: `LOCALHOST:${port}`, origin: `http://localhost:${port}` },
      { origin: `http://127.0.0.1:${port}` },
    ];
    for (const headers of good) {
      expect((await request(port, p, headers)).status, JSON.stringify(headers)).toBe(200);
    }
  });

  it('puts its security headers on every answer', async () => {
    const paths = [
      base,
      base + 'viewer.css',
      base + 'api/files',
      `${base}files/0`,
      res('ok.json', 'hero.png'),
      res('ok.json', 'sibling.png'),
      '/',
      `/${viewer.token}`,
    ];
    const answers = await Promise.all(paths.map((p) => request(viewer.port, p)));
    answers.push(await request(viewer.port, base, { host: 'evil.example' }));
    answers.push(await request(viewer.port, base, {}, 'POST'));
    for (const a of answers) {
      expect(a.headers['content-security-policy']).toMatch(/default-src '(self|none)'/);
      expect(a.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
      expect(a.headers['x-content-type-options']).toBe('nosniff');
      expect(a.headers['referrer-policy']).toBe('no-referrer');
      expect(a.headers['cache-control']).toBe('no-store');
    }
    expect(answers[0]!.headers['content-security-policy']).toMatch(/^default-src 'self'/);
    expect(answers.at(-1)!.status).toBe(405);
  });

  it('checks each file again when asked for: replaced by a link out or a FIFO, it is refused without hanging', async () => {
    const d = path.join(dir, 'later');
    fs.mkdirSync(d);
    fs.writeFileSync(path.join(d, 'hero.png'), heroPng);
    fs.writeFileSync(path.join(d, 'a.json'), JSON.stringify(hero));
    const v = await startViewer([path.join(d, 'a.json')]);
    try {
      const p = `/${v.token}/files/0/res/hero%2Epng`;
      expect((await request(v.port, p)).status).toBe(200);
      fs.rmSync(path.join(d, 'hero.png'));
      fs.symlinkSync(path.join(dir, 'secret.png'), path.join(d, 'hero.png'));
      expect((await request(v.port, p)).status).toBe(403);
      fs.rmSync(path.join(d, 'hero.png'));
      if (haveMkfifo) {
        execFileSync('mkfifo', [path.join(d, 'hero.png')]);
        expect((await request(v.port, p)).status).toBe(403);
        fs.rmSync(path.join(d, 'hero.png'));
      }
      fs.mkdirSync(path.join(d, 'hero.png'));
      expect((await request(v.port, p)).status).toBe(403);
      // A document replaced by a FIFO is refused too.
      fs.rmSync(path.join(d, 'a.json'));
      if (haveMkfifo) execFileSync('mkfifo', [path.join(d, 'a.json')]);
      expect((await request(v.port, `/${v.token}/files/0`)).status).toBe(haveMkfifo ? 403 : 404);
    } finally {
      await v.close();
    }
  });

  it('a folder swapped for a link out while files are asked for never leads outside the root', async () => {
    // A child process swaps d/sub (a folder) and a symbolic link to a folder outside, by renames, as fast as it can,
    // while the server is asked for sub/hero.png: every answer is the file inside, or a refusal, never the one outside.
    const d = path.join(dir, 'swapped');
    const outside = path.join(dir, 'outside');
    fs.mkdirSync(path.join(d, 'sub'), { recursive: true });
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(d, 'sub', 'hero.png'), heroPng);
    fs.writeFileSync(path.join(outside, 'hero.png'), 'SECRET, outside the root');
    fs.symlinkSync(outside, path.join(d, 'sub.link'));
    fs.writeFileSync(path.join(d, 'a.json'), JSON.stringify({ ...hero, meta: { ...hero.meta, image: 'sub/hero.png' } }));
    const v = await startViewer([path.join(d, 'a.json')]);
    const p = `/${v.token}/files/0/res/${encodeURIComponent('sub/hero.png').replace(/\./g, '%2E')}`;
    expect((await request(v.port, p)).status).toBe(200);
    const swapper = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('fs'); process.chdir(${JSON.stringify(d)}); process.stdout.write('go');
         for (;;) { fs.renameSync('sub', 'sub.real'); fs.renameSync('sub.link', 'sub');
                    fs.renameSync('sub', 'sub.link'); fs.renameSync('sub.real', 'sub'); }`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        swapper.stdout!.once('data', () => resolve());
        swapper.once('exit', (code) => reject(new Error(`the swapper ended (${code})`)));
      });
      const statuses = new Set<number>();
      for (let i = 0; i < 400; i++) {
        const a = await request(v.port, p);
        statuses.add(a.status);
        if (a.status === 200) expect(a.body.equals(heroPng), `answer ${i}`).toBe(true);
        else expect(a.status, `answer ${i}`).toBeGreaterThanOrEqual(400);
      }
    } finally {
      const exited = new Promise((resolve) => swapper.once('exit', resolve));
      swapper.kill();
      await exited;
      await v.close();
    }
  }, 60_000);

  it('finds the references again when a document changes, and serves the ones it names now', async () => {
    const d = path.join(dir, 'changing');
    fs.mkdirSync(d);
    fs.writeFileSync(path.join(d, 'one.png'), heroPng);
    fs.writeFileSync(path.join(d, 'two.png'), heroPng);
    fs.writeFileSync(path.join(d, 'a.json'), JSON.stringify({ ...hero, meta: { ...hero.meta, image: 'one.png' } }));
    const v = await startViewer([path.join(d, 'a.json')]);
    try {
      const get = (p: string) => request(v.port, `/${v.token}/${p}`);
      expect((await get('files/0/res/one%2Epng')).status).toBe(200);
      expect((await get('files/0/res/two%2Epng')).status).toBe(404);
      fs.writeFileSync(path.join(d, 'a.json'), JSON.stringify({ ...hero, meta: { ...hero.meta, image: 'two.png' } }));
      expect((await get('files/0')).status).toBe(200);
      expect((await get('files/0/res/two%2Epng')).status).toBe(200);
      expect((await get('files/0/res/one%2Epng')).status).toBe(404);
    } finally {
      await v.close();
    }
  });

  it('limits a Solarus sprite to its quest folder, as far up as Solarus looks for sheets', async () => {
    const slime = fs.readFileSync(path.join(SAMPLES, 'solarus', 'sprites', 'slime.dat'));
    const png = fs.readFileSync(path.join(SAMPLES, 'solarus', 'sprites', 'enemies', 'slime.png'));
    // The sheet in the quest's sprites/ folder (the quest found by its quest.dat): served, and so is quest.dat (the viewer finds the quest by it).
    const q1 = path.join(dir, 'q1', 'data');
    fs.mkdirSync(path.join(q1, 'sprites', 'enemies'), { recursive: true });
    fs.writeFileSync(path.join(q1, 'quest.dat'), 'quest{}');
    fs.writeFileSync(path.join(q1, 'sprites', 'slime.dat'), slime);
    fs.writeFileSync(path.join(q1, 'sprites', 'enemies', 'slime.png'), png);
    // A sheet the sprite names above the quest's data folder: not served.
    const q2 = path.join(dir, 'q2', 'data');
    fs.mkdirSync(path.join(q2, 'sprites'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'q2', 'enemies'));
    fs.writeFileSync(path.join(q2, 'quest.dat'), 'quest{}');
    const above = Buffer.from(slime.toString('utf8').replaceAll('enemies/slime.png', '../../enemies/slime.png'));
    fs.writeFileSync(path.join(q2, 'sprites', 'slime.dat'), above);
    fs.writeFileSync(path.join(dir, 'q2', 'enemies', 'slime.png'), png);
    expect([...(await documentResources(slime, path.join(q1, 'sprites', 'slime.dat'))).files.keys()]).toEqual([
      '../quest.dat',
      '../sprites/enemies/slime.png',
    ]);
    expect([...(await documentResources(above, path.join(q2, 'sprites', 'slime.dat'))).files.keys()]).toEqual(['../quest.dat']);
    const v = await startViewer([path.join(q1, 'sprites', 'slime.dat'), path.join(q2, 'sprites', 'slime.dat')]);
    try {
      const a = await request(v.port, `/${v.token}/files/0/res/%2E%2E%2Fsprites%2Fenemies%2Fslime%2Epng`);
      expect([a.status, a.body.equals(png)]).toEqual([200, true]);
      expect((await request(v.port, `/${v.token}/files/1/res/%2E%2E%2F%2E%2E%2Fenemies%2Fslime%2Epng`)).status).toBe(404);
    } finally {
      await v.close();
    }
  });

  it('answers HEAD for the quest folder the viewer finds a Solarus quest by (sprites/), never serves it', async () => {
    const slime = fs.readFileSync(path.join(SAMPLES, 'solarus', 'sprites', 'slime.dat'));
    const png = fs.readFileSync(path.join(SAMPLES, 'solarus', 'sprites', 'enemies', 'slime.png'));
    // No quest.dat: the quest is the folder holding sprites/.
    const q = path.join(dir, 'q3');
    fs.mkdirSync(path.join(q, 'sprites', 'enemies'), { recursive: true });
    fs.writeFileSync(path.join(q, 'sprites', 'slime.dat'), slime);
    fs.writeFileSync(path.join(q, 'sprites', 'enemies', 'slime.png'), png);
    const keys = [...(await documentResources(slime, path.join(q, 'sprites', 'slime.dat'))).files.keys()];
    expect(keys).toEqual(['../sprites/', '../sprites/enemies/slime.png']);
    const v = await startViewer([path.join(q, 'sprites', 'slime.dat')]);
    try {
      const head = await request(v.port, `/${v.token}/files/0/res/%2E%2E%2Fsprites%2F`, {}, 'HEAD');
      expect(head.status).toBe(200);
      expect((await request(v.port, `/${v.token}/files/0/res/%2E%2E%2Fsprites%2F`)).status).toBe(403);
      const a = await request(v.port, `/${v.token}/files/0/res/%2E%2E%2Fsprites%2Fenemies%2Fslime%2Epng`);
      expect([a.status, a.body.equals(png)]).toEqual([200, true]);
    } finally {
      await v.close();
    }
  });

  it('records what the viewer loads: a Hallgeir object, its sprite and texture (the sprite needs a frame size to draw)', async () => {
    const h = path.join(SAMPLES, 'hallgeir');
    const obj = await documentResources(fs.readFileSync(path.join(h, 'hero.obj')), path.join(h, 'hero.obj'));
    expect([...obj.files.keys()].sort()).toEqual(['hero.png', 'hero.spr']);
    const spr = await documentResources(fs.readFileSync(path.join(h, 'hero.spr')), path.join(h, 'hero.spr'));
    expect([...spr.files.keys()]).toEqual(['hero.png']);
    const bad = await documentResources(new Uint8Array([1, 2, 3]), path.join(h, 'junk.bin'));
    expect(bad.files.size).toBe(0);
  });

  it('offers a CTHG document the PNG files beside it as recolour palettes (regular files only), and serves them', async () => {
    fs.mkdirSync(path.join(dir, 'g'));
    fs.copyFileSync(path.join(SAMPLES, 'cthg', 'fan.dat'), path.join(dir, 'g', 'fan.dat'));
    fs.copyFileSync(path.join(SAMPLES, 'cthg', 'fan_palette.png'), path.join(dir, 'g', 'pal.png'));
    fs.symlinkSync(path.join(SAMPLES, 'cthg', 'fan_palette.png'), path.join(dir, 'g', 'link.png'));
    fs.mkdirSync(path.join(dir, 'g', 'dir.png'));
    const r = await documentResources(fs.readFileSync(path.join(dir, 'g', 'fan.dat')), path.join(dir, 'g', 'fan.dat'));
    expect(r.palettes).toEqual(['pal.png']);
    // Other formats get none.
    const h = path.join(SAMPLES, 'hallgeir');
    expect((await documentResources(fs.readFileSync(path.join(h, 'hero.obj')), path.join(h, 'hero.obj'))).palettes).toEqual([]);
    const v = await startViewer([path.join(dir, 'g', 'fan.dat')]);
    try {
      const list = await request(v.port, `/${v.token}/files/0/palettes`);
      expect(JSON.parse(list.body.toString())).toEqual(['pal.png']);
      expect((await request(v.port, `/${v.token}/files/0/res/pal%2Epng`)).status).toBe(200);
      expect((await request(v.port, `/${v.token}/files/0/res/link%2Epng`)).status).toBe(404);
      expect((await request(v.port, `/${v.token}/files/9/palettes`)).status).toBe(404);
    } finally {
      await v.close();
    }
  });
});
