import type { Budget } from '../binary/limits.js';
import type { RgbaImage } from '../render/image.js';
import { translate } from '../render/matrix.js';
import { drawPicture } from '../render/pipeline.js';

/**
 * A simple deterministic shelf packer: rectangles sorted by height (then
 * width, then input order), placed left to right on shelves of a width
 * chosen from the total area, with `padding` pixels between neighbours.
 */
export interface PackInput {
  w: number;
  h: number;
}

export interface PackResult {
  /** Upper-left corner of each input, in input order. */
  positions: { x: number; y: number }[];
  width: number;
  height: number;
}

export function packShelves(rects: readonly PackInput[], padding = 1): PackResult {
  const positions = rects.map(() => ({ x: 0, y: 0 }));
  if (rects.length === 0) return { positions, width: 0, height: 0 };
  let area = 0;
  let widest = 0;
  for (const r of rects) {
    area += (r.w + padding) * (r.h + padding);
    widest = Math.max(widest, r.w);
  }
  const target = Math.max(widest, Math.ceil(Math.sqrt(area)));
  const order = rects.map((_, i) => i).sort((a, b) => rects[b]!.h - rects[a]!.h || rects[b]!.w - rects[a]!.w || a - b);
  let x = 0;
  let y = 0;
  let shelfH = 0;
  let width = 0;
  for (const i of order) {
    const r = rects[i]!;
    if (x > 0 && x + r.w > target) {
      y += shelfH + padding;
      x = 0;
      shelfH = 0;
    }
    positions[i] = { x, y };
    width = Math.max(width, x + r.w);
    x += r.w + padding;
    shelfH = Math.max(shelfH, r.h);
  }
  return { positions, width, height: y + shelfH };
}

/** Images placed at whole-pixel positions on a new width × height sheet, drawn through the picture pipeline. */
export function drawSheet(
  items: readonly { image: RgbaImage; x: number; y: number }[],
  width: number,
  height: number,
  budget?: Budget,
): RgbaImage {
  const parts = items.map((i) => ({ image: i.image, transform: translate(i.x, i.y) }));
  return drawPicture({ frames: [{ parts }], canvas: { x: 0, y: 0, width, height }, what: 'the sheet' }, budget).frames[0]!;
}
