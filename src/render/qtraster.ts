/**
 * Qt 5's raster paint engine, as far as Tiled's shape objects need it, pixel
 * for pixel: what QPainter does with antialiasing on for drawRect,
 * drawPolygon, drawPolyline, drawPoint, drawEllipse and drawPath with a
 * cosmetic pen (round caps and joins) and a solid brush, onto a QImage of
 * Format_ARGB32 (straight alpha), as Debian's Qt 5.15 does it:
 * - QTransform's arithmetic (translate, rotate, map), so fractional places
 *   and rotations land on the same doubles;
 * - QStroker: a stroke's outline as lines and cubic Béziers (round joins
 *   by qt_curves_for_arc, round caps by two kappa cubics), filled nonzero;
 * - QOutlineMapper: curves flattened by QBezier's rule (threshold 0.25),
 *   points rounded to 26.6 fixed point;
 * - the gray raster (qgrayraster.c, FreeType's ftgrays): integer cells of
 *   1/256 pixel, coverage = area >> 9, clamped (nonzero) or folded
 *   (even-odd);
 * - QRasterizer::rasterizeLine for a rectangle's fill (Qt's fast path for
 *   rectangles under a transform without shear), in 16.16 fixed point;
 * - solid spans blended as blend_color_generic does on ARGB32: the
 *   destination premultiplied, source-over with the coverage in 8 bits
 *   (BYTE_MUL), stored back unpremultiplied.
 * Everything is our own TypeScript written from the behaviour of those
 * sources. Browser-safe.
 */
import { WORK_STEPS } from '../binary/limits.js';
import type { RgbaImage } from './image.js';
import { qtSolid } from './path.js';

// ---------------------------------------------------------------- numbers

/** qFuzzyIsNull for doubles. */
export const fuzzyNull = (d: number) => Math.abs(d) <= 1e-12;
/** qFuzzyCompare for doubles. */
export const fuzzyCompare = (a: number, b: number) => Math.abs(a - b) * 1e12 <= Math.min(Math.abs(a), Math.abs(b));
/** QPointF's operator== (fuzzy). */
const pointEq = (ax: number, ay: number, bx: number, by: number) =>
  (!ax || !bx ? fuzzyNull(ax - bx) : fuzzyCompare(ax, bx)) && (!ay || !by ? fuzzyNull(ay - by) : fuzzyCompare(ay, by));
/** qRound for doubles. */
const qRound = (d: number) => (d >= 0 ? Math.trunc(d + 0.5) : Math.trunc(d - Math.trunc(d - 1) + 0.5) + Math.trunc(d - 1));
const KAPPA = 0.5522847498;

// ---------------------------------------------------------------- QTransform

const TX_NONE = 0;
const TX_TRANSLATE = 1;
const TX_SCALE = 2;
const TX_ROTATE = 4;

/** The subset of QTransform a painter uses here (translate, rotate, map), with its arithmetic and type rules. */
export class QTransform {
  m11 = 1;
  m12 = 0;
  m21 = 0;
  m22 = 1;
  dx = 0;
  dy = 0;
  private dirty = TX_NONE;
  private kind = TX_NONE;

  clone(): QTransform {
    const t = new QTransform();
    Object.assign(t, this);
    return t;
  }

  /** QTransform::type(). */
  type(): number {
    if (this.dirty === TX_NONE || this.dirty < this.kind) return this.kind;
    let k = TX_NONE;
    const d = this.dirty;
    if (d >= TX_ROTATE && (!fuzzyNull(this.m12) || !fuzzyNull(this.m21))) {
      const dot = this.m11 * this.m21 + this.m12 * this.m22;
      k = fuzzyNull(dot) ? TX_ROTATE : 8;
    } else if (d >= TX_SCALE && (!fuzzyNull(this.m11 - 1) || !fuzzyNull(this.m22 - 1))) k = TX_SCALE;
    else if (d >= TX_TRANSLATE && (!fuzzyNull(this.dx) || !fuzzyNull(this.dy))) k = TX_TRANSLATE;
    this.kind = k;
    this.dirty = TX_NONE;
    return k;
  }

  translate(dx: number, dy: number): this {
    if (dx === 0 && dy === 0) return this;
    if (Number.isNaN(dx) || Number.isNaN(dy)) return this;
    const t = this.dirty === TX_NONE ? this.kind : this.type();
    if (t === TX_NONE) {
      this.dx = dx;
      this.dy = dy;
    } else if (t === TX_TRANSLATE) {
      this.dx += dx;
      this.dy += dy;
    } else if (t === TX_SCALE) {
      this.dx += dx * this.m11;
      this.dy += dy * this.m22;
    } else {
      this.dx += dx * this.m11 + dy * this.m21;
      this.dy += dy * this.m22 + dx * this.m12;
    }
    if (this.dirty < TX_TRANSLATE) this.dirty = TX_TRANSLATE;
    return this;
  }

  /** QTransform::rotate(a) about the z axis, in degrees. */
  rotate(a: number): this {
    if (a === 0) return this;
    if (Number.isNaN(a)) return this;
    let sina = 0;
    let cosa = 0;
    if (a === 90 || a === -270) sina = 1;
    else if (a === 270 || a === -90) sina = -1;
    else if (a === 180) cosa = -1;
    else {
      const b = 0.017453292519943295 * a;
      sina = Math.sin(b);
      cosa = Math.cos(b);
    }
    const t = this.dirty === TX_NONE ? this.kind : this.type();
    if (t === TX_NONE || t === TX_TRANSLATE) {
      this.m11 = cosa;
      this.m12 = sina;
      this.m21 = -sina;
      this.m22 = cosa;
    } else if (t === TX_SCALE) {
      const tm12 = sina * this.m22;
      const tm21 = -sina * this.m11;
      this.m11 *= cosa;
      this.m22 *= cosa;
      this.m12 = tm12;
      this.m21 = tm21;
    } else {
      const tm11 = cosa * this.m11 + sina * this.m21;
      const tm12 = cosa * this.m12 + sina * this.m22;
      const tm21 = -sina * this.m11 + cosa * this.m21;
      const tm22 = -sina * this.m12 + cosa * this.m22;
      this.m11 = tm11;
      this.m12 = tm12;
      this.m21 = tm21;
      this.m22 = tm22;
    }
    if (this.dirty < TX_ROTATE) this.dirty = TX_ROTATE;
    return this;
  }

  /** QTransform::map(QPointF). */
  map(x: number, y: number): [number, number] {
    const t = this.type();
    if (t === TX_NONE) return [x, y];
    if (t === TX_TRANSLATE) return [x + this.dx, y + this.dy];
    if (t === TX_SCALE) return [this.m11 * x + this.dx, this.m22 * y + this.dy];
    return [this.m11 * x + this.m21 * y + this.dx, this.m12 * x + this.m22 * y + this.dy];
  }

  /** How QOutlineMapper::endOutline maps a point (its own order of the sums). */
  mapOutline(x: number, y: number): [number, number] {
    const t = this.type();
    if (t === TX_NONE) return [x, y];
    if (t === TX_TRANSLATE) return [x + this.dx, y + this.dy];
    if (t === TX_SCALE) return [this.m11 * x + this.dx, this.m22 * y + this.dy];
    return [this.m11 * x + this.m21 * y + this.dx, this.m22 * y + this.m12 * x + this.dy];
  }

  /** Whether Qt's fast rectangle path applies (qt_scaleForTransform: no shear, uniform scale). */
  noShear(): boolean {
    const t = this.type();
    if (t <= TX_TRANSLATE) return true;
    if (t === TX_SCALE) return fuzzyCompare(Math.abs(this.m11), Math.abs(this.m22));
    const xs1 = this.m11 * this.m11 + this.m21 * this.m21;
    const ys1 = this.m12 * this.m12 + this.m22 * this.m22;
    const xs2 = this.m11 * this.m11 + this.m12 * this.m12;
    const ys2 = this.m21 * this.m21 + this.m22 * this.m22;
    if (Math.abs(xs1 - ys1) > Math.abs(xs2 - ys2)) return t === TX_ROTATE && fuzzyCompare(xs1, ys1);
    return t === TX_ROTATE && fuzzyCompare(xs2, ys2);
  }
}

// ---------------------------------------------------------------- paths

/** A path as Qt holds it: moveTo / lineTo / cubicTo elements. */
export type PathOp =
  | { op: 'M'; x: number; y: number }
  | { op: 'L'; x: number; y: number }
  | { op: 'C'; x1: number; y1: number; x2: number; y2: number; x: number; y: number };

/** QBezier::addToPolygon: the cubic from (x1, y1) flattened, its end points pushed (the start left out). */
export function flattenBezier(out: number[], b: readonly number[], threshold: number): void {
  const stack: number[][] = [b.slice(0, 8)];
  const levels: number[] = [9];
  while (stack.length) {
    const top = stack.length - 1;
    const c = stack[top]!;
    const [x1, y1, x2, y2, x3, y3, x4, y4] = c as [number, number, number, number, number, number, number, number];
    const y4y1 = y4 - y1;
    const x4x1 = x4 - x1;
    let l = Math.abs(x4x1) + Math.abs(y4y1);
    let d: number;
    if (l > 1) d = Math.abs(x4x1 * (y1 - y2) - y4y1 * (x1 - x2)) + Math.abs(x4x1 * (y1 - y3) - y4y1 * (x1 - x3));
    else {
      d = Math.abs(x1 - x2) + Math.abs(y1 - y2) + Math.abs(x1 - x3) + Math.abs(y1 - y3);
      l = 1;
    }
    if (d < threshold * l || levels[top] === 0) {
      out.push(x4, y4);
      stack.pop();
      levels.pop();
      continue;
    }
    // QBezier::split: the first half goes on top.
    const cx = (x2 + x3) * 0.5;
    const cy = (y2 + y3) * 0.5;
    const f2x = (x1 + x2) * 0.5;
    const f2y = (y1 + y2) * 0.5;
    const s3x = (x3 + x4) * 0.5;
    const s3y = (y3 + y4) * 0.5;
    const f3x = (f2x + cx) * 0.5;
    const f3y = (f2y + cy) * 0.5;
    const s2x = (s3x + cx) * 0.5;
    const s2y = (s3y + cy) * 0.5;
    const mx = (f3x + s2x) * 0.5;
    const my = (f3y + s2y) * 0.5;
    const level = levels[top]! - 1;
    stack[top] = [mx, my, s2x, s2y, s3x, s3y, x4, y4];
    levels[top] = level;
    stack.push([x1, y1, f2x, f2y, f3x, f3y, mx, my]);
    levels.push(level);
  }
}

/** QBezier::parameterSplitLeft on b (changed to the right part); the left part returned. */
function splitLeft(b: number[], t: number): number[] {
  const [x1, y1, x2, y2, x3, y3, x4, y4] = b as [number, number, number, number, number, number, number, number];
  const l2x = x1 + t * (x2 - x1);
  const l2y = y1 + t * (y2 - y1);
  let l3x = x2 + t * (x3 - x2);
  let l3y = y2 + t * (y3 - y2);
  const nx3 = x3 + t * (x4 - x3);
  const ny3 = y3 + t * (y4 - y3);
  const nx2 = l3x + t * (nx3 - l3x);
  const ny2 = l3y + t * (ny3 - l3y);
  l3x = l2x + t * (l3x - l2x);
  l3y = l2y + t * (l3y - l2y);
  const l4x = l3x + t * (nx2 - l3x);
  const l4y = l3y + t * (ny2 - l3y);
  b[0] = l4x;
  b[1] = l4y;
  b[2] = nx2;
  b[3] = ny2;
  b[4] = nx3;
  b[5] = ny3;
  return [x1, y1, l2x, l2y, l3x, l3y, l4x, l4y];
}

/** QBezier::bezierOnInterval. */
function bezierOnInterval(b: readonly number[], t0: number, t1: number): number[] {
  if (t0 === 0 && t1 === 1) return b.slice();
  const c = b.slice();
  splitLeft(c, t0);
  const trueT = (t1 - t0) / (1 - t0);
  return splitLeft(c, trueT);
}

/** qt_t_for_arc_angle. */
function tForArcAngle(angle: number): number {
  if (fuzzyNull(angle)) return 0;
  if (fuzzyCompare(angle, 90)) return 1;
  const radians = (Math.PI * angle) / 180;
  const cosAngle = Math.cos(radians);
  const sinAngle = Math.sin(radians);
  let tc = angle / 90;
  for (let i = 0; i < 2; i++)
    tc -= (((2 - 3 * KAPPA) * tc + 3 * (KAPPA - 1)) * tc * tc + 1 - cosAngle) / (((6 - 9 * KAPPA) * tc + 6 * (KAPPA - 1)) * tc);
  let ts = tc;
  for (let i = 0; i < 2; i++)
    ts -=
      ((((3 * KAPPA - 2) * ts - 6 * KAPPA + 3) * ts + 3 * KAPPA) * ts - sinAngle) /
      (((9 * KAPPA - 6) * ts + 12 * KAPPA - 6) * ts + 3 * KAPPA);
  return 0.5 * (tc + ts);
}

/** qt_find_ellipse_coords: the point at `angle` (degrees) of the ellipse in the box. */
function ellipsePoint(x: number, y: number, w: number, h: number, angle: number): [number, number] {
  const w2 = w / 2;
  const h2 = h / 2;
  const theta = angle - 360 * Math.floor(angle / 360);
  let t = theta / 90;
  const quadrant = Math.trunc(t);
  t -= quadrant;
  t = tForArcAngle(90 * t);
  if (quadrant & 1) t = 1 - t;
  const mt = 1 - t;
  let b = mt * mt;
  let c = t * t;
  const d = c * t;
  const a = b * mt;
  b *= 3 * t;
  c *= 3 * mt;
  let px = a + b + c * KAPPA;
  let py = d + c + b * KAPPA;
  if (quadrant === 1 || quadrant === 2) px = -px;
  if (quadrant === 0 || quadrant === 1) py = -py;
  return [x + w / 2 + w2 * px, y + h / 2 + h2 * py];
}

/**
 * qt_curves_for_arc: the arc of the ellipse in the box (x, y, w, h) from `startAngle` sweeping `sweep`
 * degrees (counter-clockwise on screen for positive sweeps), as its start point and cubics
 * (3 points each, flat [x, y, ...]). Undefined for a null box.
 */
export function curvesForArc(
  x: number,
  y: number,
  w: number,
  h: number,
  startAngle: number,
  sweep: number,
): { start: [number, number]; curves: number[] } | undefined {
  if ([x, y, w, h, startAngle, sweep].some(Number.isNaN)) return undefined;
  if (w === 0 && h === 0) return undefined;
  const w2 = w / 2;
  const w2k = w2 * KAPPA;
  const h2 = h / 2;
  const h2k = h2 * KAPPA;
  const P: [number, number][] = [
    [x + w, y + h2],
    [x + w, y + h2 + h2k],
    [x + w2 + w2k, y + h],
    [x + w2, y + h],
    [x + w2 - w2k, y + h],
    [x, y + h2 + h2k],
    [x, y + h2],
    [x, y + h2 - h2k],
    [x + w2 - w2k, y],
    [x + w2, y],
    [x + w2 + w2k, y],
    [x + w, y + h2 - h2k],
    [x + w, y + h2],
  ];
  if (sweep > 360) sweep = 360;
  else if (sweep < -360) sweep = -360;
  const curves: number[] = [];
  if (startAngle === 0) {
    if (sweep === 360) {
      for (let i = 11; i >= 0; i--) curves.push(P[i]![0]!, P[i]![1]!);
      return { start: P[12]!, curves };
    }
    if (sweep === -360) {
      for (let i = 1; i <= 12; i++) curves.push(P[i]![0]!, P[i]![1]!);
      return { start: P[0]!, curves };
    }
  }
  let startSegment = Math.floor(startAngle / 90);
  let endSegment = Math.floor((startAngle + sweep) / 90);
  let startT = (startAngle - startSegment * 90) / 90;
  let endT = (startAngle + sweep - endSegment * 90) / 90;
  const delta = sweep > 0 ? 1 : -1;
  if (delta < 0) {
    startT = 1 - startT;
    endT = 1 - endT;
  }
  if (fuzzyNull(startT - 1)) {
    startT = 0;
    startSegment += delta;
  }
  if (fuzzyNull(endT)) {
    endT = 1;
    endSegment -= delta;
  }
  startT = tForArcAngle(startT * 90);
  endT = tForArcAngle(endT * 90);
  const splitAtStart = !fuzzyNull(startT);
  const splitAtEnd = !fuzzyNull(endT - 1);
  const end = endSegment + delta;
  if (startSegment === end) {
    const quadrant = 3 - (((startSegment % 4) + 4) % 4);
    const j = 3 * quadrant;
    return { start: delta > 0 ? P[j + 3]! : P[j]!, curves };
  }
  const startPoint = ellipsePoint(x, y, w, h, startAngle);
  const endPoint = ellipsePoint(x, y, w, h, startAngle + sweep);
  for (let i = startSegment; i !== end; i += delta) {
    const quadrant = 3 - (((i % 4) + 4) % 4);
    const j = 3 * quadrant;
    let b = delta > 0 ? [...P[j + 3]!, ...P[j + 2]!, ...P[j + 1]!, ...P[j]!] : [...P[j]!, ...P[j + 1]!, ...P[j + 2]!, ...P[j + 3]!];
    if (startSegment === endSegment && fuzzyCompare(startT, endT)) return { start: startPoint, curves };
    if (i === startSegment) {
      if (i === endSegment && splitAtEnd) b = bezierOnInterval(b, startT, endT);
      else if (splitAtStart) b = bezierOnInterval(b, startT, 1);
    } else if (i === endSegment && splitAtEnd) b = bezierOnInterval(b, 0, endT);
    curves.push(b[2]!, b[3]!, b[4]!, b[5]!, b[6]!, b[7]!);
  }
  curves[curves.length - 2] = endPoint[0];
  curves[curves.length - 1] = endPoint[1];
  return { start: startPoint, curves };
}

// ---------------------------------------------------------------- QLineF

type Line = [number, number, number, number];

const lineLength = (l: Line) => Math.sqrt((l[2] - l[0]) * (l[2] - l[0]) + (l[3] - l[1]) * (l[3] - l[1]));
const lineIsNull = (l: Line) => fuzzyCompare(l[0], l[2]) && fuzzyCompare(l[1], l[3]);

/** QLineF::setLength. */
function setLength(l: Line, len: number): Line {
  if (lineIsNull(l)) return l;
  const x = l[2] - l[0];
  const y = l[3] - l[1];
  const n = Math.sqrt(x * x + y * y);
  const ux = l[0] + x / n - l[0];
  const uy = l[1] + y / n - l[1];
  return [l[0], l[1], l[0] + ux * len, l[1] + uy * len];
}

/** QLineF::normalVector. */
const normalVector = (l: Line): Line => [l[0], l[1], l[0] + (l[3] - l[1]), l[1] - (l[2] - l[0])];
const translated = (l: Line, dx: number, dy: number): Line => [l[0] + dx, l[1] + dy, l[2] + dx, l[3] + dy];

/** QLineF::intersect: 0 none, 1 bounded, 2 unbounded. */
function intersect(a: Line, b: Line): number {
  const ax = a[2] - a[0];
  const ay = a[3] - a[1];
  const bx = b[0] - b[2];
  const by = b[1] - b[3];
  const cx = a[0] - b[0];
  const cy = a[1] - b[1];
  const den = ay * bx - ax * by;
  if (den === 0 || !Number.isFinite(den)) return 0;
  const r = 1 / den;
  const na = (by * cx - bx * cy) * r;
  if (na < 0 || na > 1) return 2;
  const nb = (ax * cy - ay * cx) * r;
  if (nb < 0 || nb > 1) return 2;
  return 1;
}

/** QLineF::angle(): degrees counter-clockwise from the x axis (y down), 0 … 360. */
function angleOf(l: Line): number {
  const dx = l[2] - l[0];
  const dy = l[3] - l[1];
  const theta = (Math.atan2(-dy, dx) * 360) / (2 * Math.PI);
  const n = theta < 0 ? theta + 360 : theta;
  return fuzzyCompare(n, 360) ? 0 : n;
}

/** QLineF::angleTo. */
function angleTo(a: Line, b: Line): number {
  if (lineIsNull(a) || lineIsNull(b)) return 0;
  const delta = angleOf(b) - angleOf(a);
  const dn = delta < 0 ? delta + 360 : delta;
  return fuzzyCompare(delta, 360) ? 0 : dn;
}

/** adapted_angle_on_x: the line's direction on the unit circle, through the old QLineF::angle(QLineF). */
function angleOnX(l: Line): number {
  let angle = 0;
  if (!lineIsNull(l)) {
    const dx = l[2] - l[0];
    const dy = l[3] - l[1];
    const cos = (dx * 1 + dy * 0) / (lineLength(l) * 1);
    const rad = cos >= -1 && cos <= 1 ? Math.acos(cos) : 0;
    angle = (rad * 360) / (2 * Math.PI);
  }
  if (l[3] - l[1] > 0) angle = 360 - angle;
  return angle;
}

// ---------------------------------------------------------------- QStroker

const JOIN_ROUND = 'round';
const CAP_ROUND = 'roundcap';

/**
 * QStroker with round caps and round joins, width `width`: the outline of the stroke of `input` (one or
 * more subpaths in device coordinates), to fill with the winding rule.
 */
export function strokeOutline(input: PathOp[], width: number): PathOp[] {
  const out: PathOp[] = [];
  const offset = width / 2;
  let b1x = 0;
  let b1y = 0;
  let b2x = 0;
  let b2y = 0;
  const emitMoveTo = (x: number, y: number) => {
    b2x = b1x;
    b2y = b1y;
    b1x = x;
    b1y = y;
    out.push({ op: 'M', x, y });
  };
  const emitLineTo = (x: number, y: number) => {
    b2x = b1x;
    b2y = b1y;
    b1x = x;
    b1y = y;
    out.push({ op: 'L', x, y });
  };
  const emitCubicTo = (x1: number, y1: number, x2: number, y2: number, x: number, y: number) => {
    if (x2 === x && y2 === y) {
      if (x1 === x && y1 === y) {
        b2x = b1x;
        b2y = b1y;
      } else {
        b2x = x1;
        b2y = y1;
      }
    } else {
      b2x = x2;
      b2y = y2;
    }
    b1x = x;
    b1y = y;
    out.push({ op: 'C', x1, y1, x2, y2, x, y });
  };

  const joinPoints = (fx: number, fy: number, next: Line, join: string) => {
    if (fuzzyCompare(b1x, next[0]) && fuzzyCompare(b1y, next[1])) return;
    const prev: Line = [b2x, b2y, b1x, b1y];
    if (join === JOIN_ROUND) {
      const type = intersect(prev, next);
      const shortCut: Line = [prev[2], prev[3], next[0], next[1]];
      const angle = angleTo(shortCut, prev);
      // The inside of the turn (Qt 5.15: only when the next segment is longer than half the pen).
      if ((type === 1 || angle > 90.01) && lineLength(next) > offset) {
        emitLineTo(fx, fy);
        emitLineTo(next[0], next[1]);
        return;
      }
      const l1 = angleOnX(prev);
      const l2 = angleOnX(next);
      const sweep = Math.abs(l2 - l1);
      const arc = curvesForArc(fx - offset, fy - offset, offset * 2, offset * 2, l1 + 90, -sweep);
      const c = arc?.curves ?? [];
      for (let i = 0; i + 5 < c.length; i += 6) emitCubicTo(c[i]!, c[i + 1]!, c[i + 2]!, c[i + 3]!, c[i + 4]!, c[i + 5]!);
      emitLineTo(next[0], next[1]);
    } else {
      // The round cap: two kappa cubics round the end.
      let l1: Line = translated(prev, prev[2] - prev[0], prev[3] - prev[1]);
      l1 = setLength(l1, KAPPA * offset);
      let l2: Line = [fx, fy, prev[2], prev[3]];
      l2 = translated(l2, -(l2[3] - l2[1]), l2[2] - l2[0]);
      l2 = setLength(l2, KAPPA * offset);
      emitCubicTo(l1[2], l1[3], l2[2], l2[3], l2[0], l2[1]);
      l2 = [l2[0], l2[1], l2[0] - (l2[2] - l2[0]), l2[1] - (l2[3] - l2[1])];
      l1 = translated(l1, next[0] - l1[0], next[1] - l1[1]);
      emitCubicTo(l2[2], l2[3], l1[2], l1[3], l1[0], l1[1]);
    }
  };

  /** qt_stroke_side over elements (already in the side's order); whether the subpath is closed, and its start tangent. */
  const strokeSide = (els: PathOp[], capFirst: boolean): { closed: boolean; tangent: Line } => {
    const first = els[0]!;
    const sx = first.x;
    const sy = first.y;
    let px = sx;
    let py = sy;
    let isFirst = true;
    let tangent: Line = [0, 0, 0, 0];
    for (let i = 1; i < els.length; i++) {
      const e = els[i]!;
      if (e.op === 'L') {
        let line: Line = [px, py, e.x, e.y];
        if (!pointEq(line[0], line[1], line[2], line[3])) {
          const n = setLength(normalVector(line), offset);
          line = translated(line, n[2] - n[0], n[3] - n[1]);
          if (isFirst) {
            if (capFirst) joinPoints(px, py, line, CAP_ROUND);
            else emitMoveTo(line[0], line[1]);
            tangent = line;
            isFirst = false;
          } else joinPoints(px, py, line, JOIN_ROUND);
          emitLineTo(line[2], line[3]);
          px = e.x;
          py = e.y;
        }
      } else if (e.op === 'C') {
        const bez = [px, py, e.x1, e.y1, e.x2, e.y2, e.x, e.y];
        const curves = shiftedBezier(bez, offset);
        if (curves.length) {
          const t0 = startTangent(bez);
          const tan = translated(t0, curves[0]![0]! - bez[0]!, curves[0]![1]! - bez[1]!);
          if (isFirst) {
            if (capFirst) joinPoints(px, py, tan, CAP_ROUND);
            else emitMoveTo(curves[0]![0]!, curves[0]![1]!);
            tangent = tan;
            isFirst = false;
          } else joinPoints(px, py, tan, JOIN_ROUND);
          for (const c of curves) emitCubicTo(c[2]!, c[3]!, c[4]!, c[5]!, c[6]!, c[7]!);
        }
        px = e.x;
        py = e.y;
      }
    }
    if (sx === px && sy === py) {
      if (!isFirst) joinPoints(px, py, tangent, JOIN_ROUND);
      return { closed: true, tangent };
    }
    return { closed: false, tangent };
  };

  /** The subpath reversed, as QSubpathBackwardIterator walks it. */
  const reversed = (els: PathOp[]): PathOp[] => {
    const r: PathOp[] = [];
    const last = els[els.length - 1]!;
    r.push({ op: 'M', x: last.x, y: last.y });
    for (let i = els.length - 1; i >= 1; i--) {
      const e = els[i]!;
      const prev = els[i - 1]!;
      if (e.op === 'C') r.push({ op: 'C', x1: e.x2, y1: e.y2, x2: e.x1, y2: e.y1, x: prev.x, y: prev.y });
      else r.push({ op: 'L', x: prev.x, y: prev.y });
    }
    return r;
  };

  const process = (els: PathOp[]) => {
    if (els.length < 2) return;
    const fw = strokeSide(els, false);
    const bw = strokeSide(reversed(els), !fw.closed);
    if (!bw.closed) joinPoints(els[0]!.x, els[0]!.y, fw.tangent, CAP_ROUND);
  };

  let sub: PathOp[] = [];
  for (const e of input) {
    if (e.op === 'M') {
      process(sub);
      sub = [e];
    } else sub.push(e);
  }
  process(sub);
  return out;
}

/** QBezier::startTangent. */
function startTangent(b: readonly number[]): Line {
  const [x1, y1, x2, y2, x3, y3, x4, y4] = b as [number, number, number, number, number, number, number, number];
  if (pointEq(x1, y1, x2, y2)) {
    if (pointEq(x1, y1, x3, y3)) return [x1, y1, x4, y4];
    return [x1, y1, x3, y3];
  }
  return [x1, y1, x2, y2];
}

type Bez = number[];

/** QBezier::pointAt. */
function pointAt(b: Bez, t: number): [number, number] {
  const mt = 1 - t;
  const at = (i: number) => {
    let a = b[i]! * mt + b[i + 2]! * t;
    let c = b[i + 2]! * mt + b[i + 4]! * t;
    const e = b[i + 4]! * mt + b[i + 6]! * t;
    a = a * mt + c * t;
    c = c * mt + e * t;
    return a * mt + c * t;
  };
  return [at(0), at(1)];
}

/** QBezier::normalVector(t). */
function normalAt(b: Bez, t: number): [number, number] {
  const mt = 1 - t;
  const a = mt * mt;
  const c1 = t * mt;
  const c = t * t;
  const [x1, y1, x2, y2, x3, y3, x4, y4] = b as [number, number, number, number, number, number, number, number];
  return [(y2 - y1) * a + (y3 - y2) * c1 + (y4 - y3) * c, -(x2 - x1) * a - (x3 - x2) * c1 - (x4 - x3) * c];
}

/** QBezier::split into [first half, second half]. */
function splitHalves(b: Bez): [Bez, Bez] {
  const f: Bez = new Array(8);
  const s: Bez = new Array(8);
  for (const i of [0, 1]) {
    const c = (b[2 + i]! + b[4 + i]!) * 0.5;
    f[2 + i] = (b[i]! + b[2 + i]!) * 0.5;
    s[4 + i] = (b[4 + i]! + b[6 + i]!) * 0.5;
    f[i] = b[i]!;
    s[6 + i] = b[6 + i]!;
    f[4 + i] = (f[2 + i]! + c) * 0.5;
    s[2 + i] = (s[4 + i]! + c) * 0.5;
    f[6 + i] = s[i] = (f[4 + i]! + s[2 + i]!) * 0.5;
  }
  return [f, s];
}

/** The unit normal of the vector (dx, dy), as QLineF(QPointF(), d).normalVector().unitVector().p2(). */
function unitNormal(dx: number, dy: number): [number, number] {
  const x = dy;
  const y = -dx;
  const len = Math.sqrt(x * x + y * y);
  return [0 + x / len, 0 + y / len];
}

/** good_offset + shift of qbezier.cpp: 0 ok, 1 discard, 2 split, 3 circle; the shifted cubic in `out`. */
function shiftOne(orig: Bez, out: Bez, offset: number, threshold: number): number {
  const [x1, y1, x2, y2, x3, y3, x4, y4] = orig as [number, number, number, number, number, number, number, number];
  const p12 = x1 === x2 && y1 === y2;
  const p23 = x2 === x3 && y2 === y3;
  const p34 = x3 === x4 && y3 === y4;
  const pts: [number, number][] = [[x1, y1]];
  const map = [0, 0, 0, 0];
  if (!p12) pts.push([x2, y2]);
  map[1] = pts.length - 1;
  if (!p23) pts.push([x3, y3]);
  map[2] = pts.length - 1;
  if (!p34) pts.push([x4, y4]);
  map[3] = pts.length - 1;
  const np = pts.length;
  if (np === 1) return 1;
  const bw = Math.max(x1, x2, x3, x4) - Math.min(x1, x2, x3, x4);
  const bh = Math.max(y1, y2, y3, y4) - Math.min(y1, y2, y3, y4);
  if (np === 4 && bw < 0.1 * offset && bh < 0.1 * offset) {
    // (sic: Qt's expression)
    const l = (x1 - x2) * (x1 - x2) + (y1 - y2) * (y1 - y1) * (x3 - x4) * (x3 - x4) + (y3 - y4) * (y3 - y4);
    const dot = (x1 - x2) * (x3 - x4) + (y1 - y2) * (y3 - y4);
    if (dot < 0 && dot * dot < 0.8 * l) return 3;
  }
  const sh: [number, number][] = new Array(np);
  let prev = unitNormal(pts[1]![0] - pts[0]![0], pts[1]![1] - pts[0]![1]);
  sh[0] = [pts[0]![0] + offset * prev[0], pts[0]![1] + offset * prev[1]];
  for (let i = 1; i < np - 1; i++) {
    const next = unitNormal(pts[i + 1]![0] - pts[i]![0], pts[i + 1]![1] - pts[i]![1]);
    const sx = prev[0] + next[0];
    const sy = prev[1] + next[1];
    const r = 1 + prev[0] * next[0] + prev[1] * next[1];
    if (fuzzyNull(r)) sh[i] = [pts[i]![0] + offset * prev[0], pts[i]![1] + offset * prev[1]];
    else {
      const k = offset / r;
      sh[i] = [pts[i]![0] + k * sx, pts[i]![1] + k * sy];
    }
    prev = next;
  }
  sh[np - 1] = [pts[np - 1]![0] + offset * prev[0], pts[np - 1]![1] + offset * prev[1]];
  for (let i = 0; i < 4; i++) {
    out[2 * i] = sh[map[i]!]![0];
    out[2 * i + 1] = sh[map[i]!]![1];
  }
  // good_offset
  const o2 = offset * offset;
  const maxLine = threshold * offset * offset;
  const maxNormal = threshold * offset;
  for (let t = 0.25; t < 0.99; t += 0.25) {
    const q1 = pointAt(orig, t);
    const q2 = pointAt(out, t);
    let d = (q1[0] - q2[0]) * (q1[0] - q2[0]) + (q1[1] - q2[1]) * (q1[1] - q2[1]);
    if (Math.abs(d - o2) > maxLine) return 2;
    const n = normalAt(orig, t);
    const l = Math.abs(n[0]) + Math.abs(n[1]);
    if (l !== 0) {
      d = Math.abs(n[0] * (q1[1] - q2[1]) - n[1] * (q1[0] - q2[0])) / l;
      if (d > maxNormal) return 2;
    }
  }
  return 0;
}

/** addCircle of qbezier.cpp: two cubics round the end of a cubic that turns back on itself. */
function addCircle(b: Bez, offset: number, out: Bez[]): boolean {
  const [x1, y1, x2, y2, x3, y3, x4, y4] = b as [number, number, number, number, number, number, number, number];
  const n: [number, number][] = [
    [y2 - y1, x1 - x2],
    [0, 0],
    [y4 - y3, x3 - x4],
  ];
  let dist = Math.sqrt(n[0]![0] * n[0]![0] + n[0]![1] * n[0]![1]);
  if (fuzzyNull(dist)) return false;
  n[0] = [n[0]![0] / dist, n[0]![1] / dist];
  dist = Math.sqrt(n[2]![0] * n[2]![0] + n[2]![1] * n[2]![1]);
  if (fuzzyNull(dist)) return false;
  n[2] = [n[2]![0] / dist, n[2]![1] / dist];
  n[1] = [x1 - x2 - x3 + x4, y1 - y2 - y3 + y4];
  const l1 = -1 * Math.sqrt(n[1]![0] * n[1]![0] + n[1]![1] * n[1]![1]);
  n[1] = [n[1]![0] / l1, n[1]![1] / l1];
  const angles = [0, 0];
  let sign = 1;
  for (let i = 0; i < 2; i++) {
    let c = n[i]![0] * n[i + 1]![0] + n[i]![1] * n[i + 1]![1];
    if (c > 1) c = 1;
    if (c < -1) c = -1;
    angles[i] = Math.acos(c) / Math.PI;
  }
  if (angles[0]! + angles[1]! > 1) {
    n[1] = [-n[1]![0], -n[1]![1]];
    angles[0] = 1 - angles[0]!;
    angles[1] = 1 - angles[1]!;
    sign = -1;
  }
  const circle: [number, number][] = [
    [x1 + n[0]![0] * offset, y1 + n[0]![1] * offset],
    [0.5 * (x1 + x4) + n[1]![0] * offset, 0.5 * (y1 + y4) + n[1]![1] * offset],
    [x4 + n[2]![0] * offset, y4 + n[2]![1] * offset],
  ];
  for (let i = 0; i < 2; i++) {
    const kappa = 2 * KAPPA * sign * offset * angles[i]!;
    out.push([
      circle[i]![0],
      circle[i]![1],
      circle[i]![0] - n[i]![1] * kappa,
      circle[i]![1] + n[i]![0] * kappa,
      circle[i + 1]![0] + n[i + 1]![1] * kappa,
      circle[i + 1]![1] - n[i + 1]![0] * kappa,
      circle[i + 1]![0],
      circle[i + 1]![1],
    ]);
  }
  return true;
}

/** QBezier::shifted (at most 16 segments, threshold 0.25): the cubic moved `offset` to its left, as cubics. */
function shiftedBezier(src: readonly number[], offset: number, maxSegments = 16, threshold0 = 0.25): number[][] {
  const [x1, y1, x2, y2, x3, y3, x4, y4] = src as [number, number, number, number, number, number, number, number];
  if (x1 === x2 && x1 === x3 && x1 === x4 && y1 === y2 && y1 === y3 && y1 === y4) return [];
  maxSegments--;
  let threshold = threshold0;
  let out: Bez[] = [];
  let stack: Bez[] = [];
  let giveUp = false;
  for (;;) {
    stack = [src.slice()];
    out = [];
    let redo = false;
    while (stack.length) {
      const depth = stack.length;
      if (depth === 10 || out.length === maxSegments - depth) {
        threshold *= 1.5;
        if (threshold > 2) giveUp = true;
        else redo = true;
        break;
      }
      const b = stack[depth - 1]!;
      const o: Bez = new Array(8).fill(0);
      const res = shiftOne(b, o, offset, threshold);
      if (res === 1) stack.pop();
      else if (res === 0) {
        out.push(o);
        stack.pop();
      } else if (res === 3 && maxSegments - out.length >= 2) {
        const c: Bez[] = [];
        if (addCircle(b, offset, c)) for (const q of c) out.push(q);
        stack.pop();
      } else {
        const [f, s] = splitHalves(b);
        stack[depth - 1] = s;
        stack.push(f);
      }
    }
    if (!redo) break;
  }
  if (giveUp) {
    while (stack.length) {
      const b = stack.pop()!;
      const o: Bez = new Array(8).fill(0);
      const res = shiftOne(b, o, offset, threshold);
      if (res === 0 || res === 2) out.push(o);
    }
  }
  return out;
}

// ---------------------------------------------------------------- outline mapper + gray raster

/** A span of equal coverage: x, y, length, coverage 1 … 255. */
export type SpanSink = (x: number, y: number, len: number, coverage: number) => void;

/** The clip box: device pixels x0 … x1 - 1, y0 … y1 - 1. */
export interface Clip {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * QOutlineMapper::convertPath: the path's subpaths as closed contours of 26.6 points, its curves
 * flattened (threshold 0.25 in the path's own coordinates), then mapped by `m` (QOutlineMapper's
 * order of sums).
 */
export function outlineContours(path: PathOp[], m?: QTransform, threshold = 0.25): number[][] {
  const contours: number[][] = [];
  let cur: number[] = [];
  let last: [number, number] = [0, 0];
  const flush = () => {
    if (cur.length >= 2) contours.push(cur);
    cur = [];
  };
  path.forEach((e, i) => {
    if (e.op === 'M') {
      flush();
      if (i === path.length - 1) return;
      cur.push(e.x, e.y);
    } else if (e.op === 'C') flattenBezier(cur, [last[0], last[1], e.x1, e.y1, e.x2, e.y2, e.x, e.y], threshold);
    else cur.push(e.x, e.y);
    last = [e.x, e.y];
  });
  flush();
  return contours.map((c) => {
    const o: number[] = [];
    for (let i = 0; i < c.length; i += 2) {
      const [x, y] = m ? m.mapOutline(c[i]!, c[i + 1]!) : [c[i]!, c[i + 1]!];
      o.push(qRound(x * 64), qRound(y * 64));
    }
    return o;
  });
}

/** Coordinates beyond this (in pixels) are not drawn exactly: Qt clips such paths first (QT_RASTER_COORD_LIMIT). */
const COORD_LIMIT = 32767;

/** The points a path's outline has before flattening: one a line, as many as a curve flattens to at most (QBezier: 2^9). */
function pathPoints(path: PathOp[]): number {
  let n = 0;
  for (const e of path) n += e.op === 'C' ? 512 : 1;
  return n;
}

/** Raster passes over at most this many cells (their box) keep every cell in place; bigger ones only the cells edges cross. */
const DENSE_CELLS = 1 << 22;

/**
 * The work steps of a raster pass over `contours` (WORK_STEPS): a box of at most DENSE_CELLS, its cells
 * swept and the edges' cells recorded; a bigger one, the edges' cells recorded, kept and sorted; and
 * the outline's points either way.
 */
export function rasterWork(contours: number[][], clip: Clip): number {
  let points = 0;
  for (const c of contours) points += c.length / 2;
  const box = rasterBox(contours, clip);
  const cells = rasterCells(contours, clip);
  return box <= DENSE_CELLS
    ? box * WORK_STEPS.rasterSweep + cells * WORK_STEPS.rasterCell + points * WORK_STEPS.outlinePoint
    : cells * WORK_STEPS.rasterSparseCell + points * WORK_STEPS.outlinePoint;
}

/** The bounds of contours of 26.6 points, or null for none (no point, or only points that are not numbers). */
function contourBounds(contours: number[][]): { minX: number; minY: number; maxX: number; maxY: number } | null {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const c of contours) {
    for (let i = 0; i < c.length; i += 2) {
      const x = c[i]!;
      const y = c[i + 1]!;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  return maxX >= minX && maxY >= minY ? { minX, minY, maxX, maxY } : null;
}

/** The device cells a raster pass over `contours` can touch within `clip` (its clipped box), or 0. */
export function rasterBox(contours: number[][], clip: Clip): number {
  const b = contourBounds(contours);
  if (!b) return 0;
  const { minX, minY, maxX, maxY } = b;
  const x0 = Math.max(Math.floor(minX / 64), clip.x0);
  const y0 = Math.max(Math.floor(minY / 64), clip.y0);
  const x1 = Math.min(Math.floor((maxX + 63) / 64), clip.x1);
  const y1 = Math.min(Math.floor((maxY + 63) / 64), clip.y1);
  return x1 > x0 && y1 > y0 ? (x1 - x0) * (y1 - y0) : 0;
}

/**
 * How many cells a raster pass over `contours` records at most (each edge: the rows and columns it
 * crosses within the clip, plus its two ends): what it costs before the sweep, in memory and time.
 */
export function rasterCells(contours: number[][], clip: Clip): number {
  const w = (clip.x1 - clip.x0) * 64;
  const h = (clip.y1 - clip.y0) * 64;
  let cells = 0;
  for (const c of contours) {
    for (let i = 0; i < c.length; i += 2) {
      const j = (i + 2) % c.length;
      const dx = Math.abs(c[j]! - c[i]!);
      const dy = Math.abs(c[j + 1]! - c[i + 1]!);
      cells += (Math.min(dx, w) + Math.min(dy, h)) / 64 + 2;
    }
  }
  return Number.isFinite(cells) ? Math.ceil(cells) : Number.MAX_SAFE_INTEGER;
}

/**
 * The gray raster (qgrayraster.c) over contours of 26.6 points: spans of coverage, clipped to `clip`,
 * by the nonzero or even-odd rule. As ftgrays keeps them, only the cells the edges cross are stored
 * (each row's as a list sorted by column), and the sweep gives the runs between them as one span
 * each: memory and time go with the outline, not with the box it covers. A box of at most
 * `denseCells` keeps every cell in place instead (the same spans; faster where edges are dense).
 */
export function grayRaster(contours: number[][], evenOdd: boolean, clip: Clip, sink: SpanSink, denseCells = DENSE_CELLS): void {
  const b = contourBounds(contours);
  if (!b) return;
  const { minX, minY, maxX, maxY } = b;
  const lim = COORD_LIMIT * 64;
  if (minX < -lim || minY < -lim || maxX > lim || maxY > lim) {
    contours = contours.map((c) => clipContour(c, -lim, -lim, lim, lim));
  }
  // What cannot be drawn (a point at infinity or not a number) is not.
  contours = contours.filter((c) => c.every(Number.isFinite));
  let minEx = Math.floor(minX / 64);
  let minEy = Math.floor(minY / 64);
  let maxEx = Math.floor((maxX + 63) / 64);
  let maxEy = Math.floor((maxY + 63) / 64);
  if (maxEx <= clip.x0 || minEx >= clip.x1 || maxEy <= clip.y0 || minEy >= clip.y1) return;
  minEx = Math.max(minEx, clip.x0);
  minEy = Math.max(minEy, clip.y0);
  maxEx = Math.min(maxEx, clip.x1);
  maxEy = Math.min(maxEy, clip.y1);
  const countEx = maxEx - minEx;
  const countEy = maxEy - minEy;
  // A small box: every cell of it in place (qgrayraster's cells, summed as they come); a big one: only the records.
  const dense = countEx * countEy <= denseCells;
  const stride = countEx + 1;
  const area = dense ? new Float64Array(stride * countEy) : new Float64Array(0);
  const cover = dense ? new Float64Array(stride * countEy) : new Float64Array(0);
  // The cells recorded: column (-1: left of the clip), area, cover, the row's next; each row's last recorded.
  // (room for the records the edges make, as rasterCells counts them: growing costs a copy each time)
  let cap = dense ? 0 : Math.max(1024, Math.min(rasterCells(contours, clip), 1 << 24));
  let cellX = new Int32Array(cap);
  let cellArea = new Float64Array(cap);
  let cellCover = new Float64Array(cap);
  let cellNext = new Int32Array(cap);
  let used = 0;
  const rowHead = new Int32Array(countEy).fill(-1);

  // The worker's state (ftgrays' `ras`).
  let ex = 0;
  let ey = 0;
  let cArea = 0;
  let cCover = 0;
  let invalid = true;
  let rx = 0;
  let ry = 0;

  const grow = () => {
    cap = Math.max(1024, cap * 2);
    const moved = <T extends Int32Array | Float64Array>(from: T, to: T): T => {
      to.set(from);
      return to;
    };
    cellX = moved(cellX, new Int32Array(cap));
    cellArea = moved(cellArea, new Float64Array(cap));
    cellCover = moved(cellCover, new Float64Array(cap));
    cellNext = moved(cellNext, new Int32Array(cap));
  };
  /** gray_record_cell: the current cell's area and cover, added to its row (merged with the row's other records of the same column in the sweep). */
  const record = () => {
    if (!(cArea || cCover)) return;
    if (dense) {
      const i = ey * stride + ex + 1;
      area[i]! += cArea;
      cover[i]! += cCover;
      return;
    }
    if (used === cap) grow();
    const i = used++;
    cellX[i] = ex;
    cellArea[i] = cArea;
    cellCover[i] = cCover;
    cellNext[i] = rowHead[ey]!;
    rowHead[ey] = i;
  };
  const setCell = (nx: number, ny: number) => {
    ny -= minEy;
    if (nx > maxEx) nx = maxEx;
    nx -= minEx;
    if (nx < 0) nx = -1;
    if (nx !== ex || ny !== ey) {
      if (!invalid) record();
      cArea = 0;
      cCover = 0;
      ex = nx;
      ey = ny;
    }
    invalid = ny < 0 || ny >= countEy || nx >= countEx;
  };
  const startCell = (nx: number, ny: number) => {
    if (nx > maxEx) nx = maxEx;
    if (nx < minEx) nx = minEx - 1;
    cArea = 0;
    cCover = 0;
    ex = nx - minEx;
    ey = ny - minEy;
    invalid = false;
    setCell(nx, ny);
  };
  const TRUNC = (v: number) => Math.floor(v / 256);
  const divMod = (p: number, d: number): [number, number] => {
    let q = Math.trunc(p / d);
    let r = p % d;
    if (r < 0) {
      q--;
      r += d;
    }
    return [q, r];
  };

  const renderScanline = (sy: number, x1: number, y1: number, x2: number, y2: number) => {
    let dx = x2 - x1;
    let ex1 = TRUNC(x1);
    const ex2 = TRUNC(x2);
    const fx1 = x1 - ex1 * 256;
    const fx2 = x2 - ex2 * 256;
    if (y1 === y2) {
      setCell(ex2, sy);
      return;
    }
    if (ex1 === ex2) {
      const delta = y2 - y1;
      cArea += (fx1 + fx2) * delta;
      cCover += delta;
      return;
    }
    let p = (256 - fx1) * (y2 - y1);
    let first = 256;
    let incr = 1;
    if (dx < 0) {
      p = fx1 * (y2 - y1);
      first = 0;
      incr = -1;
      dx = -dx;
    }
    let [delta, mod] = divMod(p, dx);
    cArea += (fx1 + first) * delta;
    cCover += delta;
    ex1 += incr;
    setCell(ex1, sy);
    y1 += delta;
    if (ex1 !== ex2) {
      p = 256 * (y2 - y1 + delta);
      const [lift, rem] = divMod(p, dx);
      mod -= dx;
      while (ex1 !== ex2) {
        delta = lift;
        mod += rem;
        if (mod >= 0) {
          mod -= dx;
          delta++;
        }
        cArea += 256 * delta;
        cCover += delta;
        y1 += delta;
        ex1 += incr;
        setCell(ex1, sy);
      }
    }
    delta = y2 - y1;
    cArea += (fx2 + 256 - first) * delta;
    cCover += delta;
  };

  const renderLine = (toX: number, toY: number) => {
    let ey1 = TRUNC(ry);
    const ey2 = TRUNC(toY);
    const fy1 = ry - ey1 * 256;
    const fy2 = toY - ey2 * 256;
    const dx = toX - rx;
    let dy = toY - ry;
    const maxEyAbs = maxEy;
    if ((ey1 >= maxEyAbs && ey2 >= maxEyAbs) || (ey1 < minEy && ey2 < minEy)) {
      rx = toX;
      ry = toY;
      return;
    }
    if (ey1 === ey2) {
      renderScanline(ey1, rx, fy1, toX, fy2);
      rx = toX;
      ry = toY;
      return;
    }
    if (dx === 0) {
      const cex = TRUNC(rx);
      const twoFx = (rx - cex * 256) * 2;
      let first = 256;
      if (dy < 0) first = 0;
      let delta = first - fy1;
      cArea += twoFx * delta;
      cCover += delta;
      delta = first + first - 256;
      const a = twoFx * delta;
      const maxEy1 = countEy + minEy;
      if (dy < 0) {
        if (ey1 > maxEy1) {
          ey1 = maxEy1 > ey2 ? maxEy1 : ey2;
          setCell(cex, ey1);
        } else {
          ey1--;
          setCell(cex, ey1);
        }
        while (ey1 > ey2 && ey1 >= minEy) {
          cArea += a;
          cCover += delta;
          ey1--;
          setCell(cex, ey1);
        }
        if (ey1 !== ey2) {
          ey1 = ey2;
          setCell(cex, ey1);
        }
      } else {
        if (ey1 < minEy) {
          ey1 = minEy < ey2 ? minEy : ey2;
          setCell(cex, ey1);
        } else {
          ey1++;
          setCell(cex, ey1);
        }
        while (ey1 < ey2 && ey1 < maxEy1) {
          cArea += a;
          cCover += delta;
          ey1++;
          setCell(cex, ey1);
        }
        if (ey1 !== ey2) {
          ey1 = ey2;
          setCell(cex, ey1);
        }
      }
      delta = fy2 - 256 + first;
      cArea += twoFx * delta;
      cCover += delta;
      rx = toX;
      ry = toY;
      return;
    }
    let p = (256 - fy1) * dx;
    let first = 256;
    let incr = 1;
    if (dy < 0) {
      p = fy1 * dx;
      first = 0;
      incr = -1;
      dy = -dy;
    }
    let delta = Math.trunc(p / dy);
    let mod = p % dy;
    if (mod < 0) {
      delta--;
      mod += dy;
    }
    let x = rx + delta;
    renderScanline(ey1, rx, fy1, x, first);
    ey1 += incr;
    setCell(TRUNC(x), ey1);
    if (ey1 !== ey2) {
      p = 256 * dx;
      const [lift, rem] = divMod(p, dy);
      mod -= dy;
      while (ey1 !== ey2) {
        delta = lift;
        mod += rem;
        if (mod >= 0) {
          mod -= dy;
          delta++;
        }
        const x2 = x + delta;
        renderScanline(ey1, x, 256 - first, x2, first);
        x = x2;
        ey1 += incr;
        setCell(TRUNC(x), ey1);
      }
    }
    renderScanline(ey1, x, 256 - first, toX, fy2);
    rx = toX;
    ry = toY;
  };

  for (const c of contours) {
    if (c.length < 2) continue;
    // gray_move_to
    if (!invalid) record();
    const sx = c[0]! * 4;
    const sy = c[1]! * 4;
    startCell(TRUNC(sx), TRUNC(sy));
    rx = sx;
    ry = sy;
    for (let i = 2; i < c.length; i += 2) renderLine(c[i]! * 4, c[i + 1]! * 4);
    renderLine(sx, sy);
  }
  if (!invalid) record();

  // gray_sweep: each row's cells in order, the runs between them as spans (the coverage the cover so far gives).
  const coverage = (a: number): number => {
    let cov = Math.floor(a / 512);
    if (cov < 0) cov = -cov;
    if (evenOdd) {
      cov &= 511;
      if (cov > 256) cov = 512 - cov;
      else if (cov === 256) cov = 255;
    } else if (cov >= 256) cov = 255;
    return cov;
  };
  if (dense) {
    for (let y = 0; y < countEy; y++) {
      let acc = 0;
      const row = y * stride;
      acc += cover[row]!; // the cells left of the clip
      let run = -1; // a run of one coverage, given as one span
      let runCov = 0;
      for (let x = 0; x < countEx; x++) {
        const i = row + x + 1;
        acc += cover[i]!;
        const a = acc * 512 - area[i]!;
        const cov = a === 0 ? 0 : coverage(a);
        if (cov === runCov && run >= 0) continue;
        if (run >= 0 && runCov) sink(run + minEx, y + minEy, x - run, runCov);
        run = x;
        runCov = cov;
      }
      if (run >= 0 && runCov) sink(run + minEx, y + minEy, countEx - run, runCov);
    }
    return;
  }
  // A row's records by column: (column + 1) * 2^32 + record, sorted as numbers (exact below 2^53).
  let keys = new Float64Array(256);
  for (let y = 0; y < countEy; y++) {
    let n = 0;
    for (let i = rowHead[y]!; i >= 0; i = cellNext[i]!) {
      if (n === keys.length) {
        const k = new Float64Array(n * 2);
        k.set(keys);
        keys = k;
      }
      keys[n++] = (cellX[i]! + 1) * 4294967296 + i;
    }
    if (n === 0) continue;
    const row = keys.subarray(0, n).sort();
    let acc = 0;
    let x = 0; // the first column not yet given
    for (let j = 0; j < n; ) {
      const cx = Math.floor(row[j]! / 4294967296) - 1;
      // every record of this column, together
      let area = 0;
      let cover = 0;
      for (; j < n && Math.floor(row[j]! / 4294967296) - 1 === cx; j++) {
        const i = row[j]! % 4294967296;
        area += cellArea[i]!;
        cover += cellCover[i]!;
      }
      if (cx < 0) {
        acc += cover; // the cells left of the clip: their cover only
        continue;
      }
      if (cx > x && acc !== 0) {
        const cov = coverage(acc * 512);
        if (cov) sink(x + minEx, y + minEy, cx - x, cov);
      }
      acc += cover;
      const a = acc * 512 - area;
      if (a !== 0) {
        const cov = coverage(a);
        if (cov) sink(cx + minEx, y + minEy, 1, cov);
      }
      x = cx + 1;
    }
    if (x < countEx && acc !== 0) {
      const cov = coverage(acc * 512);
      if (cov) sink(x + minEx, y + minEy, countEx - x, cov);
    }
  }
}

/** A contour of 26.6 points clipped to a box (Sutherland–Hodgman; for paths beyond Qt's coordinate limit only). */
function clipContour(c: number[], x0: number, y0: number, x1: number, y1: number): number[] {
  let pts: [number, number][] = [];
  for (let i = 0; i < c.length; i += 2) pts.push([c[i]!, c[i + 1]!]);
  const at = (a: number, b: number, v: number) => (v - a) / (b - a);
  const edges: [(p: [number, number]) => boolean, (a: [number, number], b: [number, number]) => [number, number]][] = [
    [(p) => p[0] >= x0, (a, b) => [x0, a[1] + (b[1] - a[1]) * at(a[0], b[0], x0)]],
    [(p) => p[0] <= x1, (a, b) => [x1, a[1] + (b[1] - a[1]) * at(a[0], b[0], x1)]],
    [(p) => p[1] >= y0, (a, b) => [a[0] + (b[0] - a[0]) * at(a[1], b[1], y0), y0]],
    [(p) => p[1] <= y1, (a, b) => [a[0] + (b[0] - a[0]) * at(a[1], b[1], y1), y1]],
  ];

  for (const [inside, cut] of edges) {
    const next: [number, number][] = [];
    for (let i = 0; i < pts.length; i++) {
      const a = pts[(i + pts.length - 1) % pts.length]!;
      const b = pts[i]!;
      if (inside(b)) {
        if (!inside(a)) next.push(cut(a, b));
        next.push(b);
      } else if (inside(a)) next.push(cut(a, b));
    }
    pts = next;
  }
  return pts.flatMap(([x, y]) => [Math.round(x), Math.round(y)]);
}

// ---------------------------------------------------------------- QRasterizer (rectangle fills)

const toQ16 = (v: number) => Math.trunc(v * 65536);
const q26Compare = (a: number, b: number) => Math.trunc((b - a) * 64) === 0;

/**
 * QRasterizer::rasterizeLine with antialiasing (no square cap), as Qt fills a rectangle under a transform
 * without shear: the band from a to b, `width` (relative to |b - a|) wide.
 */
export function rasterizeLine(ax: number, ay: number, bx: number, by: number, width: number, clip: Clip, sink: SpanSink): void {
  if ((ax === bx && ay === by) || width === 0 || clip.x1 <= clip.x0 || clip.y1 <= clip.y0) return;
  let pax = ax;
  let pay = ay;
  let pbx = bx;
  let pby = by;
  const offsX = Math.abs(by - ay) * width * 0.5;
  const offsY = Math.abs(bx - ax) * width * 0.5;
  const cl = clip.x0 - offsX;
  const ct = clip.y0 - offsY;
  const cr = clip.x1 + offsX;
  const cb = clip.y1 + offsY;
  const contains = (x: number, y: number) => x >= cl && x <= cr && y >= ct && y <= cb;
  if (!contains(pax, pay) || !contains(pbx, pby)) {
    let t1 = 0;
    let t2 = 1;
    const o = [pax, pay];
    const d = [pbx - pax, pby - pay];
    const low = [cl, ct];
    const high = [cr, cb];
    for (let i = 0; i < 2; i++) {
      if (d[i] === 0) {
        if (o[i]! <= low[i]! || o[i]! >= high[i]!) return;
        continue;
      }
      const dInv = 1 / d[i]!;
      let tLow = (low[i]! - o[i]!) * dInv;
      let tHigh = (high[i]! - o[i]!) * dInv;
      if (tLow > tHigh) [tLow, tHigh] = [tHigh, tLow];
      if (t1 < tLow) t1 = tLow;
      if (t2 > tHigh) t2 = tHigh;
      if (t1 >= t2) return;
    }
    const nax = pax + (pbx - pax) * t1;
    const nay = pay + (pby - pay) * t1;
    const nbx = pax + (pbx - pax) * t2;
    const nby = pay + (pby - pay) * t2;
    [pax, pay, pbx, pby] = [nax, nay, nbx, nby];
  }
  {
    const d0x = ax - bx;
    const d0y = ay - by;
    const w0 = d0x * d0x + d0y * d0y;
    const dx = pax - pbx;
    const dy = pay - pby;
    const w = dx * dx + dy * dy;
    if (w === 0) return;
    width *= Math.sqrt(w0 / w);
  }
  if (q26Compare(pay, pby)) {
    const x = (pax + pbx) * 0.5;
    const dx = Math.abs(pbx - pax) * 0.5;
    const y = pay;
    const dy = width * dx;
    pax = x;
    pay = y - dy;
    pbx = x;
    pby = y + dy;
    width = 1 / width;
  }
  if (!q26Compare(pax, pbx)) {
    rasterizeSlanted(pax, pay, pbx, pby, width, clip, sink);
    return;
  }
  if (pay > pby) [pax, pay, pbx, pby] = [pbx, pby, pax, pay];
  const dy = pby - pay;
  const halfWidth = 0.5 * width * dy;
  const bound = (lo: number, v: number, hi: number) => Math.max(lo, Math.min(v, hi));
  const left = bound(clip.x0, pax - halfWidth, clip.x1);
  const right = bound(clip.x0, pax + halfWidth, clip.x1);
  pay = bound(clip.y0, pay, clip.y1);
  pby = bound(clip.y0, pby, clip.y1);
  if (q26Compare(left, right) || q26Compare(pay, pby)) return;
  const iLeft = Math.trunc(left);
  const iRight = Math.trunc(right);
  const leftWidth = (iLeft + 1) * 65536 - toQ16(left);
  const rightWidth = toQ16(right) - iRight * 65536;
  const cov: number[] = [];
  const xs: number[] = [];
  const lens: number[] = [];
  if (iLeft === iRight) {
    cov.push((leftWidth + rightWidth) * 255);
    xs.push(iLeft);
    lens.push(1);
  } else {
    cov.push(leftWidth * 255);
    xs.push(iLeft);
    lens.push(1);
    if (leftWidth === 65536) lens[0] = iRight - iLeft;
    else if (iRight - iLeft > 1) {
      cov.push(255 * 65536);
      xs.push(iLeft + 1);
      lens.push(iRight - iLeft - 1);
    }
    if (rightWidth) {
      cov.push(rightWidth * 255);
      xs.push(iRight);
      lens.push(1);
    }
  }
  const iTop = Math.trunc(pay);
  const iBottom = Math.trunc(pby);
  const yPa = toQ16(pay);
  const yPb = toQ16(pby);
  for (let y = iTop; y <= iBottom; y++) {
    const yFP = y * 65536;
    const rowHeight = Math.min(yFP + 65536, yPb) - Math.max(yFP, yPa);
    if (y > clip.y1 - 1) break;
    for (let i = 0; i < cov.length; i++) {
      // Q16Dot16Multiply (64-bit product >> 16), then to an integer (>> 16).
      const c = Math.floor(Math.floor((rowHeight * cov[i]!) / 65536) / 65536);
      // QSpanBuffer::addSpan takes the coverage as an unsigned char (a one-pixel band wraps round).
      if ((c & 255) !== 0 && lens[i]! > 0) sink(xs[i]!, y, lens[i]!, c & 255);
    }
  }
  return;
}

/** 32-bit int wrap-around (C's int arithmetic as compiled). */
const i32 = (v: number) => v | 0;
/** Q16Dot16Multiply: the 64-bit product >> 16, as an int. */
function q16Mul(a: number, b: number): number {
  const p = a * b;
  if (Math.abs(p) < 2 ** 53) return i32(Math.floor(p / 65536));
  return Number(BigInt.asIntN(32, (BigInt(a) * BigInt(b)) >> 16n));
}
/** Q16Dot16FastMultiply: the 32-bit product >> 16. */
const q16Fast = (a: number, b: number) => Math.imul(a, b) >> 16;
const q16Int = (v: number) => v >> 16;
const floatToQ16 = (v: number) => i32(Math.trunc(v * 65536));
function safeToQ16(v: number): number {
  const t = v * 65536;
  if (t > 2147483647) return 2147483647;
  if (t < -2147483648) return -2147483647;
  return Math.trunc(t);
}
const safeDivide = (x: number, y: number) => (y === 0 ? (x > 0 ? 1e20 : -1e20) : x / y);
const snap26 = (v: number) => Math.floor(v * 64) * (1 / 64);

/** intersectPixelFP of qrasterizer.cpp. */
function intersectPixel(x: number, top: number, bottom: number, lix: number, rix: number, slope: number, invSlope: number): number {
  const leftX = x * 65536;
  const rightX = i32(leftX + 65536);
  let liy: number;
  let riy: number;
  if (slope > 0) {
    liy = i32(top + q16Mul(i32(leftX - lix), invSlope));
    riy = i32(liy + invSlope);
  } else {
    liy = i32(top + q16Mul(i32(leftX - rix), invSlope));
    riy = i32(liy + invSlope);
  }
  if (lix >= leftX && rix <= rightX) return q16Mul(i32(bottom - top), i32(lix - leftX + (i32(rix - lix) >> 1)));
  if (lix >= rightX) return i32(bottom - top);
  if (lix >= leftX) {
    if (slope > 0) return i32(bottom - top - q16Fast(i32(rightX - lix) >> 1, i32(riy - top)));
    return i32(bottom - top - q16Fast(i32(rightX - lix) >> 1, i32(bottom - riy)));
  }
  if (rix <= leftX) return 0;
  if (rix <= rightX) {
    if (slope > 0) return q16Fast(i32(rix - leftX) >> 1, i32(bottom - liy));
    return q16Fast(i32(rix - leftX) >> 1, i32(liy - top));
  }
  if (slope > 0) return i32(bottom - riy + (i32(riy - liy) >> 1));
  return i32(riy - top + (i32(liy - riy) >> 1));
}

/** The antialiased slanted case of QRasterizer::rasterizeLine: the rotated rectangle round the band from pa to pb. */
function rasterizeSlanted(pax: number, pay: number, pbx: number, pby: number, width: number, clip: Clip, sink: SpanSink): void {
  if (pay > pby) [pax, pay, pbx, pby] = [pbx, pby, pax, pay];
  const dx = (pbx - pax) * (0.5 * width);
  const dy = (pby - pay) * (0.5 * width);
  const px = dy;
  const py = -dx;
  let top: [number, number];
  let left: [number, number];
  let right: [number, number];
  let bottom: [number, number];
  if (pax < pbx) {
    top = [pax + px, pay + py];
    left = [pax - px, pay - py];
    right = [pbx + px, pby + py];
    bottom = [pbx - px, pby - py];
  } else {
    top = [pax - px, pay - py];
    left = [pbx - px, pby - py];
    right = [pax + px, pay + py];
    bottom = [pbx + px, pby + py];
  }
  const sn = (p: [number, number]): [number, number] => [snap26(p[0]), snap26(p[1])];
  top = sn(top);
  bottom = sn(bottom);
  left = sn(left);
  right = sn(right);
  const cTop = clip.y0;
  const cBottom = clip.y1 - 1;
  const cLeft = clip.x0;
  const cRight = clip.x1 - 1;
  const bound = (lo: number, v: number, hi: number) => Math.max(lo, Math.min(v, hi));
  const topBound = bound(cTop, top[1], cBottom);
  const bottomBound = bound(cTop, bottom[1], cBottom);
  const tlSlope = safeDivide(left[0] - top[0], left[1] - top[1]);
  const blSlope = safeDivide(bottom[0] - left[0], bottom[1] - left[1]);
  const trSlope = safeDivide(right[0] - top[0], right[1] - top[1]);
  const brSlope = safeDivide(bottom[0] - right[0], bottom[1] - right[1]);
  const tlFP = safeToQ16(tlSlope);
  const trFP = safeToQ16(trSlope);
  const blFP = safeToQ16(blSlope);
  const brFP = safeToQ16(brSlope);
  const invTl = safeToQ16(safeDivide(1, tlSlope));
  const invTr = safeToQ16(safeDivide(1, trSlope));
  const invBl = safeToQ16(safeDivide(1, blSlope));
  const invBr = safeToQ16(safeDivide(1, brSlope));
  const iTopFP = i32(Math.trunc(topBound) * 65536);
  const iLeftFP = i32(Math.trunc(left[1]) * 65536);
  const iRightFP = i32(Math.trunc(right[1]) * 65536);
  const iBottomFP = i32(Math.trunc(bottomBound) * 65536);
  let lAf = floatToQ16(top[0] + (Math.trunc(topBound) - top[1]) * tlSlope);
  let rAf = floatToQ16(top[0] + (Math.trunc(topBound) - top[1]) * trSlope);
  let lBf = 0;
  let rBf = 0;
  if (iLeftFP < iTopFP) lBf = floatToQ16(left[0] + (Math.trunc(topBound) - left[1]) * blSlope);
  if (iRightFP < iTopFP) rBf = floatToQ16(right[0] + (Math.trunc(topBound) - right[1]) * brSlope);
  const yTopFP = floatToQ16(top[1]);
  const yLeftFP = floatToQ16(left[1]);
  const yRightFP = floatToQ16(right[1]);
  const yBottomFP = floatToQ16(bottom[1]);
  let rowTop = Math.max(iTopFP, yTopFP);
  let tlAf = i32(lAf + q16Mul(tlFP, i32(rowTop - iTopFP)));
  let trAf = i32(rAf + q16Mul(trFP, i32(rowTop - iTopFP)));
  const emit = (x: number, len: number, y: number, c: number) => {
    const cov = c & 255;
    if (cov && len > 0) sink(x, y, len, cov);
  };
  let yFP = iTopFP;
  let guard = 0;
  while (yFP <= iBottomFP && guard++ < 1 << 20) {
    const rowBottomLeft = Math.min(i32(yFP + 65536), yLeftFP);
    const rowBottomRight = Math.min(i32(yFP + 65536), yRightFP);
    const rowTopLeft = Math.max(yFP, yLeftFP);
    const rowTopRight = Math.max(yFP, yRightFP);
    const rowBottom = Math.min(i32(yFP + 65536), yBottomFP);
    let tlBf: number;
    let blAf: number;
    let trBf: number;
    let brAf: number;
    if (yFP === iLeftFP) {
      const y = q16Int(yFP);
      lBf = floatToQ16(left[0] + (y - left[1]) * blSlope);
      tlBf = i32(lBf + q16Mul(blFP, i32(rowTopLeft - yFP)));
      blAf = i32(lAf + q16Mul(tlFP, i32(rowBottomLeft - yFP)));
    } else {
      tlBf = lBf;
      blAf = i32(lAf + tlFP);
    }
    if (yFP === iRightFP) {
      const y = q16Int(yFP);
      rBf = floatToQ16(right[0] + (y - right[1]) * brSlope);
      trBf = i32(rBf + q16Mul(brFP, i32(rowTopRight - yFP)));
      brAf = i32(rAf + q16Mul(trFP, i32(rowBottomRight - yFP)));
    } else {
      trBf = rBf;
      brAf = i32(rAf + trFP);
    }
    let blBf: number;
    let brBf: number;
    if (yFP === iBottomFP) {
      blBf = i32(lBf + q16Mul(blFP, i32(rowBottom - yFP)));
      brBf = i32(rBf + q16Mul(brFP, i32(rowBottom - yFP)));
    } else {
      blBf = i32(lBf + blFP);
      brBf = i32(rBf + brFP);
    }
    let leftMin: number;
    let leftMax: number;
    if (yFP < iLeftFP) {
      leftMin = q16Int(blAf);
      leftMax = q16Int(tlAf);
    } else if (yFP === iLeftFP) {
      leftMin = q16Int(Math.max(blAf, tlBf));
      leftMax = q16Int(Math.max(tlAf, blBf));
    } else {
      leftMin = q16Int(tlBf);
      leftMax = q16Int(blBf);
    }
    leftMin = bound(cLeft, leftMin, cRight);
    leftMax = bound(cLeft, leftMax, cRight);
    let rightMin: number;
    let rightMax: number;
    if (yFP < iRightFP) {
      rightMin = q16Int(trAf);
      rightMax = q16Int(brAf);
    } else if (yFP === iRightFP) {
      rightMin = q16Int(Math.min(trAf, brBf));
      rightMax = q16Int(Math.min(brAf, trBf));
    } else {
      rightMin = q16Int(brBf);
      rightMax = q16Int(trBf);
    }
    rightMin = bound(cLeft, rightMin, cRight);
    rightMax = bound(cLeft, rightMax, cRight);
    if (leftMax > rightMax) leftMax = rightMax;
    if (rightMin < leftMin) rightMin = leftMin;
    const rowHeight = i32(rowBottom - rowTop);
    const y = q16Int(yFP);
    const rightExcluded = (x: number) => {
      let e = 0;
      if (yFP <= iRightFP) e += i32(rowBottomRight - rowTop) - intersectPixel(x, rowTop, rowBottomRight, trAf, brAf, trFP, invTr);
      if (yFP >= iRightFP) e += i32(rowBottom - rowTopRight) - intersectPixel(x, rowTopRight, rowBottom, brBf, trBf, brFP, invBr);
      return e;
    };
    let x = leftMin;
    while (x <= leftMax) {
      let excluded = 0;
      if (yFP <= iLeftFP) excluded += intersectPixel(x, rowTop, rowBottomLeft, blAf, tlAf, tlFP, invTl);
      if (yFP >= iLeftFP) excluded += intersectPixel(x, rowTopLeft, rowBottom, tlBf, blBf, blFP, invBl);
      if (x >= rightMin) excluded += rightExcluded(x);
      emit(x, 1, y, q16Int(Math.imul(255, i32(rowHeight - excluded))));
      x++;
    }
    if (x < rightMin) {
      emit(x, rightMin - x, y, q16Int(Math.imul(255, rowHeight)));
      x = rightMin;
    }
    while (x <= rightMax) {
      emit(x, 1, y, q16Int(Math.imul(255, i32(rowHeight - rightExcluded(x)))));
      x++;
    }
    lAf = i32(lAf + tlFP);
    lBf = i32(lBf + blFP);
    rAf = i32(rAf + trFP);
    rBf = i32(rBf + brFP);
    tlAf = lAf;
    trAf = rAf;
    yFP = i32(yFP + 65536);
    rowTop = yFP;
  }
}

// ---------------------------------------------------------------- blending

/**
 * The mantissas (23 bits) of the x86 RCPSS approximation of 1 / a for a = 1 … 254, as measured on the
 * AMD EPYC machine whose Debian Qt 5.15 the tests compare with: Qt's SSE4.1 store to ARGB32
 * (storeARGB32FromARGB32PM_sse4) unpremultiplies with it (one Newton–Raphson step, times 255, in
 * float). Intel's RCPSS may differ in the last bits, and with it a pixel's colour by one level at a
 * few (value, alpha) pairs.
 */
export const RCP_MANTISSA: readonly number[] = (
  '8384512,8384512,2795520,8384512,5029888,2795520,1196032,8384512,6520832,5029888,3811328,2795520,' +
  '1935360,1196032,557056,8384512,7397376,6520832,5736448,5029888,4392960,3811328,3280896,2795520,' +
  '2347008,1935360,1552384,1196032,866304,557056,270336,8384512,7878656,7397376,6948864,6520832,' +
  '6119424,5736448,5376000,5029888,4704256,4392960,4096000,3811328,3540992,3280896,3033088,2795520,' +
  '2568192,2347008,2138112,1935360,1740800,1552384,1372160,1196032,1028096,866304,710656,557056,411648,' +
  '270336,133120,8384512,8128512,7878656,7636992,7397376,7170048,6948864,6733824,6520832,6318080,' +
  '6119424,5926912,5736448,5554176,5376000,5201920,5029888,4866048,4704256,4546560,4392960,4243456,' +
  '4096000,3952640,3811328,3674112,3540992,3409920,3280896,3155968,3033088,2914304,2795520,2680832,' +
  '2568192,2457600,2347008,2242560,2138112,2035712,1935360,1837056,1740800,1646592,1552384,1462272,' +
  '1372160,1284096,1196032,1112064,1028096,948224,866304,788480,710656,634880,557056,483328,411648,' +
  '339968,270336,200704,133120,65536,8384512,8255488,8128512,8001536,7878656,7755776,7636992,7518208,' +
  '7397376,7282688,7170048,7059456,6948864,6840320,6733824,6627328,6520832,6418432,6318080,6217728,' +
  '6119424,6023168,5926912,5832704,5736448,5644288,5554176,5464064,5376000,5287936,5201920,5115904,' +
  '5029888,4947968,4866048,4784128,4704256,4624384,4546560,4468736,4392960,4317184,4243456,4169728,' +
  '4096000,4024320,3952640,3883008,3811328,3743744,3674112,3608576,3540992,3475456,3409920,3346432,' +
  '3280896,3217408,3155968,3094528,3033088,2973696,2914304,2854912,2795520,2736128,2680832,2623488,' +
  '2568192,2510848,2457600,2402304,2347008,2293760,2242560,2189312,2138112,2086912,2035712,1984512,' +
  '1935360,1886208,1837056,1787904,1740800,1693696,1646592,1599488,1552384,1507328,1462272,1417216,' +
  '1372160,1327104,1284096,1241088,1196032,1155072,1112064,1071104,1028096,987136,948224,907264,866304,' +
  '827392,788480,749568,710656,671744,634880,595968,557056,520192,483328,448512,411648,374784,339968,' +
  '305152,270336,235520,200704,165888,133120,98304,65536'
)
  .split(',')
  .map(Number);

const f32 = Math.fround;
/** 255 / a as qUnpremultiply_sse4 computes it (reciprocal_mul_ss), for 0 < a < 255. */
const UNPREMUL = Array.from({ length: 255 }, (_, a) => {
  if (a === 0) return 0;
  const r = f32((1 + RCP_MANTISSA[a - 1]! / 2 ** 23) * 2 ** -(Math.floor(Math.log2(a)) + 1));
  const ia = f32(f32(r + r) - f32(r * f32(r * a)));
  return f32(ia * 255);
});
/** _mm_cvtps_epi32 (round half to even) of c * ia in float, saturated to a byte. */
const unpremul = (c: number, ia: number) => {
  const v = f32(c * ia);
  let f = Math.floor(v);
  const d = v - f;
  if (d > 0.5 || (d === 0.5 && f % 2 === 1)) f++;
  return f > 255 ? 255 : f;
};

/** (x * a + ((x * a) >> 8) + 0x80) >> 8 per channel: Qt's BYTE_MUL. */
const byteMul = (v: number, a: number) => {
  const t = v * a;
  return (t + (t >> 8) + 0x80) >> 8;
};

/**
 * A span sink that paints the straight colour `colour` (at painter opacity `opacity`) onto the
 * ARGB32 (straight alpha) image as blend_color_generic does; x, y are device pixels, the image's
 * (0, 0) at device (ox, oy).
 */
export function solidBlender(img: RgbaImage, colour: readonly [number, number, number, number], opacity: number, ox = 0, oy = 0): SpanSink {
  const [pr, pg, pb, pa] = qtSolid(colour, opacity);
  const d = img.data;
  return (x, y, len, c) => {
    const iy = y - oy;
    if (iy < 0 || iy >= img.height) return;
    for (let k = 0; k < len; k++) {
      const ix = x + k - ox;
      if (ix < 0 || ix >= img.width) continue;
      const o = (iy * img.width + ix) * 4;
      if ((c & pa) === 255) {
        d[o] = pr;
        d[o + 1] = pg;
        d[o + 2] = pb;
        d[o + 3] = 255;
        continue;
      }
      const sr = c === 255 ? pr : byteMul(pr, c);
      const sg = c === 255 ? pg : byteMul(pg, c);
      const sb = c === 255 ? pb : byteMul(pb, c);
      const sa = c === 255 ? pa : byteMul(pa, c);
      const da = d[o + 3]!;
      const ia = 255 - sa;
      const r = sr + byteMul(byteMul(d[o]!, da), ia);
      const g = sg + byteMul(byteMul(d[o + 1]!, da), ia);
      const b = sb + byteMul(byteMul(d[o + 2]!, da), ia);
      const a = sa + byteMul(da, ia);
      if (a === 0) {
        d[o] = d[o + 1] = d[o + 2] = d[o + 3] = 0;
      } else if (a === 255) {
        d[o] = r;
        d[o + 1] = g;
        d[o + 2] = b;
        d[o + 3] = 255;
      } else {
        const ia = UNPREMUL[a]!;
        d[o] = unpremul(r, ia);
        d[o + 1] = unpremul(g, ia);
        d[o + 2] = unpremul(b, ia);
        d[o + 3] = a;
      }
    }
  };
}

// ---------------------------------------------------------------- QPainter

/** QPaintEngineEx::fillRect's path: the rectangle's four corners. */
const rectPath = (x: number, y: number, w: number, h: number): PathOp[] => [
  { op: 'M', x, y },
  { op: 'L', x: x + w, y },
  { op: 'L', x: x + w, y: y + h },
  { op: 'L', x, y: y + h },
];

type Rgba = readonly [number, number, number, number];

/**
 * A QPainter on a QImage (Format_ARGB32) with antialiasing on, a cosmetic pen with round caps and joins
 * (or none) and a solid brush (or none). Device pixel (x, y) is pixel (x - ox, y - oy) of `img`;
 * nothing is drawn outside `clip` (device pixels). `spend` is told the cost of each raster pass first
 * (work steps, draw pixels); with `measure` only that is done (the cost of a part, paid before drawing).
 */
export class QtPainter {
  matrix = new QTransform();
  opacity = 1;
  pen: { colour: Rgba; width: number } | null = null;
  brush: Rgba | null = null;

  constructor(
    private img: RgbaImage,
    private ox: number,
    private oy: number,
    private clip: Clip,
    private spend: (key: 'maxDrawPixels' | 'maxWork', n: number) => void = () => {},
    /** Only spend what the calls would cost, painting nothing (a part's cost, before it is drawn). */
    private measure = false,
    /** While measuring: true once what was spent is over the budget (the rest is not measured). */
    private stop: () => boolean = () => false,
  ) {}

  private sink(colour: Rgba): SpanSink {
    return solidBlender(this.img, colour, this.opacity, this.ox, this.oy);
  }

  /**
   * Fills device-space contours (26.6) with a colour: its cost spent first (the cells the edges cross
   * and the outline's points as work, the box it covers as draw pixels); only that when measuring.
   */
  private raster(contours: number[][], evenOdd: boolean, colour: Rgba): void {
    if (this.stop()) return;
    this.spend('maxWork', rasterWork(contours, this.clip));
    this.spend('maxDrawPixels', rasterBox(contours, this.clip));
    if (!this.measure) grayRaster(contours, evenOdd, this.clip, this.sink(colour));
  }

  /** QPaintEngineEx::stroke with the cosmetic pen: the path's points mapped to the device, stroked, filled (winding). */
  strokePath(path: PathOp[], implicitClose = false): void {
    if (!this.pen || !path.length) return;
    // The stroker and the flattening of its joins and caps: spent before they run (measuring too).
    this.spend('maxWork', pathPoints(path) * WORK_STEPS.strokePoint);
    if (this.stop()) return;
    const m = this.matrix;
    const dev: PathOp[] = path.map((e) => {
      if (e.op === 'C') {
        const [x1, y1] = m.map(e.x1, e.y1);
        const [x2, y2] = m.map(e.x2, e.y2);
        const [x, y] = m.map(e.x, e.y);
        return { op: 'C', x1, y1, x2, y2, x, y };
      }
      const [x, y] = m.map(e.x, e.y);
      return { op: e.op, x, y };
    });
    if (implicitClose) dev.push({ op: 'L', x: dev[0]!.x, y: dev[0]!.y });
    const outline = strokeOutline(dev, this.pen.width === 0 ? 1 : this.pen.width);
    if (!outline.length) return;
    this.raster(outlineContours(outline), false, this.pen.colour);
  }

  /** QRasterPaintEngine::fill for a path that is not a rectangle: the outline mapper, then the gray raster. */
  fillPath(path: PathOp[], evenOdd: boolean): void {
    if (!this.brush || !path.length) return;
    this.spend('maxWork', pathPoints(path) * WORK_STEPS.outlinePoint);
    if (this.stop()) return;
    this.raster(outlineContours(path, this.matrix), evenOdd, this.brush);
  }

  /** QPainter::drawRect(QRectF). */
  drawRect(x: number, y: number, w: number, h: number): void {
    const m = this.matrix;
    if (this.brush) {
      // QRasterPaintEngine::drawRects: QRasterizer::rasterizeLine through the middle of the normalised rectangle.
      const nx = w < 0 ? x + w : x;
      const ny = h < 0 ? y + h : y;
      const nw = Math.abs(w);
      const nh = Math.abs(h);
      if (nw > 0 && nh > 0 && !m.noShear()) this.fillPath(rectPath(nx, ny, nw, nh), false);
      else if (nw > 0 && nh > 0) {
        const [ax, ay] = m.map((nx + nx) * 0.5, (ny + (ny + nh)) * 0.5);
        const [bx, by] = m.map((nx + nw + (nx + nw)) * 0.5, (ny + (ny + nh)) * 0.5);
        this.spend('maxDrawPixels', (this.clip.x1 - this.clip.x0) * (this.clip.y1 - this.clip.y0));
        if (!this.measure) rasterizeLine(ax, ay, bx, by, nh / nw, this.clip, this.sink(this.brush));
      }
    }
    this.strokePath(
      [
        { op: 'M', x, y },
        { op: 'L', x: x + w, y },
        { op: 'L', x: x + w, y: y + h },
        { op: 'L', x, y: y + h },
      ],
      true,
    );
  }

  /** QPainter::drawPolygon (odd-even) or drawPolyline (`closed` false) of flat [x, y, ...] points. */
  drawPolygon(pts: readonly number[], closed: boolean): void {
    const n = pts.length / 2;
    if (n < 2) return;
    const p = (i: number) => pts[i]!;
    if (
      closed &&
      ((n === 5 &&
        p(0) === p(8) &&
        p(1) === p(9) &&
        p(0) === p(6) &&
        p(2) === p(4) &&
        p(1) === p(3) &&
        p(5) === p(7) &&
        p(0) < p(4) &&
        p(1) < p(5)) ||
        (n === 4 && p(0) === p(6) && p(2) === p(4) && p(1) === p(3) && p(5) === p(7) && p(0) < p(4) && p(1) < p(5)))
    ) {
      this.drawRect(p(0), p(1), p(4) - p(0), p(5) - p(1));
      return;
    }
    const path: PathOp[] = [{ op: 'M', x: p(0), y: p(1) }];
    for (let i = 1; i < n; i++) path.push({ op: 'L', x: p(2 * i), y: p(2 * i + 1) });
    if (closed) this.fillPath(path, true);
    this.strokePath(path, closed);
  }

  /** QPainter::drawPoint with a wide pen: a line of 1/63 pixel, stroked. */
  drawPoint(x: number, y: number): void {
    this.strokePath([
      { op: 'M', x, y },
      { op: 'L', x: x + 1 / 63, y },
    ]);
  }

  /** QPainter::drawEllipse(QRectF): four cubics by qt_curves_for_arc, filled then stroked. */
  drawEllipse(x: number, y: number, w: number, h: number): void {
    const arc = curvesForArc(x, y, w, h, 0, -360);
    if (!arc?.curves.length) return;
    const path: PathOp[] = [{ op: 'M', x: arc.start[0], y: arc.start[1] }];
    const c = arc.curves;
    for (let i = 0; i + 5 < c.length; i += 6)
      path.push({ op: 'C', x1: c[i]!, y1: c[i + 1]!, x2: c[i + 2]!, y2: c[i + 3]!, x: c[i + 4]!, y: c[i + 5]! });
    this.fillPath(path, true);
    this.strokePath(path);
  }

  /** QPainter::drawPath (the path's own fill rule: odd-even by default). */
  drawPath(path: PathOp[], evenOdd = true): void {
    this.fillPath(path, evenOdd);
    this.strokePath(path);
  }
}

/** QPainterPath's moveTo / lineTo / arcTo / closeSubpath, for building paths as Qt does. */
export class QPainterPathBuilder {
  ops: PathOp[] = [];
  private start = 0;
  moveTo(x: number, y: number): this {
    this.start = this.ops.length;
    this.ops.push({ op: 'M', x, y });
    return this;
  }
  lineTo(x: number, y: number): this {
    const last = this.ops[this.ops.length - 1]!;
    if (pointEq(x, y, last.x, last.y)) return this;
    this.ops.push({ op: 'L', x, y });
    return this;
  }
  arcTo(x: number, y: number, w: number, h: number, startAngle: number, sweep: number): this {
    if (w === 0 && h === 0) return this;
    const arc = curvesForArc(x, y, w, h, startAngle, sweep);
    if (!arc) return this;
    this.lineTo(arc.start[0], arc.start[1]);
    const c = arc.curves;
    for (let i = 0; i + 5 < c.length; i += 6) {
      const last = this.ops[this.ops.length - 1]!;
      if (
        pointEq(last.x, last.y, c[i]!, c[i + 1]!) &&
        pointEq(c[i]!, c[i + 1]!, c[i + 2]!, c[i + 3]!) &&
        pointEq(c[i + 2]!, c[i + 3]!, c[i + 4]!, c[i + 5]!)
      )
        continue;
      this.ops.push({ op: 'C', x1: c[i]!, y1: c[i + 1]!, x2: c[i + 2]!, y2: c[i + 3]!, x: c[i + 4]!, y: c[i + 5]! });
    }
    return this;
  }
  closeSubpath(): this {
    const first = this.ops[this.start]!;
    const last = this.ops[this.ops.length - 1]!;
    if (first.x !== last.x || first.y !== last.y) {
      if (fuzzyCompare(first.x, last.x) && fuzzyCompare(first.y, last.y)) {
        last.x = first.x;
        last.y = first.y;
      } else this.ops.push({ op: 'L', x: first.x, y: first.y });
    }
    return this;
  }
  /** QPainterPath::translated. */
  translated(dx: number, dy: number): PathOp[] {
    return this.ops.map((e) =>
      e.op === 'C'
        ? { op: 'C', x1: e.x1 + dx, y1: e.y1 + dy, x2: e.x2 + dx, y2: e.y2 + dy, x: e.x + dx, y: e.y + dy }
        : { op: e.op, x: e.x + dx, y: e.y + dy },
    );
  }
}
