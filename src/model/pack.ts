import { OptionError } from '../binary/errors.js';
import type { Budget } from '../binary/limits.js';
import type { RgbaImage } from '../render/image.js';
import { compose, type Matrix, rotate, scale, translate } from '../render/matrix.js';
import { drawPicture, type PicturePart } from '../render/pipeline.js';

/**
 * The one packer: MaxRects (Jukka Jylänki, "A Thousand Ways to Pack the Bin",
 * 2010: free rectangles, split and prune) with its five placement heuristics
 * (best short side fit, best long side fit, best area fit, bottom-left,
 * contact point), each tried on a range of page sizes, the smallest page
 * kept. A pure function over sizes: positions out, no pixels. Deterministic:
 * the same sizes and options give the same layout (ties go to the first
 * heuristic, the first free rectangle, the input order).
 *
 * Every rectangle takes `w + 2·extrude` × `h + 2·extrude` pixels (swapped
 * when rotated), with `padding` pixels between two of them and `border`
 * pixels between them and the page's edge. A position is the frame's own
 * upper-left corner (inside its extrusion).
 */
export interface PackInput {
  w: number;
  h: number;
}

export type PackHeuristic = 'best-short-side' | 'best-long-side' | 'best-area' | 'bottom-left' | 'contact-point';

export const PACK_HEURISTICS: readonly PackHeuristic[] = ['best-short-side', 'best-long-side', 'best-area', 'bottom-left', 'contact-point'];

export interface PackOptions {
  /** Pixels between two rectangles (TexturePacker's shape padding). Default 0. */
  padding?: number;
  /** Pixels between the rectangles and the page's edge (TexturePacker's border padding). Default 0. */
  border?: number;
  /** Pixels each rectangle's edge is repeated around it (its room on the page; the rectangle excludes them). Default 0. */
  extrude?: number;
  /** A rectangle may be stored turned 90 degrees. Default false. */
  rotate?: boolean;
  /** Page sides are powers of two. */
  pot?: boolean;
  /** Pages are square. */
  square?: boolean;
  /** The largest page (default: unbounded). */
  maxWidth?: number;
  maxHeight?: number;
  /** Every page is this wide. */
  fixedWidth?: number;
  /** Spread over several pages when one of `maxWidth` × `maxHeight` is not enough (else that is an error). */
  multipack?: boolean;
  /** The heuristics to try (default all five). */
  heuristics?: readonly PackHeuristic[];
}

export interface PackPlacement {
  /** Index into `PackResult.pages`. */
  page: number;
  /** The rectangle's upper-left corner on its page (inside its extrusion). */
  x: number;
  y: number;
  /** Stored turned 90 degrees clockwise: it covers h × w pixels. */
  rotated: boolean;
}

export interface PackResult {
  /** Where each input goes, in input order. */
  placements: PackPlacement[];
  pages: { width: number; height: number }[];
  /** The first page's size (0 × 0 without inputs). */
  width: number;
  height: number;
  /** Upper-left corner of each input, in input order (`placements` without the page and rotation). */
  positions: { x: number; y: number }[];
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The padded size of a rectangle: its room on the page plus `padding` to its right and below (the bin grows by `padding` too). */
interface Item {
  index: number;
  w: number;
  h: number;
}

interface Placed {
  index: number;
  x: number;
  y: number;
  w: number;
  h: number;
  rotated: boolean;
}

const BIG = 1e9;

/** MaxRects over one bin; `insert` places one rectangle or says it does not fit. */
class MaxRectsBin {
  free: Box[];
  used: Placed[] = [];
  usedW = 0;
  usedH = 0;
  constructor(
    readonly width: number,
    readonly height: number,
    readonly rotate: boolean,
  ) {
    this.free = [{ x: 0, y: 0, w: width, h: height }];
  }

  insert(item: Item, heuristic: PackHeuristic): Placed | null {
    let best: Placed | null = null;
    let s1 = Infinity;
    let s2 = Infinity;
    const free = this.free;
    for (let i = 0; i < free.length; i++) {
      const f = free[i]!;
      for (let turn = 0; turn < (this.rotate && item.w !== item.h ? 2 : 1); turn++) {
        const w = turn ? item.h : item.w;
        const h = turn ? item.w : item.h;
        if (w > f.w || h > f.h) continue;
        let a: number;
        let b: number;
        switch (heuristic) {
          case 'best-short-side': {
            const dw = f.w - w;
            const dh = f.h - h;
            a = Math.min(dw, dh);
            b = Math.max(dw, dh);
            break;
          }
          case 'best-long-side': {
            const dw = f.w - w;
            const dh = f.h - h;
            a = Math.max(dw, dh);
            b = Math.min(dw, dh);
            break;
          }
          case 'best-area':
            a = f.w * f.h - w * h;
            b = Math.min(f.w - w, f.h - h);
            break;
          case 'bottom-left':
            a = f.y + h;
            b = f.x;
            break;
          case 'contact-point':
            a = -this.contact(f.x, f.y, w, h);
            b = f.y + h;
            break;
        }
        if (a < s1 || (a === s1 && b < s2)) {
          s1 = a;
          s2 = b;
          best = { index: item.index, x: f.x, y: f.y, w, h, rotated: turn === 1 };
        }
      }
    }
    if (best) this.place(best);
    return best;
  }

  /** How much of the rectangle's edge touches the bin's edge or a placed rectangle (the contact point score). */
  private contact(x: number, y: number, w: number, h: number): number {
    let score = 0;
    if (x === 0 || x + w === this.width) score += h;
    if (y === 0 || y + h === this.height) score += w;
    for (const u of this.used) {
      if (u.x === x + w || u.x + u.w === x) score += overlap(u.y, u.y + u.h, y, y + h);
      if (u.y === y + h || u.y + u.h === y) score += overlap(u.x, u.x + u.w, x, x + w);
    }
    return score;
  }

  private place(r: Placed): void {
    const kept: Box[] = [];
    const made: Box[] = [];
    for (const f of this.free) {
      if (r.x >= f.x + f.w || r.x + r.w <= f.x || r.y >= f.y + f.h || r.y + r.h <= f.y) {
        kept.push(f);
        continue;
      }
      // Split the free rectangle into up to four maximal ones around the placed one.
      if (r.x > f.x) made.push({ x: f.x, y: f.y, w: r.x - f.x, h: f.h });
      if (r.x + r.w < f.x + f.w) made.push({ x: r.x + r.w, y: f.y, w: f.x + f.w - r.x - r.w, h: f.h });
      if (r.y > f.y) made.push({ x: f.x, y: f.y, w: f.w, h: r.y - f.y });
      if (r.y + r.h < f.y + f.h) made.push({ x: f.x, y: r.y + r.h, w: f.w, h: f.y + f.h - r.y - r.h });
    }
    // Prune: only the new rectangles can be inside another or hold an old one (the old ones were pruned already).
    const fresh: Box[] = [];
    for (let i = 0; i < made.length; i++) {
      const m = made[i]!;
      let inside = false;
      for (let j = 0; j < made.length && !inside; j++)
        if (j !== i && contains(made[j]!, m) && (!contains(m, made[j]!) || j < i)) inside = true;
      for (let j = 0; j < kept.length && !inside; j++) if (contains(kept[j]!, m)) inside = true;
      if (!inside) fresh.push(m);
    }
    const free: Box[] = [];
    for (const k of kept) {
      let inside = false;
      for (const m of fresh)
        if (contains(m, k)) {
          inside = true;
          break;
        }
      if (!inside) free.push(k);
    }
    for (const m of fresh) free.push(m);
    this.free = free;
    this.used.push(r);
    this.usedW = Math.max(this.usedW, r.x + r.w);
    this.usedH = Math.max(this.usedH, r.y + r.h);
  }
}

function overlap(a0: number, a1: number, b0: number, b1: number): number {
  return a1 < b0 || b1 < a0 ? 0 : Math.min(a1, b1) - Math.max(a0, b0);
}

function contains(a: Box, b: Box): boolean {
  return b.x >= a.x && b.y >= a.y && b.x + b.w <= a.x + a.w && b.y + b.h <= a.y + a.h;
}

const nextPow2 = (n: number) => (n <= 1 ? 1 : 2 ** Math.ceil(Math.log2(n)));

/** The orders rectangles are offered in (largest first; ties in input order). */
const ORDERS: ((a: Item, b: Item) => number)[] = [
  (a, b) => b.w * b.h - a.w * a.h || Math.max(b.w, b.h) - Math.max(a.w, a.h) || a.index - b.index,
  (a, b) => Math.max(b.w, b.h) - Math.max(a.w, a.h) || Math.min(b.w, b.h) - Math.min(a.w, a.h) || a.index - b.index,
  (a, b) => b.h - a.h || b.w - a.w || a.index - b.index,
  (a, b) => b.w + b.h - (a.w + a.h) || a.index - b.index,
];

interface Rules {
  pad: number;
  border: number;
  rotate: boolean;
  pot: boolean;
  square: boolean;
  maxW: number;
  maxH: number;
  fixedW: number;
}

/** The page a bin's used area makes, after the size rules. */
function pageSize(usedW: number, usedH: number, rules: Rules): { width: number; height: number } {
  let width = rules.fixedW || Math.max(1, usedW - rules.pad + 2 * rules.border);
  let height = Math.max(1, usedH - rules.pad + 2 * rules.border);
  if (rules.pot) {
    width = nextPow2(width);
    height = nextPow2(height);
  }
  if (rules.square) width = height = Math.max(width, height);
  return { width, height };
}

/** The bin (inner size, padding added) a page of width × height gives. */
const binOf = (side: number, rules: Rules) => side - 2 * rules.border + rules.pad;

interface Trial {
  placed: Placed[];
  page: { width: number; height: number };
}

/** Packs every item into one bin of binW × binH, or null. */
function tryPack(items: readonly Item[], binW: number, binH: number, heuristic: PackHeuristic, rules: Rules): MaxRectsBin | null {
  const bin = new MaxRectsBin(binW, binH, rules.rotate);
  for (const it of items) if (!bin.insert(it, heuristic)) return null;
  return bin;
}

/** The page widths worth trying for these items. */
function candidateWidths(items: readonly Item[], rules: Rules, area: number, widest: number, count: number): number[] {
  const minW = Math.max(1, binOf(1, rules), widest);
  const maxW = rules.fixedW ? binOf(rules.fixedW, rules) : rules.maxW ? binOf(rules.maxW, rules) : BIG;
  if (rules.fixedW) return [maxW];
  const out = new Set<number>();
  const root = Math.sqrt(area);
  if (rules.pot) {
    for (let p = 1; p <= 2 ** 24; p *= 2) {
      const inner = binOf(p, rules);
      if (inner >= minW && inner <= maxW && p >= root / 8 && p <= root * 8) out.add(inner);
    }
  } else {
    const steps = Math.max(1, count);
    for (let i = 0; i < steps; i++) {
      // Widths from 0.7 to 1.6 times the square root of the area, and the widest rectangle.
      const f = steps === 1 ? 1 : 0.7 + (0.9 * i) / (steps - 1);
      out.add(Math.round(Math.max(minW, root * f)));
    }
    out.add(minW);
    // The widest page allowed (when the height is bounded, the square-ish ones may all be too tall).
    if (maxW < BIG) out.add(maxW);
  }
  const list = [...out].filter((w) => w >= minW && w <= maxW).sort((a, b) => a - b);
  if (!list.length && minW <= maxW) list.push(Math.min(maxW, Math.max(minW, Math.round(root))));
  return list;
}

/**
 * The smallest single page for the items over heuristics, orders and widths, or null when none fits. The
 * trials are budgeted (a pack of n items costs about n² steps): every combination for small sets, fewer
 * widths and orders (contact point, whose score walks every placed rectangle, left out) for big ones.
 */
function smallestPage(items: readonly Item[], rules: Rules, heuristics: readonly PackHeuristic[]): Trial | null {
  let area = 0;
  let widest = 0;
  let tallest = 0;
  for (const it of items) {
    area += it.w * it.h;
    widest = Math.max(widest, rules.rotate ? Math.min(it.w, it.h) : it.w);
    tallest = Math.max(tallest, rules.rotate ? Math.min(it.w, it.h) : it.h);
  }
  const n = items.length;
  const packs = Math.max(8, Math.min(600, Math.floor(PACK_WORK / Math.max(1, n * Math.min(n, 4000)))));
  const hs = heuristics.filter((h) => h !== 'contact-point' || n <= 800);
  const widths = candidateWidths(items, rules, area, widest, 12);
  const root = Math.sqrt(area);
  const byCloseness = widths
    .map((w, i) => ({ w, i }))
    .sort((a, b) => Math.abs(Math.log(a.w / root)) - Math.abs(Math.log(b.w / root)) || a.i - b.i);
  const combos: { w: number; heuristic: PackHeuristic; order: number; key: number }[] = [];
  byCloseness.forEach(({ w }, rank) => {
    ORDERS.forEach((_, order) => {
      hs.forEach((heuristic, hi) => combos.push({ w, heuristic, order, key: Math.max(rank, order) * 1e6 + rank * 1e3 + order * 10 + hi }));
    });
  });
  combos.sort((a, b) => a.key - b.key);
  const steps = packs >= 9 ? 8 : packs - 1;
  const chosen = combos.slice(0, Math.max(1, Math.floor(packs / (steps + 1))));
  const maxBinH = rules.maxH ? binOf(rules.maxH, rules) : BIG;
  let best: Trial | null = null;
  let bestArea = Infinity;
  const consider = (bin: MaxRectsBin) => {
    const page = pageSize(bin.usedW, bin.usedH, rules);
    if (rules.maxW && page.width > rules.maxW) return;
    if (rules.maxH && page.height > rules.maxH) return;
    const a = page.width * page.height;
    if (a < bestArea || (a === bestArea && best && Math.max(page.width, page.height) < Math.max(best.page.width, best.page.height))) {
      bestArea = a;
      best = { placed: bin.used.slice(), page };
    }
  };
  const sorted = new Map<number, Item[]>();
  const run = (c: { w: number; heuristic: PackHeuristic; order: number }) => {
    let list = sorted.get(c.order);
    if (!list) sorted.set(c.order, (list = [...items].sort(ORDERS[c.order])));
    // A bin a little taller than the area needs first, grown until everything fits (a tall bin at last:
    // bottom-left always fits there when every item fits the width); then halve the gap to the lowest height that holds it all.
    const tall = Math.min(maxBinH, Math.ceil((area * 2) / c.w) + tallest);
    let lo = Math.max(tallest, Math.ceil(area / c.w));
    let h = Math.min(maxBinH, Math.max(tallest, Math.ceil(area / c.w / 0.97)));
    let first = tryPack(list, c.w, h, c.heuristic, rules);
    for (let grown = 0; !first && h < maxBinH; grown++) {
      lo = h + 1;
      h = grown >= 3 || Math.ceil(h * 1.04) + 1 >= tall ? (h < tall ? tall : maxBinH) : Math.ceil(h * 1.04) + 1;
      first = tryPack(list, c.w, h, c.heuristic, rules);
    }
    if (!first) return;
    consider(first);
    let hi = first.usedH;
    for (let s = 0; s < steps && lo < hi; s++) {
      const mid = Math.floor((lo + hi) / 2);
      const bin = tryPack(list, c.w, mid, c.heuristic, rules);
      if (bin) {
        consider(bin);
        hi = Math.min(mid, bin.usedH);
      } else lo = mid + 1;
    }
  };
  for (const c of chosen) run(c);
  // Nothing fit a page near the square: the largest page allowed, shrunk to what it holds.
  if (!best && (rules.maxW || rules.maxH || rules.fixedW))
    for (const heuristic of hs) run({ w: widths[widths.length - 1] ?? binOf(rules.maxW, rules), heuristic, order: 0 });
  return best;
}

/** The work the smallest-page search may do, in rectangle × rectangle steps (a few hundred milliseconds). */
const PACK_WORK = 3e6;

/** Fills one bin of the largest page with as many items as fit (largest first), for multipack. */
function fillPage(items: readonly Item[], rules: Rules, heuristics: readonly PackHeuristic[]): { taken: Set<number>; bin: MaxRectsBin } {
  const binW = binOf(rules.fixedW || rules.maxW || BIG, rules);
  const binH = binOf(rules.maxH || BIG, rules);
  let bestTaken = new Set<number>();
  let bestBin = new MaxRectsBin(binW, binH, rules.rotate);
  let bestArea = -1;
  for (const heuristic of heuristics.filter((h) => h !== 'contact-point' || items.length <= 1500).slice(0, 3)) {
    const bin = new MaxRectsBin(binW, binH, rules.rotate);
    let a = 0;
    const taken = new Set<number>();
    for (const it of [...items].sort(ORDERS[0]))
      if (bin.insert(it, heuristic)) {
        taken.add(it.index);
        a += it.w * it.h;
      }
    if (a > bestArea) {
      bestArea = a;
      bestTaken = taken;
      bestBin = bin;
    }
  }
  return { taken: bestTaken, bin: bestBin };
}

const whole = (n: number | undefined, what: string): number => {
  const v = n ?? 0;
  if (!Number.isInteger(v) || v < 0) throw new OptionError(`${what} must be a whole number of pixels, not ${v}`);
  return v;
};

/** Lays out rectangles on the fewest, smallest pages the options allow. */
export function packRects(rects: readonly PackInput[], options: PackOptions = {}): PackResult {
  const extrude = whole(options.extrude, 'extrude');
  const rules: Rules = {
    pad: whole(options.padding, 'padding'),
    border: whole(options.border, 'border'),
    rotate: !!options.rotate,
    pot: !!options.pot,
    square: !!options.square,
    maxW: whole(options.maxWidth, 'the largest page width'),
    maxH: whole(options.maxHeight, 'the largest page height'),
    fixedW: whole(options.fixedWidth, 'the page width'),
  };
  if (rules.fixedW && rules.maxW && rules.fixedW > rules.maxW) rules.maxW = rules.fixedW;
  const heuristics = options.heuristics?.length ? options.heuristics : PACK_HEURISTICS;
  const items: Item[] = rects.map((r, index) => ({
    index,
    w: whole(r.w, 'a width') + 2 * extrude + rules.pad,
    h: whole(r.h, 'a height') + 2 * extrude + rules.pad,
  }));
  const placements: PackPlacement[] = rects.map(() => ({ page: 0, x: 0, y: 0, rotated: false }));
  const pages: { width: number; height: number }[] = [];
  const limitW = rules.fixedW || rules.maxW;
  if (limitW || rules.maxH) {
    const bw = limitW ? binOf(limitW, rules) : BIG;
    const bh = rules.maxH ? binOf(rules.maxH, rules) : BIG;
    for (const it of items) {
      const fits = (it.w <= bw && it.h <= bh) || (rules.rotate && it.h <= bw && it.w <= bh);
      if (!fits)
        throw new OptionError(
          `rectangle ${it.index} (${rects[it.index]!.w}x${rects[it.index]!.h}) does not fit on a ${limitW || 'any'}x${rules.maxH || 'any'} page`,
        );
    }
  }
  // Empty rectangles take no room: they stay at the first page's corner.
  let left = items.filter((it) => rects[it.index]!.w > 0 && rects[it.index]!.h > 0);
  for (const p of placements) p.x = p.y = rules.border + extrude;
  if (!left.length) return { placements, pages, width: 0, height: 0, positions: [] };
  while (left.length) {
    let trial = smallestPage(left, rules, heuristics);
    let rest: Item[] = [];
    if (!trial) {
      if (!options.multipack) {
        throw new OptionError(
          `${left.length} rectangles do not fit on one ${limitW || 'any'}x${rules.maxH || 'any'} page (pack onto several pages with multipack)`,
        );
      }
      const { taken, bin } = fillPage(left, rules, heuristics);
      const on = left.filter((it) => taken.has(it.index));
      rest = left.filter((it) => !taken.has(it.index));
      trial = smallestPage(on, rules, heuristics);
      // The smallest-page search missed the layout the fill found: keep the fill's, shrunk to what it holds.
      trial ??= { placed: bin.used, page: pageSize(bin.usedW, bin.usedH, rules) };
    }
    const page = pages.push(trial.page) - 1;
    for (const p of trial.placed)
      placements[p.index] = { page, x: rules.border + p.x + extrude, y: rules.border + p.y + extrude, rotated: p.rotated };
    left = rest;
  }
  return {
    placements,
    pages,
    width: pages[0]!.width,
    height: pages[0]!.height,
    positions: placements.map((p) => ({ x: p.x, y: p.y })),
  };
}

/** One image drawn onto a sheet: its upper-left corner there, stored turned 90° clockwise or not, its edge repeated `extrude` pixels around it. */
export interface SheetItem {
  image: RgbaImage;
  x: number;
  y: number;
  rotated?: boolean;
  extrude?: number;
}

/** Where an image's own pixel space lands on the sheet: turned 90° clockwise (TexturePacker's `rotated`) or not. */
function placement(item: SheetItem): Matrix {
  return item.rotated ? compose(rotate(90), translate(item.x + item.image.height, item.y)) : translate(item.x, item.y);
}

/** Images placed at whole-pixel positions on a new width × height sheet, drawn through the picture pipeline (rotation and extrusion with its transforms). */
export function drawSheet(items: readonly SheetItem[], width: number, height: number, budget?: Budget): RgbaImage {
  const parts: PicturePart[] = [];
  for (const item of items) {
    const at = placement(item);
    parts.push({ image: item.image, transform: at });
    const e = item.extrude ?? 0;
    const { width: w, height: h } = item.image;
    if (e > 0 && w > 0 && h > 0) {
      // The edge rows, columns and corner pixels, each stretched e pixels outwards (nearest sampling repeats them).
      const strip = (sx: number, sy: number, sw: number, sh: number, dx: number, dy: number, fx: number, fy: number) =>
        parts.push({ image: item.image, sx, sy, sw, sh, transform: compose(scale(fx, fy), translate(dx, dy), at) });
      strip(0, 0, w, 1, 0, -e, 1, e);
      strip(0, h - 1, w, 1, 0, h, 1, e);
      strip(0, 0, 1, h, -e, 0, e, 1);
      strip(w - 1, 0, 1, h, w, 0, e, 1);
      strip(0, 0, 1, 1, -e, -e, e, e);
      strip(w - 1, 0, 1, 1, w, -e, e, e);
      strip(0, h - 1, 1, 1, -e, h, e, e);
      strip(w - 1, h - 1, 1, 1, w, h, e, e);
    }
  }
  return drawPicture({ frames: [{ parts }], canvas: { x: 0, y: 0, width, height }, what: 'the sheet' }, budget).frames[0]!;
}
