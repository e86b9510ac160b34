/**
 * Collision: world-space shapes of a player's current frame and tests
 * between them.
 *
 * - A rectangle element is its four corners: the upper-left corner (x, y),
 *   then (x + width, y), (x + width, y + height), (x, y + height), turned
 *   clockwise by `rotation` degrees about the upper-left corner, then put
 *   through the sprite's transform (mirroring, scale, rotation, position; see
 *   attach.ts). Under any transform it stays a parallelogram: kind `rect`.
 * - A circle element under a transform that keeps shapes (uniform scale,
 *   rotation, mirroring) is a circle of radius r × scale: kind `circle`.
 *   Under a non-uniform scale it is an exact ellipse: kind `ellipse`, with
 *   its two semi-axes and the clockwise rotation of its first axis. All tests
 *   treat ellipses exactly (up to floating-point rounding); nothing is
 *   approximated by a circle or a polygon.
 * - Touching counts as overlapping; shapes are solid (a shape inside another
 *   overlaps it). A negative radius counts as its absolute value.
 */
import { applyMatrix, compose, rotate, translate, type Matrix } from '../../render/matrix.js';
import { toPlacement, type Placement, type SpriteTransform } from './attach.js';
import { elementName } from './interpolate.js';
import type { IspriteCircle, IspriteRect } from './model.js';
import type { Player } from './play.js';

interface ShapeBase {
  /** The element's name, or null when unnamed. */
  name: string | null;
  /** The collision ID stored in the element. */
  id: number;
  /** The element's index in the frame. */
  index: number;
  element: IspriteRect | IspriteCircle;
}

export interface CircleShape extends ShapeBase {
  kind: 'circle';
  x: number;
  y: number;
  radius: number;
}

export interface EllipseShape extends ShapeBase {
  kind: 'ellipse';
  x: number;
  y: number;
  radiusX: number;
  radiusY: number;
  /** Clockwise degrees of the radiusX axis from the x axis. */
  rotation: number;
}

export interface RectShape extends ShapeBase {
  kind: 'rect';
  /** The four corners in order, starting with the (transformed) upper-left corner. */
  points: [number, number][];
}

export type WorldShape = CircleShape | EllipseShape | RectShape;

/** Which elements to keep: all (undefined/null), or those whose name is the string or one of the strings. */
export type NameFilter = string | readonly string[] | null | undefined;

function accepts(filter: NameFilter, name: string | null): boolean {
  if (filter === undefined || filter === null) return true;
  if (name === null) return false;
  return typeof filter === 'string' ? filter === name : filter.includes(name);
}

const REL_EPS = 1e-9;

/** The ellipse (centre, semi-axes, rotation) that the 2×2 linear map [p q; r s] makes of the unit circle. */
function ellipseAxes(p: number, q: number, r: number, s: number): { a: number; b: number; angle: number } {
  const e = p * p + q * q;
  const g = r * r + s * s;
  const f = p * r + q * s;
  const d = Math.hypot(e - g, 2 * f);
  const a = Math.sqrt(Math.max(0, (e + g + d) / 2));
  const b = Math.sqrt(Math.max(0, (e + g - d) / 2));
  const angle = 0.5 * Math.atan2(2 * f, e - g);
  return { a, b, angle };
}

/** A circle element put through a matrix: a circle when the matrix keeps shapes, else an ellipse. */
function circleShape(base: ShapeBase, c: IspriteCircle, m: Matrix): CircleShape | EllipseShape {
  const [x, y] = applyMatrix(m, c.x, c.y);
  const r = Math.abs(c.radius);
  const [ma, mb, mc, md] = m;
  // x' = a·x + c·y, y' = b·x + d·y: the linear part is [a c; b d].
  const { a, b, angle } = ellipseAxes(ma * r, mc * r, mb * r, md * r);
  if (a - b <= REL_EPS * Math.max(a, 1e-300) || a === 0) return { ...base, kind: 'circle', x, y, radius: a };
  return { ...base, kind: 'ellipse', x, y, radiusX: a, radiusY: b, rotation: (angle * 180) / Math.PI };
}

function rectShape(base: ShapeBase, e: IspriteRect, m: Matrix): RectShape {
  const local = compose(rotate(e.rotation), translate(e.x, e.y), m);
  const w = e.width;
  const h = e.height;
  return {
    ...base,
    kind: 'rect',
    points: [applyMatrix(local, 0, 0), applyMatrix(local, w, 0), applyMatrix(local, w, h), applyMatrix(local, 0, h)],
  };
}

/**
 * The world-space collision shapes of the player's current frame, in frame
 * order, optionally only those with the given element name(s). `transform`
 * is the sprite's transform in the world (or a placement, e.g. of an
 * attached sprite).
 */
export function collisionShapes(player: Player, transform?: SpriteTransform | Placement, names?: NameFilter): WorldShape[] {
  const frame = player.frame;
  if (!frame) return [];
  const doc = player.prepared.doc;
  const m = toPlacement(transform).matrix;
  const out: WorldShape[] = [];
  frame.elements.forEach((e, index) => {
    if (e.type !== 'rect' && e.type !== 'circle') return;
    const name = elementName(doc, e);
    if (!accepts(names, name)) return;
    const base: ShapeBase = { name, id: e.id, index, element: e };
    out.push(e.type === 'rect' ? rectShape(base, e, m) : circleShape(base, e, m));
  });
  return out;
}

// ---- geometry ---------------------------------------------------------------

type Pt = readonly [number, number];

/** Distance from p to the segment a-b. */
function segmentDistance(px: number, py: number, a: Pt, b: Pt): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy;
  let t = len2 > 0 ? ((px - a[0]) * dx + (py - a[1]) * dy) / len2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  return Math.hypot(px - (a[0] + t * dx), py - (a[1] + t * dy));
}

function polygonScale(pts: readonly Pt[]): number {
  let s = 0;
  for (const p of pts) s = Math.max(s, Math.abs(p[0]), Math.abs(p[1]));
  return s;
}

/** True when p is inside or on a convex polygon (any winding; degenerate polygons count as their outline). */
function pointInPolygon(px: number, py: number, pts: readonly Pt[]): boolean {
  const n = pts.length;
  const tol = 1e-12 * Math.max(1, polygonScale(pts), Math.abs(px), Math.abs(py));
  let pos = false;
  let neg = false;
  let area = 0;
  for (let i = 0; i < n; i++) {
    const a = pts[i]!;
    const b = pts[(i + 1) % n]!;
    area += a[0] * b[1] - b[0] * a[1];
    const cross = (b[0] - a[0]) * (py - a[1]) - (b[1] - a[1]) * (px - a[0]);
    if (cross > tol * Math.max(1, Math.hypot(b[0] - a[0], b[1] - a[1]))) pos = true;
    else if (cross < -tol * Math.max(1, Math.hypot(b[0] - a[0], b[1] - a[1]))) neg = true;
  }
  if (Math.abs(area) > tol) return !(pos && neg);
  // Degenerate (a segment or a point): on it or not.
  return polygonDistance(px, py, pts) <= tol;
}

function polygonDistance(px: number, py: number, pts: readonly Pt[]): number {
  let d = Infinity;
  for (let i = 0; i < pts.length; i++) d = Math.min(d, segmentDistance(px, py, pts[i]!, pts[(i + 1) % pts.length]!));
  return d;
}

function circlePolygon(cx: number, cy: number, r: number, pts: readonly Pt[]): boolean {
  return pointInPolygon(cx, cy, pts) || polygonDistance(cx, cy, pts) <= r * (1 + REL_EPS);
}

function project(pts: readonly Pt[], ax: number, ay: number): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of pts) {
    const v = p[0] * ax + p[1] * ay;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return [lo, hi];
}

/** Separating axes for two convex polygons (edge normals, plus edge directions and the centre line for degenerate ones). */
function polygonsOverlap(a: readonly Pt[], b: readonly Pt[]): boolean {
  const axes: [number, number][] = [];
  for (const pts of [a, b]) {
    for (let i = 0; i < pts.length; i++) {
      const p = pts[i]!;
      const q = pts[(i + 1) % pts.length]!;
      const dx = q[0] - p[0];
      const dy = q[1] - p[1];
      if (dx !== 0 || dy !== 0) axes.push([-dy, dx], [dx, dy]);
    }
  }
  const ca = centroid(a);
  const cb = centroid(b);
  if (ca[0] !== cb[0] || ca[1] !== cb[1]) axes.push([cb[0] - ca[0], cb[1] - ca[1]]);
  const tol = 1e-12 * Math.max(1, polygonScale(a), polygonScale(b));
  for (const [ax, ay] of axes) {
    const len = Math.hypot(ax, ay);
    const [alo, ahi] = project(a, ax / len, ay / len);
    const [blo, bhi] = project(b, ax / len, ay / len);
    if (ahi < blo - tol || bhi < alo - tol) return false;
  }
  return true;
}

function centroid(pts: readonly Pt[]): [number, number] {
  let x = 0;
  let y = 0;
  for (const p of pts) {
    x += p[0];
    y += p[1];
  }
  return [x / pts.length, y / pts.length];
}

/** An ellipse's map from world space to its unit-circle space (centre at 0, semi-axes 1). */
function toUnit(e: {
  x: number;
  y: number;
  radiusX: number;
  radiusY: number;
  rotation: number;
}): (x: number, y: number) => [number, number] {
  const t = (-e.rotation * Math.PI) / 180;
  const c = Math.cos(t);
  const s = Math.sin(t);
  return (x, y) => {
    const dx = x - e.x;
    const dy = y - e.y;
    return [(c * dx - s * dy) / e.radiusX, (s * dx + c * dy) / e.radiusY];
  };
}

function asEllipse(s: CircleShape | EllipseShape): { x: number; y: number; radiusX: number; radiusY: number; rotation: number } {
  return s.kind === 'circle' ? { x: s.x, y: s.y, radiusX: s.radius, radiusY: s.radius, rotation: 0 } : s;
}

function isFlat(e: { radiusX: number; radiusY: number }): boolean {
  return !(Math.min(e.radiusX, e.radiusY) > REL_EPS * Math.max(e.radiusX, e.radiusY));
}

/** A flat (zero-width) ellipse as the segment (or point) it is. */
function flatSegment(e: { x: number; y: number; radiusX: number; radiusY: number; rotation: number }): Pt[] {
  const t = (e.rotation * Math.PI) / 180;
  const long = e.radiusX >= e.radiusY ? e.radiusX : e.radiusY;
  const [ux, uy] = e.radiusX >= e.radiusY ? [Math.cos(t), Math.sin(t)] : [-Math.sin(t), Math.cos(t)];
  return [
    [e.x - ux * long, e.y - uy * long],
    [e.x + ux * long, e.y + uy * long],
  ];
}

/**
 * Distance from (y0, y1) (both ≥ 0) to the ellipse (x/e0)² + (y/e1)² = 1 with
 * e0 ≥ e1 > 0 (D. Eberly, "Distance from a Point to an Ellipse", robust bisection).
 */
function ellipseDistanceQ1(e0: number, e1: number, y0: number, y1: number): number {
  if (y1 > 0) {
    if (y0 > 0) {
      const z0 = y0 / e0;
      const z1 = y1 / e1;
      let g = z0 * z0 + z1 * z1 - 1;
      if (g === 0) return 0;
      const r0 = (e0 / e1) * (e0 / e1);
      const n0 = r0 * z0;
      let s0 = z1 - 1;
      let s1 = g < 0 ? 0 : Math.hypot(n0, z1) - 1;
      let s = 0;
      for (let i = 0; i < 200; i++) {
        s = (s0 + s1) / 2;
        if (s === s0 || s === s1) break;
        const a = n0 / (s + r0);
        const b = z1 / (s + 1);
        g = a * a + b * b - 1;
        if (g > 0) s0 = s;
        else if (g < 0) s1 = s;
        else break;
      }
      const x0 = (r0 * y0) / (s + r0);
      const x1 = y1 / (s + 1);
      return Math.hypot(x0 - y0, x1 - y1);
    }
    return Math.abs(y1 - e1);
  }
  const numer = e0 * y0;
  const denom = e0 * e0 - e1 * e1;
  if (numer < denom) {
    const xd = numer / denom;
    const x0 = e0 * xd;
    const x1 = e1 * Math.sqrt(Math.max(0, 1 - xd * xd));
    return Math.hypot(x0 - y0, x1);
  }
  return Math.abs(y0 - e0);
}

/** Whether the unit circle at the origin meets the ellipse given by centre (cx, cy) and linear map [p q; r s] of the unit circle. */
function unitCircleMeetsEllipse(cx: number, cy: number, p: number, q: number, r: number, s: number): boolean {
  const { a, b, angle } = ellipseAxes(p, q, r, s);
  if (!(b > REL_EPS * a)) {
    const seg = flatSegment({ x: cx, y: cy, radiusX: a, radiusY: b, rotation: (angle * 180) / Math.PI });
    return segmentDistance(0, 0, seg[0]!, seg[1]!) <= 1 + REL_EPS;
  }
  // The origin in the ellipse's own axes.
  const c = Math.cos(-angle);
  const sn = Math.sin(-angle);
  const ox = c * -cx - sn * -cy;
  const oy = sn * -cx + c * -cy;
  if ((ox / a) ** 2 + (oy / b) ** 2 <= 1) return true;
  return ellipseDistanceQ1(a, b, Math.abs(ox), Math.abs(oy)) <= 1 + REL_EPS;
}

// ---- public tests ---------------------------------------------------------

/** True when the point (x, y) is inside or on the shape. */
export function pointInShape(shape: WorldShape, x: number, y: number): boolean {
  if (shape.kind === 'circle') return Math.hypot(x - shape.x, y - shape.y) <= shape.radius * (1 + REL_EPS);
  if (shape.kind === 'rect') return pointInPolygon(x, y, shape.points);
  if (isFlat(shape)) {
    const seg = flatSegment(shape);
    return segmentDistance(x, y, seg[0]!, seg[1]!) <= 1e-12 * Math.max(1, shape.radiusX, shape.radiusY);
  }
  const [u, v] = toUnit(shape)(x, y);
  return u * u + v * v <= 1 + REL_EPS;
}

/** True when two shapes overlap (or touch). */
export function shapesOverlap(a: WorldShape, b: WorldShape): boolean {
  if (a.kind === 'rect' && b.kind === 'rect') return polygonsOverlap(a.points, b.points);
  if (a.kind === 'circle' && b.kind === 'circle') return Math.hypot(a.x - b.x, a.y - b.y) <= (a.radius + b.radius) * (1 + REL_EPS);
  if (a.kind === 'rect') return shapesOverlap(b, a);
  // a is a circle or an ellipse.
  const ea = asEllipse(a);
  if (isFlat(ea)) {
    const seg = flatSegment(ea);
    if (b.kind === 'rect') return polygonsOverlap(seg, b.points);
    const eb = asEllipse(b);
    if (isFlat(eb)) return polygonsOverlap(seg, flatSegment(eb));
    return shapesOverlap(b, a);
  }
  const unit = toUnit(ea);
  if (b.kind === 'rect')
    return circlePolygon(
      0,
      0,
      1,
      b.points.map((p) => unit(p[0], p[1])),
    );
  const eb = asEllipse(b);
  if (isFlat(eb)) {
    const seg = flatSegment(eb).map((p) => unit(p[0], p[1]));
    return segmentDistance(0, 0, seg[0]!, seg[1]!) <= 1 + REL_EPS;
  }
  // b's centre and axes in a's unit-circle space.
  const [cx, cy] = unit(eb.x, eb.y);
  const t = (eb.rotation * Math.PI) / 180;
  const [ax, ay] = unit(eb.x + Math.cos(t) * eb.radiusX, eb.y + Math.sin(t) * eb.radiusX);
  const [bx, by] = unit(eb.x - Math.sin(t) * eb.radiusY, eb.y + Math.cos(t) * eb.radiusY);
  return unitCircleMeetsEllipse(cx, cy, ax - cx, bx - cx, ay - cy, by - cy);
}

/** The first pair (in order) of overlapping shapes from two lists, or null. */
export function firstOverlap(as: readonly WorldShape[], bs: readonly WorldShape[]): [WorldShape, WorldShape] | null {
  for (const a of as) for (const b of bs) if (shapesOverlap(a, b)) return [a, b];
  return null;
}

/** The shapes containing the point (x, y). */
export function shapesAt(shapes: readonly WorldShape[], x: number, y: number): WorldShape[] {
  return shapes.filter((s) => pointInShape(s, x, y));
}
