/**
 * `sprat check` on CorsixTH graphics: AnimationEncoder scripts (their
 * sprite images and recolour maps), CTHG animations with recolour palettes
 * (`--recolour`: there, decoding, 256 colours), and Theme Hospital's data
 * layout beside them (sprite tables NAME.tab into NAME.dat, palettes).
 * Each kind of broken reference is made here, in a temporary folder.
 */
import { describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { tempTree } from '../helpers/tree.js';
import { CORPUS, SAMPLES } from '../helpers/paths.js';
import { encodeIndexedPng } from '../../src/render/indexed.js';
import { encodePng } from '../../src/render/png.js';

const { dir: tmp, place } = tempTree('sprat-check-corsixth-');
const ENCODER = path.join(CORPUS, 'cthg/encoder-test');

/** The encoder test folder copied to `name`, with `change` applied. */
function encoderCopy(name: string, change: (dir: string) => void): string {
  const d = path.join(tmp, name);
  fs.cpSync(ENCODER, d, { recursive: true });
  for (const f of fs.readdirSync(d)) fs.chmodSync(path.join(d, f), 0o644);
  change(d);
  return d;
}

type Report = {
  files: { path: string; format: string | null; problems: { severity: string; message: string; line?: number; offset?: number }[] }[];
};

async function check(args: string[]): Promise<{ code: number; report: Report; problems: (f: string) => string[] }> {
  const r = await runCli(['check', ...args, '--json'], tmp);
  expect(r.stderr).toBe('');
  const report = JSON.parse(r.stdout) as Report;
  const problems = (f: string) =>
    report.files.find((x) => x.path.split(path.sep).join('/') === f)?.problems.map((p) => `${p.severity}: ${p.message}`) ?? [
      '(not checked)',
    ];
  return { code: r.code, report, problems };
}

/** A 6-byte sprite table entry: u32 LE offset, u8 width, u8 height. */
function entry(at: number, w: number, h: number): number[] {
  return [at & 255, (at >> 8) & 255, (at >> 16) & 255, at >>> 24, w, h];
}

describe('sprat check: CorsixTH graphics', () => {
  it('the corpus folder (a real CTHG file, the encoder test) has no errors', async () => {
    const r = await runCli(['check', path.join(CORPUS, 'cthg'), '--json'], tmp);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.files.map((f) => f.format).sort()).toEqual(['cthg', 'cthg', 'cthg-script']);
  });

  it("a script's sprite image that is not there is an error at its element", async () => {
    encoderCopy('nobase', (d) => fs.rmSync(path.join(d, 'head_b.png')));
    const { code, problems } = await check(['nobase']);
    expect(code).toBe(1);
    expect(problems('nobase/anims.txt').filter((p) => p.startsWith('error'))).toEqual([
      expect.stringMatching(/head_b\.png.*(not found|no such)/i),
    ]);
  });

  it('a recolour map smaller than its sprite, or not 8-bit indexed, is an error', async () => {
    encoderCopy('smallmap', (d) =>
      fs.writeFileSync(
        path.join(d, 'recol.png'),
        encodeIndexedPng(4, 4, new Uint8Array(16), [
          [0, 0, 0],
          [255, 0, 0],
        ]),
      ),
    );
    encoderCopy('rgbamap', (d) =>
      fs.writeFileSync(path.join(d, 'recol.png'), encodePng({ width: 80, height: 100, data: new Uint8Array(80 * 100 * 4) })),
    );
    const { problems } = await check(['smallmap', 'rgbamap']);
    expect(problems('smallmap/anims.txt').filter((p) => p.startsWith('error'))).toEqual([
      expect.stringMatching(/recolour image "recol\.png" is not (wide|high) enough/),
    ]);
    expect(problems('rgbamap/anims.txt').filter((p) => p.startsWith('error'))).toEqual([
      expect.stringMatching(/recolour image "recol\.png" is 8-bit RGBA; the encoder reads only 8-bit indexed/),
    ]);
  });

  it("--recolour: each palette must be there, decode and hold 256 colours (the spec's table); a good one checks clean", async () => {
    place('anim/fan.dat', fs.readFileSync(path.join(SAMPLES, 'cthg/fan.dat')));
    place('pal/good.png', fs.readFileSync(path.join(SAMPLES, 'cthg/fan_palette.png')));
    place('pal/narrow.png', encodePng({ width: 16, height: 1, data: new Uint8Array(16 * 4).fill(255) }));
    place('pal/broken.png', fs.readFileSync(path.join(SAMPLES, 'cthg/fan_palette.png')).subarray(0, 30));
    let r = await check(['anim', '--recolour', '1=pal/good.png']);
    expect(r.problems('anim/fan.dat')).toEqual([]);
    r = await check(['anim', '--recolour', '1=pal/narrow.png']);
    expect(r.code).toBe(1);
    expect(r.problems('anim/fan.dat')).toEqual([
      expect.stringMatching(
        /^error: --recolour palette for layer 1 "pal[\\/]narrow\.png": its first row has 16 colours; a recolour table has 256/,
      ),
    ]);
    r = await check(['anim', '--recolour', '1=pal/missing.png,2=pal/broken.png']);
    expect(r.problems('anim/fan.dat')).toEqual([
      expect.stringMatching(/^error: --recolour palette for layer 1 "pal[\\/]missing\.png" not found/),
    ]);
    r = await check(['anim', '--recolour', '2=pal/broken.png']);
    expect(r.problems('anim/fan.dat')).toEqual([expect.stringMatching(/^error: --recolour palette for layer 2 "pal[\\/]broken\.png": /)]);
  });

  it('render refuses a recolour palette narrower than 256 colours (it used to fill the rest with grey, silently)', async () => {
    const r = await runCli(['render', 'anim/fan.dat', '--recolour', '1=pal/narrow.png', '-o', 'out.png'], tmp);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^sprat: error: anim[\\/]fan\.dat: --recolour palette for layer 1 "pal[\\/]narrow\.png": its first row has 16 colours; a recolour table has 256/,
    );
    expect(fs.existsSync(path.join(tmp, 'out.png'))).toBe(false);
  });

  it("Theme Hospital's data layout: sprite tables into their data files, palettes of 256 6-bit entries, MPalette.dat for Data/", async () => {
    const pal = new Uint8Array(768).fill(63);
    // a good folder: two sprites inside VSPR-0.DAT (an RNC-packed file: its unpacked size counts), a zero-size one anywhere
    const rnc = new Uint8Array(40);
    rnc.set([0x52, 0x4e, 0x43, 1, 0, 0, 1, 0]); // "RNC", method 1, unpacked 256 bytes
    place('th/good/Data/VSPR-0.TAB', new Uint8Array([...entry(0, 8, 8), ...entry(200, 4, 4), ...entry(99999, 0, 0)]));
    place('th/good/Data/VSPR-0.DAT', rnc);
    place('th/good/Data/MPalette.dat', pal);
    place('th/good/QData/Font01V.tab', new Uint8Array(entry(0, 5, 7)));
    place('th/good/QData/Font01V.dat', new Uint8Array(10));
    place('th/good/QData/Town01V.pal', pal);
    let r = await check(['th/good']);
    expect(r.code).toBe(0);
    expect(r.problems('th/good/Data/VSPR-0.TAB')).toEqual([]);
    expect(r.problems('th/good/Data/MPalette.dat')).toEqual([]);
    expect(r.problems('th/good/QData/Town01V.pal')).toEqual([]);
    expect(r.report.files.find((f) => f.path.endsWith('VSPR-0.TAB'))!.format).toBe('th-sprite-table');

    // broken: a sprite past the end of its data, a trailing partial entry, a table without data, palettes cut short or out of range
    const badPal = pal.slice();
    badPal[7] = 64;
    badPal[300] = 200;
    place('th/bad/Data/VSPR-0.TAB', new Uint8Array([...entry(0, 8, 8), ...entry(64, 2, 2), 1, 2]));
    place('th/bad/Data/VSPR-0.DAT', new Uint8Array(64));
    place('th/bad/Data/VBLK-0.TAB', new Uint8Array(entry(0, 64, 32)));
    place('th/bad/QData/Font01V.tab', new Uint8Array(entry(0, 5, 7)));
    place('th/bad/QData/Font01V.dat', new Uint8Array(10));
    place('th/bad/QData/Short.pal', pal.subarray(0, 700));
    place('th/bad/QData/Range.pal', badPal);
    r = await check(['th/bad']);
    expect(r.code).toBe(1);
    expect(r.problems('th/bad/Data/VBLK-0.TAB')).toEqual([
      'error: the sprite data file VBLK-0.dat the table indexes is not there',
      'warning: the Data folder holds sprite tables but no MPalette.dat, the palette CorsixTH draws them with',
    ]);
    expect(r.problems('th/bad/Data/VSPR-0.TAB')).toEqual([
      'warning: a sprite table is 6-byte entries; the last 2 bytes are no entry (the game ignores them) (at byte 12)',
      'error: sprite 1 (2x2): its data at byte 64 lies past the end of VSPR-0.DAT (64 bytes) (at byte 6)',
    ]);
    expect(r.problems('th/bad/QData/Short.pal')).toEqual([
      'error: a palette is 256 entries of 3 bytes (768 bytes); this file has 700 bytes, and CorsixTH refuses it (at byte 700)',
    ]);
    expect(r.problems('th/bad/QData/Range.pal')).toEqual([
      'warning: palette entry 2: G is 64, out of the 6-bit range 0-63 (the game keeps its low 6 bits: 0) (and 1 more components) (at byte 7)',
    ]);
    // a .pal outside a CorsixTH data folder is nobody's business
    place('other/colours.pal', 'JASC-PAL\n0100\n1\n0 0 0\n');
    r = await check(['other']);
    expect(r.code).toBe(0);
    expect(r.report.files).toEqual([]);
  });
});
