/**
 * The one resource layer and safe file reading: where
 * every command looks for the files a document or the user names, what it
 * reads (regular files only, within --max-file-bytes), and how images are
 * checked before they are decoded.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIsprite, writeIsprite } from '../../src/formats/isprite/index.js';
import { pngChunk } from '../../src/render/apng.js';
import { createImage, fillImage } from '../../src/render/image.js';
import { decodePng, encodePng } from '../../src/render/png.js';
import { runCli } from '../helpers/cli.js';
import { SAMPLES } from '../helpers/paths.js';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-res-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A fresh folder under the test's temp folder. */
function folder(name: string): string {
  const d = path.join(dir, name);
  fs.mkdirSync(d, { recursive: true });
  return d;
}

/** A 1-bit grey PNG of width x height whose IDAT is `idat` (made by hand: only the header is ever read). */
function bitPng(width: number, height: number, idat: Uint8Array): Uint8Array {
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // grey
  const parts = [
    new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', idat),
    pngChunk('IEND', new Uint8Array()),
  ];
  return new Uint8Array(Buffer.concat(parts));
}

/** An Aseprite sheet document naming `image`, with one 1x1 frame. */
function asepriteJson(image: string): string {
  return JSON.stringify({
    frames: {
      f0: {
        frame: { x: 0, y: 0, w: 1, h: 1 },
        rotated: false,
        trimmed: false,
        spriteSourceSize: { x: 0, y: 0, w: 1, h: 1 },
        sourceSize: { w: 1, h: 1 },
        duration: 100,
      },
    },
    meta: { app: 'https://www.aseprite.org/', image, size: { w: 1, h: 1 }, frameTags: [] },
  });
}

describe('paths the user types are relative to the current folder', () => {
  it('--recolour: found in the current folder, not beside the document; a missing one is named with where it was looked for', async () => {
    const d = folder('recolour');
    const work = folder('recolour/work');
    fs.copyFileSync(path.join(SAMPLES, 'cthg/fan.dat'), path.join(d, 'fan.dat'));
    fs.copyFileSync(path.join(SAMPLES, 'cthg/fan_palette.png'), path.join(work, 'pal.png'));
    fs.copyFileSync(path.join(SAMPLES, 'cthg/fan_palette.png'), path.join(d, 'beside.png'));
    let r = await runCli(['render', '../fan.dat', '--recolour', '3=pal.png', '-o', 'a.png'], work);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // beside.png sits beside fan.dat, not in the current folder: not found, and the message says where it looked.
    r = await runCli(['render', '../fan.dat', '--recolour', '3=beside.png', '-o', 'b.png'], work);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('sprat: error: ../fan.dat: --recolour palette for layer 3 "beside.png" not found (looked for beside.png)\n');
    r = await runCli(['render', '../fan.dat', '--recolour', '3=../beside.png', '-o', 'b.png'], work);
    expect(r.code, r.stderr).toBe(0);
    expect(fs.existsSync(path.join(work, 'b.png'))).toBe(true);
  });

  it('--tileset (SpriteTile SET=PATH:WxH) and --images are resolved against the current folder', async () => {
    const d = folder('tileset');
    const tiles = createImage(8, 8);
    fillImage(tiles, 255, 0, 0, 255);
    fs.writeFileSync(path.join(d, 'tiles.png'), encodePng(tiles));
    const level = path.join(SAMPLES, 'spritetile/level.bytes');
    let r = await runCli(['render', level, '--tileset', '0=tiles.png:8x8', '-o', 'l.png'], d);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    r = await runCli(['render', level, '--tileset', '0=nope.png:8x8', '-o', 'm.png'], d);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/: --tileset image for set 0 "nope.png" not found \(looked for nope.png\)\n$/);
  });
});

describe('paths a document names are relative to the document', () => {
  it('a sheet beside the document is found from any current folder; a missing one names the place looked at', async () => {
    const d = folder('docrel/sub');
    fs.writeFileSync(path.join(d, 'sheet.png'), encodePng(createImage(1, 1)));
    fs.writeFileSync(path.join(d, 'a.json'), asepriteJson('sheet.png'));
    fs.writeFileSync(path.join(d, 'b.json'), asepriteJson('gone.png'));
    const top = path.join(dir, 'docrel');
    let r = await runCli(['render', 'sub/a.json', '-o', 'a.png'], top);
    expect(r.code, r.stderr).toBe(0);
    r = await runCli(['render', 'sub/b.json', '-o', 'b.png'], top);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^sprat: error: sub\/b.json: \$.meta.image: the sheet "gone.png" not found \(looked for sub\/gone.png\) \(at line 1, column \d+\)\n$/,
    );
  });
});

describe("Solarus images: from the quest's sprites/ folder", () => {
  let quest: string;
  beforeAll(() => {
    quest = folder('quest');
    fs.mkdirSync(path.join(quest, 'data/sprites/a/b/c/d'), { recursive: true });
    fs.mkdirSync(path.join(quest, 'data/sprites/enemies'), { recursive: true });
    fs.writeFileSync(path.join(quest, 'data/quest.dat'), 'quest{}\n');
    fs.copyFileSync(path.join(SAMPLES, 'solarus/sprites/slime.dat'), path.join(quest, 'data/sprites/a/b/c/d/slime.dat'));
    fs.copyFileSync(path.join(SAMPLES, 'solarus/sprites/enemies/slime.png'), path.join(quest, 'data/sprites/enemies/slime.png'));
  });

  it('a sprite 4 folders deep in a quest renders and converts (the quest root found by walking up to quest.dat)', async () => {
    const sprite = 'data/sprites/a/b/c/d/slime.dat';
    let r = await runCli(['render', sprite, '-o', 'frame.png', '--frame', '0'], quest);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(decodePng(new Uint8Array(fs.readFileSync(path.join(quest, 'frame.png')))).width).toBe(16);
    r = await runCli(['convert', sprite, 'deep.json', '--to', 'aseprite'], quest);
    expect(r.code, r.stderr).toBe(0);
    expect(fs.existsSync(path.join(quest, 'deep.png'))).toBe(true);
  });

  it('a sprites/ folder marks the quest too (no quest.dat)', async () => {
    const q = folder('quest2');
    fs.mkdirSync(path.join(q, 'sprites/x/y/z/w'), { recursive: true });
    fs.mkdirSync(path.join(q, 'sprites/enemies'), { recursive: true });
    fs.copyFileSync(path.join(SAMPLES, 'solarus/sprites/slime.dat'), path.join(q, 'sprites/x/y/z/w/slime.dat'));
    fs.copyFileSync(path.join(SAMPLES, 'solarus/sprites/enemies/slime.png'), path.join(q, 'sprites/enemies/slime.png'));
    const r = await runCli(['render', 'sprites/x/y/z/w/slime.dat', '-o', 's.png', '--frame', '0'], q);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('outside any quest: the error names every place searched and --images; convert takes --images (relative to the current folder)', async () => {
    const lone = folder('lone');
    fs.copyFileSync(path.join(SAMPLES, 'solarus/sprites/slime.dat'), path.join(lone, 'slime.dat'));
    let r = await runCli(['render', 'lone/slime.dat', '-o', 'x.png'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'sprat: error: lone/slime.dat: image "enemies/slime.png" not found (looked for lone/enemies/slime.png); the sprite is in no quest (no folder above it holds quest.dat or sprites/): give the quest\'s sprites/ folder with --images DIR\n',
    );
    r = await runCli(['convert', 'lone/slime.dat', 'lone.json', '--to', 'aseprite', '--images', 'quest/data/sprites'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(fs.existsSync(path.join(dir, 'lone.png'))).toBe(true);
    r = await runCli(['render', 'slime.dat', '-o', 'y.png', '--images', '../quest/data/sprites', '--frame', '0'], lone);
    expect(r.code, r.stderr).toBe(0);
    // A wrong --images: the conversion says which image and where it looked.
    r = await runCli(['convert', 'lone/slime.dat', 'lone2.json', '--to', 'aseprite', '--images', 'nowhere'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /: cannot write the sheet: image "enemies\/slime.png" not found \(looked for nowhere\/enemies\/slime.png\)\n$/,
    );
  });

  it('convert takes the resource options of the formats that use them, and rejects the others', async () => {
    let r = await runCli(
      ['convert', path.join(SAMPLES, 'solarus/sprites/slime.dat'), 'lua.dat', '--to', 'solarus-lua', '--tileset', 'x.png'],
      dir,
    );
    expect(r.code, r.stderr).toBe(0);
    r = await runCli(['convert', path.join(SAMPLES, 'cthg/fan.dat'), 'fan2.dat', '--images', 'x'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/option --images does not apply to cthg files/);
  });
});

describe('one image loader for render and convert', () => {
  it('an ISPRITE texture named "hero.png" renders and converts to Aseprite alike', async () => {
    const d = folder('texname');
    const sprite = createIsprite(12);
    sprite.textures.push({ path: 'hero.png', nearest: true });
    sprite.slices.push({ texture: 0, rotated: false, x: 0, y: 0, width: 4, height: 4 });
    sprite.frames.push({
      holdTime: 1,
      loopPoint: false,
      label: '',
      triggers: '',
      notes: '',
      elements: [{ type: 'graphic', expanded: false, name: null, slice: 0, x: 0, y: 0, flipX: false, flipY: false }],
    });
    sprite.tree.push({ kind: 'sequence', name: 'idle', loopPoint: 0, followUp: '', frames: [0] });
    fs.writeFileSync(path.join(d, 's.isprite'), writeIsprite(sprite));
    const tex = createImage(4, 4);
    fillImage(tex, 0, 255, 0, 255);
    fs.writeFileSync(path.join(d, 'hero.png'), encodePng(tex));
    let r = await runCli(['render', 's.isprite', '-o', 'r.png'], d);
    expect(r.code, r.stderr).toBe(0);
    r = await runCli(['convert', 's.isprite', 'conv.json', '--to', 'aseprite'], d);
    expect(r.code, r.stderr).toBe(0);
  });

  it('a BMP named .png is read by its content; a file that is neither is named', async () => {
    const d = folder('bmp');
    // 1x1 24-bit BMP, blue.
    const bmp = new Uint8Array(58);
    const v = new DataView(bmp.buffer);
    bmp.set([0x42, 0x4d]);
    v.setUint32(2, 58, true);
    v.setUint32(10, 54, true);
    v.setUint32(14, 40, true);
    v.setInt32(18, 1, true);
    v.setInt32(22, 1, true);
    v.setUint16(26, 1, true);
    v.setUint16(28, 24, true);
    bmp.set([255, 0, 0], 54);
    fs.writeFileSync(path.join(d, 'sheet.png'), bmp);
    fs.writeFileSync(path.join(d, 'a.json'), asepriteJson('sheet.png'));
    let r = await runCli(['render', 'a.json', '-o', 'o.png'], d);
    expect(r.code, r.stderr).toBe(0);
    expect([...decodePng(new Uint8Array(fs.readFileSync(path.join(d, 'o.png')))).data]).toEqual([0, 0, 255, 255]);
    fs.writeFileSync(path.join(d, 'text.png'), 'hello');
    fs.writeFileSync(path.join(d, 'b.json'), asepriteJson('text.png'));
    r = await runCli(['render', 'b.json', '-o', 'p.png'], d);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^sprat: error: b.json: \$.meta.image: the sheet "text.png": "text.png" is neither a PNG nor a BMP image \(at line 1, column \d+\)\n$/,
    );
  });
});

describe('only regular files are read', () => {
  it('a FIFO as input or as a sheet is refused at once (never blocks)', async () => {
    const d = folder('fifo');
    execFileSync('mkfifo', [path.join(d, 'in.isprite'), path.join(d, 'sheet.png')]);
    const started = Date.now();
    let r = await runCli(['inspect', 'in.isprite'], d);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('sprat: error: in.isprite: is a FIFO (named pipe), not a regular file\n');
    r = await runCli(['validate', 'in.isprite'], d);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('in.isprite: error: is a FIFO (named pipe), not a regular file\n');
    fs.writeFileSync(path.join(d, 'a.json'), asepriteJson('sheet.png'));
    r = await runCli(['render', 'a.json', '-o', 'o.png'], d);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^sprat: error: a.json: \$.meta.image: the sheet "sheet.png": cannot read sheet.png: is a FIFO \(named pipe\), not a regular file/,
    );
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('a socket as input is refused', async () => {
    const d = folder('socket');
    const server = net.createServer();
    await new Promise<void>((ok) => server.listen(path.join(d, 's.isprite'), ok));
    try {
      const r = await runCli(['inspect', 's.isprite'], d);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe('sprat: error: s.isprite: is a socket, not a regular file\n');
    } finally {
      await new Promise((ok) => server.close(ok));
    }
  });

  it('/dev/zero as a sheet, a palette or an input is refused, not read until memory runs out', async () => {
    const d = folder('devzero');
    fs.writeFileSync(path.join(d, 'a.json'), asepriteJson('/dev/zero'));
    let r = await runCli(['render', 'a.json', '-o', 'o.png'], d);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^sprat: error: a.json: \$.meta.image: the sheet "\/dev\/zero": cannot read \/dev\/zero: is a device, not a regular file/,
    );
    r = await runCli(['render', path.join(SAMPLES, 'cthg/fan.dat'), '--recolour', '3=/dev/zero', '-o', 'o.png'], d);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--recolour palette for layer 3 "\/dev\/zero": cannot read \/dev\/zero: is a device, not a regular file\n$/);
    r = await runCli(['convert', '/dev/zero', 'o.dat', '--from', 'cthg'], d);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('sprat: error: /dev/zero: is a device, not a regular file\n');
  });

  it('a folder is named as one', async () => {
    const d = folder('dir-as-file');
    fs.mkdirSync(path.join(d, 'sheet.png'));
    fs.writeFileSync(path.join(d, 'a.json'), asepriteJson('sheet.png'));
    let r = await runCli(['render', 'a.json', '-o', 'o.png'], d);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/the sheet "sheet.png": cannot read sheet.png: is a folder, not a file/);
    r = await runCli(['inspect', 'sheet.png'], d);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('sprat: error: sheet.png: is a folder, not a file\n');
  });

  it('--max-file-bytes caps inputs and resources, checked before reading', async () => {
    const d = folder('filecap');
    fs.copyFileSync(path.join(SAMPLES, 'cthg/fan.dat'), path.join(d, 'fan.dat'));
    const size = fs.statSync(path.join(d, 'fan.dat')).size;
    let r = await runCli(['inspect', 'fan.dat', '--max-file-bytes', String(size - 1)], d);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `sprat: error: fan.dat: reading fan.dat would need ${size} bytes, more than the limit of ${size - 1} (raise it with --max-file-bytes)\n`,
    );
    r = await runCli(['inspect', 'fan.dat', '--max-file-bytes', String(size)], d);
    expect(r.code).toBe(0);
    const noise = createImage(32, 32);
    for (let i = 0; i < noise.data.length; i++) noise.data[i] = (i * 7919) % 251;
    const png = encodePng(noise);
    fs.writeFileSync(path.join(d, 'sheet.png'), png);
    fs.writeFileSync(path.join(d, 'a.json'), asepriteJson('sheet.png'));
    r = await runCli(['render', 'a.json', '-o', 'o.png', '--max-file-bytes', String(png.length - 1)], d);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/reading sheet.png would need \d+ bytes, more than the limit of \d+ \(raise it with --max-file-bytes\)\n$/);
  });
});

describe('images are checked before decoding (the PNG bomb)', () => {
  it('a 1-bit 30000x30000 PNG of 110 KB is refused from its header: --max-pixels, and past 2^29 pixels at all', async () => {
    const d = folder('bomb');
    const bomb = bitPng(30000, 30000, new Uint8Array(110_000));
    fs.writeFileSync(path.join(d, 'bomb.png'), bomb);
    fs.writeFileSync(path.join(d, 'a.json'), asepriteJson('bomb.png'));
    const before = process.memoryUsage().rss;
    let r = await runCli(['render', 'a.json', '-o', 'o.png'], d);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^sprat: error: a.json: decoding bomb.png \(a 30000x30000 PNG image\) would need 900000000 pixels, more than the limit of 67108864 \(raise it with --max-pixels\)\n$/,
    );
    r = await runCli(['render', 'a.json', '-o', 'o.png', '--max-pixels', String(2 ** 40)], d);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^sprat: error: a.json: \$.meta.image: the sheet "bomb.png": image size 30000x30000 is too large to decode \(more than 536870912 pixels\) \(at byte 16 of bomb.png\) \(at line 1, column \d+\)\n$/,
    );
    expect(process.memoryUsage().rss - before).toBeLessThan(256 * 2 ** 20);
    expect(fs.existsSync(path.join(d, 'o.png'))).toBe(false);
  });

  it('a real 1-bit PNG over --max-pixels is refused before decoding, under it decoded', async () => {
    const d = folder('bomb2');
    const { zlibSync } = await import('fflate');
    const w = 64;
    const h = 64;
    const raw = new Uint8Array(h * (1 + w / 8));
    fs.writeFileSync(path.join(d, 'b.png'), bitPng(w, h, zlibSync(raw)));
    fs.writeFileSync(path.join(d, 'a.json'), asepriteJson('b.png'));
    let r = await runCli(['render', 'a.json', '-o', 'o.png', '--max-pixels', String(w * h - 1)], d);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /decoding b.png \(a 64x64 PNG image\) would need 4096 pixels, more than the limit of 4095 \(raise it with --max-pixels\)/,
    );
    r = await runCli(['render', 'a.json', '-o', 'o.png', '--max-pixels', String(w * h)], d);
    expect(r.code, r.stderr).toBe(0);
  });
});
