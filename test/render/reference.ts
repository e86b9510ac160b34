/**
 * The slow, literal reference compositor: one destination pixel at a time,
 * exactly the rules written at the top of src/render/compose.ts, with no
 * shortcuts. The fast paths are tested against it.
 */
import type { RgbaImage } from '../../src/render/image.js';
import { IDENTITY, invert } from '../../src/render/matrix.js';
import type { DrawOptions } from '../../src/render/compose.js';
import { transformedBounds } from '../../src/render/compose.js';

/** Source-over, straight alpha, from the exact rational result rounded half up. */
export function refBlend(d: Uint8Array, o: number, r: number, g: number, b: number, A: number): void {
  if (A === 0) return;
  const D = d[o + 3]!;
  const den = 255 * A + D * (255 - A);
  const mix = (cs: number, cd: number) => Math.round((255 * A * cs + (255 - A) * D * cd) / den);
  d[o] = mix(r, d[o]!);
  d[o + 1] = mix(g, d[o + 1]!);
  d[o + 2] = mix(b, d[o + 2]!);
  d[o + 3] = Math.round(den / 255);
}

export function refDrawImage(dst: RgbaImage, src: RgbaImage, opts: DrawOptions = {}): void {
  const sx = Math.floor(opts.sx ?? 0);
  const sy = Math.floor(opts.sy ?? 0);
  const sw = Math.floor(opts.sw ?? src.width - sx);
  const sh = Math.floor(opts.sh ?? src.height - sy);
  const m = opts.transform ?? IDENTITY;
  const opacity = Math.max(0, Math.min(1, opts.opacity ?? 1));
  if (!(sw > 0 && sh > 0) || opacity === 0) return;
  const inv = invert(m);
  // A transform too close to singular to invert in doubles draws nothing.
  if (!inv || ![...m, ...inv].every(Number.isFinite)) return;
  if (src.data.buffer === dst.data.buffer) src = { ...src, data: src.data.slice() };
  const bb = transformedBounds(sw, sh, m);
  const x0 = Math.max(0, Math.floor(bb.x));
  const y0 = Math.max(0, Math.floor(bb.y));
  const x1 = Math.min(dst.width, Math.ceil(bb.x + bb.width));
  const y1 = Math.min(dst.height, Math.ceil(bb.y + bb.height));
  // A texel of the source rectangle; outside the rectangle or the image: transparent.
  const texel = (x: number, y: number): [number, number, number, number] => {
    if (x < sx || y < sy || x >= sx + sw || y >= sy + sh || x < 0 || y < 0 || x >= src.width || y >= src.height) {
      return [0, 0, 0, 0];
    }
    const i = (y * src.width + x) * 4;
    return [src.data[i]!, src.data[i + 1]!, src.data[i + 2]!, src.data[i + 3]!];
  };
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const cx = x + 0.5;
      const cy = y + 0.5;
      const u = inv[0] * cx + (inv[2] * cy + inv[4]);
      const v = inv[1] * cx + (inv[3] * cy + inv[5]);
      if (u < 0 || v < 0 || u >= sw || v >= sh) continue;
      let px: [number, number, number, number];
      if (opts.filter !== 'bilinear') {
        px = texel(sx + Math.floor(u), sy + Math.floor(v));
      } else {
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
          const t = texel(iu + (k & 1), iv + (k >> 1));
          const w = (k & 1 ? tx : 1 - tx) * (k >> 1 ? ty : 1 - ty);
          const pa = t[3] * w;
          a += pa;
          r += t[0] * pa;
          g += t[1] * pa;
          b += t[2] * pa;
        }
        const A0 = Math.round(a);
        if (A0 <= 0) continue;
        px = [Math.round(r / a), Math.round(g / a), Math.round(b / a), Math.min(255, A0)];
      }
      refBlend(dst.data, (y * dst.width + x) * 4, px[0], px[1], px[2], Math.round(px[3] * opacity));
    }
  }
}
