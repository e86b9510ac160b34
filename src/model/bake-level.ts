/**
 * LevelModel as a picture for the pipeline: draws every layer, first at the
 * back, each cell's tile from its tileset image (a plain grid of
 * tileWidth × tileHeight tiles, left to right, top to bottom) with the
 * cell's flips, then its counter-clockwise rotation about the tile centre.
 * Tiles are aligned to the bottom-left of their cell (as Tiled draws tiles
 * larger than the grid). A cell whose tileset has no pixels is drawn as a
 * flat colour derived from its tile number, so a level can always be seen.
 */
import type { Budget } from '../binary/limits.js';
import type { RgbaImage } from '../render/image.js';
import { compose, rotate, scale, translate } from '../render/matrix.js';
import { drawPicture, solidImage, type Picture, type PictureLayer, type PicturePart } from '../render/pipeline.js';
import type { LevelModel, ModelCell } from './types.js';

/** A stable colour for a tile number (set and tile). */
export function tileColour(set: number, tile: number): [number, number, number] {
  let h = Math.imul(set + 1, 0x9e3779b1) ^ Math.imul(tile + 1, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  return [64 + ((h >>> 0) & 127), 64 + ((h >>> 8) & 127), 64 + ((h >>> 16) & 127)];
}

/** One cell's tile with its top-left grid corner at (px, py), as a part (a flat colour when its tileset has no pixels). */
function cellPart(
  model: LevelModel,
  c: ModelCell,
  px: number,
  py: number,
  cw: number,
  ch: number,
  flat: Map<string, RgbaImage>,
  layer: number,
): PicturePart {
  const ts = model.tilesets[c.set];
  const tw = ts?.tileWidth ?? cw;
  const th = ts?.tileHeight ?? ch;
  const img = ts?.image;
  const cols = img && tw > 0 ? Math.floor(img.width / tw) : 0;
  if (!img || cols <= 0 || c.tile >= cols * Math.floor(img.height / th)) {
    const key = `${c.set}:${c.tile}`;
    let dot = flat.get(key);
    if (!dot) flat.set(key, (dot = solidImage(...tileColour(c.set, c.tile))));
    return { image: dot, transform: [cw, 0, 0, ch, px, py], layer };
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
  return { image: img, sx, sy, sw: tw, sh: th, transform: m, filter: 'nearest', layer };
}

/** The whole level as a picture: one frame, its cells made as the pipeline draws them. */
export function levelPicture(model: LevelModel): Picture {
  let w = 0;
  let h = 0;
  for (const l of model.layers) {
    w = Math.max(w, l.width * l.tileWidth);
    h = Math.max(h, l.height * l.tileHeight);
  }
  const flat = new Map<string, RgbaImage>();
  function* cells(): Generator<PicturePart> {
    for (const [layer, l] of model.layers.entries()) {
      if (!(l.width > 0)) continue; // no cells (and a 0 x 10^15 layer must not walk its rows)
      for (let row = 0; row < l.height; row++) {
        for (let col = 0; col < l.width; col++) {
          const c = l.cells[row * l.width + col];
          if (!c || c.set < 0 || c.tile < 0) continue;
          yield cellPart(model, c, col * l.tileWidth, row * l.tileHeight, l.tileWidth, l.tileHeight, flat, layer);
        }
      }
    }
  }
  const layers: PictureLayer[] = model.layers.map((l) => ({
    name: l.name,
    grid: { x: 0, y: 0, cellWidth: l.tileWidth, cellHeight: l.tileHeight, columns: l.width, rows: l.height },
    cell(col, row) {
      if (col < 0 || row < 0 || col >= l.width || row >= l.height) return undefined;
      const c = l.cells[row * l.width + col];
      if (!c || c.set < 0 || c.tile < 0) return undefined;
      const { extra, ...fields } = c;
      return { ...fields, ...extra };
    },
  }));
  return {
    frames: [{ parts: { [Symbol.iterator]: cells } }],
    layers,
    canvas: { x: 0, y: 0, width: Math.max(1, w), height: Math.max(1, h) },
    what: 'the level',
  };
}

/** The whole level as one image, drawn through the pipeline. */
export function renderLevelModel(model: LevelModel, budget?: Budget): RgbaImage {
  return drawPicture(levelPicture(model), budget).frames[0]!;
}
