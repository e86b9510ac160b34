import { blenderFor, type BlendMode } from './blend.js';
import type { RgbaImage } from './image.js';
import { applyMatrix, IDENTITY, invert, type Matrix } from './matrix.js';
import { canvasKernels, composeKernels, releaseKernels, simdAvailable } from './simd.js';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface DrawOptions {
  /** Source rectangle (default: the whole source image). */
  sx?: number;
  sy?: number;
  sw?: number;
  sh?: number;
  /** Maps source-rectangle pixel space ((0, 0) = its upper-left corner) to destination pixels. Default: identity. */
  transform?: Matrix;
  /** 0 … 1, multiplies the source alpha. Default 1. */
  opacity?: number;
  /** Default 'nearest'. */
  filter?: 'nearest' | 'bilinear';
  /**
   * Blend as Aseprite does (src/render/blend.ts): that mode's integer
   * arithmetic, nearest sampling, opacity taken as round(opacity * 255),
   * every source pixel but 0 (Aseprite's mask colour) blended. Unset: the
   * compositor's own source-over.
   */
  blend?: BlendMode;
}

/** The bounding box of a w × h rectangle under m (real-valued). */
export function transformedBounds(w: number, h: number, m: Matrix): Rect {
  const pts = [applyMatrix(m, 0, 0), applyMatrix(m, w, 0), applyMatrix(m, 0, h), applyMatrix(m, w, h)];
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

/** The smallest rectangle holding every pixel with alpha > 0, or null for a fully transparent image. */
export function opaqueBounds(img: RgbaImage): Rect | null {
  const { width: w, height: h, data: d } = img;
  const rowHas = (y: number): boolean => {
    for (let i = y * w * 4 + 3, end = (y + 1) * w * 4; i < end; i += 4) if (d[i]) return true;
    return false;
  };
  let y0 = 0;
  while (y0 < h && !rowHas(y0)) y0++;
  if (y0 === h) return null;
  let y1 = h - 1;
  while (y1 > y0 && !rowHas(y1)) y1--;
  let x0 = w;
  let x1 = -1;
  for (let y = y0; y <= y1; y++) {
    const base = y * w * 4 + 3;
    for (let x = 0; x < x0; x++) {
      if (d[base + x * 4]) {
        x0 = x;
        break;
      }
    }
    for (let x = w - 1; x > x1; x--) {
      if (d[base + x * 4]) {
        x1 = x;
        break;
      }
    }
  }
  return { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 };
}

/** The integer pixel rectangle a draw can touch (before clipping), or null when it draws nothing. */
export function drawBounds(src: RgbaImage, opts: DrawOptions = {}): Rect | null {
  const p = normalise(src, opts);
  if (!p) return null;
  const bb = transformedBounds(p.sw, p.sh, p.m);
  // Snap values a rounding error away from an integer, so a rotated square does not grow a column.
  const x0 = Math.floor(bb.x + 1e-9);
  const y0 = Math.floor(bb.y + 1e-9);
  const x1 = Math.ceil(bb.x + bb.width - 1e-9);
  const y1 = Math.ceil(bb.y + bb.height - 1e-9);
  if (x1 <= x0 || y1 <= y0) return null;
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

interface Normalised {
  sx: number;
  sy: number;
  sw: number;
  sh: number;
  m: Matrix;
  inv: Matrix;
  opacity: number;
}

function normalise(src: RgbaImage, opts: DrawOptions): Normalised | null {
  const sx = Math.floor(opts.sx ?? 0);
  const sy = Math.floor(opts.sy ?? 0);
  const sw = Math.floor(opts.sw ?? src.width - sx);
  const sh = Math.floor(opts.sh ?? src.height - sy);
  const m = opts.transform ?? IDENTITY;
  const op = opts.opacity ?? 1;
  const opacity = op >= 1 ? 1 : op > 0 ? op : 0;
  if (!(sw > 0 && sh > 0) || !Number.isFinite(sx + sy + sw + sh)) return null;
  for (let i = 0; i < 6; i++) if (!Number.isFinite(m[i]!)) return null;
  const inv = invert(m);
  if (!inv) return null;
  for (let i = 0; i < 6; i++) if (!Number.isFinite(inv[i]!)) return null;
  return { sx, sy, sw, sh, m, inv, opacity };
}

/** round(x / 255) for 0 <= x <= 65025, in integers. */
export function div255(x: number): number {
  const t = x + 128;
  return (t + (t >> 8)) >> 8;
}

/**
 * Source-over of the straight pixel (r, g, b, A) with 0 < A < 255 onto the
 * straight pixel at byte o of d (A = 0 and A = 255 are the callers' job).
 */
function blendPx(d: Uint8Array, o: number, r: number, g: number, b: number, A: number): void {
  const D = d[o + 3]!;
  if (D === 0) {
    d[o] = r;
    d[o + 1] = g;
    d[o + 2] = b;
    d[o + 3] = A;
    return;
  }
  const ia = 255 - A;
  if (D === 255) {
    d[o] = div255(r * A + d[o]! * ia);
    d[o + 1] = div255(g * A + d[o + 1]! * ia);
    d[o + 2] = div255(b * A + d[o + 2]! * ia);
    return;
  }
  const sA = A * 255;
  const dD = D * ia;
  const den = sA + dD;
  const den2 = den * 2;
  d[o] = ((2 * (r * sA + d[o]! * dD) + den) / den2) | 0;
  d[o + 1] = ((2 * (g * sA + d[o + 1]! * dD) + den) / den2) | 0;
  d[o + 2] = ((2 * (b * sA + d[o + 2]! * dD) + den) / den2) | 0;
  d[o + 3] = div255(den);
}

/**
 * blendPx for a pixel held as a little-endian 32-bit word (word o of d32,
 * d the same bytes): onto an opaque pixel (the usual case: a sprite over a
 * background) red and blue are blended together in two 16-bit lanes, with
 * the same exact rounding as div255; anything else goes to blendPx.
 */
function blendWord(d: Uint8Array, d32: Int32Array, o: number, r: number, g: number, b: number, A: number): void {
  const q = d32[o]!;
  if (q >>> 24 !== 255) {
    blendPx(d, o << 2, r, g, b, A);
    return;
  }
  const ia = 255 - A;
  // Each lane: cs·A + cd·(255 − A) + 128 <= 65153, so neither lane carries into the other (mod 2^32).
  const t = (Math.imul(r | (b << 16), A) + Math.imul(q & 0xff00ff, ia) + 0x800080) | 0;
  const rb = ((t + ((t >>> 8) & 0xff00ff)) >>> 8) & 0xff00ff;
  const tg = g * A + ((q >> 8) & 255) * ia + 128;
  d32[o] = rb | (((tg + (tg >> 8)) >> 8) << 8) | -16777216;
}

/**
 * blendWord for the texel q (a little-endian word; its own alpha is not
 * used) with alpha A (0 < A < 255): the opaque-destination case inline
 * (same arithmetic as blendWord), the rest through blendPx.
 */
function blendInto(d: Uint8Array, d32: Int32Array, o: number, q: number, A: number): void {
  const p = d32[o]!;
  if (p >> 24 !== -1) {
    blendPx(d, o << 2, q & 255, (q >> 8) & 255, (q >> 16) & 255, A);
    return;
  }
  const ia = 255 - A;
  const t = (Math.imul(q & 0xff00ff, A) + Math.imul(p & 0xff00ff, ia) + 0x800080) | 0;
  const tg = Math.imul((q >> 8) & 255, A) + Math.imul((p >> 8) & 255, ia) + 128;
  d32[o] = (((t + ((t >>> 8) & 0xff00ff)) >>> 8) & 0xff00ff) | (((tg + (tg >> 8)) >> 8) << 8) | -16777216;
}

/**
 * Texel si of s, with alpha A (after opacity, A > 0), onto pixel di of d:
 * a copy when opaque (one word when both 32-bit views are given), else
 * source-over.
 */
function putTexel(d: Uint8Array, d32: Uint32Array | null, di: number, s: Uint8Array, s32: Uint32Array | null, si: number, A: number): void {
  if (A === 255) {
    if (s32 && d32) d32[di >> 2] = s32[si >> 2]!;
    else {
      d[di] = s[si]!;
      d[di + 1] = s[si + 1]!;
      d[di + 2] = s[si + 2]!;
      d[di + 3] = 255;
    }
  } else blendPx(d, di, s[si]!, s[si + 1]!, s[si + 2]!, A);
}

const NO_OPACITY = /* @__PURE__ */ (() => {
  const t = new Uint8Array(256);
  for (let i = 0; i < 256; i++) t[i] = i;
  return t;
})();

function alphaTable(opacity: number): Uint8Array {
  if (opacity === 1) return NO_OPACITY;
  const t = new Uint8Array(256);
  for (let i = 0; i < 256; i++) t[i] = Math.round(i * opacity);
  return t;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Whether two views share bytes (a source drawn onto itself is copied first; one beside it in the same memory is not). */
function overlaps(a: Uint8Array, b: Uint8Array): boolean {
  return a.buffer === b.buffer && a.byteOffset < b.byteOffset + b.length && b.byteOffset < a.byteOffset + a.length;
}

function view32(a: Uint8Array): Uint32Array | null {
  return a.byteOffset % 4 === 0 ? new Uint32Array(a.buffer, a.byteOffset, a.length >> 2) : null;
}

/**
 * Draws a region of `src` onto `dst` through an affine transform, with
 * opacity and nearest or bilinear sampling, blending source-over with
 * straight alpha in and out (see the top of this file for the exact rules).
 * Integer translations are plain blits; axis-aligned and quarter-turn
 * nearest draws use per-column lookup tables; anything else walks each
 * destination row with the row's terms of the inverse mapping hoisted.
 */
export function drawImage(dst: RgbaImage, src: RgbaImage, opts: DrawOptions = {}): void {
  const p = normalise(src, opts);
  if (!p) return;
  if (opts.blend) {
    if (overlaps(src.data, dst.data)) src = { width: src.width, height: src.height, data: src.data.slice() };
    blendDraw(dst, src, p, opts.blend);
    return;
  }
  if (p.opacity === 0) return;
  if (overlaps(src.data, dst.data)) src = { width: src.width, height: src.height, data: src.data.slice() };
  const { m, inv, sw, sh } = p;
  const bb = transformedBounds(sw, sh, m);
  let x0 = Math.max(0, Math.floor(bb.x));
  let y0 = Math.max(0, Math.floor(bb.y));
  let x1 = Math.min(dst.width, Math.ceil(bb.x + bb.width));
  let y1 = Math.min(dst.height, Math.ceil(bb.y + bb.height));
  if (x1 <= x0 || y1 <= y0) return;
  // Within the destination now: small integers, kept in int32 for the JIT (indices from doubles are slower).
  x0 |= 0;
  y0 |= 0;
  x1 |= 0;
  y1 |= 0;
  const alut = alphaTable(p.opacity);
  if (kernelMode !== 'js' && simdDraw(dst, src, p, x0, y0, x1, y1, alut, opts.filter === 'bilinear')) return;
  if (m[0] === 1 && m[1] === 0 && m[2] === 0 && m[3] === 1 && Number.isInteger(m[4]) && Number.isInteger(m[5])) {
    // Pure integer translation: nearest and bilinear both copy texels exactly.
    blit(dst, src, p, m[4], m[5], alut);
    return;
  }
  if (opts.filter !== 'bilinear') {
    if (inv[1] === 0 && inv[2] === 0) {
      tableDraw(dst, src, p, x0, y0, x1, y1, alut, false);
      return;
    }
    if (inv[0] === 0 && inv[3] === 0) {
      tableDraw(dst, src, p, x0, y0, x1, y1, alut, true);
      return;
    }
    affineNearest(dst, src, p, x0, y0, x1, y1, alut);
    return;
  }
  affineBilinear(dst, src, p, x0, y0, x1, y1, alut);
}

/**
 * Aseprite's compositing (DrawOptions.blend): each destination pixel whose
 * centre maps into the source rectangle takes blender(dst, src, opacity);
 * source pixels equal to 0 (transparent black, Aseprite's mask colour) are
 * skipped. An integer translation is Aseprite's own case; other transforms
 * sample the nearest texel.
 */
function blendDraw(dst: RgbaImage, src: RgbaImage, p: Normalised, mode: BlendMode): void {
  const blend = blenderFor(mode);
  const opacity = Math.round(p.opacity * 255);
  const bb = transformedBounds(p.sw, p.sh, p.m);
  const x0 = Math.max(0, Math.floor(bb.x));
  const y0 = Math.max(0, Math.floor(bb.y));
  const x1 = Math.min(dst.width, Math.ceil(bb.x + bb.width));
  const y1 = Math.min(dst.height, Math.ceil(bb.y + bb.height));
  const rx0 = Math.max(p.sx, 0);
  const ry0 = Math.max(p.sy, 0);
  const rx1 = Math.min(p.sx + p.sw, src.width);
  const ry1 = Math.min(p.sy + p.sh, src.height);
  const s = src.data;
  const d = dst.data;
  const [i0, i1, i2, i3, i4, i5] = p.inv;
  for (let y = y0; y < y1; y++) {
    const cy = y + 0.5;
    for (let x = x0; x < x1; x++) {
      // applyMatrix(p.inv, x + 0.5, y + 0.5), in the same order of operations
      const cx = x + 0.5;
      const u = i0 * cx + i2 * cy + i4;
      const v = i1 * cx + i3 * cy + i5;
      const tx = Math.floor(u) + p.sx;
      const ty = Math.floor(v) + p.sy;
      if (tx < rx0 || tx >= rx1 || ty < ry0 || ty >= ry1) continue;
      const si = (ty * src.width + tx) * 4;
      const sp = (s[si]! | (s[si + 1]! << 8) | (s[si + 2]! << 16) | (s[si + 3]! << 24)) >>> 0;
      if (sp === 0) continue;
      const di = (y * dst.width + x) * 4;
      const dp = (d[di]! | (d[di + 1]! << 8) | (d[di + 2]! << 16) | (d[di + 3]! << 24)) >>> 0;
      const out = blend(dp, sp, opacity);
      d[di] = out & 255;
      d[di + 1] = (out >>> 8) & 255;
      d[di + 2] = (out >>> 16) & 255;
      d[di + 3] = out >>> 24;
    }
  }
}

/** Integer translation by (tx, ty): straight row copies with an opaque-pixel shortcut. */
function blit(dst: RgbaImage, src: RgbaImage, p: Normalised, tx: number, ty: number, alut: Uint8Array): void {
  const W = src.width;
  const DW = dst.width;
  // Texel X = x + offX for destination x; valid texels: the rectangle within the image.
  const offX = p.sx - tx;
  const offY = p.sy - ty;
  const bx0 = Math.max(p.sx, 0);
  const bx1 = Math.min(p.sx + p.sw, W);
  const by0 = Math.max(p.sy, 0);
  const by1 = Math.min(p.sy + p.sh, src.height);
  const xa = Math.max(0, bx0 - offX);
  const xb = Math.min(DW, bx1 - offX);
  const ya = Math.max(0, by0 - offY);
  const yb = Math.min(dst.height, by1 - offY);
  if (xb <= xa || yb <= ya) return;
  const n = xb - xa;
  const s = src.data;
  const d = dst.data;
  const s32 = view32(s);
  const d32 = view32(d);
  const plain = alut === NO_OPACITY;
  // For blendWord (little-endian channel order).
  const dw = LITTLE_ENDIAN && d32 ? new Int32Array(d.buffer, d.byteOffset, d.length >> 2) : null;
  if (dw && s32 && d32) {
    // All small integers once the draw is known not to be empty (offX is within [−DW, W]): `| 0` keeps the JIT's indices in int32.
    const si32 = new Int32Array(s.buffer, s.byteOffset, s.length >> 2);
    blitWords(s32, si32, d32, dw, d, W, DW, offX | 0, offY | 0, xa | 0, xb | 0, ya | 0, yb | 0, plain ? null : alut);
    return;
  }
  for (let y = ya; y < yb; y++) {
    let si = ((y + offY) * W + xa + offX) * 4;
    let di = (y * DW + xa) * 4;
    for (let k = 0; k < n; k++, si += 4, di += 4) {
      const A = plain ? s[si + 3]! : alut[s[si + 3]!]!;
      if (A !== 0) putTexel(d, null, di, s, null, si, A);
    }
  }
}

/**
 * The blit on 32-bit words (little-endian, both views aligned): runs of
 * opaque texels are copied (one typed-array copy when long), transparent
 * ones skipped, the others blended by blendWord. alut is null without
 * opacity (the texel's own alpha is used).
 */
function blitWords(
  s32: Uint32Array,
  si32: Int32Array,
  d32: Uint32Array,
  di32: Int32Array,
  d: Uint8Array,
  W: number,
  DW: number,
  offX: number,
  offY: number,
  xa: number,
  xb: number,
  ya: number,
  yb: number,
  alut: Uint8Array | null,
): void {
  const n = xb - xa;
  for (let y = ya; y < yb; y++) {
    const so = (y + offY) * W + xa + offX;
    const o = y * DW + xa;
    if (alut === null) {
      let k = 0;
      while (k < n) {
        const q = si32[so + k]!;
        if (q >> 24 === -1) {
          // A run of opaque texels.
          // Four texels per test (their AND is opaque only when all four are), then one by one.
          let e = so + k + 1;
          const end = so + n;
          while (e + 3 < end && (si32[e]! & si32[e + 1]! & si32[e + 2]! & si32[e + 3]!) >> 24 === -1) e += 4;
          while (e < end && si32[e]! >> 24 === -1) e++;
          e -= so;
          if (e - k >= 32) d32.set(s32.subarray(so + k, so + e), o + k);
          else for (let j = k; j < e; j++) di32[o + j] = si32[so + j]!;
          k = e;
          continue;
        }
        if (q >>> 24 === 0) {
          // A run of transparent texels: nothing to draw.
          let e = so + k + 1;
          const end = so + n;
          while (e + 3 < end && (si32[e]! | si32[e + 1]! | si32[e + 2]! | si32[e + 3]!) >>> 24 === 0) e += 4;
          while (e < end && si32[e]! >>> 24 === 0) e++;
          k = e - so;
          continue;
        }
        blendInto(d, di32, o + k, q, q >>> 24);
        k++;
      }
    } else {
      for (let k = 0; k < n; k++) {
        const q = si32[so + k]!;
        const A = alut[q >>> 24]!;
        if (A === 255) di32[o + k] = q;
        else if (A !== 0) blendInto(d, di32, o + k, q, A);
      }
    }
  }
}

/**
 * Nearest sampling when u depends only on x and v only on y (scales and
 * flips), or (swapped) u only on y and v only on x (quarter turns): the
 * texel offset is a column part plus a row part, both from lookup tables.
 */
function tableDraw(
  dst: RgbaImage,
  src: RgbaImage,
  p: Normalised,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  alut: Uint8Array,
  swapped: boolean,
): void {
  const { inv, sx, sy, sw, sh } = p;
  const W = src.width;
  const H = src.height;
  // Texel column X's byte offset, or -1 when (u) falls outside.
  const colOfU = (u: number): number => {
    if (u < 0 || u >= sw) return -1;
    const X = sx + Math.floor(u);
    return X < 0 || X >= W ? -1 : X * 4;
  };
  const rowOfV = (v: number): number => {
    if (v < 0 || v >= sh) return -1;
    const Y = sy + Math.floor(v);
    return Y < 0 || Y >= H ? -1 : Y * W * 4;
  };
  const n = x1 - x0;
  const cols = new Int32Array(n);
  let any = false;
  for (let x = x0; x < x1; x++) {
    const cx = x + 0.5;
    // Same expressions as the reference: the hoisted row term of the other coordinate is exactly inv[4] / inv[5] here.
    const c = swapped ? rowOfV(inv[1] * cx + inv[5]) : colOfU(inv[0] * cx + inv[4]);
    cols[x - x0] = c;
    if (c >= 0) any = true;
  }
  if (!any) return;
  const s = src.data;
  const d = dst.data;
  const s32 = view32(s);
  const d32 = view32(d);
  const DW = dst.width;
  if (LITTLE_ENDIAN && s32 && d32) {
    // On 32-bit words: column and row offsets in words, one load per pixel.
    const si32 = new Int32Array(s.buffer, s.byteOffset, s.length >> 2);
    const di32 = new Int32Array(d.buffer, d.byteOffset, d.length >> 2);
    for (let k = 0; k < n; k++) cols[k] = cols[k]! >> 2; // -1 stays -1
    for (let y = y0; y < y1; y++) {
      const cy = y + 0.5;
      const r = swapped ? colOfU(inv[2] * cy + inv[4]) : rowOfV(inv[3] * cy + inv[5]);
      if (r < 0) continue;
      const rw = r >> 2;
      const o = y * DW + x0;
      for (let k = 0; k < n; k++) {
        const c = cols[k]!;
        if (c < 0) continue;
        const q = si32[rw + c]!;
        const A = alut[q >>> 24]!;
        if (A === 255) di32[o + k] = q;
        else if (A !== 0) blendWord(d, di32, o + k, q & 255, (q >> 8) & 255, (q >> 16) & 255, A);
      }
    }
    return;
  }
  for (let y = y0; y < y1; y++) {
    const cy = y + 0.5;
    const r = swapped ? colOfU(inv[2] * cy + inv[4]) : rowOfV(inv[3] * cy + inv[5]);
    if (r < 0) continue;
    let di = (y * DW + x0) * 4;
    for (let k = 0; k < n; k++, di += 4) {
      const c = cols[k]!;
      if (c < 0) continue;
      const si = r + c;
      const A = alut[s[si + 3]!]!;
      if (A === 0) continue;
      putTexel(d, d32, di, s, s32, si, A);
    }
  }
}

/**
 * Narrows [spanA, spanB) to the pixels x whose centre can map to a
 * coordinate a·(x + ½) + r in [0, size): conservative by a pixel (every
 * pixel inside is still tested exactly).
 */
function rowSpan(a: number, r: number, size: number): void {
  if (a === 0) {
    if (!(r >= 0 && r < size)) spanB = spanA;
    return;
  }
  let lo = -r / a - 0.5;
  let hi = (size - r) / a - 0.5;
  if (a < 0) {
    const t = lo;
    lo = hi;
    hi = t;
  }
  lo = Math.floor(lo) - 1;
  hi = Math.ceil(hi) + 1;
  // Clamped before `| 0` (lo and hi can be huge); NaN changes nothing.
  if (lo > spanA) spanA = lo < spanB ? lo | 0 : spanB;
  if (hi < spanB) spanB = hi > spanA ? hi | 0 : spanA;
}

function affineNearest(
  dst: RgbaImage,
  src: RgbaImage,
  p: Normalised,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  alut: Uint8Array,
): void {
  const { inv, sx, sy, sw, sh } = p;
  const [i0, i1, i2, i3, i4, i5] = inv;
  const W = src.width;
  const H = src.height;
  const s = src.data;
  const d = dst.data;
  const DW = dst.width;
  const s32 = view32(s);
  const d32 = view32(d);
  // Texels that exist: the source rectangle within the image. In the row's part where
  // u is in [bx0 − sx, bx1 − sx) and v in [by0 − sy, by1 − sy), the texel certainly exists
  // (and u, v >= 0 there, below 2^31 when the rectangle's far edges are: `| 0` floors them).
  const bx0 = Math.max(sx, 0);
  const bx1 = Math.min(sx + sw, W);
  const by0 = Math.max(sy, 0);
  const by1 = Math.min(sy + sh, H);
  const fast = LITTLE_ENDIAN && s32 !== null && d32 !== null && bx1 > bx0 && by1 > by0 && bx1 - sx < 2 ** 31 && by1 - sy < 2 ** 31;
  const si32 = fast ? new Int32Array(s.buffer, s.byteOffset, s.length >> 2) : null;
  const di32 = fast ? new Int32Array(d.buffer, d.byteOffset, d.length >> 2) : null;
  for (let y = y0; y < y1; y++) {
    const cy = y + 0.5;
    const ru = i2 * cy + i4;
    const rv = i3 * cy + i5;
    // The pixels whose centre can map into the rectangle (each checked), then the unchecked run.
    spanA = x0;
    spanB = x1;
    rowSpan(i0, ru, sw);
    rowSpan(i1, rv, sh);
    const xa = spanA;
    const xb = spanB;
    let ia = -1;
    let ib = -1;
    if (fast && xb > xa) {
      exactSpan(i0, ru, 0, 0, bx0 - sx, bx1 - sx, xa, xb);
      exactSpan(i1, rv, 0, 0, by0 - sy, by1 - sy, spanA, spanB);
      if (spanB > spanA) {
        ia = spanA;
        ib = spanB;
      }
    }
    let di = (y * DW + xa) * 4;
    for (let x = xa; x < xb; x++, di += 4) {
      if (x === ia) {
        nearestRun(si32!, di32!, d, W, i0, i1, ru, rv, sx, sy, ia, ib, di, alut);
        di += (ib - ia) * 4;
        x = ib;
        if (x >= xb) break;
      }
      const cx = x + 0.5;
      const u = i0 * cx + ru;
      const v = i1 * cx + rv;
      if (u < 0 || v < 0 || u >= sw || v >= sh) continue;
      const X = sx + Math.floor(u);
      const Y = sy + Math.floor(v);
      if (X < 0 || Y < 0 || X >= W || Y >= H) continue;
      const si = (Y * W + X) * 4;
      const A = alut[s[si + 3]!]!;
      if (A === 0) continue;
      putTexel(d, d32, di, s, s32, si, A);
    }
  }
}

/**
 * Nearest pixels [xa, xb) of one row where every texel exists: the same u
 * and v as the checked loop (so the same texels), without the checks.
 */
function nearestRun(
  s32: Int32Array,
  d32: Int32Array,
  d: Uint8Array,
  W: number,
  i0: number,
  i1: number,
  ru: number,
  rv: number,
  sx: number,
  sy: number,
  xa: number,
  xb: number,
  di: number,
  alut: Uint8Array,
): void {
  let o = di >> 2;
  let cx = xa - 0.5;
  for (let x = xa; x < xb; x++, o++) {
    cx += 1; // exactly x + 0.5
    const u = i0 * cx + ru;
    const v = i1 * cx + rv;
    const q = s32[(sy + (v | 0)) * W + sx + (u | 0)]!;
    const A = alut[q >>> 24]!;
    if (A === 255) d32[o] = q;
    else if (A !== 0) blendWord(d, d32, o, q & 255, (q >> 8) & 255, (q >> 16) & 255, A);
  }
}

/** Whether lo <= base + (k·(x + ½) + r) − sub < hi, evaluated exactly as the pixel loops do. */
function within(k: number, r: number, base: number, sub: number, lo: number, hi: number, x: number): boolean {
  const c = base + (k * (x + 0.5) + r) - sub;
  return c >= lo && c < hi;
}

/** The result of exactSpan (module state rather than an array per row). */
let spanA = 0;
let spanB = 0;

/**
 * Sets [spanA, spanB) to the exact range of x within [xa, xb) where
 * `within` holds. Floating-point rounding is monotone, so the computed
 * coordinate is monotone in x and that set is an interval: it is estimated
 * by solving the linear inequality, then both ends are moved pixel by pixel
 * until they agree with the exact expression. When no pixel near the
 * middle of the estimate is inside (an empty set, or an estimate thrown off
 * by a nearly singular matrix), the result is empty: those pixels are then
 * drawn by the checked loop.
 */
function exactSpan(k: number, r: number, base: number, sub: number, lo: number, hi: number, xa: number, xb: number): void {
  spanA = xa;
  spanB = xa;
  if (xb <= xa) return;
  if (k === 0) {
    spanB = within(k, r, base, sub, lo, hi, xa) ? xb : xa;
    return;
  }
  let l = (lo - base + sub - r) / k - 0.5;
  let h = (hi - base + sub - r) / k - 0.5;
  if (k < 0) {
    const t = l;
    l = h;
    h = t;
  }
  l = Math.ceil(l);
  h = Math.ceil(h);
  let a = l >= xa ? (l <= xb ? l : xb) : xa; // NaN → xa
  let b = h >= xa ? (h <= xb ? h : xb) : xa;
  // A pixel certainly inside, near the middle of the estimate.
  let m = Math.min((a + b) >> 1, xb - 1);
  if (!within(k, r, base, sub, lo, hi, m)) {
    if (m + 1 < xb && within(k, r, base, sub, lo, hi, m + 1)) m++;
    else if (m > xa && within(k, r, base, sub, lo, hi, m - 1)) m--;
    else return;
  }
  if (a > m) a = m;
  if (within(k, r, base, sub, lo, hi, a)) while (a > xa && within(k, r, base, sub, lo, hi, a - 1)) a--;
  else while (!within(k, r, base, sub, lo, hi, a)) a++;
  if (b <= m) b = m + 1;
  if (within(k, r, base, sub, lo, hi, b - 1)) while (b < xb && within(k, r, base, sub, lo, hi, b)) b++;
  else while (!within(k, r, base, sub, lo, hi, b - 1)) b--;
  spanA = a | 0; // small integers (not doubles from Math.ceil), so the callers' loops stay in int32
  spanB = b | 0;
}

/** How far from the source rectangle's inner edges a run keeps sx + u − ½ and sy + v − ½ (see bilinearRun). */
const RUN_MARGIN = 1 / 4096;

/**
 * Bilinear pixels [xa, xb) of one row where sx + u − ½ and sy + v − ½ stay
 * RUN_MARGIN inside [bx0, bx1 − 1) × [by0, by1 − 1), so the four texels
 * exist. The sample position is stepped in 16.16 fixed point, re-anchored
 * on the exact position every 16 pixels, so it is within 2^-13 of the
 * exact one (the quad read is the right one or, within 2^-13 of its edge,
 * the neighbouring one, which is why the margin keeps it inside).
 *
 * - Fully opaque quads (the bulk of a sprite) interpolate in integers:
 *   12-bit weights truncated from the fixed-point position (within 3·2^-13
 *   of the exact weights, < 0.1 of a level per axis), rows kept at 1/256 of
 *   a level: the value before rounding is within 0.2 of the exact one, so
 *   the result is within 1 of the reference. (Read on the neighbouring
 *   quad, the shared texels carry all but 2^-13 of the weight, so this
 *   still holds and the alpha is still 255.)
 * - Fully transparent quads draw nothing (likewise).
 * - Other quads recompute the exact position and use the reference's
 *   arithmetic (bilinearExact), so the alpha of soft edges is exact (and
 *   their colours within 1).
 */
function bilinearRun(
  s32: Int32Array,
  d32: Int32Array,
  d: Uint8Array,
  W: number,
  i0: number,
  i1: number,
  ru: number,
  rv: number,
  sx: number,
  sy: number,
  xa: number,
  xb: number,
  di: number,
  alut: Uint8Array,
  opaqueA: number,
): void {
  const dU = Math.round(i0 * 65536) | 0;
  const dV = Math.round(i1 * 65536) | 0;
  let o = di >> 2;
  for (let x = xa; x < xb; ) {
    const end = x + 16 < xb ? x + 16 : xb;
    const cx = x + 0.5;
    // Both positions are >= 0 and below 32767 here (see affineBilinear), so these are in range.
    let U = ((sx + (i0 * cx + ru) - 0.5) * 65536 + 0.5) | 0;
    let V = ((sy + (i1 * cx + rv) - 0.5) * 65536 + 0.5) | 0;
    for (; x < end; x++, o++, U = (U + dU) | 0, V = (V + dV) | 0) {
      const k = (V >> 16) * W + (U >> 16);
      const q0 = s32[k]!;
      const q1 = s32[k + 1]!;
      const q2 = s32[k + W]!;
      const q3 = s32[k + W + 1]!;
      if ((q0 & q1 & q2 & q3) >>> 24 === 255) {
        const tx = (U >> 4) & 4095;
        const ty = (V >> 4) & 4095;
        const r0 = q0 & 255;
        const r2 = q2 & 255;
        const g0 = (q0 >> 8) & 255;
        const g2 = (q2 >> 8) & 255;
        const b0 = (q0 >> 16) & 255;
        const b2 = (q2 >> 16) & 255;
        const rt = ((r0 << 12) + ((q1 & 255) - r0) * tx) >> 4;
        const rb = ((r2 << 12) + ((q3 & 255) - r2) * tx) >> 4;
        const gt = ((g0 << 12) + (((q1 >> 8) & 255) - g0) * tx) >> 4;
        const gb = ((g2 << 12) + (((q3 >> 8) & 255) - g2) * tx) >> 4;
        const bt = ((b0 << 12) + (((q1 >> 16) & 255) - b0) * tx) >> 4;
        const bb = ((b2 << 12) + (((q3 >> 16) & 255) - b2) * tx) >> 4;
        const r = ((rt << 12) + (rb - rt) * ty + 524288) >> 20;
        const g = ((gt << 12) + (gb - gt) * ty + 524288) >> 20;
        const b = ((bt << 12) + (bb - bt) * ty + 524288) >> 20;
        if (opaqueA === 255) d32[o] = r | (g << 8) | (b << 16) | -16777216;
        else if (opaqueA !== 0) blendWord(d, d32, o, r, g, b, opaqueA);
        continue;
      }
      if ((q0 | q1 | q2 | q3) >>> 24 === 0) continue;
      const ex = x + 0.5;
      bilinearExact(s32, d32, d, W, sx + (i0 * ex + ru) - 0.5, sy + (i1 * ex + rv) - 0.5, o, alut);
    }
  }
}

/**
 * One bilinear pixel at the exact position (fu, fv) (both >= 0, all four
 * texels existing), drawn at word o: the reference's arithmetic, except
 * that the colours multiply by 1 / Σwa instead of dividing three times.
 */
function bilinearExact(
  s32: Int32Array,
  d32: Int32Array,
  d: Uint8Array,
  W: number,
  fu: number,
  fv: number,
  o: number,
  alut: Uint8Array,
): void {
  const iu = fu | 0;
  const iv = fv | 0;
  const k = iv * W + iu;
  const q0 = s32[k]!;
  const q1 = s32[k + 1]!;
  const q2 = s32[k + W]!;
  const q3 = s32[k + W + 1]!;
  if ((q0 | q1 | q2 | q3) >>> 24 === 0) return;
  const tx = fu - iu;
  const ty = fv - iv;
  const w0 = (1 - tx) * (1 - ty);
  const w1 = tx * (1 - ty);
  const w2 = (1 - tx) * ty;
  const w3 = tx * ty;
  const p0 = (q0 >>> 24) * w0;
  const p1 = (q1 >>> 24) * w1;
  const p2 = (q2 >>> 24) * w2;
  const p3 = (q3 >>> 24) * w3;
  const a = p0 + p1 + p2 + p3;
  const A0 = Math.round(a) | 0;
  if (A0 <= 0) return;
  const A = alut[A0 > 255 ? 255 : A0]!;
  if (A === 0) return;
  // Colours: one division instead of three (a last-bit difference can only move a result by 1).
  const ia = 1 / a;
  const r = (((q0 & 255) * p0 + (q1 & 255) * p1 + (q2 & 255) * p2 + (q3 & 255) * p3) * ia + 0.5) | 0;
  const g = ((((q0 >> 8) & 255) * p0 + ((q1 >> 8) & 255) * p1 + ((q2 >> 8) & 255) * p2 + ((q3 >> 8) & 255) * p3) * ia + 0.5) | 0; // prettier-ignore
  const b = ((((q0 >> 16) & 255) * p0 + ((q1 >> 16) & 255) * p1 + ((q2 >> 16) & 255) * p2 + ((q3 >> 16) & 255) * p3) * ia + 0.5) | 0; // prettier-ignore
  if (A === 255) d32[o] = r | (g << 8) | (b << 16) | -16777216;
  else blendWord(d, d32, o, r, g, b, A);
}

function affineBilinear(
  dst: RgbaImage,
  src: RgbaImage,
  p: Normalised,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  alut: Uint8Array,
): void {
  const { inv, sx, sy, sw, sh } = p;
  const [i0, i1, i2, i3, i4, i5] = inv;
  const W = src.width;
  const s = src.data;
  const d = dst.data;
  const DW = dst.width;
  // Texels that exist: the source rectangle within the image.
  const bx0 = Math.max(sx, 0);
  const bx1 = Math.min(sx + sw, W);
  const by0 = Math.max(sy, 0);
  const by1 = Math.min(sy + sh, src.height);
  if (bx1 <= bx0 || by1 <= by0) return;
  const stride = W * 4;
  // Int32 rather than Uint32 loads: opaque texels stay small integers for the JIT (no conversion to doubles).
  const s32 = LITTLE_ENDIAN && s.byteOffset % 4 === 0 ? new Int32Array(s.buffer, s.byteOffset, s.length >> 2) : null;
  const d32 = LITTLE_ENDIAN && d.byteOffset % 4 === 0 ? new Int32Array(d.buffer, d.byteOffset, d.length >> 2) : null;
  const opaqueA = alut[255]!;
  // Unchecked runs need 32-bit views and positions that fit 16.16 fixed point (else every pixel is checked).
  const runs = s32 !== null && d32 !== null && bx1 <= 32767 && by1 <= 32767;
  for (let y = y0; y < y1; y++) {
    const cy = y + 0.5;
    const ru = i2 * cy + i4;
    const rv = i3 * cy + i5;
    spanA = x0;
    spanB = x1;
    rowSpan(i0, ru, sw);
    rowSpan(i1, rv, sh);
    const xa = spanA;
    const xb = spanB;
    // The part of the row where the sample stays RUN_MARGIN inside the texels that exist: no checks there.
    let ia = -1;
    let ib = -1;
    if (runs && xb > xa) {
      exactSpan(i0, ru, sx, 0.5, bx0 + RUN_MARGIN, bx1 - 1 - RUN_MARGIN, xa, xb);
      exactSpan(i1, rv, sy, 0.5, by0 + RUN_MARGIN, by1 - 1 - RUN_MARGIN, spanA, spanB);
      if (spanB > spanA) {
        ia = spanA;
        ib = spanB;
      }
    }
    let di = (y * DW + xa) * 4;
    for (let x = xa; x < xb; x++, di += 4) {
      if (x === ia) {
        bilinearRun(s32!, d32!, d, W, i0, i1, ru, rv, sx, sy, ia, ib, di, alut, opaqueA);
        di += (ib - ia) * 4;
        x = ib;
        if (x >= xb) break;
      }
      const cx = x + 0.5;
      const u = i0 * cx + ru;
      const v = i1 * cx + rv;
      if (u < 0 || v < 0 || u >= sw || v >= sh) continue;
      const fu = sx + u - 0.5;
      const fv = sy + v - 0.5;
      const iu = Math.floor(fu);
      const iv = Math.floor(fv);
      const tx = fu - iu;
      const ty = fv - iv;
      const w0 = (1 - tx) * (1 - ty);
      const w1 = tx * (1 - ty);
      const w2 = (1 - tx) * ty;
      const w3 = tx * ty;
      // The four texels (transparent when they do not exist).
      let a0 = 0,
        r0 = 0,
        g0 = 0,
        b0 = 0,
        a1 = 0,
        r1 = 0,
        g1 = 0,
        b1 = 0; // prettier-ignore
      let a2 = 0,
        r2 = 0,
        g2 = 0,
        b2 = 0,
        a3 = 0,
        r3 = 0,
        g3 = 0,
        b3 = 0; // prettier-ignore
      const o = iv * stride + iu * 4;
      if (iu >= bx0 && iu + 1 < bx1 && iv >= by0 && iv + 1 < by1) {
        if (s32) {
          // Whole texels in one load each (little-endian: R is the low byte).
          const k = o >> 2;
          const q0 = s32[k]!;
          const q1 = s32[k + 1]!;
          const q2 = s32[k + W]!;
          const q3 = s32[k + W + 1]!;
          if ((q0 | q1 | q2 | q3) >>> 24 === 0) continue;
          if ((q0 & q1 & q2 & q3) >>> 24 === 255) {
            // Opaque quad: the premultiplied mix reduces to a plain weighted mean (±1 from rounding order).
            const r = Math.round((q0 & 255) * w0 + (q1 & 255) * w1 + (q2 & 255) * w2 + (q3 & 255) * w3) | 0;
            const g = Math.round(((q0 >> 8) & 255) * w0 + ((q1 >> 8) & 255) * w1 + ((q2 >> 8) & 255) * w2 + ((q3 >> 8) & 255) * w3) | 0; // prettier-ignore
            const b = Math.round(((q0 >> 16) & 255) * w0 + ((q1 >> 16) & 255) * w1 + ((q2 >> 16) & 255) * w2 + ((q3 >> 16) & 255) * w3) | 0; // prettier-ignore
            if (opaqueA === 255) {
              if (d32) d32[di >> 2] = r | (g << 8) | (b << 16) | -16777216;
              else {
                d[di] = r;
                d[di + 1] = g;
                d[di + 2] = b;
                d[di + 3] = 255;
              }
            } else if (opaqueA !== 0) blendPx(d, di, r, g, b, opaqueA);
            continue;
          }
          r0 = q0 & 255;
          g0 = (q0 >> 8) & 255;
          b0 = (q0 >> 16) & 255;
          a0 = q0 >>> 24; // prettier-ignore
          r1 = q1 & 255;
          g1 = (q1 >> 8) & 255;
          b1 = (q1 >> 16) & 255;
          a1 = q1 >>> 24; // prettier-ignore
          r2 = q2 & 255;
          g2 = (q2 >> 8) & 255;
          b2 = (q2 >> 16) & 255;
          a2 = q2 >>> 24; // prettier-ignore
          r3 = q3 & 255;
          g3 = (q3 >> 8) & 255;
          b3 = (q3 >> 16) & 255;
          a3 = q3 >>> 24; // prettier-ignore
        } else {
          r0 = s[o]!;
          g0 = s[o + 1]!;
          b0 = s[o + 2]!;
          a0 = s[o + 3]!; // prettier-ignore
          r1 = s[o + 4]!;
          g1 = s[o + 5]!;
          b1 = s[o + 6]!;
          a1 = s[o + 7]!; // prettier-ignore
          const o2 = o + stride;
          r2 = s[o2]!;
          g2 = s[o2 + 1]!;
          b2 = s[o2 + 2]!;
          a2 = s[o2 + 3]!; // prettier-ignore
          r3 = s[o2 + 4]!;
          g3 = s[o2 + 5]!;
          b3 = s[o2 + 6]!;
          a3 = s[o2 + 7]!; // prettier-ignore
        }
      } else {
        const inX0 = iu >= bx0 && iu < bx1;
        const inX1 = iu + 1 >= bx0 && iu + 1 < bx1;
        const inY0 = iv >= by0 && iv < by1;
        const inY1 = iv + 1 >= by0 && iv + 1 < by1;
        if (inY0 && inX0) {
          r0 = s[o]!;
          g0 = s[o + 1]!;
          b0 = s[o + 2]!;
          a0 = s[o + 3]!;
        } // prettier-ignore
        if (inY0 && inX1) {
          r1 = s[o + 4]!;
          g1 = s[o + 5]!;
          b1 = s[o + 6]!;
          a1 = s[o + 7]!;
        } // prettier-ignore
        const o2 = o + stride;
        if (inY1 && inX0) {
          r2 = s[o2]!;
          g2 = s[o2 + 1]!;
          b2 = s[o2 + 2]!;
          a2 = s[o2 + 3]!;
        } // prettier-ignore
        if (inY1 && inX1) {
          r3 = s[o2 + 4]!;
          g3 = s[o2 + 5]!;
          b3 = s[o2 + 6]!;
          a3 = s[o2 + 7]!;
        } // prettier-ignore
      }
      // Same operations in the same order as the reference, so the results are identical.
      const p0 = a0 * w0;
      const p1 = a1 * w1;
      const p2 = a2 * w2;
      const p3 = a3 * w3;
      const a = p0 + p1 + p2 + p3;
      const A0 = Math.round(a) | 0;
      if (A0 <= 0) continue;
      const A = alut[A0 > 255 ? 255 : A0]!;
      if (A === 0) continue;
      const r = Math.round((r0 * p0 + r1 * p1 + r2 * p2 + r3 * p3) / a) | 0;
      const g = Math.round((g0 * p0 + g1 * p1 + g2 * p2 + g3 * p3) / a) | 0;
      const b = Math.round((b0 * p0 + b1 * p1 + b2 * p2 + b3 * p3) / a) | 0;
      if (A === 255) {
        d[di] = r;
        d[di + 1] = g;
        d[di + 2] = b;
        d[di + 3] = 255;
      } else blendPx(d, di, r, g, b, A);
    }
  }
}

/**
 * Which kernels drawImage uses: 'auto' (WebAssembly SIMD where it is
 * available and pays for copying the pixels into its memory, else
 * JavaScript), 'wasm' (WebAssembly SIMD whenever available) or 'js' (the
 * JavaScript loops, the reference the WebAssembly kernels are tested
 * against). Both give the same pixels.
 */
export type ComposeKernelMode = 'auto' | 'wasm' | 'js';

let kernelMode: ComposeKernelMode = 'auto';

/** Sets the kernels drawImage uses (see ComposeKernelMode); returns the previous mode. */
export function setComposeKernels(mode: ComposeKernelMode): ComposeKernelMode {
  const was = kernelMode;
  kernelMode = mode;
  return was;
}

/** Whether the WebAssembly SIMD kernels can run here. */
export function composeSimdAvailable(): boolean {
  return simdAvailable();
}

/** Draws (in 'auto' mode) smaller than this many destination pixels stay in JavaScript. */
const SIMD_MIN_PIXELS = 2048;
/** Draws that would need more WebAssembly memory than this stay in JavaScript. */
const SIMD_MAX_BYTES = 256 * 1024 * 1024;
/** Memory kept between draws. */
const SIMD_KEEP_BYTES = 64 * 1024 * 1024;

/** Copies the w × h rectangle at (x, y) of an image `width` pixels wide into `to` at byte `at`, rows packed. */
function stageRect(from: Uint8Array, width: number, x: number, y: number, w: number, h: number, to: Uint8Array, at: number): void {
  if (x === 0 && w === width) {
    to.set(from.subarray(y * width * 4, (y + h) * width * 4), at);
    return;
  }
  const rw = w * 4;
  for (let r = 0, o = (y * width + x) * 4; r < h; r++, o += width * 4, at += rw) to.set(from.subarray(o, o + rw), at);
}

/** The inverse of stageRect. */
function unstageRect(to: Uint8Array, width: number, x: number, y: number, w: number, h: number, from: Uint8Array, at: number): void {
  if (x === 0 && w === width) {
    to.set(from.subarray(at, at + w * h * 4), y * width * 4);
    return;
  }
  const rw = w * 4;
  for (let r = 0, o = (y * width + x) * 4; r < h; r++, o += width * 4, at += rw) to.set(from.subarray(at, at + rw), o);
}

const align16 = (n: number): number => (n + 15) & ~15;

/**
 * drawImage through the WebAssembly SIMD kernels (src/render/compose.wat):
 * the texels that exist of the source rectangle and the destination box
 * [x0, x1) × [y0, y1) are copied into the kernels' memory, drawn there with
 * the same arithmetic as the JavaScript paths below (so the same pixels),
 * and the box is copied back. Returns false when the JavaScript paths
 * should draw instead (no SIMD, a small draw in 'auto' mode, too big).
 */
function simdDraw(
  dst: RgbaImage,
  src: RgbaImage,
  p: Normalised,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  alut: Uint8Array,
  bilinear: boolean,
): boolean {
  if (!LITTLE_ENDIAN) return false;
  const { m, inv, sx, sy, sw, sh } = p;
  const W = src.width;
  const DW = dst.width;
  const blitDraw = m[0] === 1 && m[1] === 0 && m[2] === 0 && m[3] === 1 && Number.isInteger(m[4]) && Number.isInteger(m[5]);
  // Texels that exist: the source rectangle within the image.
  let bx0 = Math.max(sx, 0);
  let bx1 = Math.min(sx + sw, W);
  let by0 = Math.max(sy, 0);
  let by1 = Math.min(sy + sh, src.height);
  if (bx1 <= bx0 || by1 <= by0) return true; // nothing to draw
  if (blitDraw) {
    // Only the part drawn (as blit): destination [x0, x1) × [y0, y1), texels offset by (offX, offY).
    const offX = sx - m[4];
    const offY = sy - m[5];
    x0 = Math.max(0, bx0 - offX);
    x1 = Math.min(DW, bx1 - offX);
    y0 = Math.max(0, by0 - offY);
    y1 = Math.min(dst.height, by1 - offY);
    if (x1 <= x0 || y1 <= y0) return true;
    bx0 = x0 + offX;
    bx1 = x1 + offX;
    by0 = y0 + offY;
    by1 = y1 + offY;
  }
  const tw = x1 - x0;
  const th = y1 - y0;
  // Plain blits stay in JavaScript in 'auto' mode (copying the box in and out costs more than the JS word loop), but onto a canvas image.
  if (kernelMode === 'auto' && (tw * th < SIMD_MIN_PIXELS || (blitDraw && alut === NO_OPACITY && !canvasKernels(dst.data)))) return false;
  const bw = bx1 - bx0;
  const bh = by1 - by0;
  const tableDraw = !blitDraw && !bilinear && ((inv[1] === 0 && inv[2] === 0) || (inv[0] === 0 && inv[3] === 0));
  // Blits and table draws copy the whole box; affine draws each row's span as they go (none onto a canvas image).
  const boxed = blitDraw || tableDraw;
  // A canvas image (createCanvasImage): drawn in place, the source copied to the scratch area after its pixels.
  let canvas = dst.data.byteOffset % 4 === 0 ? canvasKernels(dst.data) : undefined;
  if (canvas && dst.data.byteOffset + dst.data.length > canvas.scratch) canvas = undefined; // a view reaching the scratch area
  // A source in the canvas's own memory (placeOnCanvas, or another part of the canvas): its texels are read where they are.
  const sameMemory = src.data.buffer === dst.data.buffer;
  // A source view reaching the scratch area, which the draw writes: drawn through the shared memory.
  if (canvas && sameMemory && src.data.byteOffset + src.data.length > canvas.scratch) canvas = undefined;
  let resident = canvas !== undefined && sameMemory;
  const layout = (base: number) => {
    const LUT = base + 256;
    const T = base + 512;
    // Table draws' four-column groups (table4): 16-byte masks, then a base per group.
    const G = (tw + 3) >> 2;
    const C = align16(T + tw * 4);
    const S = align16(C + G * 16); // cols: whole groups of four (table4)
    const M = align16(S + (resident ? 0 : bw * bh * 4 + 16)); // 16: table4 reads a whole vector from a texel near the end
    const B = M + G * 16;
    const D = align16(B + G * 4);
    return { LUT, T, G, C, S, M, B, D };
  };
  let L = layout(canvas ? canvas.scratch : 0);
  if (canvas && L.D > canvas.end) {
    canvas = undefined;
    resident = false;
    L = layout(0);
  }
  const { LUT, T, G, C, S, M, B, D } = L;
  let k = canvas?.k;
  if (!k) {
    const need = D + (boxed ? tw * th : tw) * 4;
    if (need > SIMD_MAX_BYTES) return false;
    k = composeKernels(need) ?? undefined;
    if (!k) return false;
  }
  const mem = k.bytes;
  const plain = alut === NO_OPACITY;
  mem.set(alut, LUT);
  if (!resident) stageRect(src.data, W, bx0, by0, bw, bh, mem, S);
  const inPlace = canvas !== undefined;
  if (boxed && !inPlace) stageRect(dst.data, DW, x0, y0, tw, th, mem, D);
  const stride = resident ? W * 4 : bw * 4;
  // Address of texel (0, 0) of the whole image (i32 arithmetic wraps: only existing texels are read).
  const org = resident ? src.data.byteOffset : (S - (by0 * bw + bx0) * 4) | 0;
  const dOff = dst.data.byteOffset;
  const rowAt = inPlace
    ? (y: number, x: number): number => dOff + (y * DW + x) * 4
    : (y: number, x: number): number => D + ((y - y0) * tw + (x - x0)) * 4;
  if (blitDraw) {
    // Same width and order on both sides: one span.
    if (inPlace) k.blit(rowAt(y0, x0), DW * 4, (org + by0 * stride + bx0 * 4) | 0, stride, tw, th, plain ? 0 : LUT);
    else k.over(D, S, tw * th, plain ? 0 : LUT);
  } else if (tableDraw) {
    // tableDraw: a column (or, swapped, row) of texels per destination column.
    const swapped = !(inv[1] === 0 && inv[2] === 0);
    const H = src.height;
    const colOfU = (u: number): number => {
      if (u < 0 || u >= sw) return -1;
      const X = sx + Math.floor(u);
      return X < 0 || X >= W ? -1 : X;
    };
    const rowOfV = (v: number): number => {
      if (v < 0 || v >= sh) return -1;
      const Y = sy + Math.floor(v);
      return Y < 0 || Y >= H ? -1 : Y;
    };
    const cols = new Int32Array(k.memory.buffer, C, G * 4).fill(-1);
    for (let x = x0; x < x1; x++) {
      const cx = x + 0.5;
      cols[x - x0] = swapped ? rowOfV(inv[1] * cx + inv[5]) : colOfU(inv[0] * cx + inv[4]);
    }
    if (!swapped) {
      // Groups of four columns within four neighbouring texels: one load and a swizzle per group.
      const masks = new Uint8Array(k.memory.buffer, M, G * 16);
      const bases = new Int32Array(k.memory.buffer, B, G);
      for (let g = 0; g < G; g++) {
        let lo = 2 ** 31;
        let hi = -1;
        for (let j = 4 * g; j < 4 * g + 4 && j < tw; j++) {
          const c = cols[j]!;
          if (c >= 0) {
            if (c < lo) lo = c;
            if (c > hi) hi = c;
          }
        }
        if (hi < 0) lo = hi = bx0; // no texel: any that exists (the mask picks nothing)
        if (hi - lo > 3) {
          bases[g] = -1;
          continue;
        }
        bases[g] = lo;
        for (let j = 0; j < 4; j++) {
          const c = 4 * g + j < tw ? cols[4 * g + j]! : -1;
          for (let b = 0; b < 4; b++) masks[g * 16 + j * 4 + b] = c < 0 ? 0x80 : (c - lo) * 4 + b;
        }
      }
    }
    for (let y = y0; y < y1; y++) {
      const cy = y + 0.5;
      const r = swapped ? colOfU(inv[2] * cy + inv[4]) : rowOfV(inv[3] * cy + inv[5]);
      if (r < 0) continue;
      if (swapped) k.table(T, C, tw, (org + r * 4) | 0, stride, rowAt(y, x0), plain ? 0 : LUT);
      else k.table4(T, M, B, C, tw, (org + r * stride) | 0, rowAt(y, x0), plain ? 0 : LUT);
    }
  } else {
    const [i0, i1, i2, i3, i4, i5] = inv;
    // As affineBilinear: unchecked runs only where its JavaScript takes them (32-bit views, 16.16 positions).
    const aligned = src.data.byteOffset % 4 === 0;
    const runs = aligned && dst.data.byteOffset % 4 === 0 && bx1 <= 32767 && by1 <= 32767;
    const dU = Math.round(i0 * 65536) | 0;
    const dV = Math.round(i1 * 65536) | 0;
    const opaqueA = alut[255]!;
    const d = dst.data;
    // As affineNearest: unchecked runs where u and v truncate to int32.
    const nearestRuns = bx1 - sx < 2 ** 31 && by1 - sy < 2 ** 31;
    for (let y = y0; y < y1; y++) {
      const cy = y + 0.5;
      const ru = i2 * cy + i4;
      const rv = i3 * cy + i5;
      spanA = x0;
      spanB = x1;
      rowSpan(i0, ru, sw);
      rowSpan(i1, rv, sh);
      const xa = spanA;
      const xb = spanB;
      if (xb <= xa) continue;
      const o = (y * DW + xa) * 4;
      const n4 = (xb - xa) * 4;
      // The row's span: in place, or copied in and out.
      const at = inPlace ? rowAt(y, xa) : D;
      if (!inPlace) mem.set(d.subarray(o, o + n4), D);
      let ia = -1;
      let ib = -1;
      if (!bilinear) {
        if (nearestRuns) {
          exactSpan(i0, ru, 0, 0, bx0 - sx, bx1 - sx, xa, xb);
          exactSpan(i1, rv, 0, 0, by0 - sy, by1 - sy, spanA, spanB);
          if (spanB > spanA) {
            ia = spanA;
            ib = spanB;
          }
        }
        k.nearest(T, org, stride, i0, i1, ru, rv, sx, sy, sw, sh, bx0, bx1, by0, by1, xa, xb, ia, ib, at, plain ? 0 : LUT);
        if (!inPlace) d.set(mem.subarray(D, D + n4), o);
        continue;
      }
      if (runs) {
        exactSpan(i0, ru, sx, 0.5, bx0 + RUN_MARGIN, bx1 - 1 - RUN_MARGIN, xa, xb);
        exactSpan(i1, rv, sy, 0.5, by0 + RUN_MARGIN, by1 - 1 - RUN_MARGIN, spanA, spanB);
        if (spanB > spanA) {
          ia = spanA;
          ib = spanB;
        }
      }
      // biome-ignore format: one argument per kernel parameter
      k.bilinear(T, org, stride, i0, i1, ru, rv, sx, sy, sw, sh, bx0, bx1, by0, by1, xa, xb, ia, ib, dU, dV, at, LUT, opaqueA, aligned ? 1 : 0);
      if (!inPlace) d.set(mem.subarray(D, D + n4), o);
    }
  }
  if (boxed && !inPlace) unstageRect(dst.data, DW, x0, y0, tw, th, mem, D);
  if (!inPlace) releaseKernels(SIMD_KEEP_BYTES);
  return true;
}
