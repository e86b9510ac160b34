/**
 * The common model as pictures for the pipeline (src/render/pipeline.ts):
 * a frame's parts (sheet sub-rectangles, flips, rotation and scale about
 * each part's pivot, opacity, slices stored rotated in the sheet). The
 * sheet formats (Aseprite, TexturePacker) and conversions that redraw
 * frames (sheets `convert` writes) draw the model through here.
 *
 * Conventions (see src/model/types.ts):
 * - sx, sy, sw, sh is the rectangle as stored in the sheet. With
 *   `rotatedInSheet` the slice is stored turned 90° clockwise, so the
 *   upright part is sh wide and sw tall and is turned back counter-clockwise.
 * - originX/originY is the pivot in the upright part; flips, scale and
 *   rotation (clockwise degrees) apply about it, in that order, and the
 *   pivot lands at (x, y) relative to the sprite origin.
 */
import type { Budget } from '../binary/limits.js';
import { transformedBounds } from '../render/compose.js';
import { createImage, type RgbaImage } from '../render/image.js';
import { compose, rotate, scale, translate, type Matrix } from '../render/matrix.js';
import { drawPicture, type Picture, type PictureFrame, type PicturePart } from '../render/pipeline.js';
import type { ModelFrame, ModelPart, SpriteModel } from './types.js';

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

/** What a model frame holds, as a picture frame in sprite space (parts whose sheet has no pixels count for the extent but draw nothing). */
export function modelFramePicture(model: SpriteModel, frame: ModelFrame): PictureFrame {
  const parts: PicturePart[] = [];
  for (const p of frame.parts) {
    const sheet = model.sheets[p.sheet];
    if (!sheet?.image) continue;
    parts.push({
      image: sheet.image,
      sx: p.sx,
      sy: p.sy,
      sw: p.sw,
      sh: p.sh,
      transform: partMatrix(p),
      opacity: p.opacity ?? 1,
      filter: sheet.nearest === false ? 'bilinear' : 'nearest',
    });
  }
  const b = frameBounds(frame);
  return { parts, extent: b && { x: b[0], y: b[1], width: b[2] - b[0], height: b[3] - b[1] }, delayMs: frame.durationMs };
}

/** An animation of the model as a picture: every frame on one canvas, with its delays. */
export function modelAnimationPicture(model: SpriteModel, animationIndex: number): Picture {
  const anim = model.animations[animationIndex];
  if (!anim) throw new RangeError(`no animation ${animationIndex} (the model has ${model.animations.length})`);
  return {
    frames: anim.frames.map((f) => modelFramePicture(model, f)),
    loops: anim.loopTo === null ? 1 : 0,
    what: `animation "${anim.name}"`,
  };
}

function frameAt(model: SpriteModel, animationIndex: number, frameIndex: number): ModelFrame {
  const anim = model.animations[animationIndex];
  if (!anim) throw new RangeError(`no animation ${animationIndex} (the model has ${model.animations.length})`);
  const frame = anim.frames[frameIndex];
  if (!frame) throw new RangeError(`animation "${anim.name}" has no frame ${frameIndex} (it has ${anim.frames.length})`);
  return frame;
}

/** One frame as an image just big enough for its parts (0 × 0 when it has none). */
export function renderModelFrame(model: SpriteModel, animationIndex: number, frameIndex: number, budget?: Budget): BakedFrame {
  return bakeFrame(model, frameAt(model, animationIndex, frameIndex), budget);
}

/** One frame drawn through the pipeline (0 × 0 when it has no parts); several calls can share one budget. */
export function bakeFrame(model: SpriteModel, frame: ModelFrame, budget?: Budget): BakedFrame {
  const f = modelFramePicture(model, frame);
  if (!f.extent) return { image: createImage(0, 0), originX: 0, originY: 0 };
  const d = drawPicture({ frames: [f], what: 'a frame' }, budget);
  return { image: d.frames[0]!, originX: d.originX, originY: d.originY };
}

/** Every frame of an animation on one canvas big enough for all of them, with the delays (as the model gives them). */
export function renderModelAnimation(model: SpriteModel, animationIndex: number, budget?: Budget): BakedAnimation {
  const d = drawPicture(modelAnimationPicture(model, animationIndex), budget);
  const anim = model.animations[animationIndex]!;
  return { frames: d.frames, delaysMs: anim.frames.map((f) => f.durationMs), originX: d.originX, originY: d.originY, loops: d.loops ?? 0 };
}
