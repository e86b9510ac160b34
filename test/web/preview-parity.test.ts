/**
 * The viewer draws what `sprat render` draws (issue 9): every picture the
 * viewer's code (web/preview.ts) shows for a sample or corpus file is
 * rendered again through the CLI (`runCli(['render', ...])` to a PNG or
 * APNG, decoded), and the pixels and delays must be identical.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { decodeApng } from 'fast-png';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { load } from '../../src/api.js';
import { fsResourceLoader } from '../../src/node/fs.js';
import { delayFraction } from '../../src/render/apng.js';
import { decodePng } from '../../src/render/png.js';
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
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function cliArgs(options: Record<string, string>): string[] {
  return Object.entries(options).flatMap(([k, v]) => [`--${k}`, v]);
}

let n = 0;

/**
 * Every animation the viewer shows for `file` (at most `most` of them,
 * spread over the list) against `sprat render` with the same options.
 */
async function compare(file: string, extra: Record<string, string> = {}, most = Infinity): Promise<number> {
  const loaded = load(fs.readFileSync(file), path.basename(file));
  // The command line runs from the document's folder (below): places are named relative to it in both.
  const resources = fsResourceLoader(path.dirname(file), { cwd: path.dirname(file) });
  let preview;
  try {
    preview = await previewOf(loaded, resources, extra);
  } catch (e) {
    // Nothing the viewer can show: the command line refuses it the same way.
    const r = await runCli(['render', file, '-o', path.join(out, `x${n++}.png`), ...cliArgs(extra)], path.dirname(file));
    expect(r.code, file).not.toBe(0);
    expect(r.stderr, file).toContain((e as Error).message);
    return 0;
  }
  const step = Math.max(1, Math.ceil(preview.animations.length / most));
  let checked = 0;
  for (let i = 0; i < preview.animations.length; i += step) {
    const a = preview.animations[i]!;
    const what = `${file} ${a.label}`;
    const animated = a.delaysMs.length > 0;
    const target = path.join(out, `p${n++}.${animated ? 'apng' : 'png'}`);
    // Run from the document's folder: paths the user types (--tileset) are relative to the current folder, as the viewer takes them relative to the document.
    const r = await runCli(['render', file, '-o', target, ...cliArgs(a.options)], path.dirname(file));
    expect([r.code, r.stderr], what).toEqual([0, '']);
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
    checked++;
  }
  return checked;
}

function files(dir: string, ext: RegExp): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => ext.test(f))
    .map((f) => path.join(dir, f))
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

  it('the CorsixTH plant and the encoder test file', async () => {
    const plant = path.join(CORPUS, 'cthg', 'plant_anim.dat');
    if (!fs.existsSync(plant)) return;
    expect(await compare(plant, {}, 12)).toBeGreaterThanOrEqual(5);
    expect(await compare(path.join(CORPUS, 'cthg', 'encoder-test', 'gen_anims.dat'), {}, 12)).toBeGreaterThan(0);
  }, 120_000);

  it('SpriteTile levels in flat colours', async () => {
    const levels = files(path.join(CORPUS, 'spritetile'), /\.bytes$/).filter((_, i) => i % 4 === 0);
    if (levels.length === 0) return;
    for (const f of levels) expect(await compare(f), f).toBe(1);
  }, 120_000);

  it('a sample of the Solarus sprites (both syntaxes, and the quest editor sprites with their sheets)', async () => {
    const sprites = [
      ...files(path.join(CORPUS, 'solarus', 'zsdx'), /\.dat$/).filter((_, i) => i % 60 === 0),
      ...files(path.join(CORPUS, 'solarus', 'quest-editor-initial', 'data', 'sprites'), /\.dat$/).filter((_, i) => i % 6 === 0),
    ];
    if (sprites.length === 0) return;
    let checked = 0;
    for (const f of sprites) checked += await compare(f, {}, 4);
    expect(checked).toBeGreaterThan(10);
  }, 180_000);
});
