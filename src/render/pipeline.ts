/**
 * The one picture pipeline. A format describes what each frame of a picture
 * holds (a `Picture`: parts, each an image, a source rectangle, a transform
 * and an opacity; optionally overlays such as shape outlines and labels; and
 * the frame's delay), and `drawPicture` turns the description into images.
 * `sprat render`, the sheets `convert` bakes and the viewer all draw here,
 * so they draw the same pixels with the same timing.
 *
 * The rules, once for every format:
 * - Canvas: `picture.canvas` when given (as is), else the union of every
 *   frame's extent (`frame.extent`, else the pixels its parts and overlays
 *   can touch), at least 1 × 1. Every frame is drawn on a canvas of that size,
 *   picture coordinates (0, 0) at (-canvas.x, -canvas.y).
 * - Budgets (src/binary/limits.ts): the canvases of all frames together
 *   (and every lazily decoded part image) are spent from `maxPixels`
 *   before anything is allocated; the destination area of every draw
 *   (clipped to the canvas, at least MIN_DRAW_CHARGE pixels for a draw that
 *   touches any: a draw's set-up costs about that much) is spent from `maxDrawPixels` before it is
 *   drawn: for frames that list their parts, all of them at once before
 *   the first draw; for parts given by a generator (a level's cells), each
 *   just before it is drawn. Either runs out with a LimitError naming its
 *   `--max-*` option. CPU work beyond plain compositing is spent from
 *   `maxWork` at the same moments: blend-mode draws (their area times
 *   WORK_STEPS.blendPixel) and what painted parts measure they cost
 *   (`PicturePart.cost`: Tiled's shapes).
 * - Timing: a picture with `loops` set is an animation: the result carries
 *   `loops` and one delay per frame (the frame's `delayMs`; missing, not
 *   finite or negative: 0). Without `loops` it is a still picture (no
 *   delays). `nextFrame` is the one rule for what plays after a frame.
 */
import { Budget, WORK_STEPS } from '../binary/limits.js';
import type { RenderResult } from './image.js';
import { composeSimdAvailable, drawBounds, drawImage, type DrawOptions, type Rect } from './compose.js';
import { drawText, GLYPH_HEIGHT, textWidth } from './font.js';
import { createCanvasImage, createImage, fillImage, placeOnCanvas, type RgbaImage } from './image.js';
import { applyMatrix, IDENTITY, multiply, translate, type Matrix } from './matrix.js';

export type Rgba = readonly [number, number, number, number];

/** An image decoded only when the pipeline draws it (after its budget is spent): CTHG sprites. */
export interface LazyImage {
  width: number;
  height: number;
  /** Decodes (or returns the cached) pixels; `width` × `height`. */
  pixels(): RgbaImage;
}

/**
 * One image drawn into a frame, as drawImage draws it: the source rectangle
 * (default: the whole image), a transform from source-rectangle pixels to
 * picture coordinates, opacity and filter (default nearest).
 */
export interface PicturePart extends DrawOptions {
  image: RgbaImage | LazyImage;
  /** A level's layer the part belongs to (an index into `Picture.layers`): hidden or faded by the layer choices. */
  layer?: number;
  /**
   * Paints the part straight onto the frame instead of drawing its image (which then only gives the
   * box it covers, for the canvas and budgets): dst's pixel (0, 0) is picture point (x0, y0), `opacity`
   * the part's. Tiled's shape objects, blended onto what lies below as Qt blends them.
   */
  paint?(dst: RgbaImage, x0: number, y0: number, opacity: number): void;
  /**
   * What `paint` costs beyond the part's area (its raster passes: the boxes they cover as draw pixels,
   * the cells and outline points as work steps), measured without painting: the pipeline spends it
   * before the part is painted, with the rest of the frame's draws.
   */
  cost?(workLeft?: number): DrawCost;
}

/** What a draw costs: pixels drawn (`maxDrawPixels`) and work steps (`maxWork`, WORK_STEPS). */
export interface DrawCost {
  pixels: number;
  work: number;
}

/** Drawn over the parts, in picture coordinates. */
export type Overlay =
  /** A one-pixel line (shape outlines). */
  | { kind: 'line'; x0: number; y0: number; x1: number; y1: number; colour: Rgba }
  /** A label in the built-in bitmap font, its upper-left corner at (x, y). */
  | { kind: 'text'; x: number; y: number; text: string; colour: Rgba };

export interface PictureFrame {
  /** Drawn in order, first at the back. Any iterable: a level can give its cells as they are drawn, without a list. */
  parts: Iterable<PicturePart>;
  overlays?: Overlay[];
  /** The frame's box in picture coordinates when it is not what its parts and overlays touch (null: nothing). */
  extent?: Rect | null;
  /** How long the frame shows in an animation, in milliseconds. */
  delayMs?: number;
  /**
   * For `parts` given by a generator: the parts among them whose drawing costs beyond their area
   * (painted shapes, blend modes), listed, so that they are paid for before anything is drawn (each
   * still comes through `parts`, the same object, and is not spent again).
   */
  costly?: readonly PicturePart[];
}

/**
 * One layer of a level as the picture draws it (for the layer choices and
 * the viewer's cell inspector), in picture coordinates.
 */
export interface PictureLayer {
  name: string;
  /**
   * A grid of cells: column c covers x + c * cellWidth onwards, row r covers y + r * cellHeight onwards;
   * when `bottomUp`, y is the grid's bottom edge and row r covers y - (r + 1) * cellHeight onwards.
   */
  grid?: { x: number; y: number; cellWidth: number; cellHeight: number; columns: number; rows: number; bottomUp?: boolean };
  /** The fields of the cell at (column, row), or undefined for an empty one. */
  cell?(column: number, row: number): Record<string, unknown> | undefined;
  /** Things placed on the layer (map objects): their boxes and fields. */
  objects?: { x: number; y: number; width: number; height: number; fields: Record<string, unknown> }[];
  /** Not drawn whatever the layer choices (an Aseprite layer the file hides, a reference layer). */
  hidden?: boolean;
  /** The index of the group layer holding it (an Aseprite group): hiding the group hides it too. */
  parent?: number;
}

export interface Picture {
  frames: PictureFrame[];
  /** A level's layers, which parts name by index (`PicturePart.layer`). */
  layers?: PictureLayer[];
  /** The canvas in picture coordinates (default: the union of the frames' extents). */
  canvas?: Rect;
  /** Every canvas is filled with this colour first (default: transparent). */
  background?: Rgba;
  /** Set for an animation: how many times it plays (0 = forever, 1 = once). */
  loops?: number;
  /** What the picture is, for limit messages ("the picture" by default). */
  what?: string;
  /** The format applied `--hide-layers` / `--layer-opacity` itself, in its own syntax (Aseprite layer names): not applied again. */
  ownLayerChoices?: boolean;
  /** What the user should know about how it was drawn (`render` prints each as a note). */
  notes?: string[];
  /** What could not be drawn (a missing file, each named once): `render` prints each as a warning. */
  warnings?: string[];
}

/** The pixel size of a part's image without decoding it. */
function sizeOf(image: RgbaImage | LazyImage): { width: number; height: number } {
  return image;
}

function isLazy(image: RgbaImage | LazyImage): image is LazyImage {
  return typeof (image as LazyImage).pixels === 'function';
}

/** The integer rectangle a part can touch in picture coordinates, or null. */
export function partBounds(p: PicturePart): Rect | null {
  const { width, height } = sizeOf(p.image);
  // drawBounds only reads the size (and the source rectangle, transform).
  return drawBounds({ width, height, data: EMPTY }, { sx: p.sx, sy: p.sy, sw: p.sw, sh: p.sh, transform: p.transform });
}

const EMPTY = new Uint8Array(0);

function union(a: Rect | null, b: Rect | null): Rect | null {
  if (!a) return b;
  if (!b) return a;
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y };
}

function overlayBounds(o: Overlay): Rect {
  if (o.kind === 'text') return { x: o.x, y: o.y, width: textWidth(o.text), height: GLYPH_HEIGHT };
  const x = Math.min(o.x0, o.x1);
  const y = Math.min(o.y0, o.y1);
  return { x, y, width: Math.abs(o.x1 - o.x0), height: Math.abs(o.y1 - o.y0) };
}

/** A frame's box in picture coordinates (its extent, else what its parts and overlays touch), or null. */
export function frameExtent(f: PictureFrame): Rect | null {
  if (f.extent !== undefined) return f.extent;
  let r: Rect | null = null;
  for (const p of f.parts) r = union(r, partBounds(p));
  for (const o of f.overlays ?? []) r = union(r, overlayBounds(o));
  return r;
}

/** The canvas every frame of the picture is drawn on, in picture coordinates (whole pixels, at least 1 × 1). */
export function pictureCanvas(picture: Picture): Rect {
  const given = picture.canvas;
  let box: Rect | null = given ?? null;
  if (!box) for (const f of picture.frames) box = union(box, frameExtent(f));
  if (!box) return { x: 0, y: 0, width: 1, height: 1 };
  const x = Math.floor(box.x);
  const y = Math.floor(box.y);
  const min = given ? 0 : 1;
  return { x, y, width: Math.max(min, Math.ceil(box.x + box.width) - x), height: Math.max(min, Math.ceil(box.y + box.height) - y) };
}

/** The destination pixels a draw touches on a canvas of w × h (its clipped bounding box). */
function clippedArea(b: Rect | null, w: number, h: number): number {
  if (!b) return 0;
  const x0 = Math.max(0, b.x);
  const y0 = Math.max(0, b.y);
  const x1 = Math.min(w, b.x + b.width);
  const y1 = Math.min(h, b.y + b.height);
  return x1 > x0 && y1 > y0 ? (x1 - x0) * (y1 - y0) : 0;
}

function plot(img: RgbaImage, x: number, y: number, c: Rgba): void {
  x = Math.round(x);
  y = Math.round(y);
  if (x < 0 || y < 0 || x >= img.width || y >= img.height) return;
  img.data.set(c, (y * img.width + x) * 4);
}

function lineSteps(o: { x0: number; y0: number; x1: number; y1: number }): number {
  return Math.max(1, Math.ceil(Math.max(Math.abs(o.x1 - o.x0), Math.abs(o.y1 - o.y0))));
}

function drawOverlay(img: RgbaImage, o: Overlay, dx: number, dy: number): void {
  if (o.kind === 'text') {
    drawText(img, o.x + dx, o.y + dy, o.text, [...o.colour]);
    return;
  }
  const n = lineSteps(o);
  const x0 = o.x0 + dx;
  const y0 = o.y0 + dy;
  const x1 = o.x1 + dx;
  const y1 = o.y1 + dy;
  for (let i = 0; i <= n; i++) plot(img, x0 + ((x1 - x0) * i) / n, y0 + ((y1 - y0) * i) / n, o.colour);
}

/**
 * The pixels of a part's image, decoding a lazy one once (its pixels spent
 * from maxPixels first); with a surface (see drawPicture), the images chosen
 * for it are copied into its memory once, on first use, and drawn from there.
 */
class Sources {
  private decoded = new Map<LazyImage, RgbaImage>();
  private placed = new Map<RgbaImage | LazyImage, RgbaImage>();
  constructor(
    private budget: Budget,
    private surface: RgbaImage | null = null,
    private toPlace: ReadonlySet<RgbaImage | LazyImage> = new Set(),
  ) {}
  get(image: RgbaImage | LazyImage): RgbaImage {
    const done = this.placed.get(image);
    if (done) return done;
    let img: RgbaImage | undefined;
    if (!isLazy(image)) img = image;
    else {
      img = this.decoded.get(image);
      if (!img) {
        this.budget.spend('maxPixels', image.width * image.height, `an image of ${image.width}x${image.height}`);
        img = image.pixels();
        this.decoded.set(image, img);
      }
    }
    if (this.surface && this.toPlace.has(image)) {
      // A snapshot: the picture is drawn in one call, during which nobody changes its images.
      img = placeOnCanvas(this.surface, img);
      this.placed.set(image, img);
    }
    return img;
  }
}

/** Draws at least this big (destination pixels) make a picture worth drawing on a surface (the SIMD kernels take them). */
const SURFACE_MIN_DRAW = 4096;
/** Sources placed in a surface's memory: at most this many bytes together. */
const SURFACE_MAX_SOURCE_BYTES = 64 << 20;
/** Canvases bigger than this (pixels) are drawn where they go: a surface would add as much memory again. */
const SURFACE_MAX_PIXELS = 16 << 20;

/**
 * Where the SIMD kernels can draw a picture's frames in place: one canvas
 * image (createCanvasImage) for all of them, each frame drawn there and
 * copied out, with the part images that pay for it (the texels big draws
 * take from them add up to at least the image: copying it once costs no
 * more than copying those texels for each draw) placed in its memory. Null
 * when no draw is big enough, when the parts come from a generator, for a
 * canvas over SURFACE_MAX_PIXELS, or without WebAssembly SIMD. The frames
 * get the same pixels either way.
 */
function pictureSurface(picture: Picture, c: Rect): { surface: RgbaImage; toPlace: Set<RgbaImage | LazyImage> } | null {
  if (c.width * c.height > SURFACE_MAX_PIXELS || !composeSimdAvailable()) return null;
  const shift = translate(-c.x, -c.y);
  const taken = new Map<RgbaImage | LazyImage, number>();
  let big = false;
  for (const f of picture.frames) {
    if (!Array.isArray(f.parts)) return null;
    for (const p of f.parts as PicturePart[]) {
      if (p.blend) continue; // Aseprite's blend modes are drawn in JavaScript
      if (drawArea(p, shift, c.width, c.height).area < SURFACE_MIN_DRAW) continue;
      big = true;
      const { width, height } = sizeOf(p.image);
      const sx = Math.max(0, Math.floor(p.sx ?? 0));
      const sy = Math.max(0, Math.floor(p.sy ?? 0));
      const sw = Math.min(width, Math.floor((p.sx ?? 0) + (p.sw ?? width))) - sx;
      const sh = Math.min(height, Math.floor((p.sy ?? 0) + (p.sh ?? height))) - sy;
      if (sw > 0 && sh > 0) taken.set(p.image, (taken.get(p.image) ?? 0) + sw * sh);
    }
  }
  if (!big) return null;
  const toPlace = new Set<RgbaImage | LazyImage>();
  let bytes = 0;
  for (const [image, texels] of taken) {
    const { width, height } = sizeOf(image);
    const n = width * height * 4;
    if (texels < width * height || bytes + n + 32 > SURFACE_MAX_SOURCE_BYTES) continue;
    toPlace.add(image);
    bytes += n + 32;
  }
  const surface = createCanvasImage(c.width, c.height, bytes);
  // No WebAssembly memory to be had: a plain image, no better than drawing each frame where it goes.
  if (surface.data.buffer.byteLength === surface.data.length) return null;
  return { surface, toPlace };
}

/**
 * What one draw that touches any pixel costs from `maxDrawPixels` at least:
 * setting a draw up costs about as much as compositing this many pixels, so
 * 12 million one-pixel cells of a level are not 12 million pixels of work.
 */
export const MIN_DRAW_CHARGE = 1024;

/**
 * What drawing `p` costs on a w × h canvas whose (0, 0) is picture coordinates
 * (ox, oy): the destination pixels it touches, at least MIN_DRAW_CHARGE; 0 when it draws nothing.
 */
function drawArea(p: PicturePart, shift: Matrix, w: number, h: number): { area: number; transform: Matrix } {
  const transform = multiply(shift, p.transform ?? IDENTITY);
  if ((p.opacity ?? 1) <= 0) return { area: 0, transform };
  const area = clippedArea(partBounds({ ...p, transform }), w, h);
  return { area: area > 0 ? Math.max(area, MIN_DRAW_CHARGE) : 0, transform };
}

/** A part's draw pixels (its area and what its painting adds) and work steps (blend modes, painting), for a draw of `area`. */
function partCost(p: PicturePart, area: number, workLeft = Number.POSITIVE_INFINITY): DrawCost {
  if (area === 0) return { pixels: 0, work: 0 };
  // Aseprite's blend modes are composited pixel by pixel in JavaScript (compose.ts blendDraw).
  let work = p.blend ? area * WORK_STEPS.blendPixel : 0;
  let pixels = area;
  if (p.paint && p.cost) {
    // (measured no further than the work left: past it the spend fails anyway)
    const c = p.cost(workLeft - work);
    pixels += c.pixels;
    work += c.work;
  }
  return { pixels, work };
}

function overlayArea(o: Overlay): number {
  return o.kind === 'text' ? textWidth(o.text) * GLYPH_HEIGHT : lineSteps(o) + 1;
}

/**
 * Draws one frame onto `image`, whose (0, 0) is picture coordinates (ox,
 * oy). With `prepaid` the draws were already spent (see drawPicture);
 * otherwise each is spent just before it is drawn.
 */
function drawFrameOnto(
  image: RgbaImage,
  f: PictureFrame,
  ox: number,
  oy: number,
  budget: Budget,
  sources: Sources,
  what: string,
  prepaid: boolean,
  paidParts: ReadonlySet<PicturePart> = new Set(),
): void {
  const shift: Matrix = translate(-ox, -oy);
  for (const p of f.parts) {
    const { area, transform } = drawArea(p, shift, image.width, image.height);
    if (area === 0) continue;
    if (!prepaid && !paidParts.has(p)) {
      spendDrawCost(budget, partCost(p, area, budget.left('maxWork')), `drawing ${what}`);
    }
    if (p.paint) {
      p.paint(image, ox, oy, p.opacity ?? 1);
      continue;
    }
    drawImage(image, sources.get(p.image), {
      sx: p.sx,
      sy: p.sy,
      sw: p.sw,
      sh: p.sh,
      transform,
      opacity: p.opacity,
      filter: p.filter,
      blend: p.blend,
    });
  }
  for (const o of f.overlays ?? []) {
    if (!prepaid) budget.spend('maxDrawPixels', overlayArea(o), `drawing ${what}`);
    drawOverlay(image, o, -ox, -oy);
  }
}

/** Adds to `sum` what drawing `parts` on the canvas `c` costs (partCost), measured no further than `workLeft`. */
function addPartsCost(sum: DrawCost, parts: Iterable<PicturePart>, c: Rect, workLeft: number): void {
  const shift = translate(-c.x, -c.y);
  for (const p of parts) {
    const cost = partCost(p, drawArea(p, shift, c.width, c.height).area, workLeft - sum.work);
    sum.pixels += cost.pixels;
    sum.work += cost.work;
  }
}

/** Spends a draw's cost: its pixels from maxDrawPixels, its work from maxWork. */
export function spendDrawCost(budget: Budget, cost: DrawCost, what: string): void {
  budget.spend('maxDrawPixels', cost.pixels, what);
  budget.spend('maxWork', cost.work, what);
}

/** The draw pixels and work steps of every frame together, when every frame lists its parts (not a generator); else null. */
function totalDrawCost(picture: Picture, c: Rect, workLeft: number): DrawCost | null {
  const sum: DrawCost = { pixels: picture.background ? c.width * c.height * picture.frames.length : 0, work: 0 };
  for (const f of picture.frames) {
    if (!Array.isArray(f.parts)) return null;
    addPartsCost(sum, f.parts as PicturePart[], c, workLeft);
    for (const o of f.overlays ?? []) sum.pixels += overlayArea(o);
  }
  return sum;
}

export interface DrawnPicture extends RenderResult {
  /** Where picture coordinates (0, 0) land in every frame. */
  originX: number;
  originY: number;
}

/** The delay the timing rule gives a frame (ms): its delayMs when finite and not negative, else 0. */
export function frameDelay(f: PictureFrame): number {
  const d = f.delayMs ?? 0;
  return Number.isFinite(d) && d > 0 ? d : 0;
}

/**
 * Draws every frame of a picture: the canvas (see the rules at the top),
 * budgets spent before allocating and before each draw. The one path from
 * a picture description to pixels.
 */
export function drawPicture(picture: Picture, budget: Budget = new Budget()): DrawnPicture {
  const what = picture.what ?? 'the picture';
  const c = pictureCanvas(picture);
  const n = picture.frames.length;
  const many = n === 1 ? `${c.width}x${c.height}` : `${n} frames of ${c.width}x${c.height}`;
  budget.spend('maxPixels', c.width * c.height * n, `${what} (${many})`);
  // Listed parts are paid for all at once, before anything is drawn (a hostile file fails at once).
  const total = totalDrawCost(picture, c, budget.left('maxWork'));
  const paidParts = new Set<PicturePart>();
  if (total !== null) spendDrawCost(budget, total, `drawing ${what} (${many})`);
  else {
    // A generator's costly parts (listed beside it) are paid for now, with the background.
    const sum: DrawCost = { pixels: picture.background ? c.width * c.height * n : 0, work: 0 };
    const workLeft = budget.left('maxWork');
    for (const f of picture.frames) {
      addPartsCost(sum, f.costly ?? [], c, workLeft);
      for (const p of f.costly ?? []) paidParts.add(p);
    }
    spendDrawCost(budget, sum, `drawing ${what}`);
  }
  const onSurface = total !== null ? pictureSurface(picture, c) : null;
  const surface = onSurface?.surface ?? null;
  const sources = new Sources(budget, surface, onSurface?.toPlace);
  const frames = picture.frames.map((f) => {
    const image = createImage(c.width, c.height);
    // Drawn on the surface (in place) and copied out, or where it goes.
    const canvas = surface ?? image;
    if (surface) surface.data.fill(0);
    const bg = picture.background;
    if (bg) fillImage(canvas, bg[0], bg[1], bg[2], bg[3]);
    drawFrameOnto(canvas, f, c.x, c.y, budget, sources, what, total !== null, paidParts);
    if (surface) image.data.set(surface.data);
    return image;
  });
  const out: DrawnPicture = { frames, originX: 0 - c.x, originY: 0 - c.y };
  if (picture.what !== undefined) out.what = picture.what;
  if (picture.notes?.length) out.notes = picture.notes;
  if (picture.warnings?.length) out.warnings = picture.warnings;
  if (picture.loops !== undefined) {
    out.delaysMs = picture.frames.map(frameDelay);
    out.loops = picture.loops;
  }
  return out;
}

/**
 * The frame that plays after `frame` in a drawn animation of `count` frames
 * (the one timing rule, for the viewer): the next, then back to the first
 * when it loops, or null when it stops.
 */
export function nextFrame(frame: number, count: number, loops: number | undefined): number | null {
  if (frame + 1 < count) return frame + 1;
  return loops === undefined || loops === 1 || count < 2 ? null : 0;
}

/**
 * A level drawn with some layers hidden and others faded (`--hide-layers`,
 * `--layer-opacity`): the parts of a hidden layer are left out, those of a
 * faded one drawn at that opacity. Parts listed stay listed (paid for at
 * once); parts from a generator stay a generator.
 */
export function withLayerChoices(picture: Picture, hidden: ReadonlySet<number>, opacity: ReadonlyMap<number, number>): Picture {
  if (!hidden.size && !opacity.size) return picture;
  const choose = (p: PicturePart): PicturePart | null => {
    if (p.layer === undefined) return p;
    if (hidden.has(p.layer)) return null;
    const o = opacity.get(p.layer);
    return o === undefined ? p : { ...p, opacity: (p.opacity ?? 1) * o };
  };
  const frames = picture.frames.map((f): PictureFrame => {
    const parts = f.parts;
    if (Array.isArray(parts)) return { ...f, parts: (parts as PicturePart[]).map(choose).filter((p) => p !== null) };
    // The costly parts chosen once, so that the generator gives the very objects listed.
    const costly = new Map((f.costly ?? []).map((p) => [p, choose(p)] as const));
    function* chosen(): Generator<PicturePart> {
      for (const p of parts) {
        const c = costly.has(p) ? costly.get(p)! : choose(p);
        if (c) yield c;
      }
    }
    const listed = [...costly.values()].filter((p) => p !== null);
    return { ...f, parts: { [Symbol.iterator]: chosen }, ...(f.costly ? { costly: listed } : {}) };
  });
  return { ...picture, frames };
}

/** A solid colour as an image to draw as a part (one pixel, scaled by the part's transform). */
export function solidImage(r: number, g: number, b: number, a = 255): RgbaImage {
  const img = createImage(1, 1);
  img.data.set([r, g, b, a]);
  return img;
}

/** The colour of origin crosses (`--origin`). */
export const ORIGIN_COLOUR: Rgba = [255, 0, 255, 255];

/**
 * `--origin`: a frame with a 5-pixel magenta cross on the point (x, y), its
 * extent (when it has one) grown to hold the cross.
 */
export function withOriginCross(f: PictureFrame, x: number, y: number): PictureFrame {
  const cross: Overlay[] = [
    { kind: 'line', x0: x - 2, y0: y, x1: x + 2, y1: y, colour: ORIGIN_COLOUR },
    { kind: 'line', x0: x, y0: y - 2, x1: x, y1: y + 2, colour: ORIGIN_COLOUR },
  ];
  const extent = f.extent === undefined ? undefined : union(f.extent, { x: x - 2, y: y - 2, width: 5, height: 5 });
  return { ...f, overlays: [...(f.overlays ?? []), ...cross], ...(extent !== undefined ? { extent } : {}) };
}

/** The outline of a w × h rectangle under m, as four lines. */
export function rectOutline(m: Matrix, w: number, h: number, colour: Rgba): Overlay[] {
  const pts = [applyMatrix(m, 0, 0), applyMatrix(m, w, 0), applyMatrix(m, w, h), applyMatrix(m, 0, h)];
  return pts.map((p, i) => {
    const q = pts[(i + 1) % 4]!;
    return { kind: 'line', x0: p[0], y0: p[1], x1: q[0], y1: q[1], colour };
  });
}
