/**
 * Shared set-up of the browser tests: the viewer bundled from source into a
 * temporary folder, served by `startViewer`, and Debian's Chromium through
 * playwright-core (skipped where /usr/bin/chromium is missing, except in CI).
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startViewer, type ViewerOptions, type ViewerServer } from '../../src/node/server.js';
import { ROOT } from '../helpers/paths.js';

export const CHROMIUM = '/usr/bin/chromium';
export const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && process.env.CI) throw new Error('CI must have /usr/bin/chromium for the viewer tests');

/** How every browser test starts Chromium (WebGL still works: SwiftShader). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Harness {
  webDir: string;
  browser: Browser;
  /** Serves `files` (or a folder, with `folder`); closed with the harness. */
  serve(files: string[], opts?: ViewerOptions & { folder?: string }): Promise<ViewerServer>;
  close(): Promise<void>;
}

/** Debian's Chromium, headless, without network chatter. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
  });
}

export async function startHarness(): Promise<Harness> {
  const webDir = mkdtempSync(path.join(os.tmpdir(), 'sprat-web-'));
  await build({
    entryPoints: [path.join(ROOT, 'web/viewer.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    outfile: path.join(webDir, 'viewer.js'),
    logLevel: 'silent',
  });
  copyFileSync(path.join(ROOT, 'web/index.html'), path.join(webDir, 'index.html'));
  copyFileSync(path.join(ROOT, 'web/viewer.css'), path.join(webDir, 'viewer.css'));
  const browser = await launchChromium();
  const servers: ViewerServer[] = [];
  return {
    webDir,
    browser,
    async serve(files, opts = {}) {
      const s = await startViewer(files, { webDir, ...opts });
      servers.push(s);
      return s;
    },
    async close() {
      await browser.close();
      for (const s of servers) await s.close();
      rmSync(webDir, { recursive: true, force: true });
    },
  };
}

/** A page that records page errors and console errors into `errors`. */
export async function watchedPage(browser: Browser, viewport = { width: 1280, height: 800 }): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return { page, errors };
}

/**
 * The first byte where canvas pixels differ from `want` (RGBA), or -1: exact,
 * except that a canvas keeps colours premultiplied, so a translucent pixel's
 * colour may come back off by the rounding (and a clear one has any colour).
 */
export function canvasDiff(px: ArrayLike<number>, want: ArrayLike<number>): number {
  if (px.length !== want.length) return Math.min(px.length, want.length);
  for (let j = 0; j < px.length; j++) {
    const a = want[j - (j % 4) + 3]!;
    const v = px[j]!;
    const bad =
      j % 4 === 3 || a === 255 ? v !== want[j] : a === 0 ? px[j - (j % 4) + 3] !== 0 : Math.abs(v - want[j]!) > Math.ceil(255 / a);
    if (bad) return j;
  }
  return -1;
}

/** The canvas's pixels (carried out of the page as base64: a big level's millions of values as JSON numbers are slow). */
export async function canvasPixels(page: Page): Promise<{ width: number; height: number; data: number[] }> {
  const r = await page.$eval('#canvas', (c) => {
    const cv = c as HTMLCanvasElement;
    const d = cv.getContext('2d')!.getImageData(0, 0, cv.width, cv.height).data;
    let s = '';
    for (let i = 0; i < d.length; i += 0x8000) s += String.fromCharCode(...d.subarray(i, i + 0x8000));
    return { width: cv.width, height: cv.height, base64: btoa(s) };
  });
  return { width: r.width, height: r.height, data: [...Buffer.from(r.base64, 'base64')] };
}

/** Opens the viewer at `url` and waits until its file list is loaded. */
export async function openViewerPage(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForSelector('body[data-loaded="true"]', { timeout: 20_000 });
}

/** Shows file `i` of the list and waits until it is drawn. */
export async function showFile(page: Page, i: number): Promise<void> {
  await page.click(`#files button[data-index="${i}"]`);
  await page.waitForSelector(`body[data-ready="${i}"]`);
}

/** Where the browser tests leave their screenshots: test-results/viewer/ in the project (git-ignored). */
/**
 * Waits until the latest preview request is on screen (`body[data-preview="done"]`, set by the viewer
 * after the newest request's picture or error is shown): call it after an action that asks for a new
 * preview (the viewer marks it "busy" synchronously, in the action's own event).
 */
export async function previewDone(page: Page): Promise<void> {
  await page.waitForSelector('body[data-preview="done"]', { state: 'attached' });
}

export const SHOTS = path.join(ROOT, 'test-results', 'viewer');

/**
 * Saves a screenshot of the page as test-results/viewer/NAME.png, NAME made
 * from `name` (a file's path: `solarus/sprites/slime.dat` ->
 * `solarus-sprites-slime.dat`). Returns the path written.
 */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SHOTS, { recursive: true });
  const file = path.join(SHOTS, `${name.replace(/[^\w.-]+/g, '-').replace(/^[-.]+|-+$/g, '') || 'page'}.png`);
  await page.screenshot({ path: file });
  return file;
}
