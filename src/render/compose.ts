import type { RgbaImage } from './image.js';
import { applyMatrix, IDENTITY, invert, type Matrix } from './matrix.js';

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
  let x0 = img.width;
  let y0 = img.height;
  let x1 = -1;
  let y1 = -1;
  const d = img.data;
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      if (d[(y * img.width + x) * 4 + 3]) {
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
    }
  }
  return x1 < 0 ? null : { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 };
}

/** Source-over of one straight-alpha pixel (r, g, b, a in 0-255) onto dst at byte index o. */
function blend(d: Uint8Array, o: number, r: number, g: number, b: number, a: number): void {
  if (a <= 0) return;
  if (a >= 255) {
    d[o] = r;
    d[o + 1] = g;
    d[o + 2] = b;
    d[o + 3] = 255;
    return;
  }
  const da = d[o + 3]!;
  const sa = a / 255;
  const ea = da / 255;
  const oa = sa + ea * (1 - sa);
  const k = ea * (1 - sa);
  d[o] = Math.round((r * sa + d[o]! * k) / oa);
  d[o + 1] = Math.round((g * sa + d[o + 1]! * k) / oa);
  d[o + 2] = Math.round((b * sa + d[o + 2]! * k) / oa);
  d[o + 3] = Math.round(oa * 255);
}

/**
 * Draws a region of `src` onto `dst` through an affine transform, with
 * opacity and nearest or bilinear sampling, blending source-over with
 * straight alpha in and out. Each destination pixel centre is mapped back
 * into the source rectangle; pixels outside it are left alone.
 */
export function drawImage(dst: RgbaImage, src: RgbaImage, opts: DrawOptions = {}): void {
  const sx = opts.sx ?? 0;
  const sy = opts.sy ?? 0;
  const sw = opts.sw ?? src.width - sx;
  const sh = opts.sh ?? src.height - sy;
  const m = opts.transform ?? IDENTITY;
  const opacity = Math.max(0, Math.min(1, opts.opacity ?? 1));
  if (sw <= 0 || sh <= 0 || opacity === 0) return;
  const inv = invert(m);
  if (!inv) return;
  const bb = transformedBounds(sw, sh, m);
  const x0 = Math.max(0, Math.floor(bb.x));
  const y0 = Math.max(0, Math.floor(bb.y));
  const x1 = Math.min(dst.width, Math.ceil(bb.x + bb.width));
  const y1 = Math.min(dst.height, Math.ceil(bb.y + bb.height));
  const s = src.data;
  const d = dst.data;
  const bilinear = opts.filter === 'bilinear';
  // Source pixels outside the image read as transparent.
  const px = (x: number, y: number, c: number): number =>
    x < sx || y < sy || x >= sx + sw || y >= sy + sh || x < 0 || y < 0 || x >= src.width || y >= src.height
      ? 0
      : s[(y * src.width + x) * 4 + c]!;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const cx = x + 0.5;
      const cy = y + 0.5;
      const u = inv[0] * cx + inv[2] * cy + inv[4];
      const v = inv[1] * cx + inv[3] * cy + inv[5];
      if (u < 0 || v < 0 || u >= sw || v >= sh) continue;
      const o = (y * dst.width + x) * 4;
      if (!bilinear) {
        const iu = sx + Math.floor(u);
        const iv = sy + Math.floor(v);
        const i = (iv * src.width + iu) * 4;
        if (iu >= src.width || iv >= src.height || iu < 0 || iv < 0) continue;
        blend(d, o, s[i]!, s[i + 1]!, s[i + 2]!, s[i + 3]! * opacity);
        continue;
      }
      // Bilinear on premultiplied values, so transparent neighbours do not darken edges.
      const fu = sx + u - 0.5;
      const fv = sy + v - 0.5;
      const iu = Math.floor(fu);
      const iv = Math.floor(fv);
      const tx = fu - iu;
      const ty = fv - iv;
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let k = 0; k < 4; k++) {
        const qx = iu + (k & 1);
        const qy = iv + (k >> 1);
        const w = ((k & 1) ? tx : 1 - tx) * ((k >> 1) ? ty : 1 - ty);
        const pa = px(qx, qy, 3) * w;
        a += pa;
        r += px(qx, qy, 0) * pa;
        g += px(qx, qy, 1) * pa;
        b += px(qx, qy, 2) * pa;
      }
      if (a <= 0) continue;
      blend(d, o, r / a, g / a, b / a, a * opacity);
    }
  }
}
