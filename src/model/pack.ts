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

interface Placed {
  index: number;
  x: number;
  y: number;
  w: number;
  h: number;
  rotated: boolean;
}

/** The padded size of a rectangle: its room on the page plus `padding` to its right and below (the bin grows by `padding` too). */
interface Item {
  index: number;
  w: number;
  h: number;
}

const BIG = 1e9;

/** The heuristics as small numbers, for the placement loop. */
const BSSF = 0;
const BLSF = 1;
const BAF = 2;
const BL = 3;
const CP = 4;
const CODE: Record<PackHeuristic, number> = {
  'best-short-side': BSSF,
  'best-long-side': BLSF,
  'best-area': BAF,
  'bottom-left': BL,
  'contact-point': CP,
};

/**
 * MaxRects over one bin (Jylänki 2010, section 3.3): the free space is the list of maximal free rectangles, possibly
 * overlapping. Placing a rectangle splits every free rectangle it overlaps into up to four maximal ones around it, and
 * prunes those inside another. Rectangles are kept four numbers each (left, top, right, bottom; right and bottom
 * exclusive) in typed arrays: the placement loop reads them without allocating.
 */
class MaxRectsBin {
  /** The free rectangles, `nFree` of them. */
  private free = new Int32Array(256);
  private nFree = 1;
  /** The rectangles one placement splits off, before pruning. */
  private made = new Int32Array(64);
  /** The placed rectangles (their room, padding included), `count` of them, with their item index and turn. */
  used: Int32Array;
  index: Int32Array;
  turned: Uint8Array;
  count = 0;
  usedW = 0;
  usedH = 0;
  constructor(
    readonly width: number,
    readonly height: number,
    readonly rotate: boolean,
    capacity: number,
  ) {
    this.free.set([0, 0, width, height]);
    this.used = new Int32Array(capacity * 4);
    this.index = new Int32Array(capacity);
    this.turned = new Uint8Array(capacity);
  }

  /**
   * Places a w × h rectangle (item `index`) where the heuristic scores best, or says it does not fit. Scores are
   * compared as (primary, secondary), lower first; ties go to the first free rectangle, then to the upright turn.
   */
  insert(index: number, w: number, h: number, heuristic: number): boolean {
    const f = this.free;
    const n = this.nFree * 4;
    const turn = this.rotate && w !== h;
    let s1 = Infinity;
    let s2 = Infinity;
    let bx = -1;
    let by = 0;
    let bturn = false;
    for (let k = 0; k < n; k += 4) {
      const fx = f[k]!;
      const fy = f[k + 1]!;
      const fw = f[k + 2]! - fx;
      const fh = f[k + 3]! - fy;
      for (let t = 0; t < (turn ? 2 : 1); t++) {
        const rw = t ? h : w;
        const rh = t ? w : h;
        if (rw > fw || rh > fh) continue;
        let a: number;
        let b: number;
        if (heuristic === BSSF) {
          const dw = fw - rw;
          const dh = fh - rh;
          a = dw < dh ? dw : dh;
          b = dw < dh ? dh : dw;
        } else if (heuristic === BLSF) {
          const dw = fw - rw;
          const dh = fh - rh;
          a = dw < dh ? dh : dw;
          b = dw < dh ? dw : dh;
        } else if (heuristic === BAF) {
          a = fw * fh - rw * rh;
          b = Math.min(fw - rw, fh - rh);
        } else if (heuristic === BL) {
          a = fy + rh;
          b = fx;
        } else {
          // Contact point: the most edge touching the bin's edges and placed rectangles (scored negated).
          a = -this.contact(fx, fy, rw, rh);
          b = fy + rh;
        }
        if (a < s1 || (a === s1 && b < s2)) {
          s1 = a;
          s2 = b;
          bx = fx;
          by = fy;
          bturn = t === 1;
        }
      }
    }
    if (bx < 0) return false;
    this.place(index, bx, by, bturn ? h : w, bturn ? w : h, bturn);
    return true;
  }

  /** How much of the rectangle's edge touches the bin's edge or a placed rectangle (the contact point score). */
  private contact(x: number, y: number, w: number, h: number): number {
    const r = x + w;
    const b = y + h;
    let score = 0;
    if (x === 0 || r === this.width) score += h;
    if (y === 0 || b === this.height) score += w;
    const u = this.used;
    const n = this.count * 4;
    for (let k = 0; k < n; k += 4) {
      const ux = u[k]!;
      const uy = u[k + 1]!;
      const ur = u[k + 2]!;
      const ub = u[k + 3]!;
      if (ux === r || ur === x) score += overlap(uy, ub, y, b);
      if (uy === b || ub === y) score += overlap(ux, ur, x, r);
    }
    return score;
  }

  private place(index: number, x: number, y: number, w: number, h: number, turned: boolean): void {
    const r = x + w;
    const b = y + h;
    let f = this.free;
    const n = this.nFree * 4;
    let made = this.made;
    let m = 0;
    // Split every free rectangle the new one overlaps into the up to four maximal ones around it; keep the others in order.
    let kept = 0;
    for (let k = 0; k < n; k += 4) {
      const fx = f[k]!;
      const fy = f[k + 1]!;
      const fr = f[k + 2]!;
      const fb = f[k + 3]!;
      if (x >= fr || r <= fx || y >= fb || b <= fy) {
        if (kept !== k) {
          f[kept] = fx;
          f[kept + 1] = fy;
          f[kept + 2] = fr;
          f[kept + 3] = fb;
        }
        kept += 4;
        continue;
      }
      if (m + 16 > made.length) {
        const grown = new Int32Array(made.length * 2);
        grown.set(made);
        this.made = made = grown;
      }
      if (x > fx) m = put(made, m, fx, fy, x, fb);
      if (r < fr) m = put(made, m, r, fy, fr, fb);
      if (y > fy) m = put(made, m, fx, fy, fr, y);
      if (b < fb) m = put(made, m, fx, b, fr, fb);
    }
    // Prune (Jylänki, 3.3): a kept rectangle cannot lie inside a new one (it would have lain inside the free rectangle
    // the new one was cut from, and the list was pruned), so only the new ones are checked: against each other (of two
    // equal ones the first stays) and against the kept ones.
    let total = kept;
    for (let i = 0; i < m; i += 4) {
      const mx = made[i]!;
      const my = made[i + 1]!;
      const mr = made[i + 2]!;
      const mb = made[i + 3]!;
      let inside = false;
      for (let j = 0; j < m && !inside; j += 4) {
        if (j === i || made[j]! > mx || made[j + 1]! > my || made[j + 2]! < mr || made[j + 3]! < mb) continue;
        // j holds i: i goes, unless they are equal and i comes first.
        inside = j < i || made[j]! !== mx || made[j + 1]! !== my || made[j + 2]! !== mr || made[j + 3]! !== mb;
      }
      for (let k = 0; k < kept && !inside; k += 4) inside = f[k]! <= mx && f[k + 1]! <= my && f[k + 2]! >= mr && f[k + 3]! >= mb;
      if (inside) continue;
      if (total + 4 > f.length) {
        const grown = new Int32Array(f.length * 2);
        grown.set(f.subarray(0, total));
        this.free = f = grown;
      }
      f[total] = mx;
      f[total + 1] = my;
      f[total + 2] = mr;
      f[total + 3] = mb;
      total += 4;
    }
    this.nFree = total / 4;
    const c = this.count++;
    this.used.set([x, y, r, b], c * 4);
    this.index[c] = index;
    this.turned[c] = turned ? 1 : 0;
    if (r > this.usedW) this.usedW = r;
    if (b > this.usedH) this.usedH = b;
  }

  /** The placed rectangles as objects. */
  placed(): Placed[] {
    const out: Placed[] = [];
    for (let c = 0; c < this.count; c++) {
      const k = c * 4;
      const u = this.used;
      out.push({
        index: this.index[c]!,
        x: u[k]!,
        y: u[k + 1]!,
        w: u[k + 2]! - u[k]!,
        h: u[k + 3]! - u[k + 1]!,
        rotated: this.turned[c] === 1,
      });
    }
    return out;
  }
}

/** Appends a rectangle (left, top, right, bottom) at `m`; returns the next place. */
function put(a: Int32Array, m: number, x: number, y: number, r: number, b: number): number {
  a[m] = x;
  a[m + 1] = y;
  a[m + 2] = r;
  a[m + 3] = b;
  return m + 4;
}

function overlap(a0: number, a1: number, b0: number, b1: number): number {
  return a1 < b0 || b1 < a0 ? 0 : Math.min(a1, b1) - Math.max(a0, b0);
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
  const bin = new MaxRectsBin(binW, binH, rules.rotate, items.length);
  const code = CODE[heuristic];
  for (const it of items) if (!bin.insert(it.index, it.w, it.h, code)) return null;
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
      best = { placed: bin.placed(), page };
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
  let bestBin = new MaxRectsBin(binW, binH, rules.rotate, 0);
  let bestArea = -1;
  for (const heuristic of heuristics.filter((h) => h !== 'contact-point' || items.length <= 1500).slice(0, 3)) {
    const bin = new MaxRectsBin(binW, binH, rules.rotate, items.length);
    let a = 0;
    const taken = new Set<number>();
    for (const it of [...items].sort(ORDERS[0]))
      if (bin.insert(it.index, it.w, it.h, CODE[heuristic])) {
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
      trial ??= { placed: bin.placed(), page: pageSize(bin.usedW, bin.usedH, rules) };
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
