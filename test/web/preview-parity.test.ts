/**
 * The viewer draws what `sprat render` draws: every picture the
 * viewer's code (web/preview.ts) shows for every sample and every corpus
 * file is rendered again by the command line, and the pixels, delays and
 * loops must be identical. Every picture of the samples, CTHG and SpriteTile
 * files goes through the whole CLI (`runCli(['render', ...])` to a PNG or
 * APNG, decoded); a Solarus sprite sends one picture through it and the
 * others from the CLI's own parsing of the same options to its `render`
 * call, in-process (the CLI adds only the encoding, checked once per file).
 * A file nothing can be drawn from must be refused alike by both.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { decodeApng } from 'fast-png';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { load, render, type Loaded } from '../../src/api.js';
import { parseArgs } from '../../src/cli/args.js';
import { allOptions, resolveUserPaths } from '../../src/cli/command.js';
import { renderCommand } from '../../src/cli/render.js';
import { sharingImages } from '../../src/formats/resources.js';
import type { CommandOptions, ResourceLoader } from '../../src/formats/types.js';
import { fsResourceLoader } from '../../src/node/fs.js';
import { delayFraction } from '../../src/render/apng.js';
import { decodePng, encodePng } from '../../src/render/png.js';
import { createImage } from '../../src/render/image.js';
import type { SolarusSheet } from '../../src/formats/solarus/model.js';
import { previewOf } from '../../web/preview.js';
import { runCli } from '../helpers/cli.js';
import { CORPUS, SAMPLES } from '../helpers/paths.js';

const out = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-parity-'));
afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

/** A decoded APNG frame as RGBA values, whatever its colour type. */
function apngRgba(apng: { channels: number; palette?: number[][] }, data: ArrayLike<number>): Uint8Array {
  const px = [...(data as Uint8Array)];
  if (apng.palette) return Uint8Array.from(px.flatMap((i) => [...apng.palette![i]!.slice(0, 3), apng.palette![i]![3] ?? 255]));
  if (apng.channels === 3) return Uint8Array.from(px.flatMap((v, j) => (j % 3 === 2 ? [v, 255] : [v])));
  return Uint8Array.from(px);
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

function cliArgs(options: Record<string, string>): string[] {
  return Object.entries(options).flatMap(([k, v]) => [`--${k}`, v]);
}

let n = 0;
const sharedLoaders = new Map<string, ResourceLoader>();

/** The options `sprat render` hands to `render` for this command line, run from `cwd` (src/cli/render.ts). */
function cliOptions(loaded: Loaded, argv: string[], cwd: string): CommandOptions {
  const { options } = parseArgs(argv, allOptions(renderCommand), { o: 'output' });
  resolveUserPaths(renderCommand, [loaded.handler], options, cwd);
  return options;
}

/**
 * Every animation the viewer shows for `file` against what `sprat render`
 * draws with the same options. Those `throughCli` picks (default: all) run
 * the whole command line (the picture written and read back: encoding,
 * delays, loops); the others run from the command line's own parsing of
 * those options, with its loader, to its call of `render`, in-process
 * (the sheets decoded once per file). Returns the pictures compared.
 */
async function compare(
  file: string,
  extra: Record<string, string> = {},
  throughCli: (i: number, count: number) => boolean = () => true,
): Promise<number> {
  const dir = path.dirname(file);
  // The command line runs from the document's folder (below): places are named relative to it in both.
  const resources = fsResourceLoader(dir, { cwd: dir });
  let preview;
  let loaded: Loaded;
  try {
    loaded = load(fs.readFileSync(file), path.basename(file));
    preview = await previewOf(loaded, resources, extra);
  } catch (e) {
    // Nothing the viewer can show: the command line refuses it the same way.
    const r = await runCli(['render', file, '-o', path.join(out, `x${n++}.png`), ...cliArgs(extra)], dir);
    expect(r.code, file).not.toBe(0);
    expect(r.stderr, file).toContain((e as Error).message);
    return 0;
  }
  // What the command line says before drawing: the warnings of reading the file, nothing else.
  const warned = loaded.warnings.map((w) => `${file}: warning: ${w.message}\n`).join('');
  // The command line's loader for this folder, its images decoded once for every file there.
  let shared = sharedLoaders.get(dir);
  if (!shared) sharedLoaders.set(dir, (shared = sharingImages(fsResourceLoader(dir, { cwd: dir }))));
  // Read once, as the command line reads it (the options select pictures, not how the file reads).
  let cliLoaded: Loaded | undefined;
  let checked = 0;
  for (const [i, a] of preview.animations.entries()) {
    const what = `${file} ${a.label}`;
    const animated = a.delaysMs.length > 0;
    const target = path.join(out, `p${n++}.${animated ? 'apng' : 'png'}`);
    // Run from the document's folder: paths the user types (--tileset) are relative to the current folder, as the viewer takes them relative to the document.
    const argv = [file, '-o', target, ...cliArgs(a.options)];
    checked++;
    if (!throughCli(i, preview.animations.length)) {
      const options = cliOptions(loaded, argv, dir);
      cliLoaded ??= load(fs.readFileSync(file), file, undefined, options);
      const r = await render(cliLoaded, options, shared);
      expect(r.frames.length, what).toBe(a.frames.length);
      r.frames.forEach((f, j) => {
        expect([f.width, f.height], `${what} frame ${j}`).toEqual([a.frames[j]!.width, a.frames[j]!.height]);
        expect(equalBytes(f.data, a.frames[j]!.data), `${what} frame ${j}`).toBe(true);
      });
      expect([r.delaysMs ?? [], r.loops], what).toEqual([a.delaysMs, a.loops]);
      continue;
    }
    const r = await runCli(['render', ...argv], dir);
    expect([r.code, r.stderr], what).toEqual([0, warned]);
    const bytes = fs.readFileSync(target);
    if (!animated) {
      expect(a.frames.length, what).toBe(1);
      const img = decodePng(bytes);
      expect([img.width, img.height], what).toEqual([a.frames[0]!.width, a.frames[0]!.height]);
      expect(equalBytes(img.data, a.frames[0]!.data), what).toBe(true);
    } else {
      const apng = decodeApng(bytes);
      expect(apng.numberOfFrames, what).toBe(a.frames.length);
      expect(apng.numberOfPlays, what).toBe(a.loops ?? 0);
      a.frames.forEach((f, j) => {
        const got = apng.frames[j]!;
        expect(equalBytes(apngRgba(apng, got.data), f.data), `${what} frame ${j}`).toBe(true);
        expect([got.delayNumber, got.delayDenominator], `${what} delay ${j}`).toEqual(delayFraction(a.delaysMs[j]!));
      });
    }
  }
  return checked;
}

function files(dir: string, ext: RegExp): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => ext.test(f))
    .map((f) => path.join(dir, f))
    .filter((f) => fs.statSync(f).isFile())
    .sort();
}

/** Extra options a file needs to be drawn at all (Hallgeir sprites do not store their frame size). */
const EXTRA: Record<string, Record<string, string>> = {
  'hallgeir/hero.spr': { 'frame-size': '16x16' },
  'hallgeir/coin.spr': { 'frame-size': '8x8' },
  'hallgeir/hero.obj': { 'frame-size': '16x16' },
  'hallgeir/coin.obj': { 'frame-size': '8x8' },
  'spritetile/level.bytes': { tileset: '0=tiles.png:16x16' },
};

/**
 * Sheets for Solarus sprites whose images are not in the corpus (zsdx):
 * for each image a sprite names (`measureSheets`), a picture large enough
 * for every frame rectangle, of a pattern that differs at every pixel (so
 * a frame taken from the wrong place shows), some of it half transparent.
 * Written under `dir` as the quest's sprites/ folder would hold them
 * (`writeSheets`); `tileset.png` for the "tileset" image.
 */
const made = new Map<string, { w: number; h: number }>();
function measureSheets(file: string): void {
  let doc: SolarusSheet;
  try {
    doc = load(fs.readFileSync(file), path.basename(file)).doc as SolarusSheet;
  } catch {
    return;
  }
  for (const a of doc.animations ?? []) {
    const name = a.image === 'tileset' ? 'tileset.png' : a.image;
    let { w, h } = made.get(name) ?? { w: 1, h: 1 };
    for (const d of a.directions) {
      const cols = Math.max(1, Math.min(d.columns > 0 ? d.columns : d.frameCount, d.frameCount));
      w = Math.max(w, d.x + cols * d.frameWidth);
      h = Math.max(h, d.y + Math.ceil(d.frameCount / cols) * d.frameHeight);
    }
    made.set(name, { w, h });
  }
}
function writeSheets(dir: string): void {
  for (const [name, { w, h }] of made) {
    const img = createImage(Math.min(w, 4096), Math.min(h, 4096));
    for (let y = 0, i = 0; y < img.height; y++)
      for (let x = 0; x < img.width; x++, i += 4) {
        img.data[i] = x & 255;
        img.data[i + 1] = y & 255;
        img.data[i + 2] = ((x >> 8) << 4) | (y >> 8);
        img.data[i + 3] = (x ^ y) & 4 ? 255 : 128;
      }
    const p = path.join(dir, name);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, encodePng(img));
  }
}

/** Every document in a corpus folder (not the sheets and tiles it draws from). */
function documents(dir: string): string[] {
  return files(dir, /^(?!.*\.(png|bmp|md)$)/);
}

describe('the viewer and `sprat render` draw the same pixels with the same delays', () => {
  it('every sample', async () => {
    const all = files(SAMPLES, /\.(isprite|dat|bytes|spr|obj|map|json|tmj)$/).filter((f) => !/demo\.json$|fan\.json$/.test(f));
    expect(all.length).toBeGreaterThan(10);
    let checked = 0;
    for (const f of all) {
      const c = await compare(f, EXTRA[path.relative(SAMPLES, f).split(path.sep).join('/')] ?? {});
      checked += c;
    }
    expect(checked).toBeGreaterThan(20);
  }, 120_000);

  it('every CTHG file: the CorsixTH plant and the encoder test (its script refused alike)', async () => {
    const all = documents(path.join(CORPUS, 'cthg'));
    if (all.length === 0) return;
    const got = Object.fromEntries(await Promise.all(all.map(async (f) => [path.relative(CORPUS, f), await compare(f)] as const)));
    expect(got['cthg/plant_anim.dat']).toBe(5);
    expect(got['cthg/encoder-test/gen_anims.dat']).toBeGreaterThan(0);
  }, 120_000);

  it('every SpriteTile level in flat colours', async () => {
    const levels = files(path.join(CORPUS, 'spritetile'), /\.bytes$/);
    if (levels.length === 0) return;
    expect(levels.length).toBe(16);
    for (const f of levels) expect(await compare(f), f).toBe(1);
  }, 120_000);

  it('every quest-editor sprite with its sheets and tileset (the quest and tileset files refused alike)', async () => {
    const data = path.join(CORPUS, 'solarus', 'quest-editor-initial', 'data');
    const all = documents(data);
    if (all.length === 0) return;
    const tileset = path.join(data, 'tilesets', 'castle.tiles.png');
    let checked = 0;
    for (const f of all) {
      const k = all.indexOf(f);
      const c = await compare(f, { tileset: path.relative(path.dirname(f), tileset) }, (i, count) => i === k % count);
      if (f.includes(`${path.sep}sprites${path.sep}`)) expect(c, f).toBeGreaterThan(0);
      checked += c;
    }
    expect(checked).toBeGreaterThan(600);
  }, 120_000);

  it('every zsdx sprite in both syntaxes, every animation, from made-up sheets', async () => {
    const all = documents(path.join(CORPUS, 'solarus', 'zsdx'));
    if (all.length === 0) return;
    expect(all.length).toBe(414);
    const sheets = path.join(out, 'sprites');
    for (const f of all) measureSheets(f);
    writeSheets(sheets);
    let checked = 0;
    for (const [k, f] of all.entries()) {
      const c = await compare(f, { images: sheets, tileset: path.join(sheets, 'tileset.png') }, (i, count) => i === k % count);
      expect(c, f).toBeGreaterThan(0);
      checked += c;
    }
    expect(checked).toBeGreaterThan(1000);
  }, 180_000);
});

// End to end in Chromium, every sample and corpus file against render: test/web/every-file.test.ts.
