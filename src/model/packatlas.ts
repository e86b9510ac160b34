import { OptionError } from '../binary/errors.js';
import { Budget } from '../binary/limits.js';
import { cropImage, createImage, type RgbaImage } from '../render/image.js';
import { compose, rotate, scale as scaleMatrix, translate } from '../render/matrix.js';
import { drawPicture } from '../render/pipeline.js';
import type { Atlas, AtlasAnimation, AtlasExporter, AtlasFrame } from './atlas.js';
import { drawSheet, type PackHeuristic, PACK_HEURISTICS, packRects } from './pack.js';
import { hashBytes, sameImage } from './frames.js';

/**
 * `packAtlas`: named RGBA frames onto atlas pages, as TexturePacker packs
 * sprites (docs/atlas-formats.md, "Packing"): each frame trimmed to the
 * pixels above the alpha threshold, keeping its place on its canvas
 * (`sourceSize` and `spriteSourceSize`); frames whose stored pixels are
 * identical stored once (the others are aliases at the same rectangle);
 * the one packer (`packRects`, src/model/pack.ts) lays the rectangles out,
 * `drawSheet` draws the pages (rotation and extrusion through the picture
 * pipeline). Deterministic: the same frames and options give the same atlas.
 */

/** One frame to pack: its name (unique), its untrimmed canvas, and what the source says of it. */
export interface AtlasSourceFrame {
  name: string;
  image: RgbaImage;
  /** How long it shows (milliseconds), when the source says. */
  durationMs?: number;
  /** The origin as a fraction of the canvas, when the source has one. */
  pivot?: { x: number; y: number };
}

/** An animation: frame names in play order, each with its duration when the animation gives one. */
export interface AtlasSourceAnimation {
  name: string;
  frames: (string | { frame: string; durationMs?: number })[];
  /** Default true. */
  loop?: boolean;
}

export interface PackAtlasOptions {
  /** Cut transparent edges off (true: alpha 0; `alphaThreshold`: pixels of alpha up to it count as transparent and are cut off with the edge). Default false. */
  trim?: boolean | { alphaThreshold: number };
  /** Frames may be stored a quarter turn (clockwise, or as `exporter.turn` says); only where `exporter` (when given) can say so. Default false. */
  rotate?: boolean;
  /** Pixels each frame's edge is repeated outwards (against bleeding when engines filter). Default 0. */
  extrude?: number;
  /** Pixels between two stored frames. Default 0. */
  padding?: number;
  /** Pixels between the frames and the page's edge. Default 0. */
  border?: number;
  /** Page sides are powers of two. */
  pot?: boolean;
  /** Pages are square. */
  square?: boolean;
  /** The largest page (default unbounded). */
  maxWidth?: number;
  maxHeight?: number;
  /** Spread the frames over several pages when one page of `maxWidth` x `maxHeight` is not enough (else that is an OptionError). */
  multipack?: boolean;
  /** The scales to make, one Atlas each (default `[1]`): each frame scaled first, then trimmed and packed on its own. */
  scale?: number[];
  /** One MaxRects heuristic instead of trying all five. */
  heuristic?: PackHeuristic;
  /** The format the atlas is for: `rotate` is refused unless its `rotation` is true; rotated frames are turned its `turn`. */
  exporter?: Pick<AtlasExporter, 'name' | 'rotation' | 'turn'>;
  /** The pages' base file name (default `atlas`): `atlas.png`, `atlas-1.png`, `atlas@0.5x.png`, `atlas-1@0.5x.png`. */
  name?: string;
  /** Budgets: the scaled and trimmed frames and the pages are charged before they are made. */
  budget?: Budget;
}

/** The largest scale `packAtlas` makes. */
export const MAX_ATLAS_SCALE = 16;

/** A page's file name: `NAME[-PAGE][@SCALEx].png`. */
export function atlasPageFile(name: string, page: number, scale: number): string {
  return `${name}${page > 0 ? `-${page}` : ''}${scale !== 1 ? `@${scale}x` : ''}.png`;
}

const whole = (v: number | undefined, what: string): number => {
  const n = v ?? 0;
  if (!Number.isInteger(n) || n < 0) throw new OptionError(`${what} must be a whole number of pixels (0 or more), not ${v}`);
  return n;
};

/** The box of pixels whose alpha is above `threshold`, or null when there is none. */
function boundsAbove(img: RgbaImage, threshold: number): { x: number; y: number; w: number; h: number } | null {
  const { width: w, height: h, data: d } = img;
  let x0 = w;
  let y0 = h;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < h; y++) {
    let i = y * w * 4 + 3;
    for (let x = 0; x < w; x++, i += 4) {
      if (d[i]! > threshold) {
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        y1 = y;
      }
    }
  }
  return x1 < 0 ? null : { x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1 };
}

/** `img` scaled to `w` x `h` (bilinear, through the picture pipeline). */
function scaled(img: RgbaImage, w: number, h: number, budget: Budget, what: string): RgbaImage {
  if (w === img.width && h === img.height) return img;
  return drawPicture(
    {
      frames: [{ parts: [{ image: img, transform: scaleMatrix(w / img.width, h / img.height), filter: 'bilinear' }] }],
      canvas: { x: 0, y: 0, width: w, height: h },
      what,
    },
    budget,
  ).frames[0]!;
}

/** `img` turned half a turn (through the picture pipeline). */
function halfTurned(img: RgbaImage, budget: Budget): RgbaImage {
  return drawPicture(
    {
      frames: [{ parts: [{ image: img, transform: compose(rotate(180), translate(img.width, img.height)) }] }],
      canvas: { x: 0, y: 0, width: img.width, height: img.height },
      what: 'a frame turned counterclockwise',
    },
    budget,
  ).frames[0]!;
}

/** Checks the options once, before any pixel is made. */
function checkOptions(frames: readonly AtlasSourceFrame[], options: PackAtlasOptions): number[] {
  const scales = options.scale?.length ? options.scale : [1];
  for (const s of scales)
    if (!(typeof s === 'number' && s > 0 && s <= MAX_ATLAS_SCALE))
      throw new OptionError(`a scale must be a number above 0 and at most ${MAX_ATLAS_SCALE}, not ${s}`);
  if (new Set(scales).size !== scales.length) throw new OptionError(`the scales ${scales.join(', ')} name one scale twice`);
  if (options.rotate && options.exporter && !options.exporter.rotation)
    throw new OptionError(`${options.exporter.name} cannot say a frame is stored rotated: pack without rotation`);
  if (options.heuristic !== undefined && !PACK_HEURISTICS.includes(options.heuristic))
    throw new OptionError(`unknown heuristic "${options.heuristic}" (known: ${PACK_HEURISTICS.join(', ')})`);
  const t = options.trim;
  if (typeof t === 'object') {
    const a = t.alphaThreshold;
    if (!Number.isInteger(a) || a < 0 || a > 254)
      throw new OptionError(`the trim alpha threshold must be a whole number from 0 to 254, not ${a}`);
  }
  for (const k of ['extrude', 'padding', 'border', 'maxWidth', 'maxHeight'] as const) whole(options[k], k);
  const names = new Set<string>();
  for (const f of frames) {
    if (names.has(f.name)) throw new OptionError(`two frames are named "${f.name}": every frame needs its own name`);
    names.add(f.name);
  }
  return scales;
}

/** The atlas's animations: frame names to indices; a duration an animation gives becomes its frame's. */
function animationsOf(
  animations: readonly AtlasSourceAnimation[],
  byName: Map<string, number>,
  durations: (number | undefined)[],
): AtlasAnimation[] {
  return animations.map((a) => ({
    name: a.name,
    loop: a.loop !== false,
    frames: a.frames.map((entry) => {
      const name = typeof entry === 'string' ? entry : entry.frame;
      const i = byName.get(name);
      if (i === undefined) throw new OptionError(`animation "${a.name}" names a frame "${name}" that is not packed`);
      const d = typeof entry === 'string' ? undefined : entry.durationMs;
      if (d !== undefined) {
        const had = durations[i];
        if (had !== undefined && had !== d)
          throw new OptionError(
            `frame "${name}" shows for ${had} ms in one place and ${d} ms in animation "${a.name}": one frame has one duration`,
          );
        durations[i] = d;
      }
      return i;
    }),
  }));
}

/**
 * Packs the frames into one Atlas per scale (`options.scale`, default `[1]`,
 * in that order), each with its page images. Throws an OptionError for a bad
 * option, a frame larger than the largest page, or frames that need more
 * than one page without `multipack`; a LimitError when a budget runs out.
 */
export function packAtlas(
  frames: readonly AtlasSourceFrame[],
  options: PackAtlasOptions = {},
  animations: readonly AtlasSourceAnimation[] = [],
): Atlas[] {
  const scales = checkOptions(frames, options);
  const budget = options.budget ?? new Budget();
  budget.spend('maxItems', frames.length * scales.length, `${frames.length} frames at ${scales.length} scales`);
  const byName = new Map(frames.map((f, i) => [f.name, i]));
  const durations = frames.map((f) => f.durationMs);
  const anims = animationsOf(animations, byName, durations);
  const threshold = options.trim === true ? 0 : typeof options.trim === 'object' ? options.trim.alphaThreshold : -1;
  const extrude = whole(options.extrude, 'extrude');
  const base = options.name ?? 'atlas';
  const turn = options.exporter?.turn ?? 'clockwise';
  return scales.map((s) => {
    // Each frame at this scale, trimmed; identical stored pixels kept once.
    const stored: RgbaImage[] = [];
    const byHash = new Map<number, number[]>();
    const entries = frames.map((f, i) => {
      const w = s === 1 ? f.image.width : Math.max(1, Math.round(f.image.width * s));
      const h = s === 1 ? f.image.height : Math.max(1, Math.round(f.image.height * s));
      const img = f.image.width && f.image.height ? scaled(f.image, w, h, budget, `frame "${f.name}" at scale ${s}`) : createImage(0, 0);
      let box = { x: 0, y: 0, w: img.width, h: img.height };
      let cut = img;
      if (threshold >= 0 && img.width && img.height) {
        // Nothing visible: one transparent pixel at the canvas's corner (engines take no empty frame).
        const b = boundsAbove(img, threshold) ?? { x: 0, y: 0, w: 1, h: 1 };
        if (b.w !== img.width || b.h !== img.height) {
          budget.spend('maxPixels', b.w * b.h, `frame "${f.name}" trimmed (${b.w}x${b.h})`);
          // (With a threshold, faint pixels are cut off with the edge only; inside the box they stay.)
          cut = cropImage(img, b.x, b.y, b.w, b.h);
        }
        box = b;
      }
      const hash = hashBytes(cut.data);
      const list = byHash.get(hash) ?? [];
      let u = list.find((k) => sameImage(stored[k]!, cut));
      if (u === undefined) {
        u = stored.push(cut) - 1;
        list.push(u);
        byHash.set(hash, list);
      }
      return { index: i, unique: u, box, canvas: { w: img.width, h: img.height } };
    });
    const firstOf = new Map<number, number>();
    for (const e of entries) if (!firstOf.has(e.unique)) firstOf.set(e.unique, e.index);
    const packed = packWithMessages(
      stored,
      frames.map((f) => f.name),
      entries,
      options,
    );
    const pages = packed.pages.map((p, page) => {
      const items = stored
        .map((image, k) => ({ image, k }))
        .filter(({ k }) => packed.placements[k]!.page === page && stored[k]!.width > 0 && stored[k]!.height > 0)
        .map(({ image, k }) => {
          const at = packed.placements[k]!;
          // drawSheet turns a rotated frame clockwise: half a turn before it makes that counterclockwise.
          return { image: at.rotated && turn === 'counterclockwise' ? halfTurned(image, budget) : image, ...at, extrude };
        });
      return { file: atlasPageFile(base, page, s), image: drawSheet(items, p.width, p.height, budget) };
    });
    if (!pages.length) pages.push({ file: atlasPageFile(base, 0, s), image: createImage(1, 1) });
    const atlasFrames: AtlasFrame[] = entries.map((e) => {
      const f = frames[e.index]!;
      const pl = packed.placements[e.unique]!;
      const af: AtlasFrame = {
        name: f.name,
        page: pl.page,
        frame: { x: pl.x, y: pl.y, w: e.box.w, h: e.box.h },
        rotated: pl.rotated,
        trimmed: e.box.x !== 0 || e.box.y !== 0 || e.box.w !== e.canvas.w || e.box.h !== e.canvas.h,
        spriteSourceSize: { ...e.box },
        sourceSize: { ...e.canvas },
      };
      if (f.pivot) af.pivot = { ...f.pivot };
      const d = durations[e.index];
      if (d !== undefined) af.durationMs = d;
      const first = firstOf.get(e.unique)!;
      if (first !== e.index) af.aliasOf = first;
      return af;
    });
    const atlas: Atlas = { pages, frames: atlasFrames, animations: anims.map((a) => ({ ...a, frames: [...a.frames] })), scale: s };
    if (turn !== 'clockwise') atlas.turn = turn;
    return atlas;
  });
}

/** packRects over the stored images, its errors in the frames' words (the frame that does not fit, the page size to change). */
function packWithMessages(
  stored: readonly RgbaImage[],
  names: readonly string[],
  entries: readonly { index: number; unique: number }[],
  options: PackAtlasOptions,
) {
  const maxW = options.maxWidth ?? 0;
  const maxH = options.maxHeight ?? 0;
  const size = `${maxW || 'any'}x${maxH || 'any'}`;
  const extrude = options.extrude ?? 0;
  const pad = options.padding ?? 0;
  const border = options.border ?? 0;
  const limitW = maxW ? maxW - 2 * border : Infinity;
  const limitH = maxH ? maxH - 2 * border : Infinity;
  stored.forEach((img, k) => {
    if (!img.width || !img.height) return;
    const w = img.width + 2 * extrude;
    const h = img.height + 2 * extrude;
    const fits = (w <= limitW && h <= limitH) || (!!options.rotate && h <= limitW && w <= limitH);
    if (!fits) {
      const name = names[entries.find((e) => e.unique === k)!.index]!;
      throw new OptionError(
        `frame "${name}" (${img.width}x${img.height}) does not fit on a ${size} page: allow a larger page (--max-size)`,
      );
    }
  });
  try {
    return packRects(
      stored.map((img) => ({ w: img.width, h: img.height })),
      {
        padding: pad,
        border,
        extrude,
        rotate: !!options.rotate,
        pot: !!options.pot,
        square: !!options.square,
        maxWidth: maxW,
        maxHeight: maxH,
        multipack: !!options.multipack,
        ...(options.heuristic ? { heuristics: [options.heuristic] } : {}),
      },
    );
  } catch (e) {
    if (e instanceof OptionError && /do not fit on one/.test(e.message))
      throw new OptionError(
        `the ${stored.length} frames do not fit on one ${size} page: allow a larger page (--max-size) or pack onto several pages (--multipack)`,
      );
    throw e;
  }
}
