/**
 * The SpriteTile sample: a small two-layer level (ground and decorations in
 * front of it) using flips, 90/180/270-degree rotations, colliders, order in
 * layer and triggers, plus a 4-tile sheet drawn in code for
 * `sprat render --tileset 0=tiles.png:16x16`. Deterministic. Names are
 * relative to samples/.
 */
import { createImage, type RgbaImage } from '../../src/render/image.js';
import { encodePng } from '../../src/render/png.js';
import { addLayer, createLevel, setCell, writeSpriteTile } from '../../src/formats/spritetile/index.js';

const T = 16;

function px(img: RgbaImage, x: number, y: number, c: [number, number, number, number]): void {
  img.data.set(c, (y * img.width + x) * 4);
}

/** Tile 0 grass, 1 dirt, 2 stone, 3 an arrow pointing right (shows rotation and flips). */
function tileSheet(): RgbaImage {
  const img = createImage(T * 4, T);
  for (let y = 0; y < T; y++) {
    for (let x = 0; x < T; x++) {
      const n = (x * 7 + y * 13) % 5;
      px(img, x, y, y < 4 ? [60, 170 + n * 10, 60, 255] : [120 + n * 6, 80, 40, 255]);
      px(img, T + x, y, [130 + n * 8, 90 + n * 4, 50, 255]);
      const edge = x === 0 || y === 0 || x === T - 1 || y === T - 1;
      px(img, 2 * T + x, y, edge ? [90, 90, 100, 255] : [150 + n * 8, 150 + n * 8, 160, 255]);
      const arrow = (y >= 6 && y <= 9 && x >= 2 && x <= 9) || (x >= 9 && x <= 13 && Math.abs(y - 7.5) <= 13 - x);
      px(img, 3 * T + x, y, arrow ? [250, 210, 40, 255] : [0, 0, 0, 0]);
    }
  }
  return img;
}

export function makeSpritetileSample(): { files: { name: string; bytes: Uint8Array }[] } {
  const level = createLevel();
  const W = 12;
  const H = 8;
  const ground = addLayer(level, { width: W, height: H, tileSizeX: 1, z: 1 });
  for (let x = 0; x < W; x++) {
    setCell(level, ground, x, 0, { set: 0, tile: 1, collider: true });
    setCell(level, ground, x, 1, { set: 0, tile: 1, collider: true, flipX: x % 2 === 1 });
    setCell(level, ground, x, 2, { set: 0, tile: 0, collider: true, flipX: x % 3 === 0 });
  }
  for (let x = 4; x < 8; x++) setCell(level, ground, x, 5, { set: 0, tile: 2, collider: true, order: 1 });
  setCell(level, ground, 0, 3, { set: 0, tile: 2, collider: true });
  setCell(level, ground, W - 1, 3, { set: 0, tile: 2, collider: true, flipY: true });
  const deco = addLayer(level, { width: W, height: H, tileSizeX: 1, z: 0 });
  // arrows: 0, 90, 180 and 270 degrees (counter-clockwise), then flipped ones; trigger values mark them
  const arrows: [number, { rotation?: number; flipX?: boolean; flipY?: boolean }][] = [
    [1, {}],
    [2, { rotation: 90 }],
    [3, { rotation: 180 }],
    [4, { rotation: 270 }],
    [6, { flipX: true }],
    [7, { flipY: true }],
    [8, { rotation: 45 }],
  ];
  for (const [x, o] of arrows) setCell(level, deco, x, 3, { set: 0, tile: 3, trigger: x, ...o });
  setCell(level, deco, 5, 6, { set: 0, tile: 3, rotation: 90, order: 2, trigger: 200 });
  return {
    files: [
      { name: 'spritetile/level.bytes', bytes: writeSpriteTile(level) },
      { name: 'spritetile/tiles.png', bytes: encodePng(tileSheet()) },
    ],
  };
}
