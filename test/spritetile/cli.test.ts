import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { CORPUS, SAMPLES } from '../helpers/paths.js';
import { compress, decompress } from '../../src/lzf/index.js';
import { decodePng, encodePng } from '../../src/render/png.js';
import { createImage, fillImage } from '../../src/render/image.js';
import { addLayer, createLevel, setCell, writeSpriteTile } from '../../src/formats/spritetile/index.js';

const dir = path.join(CORPUS, 'spritetile');
const files = readdirSync(dir).filter((f) => f.endsWith('.bytes'));

describe('sprat with SpriteTile levels', () => {
  it('convert with no change gives identical bytes for every corpus level; --lzf picks the flavour', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sprat-st-'));
    try {
      for (const f of files) {
        const out = path.join(tmp, f);
        const r = await runCli(['convert', path.join(dir, f), out]);
        expect(r.code, r.stderr).toBe(0);
        expect(Buffer.from(readFileSync(out)).equals(readFileSync(path.join(dir, f))), f).toBe(true);
      }
      const src = path.join(dir, files[0]!);
      const original = decompress(new Uint8Array(readFileSync(src)));
      for (const lzf of ['clzf2', 'liblzf', 'best']) {
        const out = path.join(tmp, `x-${lzf}.bytes`);
        const r = await runCli(['convert', src, out, '--lzf', lzf]);
        expect(r.code, r.stderr).toBe(0);
        expect(Buffer.from(decompress(new Uint8Array(readFileSync(out)))).equals(Buffer.from(original))).toBe(true);
      }
      const bad = await runCli(['convert', src, path.join(tmp, 'y.bytes'), '--lzf', 'zip']);
      // README: exit 2 when the command line is wrong (an unknown --lzf flavour is a wrong option value)
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/option --lzf must be one of clzf2, liblzf, best, not "zip"/);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('inspect, inspect --json and validate', async () => {
    const f = path.join(dir, 'stormsword-grassLevel-d4719a8.bytes');
    const text = await runCli(['inspect', f]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^SpriteTile level, version 2/);
    const json = await runCli(['inspect', f, '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).format).toBe('spritetile');
    const v = await runCli(['validate', ...files.map((x) => path.join(dir, x))]);
    expect(v.code).toBe(0);
    expect(v.stdout.split('\n').filter((l) => l.endsWith(': ok'))).toHaveLength(16);
  });

  it('reports a damaged level in one line with the offset', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sprat-st-'));
    try {
      const bytes = new Uint8Array(readFileSync(path.join(dir, files[0]!)));
      const cut = path.join(tmp, 'cut.bytes');
      writeFileSync(cut, bytes.subarray(0, bytes.length - 1));
      const r = await runCli(['validate', cut]);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/cut\.bytes: error: .*at byte \d+/);
      // README: "An error is one line on stderr, `sprat: error: FILE: MESSAGE`, where MESSAGE names the byte offset (`at byte 1234`)"
      const i = await runCli(['inspect', cut]);
      expect(i.code).toBe(1);
      expect(i.stderr).toMatch(/^sprat: error: [^\n]*cut\.bytes: damaged LZF stream in the file: [^\n]* \(at byte \d+\)\n$/);
      const raw = decompress(bytes);
      raw[15] = 7; // the endianness byte
      const bad = path.join(tmp, 'bad.bytes');
      writeFileSync(bad, compress(raw));
      const b = await runCli(['inspect', bad]);
      expect(b.code).toBe(1);
      expect(b.stderr).toMatch(/^sprat: error: [^\n]*bad\.bytes: in the decompressed level: endianness byte 7 [^\n]* \(at byte 15\)\n$/);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('renders with flat colours and with a tileset', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sprat-st-'));
    try {
      const level = createLevel();
      const l = addLayer(level, { width: 2, height: 1 });
      setCell(level, l, 0, 0, { set: 0, tile: 1 });
      setCell(level, l, 1, 0, { set: 1, tile: 0, flipX: true });
      writeFileSync(path.join(tmp, 'l.bytes'), writeSpriteTile(level));
      const sheet = createImage(8, 4);
      fillImage(sheet, 255, 0, 0, 255);
      for (let y = 0; y < 4; y++) for (let x = 4; x < 8; x++) sheet.data.set([0, 0, 255, 255], (y * 8 + x) * 4);
      writeFileSync(path.join(tmp, 'sheet.png'), encodePng(sheet));
      let r = await runCli(['render', path.join(tmp, 'l.bytes'), '-o', path.join(tmp, 'a.png')]);
      expect(r.code, r.stderr).toBe(0);
      expect(decodePng(new Uint8Array(readFileSync(path.join(tmp, 'a.png')))).width).toBe(32);
      // A --tileset path is relative to the current folder (here: the level's).
      r = await runCli(['render', 'l.bytes', '-o', 'b.png', '--tileset', '0=sheet.png:4x4'], tmp);
      expect(r.code, r.stderr).toBe(0);
      const img = decodePng(new Uint8Array(readFileSync(path.join(tmp, 'b.png'))));
      expect([img.width, img.height]).toEqual([8, 4]);
      expect(Array.from(img.data.subarray(0, 4))).toEqual([0, 0, 255, 255]); // tile 1 of set 0 is blue
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe('convert to Tiled with --tileset (the files a client needs)', () => {
  it('writes the tile images beside the map, on the tiles grid, drawn as SpriteTile draws it; a turn Tiled cannot show is a note', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sprat-st-tiled-'));
    try {
      const level = path.join(SAMPLES, 'spritetile/level.bytes');
      const tiles = path.join(SAMPLES, 'spritetile/tiles.png');
      const out = path.join(dir, 'map.tmj');
      const r = await runCli(['convert', level, out, '--to', 'tiled', '--tileset', `0=${tiles}:16x16`]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(`wrote ${out}\nwrote ${path.join(dir, 'map-set_0.png')}\n`);
      expect(r.stderr).toMatch(/note: tiled: 1 cell\(s\) turned by an angle Tiled cannot show \(45°\) are drawn unturned by Tiled/);
      const map = JSON.parse(readFileSync(out, 'utf8'));
      expect([map.tilewidth, map.tileheight, map.tilesets[0].tilewidth, map.tilesets[0].image]).toEqual([16, 16, 16, 'map-set_0.png']);
      expect(decodePng(new Uint8Array(readFileSync(path.join(dir, 'map-set_0.png'))))).toEqual(
        decodePng(new Uint8Array(readFileSync(tiles))),
      );
      // The map draws as the level does, but for the one cell turned by 45°.
      const a = await runCli(['render', out, '-o', path.join(dir, 'map.png')]);
      const b = await runCli(['render', level, '-o', path.join(dir, 'level.png'), '--tileset', `0=${tiles}:16x16`]);
      expect([a.code, b.code]).toEqual([0, 0]);
      const pa = decodePng(new Uint8Array(readFileSync(path.join(dir, 'map.png'))));
      const pb = decodePng(new Uint8Array(readFileSync(path.join(dir, 'level.png'))));
      expect([pa.width, pa.height]).toEqual([pb.width, pb.height]);
      let differ = 0;
      for (let i = 0; i < pa.data.length; i += 4) if (pa.data.subarray(i, i + 4).some((v, k) => v !== pb.data[i + k])) differ++;
      expect(differ).toBeGreaterThan(0);
      expect(differ).toBeLessThanOrEqual(16 * 16);
      // Without --tileset the map names images it does not write, as before (a note says so).
      const bare = await runCli(['convert', level, path.join(dir, 'bare.tmj'), '--to', 'tiled']);
      expect(bare.code).toBe(0);
      expect(bare.stderr).toMatch(/has no pixels/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
