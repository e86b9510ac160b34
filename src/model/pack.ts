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
  /** Offered turned: w and h are the rectangle's height and width. */
  turned?: boolean;
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
  private free = new Int32Array(64);
  private nFree = 1;
  /** The rectangles one placement splits off, before pruning. */
  private made = new Int32Array(64);
  /** Where the kept free rectangles that may hold a new one are, in `free`. */
  private near = new Int32Array(64);
  /** The free rectangles one placement overlaps, their places in `free`, and where each side's pieces end in `made`. */
  private cut = new Int32Array(64);
  private holes = new Int32Array(64);
  private ends = new Int32Array(4);
  /** Every rectangle offered was placed. */
  done = false;
  /** Steps done so far (free rectangles visited, containment checks), for the search's budget. */
  work = 0;
  /** The placed rectangles (their room, padding included), `count` of them, with their item index and turn. */
  used: Int32Array;
  index: Int32Array;
  turned: Uint8Array;
  count = 0;
  usedW = 0;
  usedH = 0;
  width = 0;
  height = 0;
  /** A rectangle may be placed turned (the heuristic picks the turn that scores best). */
  rotate = false;
  /** A bin for up to `capacity` rectangles, emptied (`reset`) for each pack of a search. */
  constructor(capacity: number) {
    this.used = new Int32Array(capacity * 4);
    this.index = new Int32Array(capacity);
    this.turned = new Uint8Array(capacity);
  }

  /** Empties the bin and makes it width × height. */
  reset(width: number, height: number, rotate: boolean): this {
    this.width = width;
    this.height = height;
    this.rotate = rotate;
    this.free[0] = 0;
    this.free[1] = 0;
    this.free[2] = width;
    this.free[3] = height;
    this.nFree = 1;
    this.count = 0;
    this.usedW = 0;
    this.usedH = 0;
    this.work = 0;
    this.done = false;
    return this;
  }

  /**
   * Places a w × h rectangle (item `index`) where the heuristic scores best, or says it does not fit. Scores are
   * compared as (primary, secondary), lower first; ties go to the first free rectangle, then to the turn offered.
   * `turned`: w × h is the rectangle turned already.
   */
  insert(index: number, w: number, h: number, heuristic: number, turned = false): boolean {
    const f = this.free;
    const n = this.nFree * 4;
    const turn = this.rotate && w !== h;
    let s1 = Infinity;
    let s2 = Infinity;
    let bx = -1;
    let by = 0;
    let bturn = false;
    this.work += n / 4;
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
    this.place(index, bx, by, bturn ? h : w, bturn ? w : h, bturn !== turned);
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
    this.work += this.count;
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
    // The free rectangles the new one overlaps (copied to `cut`, their places in `holes`), and the others that end
    // where it starts or start where it ends (`near`: see the pruning below).
    let cut = this.cut;
    let holes = this.holes;
    let near = this.near;
    let hits = 0;
    let c = 0;
    for (let k = 0; k < n; k += 4) {
      const fx = f[k]!;
      const fy = f[k + 1]!;
      const fr = f[k + 2]!;
      const fb = f[k + 3]!;
      if (x >= fr || r <= fx || y >= fb || b <= fy) {
        if (fr === x || fx === r || fb === y || fy === b) {
          if (c === near.length) this.near = near = grow(near);
          near[c++] = k;
        }
        continue;
      }
      if (hits === cut.length) {
        this.cut = cut = grow(cut);
        this.holes = holes = grow(holes);
      }
      holes[hits >> 2] = k;
      hits = put(cut, hits, fx, fy, fr, fb);
    }
    this.work += n / 4;
    // Split each into the up to four maximal free rectangles around the placed one, side by side: the pieces left of
    // it, right of it, above it, below it (each side has room for one piece per rectangle cut).
    let made = this.made;
    if (4 * hits > made.length) this.made = made = new Int32Array(8 * hits);
    let p0 = 0;
    let p1 = hits;
    let p2 = 2 * hits;
    let p3 = 3 * hits;
    for (let k = 0; k < hits; k += 4) {
      const fx = cut[k]!;
      const fy = cut[k + 1]!;
      const fr = cut[k + 2]!;
      const fb = cut[k + 3]!;
      if (x > fx) p0 = put(made, p0, fx, fy, x, fb);
      if (r < fr) p1 = put(made, p1, r, fy, fr, fb);
      if (y > fy) p2 = put(made, p2, fx, fy, fr, y);
      if (b < fb) p3 = put(made, p3, fx, b, fr, fb);
    }
    const ends = this.ends;
    ends[0] = p0;
    ends[1] = p1;
    ends[2] = p2;
    ends[3] = p3;
    // Prune (Jylänki, 3.3): a kept rectangle cannot lie inside a new one (it would have lain inside the free rectangle
    // the new one was cut from, and the list was pruned), so only the new ones are checked, against each other and
    // the kept ones. A piece reaches into the placed rectangle's span on its side, so only a piece on the same side
    // can hold it (of two equal ones the first stays); a kept one that holds it spans the same way yet misses the
    // placed rectangle, so it ends where that starts or starts where that ends: one of `near`. The pieces kept go
    // into the places of the rectangles cut (then at the end); places left over take the last rectangles.
    let filled = 0;
    let total = n;
    let m = 0;
    for (let side = 0; side < 4; side++) {
      const from = side * hits;
      const to = ends[side]!;
      m += to - from;
      for (let i = from; i < to; i += 4) {
        const mx = made[i]!;
        const my = made[i + 1]!;
        const mr = made[i + 2]!;
        const mb = made[i + 3]!;
        let inside = false;
        for (let j = from; j < to && !inside; j += 4) {
          if (j === i || made[j]! > mx || made[j + 1]! > my || made[j + 2]! < mr || made[j + 3]! < mb) continue;
          inside = j < i || made[j]! !== mx || made[j + 1]! !== my || made[j + 2]! !== mr || made[j + 3]! !== mb;
        }
        for (let j = 0; j < c && !inside; j++) {
          const q = near[j]!;
          inside = f[q]! <= mx && f[q + 1]! <= my && f[q + 2]! >= mr && f[q + 3]! >= mb;
        }
        if (inside) continue;
        let at: number;
        if (filled < hits >> 2) at = holes[filled++]!;
        else {
          if (total + 4 > f.length) {
            const grown = new Int32Array(f.length * 2);
            grown.set(f.subarray(0, total));
            this.free = f = grown;
          }
          at = total;
          total += 4;
        }
        put(f, at, mx, my, mr, mb);
      }
    }
    for (let hole = (hits >> 2) - 1; hole >= filled; hole--) {
      const at = holes[hole]!;
      total -= 4;
      if (total !== at) put(f, at, f[total]!, f[total + 1]!, f[total + 2]!, f[total + 3]!);
    }
    this.work += (m / 4) * (c + 2);
    this.nFree = total / 4;
    const u = this.used;
    const k = this.count++ * 4;
    put(u, k, x, y, r, b);
    this.index[k >> 2] = index;
    this.turned[k >> 2] = turned ? 1 : 0;
    if (r > this.usedW) this.usedW = r;
    if (b > this.usedH) this.usedH = b;
  }

  /** The placed rectangles, copied out (the search fills the same bin again). */
  copy(): PlacedSet {
    return new PlacedSet(this.used.slice(0, 4 * this.count), this.index.slice(0, this.count), this.turned.slice(0, this.count));
  }
}

/** Placed rectangles as a bin holds them (left, top, right, bottom; item index; turned), made into objects once chosen. */
class PlacedSet {
  constructor(
    readonly used: Int32Array,
    readonly index: Int32Array,
    readonly turned: Uint8Array,
  ) {}

  list(): Placed[] {
    const out: Placed[] = [];
    const u = this.used;
    for (let c = 0; c < this.index.length; c++) {
      const k = c * 4;
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

/** The array twice as long, its numbers kept. */
function grow(a: Int32Array): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(a.length * 2);
  grown.set(a);
  return grown;
}

/** Writes a rectangle (left, top, right, bottom) at `m`; returns the next place. */
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

/**
 * The orders rectangles are offered in, largest first, ties in input order (Jylänki 2010, section 5: sorting the
 * input by a decreasing key helps every heuristic): by height (rows fill like shelves: what bottom-left needs), by
 * area, by longest side, by perimeter.
 */
const ORDERS: ((a: Item, b: Item) => number)[] = [
  (a, b) => b.h - a.h || b.w - a.w || a.index - b.index,
  (a, b) => b.w * b.h - a.w * a.h || Math.max(b.w, b.h) - Math.max(a.w, a.h) || a.index - b.index,
  (a, b) => Math.max(b.w, b.h) - Math.max(a.w, a.h) || Math.min(b.w, b.h) - Math.min(a.w, a.h) || a.index - b.index,
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
  const width = pageWidth(usedW, usedH, rules);
  return { width, height: rules.square ? width : pageHeight(usedH, rules) };
}

/** The page's width alone (the search asks it often: no object made). */
function pageWidth(usedW: number, usedH: number, rules: Rules): number {
  let width = rules.fixedW || Math.max(1, usedW - rules.pad + 2 * rules.border);
  if (rules.pot) width = nextPow2(width);
  return rules.square ? Math.max(width, pageHeight(usedH, rules)) : width;
}

function pageHeight(usedH: number, rules: Rules): number {
  const height = Math.max(1, usedH - rules.pad + 2 * rules.border);
  return rules.pot ? nextPow2(height) : height;
}

/** The bin (inner size, padding added) a page of width × height gives. */
const binOf = (side: number, rules: Rules) => side - 2 * rules.border + rules.pad;

interface Trial {
  placed: PlacedSet;
  page: { width: number; height: number };
}

/**
 * Packs the items into one bin of binW × binH (heuristic code), in order; stops (`done` false) at one that does not
 * fit, when the work passes `workLimit`, or when the part placed already makes a page `lost` says cannot win.
 */
function packBin(
  bin: MaxRectsBin,
  items: readonly Item[],
  binW: number,
  binH: number,
  heuristic: number,
  rotate: boolean,
  workLimit = Infinity,
  lost?: (usedW: number, usedH: number) => boolean,
): MaxRectsBin {
  bin.reset(binW, binH, rotate);
  let w = 0;
  let h = 0;
  for (const it of items) {
    if (!bin.insert(it.index, it.w, it.h, heuristic, it.turned) || bin.work > workLimit) return bin;
    if (lost && (bin.usedW > w || bin.usedH > h)) {
      w = bin.usedW;
      h = bin.usedH;
      if (lost(w, h)) return bin;
    }
  }
  bin.done = true;
  return bin;
}

/** The page widths tried, as fractions of the square root of the rectangles' area, nearest the square first. */
const WIDTH_STEPS = [1, 0.93, 1.08, 0.86, 1.16, 0.8, 1.25, 0.74, 1.35, 0.68, 1.46, 1.6];

/**
 * The bin widths worth trying for items in this order, the likeliest first: near the square root of their area, each
 * snapped to where a row of the first items ends at or just past it (so that row fills the width exactly), the
 * narrowest width that holds the widest item, and the widest page allowed; powers of two for `pot`; the one width
 * for `fixedWidth`.
 */
function candidateWidths(list: readonly Item[], rules: Rules, area: number, widest: number): number[] {
  const minW = Math.max(1, binOf(1, rules), widest);
  const maxW = rules.fixedW ? binOf(rules.fixedW, rules) : rules.maxW ? binOf(rules.maxW, rules) : BIG;
  if (rules.fixedW) return [maxW];
  const root = Math.sqrt(area);
  const out: number[] = [];
  const add = (w: number) => {
    if (w >= minW && w <= maxW && !out.includes(w)) out.push(w);
  };
  if (rules.pot) {
    const pots: number[] = [];
    for (let p = 1; p <= 2 ** 24; p *= 2) if (p >= root / 8 && p <= root * 8) pots.push(binOf(p, rules));
    pots.sort((a, b) => Math.abs(Math.log(a / root)) - Math.abs(Math.log(b / root)) || a - b);
    for (const w of pots) add(w);
  } else {
    for (const f of WIDTH_STEPS) {
      // The row of the first items that ends at or before the target, and the one that ends just after it.
      const target = Math.min(maxW, Math.max(minW, Math.round(root * f)));
      let row = 0;
      let next = 0;
      for (const it of list) {
        next = row + it.w;
        if (next > target) break;
        row = next;
      }
      add(row >= minW ? row : target);
      add(next);
    }
    add(minW);
  }
  // The widest page allowed (when the height is bounded, the square-ish ones may all be too tall).
  if (maxW < BIG) add(maxW);
  return out;
}

/**
 * The smallest-page search's budget: this many times the work of its first pack (free rectangles visited and
 * compared), so a big or awkward set is searched less (an order that makes many free rectangles is cut short).
 */
const SEARCH_WORK = 4;
/**
 * What a pack costs besides its work (the offer's list and widths, the bin made ready, the rectangles read), in
 * work units: so much per pack and per rectangle.
 */
const PACK_COST = 128;
const PACK_COST_EACH = 4;

/**
 * The smallest single page for the items over heuristics, orders and widths, or null when none fits. The budget is
 * SEARCH_WORK times the first pack's work. It goes first to bottom-left in a bin as tall as allowed: it fills from
 * the top, so the one pack gives the least height at that width, no search needed (for square pages, a few widths
 * closing in on the side); the offers (orders, turns) at the likeliest width, then the next width, and so on. Then
 * the other heuristics, each in a bin just smaller than the best page so far (a pack that fits is better; one that
 * does not costs only until the rectangle that does not fit), shrunk while it fits. A pack stops once what it
 * placed cannot make a better page, and the search stops at a page the rectangles fill exactly.
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
  let budget = Infinity;
  let work = 0;
  /** The one bin every pack of the search fills in turn (a pack that wins is copied out). */
  const scratch = n <= KEPT_BIN && keptBin && keptBin.used.length >= 4 * n ? keptBin : new MaxRectsBin(Math.max(n, 64));
  if (n <= KEPT_BIN) keptBin = scratch;
  const maxBinH = rules.maxH ? binOf(rules.maxH, rules) : BIG;
  let best: Trial | null = null;
  let bestArea = Infinity;
  /** Nothing beats a page the rectangles fill exactly (with pot or square pages another layout may still round down). */
  let exact = false;
  const pageArea = (w: number, h: number) => {
    const width = pageWidth(w, h, rules);
    return width * (rules.square ? width : pageHeight(h, rules));
  };
  const consider = (bin: MaxRectsBin) => {
    const page = pageSize(bin.usedW, bin.usedH, rules);
    if (rules.maxW && page.width > rules.maxW) return;
    if (rules.maxH && page.height > rules.maxH) return;
    const a = page.width * page.height;
    if (a < bestArea || (a === bestArea && best && Math.max(page.width, page.height) < Math.max(best.page.width, best.page.height))) {
      bestArea = a;
      best = { placed: bin.copy(), page };
      if (bin.usedW * bin.usedH === area && !rules.pot && !rules.square) exact = true;
    }
  };
  // The ways the items are offered: each order, and with rotation each item first turned to lie flat, or to stand,
  // then (in every order) turned as the heuristic likes. An offer's list is made when first needed; one that gives
  // the same list as an earlier one is left out.
  const offers: { order: number; turn: number }[] = rules.rotate
    ? [{ order: 0, turn: FLAT }, { order: 0, turn: KEEP }, { order: 0, turn: TALL }, ...ORDERS.map((_, order) => ({ order, turn: FREE }))]
    : ORDERS.map((_, order) => ({ order, turn: FREE }));
  const lists: (Item[] | null | undefined)[] = [];
  const widthLists: number[][] = [];
  const listOf = (offer: number) => {
    if (lists[offer] === undefined) {
      const { order, turn } = offers[offer]!;
      const turned = (it: Item) => (turn === FLAT ? it.h > it.w : turn === TALL && it.w > it.h);
      // Without rotation, sorted from the first list (its sorted runs make that quick; ties go by index either way),
      // and not at all when that is in this order already (equal rectangles: every order is the same).
      const first = !rules.rotate ? lists[0] : undefined;
      if (first && first.every((it, i) => i === 0 || ORDERS[order]!(first[i - 1]!, it) < 0)) {
        lists[offer] = null;
        return null;
      }
      const list = (first ?? items)
        .map((it) => (turned(it) ? { index: it.index, w: it.h, h: it.w, turned: true } : it))
        .sort(ORDERS[order]);
      const fixed = (o: number) => rules.rotate && offers[o]!.turn !== FREE;
      const same = lists.some(
        (l, o) => l && fixed(o) === fixed(offer) && l.every((it, i) => it.index === list[i]!.index && it.w === list[i]!.w),
      );
      lists[offer] = same ? null : list;
    }
    return lists[offer];
  };
  /** The width of rank r for an offer (undefined: none, or the offer is a repeat). */
  const widthOf = (offer: number, r: number) => {
    const list = listOf(offer);
    if (!list) return undefined;
    if (!widthLists[offer]) {
      let w = widest;
      if (offers[offer]!.turn !== FREE || !rules.rotate) for (const it of list) w = Math.max(w, it.w);
      widthLists[offer] = candidateWidths(list, rules, area, w);
    }
    return widthLists[offer]![r];
  };
  /** A pack cannot win once what it placed makes a page larger than the best one. */
  const lost = (w: number, h: number) => pageArea(w, h) > bestArea;
  const pack = (offer: number, w: number, h: number, heuristic: number) => {
    const list = listOf(offer)!;
    const rotate = rules.rotate && offers[offer]!.turn === FREE;
    // The first pack sets the budget; until one fits, a pack runs until a rectangle does not fit.
    const bin = packBin(scratch, list, w, h, heuristic, rotate, best ? budget - work : Infinity, best ? lost : undefined);
    work += bin.work + PACK_COST + PACK_COST_EACH * list.length;
    if (budget === Infinity) budget = SEARCH_WORK * work;
    return bin.done ? bin : null;
  };
  /** The tallest bin of width w whose page is smaller than the best one (0: none). */
  const heightToBeat = (w: number) => {
    let lo = 0;
    let hi = maxBinH;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (pageArea(w, mid) < bestArea) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  /**
   * A heuristic that scores by the free rectangles' sizes: packed in a bin just smaller than the best page (or, with
   * none yet, a little taller than the area needs, grown until everything fits), then a few halvings of the gap down
   * to the least height the area allows.
   */
  const search = (order: number, w: number, heuristic: number) => {
    let lo = Math.max(tallest, Math.ceil(area / w));
    let fit = 0;
    let h = best ? heightToBeat(w) : Math.min(maxBinH, Math.max(lo, Math.ceil(area / w / 0.97)));
    while (!fit && h >= lo && work < budget) {
      const bin = pack(order, w, h, heuristic);
      if (bin) {
        consider(bin);
        fit = Math.min(h, bin.usedH);
      } else if (best || h >= maxBinH) return;
      else {
        lo = h + 1;
        h = Math.min(maxBinH, Math.ceil(h * 1.06) + 1);
      }
    }
    for (let step = 0; fit && step < 2 && lo < fit && work < budget && !exact; step++) {
      const mid = Math.floor((lo + fit) / 2);
      const bin = pack(order, w, mid, heuristic);
      if (bin) {
        consider(bin);
        fit = Math.min(mid, bin.usedH);
      } else lo = mid + 1;
    }
  };
  const codes = heuristics.map((h) => CODE[h]);
  const ranks = 2 * WIDTH_STEPS.length + 2;
  const others = codes.filter((c) => c !== BL && (c !== CP || n <= CP_MAX));
  /**
   * Square pages: the side is the larger of the width and the height bottom-left needs at that width, which falls
   * as the width grows; the widths are halved in on where the two meet, each next guess the side of the square of
   * the last page's area.
   */
  const squareSides = (offer: number) => {
    const first = widthOf(offer, 0);
    if (first === undefined) return;
    let lo = Math.max(first, Math.min(Math.ceil(Math.sqrt(area)), rules.maxW ? binOf(rules.maxW, rules) : BIG));
    let hi = rules.maxW ? binOf(rules.maxW, rules) + 1 : BIG;
    let w = lo;
    for (let step = 0; step < SQUARE_STEPS && lo < hi && work < budget && !exact; step++) {
      const bin = pack(offer, w, maxBinH, BL);
      if (!bin) return;
      consider(bin);
      if (bin.usedH <= w) hi = w;
      else lo = w + 1;
      w = Math.min(hi - 1, Math.max(lo, Math.ceil(Math.sqrt(w * bin.usedH))));
    }
  };
  if (codes.includes(BL)) {
    if (rules.square && !rules.pot && !rules.fixedW) for (let o = 0; o < offers.length && work < budget && !exact; o++) squareSides(o);
    else
      for (let r = 0; r < ranks && work < budget && !exact; r++)
        for (let o = 0; o < offers.length && work < budget && !exact; o++) {
          const w = widthOf(o, r);
          if (w === undefined) continue;
          const bin = pack(o, w, maxBinH, BL);
          if (bin) consider(bin);
        }
  }
  for (let r = 0; r < ranks && work < budget && !exact; r++)
    for (let o = 0; o < offers.length && work < budget && !exact; o++)
      for (const c of others) {
        const w = widthOf(o, r);
        if (w !== undefined && work < budget && !exact) search(o, w, c);
      }
  // Nothing fit a page near the square: the largest page allowed, shrunk to what it holds.
  if (!best && (rules.maxW || rules.maxH || rules.fixedW)) {
    widthOf(0, 0);
    const widths = widthLists[0] ?? [];
    const w = widths[widths.length - 1] ?? binOf(rules.maxW, rules);
    for (const c of codes) {
      const bin = packBin(scratch, listOf(0)!, w, maxBinH, c, rules.rotate && offers[0]!.turn === FREE);
      if (bin.done) consider(bin);
    }
  }
  return best;
}

/** How an offer turns the items (with rotation): as the heuristic likes, each lying flat, each standing, none. */
const FREE = 0;
const FLAT = 1;
const TALL = 2;
const KEEP = 3;

/**
 * The search's bin, kept from one call to the next for sets up to KEPT_BIN rectangles (making its arrays costs more
 * than packing a handful of rectangles). packRects calls nothing that could call it back.
 */
let keptBin: MaxRectsBin | undefined;
const KEPT_BIN = 4096;

/** Packs per offer in the search for a square page's side. */
const SQUARE_STEPS = 4;

/** Contact point's score walks every placed rectangle: left out of big sets. */
const CP_MAX = 800;

/** Fills one bin of the largest page with as many items as fit (largest first), for multipack. */
function fillPage(items: readonly Item[], rules: Rules, heuristics: readonly PackHeuristic[]): { taken: Set<number>; bin: MaxRectsBin } {
  const binW = binOf(rules.fixedW || rules.maxW || BIG, rules);
  const binH = binOf(rules.maxH || BIG, rules);
  let bestTaken = new Set<number>();
  let bestBin = new MaxRectsBin(0).reset(binW, binH, rules.rotate);
  let bestArea = -1;
  for (const heuristic of heuristics.filter((h) => h !== 'contact-point' || items.length <= CP_MAX).slice(0, 3)) {
    const bin = new MaxRectsBin(items.length).reset(binW, binH, rules.rotate);
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
      trial ??= { placed: bin.copy(), page: pageSize(bin.usedW, bin.usedH, rules) };
    }
    const page = pages.push(trial.page) - 1;
    for (const p of trial.placed.list())
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
