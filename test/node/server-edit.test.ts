/**
 * Saving from the viewer (`sprat view --edit`): `PUT files/N` writes
 * document N over itself, atomically, only with `edit`, only a body of the
 * document's own format, only while the file is what the page read (its
 * version), only a regular file inside its root reached without a link;
 * nothing else is ever written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { load } from '../../src/api.js';
import { applyEdit, editables, editedBytes } from '../../src/edit.js';
import { startViewer, type ViewerServer } from '../../src/node/server.js';
import { SAMPLES } from '../helpers/paths.js';

interface Answer {
  status: number;
  body: string;
}

function request(port: number, p: string, method = 'GET', body?: Uint8Array, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: p, method, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(10_000, () => req.destroy(new Error(`timed out: ${p}`)));
    req.on('error', reject);
    req.end(body);
  });
}

const SPRITE = path.join(SAMPLES, 'solarus/sprites/slime_lua.dat');

/** The sample with its first animation's frame_delay set to `ms`, as the page would save it. */
function edited(ms: number): Uint8Array {
  const loaded = load(new Uint8Array(fs.readFileSync(SPRITE)), 'slime_lua.dat');
  const view = loaded.handler.renderViews!(loaded.doc)[0]!.options;
  return editedBytes(applyEdit(loaded, editables(loaded, view, 0)[0]!, [ms]));
}

describe('viewer server: saving under --edit', () => {
  let dir: string;
  let editing: ViewerServer;
  let plain: ViewerServer;
  let file: string;
  let other: string;
  let linked: string;
  const base = (s: ViewerServer) => `/${s.token}`;
  const version = async (s: ViewerServer, id: number) =>
    (JSON.parse((await request(s.port, `${base(s)}/files/${id}/version`)).body) as { version: string }).version;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-save-'));
    fs.mkdirSync(path.join(dir, 'sprites'));
    file = path.join(dir, 'sprites', 'slime.dat');
    other = path.join(dir, 'sprites', 'other.dat');
    fs.copyFileSync(SPRITE, file);
    fs.copyFileSync(SPRITE, other);
    // A document given as a link to a file outside its folder.
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-outside-'));
    fs.copyFileSync(SPRITE, path.join(outside, 'far.dat'));
    linked = path.join(dir, 'sprites', 'linked.dat');
    fs.symlinkSync(path.join(outside, 'far.dat'), linked);
    editing = await startViewer([file, linked], { webDir: dir, edit: true });
    plain = await startViewer([other], { webDir: dir });
  });

  afterAll(async () => {
    await editing?.close();
    await plain?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lists the files as savable only with --edit', async () => {
    expect(JSON.parse((await request(editing.port, `${base(editing)}/api/files`)).body)[0]).toEqual({
      id: 0,
      name: 'slime.dat',
      save: true,
    });
    expect(JSON.parse((await request(plain.port, `${base(plain)}/api/files`)).body)[0]).toEqual({ id: 0, name: 'other.dat' });
  });

  it('without --edit, writes nothing (405)', async () => {
    const before = fs.readFileSync(other);
    const r = await request(plain.port, `${base(plain)}/files/0`, 'PUT', edited(5), { 'x-sprat-version': await version(plain, 0) });
    expect(r.status).toBe(405);
    expect(fs.readFileSync(other)).toEqual(before);
  });

  it('writes the document over itself, atomically, and answers its new version', async () => {
    const v = await version(editing, 0);
    const bytes = edited(123);
    const r = await request(editing.port, `${base(editing)}/files/0`, 'PUT', bytes, { 'x-sprat-version': v });
    expect(r.status, r.body).toBe(200);
    expect(new Uint8Array(fs.readFileSync(file))).toEqual(bytes);
    const now = (JSON.parse(r.body) as { version: string }).version;
    expect(now).toBe(await version(editing, 0));
    expect(now).not.toBe(v);
    // No temporary is left beside it.
    expect(fs.readdirSync(path.dirname(file)).sort()).toEqual(['linked.dat', 'other.dat', 'slime.dat']);
  });

  it('refuses a stale version, another format, a resource path and a linked document; the file stays', async () => {
    const before = fs.readFileSync(file);
    const v = await version(editing, 0);
    const stale = await request(editing.port, `${base(editing)}/files/0`, 'PUT', edited(9), { 'x-sprat-version': 'old' });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatch(/changed on disk since the page read it; nothing was written/);
    const none = await request(editing.port, `${base(editing)}/files/0`, 'PUT', edited(9));
    expect(none.status).toBe(409);
    const junk = await request(editing.port, `${base(editing)}/files/0`, 'PUT', new TextEncoder().encode('{"not": "a sprite"}'), {
      'x-sprat-version': v,
    });
    expect(junk.status).toBe(400);
    expect(junk.body).toMatch(/^not a solarus-lua file \(.*\); nothing was written$/);
    const res = await request(editing.port, `${base(editing)}/files/0/res/slime.png`, 'PUT', edited(9), { 'x-sprat-version': v });
    expect(res.status).toBe(405);
    const missing = await request(editing.port, `${base(editing)}/files/7`, 'PUT', edited(9), { 'x-sprat-version': v });
    expect(missing.status).toBe(404);
    const link = await request(editing.port, `${base(editing)}/files/1`, 'PUT', edited(9), {
      'x-sprat-version': await version(editing, 1),
    });
    expect(link.status).toBe(403);
    expect(fs.readFileSync(file)).toEqual(before);
  });

  it('refuses a read-only file and keeps it', async () => {
    fs.chmodSync(file, 0o444);
    try {
      const before = fs.readFileSync(file);
      const r = await request(editing.port, `${base(editing)}/files/0`, 'PUT', edited(10), {
        'x-sprat-version': await version(editing, 0),
      });
      expect(r.status).toBe(403);
      expect(r.body).toMatch(/read-only; nothing was written$/);
      expect(fs.readFileSync(file)).toEqual(before);
    } finally {
      fs.chmodSync(file, 0o644);
    }
  });
});
