/**
 * SpriteTile levels with their tiles in the viewer: the tile
 * images given on `sprat view`'s command line (`--tileset`), or chosen in the
 * page (an image beside the level per tile set, and a tile size; or the
 * command line's text), draw what `sprat render --tileset` draws, pixel for
 * pixel. Nothing is applied unless asked for.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { load, render } from '../../src/api.js';
import { fsResourceLoader } from '../../src/node/fs.js';
import { CORPUS, SAMPLES } from '../helpers/paths.js';
import {
  canvasDiff,
  canvasPixels,
  haveChromium,
  openViewerPage,
  saveScreenshot,
  startHarness,
  watchedPage,
  type Harness,
} from './harness.js';

const LEVEL = path.join(SAMPLES, 'spritetile/level.bytes');

/** What `sprat render` draws for `file` with `options` (paths relative to the file, as the page names them). */
async function rendered(file: string, options: Record<string, string>): Promise<{ width: number; height: number; data: Uint8Array }> {
  const r = await render(load(readFileSync(file), path.basename(file)), options, fsResourceLoader(path.dirname(file)));
  return r.frames[0]!;
}

async function drawnWith(page: Page, text: string): Promise<void> {
  await page.waitForFunction((t) => document.body.dataset.renderOptions?.includes(t) === true, text);
}

async function samePixels(page: Page, file: string, options: Record<string, string>): Promise<void> {
  const want = await rendered(file, options);
  const px = await canvasPixels(page);
  expect([px.width, px.height]).toEqual([want.width, want.height]);
  expect(canvasDiff(px.data, want.data)).toBe(-1);
}

describe.skipIf(!haveChromium)('viewer: SpriteTile levels with their tiles', () => {
  let h: Harness;
  let tmp: string;
  beforeAll(async () => {
    h = await startHarness();
    // The level in one folder, its tiles in another (as `sprat view levels/x.bytes --tileset 0=art/tiles.png:16x16` names them),
    // and a picture beside the level named as `sprat convert` names a set's image.
    tmp = mkdtempSync(path.join(os.tmpdir(), 'sprat-tiles-'));
    mkdirSync(path.join(tmp, 'levels'));
    mkdirSync(path.join(tmp, 'art'));
    copyFileSync(LEVEL, path.join(tmp, 'levels', 'x.bytes'));
    copyFileSync(path.join(SAMPLES, 'spritetile/tiles.png'), path.join(tmp, 'art', 'tiles.png'));
    copyFileSync(path.join(SAMPLES, 'spritetile/tiles.png'), path.join(tmp, 'levels', 'a.png'));
    copyFileSync(path.join(SAMPLES, 'spritetile/tiles.png'), path.join(tmp, 'levels', 'x-set_0.png'));
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('the command line’s --tileset: the page draws what render draws with it', async () => {
    const server = await h.serve([path.join(tmp, 'levels', 'x.bytes')], {
      given: { options: { tileset: '0=art/tiles.png:16x16' }, cwd: tmp },
    });
    const { page, errors } = await watchedPage(h.browser);
    await openViewerPage(page, server.url);
    await page.waitForSelector('body[data-ready="0"]');
    // Relative to the level, as the page names every file.
    await drawnWith(page, '"tileset":"0=../art/tiles.png:16x16"');
    expect(await page.inputValue('#opt-tileset')).toBe('0=../art/tiles.png:16x16');
    expect(await page.inputValue('#tilesets select[data-set="0"]')).toBe('../art/tiles.png');
    await samePixels(page, path.join(tmp, 'levels', 'x.bytes'), { tileset: '0=../art/tiles.png:16x16' });
    // Not the flat colours.
    expect((await canvasPixels(page)).data).not.toEqual([...(await rendered(path.join(tmp, 'levels', 'x.bytes'), {})).data]);
    await saveScreenshot(page, 'spritetile-level-with-tileset');
    // Back to flat colours from the page.
    await page.selectOption('#tilesets select[data-set="0"]', '');
    await page.waitForFunction(() => !document.body.dataset.renderOptions?.includes('tileset'));
    await samePixels(page, path.join(tmp, 'levels', 'x.bytes'), {});
    expect(errors).toEqual([]);
    await page.close();
  });

  it('without it, flat colours; the pictures beside the level are offered (LEVEL-set_N.png first) and the choice draws as render', async () => {
    const file = path.join(tmp, 'levels', 'x.bytes');
    const server = await h.serve([file]);
    const { page, errors } = await watchedPage(h.browser);
    await openViewerPage(page, server.url);
    await page.waitForSelector('body[data-ready="0"]');
    // Never applied by itself.
    expect(await page.getAttribute('body', 'data-render-options')).toBe('{}');
    await samePixels(page, file, {});
    const choices = await page.$$eval('#tilesets select[data-set="0"] option', (os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(choices).toEqual(['', 'x-set_0.png', 'a.png']);
    await page.selectOption('#tilesets select[data-set="0"]', 'a.png');
    await drawnWith(page, '"tileset":"0=a.png:16x16"');
    expect(await page.inputValue('#opt-tileset')).toBe('0=a.png:16x16');
    await samePixels(page, file, { tileset: '0=a.png:16x16' });
    // Another tile size: as render cuts the image.
    await page.fill('#tilesets input[data-set-size="0"]', '8x8');
    await page.press('#tilesets input[data-set-size="0"]', 'Enter');
    await drawnWith(page, '"tileset":"0=a.png:8x8"');
    await samePixels(page, file, { tileset: '0=a.png:8x8' });
    // The command line's text, typed.
    await page.fill('#opt-tileset', '0=x-set_0.png:16x16');
    await page.press('#opt-tileset', 'Enter');
    await drawnWith(page, '"tileset":"0=x-set_0.png:16x16"');
    expect(await page.inputValue('#tilesets select[data-set="0"]')).toBe('x-set_0.png');
    await samePixels(page, file, { tileset: '0=x-set_0.png:16x16' });
    // A wrong one: render's error, and no stale picture.
    await page.fill('#opt-tileset', '0=nope.png:16x16');
    await page.press('#opt-tileset', 'Enter');
    await page.waitForFunction(() => /^no preview: /.test(document.getElementById('previewnote')?.textContent ?? ''));
    expect(await page.textContent('#previewnote')).toMatch(/nope\.png/);
    expect((await canvasPixels(page)).width).toBe(1);
    // The missing image's request is the one failure the console shows.
    expect(errors.filter((e) => !/Failed to load resource: .* 404/.test(e))).toEqual([]);
    await page.close();
  });

  it.skipIf(!existsSync(path.join(CORPUS, 'solarus/quest-editor-initial')))(
    'a Solarus sprite drawn from the map’s tileset: the quest’s tilesets offered, the choice drawn as render --tileset',
    async () => {
      const bush = path.join(CORPUS, 'solarus/quest-editor-initial/data/sprites/entities/bush.dat');
      const server = await h.serve([bush]);
      const { page, errors } = await watchedPage(h.browser);
      await openViewerPage(page, server.url);
      await page.waitForSelector('body[data-ready="0"]');
      const choices = await page.$$eval('#opt-tileset option', (os) => os.map((o) => (o as HTMLOptionElement).value));
      expect(choices).toEqual(['', '../../tilesets/castle.entities.png', '../../tilesets/castle.tiles.png']);
      await page.selectOption('#opt-tileset', '../../tilesets/castle.tiles.png');
      await drawnWith(page, '"tileset":"../../tilesets/castle.tiles.png"');
      if ((await page.textContent('#play')) === 'Pause') await page.click('#play');
      if (await page.$('#timeline button[data-frame="0"]')) await page.click('#timeline button[data-frame="0"]');
      const options = JSON.parse((await page.getAttribute('body', 'data-render-options'))!) as Record<string, string>;
      const animated = (await page.$('#timeline button')) !== null;
      await samePixels(page, bush, animated ? { ...options, frame: '0' } : options);
      await saveScreenshot(page, 'solarus-bush-with-tileset');
      expect(errors).toEqual([]);
      await page.close();
    },
  );

  it.skipIf(!existsSync(path.join(CORPUS, 'solarus/quest-editor-initial')))(
    'a quest folder: a sprite drawn only from the tileset says so, and the tileset control is there to fix it',
    async () => {
      const quest = path.join(CORPUS, 'solarus/quest-editor-initial');
      const ground = path.join(quest, 'data/sprites/hero/ground1.dat');
      const server = await h.serve([ground], { names: ['data/sprites/hero/ground1.dat'], roots: [quest] });
      const { page, errors } = await watchedPage(h.browser);
      await openViewerPage(page, server.url);
      await page.waitForSelector('body[data-ready="0"]');
      expect(await page.textContent('#previewnote')).toMatch(/^no preview: .*tileset/);
      expect(await page.isVisible('#opt-tileset')).toBe(true);
      await page.selectOption('#opt-tileset', '../../tilesets/castle.tiles.png');
      await drawnWith(page, '"tileset":"../../tilesets/castle.tiles.png"');
      expect(await page.textContent('#previewnote')).toBe('');
      expect((await canvasPixels(page)).width).toBeGreaterThan(1);
      expect(errors).toEqual([]);
      await page.close();
    },
  );
});
