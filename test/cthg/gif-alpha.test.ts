/**
 * GIF output of CTHG frames with 50 % and 75 % alpha (element flags 0x4 and
 * 0x8): GIF transparency is one bit, so `render` says once which frames had
 * partial alpha and what was done with it; `--dither` makes it an ordered
 * (4x4 Bayer) pattern, 50 % a checkerboard. APNG keeps the alpha.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { GifReader } from 'omggif';
import { readCthg, renderCthg } from '../../src/formats/cthg/index.js';
import { FLAG_ALPHA_50 } from '../../src/formats/cthg/model.js';
import { fsResourceLoader } from '../../src/node/fs.js';
import { runCli } from '../helpers/cli.js';
import { CORPUS, SAMPLES } from '../helpers/paths.js';

/** Made by CorsixTH's real AnimationEncoder: walker's north view has a frame at 50 % and one at 75 %. */
const GEN = path.join(CORPUS, 'cthg', 'encoder-test', 'gen_anims.dat');
const FAN = path.join(SAMPLES, 'cthg', 'fan.dat');
const out = mkdtempSync(path.join(tmpdir(), 'sprat-gif-alpha-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

function gifFrames(file: string): Uint8Array[] {
  const r = new GifReader(new Uint8Array(readFileSync(file)));
  return Array.from({ length: r.numFrames() }, (_, i) => {
    const px = new Uint8Array(r.width * r.height * 4);
    r.decodeAndBlitFrameRGBA(i, px);
    return px;
  });
}

describe('CTHG to GIF with partial alpha', () => {
  it('the real file: the frame at 50 % is in the element flags', () => {
    const doc = readCthg(new Uint8Array(readFileSync(GEN)));
    const north = doc.animations.find((a) => a.name === 'walker' && a.views.north !== null)!;
    expect(doc.frames[north.views.north! + 1]!.elements.some((e) => e.flags & FLAG_ALPHA_50)).toBe(true);
  });

  it('names the frames whose partial alpha GIF thresholds, once', async () => {
    const gif = path.join(out, 'north.gif');
    const r = await runCli(['render', GEN, '--animation', 'walker', '--view', 'north', '-o', gif]);
    expect(r.code).toBe(0);
    const notes = r.stderr.split('\n').filter((l) => l.includes('partial'));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(
      /^.*gen_anims\.dat: note: GIF has no partial transparency: \d+ pixels of partial alpha in frames 0-2 of the north view of "walker" were made opaque \(alpha 50 % or more\) or transparent \(less\); use \.apng or --dither$/,
    );
    // APNG keeps alpha: no note.
    const apng = await runCli(['render', GEN, '--animation', 'walker', '--view', 'north', '-o', path.join(out, 'north.apng')]);
    expect(apng.code).toBe(0);
    expect(apng.stderr).not.toMatch(/partial/);
  });

  it('one frame is named as the file frame it is (as in inspect --json)', async () => {
    const doc = readCthg(new Uint8Array(readFileSync(GEN)));
    const first = doc.animations.find((a) => a.name === 'walker' && a.views.north !== null)!.views.north!;
    const r = await runCli(['render', GEN, '--animation', 'walker', '--view', 'north', '--frame', '1', '-o', path.join(out, 'f1.gif')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`partial alpha in frame ${first + 1} were made opaque`));
  });

  it('no note for frames without partial alpha', async () => {
    const r = await runCli(['render', GEN, '--animation', 'walker', '--view', 'east', '-o', path.join(out, 'east.gif')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });

  it('--dither: the frame at 50 % is a checkerboard of opaque and transparent pixels', async () => {
    const gif = path.join(out, 'dither.gif');
    const r = await runCli(['render', GEN, '--animation', 'walker', '--view', 'north', '--dither', '-o', gif]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /partial alpha in frames 0-2 of the north view of "walker" were dithered to opaque and transparent \(--dither\)/,
    );
    const doc = readCthg(new Uint8Array(readFileSync(GEN)));
    const drawn = await renderCthg(doc, { animation: 'walker', view: 'north' }, fsResourceLoader(path.dirname(GEN)));
    const frames = gifFrames(gif);
    const { width } = drawn.frames[1]!;
    let half = 0;
    for (let i = 0; i < width * drawn.frames[1]!.height; i++) {
      const a = drawn.frames[1]!.data[i * 4 + 3]!;
      const got = frames[1]![i * 4 + 3];
      if (a === 0 || a === 255) expect(got).toBe(a);
      else if (a === 127 || a === 128) {
        half++;
        const x = i % width;
        const y = Math.floor(i / width);
        expect(got).toBe((x + y) % 2 === 0 ? 255 : 0);
      }
    }
    expect(half).toBeGreaterThan(100);
    // Without --dither, the same pixels are all opaque.
    const plain = gifFrames(path.join(out, 'north.gif'));
    for (let i = 0; i < width * drawn.frames[1]!.height; i++) {
      const a = drawn.frames[1]!.data[i * 4 + 3]!;
      if (a === 128) expect(plain[1]![i * 4 + 3]).toBe(255);
    }
  });

  it('the sample fan: the back view at 50 % and the breeze at 25 % get the note', async () => {
    const r = await runCli(['render', FAN, '--view', 'north', '-o', path.join(out, 'fan.gif')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /note: GIF has no partial transparency: \d+ pixels of partial alpha in frames 0-3 of the north view of "desk_fan"/,
    );
  });

  it('many files with --image gif --dither: each dithered, each note once under its file', async () => {
    const dir = path.join(out, 'many');
    const r = await runCli(['render', GEN, FAN, '--image', 'gif', '--dither', '--view', 'north', '-o', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/render: 2 written, 0 unchanged, 0 failed/);
    expect(r.stderr.match(/gen_anims\.dat: note: GIF has no partial transparency: .* were dithered/g)).toHaveLength(1);
    expect(r.stderr.match(/fan\.dat: note: GIF has no partial transparency: .* were dithered/g)).toHaveLength(1);
    expect(gifFrames(path.join(dir, 'fan.gif'))).toHaveLength(4);
  });

  it('--dither is for GIF output only (exit 2)', async () => {
    const png = await runCli(['render', GEN, '--animation', 'walker', '--view', 'north', '--dither', '-o', path.join(out, 'x.png')]);
    expect(png.code).toBe(2);
    expect(png.stderr).toMatch(/--dither applies to GIF output/);
    const batch = await runCli(['render', GEN, FAN, '--dither', '-o', path.join(out, 'batch')]);
    expect(batch.code).toBe(2);
    expect(batch.stderr).toMatch(/--dither applies to GIF output: add --image gif/);
  });
});
