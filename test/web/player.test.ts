/**
 * The viewer as a player: the bugs it had (stale picture after a
 * failed preview, dropped files losing their sheets, Play/Pause label out
 * of sync, a step while playing advancing again, everything frozen after a
 * one-shot), the timeline, loop/once, speed, keyboard, zoom/fit/pan,
 * background, onion skin, overlays and layers, at 1280x800 and 400 px wide.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { load, render } from '../../src/api.js';
import { fsResourceLoader } from '../../src/node/fs.js';
import { listDocuments } from '../../src/node/server.js';
import { encodeRender } from '../../src/render/output.js';
import { CORPUS, SAMPLES } from '../helpers/paths.js';
import {
  canvasDiff,
  canvasPixels,
  haveChromium,
  openViewerPage,
  previewDone,
  saveScreenshot,
  showFile,
  startHarness,
  watchedPage,
  type Harness,
} from './harness.js';

const SLIME = path.join(SAMPLES, 'solarus/sprites/slime.dat');
const HERO_ISPRITE = path.join(SAMPLES, 'isprite/hero.isprite');
const FAN = path.join(SAMPLES, 'cthg/fan.dat');
const HERO_JSON = path.join(SAMPLES, 'interop/hero.json');

const frameOf = async (page: Page) => Number(await page.getAttribute('body', 'data-frame'));

async function chooseAnimation(page: Page, label: string): Promise<void> {
  const value = await page.$eval(
    '#animation',
    (s, l) => [...(s as HTMLSelectElement).options].find((o) => o.textContent === l)?.value,
    label,
  );
  expect(value, label).toBeDefined();
  await page.selectOption('#animation', value!);
}

describe.skipIf(!haveChromium)('viewer player', () => {
  let h: Harness;
  let tmp: string;

  beforeAll(async () => {
    h = await startHarness();
    tmp = mkdtempSync(path.join(os.tmpdir(), 'sprat-player-'));
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('a failed preview leaves no picture of the previous file', async () => {
    // An ISPRITE whose texture is missing: it loads, its preview fails.
    const dir = path.join(tmp, 'broken');
    mkdirSync(dir);
    copyFileSync(HERO_ISPRITE, path.join(dir, 'hero.isprite'));
    const server = await h.serve([SLIME, path.join(dir, 'hero.isprite')]);
    const { page, errors } = await watchedPage(h.browser);
    await openViewerPage(page, server.url);
    await page.waitForSelector('body[data-ready="0"]');
    expect((await canvasPixels(page)).width).toBeGreaterThan(1);
    await showFile(page, 1);
    expect(await page.textContent('#title')).toBe('hero.isprite');
    expect(await page.textContent('#previewnote')).toMatch(/^no preview: .*texture/);
    const px = await canvasPixels(page);
    expect(px.width * px.height).toBe(1);
    expect(px.data.every((v) => v === 0)).toBe(true);
    expect(await page.$$('#timeline button')).toHaveLength(0);
    // The probe for the missing texture is the only failed request.
    expect(errors.filter((e) => !/404/.test(e))).toEqual([]);
    await page.close();
  });

  it('files opened by the picker keep their sheets when more files are opened', async () => {
    const server = await h.serve([]);
    const { page, errors } = await watchedPage(h.browser);
    await openViewerPage(page, server.url);
    await page.setInputFiles('#picker', [SLIME, path.join(SAMPLES, 'solarus/sprites/enemies/slime.png')]);
    await page.waitForSelector('body[data-ready="0"]');
    expect(await page.textContent('#previewnote')).not.toMatch(/no preview/);
    await page.setInputFiles('#picker', [HERO_JSON, path.join(SAMPLES, 'interop/hero.png')]);
    await page.waitForSelector('body[data-ready="1"]');
    expect(await page.textContent('#previewnote')).not.toMatch(/no preview/);
    await showFile(page, 0);
    expect(await page.textContent('#previewnote')).not.toMatch(/no preview/);
    expect((await canvasPixels(page)).width).toBe(16);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('Play/Pause says what happens after switching files; a step while playing stays put', async () => {
    const server = await h.serve([SLIME, HERO_ISPRITE]);
    const { page, errors } = await watchedPage(h.browser);
    await openViewerPage(page, server.url);
    await page.waitForSelector('body[data-ready="0"]');
    await chooseAnimation(page, 'walking (down)');
    expect(await page.textContent('#play')).toBe('Pause');
    await page.click('#play');
    expect(await page.textContent('#play')).toBe('Play');
    await showFile(page, 1);
    // The new file plays, and the button says so.
    expect(await page.textContent('#play')).toBe('Pause');
    await showFile(page, 0);
    await chooseAnimation(page, 'walking (down)');
    expect(await page.textContent('#play')).toBe('Pause');
    // A step while playing pauses there: no extra frame later.
    await page.click('#next');
    const f = await frameOf(page);
    expect(await page.textContent('#play')).toBe('Play');
    // Paused with no timer running: no frame can follow.
    expect(await page.getAttribute('body', 'data-timer')).toBe('off');
    expect(await frameOf(page)).toBe(f);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('after a one-shot ends, the next animation plays; loop and speed', async () => {
    const server = await h.serve([SLIME]);
    const { page, errors } = await watchedPage(h.browser);
    await openViewerPage(page, server.url);
    await page.waitForSelector('body[data-ready="0"]');
    // "hurt" does not loop: it plays once, then the button offers Play.
    await chooseAnimation(page, 'hurt (0)');
    expect(await page.isChecked('#loop')).toBe(false);
    await page.waitForFunction(() => document.querySelector('#play')!.textContent === 'Play');
    expect(await frameOf(page)).toBe(1);
    await chooseAnimation(page, 'walking (right)');
    expect(await page.isChecked('#loop')).toBe(true);
    expect(await page.textContent('#play')).toBe('Pause');
    await page.waitForFunction(() => document.body.dataset.frame !== '0');
    // Once, at 4x: it stops at the last frame.
    await page.uncheck('#loop');
    await page.selectOption('#speed', '4');
    await page.waitForFunction(() => document.querySelector('#play')!.textContent === 'Play');
    expect(await frameOf(page)).toBe(3);
    // Play again starts over: the first frame it shows is frame 0 (recorded as it is set, so the
    // frames it plays on to at 4x cannot hide it).
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seenFrames: string[] }).seenFrames = seen;
      new MutationObserver(() => seen.push(document.body.dataset.frame ?? '')).observe(document.body, {
        attributes: true,
        attributeFilter: ['data-frame'],
      });
    });
    await page.click('#play');
    expect(await page.textContent('#play')).toBe('Pause');
    await page.waitForFunction(() => (window as unknown as { seenFrames: string[] }).seenFrames.length > 0);
    expect(await page.evaluate(() => (window as unknown as { seenFrames: string[] }).seenFrames[0])).toBe('0');
    expect(errors).toEqual([]);
    await page.close();
  });

  it("the timeline lists frames with delays, marks the current one, and goes to a clicked frame whose pixels are render's", async () => {
    const server = await h.serve([SLIME]);
    const { page, errors } = await watchedPage(h.browser);
    await openViewerPage(page, server.url);
    await page.waitForSelector('body[data-ready="0"]');
    await chooseAnimation(page, 'walking (up)');
    const cells = await page.$$eval('#timeline button', (bs) => bs.map((b) => b.textContent));
    expect(cells).toEqual(['0 · 150ms', '1 · 150ms', '2 · 150ms', '3 · 150ms']);
    await page.click('#timeline button[data-frame="2"]');
    expect(await frameOf(page)).toBe(2);
    expect(await page.textContent('#timeline button.current')).toBe('2 · 150ms');
    expect(await page.textContent('#frameinfo')).toBe('frame 3 / 4 · 150 ms');
    const loaded = load(readFileSync(SLIME), 'slime.dat');
    const r = await render(loaded, { animation: 'walking', direction: '1', frame: '2' }, fsResourceLoader(path.dirname(SLIME)));
    const px = await canvasPixels(page);
    expect([px.width, px.height]).toEqual([r.frames[0]!.width, r.frames[0]!.height]);
    expect(Uint8Array.from(px.data)).toEqual(Uint8Array.from(r.frames[0]!.data));
    // Onion skin (off by default) draws the previous frame over it.
    await page.check('#onion');
    expect((await canvasPixels(page)).data).not.toEqual(px.data);
    await page.uncheck('#onion');
    expect((await canvasPixels(page)).data).toEqual(px.data);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the origin cross is an overlay the pipeline draws (Solarus --origin)', async () => {
    const server = await h.serve([SLIME]);
    const { page, errors } = await watchedPage(h.browser);
    await openViewerPage(page, server.url);
    await page.waitForSelector('body[data-ready="0"]');
    await chooseAnimation(page, 'walking (down)');
    await page.check('#opt-origin');
    await previewDone(page);
    expect(await page.$eval('#animation option:checked', (o) => o.textContent)).toBe('walking (down)');
    const loaded = load(readFileSync(SLIME), 'slime.dat');
    const r = await render(
      loaded,
      { animation: 'walking', direction: '3', frame: '0', origin: true },
      fsResourceLoader(path.dirname(SLIME)),
    );
    await page.click('#timeline button[data-frame="0"]');
    expect(Uint8Array.from((await canvasPixels(page)).data)).toEqual(Uint8Array.from(r.frames[0]!.data));
    expect(errors).toEqual([]);
    await page.close();
  });

  it('keyboard: space plays and pauses, arrows step, +/- zoom, 0 fits; wheel zooms, drag pans, background', async () => {
    const server = await h.serve([SLIME]);
    const { page, errors } = await watchedPage(h.browser);
    await openViewerPage(page, server.url);
    await page.waitForSelector('body[data-ready="0"]');
    await chooseAnimation(page, 'walking (left)');
    await page.focus('#stage');
    await page.keyboard.press(' ');
    expect(await page.textContent('#play')).toBe('Play');
    const f = await frameOf(page);
    await page.keyboard.press('ArrowRight');
    expect(await frameOf(page)).toBe((f + 1) % 4);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    expect(await frameOf(page)).toBe((f + 3) % 4);
    await page.keyboard.press(' ');
    expect(await page.textContent('#play')).toBe('Pause');
    await page.keyboard.press(' ');
    const zoom = async () => Number((await page.textContent('#zoominfo'))!.replace('x', ''));
    const width = async () => page.$eval('#canvas', (c) => (c as HTMLElement).style.width);
    await page.keyboard.press('0');
    const fitted = await zoom();
    expect(fitted).toBeGreaterThan(1);
    expect(fitted).toBeLessThanOrEqual(32);
    expect(await width()).toBe(`${16 * fitted}px`);
    await page.keyboard.press('-');
    expect(await zoom()).toBe(fitted - 1);
    await page.keyboard.press('+');
    await page.keyboard.press('+');
    expect(await zoom()).toBe(Math.min(32, fitted + 1));
    for (let i = 0; i < 40; i++) await page.keyboard.press('+');
    expect(await zoom()).toBe(32);
    const box = (await page.$('#stage'))!;
    const b = (await box.boundingBox())!;
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
    await page.mouse.wheel(0, 100);
    expect(await zoom()).toBe(31);
    const before = await page.$eval('#canvas', (c) => (c as HTMLElement).style.transform);
    await page.mouse.down();
    await page.mouse.move(b.x + b.width / 2 + 30, b.y + b.height / 2 + 10);
    await page.mouse.up();
    expect(await page.$eval('#canvas', (c) => (c as HTMLElement).style.transform)).not.toBe(before);
    expect(await page.$eval('#canvas', (c) => getComputedStyle(c).imageRendering)).toMatch(/pixelated|crisp-edges/);
    await page.selectOption('#background', 'dark');
    expect(await page.getAttribute('#stage', 'class')).toBe('dark');
    expect(errors).toEqual([]);
    await page.close();
  });

  it("overlays and layers come from the format's render options: ISPRITE shapes, CTHG layer classes", async () => {
    const server = await h.serve([HERO_ISPRITE, FAN]);
    const { page, errors } = await watchedPage(h.browser);
    await openViewerPage(page, server.url);
    await page.waitForSelector('body[data-ready="0"]');
    await page.click('#play');
    const plain = await canvasPixels(page);
    await page.check('#opt-shapes');
    await previewDone(page);
    const shapes = await canvasPixels(page);
    expect(shapes.data).not.toEqual(plain.data);
    expect(await page.textContent('#play')).toBe('Play');
    // Quick changes: the last one wins, whatever order the previews finish in.
    await page.evaluate(() => {
      const c = document.querySelector('#opt-shapes') as HTMLInputElement;
      for (const v of [false, true, false]) {
        c.checked = v;
        c.dispatchEvent(new Event('change'));
      }
    });
    await previewDone(page);
    expect(await page.getAttribute('body', 'data-render-options')).not.toContain('shapes');
    expect((await canvasPixels(page)).data).toEqual(plain.data);
    await page.check('#opt-shapes');
    await previewDone(page);
    await showFile(page, 1);
    const selects = await page.$$('#layers select');
    expect(selects.length).toBeGreaterThan(0);
    await page.click('#play');
    await page.click('#timeline button[data-frame="0"]');
    const withLayer = await canvasPixels(page);
    await page.selectOption('#layers select', '');
    await previewDone(page);
    await page.click('#timeline button[data-frame="0"]');
    const noLayer = await canvasPixels(page);
    expect(noLayer.data).not.toEqual(withLayer.data);
    // Recolour palettes: the PNG files beside the document, served for it.
    const palettes = await page.$$eval('#opt-recolour option', (os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(palettes).toEqual(['', 'fan_palette.png', 'fan_recolour.png', 'fan_sheet.png']);
    await page.selectOption('#opt-recolour', 'fan_palette.png');
    await previewDone(page);
    await page.click('#timeline button[data-frame="0"]');
    const recoloured = await canvasPixels(page);
    const loaded = load(readFileSync(FAN), 'fan.dat');
    const options = { animation: 'desk_fan', view: 'north', frame: '0', recolour: '1=fan_palette.png' };
    const r = await render(loaded, options, fsResourceLoader(path.dirname(FAN)));
    expect(Uint8Array.from(recoloured.data)).toEqual(Uint8Array.from(r.frames[0]!.data));
    expect(recoloured.data).not.toEqual(noLayer.data);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("exports the current frame as PNG and the animation as GIF and APNG, with the command line's encoders", async () => {
    const server = await h.serve([SLIME]);
    const { page, errors } = await watchedPage(h.browser);
    await openViewerPage(page, server.url);
    await page.waitForSelector('body[data-ready="0"]');
    await chooseAnimation(page, 'walking (down)');
    await page.click('#timeline button[data-frame="1"]');
    await page.check('#onion'); // the page's onion skin is not exported
    const loaded = load(readFileSync(SLIME), 'slime.dat');
    const resources = fsResourceLoader(path.dirname(SLIME));
    const saved = async (button: string) => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
      const file = path.join(tmp, download.suggestedFilename());
      await download.saveAs(file);
      return { name: download.suggestedFilename(), bytes: readFileSync(file) };
    };
    const png = await saved('#export-png');
    expect(png.name).toBe('slime-walking-down-1.png');
    const frame = (await render(loaded, { animation: 'walking', direction: '3', frame: '1' }, resources)).frames[0]!;
    expect(png.bytes).toEqual(Buffer.from(encodeRender({ frames: [frame] }, 'png')));
    const whole = await render(loaded, { animation: 'walking', direction: '3' }, resources);
    const gif = await saved('#export-gif');
    expect(gif.name).toBe('slime-walking-down.gif');
    expect(gif.bytes).toEqual(Buffer.from(encodeRender(whole, 'gif')));
    const apng = await saved('#export-apng');
    expect(apng.bytes).toEqual(Buffer.from(encodeRender(whole, 'apng')));
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a served folder is a searchable list; its documents load when chosen, with their references', async () => {
    const list = await listDocuments(SAMPLES);
    const names = list.files.map((f) => path.relative(SAMPLES, f).split(path.sep).join('/'));
    expect(names).toContain('solarus/sprites/slime.dat');
    const server = await h.serve(list.files, { names, lazy: true, note: 'a note with ünïcode' });
    const { page, errors } = await watchedPage(h.browser);
    await openViewerPage(page, server.url);
    expect(await page.textContent('#listnote')).toBe('a note with ünïcode');
    expect(await page.$$eval('#files button', (bs) => bs.length)).toBe(names.length);
    await page.fill('#filter', 'SLIME');
    const shown = await page.$$eval('#files button', (bs) => bs.map((b) => b.textContent));
    expect(shown).toEqual(names.filter((n) => n.includes('slime')));
    const i = names.indexOf('solarus/sprites/slime.dat');
    await showFile(page, i);
    expect(await page.textContent('#previewnote')).not.toMatch(/no preview/);
    expect((await canvasPixels(page)).width).toBe(16);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("for every sample and the corpus CTHG file, the canvas at frame 0 holds render's pixels; screenshots in test-results/", async () => {
    const manifest = JSON.parse(readFileSync(path.join(SAMPLES, 'demo.json'), 'utf8')) as { samples: { file: string }[] };
    const files = manifest.samples.map((s) => path.join(SAMPLES, s.file)).filter((f) => existsSync(f));
    const server = await h.serve(files);
    const { page, errors } = await watchedPage(h.browser);
    // Probes for files that may exist (HEAD, 404 when not) are logged by Chromium; every GET must succeed.
    const failedGets: string[] = [];
    page.on('response', (r) => {
      if (r.request().method() === 'GET' && r.status() !== 200) failedGets.push(`${r.status()} ${r.url()}`);
    });
    await openViewerPage(page, server.url);
    let compared = 0;
    for (let i = 0; i < files.length; i++) {
      await showFile(page, i);
      if (await page.isVisible('#framesizebox')) {
        await page.fill('#framesize', '16x16');
        await page.press('#framesize', 'Enter');
        await previewDone(page);
      }
      const json = await page.getAttribute('body', 'data-render-options');
      if (!json) continue; // no picture (a Hallgeir object names its sprite)
      if ((await page.textContent('#play')) === 'Pause') await page.click('#play');
      if (await page.$('#timeline button[data-frame="0"]')) await page.click('#timeline button[data-frame="0"]');
      const options = JSON.parse((await page.getAttribute('body', 'data-render-options'))!) as Record<string, string>;
      const loaded = load(readFileSync(files[i]!), path.basename(files[i]!));
      const r = await render(loaded, options, fsResourceLoader(path.dirname(files[i]!)));
      const px = await canvasPixels(page);
      expect([px.width, px.height], files[i]).toEqual([r.frames[0]!.width, r.frames[0]!.height]);
      // Exact, except that a canvas keeps colours premultiplied: a translucent pixel's colour may come back off by the rounding.
      const want = r.frames[0]!.data;
      const bad = canvasDiff(px.data, want);
      expect(
        bad,
        `${files[i]}: byte ${bad}: ${px.data.slice(bad - (bad % 4), bad - (bad % 4) + 4)} vs ${[...want.subarray(bad - (bad % 4), bad - (bad % 4) + 4)]}`,
      ).toBe(-1);
      await saveScreenshot(page, path.relative(SAMPLES, files[i]!));
      compared++;
    }
    expect(compared).toBeGreaterThanOrEqual(10);
    expect(failedGets).toEqual([]);
    expect(errors.filter((e) => !/Failed to load resource: .* 404/.test(e))).toEqual([]);
    await page.close();
  });

  it.skipIf(!existsSync(path.join(CORPUS, 'solarus/quest-editor-initial')))(
    'a real Solarus quest folder: every sprite listed, found by search, played from its sheet',
    async () => {
      const quest = path.join(CORPUS, 'solarus/quest-editor-initial');
      const list = await listDocuments(quest);
      const names = list.files.map((f) => path.relative(quest, f).split(path.sep).join('/'));
      expect(names.filter((n) => n.startsWith('data/sprites/')).length).toBe(55);
      const server = await h.serve(list.files, { names, lazy: true });
      const { page, errors } = await watchedPage(h.browser);
      const failedGets: string[] = [];
      page.on('response', (r) => {
        if (r.request().method() === 'GET' && r.status() !== 200) failedGets.push(`${r.status()} ${r.url()}`);
      });
      await openViewerPage(page, server.url);
      // A long list: nothing is opened before the user picks.
      expect(await page.isVisible('#doc')).toBe(false);
      expect(await page.textContent('#empty')).toBe(`${names.length} files: search the list and pick one.`);
      await page.fill('#filter', 'hero/tunic1');
      const shown = await page.$$eval('#files button', (bs) => bs.map((b) => [b.textContent, (b as HTMLElement).dataset.index]));
      expect(shown.map(([n]) => n)).toEqual(['data/sprites/hero/tunic1.dat']);
      await showFile(page, Number(shown[0]![1]));
      expect(await page.textContent('#previewnote')).toBe('');
      await chooseAnimation(page, 'walking (down)');
      await page.waitForFunction(() => document.body.dataset.frame !== '0');
      expect(await page.$$('#timeline button')).not.toHaveLength(0);
      expect((await canvasPixels(page)).width).toBeGreaterThan(1);
      await saveScreenshot(page, 'quest-editor-initial-hero-tunic1');
      expect(failedGets).toEqual([]);
      expect(errors.filter((e) => !/Failed to load resource: .* 404/.test(e))).toEqual([]);
      await page.close();
    },
  );

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 400, height: 800 },
  ]) {
    it(`fits ${viewport.width} px wide without overflow or console errors`, async () => {
      const server = await h.serve([SLIME, HERO_ISPRITE, FAN]);
      const { page, errors } = await watchedPage(h.browser, viewport);
      await openViewerPage(page, server.url);
      await page.waitForSelector('body[data-ready="0"]');
      for (let i = 0; i < 3; i++) {
        await showFile(page, i);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, String(i)).toBeLessThanOrEqual(0);
        expect(await page.isVisible('#stage')).toBe(true);
      }
      await saveScreenshot(page, `layout-${viewport.width}px`);
      expect(errors).toEqual([]);
      await page.close();
    });
  }
});
