/**
 * Aseprite's layer blend modes, with its exact integer arithmetic (its
 * src/doc/blend_funcs.cpp, "new blend method", the default since 1.2: the
 * `_n` blenders, which fade each blend into normal where the backdrop is
 * transparent). Pixels are packed as Aseprite packs them: r | g << 8 |
 * b << 16 | a << 24 (unsigned), straight alpha. Used by the compositor
 * (compose.ts drawImage with `blend`) to draw native .aseprite files as
 * Aseprite flattens them.
 */

/** Aseprite's blend modes, by the names its JSON export writes (layer chunk order 0..18). */
export const BLEND_MODES = [
  'normal',
  'multiply',
  'screen',
  'overlay',
  'darken',
  'lighten',
  'color_dodge',
  'color_burn',
  'hard_light',
  'soft_light',
  'difference',
  'exclusion',
  'hue',
  'saturation',
  'color',
  'luminosity',
  'addition',
  'subtract',
  'divide',
] as const;
export type BlendMode = (typeof BLEND_MODES)[number];

/** pixman's MUL_UN8: round(a * b / 255) for 0 <= a, b <= 255 (a may be negative, as Aseprite uses it). */
export function mulUn8(a: number, b: number): number {
  const t = a * b + 0x80;
  return ((t >> 8) + t) >> 8;
}

/** pixman's DIV_UN8: (a * 255 + b / 2) / b in integers. */
function divUn8(a: number, b: number): number {
  return Math.trunc((a * 255 + (b >> 1)) / b);
}

const R = (c: number) => c & 255;
const G = (c: number) => (c >>> 8) & 255;
const B = (c: number) => (c >>> 16) & 255;
const A = (c: number) => c >>> 24;
export function rgba(r: number, g: number, b: number, a: number): number {
  return ((r & 255) | ((g & 255) << 8) | ((b & 255) << 16) | ((a & 255) << 24)) >>> 0;
}

/** rgba_blender_normal. */
export function blendNormal(backdrop: number, src: number, opacity: number): number {
  if (!(backdrop >>> 24)) {
    const a = mulUn8(A(src), opacity);
    return ((src & 0xffffff) | (a << 24)) >>> 0;
  }
  if (!(src >>> 24)) return backdrop;
  const Br = R(backdrop);
  const Bg = G(backdrop);
  const Bb = B(backdrop);
  const Ba = A(backdrop);
  const Sa = mulUn8(A(src), opacity);
  const Ra = Sa + Ba - mulUn8(Ba, Sa);
  // C's integer division truncates toward zero.
  const Rr = Br + Math.trunc(((R(src) - Br) * Sa) / Ra);
  const Rg = Bg + Math.trunc(((G(src) - Bg) * Sa) / Ra);
  const Rb = Bb + Math.trunc(((B(src) - Bb) * Sa) / Ra);
  return rgba(Rr, Rg, Rb, Ra);
}

/** rgba_blender_merge. */
function blendMerge(backdrop: number, src: number, opacity: number): number {
  const Ba = A(backdrop);
  const Sa = A(src);
  let Rr: number;
  let Rg: number;
  let Rb: number;
  if (Ba === 0) {
    Rr = R(src);
    Rg = G(src);
    Rb = B(src);
  } else if (Sa === 0) {
    Rr = R(backdrop);
    Rg = G(backdrop);
    Rb = B(backdrop);
  } else {
    Rr = R(backdrop) + mulUn8(R(src) - R(backdrop), opacity);
    Rg = G(backdrop) + mulUn8(G(src) - G(backdrop), opacity);
    Rb = B(backdrop) + mulUn8(B(src) - B(backdrop), opacity);
  }
  const Ra = Ba + mulUn8(Sa - Ba, opacity);
  if (Ra === 0) Rr = Rg = Rb = 0;
  return rgba(Rr, Rg, Rb, Ra);
}

const multiply = (b: number, s: number) => mulUn8(b, s);
const screen = (b: number, s: number) => b + s - mulUn8(b, s);
const hardLight = (b: number, s: number) => (s < 128 ? multiply(b, s << 1) : screen(b, (s << 1) - 255));
const overlay = (b: number, s: number) => hardLight(s, b);
function colorDodge(b: number, s: number): number {
  if (b === 0) return 0;
  s = 255 - s;
  return b >= s ? 255 : divUn8(b, s);
}
function colorBurn(b: number, s: number): number {
  if (b === 255) return 255;
  b = 255 - b;
  return b >= s ? 0 : 255 - divUn8(b, s);
}
function softLight(_b: number, _s: number): number {
  const b = _b / 255;
  const s = _s / 255;
  const d = b <= 0.25 ? ((16 * b - 12) * b + 4) * b : Math.sqrt(b);
  const r = s <= 0.5 ? b - (1 - 2 * s) * b * (1 - b) : b + (2 * s - 1) * (d - b);
  // (uint32_t)(r * 255 + 0.5): truncation
  return Math.trunc(r * 255 + 0.5) & 255;
}
function divide(b: number, s: number): number {
  if (b === 0) return 0;
  return b >= s ? 255 : divUn8(b, s);
}

/** A per-channel blend: the blended colour, then normal with the source's alpha (Aseprite's rgba_blender_NAME). */
function channel(f: (b: number, s: number) => number) {
  return (backdrop: number, src: number, opacity: number): number => {
    const c = rgba(f(R(backdrop), R(src)), f(G(backdrop), G(src)), f(B(backdrop), B(src)), 0);
    return blendNormal(backdrop, ((c & 0xffffff) | (src & 0xff000000)) >>> 0, opacity);
  };
}

// The HSL modes, in doubles as Aseprite computes them.
const lum = (r: number, g: number, b: number) => 0.3 * r + 0.59 * g + 0.11 * b;
const sat = (r: number, g: number, b: number) => Math.max(r, g, b) - Math.min(r, g, b);
function clipColor(c: [number, number, number]): void {
  const l = lum(c[0], c[1], c[2]);
  const n = Math.min(c[0], c[1], c[2]);
  const x = Math.max(c[0], c[1], c[2]);
  if (n < 0) for (let i = 0; i < 3; i++) c[i] = l + ((c[i]! - l) * l) / (l - n);
  if (x > 1) for (let i = 0; i < 3; i++) c[i] = l + ((c[i]! - l) * (1 - l)) / (x - l);
}
function setLum(c: [number, number, number], l: number): void {
  const d = l - lum(c[0], c[1], c[2]);
  c[0] += d;
  c[1] += d;
  c[2] += d;
  clipColor(c);
}
function setSat(c: [number, number, number], s: number): void {
  const minv = Math.min(c[0], c[1], c[2]);
  const maxv = Math.max(c[0], c[1], c[2]);
  const range = maxv - minv;
  if (range > 0) for (let i = 0; i < 3; i++) c[i] = ((c[i]! - minv) * s) / range;
  else c[0] = c[1] = c[2] = 0;
}
const unit = (p: number): [number, number, number] => [R(p) / 255, G(p) / 255, B(p) / 255];
/** int(255.0 * v) stored in a byte (C truncation, then the byte's low bits). */
const byte = (v: number) => Math.trunc(255 * v) & 255;
function hsl(kind: 'hue' | 'saturation' | 'color' | 'luminosity') {
  return (backdrop: number, src: number, opacity: number): number => {
    const bk = unit(backdrop);
    const sc = unit(src);
    let c: [number, number, number];
    if (kind === 'hue') {
      c = sc;
      setSat(c, sat(...bk));
      setLum(c, lum(...bk));
    } else if (kind === 'saturation') {
      const l = lum(...bk);
      c = bk;
      setSat(c, sat(...sc));
      setLum(c, l);
    } else if (kind === 'color') {
      c = sc;
      setLum(c, lum(...bk));
    } else {
      c = bk;
      setLum(c, lum(...sc));
    }
    const out = rgba(byte(c[0]), byte(c[1]), byte(c[2]), 0);
    return blendNormal(backdrop, ((out & 0xffffff) | (src & 0xff000000)) >>> 0, opacity);
  };
}

type Blender = (backdrop: number, src: number, opacity: number) => number;

const BASE: Record<Exclude<BlendMode, 'normal'>, Blender> = {
  multiply: channel(multiply),
  screen: channel(screen),
  overlay: channel(overlay),
  darken: channel((b, s) => Math.min(b, s)),
  lighten: channel((b, s) => Math.max(b, s)),
  color_dodge: channel(colorDodge),
  color_burn: channel(colorBurn),
  hard_light: channel(hardLight),
  soft_light: channel(softLight),
  difference: channel((b, s) => Math.abs(b - s)),
  exclusion: channel((b, s) => b + s - 2 * mulUn8(b, s)),
  hue: hsl('hue'),
  saturation: hsl('saturation'),
  color: hsl('color'),
  luminosity: hsl('luminosity'),
  addition: channel((b, s) => Math.min(b + s, 255)),
  subtract: channel((b, s) => Math.max(b - s, 0)),
  divide: channel(divide),
};

/** The RGBA_BLENDER_N wrapper: where the backdrop is opaque the blend, where transparent normal, between them merged. */
function newBlend(base: Blender): Blender {
  return (backdrop, src, opacity) => {
    if (!(backdrop >>> 24)) return blendNormal(backdrop, src, opacity);
    const normal = blendNormal(backdrop, src, opacity);
    const blend = base(backdrop, src, opacity);
    const Ba = A(backdrop);
    const normalToBlendMerge = blendMerge(normal, blend, Ba);
    const srcTotalAlpha = mulUn8(A(src), opacity);
    const compositeAlpha = mulUn8(Ba, srcTotalAlpha);
    return blendMerge(normalToBlendMerge, blend, compositeAlpha);
  };
}

const BLENDERS = new Map<BlendMode, Blender>([
  ['normal', blendNormal],
  ...Object.entries(BASE).map(([k, f]) => [k as BlendMode, newBlend(f)] as [BlendMode, Blender]),
]);

/** Aseprite's blender for `mode` (RGBA, new blend method): (backdrop, src, opacity 0..255) -> result, packed pixels. */
export function blenderFor(mode: BlendMode): Blender {
  return BLENDERS.get(mode) ?? blendNormal;
}
