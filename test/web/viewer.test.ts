import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as path from 'node:path';
import type { Browser } from 'playwright-core';
import type { ViewerServer } from '../../src/node/server.js';
import { SAMPLES } from '../helpers/paths.js';
import { readFileSync } from 'node:fs';
import { haveChromium, previewDone, startHarness, type Harness } from './harness.js';

interface Manifest {
  samples: { file: string; optional?: boolean }[];
}

describe.skipIf(!haveChromium)('browser viewer', () => {
  let h: Harness;
  let server: ViewerServer;
  let browser: Browser;
  const manifest = JSON.parse(readFileSync(path.join(SAMPLES, 'demo.json'), 'utf8')) as Manifest;
  const files = manifest.samples.filter((s) => !s.optional).map((s) => path.join(SAMPLES, s.file));

  beforeAll(async () => {
    // The viewer bundled from source (so the test sees the current code), served, and Chromium.
    h = await startHarness();
    browser = h.browser;
    server = await h.serve(files);
  }, 60_000);

  afterAll(async () => {
    await h?.close();
  });

  it('lists the served files and shows the first one, valid, with its summary', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(server.url);
    await page.waitForSelector('body[data-loaded="true"]', { timeout: 20_000 });
    const names = await page.$$eval('#files button', (bs) => bs.map((b) => b.textContent));
    expect(names).toEqual(files.map((f) => path.basename(f)));
    if (files.length) {
      await page.waitForSelector('body[data-ready="0"]');
      expect(await page.textContent('#diagnostics')).toMatch(/valid/);
      expect((await page.textContent('#summary'))!.length).toBeGreaterThan(0);
      expect(JSON.parse((await page.textContent('#json'))!)).toHaveProperty('format');
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  it('opens at the printed address only (token), under its Content-Security-Policy', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[\w-]{20,}\/$/);
    const page = await browser.newPage();
    const res = await page.goto(server.url.replace(/[\w-]+\/$/, ''));
    expect(res!.status()).toBe(404);
    const ok = await page.goto(server.url);
    expect(ok!.status()).toBe(200);
    expect(ok!.headers()['content-security-policy']).toMatch(/^default-src 'self'/);
    await page.close();
  });

  it('shows every sample without a page error', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) errors.push(m.text());
    });
    // Every sheet and texture a sample loads (GET) is served; only probes (HEAD) may miss.
    page.on('response', (r) => {
      if (r.url().includes('/res/') && r.request().method() === 'GET' && r.status() !== 200) errors.push(`${r.status()} ${r.url()}`);
    });
    const served: string[] = [];
    const probed: { name: string; exists: boolean }[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/res/') && r.status() === 200) served.push(decodeURIComponent(r.url().replace(/^.*\/res\//, '')));
      if (r.url().includes('/exists/')) {
        const name = decodeURIComponent(r.url().replace(/^.*\/exists\//, ''));
        void r
          .json()
          .then((j: { exists: boolean }) => probed.push({ name, exists: j.exists }))
          .catch(() => undefined);
      }
    });
    await page.goto(server.url);
    await page.waitForSelector('body[data-loaded="true"]', { timeout: 20_000 });
    for (let i = 0; i < files.length; i++) {
      await page.click(`#files button:nth-child(${i + 1})`);
      await page.waitForSelector(`body[data-ready="${i}"]`);
      expect(await page.textContent('#format'), files[i]).not.toMatch(/cannot read/);
      // Every bundled sample has a picture (Hallgeir sprites once given their frame size).
      if (await page.isVisible('#framesizebox')) {
        await page.fill('#framesize', '16x16');
        await page.press('#framesize', 'Enter');
        await previewDone(page);
      }
      expect(await page.textContent('#previewnote'), files[i]).not.toMatch(/^no preview/);
      const width = await page.$eval('#canvas', (c) => (c as HTMLCanvasElement).width);
      expect(width, files[i]).toBeGreaterThan(1);
    }
    expect(errors).toEqual([]);
    // The sheets and textures of the samples reached the page (the Solarus sheet from the quest's sprites/ folder, found by it).
    for (const name of ['tiles.png', 'hero.png', '../sprites/enemies/slime.png']) expect(served, name).toContain(name);
    // The quest's sprites/ folder was found by asking whether it exists (answered 200 either way: no 404 in the console).
    expect(probed).toContainEqual({ name: '../sprites/', exists: true });
    await page.close();
  });
});
