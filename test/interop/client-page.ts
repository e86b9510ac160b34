// The Chromium page both client tests use (clients.test.ts: sprat's exports;
// real-clients.test.ts: real sheets): the real PixiJS 8 and Phaser 3 builds
// from node_modules and a page script, served at http://sprat.test/, with
// /files/... answered by the test.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ROOT } from '../helpers/paths.js';
import { CHROMIUM, CHROMIUM_ARGS } from '../web/harness.js';

/**
 * Opens the page with `pageScript` (a file under test/interop/) and waits for
 * the functions it defines (`ready`, names on window). `fileFor` maps a
 * request path under /files/ to a file on disk (undefined: 404). `errors`
 * collects the page's uncaught errors.
 */
export async function openClientPage(
  pageScript: string,
  fileFor: (requestPath: string) => string | undefined,
  ready: string[],
): Promise<{ browser: Browser; page: Page; errors: string[] }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const served: Record<string, string> = {
    '/pixi.js': path.join(ROOT, 'node_modules/pixi.js/dist/pixi.min.js'),
    '/phaser.js': path.join(ROOT, 'node_modules/phaser/dist/phaser.min.js'),
    '/common.js': path.join(ROOT, 'test/interop/client-common.js'),
    '/page.js': path.join(ROOT, 'test/interop', pageScript),
  };
  await page.route('http://sprat.test/**', async (route) => {
    const p = decodeURIComponent(new URL(route.request().url()).pathname);
    if (p === '/') {
      const html =
        '<!doctype html><body><script src="pixi.js"></script><script src="phaser.js"></script><script src="common.js"></script><script src="page.js"></script></body>';
      return route.fulfill({ status: 200, contentType: 'text/html', body: html });
    }
    const file = served[p] ?? (p.startsWith('/files/') ? fileFor(p) : undefined);
    if (!file || !fs.existsSync(file)) return route.fulfill({ status: 404, body: 'not found' });
    const type = p.endsWith('.png') ? 'image/png' : p.endsWith('.json') ? 'application/json' : 'text/javascript';
    return route.fulfill({ status: 200, contentType: type, body: fs.readFileSync(file) });
  });
  await page.goto('http://sprat.test/');
  await page.waitForFunction((names) => names.every((n) => n in window), ready);
  return { browser, page, errors };
}
