/**
 * Files reload when they change on disk: the page polls
 * `files/N/version` and shows the document again, keeping the animation
 * and frame, when it or a file it references changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { decodePng, encodePng } from '../../src/render/png.js';
import { SAMPLES } from '../helpers/paths.js';
import { canvasPixels, haveChromium, startHarness, watchedPage, type Harness } from './harness.js';

async function chooseAnimation(page: Page, label: string): Promise<void> {
  const value = await page.$eval(
    '#animation',
    (s, l) => [...(s as HTMLSelectElement).options].find((o) => o.textContent === l)?.value,
    label,
  );
  expect(value, label).toBeDefined();
  await page.selectOption('#animation', value!);
}

const labelOf = (page: Page) => page.$eval('#animation', (s) => (s as HTMLSelectElement).selectedOptions[0]?.textContent ?? '');

describe.skipIf(!haveChromium)('viewer reload', () => {
  let h: Harness;
  let tmp: string;

  beforeAll(async () => {
    h = await startHarness();
    tmp = mkdtempSync(path.join(os.tmpdir(), 'sprat-reload-'));
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('the version route keeps the token and Host checks', async () => {
    const dir = path.join(tmp, 'route');
    cpSync(path.join(SAMPLES, 'solarus'), dir, { recursive: true });
    const file = path.join(dir, 'sprites/slime.dat');
    const server = await h.serve([file]);
    const ok = await fetch(`${server.url}files/0/version`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-security-policy')).toMatch(/sandbox/);
    const v1 = ((await ok.json()) as { version: string }).version;
    expect(v1).toMatch(/^[0-9a-f]{32}$/);
    expect((await fetch(`${server.url}files/0/version`).then((r) => r.json())).version).toBe(v1);
    // A referenced sheet changes: so does the version.
    const sheet = path.join(dir, 'sprites/enemies/slime.png');
    writeFileSync(sheet, Buffer.concat([readFileSync(sheet), Buffer.from([0])]));
    expect((await fetch(`${server.url}files/0/version`).then((r) => r.json())).version).not.toBe(v1);
    expect((await fetch(`http://127.0.0.1:${server.port}/wrongtoken/files/0/version`)).status).toBe(404);
    expect((await fetch(`${server.url}files/7/version`)).status).toBe(404);
    const other = await fetch(`${server.url}files/0/version`, { headers: { origin: 'http://evil.example' } });
    expect(other.status).toBe(403);
  });

  it('a changed sprite and a changed sheet are shown again, keeping the animation and frame', async () => {
    const dir = path.join(tmp, 'quest');
    cpSync(path.join(SAMPLES, 'solarus'), dir, { recursive: true });
    const file = path.join(dir, 'sprites/slime.dat');
    const server = await h.serve([file]);
    const { page, errors } = await watchedPage(h.browser);
    await page.goto(server.url);
    await page.waitForSelector('body[data-ready="0"]', { timeout: 20_000 });
    await chooseAnimation(page, 'walking (down)');
    await page.click('#play'); // pause
    // From frame 0 (on a loaded machine the animation may have moved on before the pause).
    await page.click('#timeline button[data-frame="0"]');
    await page.click('#next');
    await page.click('#next');
    expect(await page.textContent('#frameinfo')).toMatch(/^frame 3 \/ 4 · 150 ms/);
    const before = await canvasPixels(page);
    expect(before.data.some((v) => v !== 0)).toBe(true);

    writeFileSync(file, readFileSync(file, 'utf8').replace('walking enemies/slime.png 4 150 0', 'walking enemies/slime.png 4 275 0'));
    await page.waitForFunction(() => /275 ms/.test(document.getElementById('frameinfo')?.textContent ?? ''), null, {
      timeout: 10_000,
    });
    await page.waitForSelector('body[data-ready="0"]');
    expect(await labelOf(page)).toBe('walking (down)');
    expect(await page.textContent('#frameinfo')).toMatch(/^frame 3 \/ 4 · 275 ms/);
    expect(await page.textContent('#play')).toMatch(/play/i);
    expect(await canvasPixels(page)).toEqual(before);

    // The sheet becomes another picture (the frames' place now blank): the canvas follows.
    const sheet = path.join(dir, 'sprites/enemies/slime.png');
    const img = decodePng(new Uint8Array(readFileSync(sheet)));
    img.data.fill(0);
    writeFileSync(sheet, encodePng(img));
    await page.waitForFunction(
      (n) => {
        const c = document.getElementById('canvas') as HTMLCanvasElement;
        if (document.body.dataset.ready !== '0' || c.width * c.height !== n) return false;
        return c
          .getContext('2d')!
          .getImageData(0, 0, c.width, c.height)
          .data.every((v) => v === 0);
      },
      before.width * before.height,
      { timeout: 10_000 },
    );
    expect(await labelOf(page)).toBe('walking (down)');
    expect(await page.textContent('#frameinfo')).toMatch(/^frame 3 \/ 4 · 275 ms/);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});

describe.skipIf(!haveChromium)('viewer tile grid', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('draws a line every N pixels over the picture when asked, N from the level or the user', async () => {
    const server = await h.serve([path.join(SAMPLES, 'solarus/sprites/slime.dat'), path.join(SAMPLES, 'interop/dungeon.tmj')]);
    const { page, errors } = await watchedPage(h.browser);
    await page.goto(server.url);
    await page.waitForSelector('body[data-ready="0"]', { timeout: 20_000 });
    await page.click('#play'); // pause
    expect(await page.inputValue('#gridsize')).toBe('16');
    const plain = await canvasPixels(page);
    await page.fill('#gridsize', '4');
    await page.dispatchEvent('#gridsize', 'change');
    expect(await canvasPixels(page)).toEqual(plain);
    await page.check('#grid');
    const grid = await canvasPixels(page);
    const at = (px: typeof grid, x: number, y: number) => px.data.slice((y * px.width + x) * 4, (y * px.width + x) * 4 + 4);
    for (const [x, y] of [
      [4, 1],
      [1, 8],
      [0, 0],
    ] as const) {
      const p = at(grid, x, y);
      expect(p[3], `${x},${y}`).toBeGreaterThan(0);
      expect(p[0]! >= p[1]! && p[2]! >= p[1]!, `${x},${y} magenta-ish`).toBe(true);
    }
    // Between the lines the picture is unchanged.
    expect(at(grid, 5, 5)).toEqual(at(plain, 5, 5));
    await page.uncheck('#grid');
    expect(await canvasPixels(page)).toEqual(plain);

    // A Tiled map: N is its tile size (8).
    await page.click('#files button[data-index="1"]');
    await page.waitForSelector('body[data-ready="1"]');
    expect(await page.inputValue('#gridsize')).toBe('8');
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
