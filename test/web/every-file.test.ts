/**
 * End to end, in Chromium: every sample and every corpus file,
 * opened in the viewer as `sprat view samples` and `sprat view CORPUS` serve
 * them (a folder's searchable list), reads without an error and shows its
 * picture or says why it has none; where it has one, the canvas at frame 0
 * holds exactly the pixels the library's `render` (the call `sprat render`
 * makes) draws with the options the page shows, in this process. One page
 * for all; a screenshot of the first file of each format in each folder
 * under test-results/viewer/.
 *
 * Every sample always. The corpus's 489 files only with SPRAT_E2E_ALL=1;
 * by default a spread of each format and folder (every CTHG file, every 4th
 * level, every 8th quest-editor file, every 60th zsdx sprite). Measured on
 * the shared 2-core machine (load 20): the 12 samples took 27 s, the spread
 * (21 corpus files) 109 s, 5.2 s a file, and the whole corpus did not finish
 * in 600 s (at that rate about 42 minutes), far over the ~3 minutes this test
 * may take in CI. What it costs is the page's and the server's work per file (each
 * draws every animation of the file when it is opened: the server to find
 * its references, the page to play it), not the comparison, which is frame
 * 0 only, read from the canvas as base64 and drawn again in-process. The
 * test prints its time per file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { load, render } from '../../src/api.js';
import { sharingImages } from '../../src/formats/resources.js';
import type { ResourceLoader } from '../../src/formats/types.js';
import { fsResourceLoader } from '../../src/node/fs.js';
import { listDocuments } from '../../src/node/server.js';
import { CORPUS, SAMPLES } from '../helpers/paths.js';
import { canvasDiff, canvasPixels, haveChromium, saveScreenshot, startHarness, watchedPage, type Harness } from './harness.js';

/** The frame size a Hallgeir sprite does not store, typed in the page as a user would. */
const FRAME_SIZE: Record<string, string> = {
  'hallgeir/hero.spr': '16x16',
  'hallgeir/coin.spr': '8x8',
  'hallgeir/hero.obj': '16x16',
  'hallgeir/coin.obj': '8x8',
};

/** Without SPRAT_E2E_ALL=1: every Nth corpus file of each folder (the first of each, then every Nth). */
const EVERY: [RegExp, number][] = [
  [/^cthg\//, 1],
  [/^spritetile\//, 4],
  [/^solarus\/quest-editor-initial\//, 8],
  [/^solarus\/zsdx\//, 60],
];
const ALL = process.env.SPRAT_E2E_ALL === '1';

interface Outcome {
  /** The format the page read it as, or undefined when it could not. */
  format?: string;
  /** Compared with render at frame 0. */
  compared: boolean;
}

const loaders = new Map<string, ResourceLoader>();
/** The command line's loader for a folder (its images decoded once for all its files). */
function loaderFor(dir: string): ResourceLoader {
  let l = loaders.get(dir);
  if (!l) loaders.set(dir, (l = sharingImages(fsResourceLoader(dir, { cwd: dir }))));
  return l;
}

/**
 * Shows file `i` (`name`, on disk `file`) and, when it has a picture,
 * compares the canvas at frame 0 with render's; a screenshot for the first
 * of each format and folder (`shot`).
 */
async function check(page: Page, i: number, name: string, file: string, shot: Set<string>): Promise<Outcome> {
  await page.$eval(`#files button[data-index="${i}"]`, (b) => (b as HTMLButtonElement).click());
  await page.waitForSelector(`body[data-ready="${i}"]`, { timeout: 60_000 });
  const formatText = (await page.textContent('#format')) ?? '';
  const format = /\((\S+)\), \d+ bytes$/.exec(formatText)?.[1];
  if (!format) {
    expect(formatText, name).toMatch(/^cannot read: .+/);
    return { compared: false };
  }
  const size = FRAME_SIZE[name];
  if (size) {
    await page.fill('#framesize', size);
    await page.press('#framesize', 'Enter');
    await page.waitForFunction((s) => document.body.dataset.renderOptions?.includes(`"frame-size":"${s}"`) === true, size, {
      timeout: 20_000,
    });
  }
  // Paused at frame 0, in one step: the options drawn with, and whether there is a timeline.
  const shown = await page.evaluate(() => {
    const play = document.getElementById('play')!;
    if (play.textContent === 'Pause') play.click();
    const first = document.querySelector<HTMLButtonElement>('#timeline button[data-frame="0"]');
    first?.click();
    return {
      options: document.body.dataset.renderOptions,
      animated: first !== null,
      note: document.getElementById('previewnote')!.textContent,
    };
  });
  if (!shown.options) {
    // No picture: the page says why (zsdx sprites without their sheets).
    expect(shown.note, name).toMatch(/^no preview: /);
    return { format, compared: false };
  }
  const options = JSON.parse(shown.options) as Record<string, string>;
  const loaded = load(fs.readFileSync(file), path.basename(file));
  const r = await render(loaded, shown.animated ? { ...options, frame: '0' } : options, loaderFor(path.dirname(file)));
  const want = r.frames[0]!;
  const px = await canvasPixels(page);
  expect([px.width, px.height], name).toEqual([want.width, want.height]);
  const bad = canvasDiff(px.data, want.data);
  expect(bad, `${name} ${JSON.stringify(options)}: byte ${bad}`).toBe(-1);
  const key = `${format} ${path.dirname(name)}`;
  if (!shot.has(key)) {
    shot.add(key);
    await saveScreenshot(page, `every-${name}`);
  }
  return { format, compared: true };
}

describe.skipIf(!haveChromium)('every sample and corpus file in the viewer: render’s pixels at frame 0', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('every sample (the level with its tiles from the command line)', async () => {
    const list = await listDocuments(SAMPLES);
    const names = list.files.map((f) => path.relative(SAMPLES, f).split(path.sep).join('/'));
    expect(names.length).toBeGreaterThanOrEqual(12);
    const server = await h.serve(list.files, {
      names,
      lazy: true,
      given: { options: { tileset: '0=spritetile/tiles.png:16x16' }, cwd: SAMPLES },
    });
    const { page, errors } = await watchedPage(h.browser);
    await page.goto(server.url);
    await page.waitForSelector('body[data-loaded="true"]', { timeout: 20_000 });
    const shot = new Set<string>();
    const compared: string[] = [];
    for (let i = 0; i < names.length; i++) if ((await check(page, i, names[i]!, list.files[i]!, shot)).compared) compared.push(names[i]!);
    // Everything but a Hallgeir object, which names its sprite and has no picture of its own... unless it does: all that draw.
    expect(compared).toEqual(
      expect.arrayContaining(['cthg/fan.dat', 'isprite/hero.isprite', 'spritetile/level.bytes', 'hallgeir/hero.spr']),
    );
    expect(compared.length).toBeGreaterThanOrEqual(10);
    expect(errors).toEqual([]);
    await page.close();
  }, 300_000);

  it.skipIf(!fs.existsSync(CORPUS))(
    ALL ? 'every corpus file' : 'a spread of the corpus files (all with SPRAT_E2E_ALL=1)',
    async () => {
      const listed = await listDocuments(CORPUS);
      expect(listed.files.length).toBeGreaterThan(400);
      const seen = new Map<RegExp, number>();
      // corpus/interop (Aseprite and TexturePacker files) has viewer tests of its own (test/web/ase.test.ts).
      const files = listed.files.filter((f) => {
        if (path.relative(CORPUS, f).split(path.sep)[0] === 'interop') return false;
        if (ALL) return true;
        const rule = EVERY.find(([re]) => re.test(path.relative(CORPUS, f).split(path.sep).join('/')));
        if (!rule) return true;
        const k = seen.get(rule[0]) ?? 0;
        seen.set(rule[0], k + 1);
        return k % rule[1] === 0;
      });
      const list = { files };
      const names = list.files.map((f) => path.relative(CORPUS, f).split(path.sep).join('/'));
      const server = await h.serve(list.files, { names, lazy: true });
      const { page, errors } = await watchedPage(h.browser);
      await page.goto(server.url);
      await page.waitForSelector('body[data-loaded="true"]', { timeout: 20_000 });
      const shot = new Set<string>();
      const read = new Set<string>();
      const compared = new Map<string, number>();
      const unreadable: string[] = [];
      const started = Date.now();
      for (let i = 0; i < names.length; i++) {
        const o = await check(page, i, names[i]!, list.files[i]!, shot);
        if (!o.format) unreadable.push(names[i]!);
        else read.add(o.format);
        if (o.compared) compared.set(o.format!, (compared.get(o.format!) ?? 0) + 1);
      }
      const took = (Date.now() - started) / 1000;
      console.log(
        `corpus files in the viewer: ${names.length} of ${listed.files.length} in ${Math.round(took)} s (${(took / names.length).toFixed(2)} s a file)`,
      );
      // zsdx's line-syntax sprites come without their sheets: read, never drawn.
      expect([...read].sort()).toEqual(['cthg', 'solarus', 'solarus-lua', 'spritetile']);
      expect(Object.fromEntries(compared)).toEqual({
        cthg: 2,
        spritetile: ALL ? 16 : 4,
        'solarus-lua': expect.any(Number),
      });
      expect(compared.get('solarus-lua')).toBeGreaterThanOrEqual(ALL ? 40 : 4);
      // The corpus's tilesets and quest files are Solarus data, not sprites: listed by the folder walk, refused with a reason.
      expect(
        unreadable.every((u) => /quest-editor-initial\/data\/(quest\.dat|tilesets\/|maps\/)|\.txt$/.test(u)),
        unreadable.join(', '),
      ).toBe(true);
      expect(errors.filter((e) => !/Failed to load resource: .* 404/.test(e))).toEqual([]);
      await page.close();
    },
    600_000,
  );
});
