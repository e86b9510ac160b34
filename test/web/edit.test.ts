/**
 * Editing in the viewer, in Chromium: on a temporary copy of a corpus quest
 * sprite, `sprat view --edit` lets the user change an animation's
 * frame_delay, plays the edited document at once (no file fetched again),
 * and saves it over the file: `sprat diff ORIGINAL SAVED` names exactly that
 * edit. Without --edit the page has no save in place: the edited file is a
 * download, and the file on disk stays as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { runCli } from '../helpers/cli.js';
import { CORPUS, SAMPLES } from '../helpers/paths.js';
import {
  canvasPixels,
  haveChromium,
  openViewerPage,
  previewDone,
  saveScreenshot,
  startHarness,
  watchedPage,
  type Harness,
} from './harness.js';

const QUEST = path.join(CORPUS, 'solarus/quest-editor-initial/data');
const SPRITE = 'sprites/enemies/slime_green.dat';

/** A quest folder holding a copy of the sprite and its sheet. */
function questCopy(root: string, name: string): string {
  const dir = path.join(root, name);
  fs.mkdirSync(path.join(dir, 'sprites/enemies'), { recursive: true });
  fs.copyFileSync(path.join(QUEST, 'quest.dat'), path.join(dir, 'quest.dat'));
  fs.copyFileSync(path.join(QUEST, SPRITE), path.join(dir, SPRITE));
  fs.copyFileSync(path.join(QUEST, 'sprites/enemies/slime_green.png'), path.join(dir, 'sprites/enemies/slime_green.png'));
  // The corpus is read-only; the copy is the user's own file.
  fs.chmodSync(path.join(dir, SPRITE), 0o644);
  return path.join(dir, SPRITE);
}

/** Sets the shown animation's frame_delay in the page to `ms`; waits until the edited picture is on screen. */
async function setFrameDelay(page: Page, ms: number): Promise<{ old: number; requests: string[] }> {
  const input = page.locator('#editfields input[data-key$=" frameDelay"]');
  await input.waitFor();
  const old = Number(await input.inputValue());
  const requests: string[] = [];
  const record = (r: { url(): string }) => requests.push(r.url());
  page.on('request', record);
  await input.fill(String(ms));
  await input.press('Enter');
  await page.waitForSelector('body[data-edits="1"]', { state: 'attached' });
  await previewDone(page);
  page.off('request', record);
  return { old, requests };
}

describe.skipIf(!haveChromium || !fs.existsSync(QUEST))('editing in the viewer', () => {
  let h: Harness;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-edit-web-'));

  beforeAll(async () => {
    h = await startHarness();
  }, 60_000);

  afterAll(async () => {
    await h?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('under --edit: a frame_delay changed plays at once and is saved in place; sprat diff names exactly it', async () => {
    const file = questCopy(tmp, 'edit');
    const original = path.join(tmp, 'original.dat');
    fs.copyFileSync(file, original);
    const server = await h.serve([file], { edit: true });
    const { page, errors } = await watchedPage(h.browser);
    await openViewerPage(page, server.url);
    await page.waitForSelector('body[data-ready="0"]');
    expect(await page.getAttribute('#save', 'data-mode')).toBe('file');
    const { old, requests } = await setFrameDelay(page, 123);
    expect(old).not.toBe(123);
    // Played from the edited document: the frame's delay is the new one, and no file was asked for again.
    expect(await page.textContent('#frameinfo')).toMatch(/· 123 ms/);
    expect(requests.filter((u) => /\/files\/0(\/|$)/.test(u) && !/\/version$/.test(u))).toEqual([]);
    expect(await page.textContent('#summary')).toMatch(/123 ms\/frame/);
    // Nothing is written before save.
    expect(fs.readFileSync(file)).toEqual(fs.readFileSync(original));
    await saveScreenshot(page, 'edit-frame-delay');
    await page.click('#save');
    await page.waitForSelector('body[data-saved]', { state: 'attached' });
    expect(await page.getAttribute('body', 'data-saved'), (await page.textContent('#editnote'))!).toBe('file slime_green.dat');
    expect(await page.getAttribute('body', 'data-edits')).toBe('0');
    const diff = await runCli(['diff', original, file]);
    expect(diff.code, diff.stderr).toBe(0);
    const anim = JSON.parse((await page.getAttribute('body', 'data-render-options'))!).animation as string;
    expect(diff.stdout).toBe(`animation ${anim}: frameDelay ${old} -> 123\n`);
    expect((await runCli(['check', path.dirname(path.dirname(path.dirname(file)))])).code).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('under --edit: a bad value is refused in one line and nothing changes', async () => {
    const file = questCopy(tmp, 'bad');
    const before = fs.readFileSync(file);
    const server = await h.serve([file], { edit: true });
    const { page } = await watchedPage(h.browser);
    await openViewerPage(page, server.url);
    await page.waitForSelector('body[data-ready="0"]');
    const input = page.locator('#editfields input[data-key$=" frameDelay"]');
    await input.fill('-5');
    await input.press('Enter');
    await page.waitForSelector('body[data-edit-error]', { state: 'attached' });
    expect(await page.textContent('#editnote')).toMatch(
      /^animation "[^"]+" frame_delay -5 cannot be set: it must be a whole number from 0 to 2147483647$/,
    );
    expect(await page.getAttribute('body', 'data-edits')).toBe('0');
    expect(await page.isDisabled('#save')).toBe(true);
    expect(fs.readFileSync(file)).toEqual(before);
    await page.close();
  });

  it('without --edit: no save in place; the edited file is downloaded and the file on disk stays', async () => {
    const file = questCopy(tmp, 'plain');
    const before = fs.readFileSync(file);
    const server = await h.serve([file]);
    const { page, errors } = await watchedPage(h.browser);
    await openViewerPage(page, server.url);
    await page.waitForSelector('body[data-ready="0"]');
    expect(await page.getAttribute('#save', 'data-mode')).toBe('download');
    const { old } = await setFrameDelay(page, 77);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#save')]);
    expect(download.suggestedFilename()).toBe('slime_green.dat');
    const got = path.join(tmp, 'downloaded.dat');
    fs.copyFileSync((await download.path())!, got);
    expect(await page.getAttribute('body', 'data-saved')).toBe('download slime_green.dat');
    expect(fs.readFileSync(file)).toEqual(before);
    const diff = await runCli(['diff', file, got]);
    const anim = JSON.parse((await page.getAttribute('body', 'data-render-options'))!).animation as string;
    expect(diff.stdout).toBe(`animation ${anim}: frameDelay ${old} -> 77\n`);
    // And the server takes no write.
    const status = await page.evaluate(async () => (await fetch('files/0', { method: 'PUT', body: 'x' })).status);
    expect(status).toBe(405);
    expect(fs.readFileSync(file)).toEqual(before);
    expect(errors.filter((e) => !/405/.test(e))).toEqual([]);
    await page.close();
  });

  it('ISPRITE hold time and CTHG element offset: the edited picture plays at once', async () => {
    const server = await h.serve([path.join(SAMPLES, 'isprite/hero.isprite'), path.join(SAMPLES, 'cthg/fan.dat')]);
    const { page, errors } = await watchedPage(h.browser);
    await openViewerPage(page, server.url);
    const pause = () =>
      page.evaluate(() => {
        const play = document.getElementById('play')!;
        if (play.textContent === 'Pause') play.click();
        document.querySelector<HTMLButtonElement>('#timeline button[data-frame="0"]')?.click();
      });
    await page.waitForSelector('body[data-ready="0"]');
    await pause();
    const hold = page.locator('#editfields input[data-key$=" holdTime"]');
    const before = (await page.textContent('#frameinfo'))!;
    await hold.fill(String(Number(await hold.inputValue()) + 5));
    await hold.press('Enter');
    await page.waitForSelector('body[data-edits="1"]', { state: 'attached' });
    await previewDone(page);
    await pause();
    const after = (await page.textContent('#frameinfo'))!;
    const ms = (t: string) => Number(/· ([\d.]+) ms/.exec(t)![1]);
    expect(ms(after)).toBeGreaterThan(ms(before));

    await page.click('#files button[data-index="1"]');
    await page.waitForSelector('body[data-ready="1"]');
    await pause();
    const x = page.locator('#editfields input[data-key$=" element 0 offset"][data-part="0"]');
    const pixels = await canvasPixels(page);
    await x.fill(String(Number(await x.inputValue()) + 7));
    await x.press('Enter');
    await page.waitForSelector('body[data-edits="1"]', { state: 'attached' });
    await previewDone(page);
    await pause();
    expect(await canvasPixels(page)).not.toEqual(pixels);
    expect(errors).toEqual([]);
    await page.close();
  });
});
