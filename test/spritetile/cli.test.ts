import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { CORPUS } from '../helpers/paths.js';
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
