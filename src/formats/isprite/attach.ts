/**
 * Attachment points: "an attached sprite is drawn at every attachment point
 * of that name in the current frame, with the parent's transform, then the
 * point's transform, then its own; none if the name is absent."
 *
 * Transforms are affine matrices of src/render/matrix.ts (screen space, y
 * down). A sprite's or a point's own transform applies, about its origin, in
 * this order: mirroring (flipX: x → −x, flipY: y → −y), scale, rotation
 * (clockwise degrees), then the move to its position. Opacities multiply;
 * a point's opacity is its u16 over 65535.
 *
 * Point names are compared exactly (as strings). Each instance carries the
 * point's element index so that a renderer can draw the attached sprite at
 * the point's place in the display list ("Any elements that should appear
 * over the attachment point should likewise appear over any object attached").
 */
import { IDENTITY, compose, rotate, scale, translate, type Matrix } from '../../render/matrix.js';
import { elementName } from './interpolate.js';
import type { IspriteAttachment } from './model.js';
import type { Player } from './play.js';

/** A sprite's placement in its parent's space (the world for a top-level sprite). Every field is optional. */
export interface SpriteTransform {
  x?: number;
  y?: number;
  /** Degrees, clockwise. */
  rotation?: number;
  scaleX?: number;
  scaleY?: number;
  flipX?: boolean;
  flipY?: boolean;
  /** 0 … 1. */
  opacity?: number;
}

/** A world transform: the matrix from the sprite's own space to the world, and its opacity (0 … 1). */
export interface Placement {
  matrix: Matrix;
  opacity: number;
}

export const IDENTITY_PLACEMENT: Placement = { matrix: IDENTITY, opacity: 1 };

/** The matrix of a transform: mirroring, then scale, then rotation, then the move to (x, y). */
export function transformMatrix(t: SpriteTransform): Matrix {
  const sx = (t.scaleX ?? 1) * (t.flipX ? -1 : 1);
  const sy = (t.scaleY ?? 1) * (t.flipY ? -1 : 1);
  return compose(scale(sx, sy), rotate(t.rotation ?? 0), translate(t.x ?? 0, t.y ?? 0));
}

/** A transform or a placement as a placement (a transform is relative to the world). */
export function toPlacement(t: SpriteTransform | Placement | undefined): Placement {
  if (!t) return IDENTITY_PLACEMENT;
  if ('matrix' in t) return t;
  return { matrix: transformMatrix(t), opacity: t.opacity ?? 1 };
}

/** Places something in a parent: the child's transform first, then the parent's placement. */
export function placeIn(parent: Placement, child: SpriteTransform | Placement | undefined): Placement {
  const c = toPlacement(child);
  return { matrix: compose(c.matrix, parent.matrix), opacity: c.opacity * parent.opacity };
}

/** An attachment point's own transform in its sprite's space. */
export function pointTransform(point: IspriteAttachment): SpriteTransform {
  return {
    x: point.x,
    y: point.y,
    rotation: point.rotation,
    scaleX: point.scaleX,
    scaleY: point.scaleY,
    flipX: point.flipX,
    flipY: point.flipY,
    opacity: point.opacity / 65535,
  };
}

/** One attachment point of the current frame placed in the world. */
export interface PointInstance extends Placement {
  point: IspriteAttachment;
  /** The point's index in the frame's element list (its place in the display order). */
  index: number;
}

/**
 * Every attachment point named `name` in the player's current frame, with
 * its world placement: the parent's placement, then the point's transform.
 * Empty when the name is absent (or nothing is shown).
 */
export function attachmentPoints(player: Player, name: string, parent?: SpriteTransform | Placement): PointInstance[] {
  const frame = player.frame;
  if (!frame) return [];
  const doc = player.prepared.doc;
  const world = toPlacement(parent);
  const out: PointInstance[] = [];
  frame.elements.forEach((e, index) => {
    if (e.type !== 'attachment' || elementName(doc, e) !== name) return;
    out.push({ point: e, index, ...placeIn(world, pointTransform(e)) });
  });
  return out;
}

/** An attached child drawn at one point: where its origin goes and how it is turned, scaled and faded. */
export interface AttachedInstance extends PointInstance {
  /** The child's own world placement: parent, then point, then the child's transform. */
  child: Placement;
}

/** A child player attached to a named point of a parent player. */
export class Attachment {
  constructor(
    readonly parent: Player,
    readonly pointName: string,
    readonly child: Player,
    /** The child's own transform relative to the point. */
    public transform: SpriteTransform = {},
  ) {}

  /** One instance per point of that name in the parent's current frame; none if absent. */
  instances(parentPlacement?: SpriteTransform | Placement): AttachedInstance[] {
    return attachmentPoints(this.parent, this.pointName, parentPlacement).map((p) => ({
      ...p,
      child: placeIn(p, this.transform),
    }));
  }
}

/** Attaches `child` to the points named `pointName` of `parent`. */
export function attach(parent: Player, pointName: string, child: Player, transform: SpriteTransform = {}): Attachment {
  return new Attachment(parent, pointName, child, transform);
}
