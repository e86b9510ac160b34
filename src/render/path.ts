/**
 * Paths (straight lines, arcs, cubic Béziers) made, transformed and
 * flattened, strokes outlined with round caps and joins, and Qt's solid
 * colour under a painter opacity (qtSolid): the geometry of Tiled's shape
 * objects (their boxes, src/interop/tiled/shapes.ts). Their pixels are
 * drawn by src/render/qtraster.ts, a port of Qt's raster engine.
 * Browser-safe.
 */
import { applyMatrix, type Matrix } from './matrix.js';

export type Point = readonly [number, number];
/** Closed polygons (each implicitly closed from its last point to its first). */
export type Polygons = Point[][];
export type FillRule = 'nonzero' | 'evenodd';

/** The integer box of every point of the polygons (floor / ceil), or null when there are none. */
export function polygonsBounds(polys: Polygons): { x0: number; y0: number; x1: number; y1: number } | null {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const p of polys) {
    for (const [x, y] of p) {
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  }
  if (!(x1 >= x0 && y1 >= y0) || !Number.isFinite(x0 + x1 + y0 + y1)) return null;
  return { x0: Math.floor(x0), y0: Math.floor(y0), x1: Math.ceil(x1), y1: Math.ceil(y1) };
}

/**
 * The cubic Bézier from (x1, y1) through the controls to (x4, y4) as line segments, cut as Qt's
 * QBezier::addToPolygon cuts it (halves until flat within `threshold`, at most 9 halvings), the
 * start left out.
 */
function flattenCubic(out: Point[], c: number[], threshold = 0.25): void {
  const stack: { b: number[]; level: number }[] = [{ b: c, level: 9 }];
  while (stack.length) {
    const top = stack[stack.length - 1]!;
    const [x1, y1, x2, y2, x3, y3, x4, y4] = top.b as [number, number, number, number, number, number, number, number];
    const dx = x4 - x1;
    const dy = y4 - y1;
    let l = Math.abs(dx) + Math.abs(dy);
    let d: number;
    if (l > 1) d = Math.abs(dx * (y1 - y2) - dy * (x1 - x2)) + Math.abs(dx * (y1 - y3) - dy * (x1 - x3));
    else {
      d = Math.abs(x1 - x2) + Math.abs(y1 - y2) + Math.abs(x1 - x3) + Math.abs(y1 - y3);
      l = 1;
    }
    if (d < threshold * l || top.level === 0) {
      out.push([x4, y4]);
      stack.pop();
      continue;
    }
    // De Casteljau at t = 1/2: the first half on top of the stack.
    const mx12 = (x1 + x2) / 2;
    const my12 = (y1 + y2) / 2;
    const mx23 = (x2 + x3) / 2;
    const my23 = (y2 + y3) / 2;
    const mx34 = (x3 + x4) / 2;
    const my34 = (y3 + y4) / 2;
    const ax = (mx12 + mx23) / 2;
    const ay = (my12 + my23) / 2;
    const bx = (mx23 + mx34) / 2;
    const by = (my23 + my34) / 2;
    const mx = (ax + bx) / 2;
    const my = (ay + by) / 2;
    const level = top.level - 1;
    stack.pop();
    stack.push({ b: [mx, my, bx, by, mx34, my34, x4, y4], level });
    stack.push({ b: [x1, y1, mx12, my12, ax, ay, mx, my], level });
  }
}

/** A path of lines and cubic Béziers from `start`: each segment's controls (none for a line) and end. */
export interface Path {
  start: Point;
  segments: { c1?: Point; c2?: Point; to: Point }[];
  closed: boolean;
}

/** The polygon (or polyline) through `points` as a path. */
export function linePath(points: readonly Point[], closed: boolean): Path {
  return { start: points[0] ?? [0, 0], segments: points.slice(1).map((to) => ({ to })), closed };
}

/**
 * Appends to `path` an arc of the ellipse centred on (cx, cy) with radii rx, ry from angle a0 to a1
 * (radians, screen coordinates: y down, growing angles turn clockwise), the path being at its start:
 * cubic Béziers cut at the quarter turns, as Qt draws arcs.
 */
export function arcTo(path: Path, cx: number, cy: number, rx: number, ry: number, a0: number, a1: number): void {
  const q = Math.PI / 2;
  const dir = a1 >= a0 ? 1 : -1;
  let b0 = a0;
  while (dir * (a1 - b0) > 1e-12) {
    // The next quarter-turn boundary, or the end.
    const next = dir > 0 ? Math.floor(b0 / q + 1e-9) * q + q : Math.ceil(b0 / q - 1e-9) * q - q;
    const b1 = dir > 0 ? Math.min(next, a1) : Math.max(next, a1);
    const t = b1 - b0;
    const k = (4 / 3) * Math.tan(t / 4);
    const x1 = cx + Math.cos(b0) * rx;
    const y1 = cy + Math.sin(b0) * ry;
    const x4 = cx + Math.cos(b1) * rx;
    const y4 = cy + Math.sin(b1) * ry;
    path.segments.push({
      c1: [x1 - k * Math.sin(b0) * rx, y1 + k * Math.cos(b0) * ry],
      c2: [x4 + k * Math.sin(b1) * rx, y4 - k * Math.cos(b1) * ry],
      to: [x4, y4],
    });
    b0 = b1;
  }
}

/** The ellipse inscribed in the box (x, y, w, h) as Qt's addEllipse makes it: four quarter Béziers from its right end. */
export function ellipsePath(x: number, y: number, w: number, h: number): Path {
  const path: Path = { start: [x + w, y + h / 2], segments: [], closed: true };
  arcTo(path, x + w / 2, y + h / 2, w / 2, h / 2, 0, -2 * Math.PI);
  return path;
}

/** The path under m. */
export function transformPath(p: Path, m: Matrix): Path {
  const t = (q: Point | undefined) => (q ? applyMatrix(m, q[0], q[1]) : undefined);
  return {
    start: t(p.start)!,
    segments: p.segments.map((s) => (s.c1 ? { c1: t(s.c1), c2: t(s.c2), to: t(s.to)! } : { to: t(s.to)! })),
    closed: p.closed,
  };
}

/** A segment as its control polygon: [from, to] for a line, [from, c1, c2, to] for a cubic. */
type Seg = Point[];

function segsOf(p: Path): Seg[] {
  const out: Seg[] = [];
  let at = p.start;
  const push = (s: Seg) => {
    // Segments that go nowhere are left out (Qt's stroker skips them).
    if (s.some((q) => q[0] !== at[0] || q[1] !== at[1])) out.push(s);
  };
  for (const s of p.segments) {
    push(s.c1 && s.c2 ? [at, s.c1, s.c2, s.to] : [at, s.to]);
    at = s.to;
  }
  if (p.closed && (at[0] !== p.start[0] || at[1] !== p.start[1])) push([at, p.start]);
  return out;
}

/** The path as one polygon: its cubics flattened as Qt 5 flattens them (`threshold` 0.25; smaller is finer). */
export function flattenPath(p: Path, threshold = 0.25): Point[] {
  const out: Point[] = [p.start];
  for (const s of segsOf(p)) {
    if (s.length === 4)
      flattenCubic(
        out,
        s.flatMap((q) => [q[0], q[1]]),
        threshold,
      );
    else out.push(s[1]!);
  }
  return out;
}

/** An ellipse inscribed in the box (x, y, w, h) as one closed polygon. */
export function ellipsePolygon(x: number, y: number, w: number, h: number, threshold = 0.25): Point[] {
  const out = flattenPath(ellipsePath(x, y, w, h), threshold);
  out.pop(); // back at the start
  return out;
}

/**
 * How flat the round joins and caps of strokePath's `fine` strokes are made (see flattenPath): Qt draws
 * a rectangle's outline with corners of their true area (a quarter disc of radius 1 covers 201/256 of
 * its pixel), polygons' and curves' joins flattened as their paths are.
 */
const FINE = 0.01;

const unitNormal = (a: Point, b: Point): Point => {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len = Math.hypot(dx, dy);
  return [dy / len, -dx / len];
};

/** A segment moved `hw` to its left (Qt's normal side), as Qt's stroker moves it (QBezier::shifted for a cubic, in one piece). */
function shifted(s: Seg, hw: number): Seg {
  const idx: number[] = [0];
  const pts: Point[] = [s[0]!];
  for (let i = 1; i < s.length; i++) {
    const q = pts[pts.length - 1]!;
    if (s[i]![0] !== q[0] || s[i]![1] !== q[1]) pts.push(s[i]!);
    idx.push(pts.length - 1);
  }
  const out: Point[] = [];
  let prev = unitNormal(pts[0]!, pts[1]!);
  out.push([pts[0]![0] + hw * prev[0], pts[0]![1] + hw * prev[1]]);
  for (let i = 1; i < pts.length - 1; i++) {
    const next = unitNormal(pts[i]!, pts[i + 1]!);
    const r = 1 + prev[0] * next[0] + prev[1] * next[1];
    const k = Math.abs(r) < 1e-12 ? 0 : hw / r;
    out.push(
      k
        ? [pts[i]![0] + k * (prev[0] + next[0]), pts[i]![1] + k * (prev[1] + next[1])]
        : [pts[i]![0] + hw * prev[0], pts[i]![1] + hw * prev[1]],
    );
    prev = next;
  }
  const last = pts[pts.length - 1]!;
  out.push([last[0] + hw * prev[0], last[1] + hw * prev[1]]);
  return idx.map((i) => out[i]!);
}

/** The direction a segment leaves its start / reaches its end. */
function startDir(s: Seg): Point {
  const a = s[0]!;
  const b = s.find((q) => q[0] !== a[0] || q[1] !== a[1])!;
  return [b[0] - a[0], b[1] - a[1]];
}
function endDir(s: Seg): Point {
  const b = s[s.length - 1]!;
  const a = [...s].reverse().find((q) => q[0] !== b[0] || q[1] !== b[1])!;
  return [b[0] - a[0], b[1] - a[1]];
}

/** The join at `v` from the side's point `from` (after a segment running `d0`) to `to` (before one running `d1`). */
function join(out: Point[], v: Point, d0: Point, d1: Point, from: Point, to: Point, hw: number, flatness: number): void {
  const cross = d0[0] * d1[1] - d0[1] * d1[0];
  const dot = d0[0] * d1[0] + d0[1] * d1[1];
  const eps = 1e-9 * Math.hypot(d0[0], d0[1]) * Math.hypot(d1[0], d1[1]);
  if (cross > eps || (Math.abs(cross) <= eps && dot < 0)) {
    // Turning away from this side: the outside of the turn, a round join.
    const a0 = Math.atan2(from[1] - v[1], from[0] - v[0]);
    let a1 = Math.atan2(to[1] - v[1], to[0] - v[0]);
    while (a1 < a0) a1 += 2 * Math.PI;
    while (a1 > a0 + Math.PI + 1e-9) a1 -= 2 * Math.PI;
    const arc: Path = { start: from, segments: [], closed: false };
    arcTo(arc, v[0], v[1], hw, hw, a0, a1);
    for (const q of flattenPath(arc, flatness).slice(1)) out.push(q);
  } else if (cross < -eps) {
    // Inside of the turn: through the vertex, as Qt's stroker goes.
    out.push(v, to);
  } else if (from[0] !== to[0] || from[1] !== to[1]) out.push(to);
}

/** One side of a stroke along the segments, `hw` to their left: the first segment's start, then on to the last's end. */
function side(out: Point[], segs: Seg[], hw: number, closed: boolean, flatness: number): void {
  let prevEnd: Point | undefined;
  let prevDir: Point | undefined;
  for (const s of segs) {
    const o = shifted(s, hw);
    if (!prevEnd) out.push(o[0]!);
    else join(out, s[0]!, prevDir!, startDir(s), prevEnd, o[0]!, hw, flatness);
    if (o.length === 4)
      flattenCubic(
        out,
        o.flatMap((q) => [q[0], q[1]]),
      );
    else out.push(o[1]!);
    prevEnd = o[o.length - 1]!;
    prevDir = endDir(s);
  }
  if (closed && segs.length) {
    const first = segs[0]!;
    join(out, first[0]!, prevDir!, startDir(first), prevEnd!, shifted(first, hw)[0]!, hw, flatness);
  }
}

/** A round cap at b, from the side's point `from` half a turn round the end. */
function cap(out: Point[], b: Point, hw: number, from: Point, flatness: number): void {
  const a0 = Math.atan2(from[1] - b[1], from[0] - b[0]);
  const arc: Path = { start: from, segments: [], closed: false };
  arcTo(arc, b[0], b[1], hw, hw, a0, a0 + Math.PI);
  for (const q of flattenPath(arc, flatness).slice(1)) out.push(q);
}

/**
 * The outline of a stroke of width `width` along the path with round caps and joins, as Qt's stroker
 * makes it, as polygons to fill with the nonzero rule. A path that goes nowhere is a dot of that width.
 * `fine`: joins and caps of their true areas (FINE).
 */
export function strokePath(path: Path, width: number, fine = false): Polygons {
  const flatness = fine ? FINE : 0.25;
  const hw = width / 2;
  if (!(hw > 0)) return [];
  const segs = segsOf(path);
  if (!segs.length) return [ellipsePolygon(path.start[0] - hw, path.start[1] - hw, width, width, flatness)];
  const rev = segs.map((s) => [...s].reverse()).reverse();
  if (path.closed) {
    // Each side its own loop; they run opposite ways: the ring between them has winding 1.
    const a: Point[] = [];
    side(a, segs, hw, true, flatness);
    const b: Point[] = [];
    side(b, rev, hw, true, flatness);
    return [a, b];
  }
  const out: Point[] = [];
  side(out, segs, hw, false, flatness);
  cap(out, segs[segs.length - 1]![segs[segs.length - 1]!.length - 1]!, hw, out[out.length - 1]!, flatness);
  side(out, rev, hw, false, flatness);
  cap(out, segs[0]![0]!, hw, out[out.length - 1]!, flatness);
  return [out];
}

const div65535 = (x: number) => Math.floor((x + Math.floor(x / 65536) + 0x8000) / 65536);
/** A 16-bit channel to 8 bits, rounded to nearest (QRgba64::toArgb32 as Debian's Qt 5.15 computes it). */
const div257 = (x: number) => Math.round(x / 257);

/**
 * A straight colour as Qt's raster engine holds a solid pen or brush under a painter opacity:
 * premultiplied ARGB32 (the opacity as QRasterPaintEngine keeps it, int(opacity * 256)).
 */
export function qtSolid(colour: readonly [number, number, number, number], opacity = 1): [number, number, number, number] {
  const io = Math.trunc(Math.min(1, Math.max(0, opacity)) * 256);
  let a16 = colour[3] * 257;
  if (io < 256) a16 = (a16 * io) >> 8;
  const pm = (c: number) => div257(div65535(c * 257 * a16));
  return [pm(colour[0]), pm(colour[1]), pm(colour[2]), div257(a16)];
}
