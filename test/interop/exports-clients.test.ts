/**
 * Trimmed, offset frames of an `.aseprite` file, exported by `sprat convert
 * FILE.aseprite out.json --to aseprite` and `--to texturepacker`, drawn by
 * the real PixiJS 8 and Phaser 3 (test/interop/real-clients-page.js: PixiJS
 * `new Sprite(sheet.textures[name])` with the anchor it takes from the file,
 * Phaser `setFrame(name)` with its origin at the corner of the frame's source
 * size) in Debian's Chromium, land at the same pixels as `sprat render` of
 * the `.aseprite` frame: engines that read only `frame`, `spriteSourceSize`
 * and `sourceSize` place every frame right. A real corpus file whose frames
 * are trimmed with an offset (Lommix+bevy_aseprite_ultra's ball.aseprite)
 * and a small generated one.
 *
 * Nearest-neighbour at whole pixels: opaque and transparent pixels must be
 * equal; partly transparent ones within 3 per channel (the GPU blends
 * premultiplied 8-bit colours with its own rounding).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load, render } from '../../src/api.js';
import { fsResourceLoader } from '../../src/node/fs.js';
import type { DrawnPicture } from '../../src/render/pipeline.js';
import { aseFile, rgbaPixels } from '../helpers/ase-writer.js';
import { runCli } from '../helpers/cli.js';
import { CORPUS } from '../helpers/paths.js';
import { haveChromium } from '../web/harness.js';
import { openClientPage } from './client-page.js';

const BG: [number, number, number, number] = [23, 41, 67, 255];
/** Where each frame's canvas goes (its upper-left corner). */
const AT = { x: 3, y: 2 };
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-export-clients-'));

/** 20 x 16, three frames drawn at different places, one with a half-transparent pixel; never touching the canvas's edges. */
function generated(): Uint8Array {
  const cel = (x: number, y: number, w: number, h: number, seed: number) => ({
    layer: 0,
    x,
    y,
    w,
    h,
    pixels: rgbaPixels(w, h, (i, j): [number, number, number, number] => [
      (40 * i + seed) & 255,
      (30 * j + 2 * seed) & 255,
      200 - 20 * i,
      i === 1 && j === 1 ? 128 : 255,
    ]),
  });
  return aseFile({
    width: 20,
    height: 16,
    layers: [{ name: 'hero' }],
    frames: [
      { duration: 100, cels: [cel(6, 1, 5, 9, 0)] },
      { duration: 120, cels: [cel(2, 7, 7, 4, 50)] },
      { duration: 80, cels: [cel(13, 3, 3, 12, 90)] },
    ],
  });
}

interface Source {
  id: string;
  file: string;
}
const SOURCES: Source[] = [
  { id: 'ball', file: path.join(CORPUS, 'interop/Lommix+bevy_aseprite_ultra/assets/ball.aseprite') },
  { id: 'generated', file: path.join(dir, 'generated.aseprite') },
];

interface Export {
  id: string;
  source: Source;
  kind: 'aseprite' | 'texturepacker';
  json: string;
  doc: Record<string, any>;
  /** Frame name → the .aseprite frame it shows. */
  names: [string, number][];
}
const exported: Export[] = [];
/** `sprat render FILE.aseprite`: every frame on the sprite's canvas. */
const rendered = new Map<string, DrawnPicture>();
let browser: Browser | undefined;
let page: Page;

beforeAll(async () => {
  fs.writeFileSync(SOURCES[1]!.file, generated());
  for (const s of SOURCES) {
    const loaded = load(new Uint8Array(fs.readFileSync(s.file)), s.file);
    const picture = (await render(loaded, {}, fsResourceLoader(path.dirname(s.file), { cwd: dir }))) as DrawnPicture;
    rendered.set(s.id, picture);
    for (const kind of ['aseprite', 'texturepacker'] as const) {
      const json = path.join(dir, `${s.id}-${kind}.json`);
      // Frames named by the .aseprite frame they show ({label}: its number; TexturePacker keeps labels as names).
      const extra = kind === 'aseprite' ? ['--filename-format', '{label}'] : [];
      const r = await runCli(['convert', s.file, json, '--to', kind, ...extra]);
      expect(r.code, r.stderr).toBe(0);
      const doc = JSON.parse(fs.readFileSync(json, 'utf8'));
      const names = Object.keys(doc.frames).map((n): [string, number] => [n, Number(/^\d+/.exec(n)![0])]);
      exported.push({ id: `${s.id} --to ${kind}`, source: s, kind, json, doc, names });
    }
  }
  if (!haveChromium) return;
  const opened = await openClientPage('real-clients-page.js', (p) => path.join(dir, path.basename(p)), ['pixiFrames', 'phaserFrames']);
  browser = opened.browser;
  page = opened.page;
  expect(opened.errors).toEqual([]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The page's size: the sprite's canvas with AT around it. */
function pageSize(p: DrawnPicture): { width: number; height: number } {
  const w = p.frames[0]!.width + 2 * AT.x;
  const h = p.frames[0]!.height + 2 * AT.y;
  return { width: w + (w % 2), height: h + (h % 2) };
}

/** Differences between the client's pixels and sprat's frame over BG at AT; '' when none. */
function compare(got: Uint8Array, p: DrawnPicture, frame: number): string {
  const img = p.frames[frame]!;
  const { width, height } = pageSize(p);
  const bad: string[] = [];
  let count = 0;
  for (let j = 0; j < height; j++)
    for (let i = 0; i < width; i++) {
      const sx = i - AT.x;
      const sy = j - AT.y;
      const inside = sx >= 0 && sy >= 0 && sx < img.width && sy < img.height;
      const o = inside ? (sy * img.width + sx) * 4 : -1;
      const a = inside ? img.data[o + 3]! : 0;
      const g = (j * width + i) * 4;
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

describe('trimmed .aseprite exports in the npm clients', () => {
  it('the exports are trimmed with offsets, on the sprite canvas', () => {
    for (const e of exported) {
      const p = rendered.get(e.source.id)!;
      const frames = Object.values(e.doc.frames) as { trimmed: boolean; spriteSourceSize: { x: number; y: number }; sourceSize: object }[];
      for (const f of frames) expect(f.sourceSize, e.id).toEqual({ w: p.frames[0]!.width, h: p.frames[0]!.height });
      expect(
        frames.some((f) => f.trimmed && f.spriteSourceSize.x > 0 && f.spriteSourceSize.y > 0),
        e.id,
      ).toBe(true);
      // Every frame of the file is there.
      expect(new Set(e.names.map(([, i]) => i)).size, e.id).toBe(p.frames.length);
    }
  });

  it.skipIf(!haveChromium)(
    'PixiJS 8 draws every frame where sprat render draws the .aseprite frame',
    async () => {
      const failures: string[] = [];
      for (const e of exported) {
        const p = rendered.get(e.source.id)!;
        const { width, height } = pageSize(p);
        const checks = e.names.map(([name]) => ({ name, x: AT.x, y: AT.y }));
        const url = `http://sprat.test/files/${encodeURIComponent(path.basename(e.json))}`;
        const out = await page.evaluate(([u, w, h, bg, cs]) => (window as any).pixiFrames(u, null, w, h, bg, cs), [
          url,
          width,
          height,
          BG,
          checks,
        ] as const);
        e.names.forEach(([name, frame], i) => {
          const r = out[i];
          expect(r.error, `${e.id}: ${name}`).toBeUndefined();
          expect(r.anchor, `${e.id}: ${name}`).toEqual([0, 0]);
          expect(r.size, `${e.id}: ${name}`).toEqual([p.frames[0]!.width, p.frames[0]!.height]);
          const diff = compare(Buffer.from(r.pixels, 'base64'), p, frame);
          if (diff) failures.push(`PixiJS, ${e.id}: "${name}": ${diff}`);
        });
      }
      expect(failures).toEqual([]);
    },
    120_000,
  );

  it.skipIf(!haveChromium)(
    'Phaser 3 draws every frame where sprat render draws the .aseprite frame',
    async () => {
      const failures: string[] = [];
      for (const e of exported) {
        const p = rendered.get(e.source.id)!;
        const { width, height } = pageSize(p);
        const checks = e.names.map(([name]) => ({ name, x: AT.x, y: AT.y }));
        const json = `http://sprat.test/files/${encodeURIComponent(path.basename(e.json))}`;
        const png = `http://sprat.test/files/${encodeURIComponent(e.doc.meta.image)}`;
        const out = await page.evaluate(([j, i, w, h, bg, cs]) => (window as any).phaserFrames(false, j, i, w, h, bg, cs), [
          json,
          png,
          width,
          height,
          BG,
          checks,
        ] as const);
        e.names.forEach(([name, frame], i) => {
          const r = out[i];
          expect(r.size, `${e.id}: ${name}`).toEqual([p.frames[0]!.width, p.frames[0]!.height]);
          const diff = compare(Buffer.from(r.pixels, 'base64'), p, frame);
          if (diff) failures.push(`Phaser, ${e.id}: "${name}": ${diff}`);
        });
      }
      expect(failures).toEqual([]);
    },
    120_000,
  );
});
