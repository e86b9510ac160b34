/**
 * Native Aseprite files in the viewer, in Chromium: the real file
 * (`indexed.aseprite` of the npm package ase-parser, MIT) and files the
 * tests write with groups, blend modes and opacity (composed groups or not)
 * are drawn as `sprat render` draws them, every frame of every tag, pixel
 * for pixel; tags are the animations, listed in the Fields tree (a click
 * plays the tag), played with Aseprite's frame durations; the layers are
 * listed by their group paths with show/hide and opacity, and drawing with
 * a layer hidden or faded matches `render --hide-layers` / `--layer-opacity`
 * (by number, and by name: the same pixels).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load, render } from '../../src/api.js';
import type { CommandOptions } from '../../src/formats/types.js';
import { fsResourceLoader } from '../../src/node/fs.js';
import { groupedAse } from '../helpers/ase-files.js';
import {
  canvasDiff,
  canvasPixels,
  haveChromium,
  openViewerPage,
  saveScreenshot,
  showFile,
  startHarness,
  watchedPage,
  type Harness,
} from './harness.js';

const require = createRequire(import.meta.url);
const REAL = require.resolve('ase-parser/indexed.aseprite');

async function rendered(file: string, options: CommandOptions): Promise<{ width: number; height: number; data: Uint8Array }[]> {
  const r = await render(load(readFileSync(file), file), options, fsResourceLoader(path.dirname(file)));
  return r.frames;
}

/** Pauses and shows frame k of the animation on screen. */
async function showFrame(page: Page, k: number): Promise<void> {
  await page.evaluate((frame) => {
    const play = document.getElementById('play')!;
    if (play.textContent === 'Pause') play.click();
    document.querySelector<HTMLButtonElement>(`#timeline button[data-frame="${frame}"]`)?.click();
  }, k);
  await page.waitForFunction((frame) => document.body.dataset.frame === String(frame), k);
}

/** The labels of the page's animations. */
function animations(page: Page): Promise<string[]> {
  return page.$$eval('#animation option', (os) => os.map((o) => o.textContent ?? ''));
}

async function chooseAnimation(page: Page, label: string): Promise<void> {
  const value = await page.$eval(
    '#animation',
    (s, l) => [...(s as HTMLSelectElement).options].find((o) => o.textContent === l)?.value,
    label,
  );
  expect(value, label).toBeDefined();
  await page.selectOption('#animation', value!);
}

/** Every frame of every animation on screen equals render's, with the options the page shows plus `extra`. */
async function sameAsRender(page: Page, file: string, extra: CommandOptions = {}): Promise<number> {
  let compared = 0;
  const labels = await animations(page);
  for (const label of labels) {
    // (One picture: the page shows no choice.)
    if (labels.length > 1) await chooseAnimation(page, label);
    const options = JSON.parse((await page.getAttribute('body', 'data-render-options')) ?? '{}') as CommandOptions;
    const frames = await rendered(file, { ...options, ...extra });
    for (let k = 0; k < frames.length; k++) {
      await showFrame(page, k);
      const px = await canvasPixels(page);
      const want = frames[k]!;
      expect([px.width, px.height]).toEqual([want.width, want.height]);
      const bad = canvasDiff(px.data, want.data);
      expect(bad, `${path.basename(file)} ${label} frame ${k}: byte ${bad}`).toBe(-1);
      compared++;
    }
  }
  return compared;
}

describe.skipIf(!haveChromium)('viewer: native Aseprite files', () => {
  let h: Harness;
  let dir: string;
  let grouped: string;
  let composed: string;
  beforeAll(async () => {
    h = await startHarness();
    dir = mkdtempSync(path.join(os.tmpdir(), 'sprat-web-ase-'));
    grouped = path.join(dir, 'grouped.aseprite');
    composed = path.join(dir, 'composed.aseprite');
    writeFileSync(grouped, groupedAse());
    writeFileSync(composed, groupedAse(true));
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('draws the real file and written files with groups, blend modes and opacity as render does, every frame of every tag', async () => {
    const server = await h.serve([REAL, grouped, composed]);
    const { page, errors } = await watchedPage(h.browser);
    await openViewerPage(page, server.url);
    await page.waitForSelector('body[data-ready="0"]');
    expect(await page.textContent('#format')).toMatch(/\(ase\), \d+ bytes$/);
    expect(await sameAsRender(page, REAL)).toBe(1);
    await saveScreenshot(page, 'ase-indexed.aseprite');
    await showFile(page, 1);
    expect(await animations(page)).toEqual(['all frames', 'walk', 'back', 'idle', 'bounce']);
    // all frames 3, walk 7 (ping-pong, 3 passes), back 3, idle 1, bounce 4
    expect(await sameAsRender(page, grouped)).toBe(18);
    await saveScreenshot(page, 'ase-grouped.aseprite');
    await showFile(page, 2);
    expect(await sameAsRender(page, composed)).toBe(18);
    expect(errors).toEqual([]);
  }, 240_000);

  it("plays tags with Aseprite's durations and directions; a tag in the Fields tree plays it", async () => {
    const server = await h.serve([grouped]);
    const { page, errors } = await watchedPage(h.browser);
    await openViewerPage(page, server.url);
    await page.waitForSelector('body[data-ready="0"]');
    await page.click('#tree details[data-path="/tags"] > summary');
    await page.click('#tree details[data-path="/tags/0"] > summary');
    await page.waitForFunction(() => document.querySelector('#animation option:checked')?.textContent === 'walk');
    // walk: 0-2 ping-pong, 3 passes: 0 1 2 1 0 1 2, each frame for its own duration; played once.
    const steps = await page.$$eval('#timeline button', (bs) => bs.map((b) => b.textContent));
    expect(steps).toEqual(['0 · 100ms', '1 · 150ms', '2 · 50ms', '3 · 150ms', '4 · 100ms', '5 · 150ms', '6 · 50ms']);
    expect(await page.isChecked('#loop')).toBe(false);
    // bounce: ping-pong reverse, forever.
    await page.click('#tree details[data-path="/tags/3"] > summary');
    await page.waitForFunction(() => document.querySelector('#animation option:checked')?.textContent === 'bounce');
    expect(await page.$$eval('#timeline button', (bs) => bs.map((b) => b.textContent))).toEqual([
      '0 · 50ms',
      '1 · 150ms',
      '2 · 100ms',
      '3 · 150ms',
    ]);
    expect(await page.isChecked('#loop')).toBe(true);
    expect(errors).toEqual([]);
  }, 120_000);

  it('lists the layers by group path; hiding or fading one draws what render --hide-layers / --layer-opacity draws', async () => {
    const server = await h.serve([grouped]);
    const { page, errors } = await watchedPage(h.browser);
    await openViewerPage(page, server.url);
    await page.waitForSelector('body[data-ready="0"]');
    const names = await page.$$eval('#levellayers label', (ls) => ls.map((l) => l.textContent?.trim()));
    expect(names).toEqual(['bg', 'body', 'body/arm', 'body/hat', 'fx', 'fx/glow', 'ref', 'top']);
    // The layers the file hides (and the reference layer) are shown hidden, and cannot be shown.
    const states = await page.$$eval('#levellayers input[type="checkbox"]', (cs) =>
      cs.map((c) => [(c as HTMLInputElement).checked, (c as HTMLInputElement).disabled]),
    );
    expect(states).toEqual([
      [true, false],
      [true, false],
      [true, false],
      [true, false],
      [false, true],
      [false, true],
      [false, true],
      [true, false],
    ]);
    const shown = await canvasPixels(page);
    // Hiding the group hides its children: the pixels render draws with --hide-layers body (or 1).
    await page.uncheck('#levellayers input[data-layer="1"]');
    await page.waitForFunction(() => /"hide-layers":"1"/.test(document.body.dataset.renderOptions ?? ''));
    expect(await sameAsRender(page, grouped)).toBe(18);
    // Its children are shown unchecked and cannot be changed while it is hidden.
    const arm = (prop: 'checked' | 'disabled') =>
      page.$eval('#levellayers input[data-layer="2"]', (e, p) => (e as HTMLInputElement)[p], prop);
    expect([await arm('checked'), await arm('disabled')]).toEqual([false, true]);
    await chooseAnimation(page, 'all frames');
    await showFrame(page, 0);
    const hidden = await canvasPixels(page);
    expect(hidden.data).not.toEqual(shown.data);
    const byName = (await rendered(grouped, { 'hide-layers': 'body', frame: '0' }))[0]!;
    expect(canvasDiff(hidden.data, byName.data)).toBe(-1);
    expect(byName.data).toEqual((await rendered(grouped, { 'hide-layers': 'body/arm,body/hat', frame: '0' }))[0]!.data);
    // Fading the top layer to half.
    await page.check('#levellayers input[data-layer="1"]');
    expect([await arm('checked'), await arm('disabled')]).toEqual([true, false]);
    await page.$eval('#levellayers input[data-layer-opacity="7"]', (r) => {
      (r as HTMLInputElement).value = '50';
      r.dispatchEvent(new Event('change'));
    });
    await page.waitForFunction(() => /"layer-opacity":"7=0.5"/.test(document.body.dataset.renderOptions ?? ''));
    await showFrame(page, 1);
    const faded = await canvasPixels(page);
    const want = (await rendered(grouped, { 'layer-opacity': 'top=0.5', frame: '1' }))[0]!;
    expect(canvasDiff(faded.data, want.data)).toBe(-1);
    await saveScreenshot(page, 'ase-grouped-layers');
    expect(errors).toEqual([]);
  }, 180_000);
});
