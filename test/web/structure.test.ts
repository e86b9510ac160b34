/**
 * The viewer's ISPRITE runtime and structure views: follow-ups
 * and triggers played by the rules `sprat play` runs, in a log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { byteRanges, linePositions, load, play, render, validate } from '../../src/api.js';
import { jsonLinePositions } from '../../src/interop/json.js';
import { fsResourceLoader } from '../../src/node/fs.js';
import { CORPUS, SAMPLES } from '../helpers/paths.js';
import { haveSource, SOURCES } from '../helpers/real.js';
import { canvasDiff, canvasPixels, haveChromium, openViewerPage, startHarness, watchedPage, type Harness } from './harness.js';

const HERO = path.join(SAMPLES, 'isprite/hero.isprite');
const FAN = path.join(SAMPLES, 'cthg/fan.dat');
const LEVEL = path.join(SAMPLES, 'spritetile/level.bytes');
const SLIME = path.join(SAMPLES, 'solarus/sprites/slime.dat');
const SLIME_LUA = path.join(SAMPLES, 'solarus/sprites/slime_lua.dat');
const ANIMS = path.join(CORPUS, 'cthg/encoder-test/anims.txt');
const ASEPRITE = path.join(SAMPLES, 'interop/hero.json');

const linesOf = (file: string) => {
  const bytes = new Uint8Array(readFileSync(file));
  return linePositions(load(bytes, file), bytes);
};

describe("line positions of text formats (the field tree's lines)", () => {
  it('Solarus: each animation, its fields and directions, in both syntaxes', () => {
    const lines = linesOf(SLIME);
    // "walking" is the header on line 7; its directions are lines 8-11.
    expect(lines['/animations/1']).toEqual({ line: 7, column: 1 });
    expect(lines['/animations/1/frameDelay']).toEqual({ line: 7, column: 29 });
    expect(lines['/animations/1/directions/2']).toEqual({ line: 10, column: 1 });
    const lua = linesOf(SLIME_LUA);
    // "stopped" opens with `animation{` on line 1, its name on line 2, its directions on lines 5-8.
    expect(lua['/animations/0']).toEqual({ line: 1, column: 10 });
    expect(lua['/animations/0/name']).toEqual({ line: 2, column: 10 });
    expect(lua['/animations/0/directions/1']).toEqual({ line: 6, column: 5 });
    // A field the file leaves out (its frame_delay) is not placed.
    expect(lua['/animations/0/frameDelay']).toBeUndefined();
  });

  it('cthg-script: animations, frames, elements and their fields', () => {
    const lines = linesOf(ANIMS);
    expect(lines['/animations/0']).toEqual({ line: 2, column: 1 });
    expect(lines['/animations/0/frames/1']).toEqual({ line: 11, column: 5 });
    expect(lines['/animations/0/frames/0/elements/1']!.line).toBe(8);
    expect(lines['/animations/0/frames/0/elements/1/xOffset']!.line).toBe(8);
    // Binary formats say nothing here.
    expect(linesOf(HERO)).toEqual({});
  });

  it('Aseprite JSON (as TexturePacker JSON) and Tiled maps: every value of the file, by its pointer; bounded for hostile nesting', () => {
    const lines = linesOf(ASEPRITE);
    expect(lines['/frames/hero 1.aseprite']).toEqual({ line: 10, column: 23 });
    expect(lines['/frames/hero 1.aseprite/duration']).toEqual({ line: 16, column: 17 });
    const deep = new TextEncoder().encode(`{"a~/b": ${'['.repeat(100_000)}${']'.repeat(100_000)}, "z": 1}`);
    const p = jsonLinePositions(deep);
    expect(p['/a~0~1b']).toEqual({ line: 1, column: 10 });
    expect(p['/z']).toEqual({ line: 1, column: 200_017 });
    // Tiled: a JSON map's values; a TMX map's elements (the JSON shape's pointers).
    const tmj = linesOf(path.join(SAMPLES, 'interop/dungeon.tmj'));
    expect(tmj['/layers/0']).toEqual({ line: 5, column: 9 });
    // Tiled's example as Debian's tiled installs it (test/fixtures/REAL-FILES.md).
    const island = path.join(SOURCES.tiled.dir, 'rpg/island.tmx');
    if (haveSource(SOURCES.tiled)) {
      const tmx = linesOf(island);
      expect(tmx['/tilesets/0']).toEqual({ line: 3, column: 2 });
      expect(tmx['/layers/1']).toEqual({ line: 9, column: 2 });
      expect(tmx['/layers/1/data']).toEqual({ line: 10, column: 3 });
    }
    // The root, "a~/b", 63 levels below it (64 in all; deeper ones are skipped), "z".
    expect(Object.keys(p).length).toBe(1 + 64 + 1);
  });
});

async function chooseAnimation(page: Page, label: string): Promise<void> {
  const value = await page.$eval(
    '#animation',
    (s, l) => [...(s as HTMLSelectElement).options].find((o) => o.textContent === l)?.value,
    label,
  );
  expect(value, label).toBeDefined();
  await page.selectOption('#animation', value!);
}

const logOf = (page: Page) => page.$$eval('#playlog li', (ls) => ls.map((l) => l.textContent ?? ''));

describe.skipIf(!haveChromium)('viewer: ISPRITE runtime and structure', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('plays follow-ups and logs triggers as sprat play runs them', async () => {
    const server = await h.serve([HERO, SLIME]);
    const { page, errors } = await watchedPage(h.browser);
    await openViewerPage(page, server.url);
    await page.waitForSelector('body[data-ready="0"]');
    expect(await page.isVisible('#followups')).toBe(true);
    await chooseAnimation(page, 'Root/Armed/attack');
    await page.check('#followups');
    // attack (15 fps, 6 ticks) then its follow-up, idle: the log says so, as `sprat play` does.
    await page.waitForFunction(() => document.querySelector('#animation option:checked')?.textContent === 'Root/Armed/idle');
    const records = play(load(readFileSync(HERO), HERO), { ticks: '8', script: '0:group Root/Armed;0:play attack' }).records as {
      tick: number;
      sequence: string;
      triggers: string[];
    }[];
    const swing = records.find((r) => r.triggers.length)!;
    const follow = records.find((r) => r.sequence === 'Root/Armed/idle')!;
    expect((await logOf(page)).slice(0, 3)).toEqual([
      'tick 0: plays Root/Armed/attack',
      `tick ${swing.tick}: trigger "swing" (Root/Armed/attack position 1, frame 7)`,
      `tick ${follow.tick}: follow-up: Root/Armed/idle`,
    ]);
    // Paused, the arrows step through what the rules show, tick by tick.
    await page.click('#play');
    expect(await page.textContent('#play')).toBe('Play');
    await chooseAnimation(page, 'Root/Armed/attack');
    // A frame of the timeline: the first tick the rules show it.
    await page.click('#timeline button[data-frame="0"]');
    expect(await page.textContent('#play')).toBe('Play');
    expect(await page.getAttribute('body', 'data-tick')).toBe('0');
    await page.locator('#stage').focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.getAttribute('body', 'data-tick')).toBe(String(swing.tick));
    expect(await page.getAttribute('body', 'data-frame')).toBe('1');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(await page.getAttribute('body', 'data-tick')).toBe(String(follow.tick));
    expect(await page.$eval('#animation', (s) => (s as HTMLSelectElement).selectedOptions[0]?.textContent)).toBe('Root/Armed/idle');
    expect(await page.textContent('#frameinfo')).toMatch(/tick 6$/);
    // Off: the sequence's own frames again, no log; other formats have no such box.
    await page.uncheck('#followups');
    expect(await logOf(page)).toEqual([]);
    await page.click('#files button[data-index="1"]');
    await page.waitForSelector('body[data-ready="1"]');
    expect(await page.isHidden('#followupsbox')).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the field tree: the inspect JSON with byte ranges; a frame node goes to its frame, a layer node marks the layer', async () => {
    const server = await h.serve([HERO, FAN, LEVEL]);
    const { page, errors } = await watchedPage(h.browser);
    await openViewerPage(page, server.url);
    await page.waitForSelector('body[data-ready="0"]');
    const bytes = new Uint8Array(readFileSync(HERO));
    const ranges = byteRanges(load(bytes, HERO), bytes);
    // Top level: every key of the JSON, chunks with their bytes.
    const top = await page.$$eval('#tree > details > :is(details, .leaf)', (ns) => ns.map((n) => (n as HTMLElement).dataset.path));
    expect(top).toContain('/frames');
    expect(top).toContain('/meta');
    const frames = page.locator('#tree details[data-path="/frames"] > summary');
    const [s, e] = ranges['/frames']!;
    expect(await frames.textContent()).toBe(`frames: [11] @ bytes ${s}–${e - 1} (0x${s.toString(16)}, ${e - s} bytes)`);
    // Frame 7 is position 1 of Root/Armed/attack.
    await frames.click();
    await page.click('#tree details[data-path="/frames/7"] > summary');
    expect(await page.getAttribute('body', 'data-selected-path')).toBe('/frames/7');
    expect(await page.$eval('#animation', (x) => (x as HTMLSelectElement).selectedOptions[0]?.textContent)).toBe('Root/Armed/attack');
    expect(await page.getAttribute('body', 'data-frame')).toBe('1');
    const [f0] = ranges['/frames/7']!;
    expect(await page.textContent('#fieldinfo')).toMatch(new RegExp(`^/frames/7 @ bytes ${f0}–`));
    // A leaf: its value.
    await page.click('#tree details[data-path="/frames/7"] .leaf[data-path="/frames/7/holdTime"]');
    expect(await page.textContent('#fieldinfo')).toMatch(/^\/frames\/7\/holdTime = \d+$/);

    // CTHG: frame 5 is the east view's second frame; its elements have 12-byte ranges.
    await page.click('#files button[data-index="1"]');
    await page.waitForSelector('body[data-ready="1"]');
    await page.click('#tree details[data-path="/frames"] > summary');
    await page.click('#tree details[data-path="/frames/5"] > summary');
    expect(await page.getAttribute('body', 'data-render-options')).toContain('"view":"east"');
    expect(await page.getAttribute('body', 'data-frame')).toBe('1');
    expect(await page.textContent('#fieldinfo')).toMatch(/: 46 52 /); // "FR"
    await page.click('#tree details[data-path="/frames/5/elements"] > summary');
    expect(await page.textContent('#tree details[data-path="/frames/5/elements/0"] > summary')).toMatch(/, 12 bytes\)$/);

    // A level: a layer node marks the layer in the layer list.
    await page.click('#files button[data-index="2"]');
    await page.waitForSelector('body[data-ready="2"]');
    await page.click('#tree details[data-path="/layers"] > summary');
    await page.click('#tree details[data-path="/layers/1"] > summary');
    expect(await page.$$eval('#levellayers label.selected', (ls) => ls.map((l) => l.textContent?.trim()))).toEqual(['layer 1 (z 0)']);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('text formats show lines in the tree; errors and warnings open the tree at their place', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sprat-structure-'));
    try {
      // A Solarus sheet with an extra token on line 10 ("walking", direction 2): a warning at that line.
      const slime = path.join(dir, 'slime.dat');
      const text = readFileSync(SLIME, 'utf8').split('\n');
      text[9] += '\t7';
      writeFileSync(slime, text.join('\n'));
      mkdirSync(path.join(dir, 'enemies'));
      copyFileSync(path.join(SAMPLES, 'solarus/sprites/enemies/slime.png'), path.join(dir, 'enemies/slime.png'));
      // An ISPRITE sprite whose frame 7 holds for 0 ticks: a warning at the frame's byte offset.
      const hero = path.join(dir, 'hero.isprite');
      const bytes = new Uint8Array(readFileSync(HERO));
      const [f7] = byteRanges(load(bytes, HERO), bytes)['/frames/7']!;
      bytes[f7 + 7] = bytes[f7 + 8] = 0; // marker u8, size u32, element count u16, then the hold time u16
      writeFileSync(hero, bytes);
      copyFileSync(path.join(SAMPLES, 'isprite/hero.png'), path.join(dir, 'hero.png'));
      const hold = validate(bytes, hero).diagnostics.find((d) => /hold time 0/.test(d.message));
      expect(hold?.offset).toBe(f7);

      // Cut inside frame 7: an error at a byte offset, but no tree to open.
      const cut = path.join(dir, 'cut.isprite');
      writeFileSync(cut, bytes.subarray(0, f7 + 3));
      const server = await h.serve([slime, hero, ANIMS, cut, ASEPRITE]);
      const { page, errors } = await watchedPage(h.browser, { width: 1280, height: 500 });
      await openViewerPage(page, server.url);
      await page.waitForSelector('body[data-ready="0"]');
      await page.click('#tree details[data-path="/animations"] > summary');
      expect(await page.textContent('#tree details[data-path="/animations/1"] > summary')).toBe('1: {5} @ line 7, column 1');
      const warning = page.locator('#diagnostics li.warning.jump', { hasText: 'extra tokens' });
      expect(await warning.textContent()).toMatch(/line 10, column \d+/);
      // Closed again: the jump opens every node on the way.
      await page.click('#tree details[data-path="/animations"] > summary');
      await warning.click();
      expect(await page.getAttribute('body', 'data-selected-path')).toBe('/animations/1/directions/2');
      expect(await page.textContent('#fieldinfo')).toBe('/animations/1/directions/2 @ line 10, column 1');
      await expect.poll(() => page.locator('#tree details[data-path="/animations/1/directions/2"] > summary').isVisible()).toBe(true);
      const inView = () =>
        page.$eval('#tree details[data-path="/animations/1/directions/2"] > summary', (el) => {
          const t = document.getElementById('tree')!.getBoundingClientRect();
          const r = el.getBoundingClientRect();
          return r.top >= t.top && r.bottom <= t.bottom;
        });
      expect(await inView()).toBe(true);
      // Without a place (valid): nothing to click.
      expect(await page.locator('#diagnostics li.jump').count()).toBe(1);

      // A byte offset: the smallest range holding it, here frame 7, which goes to its frame.
      await page.click('#files button[data-index="1"]');
      await page.waitForSelector('body[data-ready="1"]');
      await page.locator('#diagnostics li.warning.jump', { hasText: 'hold time 0' }).click();
      expect(await page.getAttribute('body', 'data-selected-path')).toBe('/frames/7');
      expect(await page.$eval('#animation', (x) => (x as HTMLSelectElement).selectedOptions[0]?.textContent)).toBe('Root/Armed/attack');
      expect(await page.getAttribute('body', 'data-frame')).toBe('1');

      // cthg-script: lines of animations, frames and elements.
      await page.click('#files button[data-index="2"]');
      await page.waitForSelector('body[data-ready="2"]');
      await page.click('#tree details[data-path="/animations"] > summary');
      expect(await page.textContent('#tree details[data-path="/animations/0"] > summary')).toMatch(/@ line 2, column 1$/);
      await page.click('#tree details[data-path="/animations/0"] > summary');
      await page.click('#tree details[data-path="/animations/0/frames"] > summary');
      expect(await page.textContent('#tree details[data-path="/animations/0/frames/1"] > summary')).toMatch(/@ line 11, column 5$/);
      await page.click('#files button[data-index="3"]');
      await page.waitForSelector('body[data-ready="3"]');
      expect(await page.textContent('#diagnostics li.error')).toMatch(/at byte \d+/);
      expect(await page.locator('#diagnostics li.jump').count()).toBe(0);
      // Aseprite JSON: each value's line in the file.
      await page.click('#files button[data-index="4"]');
      await page.waitForSelector('body[data-ready="4"]');
      await page.click('#tree details[data-path="/frames"] > summary');
      expect(await page.textContent('#tree details[data-path="/frames/hero 1.aseprite"] > summary')).toMatch(/@ line 10, column 23$/);
      expect(errors).toEqual([]);
      await page.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('attaches another open sprite at the attachment points, drawn as render --attach draws it', async () => {
    const server = await h.serve([HERO, SLIME]);
    const { page, errors } = await watchedPage(h.browser);
    await openViewerPage(page, server.url);
    await page.waitForSelector('body[data-ready="0"]');
    expect(await page.$$eval('#opt-attach option', (os) => os.map((o) => o.textContent))).toEqual(['nothing', 'hero.isprite']);
    expect(await page.$$eval('#opt-attach-point option', (os) => os.map((o) => o.textContent))).toContain('hand');
    await chooseAnimation(page, 'Root/Armed/attack');
    await page.selectOption('#opt-attach-point', 'hand');
    await page.selectOption('#opt-attach', '0');
    await page.waitForFunction(() => document.body.dataset.renderOptions?.includes('"attach":"hand=hero.isprite"'));
    await page.click('#timeline button[data-frame="1"]');
    const loaded = load(readFileSync(HERO), HERO);
    const r = await render(loaded, { animation: 'Root/Armed/attack', attach: 'hand=hero.isprite' }, fsResourceLoader(path.dirname(HERO)));
    const plain = await render(loaded, { animation: 'Root/Armed/attack' }, fsResourceLoader(path.dirname(HERO)));
    const px = await canvasPixels(page);
    expect([px.width, px.height]).toEqual([r.frames[1]!.width, r.frames[1]!.height]);
    expect(canvasDiff(px.data, r.frames[1]!.data)).toBe(-1);
    expect(r.frames[1]!.data).not.toEqual(plain.frames[1]!.data);
    expect(errors).toEqual([]);
    await page.close();
  });
});
