/**
 * sprat's sheet exports load unmodified in the real clients: every
 * sample that converts to Aseprite or TexturePacker JSON is exported with
 * sprat's own `convert` (default options, and the TexturePacker array
 * layout), then loaded in Debian's Chromium by the npm packages themselves:
 * PixiJS 8 (`Assets.load` → Spritesheet, `AnimatedSprite` from
 * `sheet.animations`, the anchor PixiJS takes from the file) and Phaser 3.90
 * (`load.aseprite` + `anims.createFromAseprite`; `load.atlas` + `setFrame`,
 * which applies the frame's anchor/pivot). Several frames of several
 * animations are drawn at a known point on a known background, read back,
 * and compared with `sprat render` of the same export, animation and frame
 * (`api.render`), placed by its origin; and that render is checked against
 * the source's own model frame (`renderModelFrame`), so the chain goes from
 * the source file to the client's pixels.
 *
 * Both clients draw here with nearest-neighbour sampling at whole-pixel
 * positions, so opaque and fully transparent pixels must be equal exactly.
 * Pixels that are partly transparent in sprat's frame get a tolerance of 3
 * per channel: the GPU blends premultiplied 8-bit colours with its own
 * rounding, where sprat blends straight alpha.
 *
 * One browser, one page; every export is one call into the page (see
 * clients-page.js), so the run stays well under a minute.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convert, formatByName, load, render } from '../../src/api.js';
import type { CommandOptions } from '../../src/formats/types.js';
import { renderModelFrame } from '../../src/model/bake.js';
import type { SpriteModel } from '../../src/model/types.js';
import { fsResourceLoader } from '../../src/node/fs.js';
import type { DrawnPicture } from '../../src/render/pipeline.js';
import type { RgbaImage } from '../../src/render/image.js';
import { haveChromium } from '../web/harness.js';
import { openClientPage } from './client-page.js';
import { SAMPLES } from '../helpers/paths.js';

/** Every sample that converts to the sheet formats, with the options its conversion needs. */
const SOURCES: { file: string; options?: CommandOptions }[] = [
  { file: 'isprite/hero.isprite' },
  { file: 'cthg/fan.dat' },
  { file: 'solarus/sprites/slime.dat' },
  { file: 'solarus/sprites/slime_lua.dat' },
  { file: 'hallgeir/hero.spr', options: { 'frame-size': '16x16' } },
  { file: 'hallgeir/coin.spr', options: { 'frame-size': '8x8' } },
  // Already an Aseprite export (Aseprite's default names): re-keyed for Phaser by `--filename-format {frame}`.
  { file: 'interop/hero.json', options: { 'filename-format': '{frame}' } },
];

type Kind = 'aseprite' | 'texturepacker';
interface Export {
  id: string;
  source: string;
  kind: Kind;
  layout: 'hash' | 'array';
  json: string;
  png: string;
  doc: Record<string, any>;
  model: SpriteModel;
}
interface Check {
  anim: string;
  /** The frame in the client's animation. */
  frame: number;
  /** Its frame name (TexturePacker, for Phaser's setFrame). */
  frameName?: string;
  /** The frame `sprat render --animation anim --frame N` draws. */
  spratFrame: number;
  /** The source model's animation and frame it shows. */
  modelAnim: number;
  modelFrame: number;
  x: number;
  y: number;
}

const BG: [number, number, number, number] = [23, 41, 67, 255];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-clients-'));
const exports: Export[] = [];
let browser: Browser | undefined;
let page: Page;

/** The frames drawn from each animation: first, middle and last. */
const spread = (n: number) => [...new Set([0, Math.floor(n / 2), n - 1])].filter((k) => k >= 0);

beforeAll(async () => {
  for (const s of SOURCES) {
    const file = path.join(SAMPLES, s.file);
    const srcDir = path.dirname(file);
    const loaded = load(new Uint8Array(fs.readFileSync(file)), path.basename(file), undefined, s.options);
    const resources = fsResourceLoader(srcDir, { cwd: srcDir });
    const targets: [Kind, 'hash' | 'array'][] = [
      ['aseprite', 'hash'],
      ['texturepacker', 'hash'],
      ['texturepacker', 'array'],
    ];
    for (const [kind, layout] of targets) {
      const id = `${s.file.replace(/[/.]/g, '_')}-${kind}-${layout}`;
      const options: CommandOptions = { ...s.options, ...(layout === 'array' ? { layout } : {}) };
      const { files } = await convert(loaded, formatByName(kind), `${id}.json`, resources, options);
      for (const f of files) fs.writeFileSync(path.join(dir, f.name), f.bytes);
      const doc = JSON.parse(fs.readFileSync(path.join(dir, `${id}.json`), 'utf8'));
      // A same-format convert re-keys the JSON and keeps its sheet: the page gets it beside the JSON.
      if (doc.meta.image !== `${id}.png`) fs.copyFileSync(path.join(srcDir, doc.meta.image), path.join(dir, doc.meta.image));
      const model = (await loaded.handler.toModel!(loaded.doc, resources, s.options)) as SpriteModel;
      exports.push({
        id,
        source: s.file,
        kind,
        layout,
        json: `${id}.json`,
        png: doc.meta.image,
        doc,
        model,
      });
    }
  }
  if (!haveChromium) return;
  const opened = await openClientPage('clients-page.js', (p) => path.join(dir, path.basename(p)), ['pixiDraw', 'phaserDraw']);
  browser = opened.browser;
  page = opened.page;
  const errors = opened.errors;
  expect(errors).toEqual([]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The animations of an export as the clients see them, and the frames each check draws. */
function checksOf(e: Export): Check[] {
  const checks: Check[] = [];
  const models = e.model.animations.map((a, i) => ({ a, i })).filter(({ a }) => !a.unused && a.frames.length);
  if (e.kind === 'aseprite') {
    const seen = new Set<string>();
    for (const tag of e.doc.meta.frameTags as { name: string; from: number; to: number; direction: string }[]) {
      if (seen.has(tag.name)) continue;
      seen.add(tag.name);
      const m = models.find(({ a }) => (a.direction ? `${a.name}/${a.direction}` : a.name) === tag.name)!;
      const n = tag.to - tag.from + 1;
      for (const k of spread(n)) {
        // Phaser plays pingpong_reverse forwards (it knows only forward, reverse and pingpong as yoyo).
        const spratFrame = tag.direction === 'pingpong_reverse' ? n - 1 - k : k;
        checks.push({ anim: tag.name, frame: k, spratFrame, modelAnim: m.i, modelFrame: spratFrame, x: 0, y: 0 });
      }
    }
  } else {
    for (const [name, list] of Object.entries(e.doc.animations as Record<string, string[]>)) {
      const m = models.find(({ a }) => (a.direction ? `${a.name}/${a.direction}` : a.name) === name)!;
      for (const k of spread(list.length)) {
        checks.push({ anim: name, frame: k, frameName: list[k], spratFrame: k, modelAnim: m.i, modelFrame: k, x: 0, y: 0 });
      }
    }
  }
  return checks;
}

/** `sprat render EXPORT --animation A --frame N` for every check, and the canvas that holds them all around one point. */
async function expected(e: Export, checks: Check[]) {
  const loaded = load(new Uint8Array(fs.readFileSync(path.join(dir, e.json))), e.json);
  const resources = fsResourceLoader(dir, { cwd: dir });
  const pictures: DrawnPicture[] = [];
  for (const c of checks) {
    const p = (await render(loaded, { animation: c.anim, frame: String(c.spratFrame) }, resources)) as DrawnPicture;
    // The export draws what the source's model draws, origin included.
    const m = renderModelFrame(e.model, c.modelAnim, c.modelFrame);
    expect(crop(p.frames[0]!, p.originX - m.originX, p.originY - m.originY, m.image.width, m.image.height)).toEqual(m.image);
    pictures.push(p);
  }
  const x = Math.max(...pictures.map((p) => p.originX)) + 3;
  const y = Math.max(...pictures.map((p) => p.originY)) + 2;
  let width = x + Math.max(...pictures.map((p) => p.frames[0]!.width - p.originX)) + 3;
  let height = y + Math.max(...pictures.map((p) => p.frames[0]!.height - p.originY)) + 2;
  width += width % 2;
  height += height % 2;
  for (const c of checks) {
    c.x = x;
    c.y = y;
  }
  return { pictures, width, height, x, y };
}

/** The rectangle (x, y, w, h) of an image; outside it, transparent. */
function crop(img: RgbaImage, x: number, y: number, w: number, h: number): RgbaImage {
  const data = new Uint8Array(w * h * 4);
  for (let j = 0; j < h; j++)
    for (let i = 0; i < w; i++) {
      const sx = x + i;
      const sy = y + j;
      if (sx < 0 || sy < 0 || sx >= img.width || sy >= img.height) continue;
      data.set(img.data.subarray((sy * img.width + sx) * 4, (sy * img.width + sx) * 4 + 4), (j * w + i) * 4);
    }
  return { width: w, height: h, data };
}

/** Differences between the client's canvas and sprat's frame drawn over BG with its origin at (x, y); '' when none. */
function compare(got: Uint8Array, p: DrawnPicture, width: number, height: number, x: number, y: number): string {
  const img = p.frames[0]!;
  const ox = x - p.originX;
  const oy = y - p.originY;
  const bad: string[] = [];
  let count = 0;
  for (let j = 0; j < height; j++)
    for (let i = 0; i < width; i++) {
      const sx = i - ox;
      const sy = j - oy;
      const inside = sx >= 0 && sy >= 0 && sx < img.width && sy < img.height;
      const s = inside ? (sy * img.width + sx) * 4 : -1;
      const a = inside ? img.data[s + 3]! : 0;
      const o = (j * width + i) * 4;
      let worst = 0;
      for (let ch = 0; ch < 3; ch++) {
        const want = Math.round(((inside ? img.data[s + ch]! : 0) * a + BG[ch]! * (255 - a)) / 255);
        worst = Math.max(worst, Math.abs(got[o + ch]! - want));
      }
      if (worst > (a === 0 || a === 255 ? 0 : 3)) {
        count++;
        if (bad.length < 4) bad.push(`(${i},${j}) got ${[...got.subarray(o, o + 3)]} sprat alpha ${a}`);
      }
    }
  if (!count) return '';
  let box = [Infinity, Infinity, -Infinity, -Infinity];
  for (let j = 0; j < height; j++)
    for (let i = 0; i < width; i++) {
      const o = (j * width + i) * 4;
      if (got[o] !== BG[0] || got[o + 1] !== BG[1] || got[o + 2] !== BG[2])
        box = [Math.min(box[0]!, i), Math.min(box[1]!, j), Math.max(box[2]!, i), Math.max(box[3]!, j)];
    }
  return `${count} pixels differ: ${bad.join('; ')}; drawn ${box} of ${width}x${height}; sprat at ${ox},${oy} ${img.width}x${img.height}`;
}

describe('sprat exports (Aseprite, TexturePacker) in the npm clients', () => {
  it('exports every sample that converts to the sheet formats', () => {
    expect(exports.length).toBe(SOURCES.length * 3);
    for (const e of exports) {
      // The frame keys Phaser's createFromAseprite looks up ("0".."N"); PixiJS's array names ("0".."N").
      if (e.kind === 'aseprite') expect(Object.keys(e.doc.frames)).toEqual(Object.keys(e.doc.frames).map((_, i) => String(i)));
      if (e.layout === 'array')
        expect(e.doc.frames.map((f: { filename: string }) => f.filename)).toEqual(e.doc.frames.map((_: unknown, i: number) => String(i)));
    }
  });

  it.skipIf(!haveChromium)(
    'PixiJS 8 draws every export as sprat renders it, anchors included',
    async () => {
      let drawn = 0;
      for (const e of exports.filter((x) => x.kind === 'texturepacker')) {
        const checks = checksOf(e);
        const { pictures, width, height } = await expected(e, checks);
        const out = await page.evaluate(([url, w, h, bg, cs]) => (window as any).pixiDraw(url, w, h, bg, cs), [
          `http://sprat.test/files/${e.json}`,
          width,
          height,
          BG,
          checks,
        ] as const);
        // Every animation entry names a texture PixiJS made (the array layout included).
        for (const [name, list] of Object.entries(e.doc.animations as Record<string, string[]>)) {
          expect(out.animations[name], `${e.id}: ${name}`).toEqual({ frames: list.length, missing: 0 });
        }
        checks.forEach((c, i) => {
          const r = out.results[i];
          expect(r.error, `${e.id} ${c.anim}`).toBeUndefined();
          const diff = compare(Buffer.from(r.pixels, 'base64'), pictures[i]!, width, height, c.x, c.y);
          expect(diff, `PixiJS, ${e.id}: animation "${c.anim}" frame ${c.frame}`).toBe('');
          drawn++;
        });
      }
      expect(drawn).toBeGreaterThan(40);
    },
    120_000,
  );

  it.skipIf(!haveChromium)(
    'Phaser 3 draws every export as sprat renders it: createFromAseprite, atlas pivots',
    async () => {
      let drawn = 0;
      const failures: string[] = [];
      for (const e of exports.filter((x) => x.layout === 'hash' || x.kind === 'texturepacker')) {
        const checks = checksOf(e);
        const { pictures, width, height } = await expected(e, checks);
        const out = await page.evaluate(([kind, json, png, w, h, bg, cs]) => (window as any).phaserDraw(kind, json, png, w, h, bg, cs), [
          e.kind,
          `http://sprat.test/files/${e.json}`,
          `http://sprat.test/files/${e.png}`,
          width,
          height,
          BG,
          checks,
        ] as const);
        if (e.kind === 'aseprite') {
          // Every tag became an animation with all its frames (they had 0 frames).
          // Each frame keeps its duration; a ping-pong plays as a yoyo.
          const durations = Object.values(e.doc.frames as Record<string, { duration: number }>).map((f) => f.duration);
          for (const tag of e.doc.meta.frameTags as { name: string; from: number; to: number; direction: string }[]) {
            const a = out.animations[tag.name];
            expect(a?.frames, `${e.id}: tag ${tag.name}`).toBe(tag.to - tag.from + 1);
            const want = durations.slice(tag.from, tag.to + 1);
            expect(a.durations, `${e.id}: tag ${tag.name}`).toEqual(tag.direction === 'reverse' ? want.reverse() : want);
            expect(a.yoyo).toBe(tag.direction === 'pingpong');
          }
        }
        checks.forEach((c, i) => {
          const diff = compare(Buffer.from(out.results[i].pixels, 'base64'), pictures[i]!, width, height, c.x, c.y);
          if (diff) failures.push(`Phaser, ${e.id}: animation "${c.anim}" frame ${c.frame}: ${diff}`);
          drawn++;
        });
      }
      expect(failures).toEqual([]);
      expect(drawn).toBeGreaterThan(40);
    },
    120_000,
  );
});
