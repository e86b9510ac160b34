/**
 * The bundled Solarus sample: a small slime sheet drawn in code, and the same
 * sprite in both syntaxes, laid out as a quest's `sprites/` folder so the
 * image path (relative to `sprites/`) resolves:
 *   solarus/sprites/slime.dat       the 0.9 line syntax
 *   solarus/sprites/slime_lua.dat   the 1.1+ Lua syntax
 *   solarus/sprites/enemies/slime.png
 * test/solarus/samples.test.ts checks the committed files equal this output
 * (run it with SPRAT_WRITE_SAMPLES=1 to rewrite them).
 */
import { formatLines } from '../../src/formats/solarus/lines.js';
import { formatLua } from '../../src/formats/solarus/lua.js';
import type { SolarusSheet } from '../../src/formats/solarus/model.js';
import { encodeUtf8 } from '../../src/binary/utf8.js';
import { createImage, type RgbaImage } from '../../src/render/image.js';
import { encodePng } from '../../src/render/png.js';

const F = 16;
/** Body colours per direction (0 right, 1 up, 2 left, 3 down). */
const BODY: [number, number, number][] = [
  [90, 200, 90],
  [80, 170, 220],
  [220, 190, 70],
  [200, 100, 200],
];

function put(img: RgbaImage, x: number, y: number, [r, g, b]: [number, number, number]): void {
  if (x < 0 || y < 0 || x >= img.width || y >= img.height) return;
  const o = (y * img.width + x) * 4;
  img.data[o] = r;
  img.data[o + 1] = g;
  img.data[o + 2] = b;
  img.data[o + 3] = 255;
}

/** One slime in the 16 × 16 cell at (cx, cy): squashed by `squash` pixels, eyes looking towards `dir`. */
function slime(img: RgbaImage, cx: number, cy: number, dir: number, squash: number, body: [number, number, number]): void {
  const rx = 6.5 + squash * 0.5;
  const ry = 5.5 - squash;
  const mx = cx + 8;
  const my = cy + 15 - ry;
  const dark: [number, number, number] = [body[0] >> 1, body[1] >> 1, body[2] >> 1];
  for (let y = 0; y < F; y++) {
    for (let x = 0; x < F; x++) {
      const dx = (cx + x + 0.5 - mx) / rx;
      const dy = (cy + y + 0.5 - my) / ry;
      const r = dx * dx + dy * dy;
      if (r <= 1 && cy + y + 0.5 <= my + ry * 0.9) put(img, cx + x, cy + y, r > 0.7 ? dark : body);
    }
  }
  const ex = [2, 0, -2, 0][dir]!;
  const ey = [0, -2, 0, 1][dir]!;
  if (dir !== 1) {
    for (const side of [-2, 2]) {
      put(img, Math.round(mx + side + ex), Math.round(my + ey), [255, 255, 255]);
      put(img, Math.round(mx + side + ex), Math.round(my + ey + 1), [20, 20, 20]);
    }
  }
}

export function makeSolarusSheetImage(): RgbaImage {
  const img = createImage(128, 48);
  // walking: direction d in the 32 × 32 block at (32 d, 0), four frames in two columns.
  for (let d = 0; d < 4; d++) {
    for (let j = 0; j < 4; j++) {
      slime(img, d * 32 + (j % 2) * F, Math.floor(j / 2) * F, d, [0, 1, 2, 1][j]!, BODY[d]!);
    }
  }
  // hurt: two frames at (0, 32), red and white.
  slime(img, 0, 32, 3, 0, [230, 60, 60]);
  slime(img, F, 32, 3, 0, [250, 250, 250]);
  return img;
}

export const SOLARUS_SAMPLE_SHEET: SolarusSheet = {
  animations: [
    {
      name: 'stopped',
      image: 'enemies/slime.png',
      frameDelay: 0,
      loopOnFrame: -1,
      directions: [0, 1, 2, 3].map((d) => ({
        x: d * 32,
        y: 0,
        frameWidth: F,
        frameHeight: F,
        originX: 8,
        originY: 13,
        frameCount: 1,
        columns: 1,
      })),
    },
    {
      name: 'walking',
      image: 'enemies/slime.png',
      frameDelay: 150,
      loopOnFrame: 0,
      directions: [0, 1, 2, 3].map((d) => ({
        x: d * 32,
        y: 0,
        frameWidth: F,
        frameHeight: F,
        originX: 8,
        originY: 13,
        frameCount: 4,
        columns: 2,
      })),
    },
    {
      name: 'hurt',
      image: 'enemies/slime.png',
      frameDelay: 60,
      loopOnFrame: -1,
      directions: [{ x: 0, y: 32, frameWidth: F, frameHeight: F, originX: 8, originY: 13, frameCount: 2, columns: 2 }],
    },
  ],
};

export function makeSolarusSample(): { files: { name: string; bytes: Uint8Array }[] } {
  return {
    files: [
      { name: 'solarus/sprites/slime.dat', bytes: encodeUtf8(formatLines(SOLARUS_SAMPLE_SHEET)) },
      { name: 'solarus/sprites/slime_lua.dat', bytes: encodeUtf8(formatLua(SOLARUS_SAMPLE_SHEET)) },
      { name: 'solarus/sprites/enemies/slime.png', bytes: encodePng(makeSolarusSheetImage()) },
    ],
  };
}
