/**
 * An attached sprite in the viewer plays on its own hold times (
 * the contract: each sprite steps by its own rules, the attached one drawn
 * at the point in the parent's current frame): stepping through the
 * animation shows, at each picture, the attached sprite's frame that
 * `sprat play` gives for it at that time, and the pixels `render --attach`
 * draws.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { load, play, render } from '../../src/api.js';
import { fsResourceLoader } from '../../src/node/fs.js';
import { blinkCounts, writeBlinkSprite } from '../helpers/blink.js';
import type { IspritePlayRecord } from '../../src/formats/isprite/play-cli.js';
import { SAMPLES } from '../helpers/paths.js';
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

describe.skipIf(!haveChromium)('viewer: an attached sprite on its own hold times', () => {
  let h: Harness;
  let dir: string;
  beforeAll(async () => {
    h = await startHarness();
    dir = mkdtempSync(path.join(os.tmpdir(), 'sprat-attach-web-'));
    copyFileSync(path.join(SAMPLES, 'isprite/hero.isprite'), path.join(dir, 'hero.isprite'));
    copyFileSync(path.join(SAMPLES, 'isprite/hero.png'), path.join(dir, 'hero.png'));
    await writeBlinkSprite(dir);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('stepping shows the attached sprite’s frames as `sprat play` steps it, each picture as render --attach draws it', async () => {
    const hero = path.join(dir, 'hero.isprite');
    const blink = path.join(dir, 'blink.isprite');
    const server = await h.serve([hero, blink]);
    const { page, errors } = await watchedPage(h.browser);
    await openViewerPage(page, server.url);
    await page.waitForSelector('body[data-ready="0"]');
    const attack = await page.$eval(
      '#animation',
      (s) => [...(s as HTMLSelectElement).options].find((o) => o.textContent === 'Root/Armed/attack')?.value,
    );
    await page.selectOption('#animation', attack!);
    await page.selectOption('#opt-attach-point', 'hand');
    await page.selectOption('#opt-attach', '1');
    await page.waitForFunction(() => document.body.dataset.renderOptions?.includes('"attach":"hand=blink.isprite"'));
    if ((await page.textContent('#play')) === 'Pause') await page.click('#play');
    await page.click('#timeline button[data-frame="0"]');

    const want = await render(
      load(readFileSync(hero), 'hero.isprite'),
      { animation: 'Root/Armed/attack', attach: 'hand=blink.isprite' },
      fsResourceLoader(dir),
    );
    // The timeline: the parent's three frames, cut where the attached sprite changes.
    const strip = await page.$$eval('#timeline button', (bs) => bs.map((b) => b.textContent));
    expect(strip).toEqual(want.delaysMs!.map((d, i) => `${i} · ${Math.round(d * 10) / 10}ms`));
    expect(strip[1]).toBe('1 · 33.3ms');
    expect(strip.length).toBe(4);
    // What `sprat play` says the attached sprite shows at each tick (10 a second).
    const ticks = play(load(readFileSync(blink), 'blink.isprite'), { ticks: '10' }).records.map((r) => (r as IspritePlayRecord).frame);
    let t = 0;
    const seen: number[] = [];
    for (let k = 0; k < want.frames.length; k++) {
      if (k > 0) {
        await page.click('#next');
        await page.waitForSelector(`body[data-frame="${k}"]`);
      }
      const px = await canvasPixels(page);
      expect(canvasDiff(px.data, want.frames[k]!.data), `picture ${k}`).toBe(-1);
      const shown = blinkCounts(px.data).findIndex((c) => c > 0);
      expect(shown, `picture ${k} at ${t} ms`).toBe(ticks[Math.floor(t / 100 + 1e-9)]);
      seen.push(shown);
      t += want.delaysMs![k]!;
    }
    // Its frames change while the parent's do not (pictures 1 and 2 are both the parent's frame 1).
    expect(seen).toEqual([0, 0, 1, 1]);
    await saveScreenshot(page, 'isprite-hero-attack-with-blink-attached');
    expect(errors).toEqual([]);
    await page.close();
  });
});
