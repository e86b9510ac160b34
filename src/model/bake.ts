/**
 * A generic render path for the common model: composes a frame's parts
 * (sheet sub-rectangles, flips, rotation and scale about each part's pivot,
 * opacity, slices stored rotated in the sheet) into one image. Any format
 * with a `toModel` can draw its sprites through here.
 *
 * Conventions (see src/model/types.ts):
 * - sx, sy, sw, sh is the rectangle as stored in the sheet. With
 *   `rotatedInSheet` the slice is stored turned 90° clockwise, so the
 *   upright part is sh wide and sw tall and is turned back counter-clockwise.
 * - originX/originY is the pivot in the upright part; flips, scale and
 *   rotation (clockwise degrees) apply about it, in that order, and the
 *   pivot lands at (x, y) relative to the sprite origin.
 */
import { FormatError } from '../binary/errors.js';
import { drawImage, transformedBounds } from '../render/compose.js';
import { createImage, type RgbaImage } from '../render/image.js';
import { compose, rotate, scale, translate, type Matrix } from '../render/matrix.js';
import type { ModelFrame, ModelPart, SpriteModel } from './types.js';

/** Canvases larger than this many pixels are refused (a hostile scale or offset). */
export const MAX_BAKE_PIXELS = 1 << 26;

export interface BakedFrame {
  image: RgbaImage;
  /** Where the sprite origin is inside `image`. */
  originX: number;
  originY: number;
}

export interface BakedAnimation {
  frames: RgbaImage[];
  delaysMs: number[];
  originX: number;
  originY: number;
  /** 0 = forever, 1 = once (loopTo null). */
  loops: number;
}

/** The upright size of a part (sw × sh, swapped when stored rotated). */
export function partSize(p: ModelPart): { width: number; height: number } {
  return p.rotatedInSheet ? { width: p.sh, height: p.sw } : { width: p.sw, height: p.sh };
}

/** Maps the part's stored sheet rectangle (0, 0 = its upper-left corner) to sprite space. */
export function partMatrix(p: ModelPart): Matrix {
  const steps: Matrix[] = [];
  // Stored 90° clockwise: stored (u, v) is upright (v, sw - u).
  if (p.rotatedInSheet) steps.push(rotate(-90), translate(0, p.sw));
  steps.push(translate(-(p.originX ?? 0), -(p.originY ?? 0)));
  const fx = (p.flipX ? -1 : 1) * (p.scaleX ?? 1);
  const fy = (p.flipY ? -1 : 1) * (p.scaleY ?? 1);
  if (fx !== 1 || fy !== 1) steps.push(scale(fx, fy));
  if (p.rotation) steps.push(rotate(p.rotation));
  steps.push(translate(p.x, p.y));
  return compose(...steps);
}

/** Bounds of a frame's parts in sprite space: [x0, y0, x1, y1] in whole pixels, or null when empty. */
export function frameBounds(frame: ModelFrame): [number, number, number, number] | null {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const p of frame.parts) {
    if (p.sw <= 0 || p.sh <= 0) continue;
    const b = transformedBounds(p.sw, p.sh, partMatrix(p));
    // Round away tiny float error so exact placements stay exact.
    x0 = Math.min(x0, Math.floor(b.x + 1e-9));
    y0 = Math.min(y0, Math.floor(b.y + 1e-9));
    x1 = Math.max(x1, Math.ceil(b.x + b.width - 1e-9));
    y1 = Math.max(y1, Math.ceil(b.y + b.height - 1e-9));
  }
  return x0 === Infinity ? null : [x0, y0, x1, y1];
}

function checkCanvas(w: number, h: number): void {
  if (!Number.isFinite(w) || !Number.isFinite(h) || w * h > MAX_BAKE_PIXELS) {
    throw new FormatError('model', `a frame would need a ${w}x${h} canvas, more than the ${MAX_BAKE_PIXELS}-pixel limit`);
  }
}

/** Draws a frame's parts onto `dst` with the sprite origin at (ox, oy). Parts whose sheet has no pixels are skipped. */
export function drawModelFrame(dst: RgbaImage, model: SpriteModel, frame: ModelFrame, ox: number, oy: number): void {
  for (const p of frame.parts) {
    const sheet = model.sheets[p.sheet];
    if (!sheet?.image) continue;
    drawImage(dst, sheet.image, {
      sx: p.sx,
      sy: p.sy,
      sw: p.sw,
      sh: p.sh,
      transform: compose(partMatrix(p), translate(ox, oy)),
      opacity: p.opacity ?? 1,
      filter: sheet.nearest === false ? 'bilinear' : 'nearest',
    });
  }
}

function frameAt(model: SpriteModel, animationIndex: number, frameIndex: number): ModelFrame {
  const anim = model.animations[animationIndex];
  if (!anim) throw new RangeError(`no animation ${animationIndex} (the model has ${model.animations.length})`);
  const frame = anim.frames[frameIndex];
  if (!frame) throw new RangeError(`animation "${anim.name}" has no frame ${frameIndex} (it has ${anim.frames.length})`);
  return frame;
}

/** One frame as an image just big enough for its parts (0 × 0 when it has none). */
export function renderModelFrame(model: SpriteModel, animationIndex: number, frameIndex: number): BakedFrame {
  return bakeFrame(model, frameAt(model, animationIndex, frameIndex));
}

export function bakeFrame(model: SpriteModel, frame: ModelFrame): BakedFrame {
  const b = frameBounds(frame);
  if (!b) return { image: createImage(0, 0), originX: 0, originY: 0 };
  const [x0, y0, x1, y1] = b;
  checkCanvas(x1 - x0, y1 - y0);
  const image = createImage(x1 - x0, y1 - y0);
  drawModelFrame(image, model, frame, -x0, -y0);
  return { image, originX: 0 - x0, originY: 0 - y0 };
}

/** Every frame of an animation on one canvas big enough for all of them, with the delays. */
export function renderModelAnimation(model: SpriteModel, animationIndex: number): BakedAnimation {
  const anim = model.animations[animationIndex];
  if (!anim) throw new RangeError(`no animation ${animationIndex} (the model has ${model.animations.length})`);
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const f of anim.frames) {
    const b = frameBounds(f);
    if (!b) continue;
    x0 = Math.min(x0, b[0]);
    y0 = Math.min(y0, b[1]);
    x1 = Math.max(x1, b[2]);
    y1 = Math.max(y1, b[3]);
  }
  if (x0 === Infinity) x0 = y0 = x1 = y1 = 0;
  const w = Math.max(1, x1 - x0);
  const h = Math.max(1, y1 - y0);
  checkCanvas(w, h * Math.max(1, anim.frames.length));
  const frames = anim.frames.map((f) => {
    const img = createImage(w, h);
    drawModelFrame(img, model, f, -x0, -y0);
    return img;
  });
  return {
    frames,
    delaysMs: anim.frames.map((f) => f.durationMs),
    originX: 0 - x0,
    originY: 0 - y0,
    loops: anim.loopTo === null ? 1 : 0,
  };
}
