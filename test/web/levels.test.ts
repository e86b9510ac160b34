/**
 * The viewer on levels and maps: layers listed with show/hide and
 * opacity, drawn through the pipeline with the options `sprat render`
 * takes (`--hide-layers`, `--layer-opacity`), the cell inspector (layer,
 * x, y, the cell's fields, objects), the grid of the cells the renderer
 * drew, and the page's choices kept across a page reload.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { load, render } from '../../src/api.js';
import type { CommandOptions } from '../../src/formats/types.js';
import { fsResourceLoader } from '../../src/node/fs.js';
import { SAMPLES } from '../helpers/paths.js';
import { canvasPixels, haveChromium, openViewerPage, showFile, startHarness, watchedPage, type Harness } from './harness.js';

const LEVEL = path.join(SAMPLES, 'spritetile/level.bytes');
const MAP = path.join(SAMPLES, 'interop/dungeon.tmj');
const HALLGEIR = path.join(SAMPLES, 'hallgeir/level1.map');
const SLIME = path.join(SAMPLES, 'solarus/sprites/slime.dat');

async function rendered(file: string, options: CommandOptions): Promise<number[]> {
  const r = await render(load(readFileSync(file), file), options, fsResourceLoader(path.dirname(file)));
  return [...r.frames[0]!.data];
}

/** Waits until the picture on screen was drawn with render options matching `test`. */
async function drawnWith(page: Page, test: string): Promise<void> {
  await page.waitForFunction((t) => new RegExp(t).test(document.body.dataset.renderOptions ?? ''), test);
}

/** Moves the pointer over picture pixel (x, y) of the canvas. */
async function hover(page: Page, x: number, y: number): Promise<string> {
  const box = (await page.locator('#canvas').boundingBox())!;
  const zoom = box.width / (await page.$eval('#canvas', (c) => (c as HTMLCanvasElement).width));
  await page.mouse.move(box.x + (x + 0.5) * zoom, box.y + (y + 0.5) * zoom);
  return (await page.textContent('#inspector')) ?? '';
}

describe.skipIf(!haveChromium)('viewer: levels and maps', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('lists the layers; hiding one or fading it draws what render draws with the same options', async () => {
    const server = await h.serve([LEVEL, MAP, HALLGEIR]);
    const { page, errors } = await watchedPage(h.browser);
    await openViewerPage(page, server.url);
    await page.waitForSelector('body[data-ready="0"]');
    const names = await page.$$eval('#levellayers label', (ls) => ls.map((l) => l.textContent?.trim()));
    expect(names).toEqual(['layer 0 (z 1)', 'layer 1 (z 0)']);
    // The grid is the renderer's: 16 px cells without a tileset.
    expect(await page.inputValue('#gridsize')).toBe('16');
    expect((await canvasPixels(page)).data).toEqual(await rendered(LEVEL, {}));
    await page.uncheck('#levellayers input[data-layer="0"]');
    await drawnWith(page, '"hide-layers":"0"');
    expect((await canvasPixels(page)).data).toEqual(await rendered(LEVEL, { 'hide-layers': '0' }));
    await page.check('#levellayers input[data-layer="0"]');
    await page.$eval('#levellayers input[data-layer-opacity="1"]', (r) => {
      (r as HTMLInputElement).value = '50';
      r.dispatchEvent(new Event('change'));
    });
    await drawnWith(page, '"layer-opacity":"1=0.5"');
    // Half-transparent pixels pass through the canvas's premultiplied alpha: within 1 or 2 of render's.
    const faded = (await canvasPixels(page)).data;
    const want = await rendered(LEVEL, { 'layer-opacity': '1=0.5' });
    expect(faded.length).toBe(want.length);
    expect(faded.reduce((m, v, i) => Math.max(m, Math.abs(v - want[i]!)), 0)).toBeLessThanOrEqual(2);
    expect(faded).not.toEqual(await rendered(LEVEL, {}));

    // Tiled: its tile layer and its object layer; the Hallgeir map: its objects.
    await showFile(page, 1);
    expect(await page.$$eval('#levellayers label', (ls) => ls.map((l) => l.textContent?.trim()))).toEqual(['Ground', 'Objects']);
    expect(await page.inputValue('#gridsize')).toBe('8');
    await showFile(page, 2);
    expect(await page.$$eval('#levellayers label', (ls) => ls.map((l) => l.textContent?.trim()))).toEqual(['objects']);
    await page.uncheck('#levellayers input[data-layer="0"]');
    await drawnWith(page, '"hide-layers":"0"');
    expect((await canvasPixels(page)).data.every((v) => v === 0)).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the inspector names the layer, cell and fields under the pointer, and objects; a click pins it', async () => {
    const server = await h.serve([LEVEL, MAP, HALLGEIR, SLIME]);
    const { page, errors } = await watchedPage(h.browser);
    await openViewerPage(page, server.url);
    await page.waitForSelector('body[data-ready="0"]');
    // SpriteTile: row 0 at the bottom; the cell (1, 1) is 16 px cells up from the bottom of a 128 px level.
    let text = await hover(page, 20, 128 - 20);
    expect(text).toMatch(/^pixel 20, 108$/m);
    expect(text).toMatch(
      /^layer 0 layer 0 \(z 1\): x 1, y 1: set 0, tile 1, rotation 0, flipX true, flipY false, collider true, order 0, trigger 0/m,
    );
    expect(text).toMatch(/^layer 1 layer 1 \(z 0\): x 1, y 1: /m);
    expect(await page.isVisible('#hovercell')).toBe(true);
    // A click pins it: moving elsewhere keeps it.
    const box = (await page.locator('#canvas').boundingBox())!;
    await page.mouse.click(box.x + 2, box.y + 2);
    const pinned = await page.textContent('#inspector');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    expect(await page.textContent('#inspector')).toBe(pinned);
    expect(await page.getAttribute('#inspector', 'class')).toBe('pinned');
    await page.mouse.click(box.x + 2, box.y + 2);
    expect(await page.getAttribute('#inspector', 'class')).toBe('');

    await showFile(page, 1);
    text = await hover(page, 12, 12);
    expect(text).toMatch(/^layer 0 Ground: x 1, y 1: set 0, tile 0, rotation 180$/m);
    await showFile(page, 2);
    text = await hover(page, 10, 20);
    expect(text).toMatch(/^layer 0 objects: object object "hero\.obj", x 8, y 16, sprite "hero\.spr"/m);
    // A sprite has no layers: no inspector.
    await showFile(page, 3);
    await hover(page, 2, 2);
    expect(await page.isHidden('#inspector')).toBe(true);
    expect(await page.isHidden('#levellayers')).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('keeps the file, animation, frame, zoom, toggles and layer choices across a page reload', async () => {
    const server = await h.serve([SLIME, LEVEL]);
    const { page, errors } = await watchedPage(h.browser);
    await openViewerPage(page, server.url);
    await page.waitForSelector('body[data-ready="0"]');
    await showFile(page, 1);
    await page.uncheck('#levellayers input[data-layer="1"]');
    await drawnWith(page, '"hide-layers":"1"');
    await page.click('#zoomin');
    const zoom = await page.textContent('#zoominfo');
    await page.check('#grid');
    await page.selectOption('#background', 'dark');
    await page.reload();
    await page.waitForSelector('body[data-ready="1"]');
    expect(await page.textContent('#title')).toBe('level.bytes');
    expect(await page.isChecked('#levellayers input[data-layer="1"]')).toBe(false);
    expect(await page.getAttribute('body', 'data-render-options')).toContain('"hide-layers":"1"');
    expect(await page.textContent('#zoominfo')).toBe(zoom);
    expect(await page.isChecked('#grid')).toBe(true);
    expect(await page.inputValue('#background')).toBe('dark');
    // A sprite: its animation and frame.
    await showFile(page, 0);
    const label = 'walking (down)';
    const value = await page.$eval(
      '#animation',
      (s, l) => [...(s as HTMLSelectElement).options].find((o) => o.textContent === l)?.value,
      label,
    );
    await page.selectOption('#animation', value!);
    await page.click('#timeline button[data-frame="2"]');
    await page.reload();
    await page.waitForSelector('body[data-ready="0"]');
    expect(await page.$eval('#animation', (s) => (s as HTMLSelectElement).selectedOptions[0]?.textContent)).toBe(label);
    expect(await page.getAttribute('body', 'data-frame')).toBe('2');
    expect(await page.textContent('#play')).toBe('Play');
    expect(errors).toEqual([]);
    await page.close();
  });
});
