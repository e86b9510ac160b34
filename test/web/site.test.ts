/**
 * The static site (`npm run build:site`, docs/site.md), in Chromium, with no
 * server behind it: the site's files served by a plain static server (and
 * opened from file://), a real folder chosen through the page's folder input
 * (`input[type=file][webkitdirectory]`, as the file chooser gives it): a
 * Solarus quest and the interop corpus. The list is what `sprat check` reads
 * there, by path relative to the folder, with each file's status as `sprat
 * check --json` run in that folder reports it; a file opens, reaches
 * `data-ready` and its pixels are `sprat render`'s; its diagnostics are
 * check's; a conversion downloads the bytes `sprat convert` writes (one
 * file, or a zip of several); and the page asks for nothing but the site's
 * own files.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { unzipSync } from 'fflate';
import type { Browser, Page } from 'playwright-core';
import { decodePng } from '../../src/render/png.js';
import { runCli } from '../helpers/cli.js';
import { CORPUS, ROOT } from '../helpers/paths.js';
import { canvasDiff, canvasPixels, haveChromium, launchChromium, saveScreenshot } from './harness.js';

const QUEST = path.join(CORPUS, 'solarus/quest-editor-initial');
const INTEROP = path.join(CORPUS, 'interop');
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

interface CheckJson {
  files: { path: string; format: string | null; problems: { severity: string; message: string }[] }[];
  summary: { files: number; errors: number; warnings: number };
}

/** `sprat check --json` run in `dir`. */
async function checkIn(dir: string): Promise<CheckJson> {
  const r = await runCli(['check', '--json'], dir);
  return JSON.parse(r.stdout) as CheckJson;
}

/** The status the page gives a file of that report. */
function statusOf(f: CheckJson['files'][number]): string {
  const e = f.problems.filter((p) => p.severity === 'error').length;
  return e ? 'error' : f.problems.length ? 'warning' : 'ok';
}

describe.skipIf(!haveChromium || !fs.existsSync(QUEST))('the static site', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-site-'));
  const site = path.join(tmp, 'site');
  let server: Server;
  let base = '';
  let browser: Browser;
  /** Every path the static server was asked for. */
  const served: string[] = [];

  beforeAll(async () => {
    // The site as `npm run build:site` writes it (into a temporary folder).
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-site.mjs'), site], { cwd: ROOT, stdio: 'pipe' });
    server = createServer((req, res) => {
      const p = decodeURIComponent((req.url ?? '/').replace(/[?#].*$/s, ''));
      served.push(p);
      const file = path.join(site, p === '/' ? 'index.html' : p);
      if (!file.startsWith(site + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' }).end(fs.readFileSync(file));
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const addr = server.address();
    base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/`;
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((ok) => (server ? server.close(() => ok()) : ok()));
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  /** A page of the site that records its page errors and every URL it requests. */
  async function sitePage(url = base): Promise<{ page: Page; errors: string[]; requests: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(url);
    await page.waitForSelector('body[data-loaded="true"]');
    return { page, errors, requests };
  }

  /** Chooses `dir` through the folder input, as the file chooser hands it over, and waits until every file is checked. */
  async function chooseFolder(page: Page, dir: string, count: number): Promise<void> {
    await page.setInputFiles('#folder', dir);
    await page.waitForSelector(`body[data-checked="${count}"]`, { timeout: 240_000 });
  }

  /** The page's list: each button's text, status and problem count. */
  function listed(page: Page) {
    return page.$$eval('#files button', (bs) => bs.map((b) => ({ name: b.textContent, status: (b as HTMLElement).dataset.status })));
  }

  /** Shows the listed file `name`, paused at frame 0 of its first picture; the options it was drawn with. */
  async function showPaused(page: Page, name: string): Promise<Record<string, string>> {
    const i = await page.$$eval('#files button', (bs, n) => bs.findIndex((b) => b.textContent === n), name);
    expect(i, name).toBeGreaterThanOrEqual(0);
    await page.click(`#files button[data-index="${i}"]`);
    await page.waitForSelector(`body[data-ready="${i}"]`, { timeout: 60_000 });
    const options = await page.evaluate(() => {
      const play = document.getElementById('play')!;
      if (play.textContent === 'Pause') play.click();
      document.querySelector<HTMLButtonElement>('#timeline button[data-frame="0"]')?.click();
      return document.body.dataset.renderOptions;
    });
    expect(options, name).toBeDefined();
    return JSON.parse(options!) as Record<string, string>;
  }

  /** The canvas against `sprat render FILE --frame 0` (with the options the page drew with), run in `dir`. */
  async function expectRenderPixels(page: Page, dir: string, name: string, options: Record<string, string>): Promise<void> {
    const out = path.join(tmp, `render-${served.length}.png`);
    const argv = ['render', name, '-o', out, '--frame', '0', ...Object.entries(options).flatMap(([k, v]) => [`--${k}`, v])];
    const r = await runCli(argv, dir);
    expect([r.code, r.stderr], name).toEqual([0, '']);
    const want = decodePng(fs.readFileSync(out));
    const px = await canvasPixels(page);
    expect([px.width, px.height], name).toEqual([want.width, want.height]);
    const bad = canvasDiff(px.data, want.data);
    expect(bad, `${name}: byte ${bad}`).toBe(-1);
  }

  /** Converts the shown file to `target` in the page; the downloaded file's name and bytes. */
  async function convertInPage(page: Page, target: string): Promise<{ name: string; bytes: Uint8Array }> {
    await page.selectOption('#convert-to', target);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#convert')]);
    await page.waitForSelector('body[data-converted]', { state: 'attached' });
    return { name: download.suggestedFilename(), bytes: new Uint8Array(fs.readFileSync((await download.path())!)) };
  }

  /** Requests outside the site's own files (the page's inline favicon and its own blob downloads aside). */
  function foreign(requests: string[]): string[] {
    return requests.filter((u) => !u.startsWith(base) && !u.startsWith('data:') && !u.startsWith('blob:'));
  }

  it('opens a Solarus quest folder: the list and statuses are check’s, a sprite plays as render draws it, converts as convert writes it', async () => {
    const report = await checkIn(QUEST);
    const { page, errors, requests } = await sitePage();
    expect(await page.$eval('#folder', (i) => (i as HTMLInputElement).webkitdirectory)).toBe(true);
    await chooseFolder(page, QUEST, report.files.length);
    const list = await listed(page);
    expect(list.map((l) => l.name)).toEqual(report.files.map((f) => f.path));
    expect(list.map((l) => l.status)).toEqual(report.files.map(statusOf));
    expect(await page.textContent('#checknote')).toBe(
      `check: ${report.summary.files} files, ${report.summary.errors} errors, ${report.summary.warnings} warnings`,
    );

    // A sprite whose sheet is found in the quest's sprites/ folder: drawn as `sprat render` draws it.
    const slime = 'data/sprites/enemies/slime_green.dat';
    await expectRenderPixels(page, QUEST, slime, await showPaused(page, slime));
    await saveScreenshot(page, 'site-quest');
    // Its conversion to the other Solarus syntax: the bytes `sprat convert` writes beside it.
    const copy = path.join(tmp, 'quest');
    fs.cpSync(QUEST, copy, { recursive: true });
    const got = await convertInPage(page, 'solarus');
    expect(got.name).toBe('slime_green.dat');
    const out = path.join(copy, 'data/sprites/enemies/slime_green-converted.dat');
    const r = await runCli(['convert', slime, out, '--to', 'solarus'], copy);
    expect(r.code, r.stderr).toBe(0);
    expect(Buffer.from(got.bytes).equals(fs.readFileSync(out))).toBe(true);

    // A sprite check finds errors in: its diagnostics are check's, in its order.
    const tunic = report.files.find((f) => f.problems.length)!;
    await showPaused(page, tunic.path);
    await page.waitForSelector('body[data-diagnosed]', { state: 'attached' });
    const shown = await page.$$eval('#diagnostics li', (ls) => ls.map((l) => l.textContent));
    expect(shown).toEqual(tunic.problems.map((p) => `${p.severity}: ${p.message}`));

    expect(errors).toEqual([]);
    expect(foreign(requests)).toEqual([]);
    await page.close();
  }, 600_000);

  it('opens the interop corpus folder: every file check reads, an Aseprite file drawn as render draws it, a zip of convert’s files', async () => {
    const report = await checkIn(INTEROP);
    const { page, errors, requests } = await sitePage();
    await chooseFolder(page, INTEROP, report.files.length);
    const list = await listed(page);
    expect(list.map((l) => l.name)).toEqual(report.files.map((f) => f.path));
    expect(list.map((l) => l.status)).toEqual(report.files.map(statusOf));

    // An Aseprite JSON sheet and its PNG beside it.
    const json = 'josh-perry+peachy/examples/man.json';
    await expectRenderPixels(page, INTEROP, json, await showPaused(page, json));
    // A native .aseprite file converted to Aseprite JSON: the sheet and its PNG, one zip.
    const native = 'josh-perry+peachy/examples/man.aseprite';
    await showPaused(page, native);
    const got = await convertInPage(page, 'aseprite');
    expect(got.name).toBe('man.zip');
    const copy = path.join(tmp, 'man');
    fs.mkdirSync(copy);
    fs.copyFileSync(path.join(INTEROP, native), path.join(copy, 'man.aseprite'));
    const r = await runCli(['convert', 'man.aseprite', 'man.json', '--to', 'aseprite'], copy);
    expect(r.code, r.stderr).toBe(0);
    const written = r.stdout.match(/^wrote (.+)$/gm)!.map((l) => l.slice('wrote '.length));
    const zip = unzipSync(got.bytes);
    expect(Object.keys(zip).sort()).toEqual(written.sort());
    for (const name of written) {
      const want = fs.readFileSync(path.join(copy, name));
      if (!name.endsWith('.png')) expect(Buffer.from(zip[name]!).equals(want), name).toBe(true);
      else {
        // The same pixels; the deflate streams differ (the command line compresses with node's zlib, the page with fflate: src/render/deflate.ts).
        const [a, b] = [decodePng(zip[name]!), decodePng(want)];
        expect([a.width, a.height, Buffer.from(a.data).equals(Buffer.from(b.data))], name).toEqual([b.width, b.height, true]);
      }
    }

    expect(errors).toEqual([]);
    expect(foreign(requests)).toEqual([]);
    await page.close();
  }, 600_000);

  it('works opened from the disk (file://), with no server at all', async () => {
    const { page, errors, requests } = await sitePage(pathToFileURL(path.join(site, 'index.html')).href);
    // A quest's sprites folder alone: the page sees nothing outside the chosen folder, so its sheets (named from the
    // quest's sprites/ folder) are not found, as `sprat check` says run in a copy of that folder alone.
    const dir = path.join(QUEST, 'data/sprites/enemies');
    const alone = path.join(tmp, 'enemies');
    fs.cpSync(dir, alone, { recursive: true });
    const report = await checkIn(alone);
    expect(report.summary.errors).toBeGreaterThan(0);
    await chooseFolder(page, dir, report.files.length);
    const list = await listed(page);
    expect(list.map((l) => l.name)).toEqual(['enemy_killed.dat', 'slime_green.dat']);
    expect(list.map((l) => l.name)).toEqual(report.files.map((f) => f.path));
    expect(list.map((l) => l.status)).toEqual(report.files.map(statusOf));
    await page.waitForSelector('body[data-ready="0"]');
    await page.waitForSelector('body[data-diagnosed="0"]', { state: 'attached' });
    const shown = await page.$$eval('#diagnostics li', (ls) => ls.map((l) => l.textContent));
    expect(shown).toEqual(report.files[0]!.problems.map((p) => `${p.severity}: ${p.message}`));
    expect(errors).toEqual([]);
    expect(requests.filter((u) => !u.startsWith('file://') && !u.startsWith('data:'))).toEqual([]);
    await page.close();
  }, 120_000);

  it('opens a folder through the directory picker (a real directory handle: the origin private file system)', async () => {
    const { page, errors, requests } = await sitePage();
    // Where the browser has the picker, the page offers it beside the folder input.
    expect(await page.isVisible('#pickfolder')).toBe(true);
    // The quest's data/quest.dat and one sprites folder, written into the origin's private file system, whose root
    // handle is what the picker gives (a FileSystemDirectoryHandle: the page walks it as it walks a chosen folder).
    const rel = ['data/quest.dat', ...fs.readdirSync(path.join(QUEST, 'data/sprites/enemies')).map((n) => `data/sprites/enemies/${n}`)];
    const files = rel.map((r) => ({ path: r, base64: fs.readFileSync(path.join(QUEST, r)).toString('base64') }));
    await page.evaluate(async (list) => {
      const root = await navigator.storage.getDirectory();
      for (const f of list) {
        let dir = root;
        const parts = f.path.split('/');
        for (const p of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(p, { create: true });
        const w = await (await dir.getFileHandle(parts[parts.length - 1]!, { create: true })).createWritable();
        await w.write(Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0)));
        await w.close();
      }
      (window as unknown as { showDirectoryPicker: () => Promise<FileSystemDirectoryHandle> }).showDirectoryPicker = async () => root;
    }, files);
    const copy = path.join(tmp, 'picked');
    for (const r of rel) fs.cpSync(path.join(QUEST, r), path.join(copy, r));
    const report = await checkIn(copy);
    await page.click('#pickfolder');
    await page.waitForSelector(`body[data-checked="${report.files.length}"]`, { timeout: 120_000 });
    const list = await listed(page);
    expect(list.map((l) => l.name)).toEqual(report.files.map((f) => f.path));
    expect(list.map((l) => l.status)).toEqual(report.files.map(statusOf));
    const slime = 'data/sprites/enemies/slime_green.dat';
    await expectRenderPixels(page, copy, slime, await showPaused(page, slime));
    expect(errors).toEqual([]);
    expect(foreign(requests)).toEqual([]);
    await page.close();
  }, 120_000);

  it('edits a sprite and downloads it (no save in place): sprat diff names exactly the edit', async () => {
    const { page, errors, requests } = await sitePage();
    const slime = path.join(QUEST, 'data/sprites/enemies/slime_green.dat');
    await page.setInputFiles('#picker', [slime, path.join(QUEST, 'data/sprites/enemies/slime_green.png')]);
    await page.waitForSelector('body[data-ready="0"]', { timeout: 60_000 });
    expect(await page.getAttribute('#save', 'data-mode')).toBe('download');
    const input = page.locator('#editfields input[data-key$=" frameDelay"]');
    const old = Number(await input.inputValue());
    await input.fill('45');
    await input.press('Enter');
    await page.waitForSelector('body[data-edits="1"]', { state: 'attached' });
    await page.waitForSelector('body[data-preview="done"]', { state: 'attached' });
    expect(await page.textContent('#frameinfo')).toMatch(/· 45 ms/);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#save')]);
    expect(download.suggestedFilename()).toBe('slime_green.dat');
    const got = path.join(tmp, 'edited-slime_green.dat');
    fs.copyFileSync((await download.path())!, got);
    const anim = JSON.parse((await page.getAttribute('body', 'data-render-options'))!).animation as string;
    const diff = await runCli(['diff', slime, got]);
    expect(diff.stdout).toBe(`animation ${anim}: frameDelay ${old} -> 45\n`);
    expect(errors).toEqual([]);
    expect(foreign(requests)).toEqual([]);
    await page.close();
  }, 120_000);
});
