/**
 * The bundled Hallgeir sample (samples/hallgeir/): a small map with two kinds
 * of object, their sprites and their textures, all made here in code. The
 * hero's texture is a PNG and its files little-endian; the coin's texture is
 * a 24-bit BMP and its sprite big-endian, to show both byte orders.
 * test/hallgeir/samples.test.ts checks the committed files equal this output
 * (run it with SPRAT_WRITE_SAMPLES=1 to rewrite them).
 */
import { writeHallgeir } from '../../src/formats/hallgeir/write.js';
import type { HallgeirMap, HallgeirObject, HallgeirSprite } from '../../src/formats/hallgeir/model.js';
import { createImage, type RgbaImage } from '../../src/render/image.js';
import { encodePng } from '../../src/render/png.js';

type Rgba = [number, number, number, number];

function rect(img: RgbaImage, x: number, y: number, w: number, h: number, c: Rgba): void {
  for (let j = y; j < y + h; j++) {
    for (let i = x; i < x + w; i++) {
      if (i < 0 || j < 0 || i >= img.width || j >= img.height) continue;
      img.data.set(c, (j * img.width + i) * 4);
    }
  }
}

/** Four 16×16 walking frames side by side on a transparent background. */
function heroTexture(): RgbaImage {
  const img = createImage(64, 16);
  const skin: Rgba = [240, 200, 160, 255];
  const shirt: Rgba = [40, 90, 200, 255];
  const legs: Rgba = [60, 50, 40, 255];
  const eye: Rgba = [20, 20, 20, 255];
  const stride = [0, 2, 0, -2];
  for (let f = 0; f < 4; f++) {
    const x = f * 16;
    rect(img, x + 5, 1, 6, 5, skin); // head
    rect(img, x + 9, 3, 1, 1, eye);
    rect(img, x + 4, 6, 8, 5, shirt); // body
    rect(img, x + 5 + stride[f]!, 11, 2, 5, legs);
    rect(img, x + 9 - stride[f]!, 11, 2, 5, legs);
  }
  return img;
}

/** Two 16×16 coin frames (face and edge) on a dark tile (a 24-bit BMP has no alpha). */
function coinTexture(): RgbaImage {
  const img = createImage(32, 16);
  rect(img, 0, 0, 32, 16, [40, 40, 60, 255]);
  for (let y = 0; y < 16; y++) {
    for (let x = 0; x < 16; x++) {
      const dx = x - 7.5;
      const dy = y - 7.5;
      if (dx * dx + dy * dy <= 42) rect(img, x, y, 1, 1, dx * dx + dy * dy <= 20 ? [255, 215, 0, 255] : [200, 150, 0, 255]);
    }
  }
  rect(img, 16 + 6, 1, 4, 14, [200, 150, 0, 255]);
  rect(img, 16 + 7, 2, 2, 12, [255, 215, 0, 255]);
  return img;
}

/** A bottom-up 24-bit BMP (BITMAPINFOHEADER), as 2007-era paint programs wrote. */
export function encodeBmp24(img: RgbaImage): Uint8Array {
  const stride = Math.ceil((img.width * 3) / 4) * 4;
  const size = 54 + stride * img.height;
  const out = new Uint8Array(size);
  const v = new DataView(out.buffer);
  out[0] = 0x42;
  out[1] = 0x4d;
  v.setUint32(2, size, true);
  v.setUint32(10, 54, true);
  v.setUint32(14, 40, true);
  v.setInt32(18, img.width, true);
  v.setInt32(22, img.height, true);
  v.setUint16(26, 1, true);
  v.setUint16(28, 24, true);
  v.setUint32(34, stride * img.height, true);
  v.setInt32(38, 2835, true);
  v.setInt32(42, 2835, true);
  for (let y = 0; y < img.height; y++) {
    const row = 54 + (img.height - 1 - y) * stride;
    for (let x = 0; x < img.width; x++) {
      const s = (y * img.width + x) * 4;
      out[row + x * 3] = img.data[s + 2]!;
      out[row + x * 3 + 1] = img.data[s + 1]!;
      out[row + x * 3 + 2] = img.data[s]!;
    }
  }
  return out;
}

export function makeHallgeirSample(): { files: { name: string; bytes: Uint8Array }[] } {
  const hero: HallgeirSprite = {
    kind: 'sprite',
    littleEndian: true,
    name: 'hero',
    texture: 'hero',
    animations: [
      {
        name: 'walk',
        frames: [
          { x: 0, y: 0, delay: 0.15, next: 1 },
          { x: 16, y: 0, delay: 0.15, next: 2 },
          { x: 32, y: 0, delay: 0.15, next: 3 },
          { x: 48, y: 0, delay: 0.15, next: 0 },
        ],
      },
      { name: 'stand', frames: [{ x: 0, y: 0, delay: 0, next: -1 }] },
    ],
  };
  const coin: HallgeirSprite = {
    kind: 'sprite',
    littleEndian: false,
    name: 'coin',
    texture: 'coin',
    animations: [
      {
        name: 'spin',
        frames: [
          { x: 0, y: 0, delay: 0.4, next: 1 },
          { x: 16, y: 0, delay: 0.1, next: 0 },
        ],
      },
    ],
  };
  const heroObj: HallgeirObject = { kind: 'object', littleEndian: true, name: 'Hero', sprite: 'hero' };
  const coinObj: HallgeirObject = { kind: 'object', littleEndian: true, name: 'Coin', sprite: 'coin' };
  const map: HallgeirMap = {
    kind: 'map',
    littleEndian: true,
    textures: [
      { path: 'hero.png', name: 'hero' },
      { path: 'coin.bmp', name: 'coin' },
    ],
    objects: [
      { x: 8, y: 16, object: 'hero.obj' },
      { x: 40, y: 16, object: 'coin.obj' },
      { x: 64, y: 16, object: 'coin.obj' },
    ],
  };
  return {
    files: [
      { name: 'level1.map', bytes: writeHallgeir(map) },
      { name: 'hero.obj', bytes: writeHallgeir(heroObj) },
      { name: 'coin.obj', bytes: writeHallgeir(coinObj) },
      { name: 'hero.spr', bytes: writeHallgeir(hero) },
      { name: 'coin.spr', bytes: writeHallgeir(coin) },
      { name: 'hero.png', bytes: encodePng(heroTexture()) },
      { name: 'coin.bmp', bytes: encodeBmp24(coinTexture()) },
    ],
  };
}

/** The folder under samples/ that this generator's file names are relative to. */
export const SAMPLE_DIR = 'hallgeir';
