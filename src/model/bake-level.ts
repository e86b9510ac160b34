/**
 * A generic render path for LevelModel: draws every layer, first at the
 * back, each cell's tile from its tileset image (a plain grid of
 * tileWidth × tileHeight tiles, left to right, top to bottom) with the
 * cell's flips, then its counter-clockwise rotation about the tile centre.
 * Tiles are aligned to the bottom-left of their cell (as Tiled draws tiles
 * larger than the grid). A cell whose tileset has no pixels is drawn as a
 * flat colour derived from its tile number, so a level can always be seen.
 */
import { FormatError } from '../binary/errors.js';
import { drawImage } from '../render/compose.js';
import { createImage, type RgbaImage } from '../render/image.js';
import { compose, rotate, scale, translate } from '../render/matrix.js';
import { MAX_BAKE_PIXELS } from './bake.js';
import type { LevelModel, ModelCell } from './types.js';

/** A stable colour for a tile number (set and tile). */
export function tileColour(set: number, tile: number): [number, number, number] {
  let h = Math.imul(set + 1, 0x9e3779b1) ^ Math.imul(tile + 1, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  return [64 + ((h >>> 0) & 127), 64 + ((h >>> 8) & 127), 64 + ((h >>> 16) & 127)];
}

function fillRect(img: RgbaImage, x0: number, y0: number, w: number, h: number, c: [number, number, number]) {
  for (let y = Math.max(0, y0); y < Math.min(img.height, y0 + h); y++) {
    for (let x = Math.max(0, x0); x < Math.min(img.width, x0 + w); x++) {
      const o = (y * img.width + x) * 4;
      img.data[o] = c[0];
      img.data[o + 1] = c[1];
      img.data[o + 2] = c[2];
      img.data[o + 3] = 255;
    }
  }
}

/** Draws one cell's tile with its top-left grid corner at (px, py). */
function drawCell(dst: RgbaImage, model: LevelModel, c: ModelCell, px: number, py: number, cw: number, ch: number) {
  const ts = model.tilesets[c.set];
  const tw = ts?.tileWidth ?? cw;
  const th = ts?.tileHeight ?? ch;
  const img = ts?.image;
  const cols = img && tw > 0 ? Math.floor(img.width / tw) : 0;
  if (!img || cols <= 0 || c.tile >= cols * Math.floor(img.height / th)) {
    fillRect(dst, px, py, cw, ch, tileColour(c.set, c.tile));
    return;
  }
  const sx = (c.tile % cols) * tw;
  const sy = Math.floor(c.tile / cols) * th;
  // About the tile centre: flips, then counter-clockwise rotation (clockwise is positive in matrix.ts).
  const m = compose(
    translate(-tw / 2, -th / 2),
    scale(c.flipX ? -1 : 1, c.flipY ? -1 : 1),
    rotate(-(c.rotation ?? 0)),
    translate(px + tw / 2, py + ch - th + th / 2),
  );
  drawImage(dst, img, { sx, sy, sw: tw, sh: th, transform: m, filter: 'nearest' });
}

/** The whole level as one image. */
export function renderLevelModel(model: LevelModel): RgbaImage {
  let w = 0;
  let h = 0;
  for (const l of model.layers) {
    w = Math.max(w, l.width * l.tileWidth);
    h = Math.max(h, l.height * l.tileHeight);
  }
  // (the image is at least 1x1: a 0 x 10^15 level must not pass as 0 pixels)
  if (!Number.isFinite(w * h) || Math.max(1, w) * Math.max(1, h) > MAX_BAKE_PIXELS) {
    throw new FormatError('model', `the level would need a ${w}x${h} image, more than the ${MAX_BAKE_PIXELS}-pixel limit`);
  }
  const out = createImage(Math.max(1, w), Math.max(1, h));
  for (const l of model.layers) {
    if (!(l.width > 0)) continue; // no cells (and a 0 x 10^15 layer must not walk its rows)
    for (let row = 0; row < l.height; row++) {
      for (let col = 0; col < l.width; col++) {
        const c = l.cells[row * l.width + col];
        if (!c || c.set < 0 || c.tile < 0) continue;
        drawCell(out, model, c, col * l.tileWidth, row * l.tileHeight, l.tileWidth, l.tileHeight);
      }
    }
  }
  return out;
}
