/**
 * The collection's real sheets (test/fixtures/REAL-FILES.md) in the real clients: each sheet that names
 * its image is loaded, unmodified, by PixiJS 8 (`Assets.load`, `new Sprite(sheet.textures[name])`) and
 * Phaser 3.90 (`load.atlas`, or `load.multiatlas` for a `textures` list; `setFrame(name)`) in Debian's
 * Chromium; every named frame is drawn at a known point over a known background, read back, and compared
 * with `sprat render` of the model frame with that name (api.renderLaidOut), placed by its origin: sprat
 * draws each real frame as the clients do (trim, source size and anchors included). A Phaser atlas that
 * names no image gets the one its game gives load.atlas (PixiJS: `data.imageFilename`; sprat: --sheet-image). test/interop/real-sheets.test.ts
 * checks the same frames against the picture computed from the JSON alone.
 *
 * Both clients sample nearest-neighbour at whole pixels here: opaque and transparent pixels must be
 * equal; partly transparent ones within 3 per channel (the GPU blends premultiplied 8-bit colours with
 * its own rounding, where sprat blends straight alpha). PixiJS 8 reads no `textures` list (TexturePacker's
 * multi-texture JSON, Phaser's multiatlas): those files go to Phaser only.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../src/api.js';
import type { RgbaImage } from '../../src/render/image.js';
import { filesUnder, haveSource } from '../helpers/real.js';
import { drawer, framesOf, type Json, type JsonFrame, jsonFrames, modelOf, SHEETS, sheetOptions } from '../helpers/real-sheets.js';
import { haveChromium } from '../web/harness.js';
import { openClientPage } from './client-page.js';

const BG: [number, number, number, number] = [23, 41, 67, 255];
/** Where each frame's source-size canvas goes (its upper-left corner). */
const AT = { x: 3, y: 2 };

interface Sheet {
  id: string;
  file: string;
  doc: Json;
  frames: JsonFrame[];
  /** The image the game gives the client, for a document that names none. */
  image?: string;
  width: number;
  height: number;
}

const sheets: Sheet[] = [];
for (const { source, match, sheetImage } of SHEETS) {
  if (!haveSource(source)) continue;
  for (const file of filesUnder(source.dir, match)) {
    const full = path.join(source.dir, file);
    const doc = JSON.parse(fs.readFileSync(full, 'utf8')) as Json;
    const image = sheetImage?.(file);
    const frames = jsonFrames(doc, image);
    const width = Math.max(...frames.map((f) => f.size.w)) + 2 * AT.x;
    const height = Math.max(...frames.map((f) => f.size.h)) + 2 * AT.y;
    sheets.push({
      id: `${source.name}: ${file}`,
      file: full,
      doc,
      frames,
      image,
      width: width + (width % 2),
      height: height + (height % 2),
    });
  }
}

let browser: Browser | undefined;
let page: Page;

beforeAll(async () => {
  if (!haveChromium || !sheets.length) return;
  // /files/N/NAME: sheet N's folder (its JSON and images, as the package installs them).
  const opened = await openClientPage(
    'real-clients-page.js',
    (p) => {
      const m = /^\/files\/(\d+)\/([^/]+)$/.exec(p);
      return m ? path.join(path.dirname(sheets[Number(m[1])]!.file), m[2]!) : undefined;
    },
    ['pixiFrames', 'phaserFrames'],
  );
  browser = opened.browser;
  page = opened.page;
  const errors = opened.errors;
  expect(errors).toEqual([]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

/** Sprat's frame named `name`, with its sprite origin and that origin's place on the frame's canvas. */
async function spratFrames(s: Sheet) {
  const loaded = load(new Uint8Array(fs.readFileSync(s.file)), s.file);
  const dir = path.dirname(s.file);
  const model = await modelOf(loaded, dir, sheetOptions(s.image));
  const draw = drawer(loaded, dir, sheetOptions(s.image));
  const out = new Map<string, { frames: RgbaImage[]; originX: number; originY: number }>();
  for (const { anim, k, label } of framesOf(model)) if (label !== undefined && !out.has(label)) out.set(label, await draw(anim, k));
  return out;
}

/**
 * Differences between the client's canvas and sprat's frame over BG, the frame's canvas at (X, Y): sprat's
 * image goes where its origin lands, the origin being (ox, oy) on that canvas. '' when none.
 */
function compare(
  got: Uint8Array,
  s: Sheet,
  d: { frames: RgbaImage[]; originX: number; originY: number },
  f: JsonFrame,
  X: number,
  Y: number,
) {
  const img = d.frames[0]!;
  const left = X + f.ox - d.originX;
  const top = Y + f.oy - d.originY;
  const bad: string[] = [];
  let count = 0;
  for (let j = 0; j < s.height; j++)
    for (let i = 0; i < s.width; i++) {
      const sx = i - left;
      const sy = j - top;
      const inside = sx >= 0 && sy >= 0 && sx < img.width && sy < img.height;
      const o = inside ? (sy * img.width + sx) * 4 : -1;
      const a = inside ? img.data[o + 3]! : 0;
      const g = (j * s.width + i) * 4;
      let worst = 0;
      for (let ch = 0; ch < 3; ch++) {
        const want = Math.round(((inside ? img.data[o + ch]! : 0) * a + BG[ch]! * (255 - a)) / 255);
        worst = Math.max(worst, Math.abs(got[g + ch]! - want));
      }
      if (worst > (a === 0 || a === 255 ? 0 : 3)) {
        count++;
        if (bad.length < 3) bad.push(`(${i},${j}) client ${[...got.subarray(g, g + 3)]}, sprat alpha ${a}`);
      }
    }
  return count ? `${count} pixels differ: ${bad.join('; ')}` : '';
}

describe.skipIf(!haveChromium || !sheets.length)('real sheets in the npm clients', () => {
  it('PixiJS 8 draws every frame of every real sheet as sprat renders it', async () => {
    const failures: string[] = [];
    let drawn = 0;
    for (const [n, s] of sheets.entries()) {
      if (s.doc.textures) continue; // PixiJS 8 reads no `textures` list
      const sprat = await spratFrames(s);
      // PixiJS names the frames of an array layout by their index.
      const checks = s.frames.map((f, i) => ({ name: Array.isArray(s.doc.frames) ? String(i) : f.name, x: AT.x, y: AT.y }));
      const url = `http://sprat.test/files/${n}/${encodeURIComponent(path.basename(s.file))}`;
      const out = await page.evaluate(([u, img, w, h, bg, cs]) => (window as any).pixiFrames(u, img, w, h, bg, cs), [
        url,
        s.image ?? null,
        s.width,
        s.height,
        BG,
        checks,
      ] as const);
      s.frames.forEach((f, i) => {
        const r = out[i];
        expect(r.error, `${s.id}: ${f.name}`).toBeUndefined();
        // PixiJS reads `anchor` only: sprat's origin is there when the file has one (none of these do).
        expect(r.size, `${s.id}: ${f.name}`).toEqual([f.size.w, f.size.h]);
        const X = AT.x - r.anchor[0] * f.size.w;
        const Y = AT.y - r.anchor[1] * f.size.h;
        const d = sprat.get(f.name);
        if (!d) failures.push(`${s.id}: sprat has no frame "${f.name}"`);
        else {
          const diff = compare(Buffer.from(r.pixels, 'base64'), s, d, f, X, Y);
          if (diff) failures.push(`PixiJS, ${s.id}: "${f.name}": ${diff}`);
        }
        drawn++;
      });
    }
    expect(failures).toEqual([]);
    expect(drawn).toBeGreaterThan(90);
  }, 180_000);

  it('Phaser 3 draws every frame of every real sheet as sprat renders it', async () => {
    const failures: string[] = [];
    let drawn = 0;
    for (const [n, s] of sheets.entries()) {
      const sprat = await spratFrames(s);
      const checks = s.frames.map((f) => ({ name: f.name, x: AT.x, y: AT.y }));
      const base = `http://sprat.test/files/${n}/`;
      const json = base + encodeURIComponent(path.basename(s.file));
      const png = s.doc.textures ? '' : base + encodeURIComponent(s.image ?? s.doc.meta.image);
      const out = await page.evaluate(([multi, j, p, w, h, bg, cs]) => (window as any).phaserFrames(multi, j, p, w, h, bg, cs), [
        Boolean(s.doc.textures),
        json,
        png,
        s.width,
        s.height,
        BG,
        checks,
      ] as const);
      s.frames.forEach((f, i) => {
        const r = out[i];
        // The image is the frame's source size (Phaser puts a trimmed frame where it was), its origin at the corner.
        expect(r.size, `${s.id}: ${f.name}`).toEqual([f.size.w, f.size.h]);
        const d = sprat.get(f.name);
        if (!d) failures.push(`${s.id}: sprat has no frame "${f.name}"`);
        else {
          const diff = compare(Buffer.from(r.pixels, 'base64'), s, d, f, AT.x, AT.y);
          if (diff) failures.push(`Phaser, ${s.id}: "${f.name}": ${diff}`);
        }
        drawn++;
      });
    }
    expect(failures).toEqual([]);
    expect(drawn).toBeGreaterThan(100);
  }, 180_000);
});
