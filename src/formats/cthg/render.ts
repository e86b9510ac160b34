import { FormatError } from '../../binary/errors.js';
import { ANIMATION_OPTION, FRAME_OPTION, ORIGIN_OPTION } from '../selections.js';
import { OptionError } from '../../binary/errors.js';
import type { Rect } from '../../render/compose.js';
import type { RgbaImage } from '../../render/image.js';
import type { Matrix } from '../../render/matrix.js';
import { drawPicture, withOriginCross, type LazyImage, type Picture, type PictureFrame, type PicturePart } from '../../render/pipeline.js';
import { budgetFrom, limitsFrom } from '../../binary/limits.js';
import { foundResources, loadImage } from '../resources.js';
import type { CommandOptions, OptionSpec, RenderResult, RenderView, ResourceLoader } from '../types.js';
import {
  FLAG_ALPHA_50,
  FLAG_ALPHA_75,
  FLAG_FLIP_HORIZONTAL,
  FLAG_FLIP_VERTICAL,
  VIEWS,
  type CthgDocument,
  type CthgElement,
} from './model.js';
import { TICK_MS, TILE_SIZE_OPTION, VIEW_OPTION, selectView } from './play.js';
import { checkOptionValue, choiceOption, flagOption, intOption, parsedOption, selectIndex, stringOption } from '../options.js';
import { decodeSprite, recolourTableFromImage, type RecolourTable } from './rle.js';

export type FlipConvention = 'document' | 'corsixth';

export interface CthgDrawOptions {
  /** Layer class → selected layer id (decision 10); elements with layer id 0 always draw. */
  layers?: ReadonlyMap<number, number>;
  /** Recolour tables by layer number (decision 9); missing layers use the grey ramp. */
  tables?: ReadonlyMap<number, RecolourTable>;
  /** 'document' (default): 0x1 flips vertically, 0x2 horizontally; 'corsixth': the game's way, 0x1 horizontally. */
  flipConvention?: FlipConvention;
}

const SPRITE_OPTION: OptionSpec = { name: 'sprite', type: 'int', min: 0, description: 'CTHG: draw sprite N (0-based, file order) alone' };
const LAYERS_OPTION = {
  name: 'layers',
  type: 'string',
  value: 'CLASS=ID,...',
  description: 'CTHG: layer selection, class and id 0-255 (elements with layer id 0 always draw)',
  parse: parseLayers,
} as const satisfies OptionSpec;
const FLIP_OPTION = {
  name: 'flip-convention',
  type: 'string',
  choices: ['document', 'corsixth'],
  description: 'CTHG: "document" (0x1 flips vertically; default) or "corsixth" (0x1 flips horizontally, as the game does)',
} as const satisfies OptionSpec;
const RECOLOUR_OPTION = {
  name: 'recolour',
  type: 'string',
  value: 'LAYER=PALETTE.png,...',
  description: 'CTHG: recolour tables, layer 0-255 (first row of the image, 256 pixels)',
  parse: parseRecolour,
  paths: recolourPaths,
} as const satisfies OptionSpec;

export const RENDER_OPTIONS: readonly OptionSpec[] = [
  SPRITE_OPTION,
  ANIMATION_OPTION,
  TILE_SIZE_OPTION,
  VIEW_OPTION,
  FRAME_OPTION,
  LAYERS_OPTION,
  FLIP_OPTION,
  RECOLOUR_OPTION,
  ORIGIN_OPTION,
];

/** Whether an element draws under a layer selection (decision 10). */
export function elementVisible(e: CthgElement, layers?: ReadonlyMap<number, number>): boolean {
  return e.layerId === 0 || layers?.get(e.layerClass) === e.layerId;
}

/** Decision 8: 0x4 → 50 %, else 0x8 → 25 %, else opaque. */
export function elementOpacity(flags: number): number {
  if (flags & FLAG_ALPHA_50) return 0.5;
  if (flags & FLAG_ALPHA_75) return 0.25;
  return 1;
}

/** The bounding box of a frame's elements that have pixels (every element, whatever its layer), or null. */
export function frameBounds(doc: CthgDocument, frame: number): Rect | null {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const e of doc.frames[frame]!.elements) {
    if (e.sprite === null) continue;
    const s = doc.sprites[e.sprite]!;
    if (!s.width || !s.height) continue;
    x0 = Math.min(x0, e.x);
    y0 = Math.min(y0, e.y);
    x1 = Math.max(x1, e.x + s.width);
    y1 = Math.max(y1, e.y + s.height);
  }
  return x1 === -Infinity ? null : { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** Decodes each sprite once per render, when the pipeline first draws it (recoloured with `tables`). */
export class SpriteCache {
  private cache = new Map<number, LazyImage>();
  constructor(
    private doc: CthgDocument,
    private tables?: ReadonlyMap<number, RecolourTable>,
  ) {}
  get(i: number): LazyImage {
    let img = this.cache.get(i);
    if (!img) {
      const s = this.doc.sprites[i]!;
      const tables = this.tables;
      let decoded: RgbaImage | undefined;
      img = { width: s.width, height: s.height, pixels: () => (decoded ??= decodeSprite(s, tables)) };
      this.cache.set(i, img);
    }
    return img;
  }
}

/** What frame `frame` holds: its visible elements, in frame coordinates; its extent is every element with pixels. */
export function framePicture(
  doc: CthgDocument,
  frame: number,
  opts: CthgDrawOptions = {},
  cache = new SpriteCache(doc, opts.tables),
): PictureFrame {
  const corsix = opts.flipConvention === 'corsixth';
  const parts: PicturePart[] = [];
  for (const e of doc.frames[frame]!.elements) {
    if (e.sprite === null || !elementVisible(e, opts.layers)) continue;
    const s = doc.sprites[e.sprite]!;
    if (!s.width || !s.height) continue;
    const flipH = !!(e.flags & (corsix ? FLAG_FLIP_VERTICAL : FLAG_FLIP_HORIZONTAL));
    const flipV = !!(e.flags & (corsix ? FLAG_FLIP_HORIZONTAL : FLAG_FLIP_VERTICAL));
    const m: Matrix = [flipH ? -1 : 1, 0, 0, flipV ? -1 : 1, e.x + (flipH ? s.width : 0), e.y + (flipV ? s.height : 0)];
    parts.push({ image: cache.get(e.sprite), transform: m, opacity: elementOpacity(e.flags) });
  }
  return { parts, extent: frameBounds(doc, frame) };
}

/** One frame drawn through the pipeline, in the bounding box of its elements. */
export function renderFrame(doc: CthgDocument, frame: number, opts: CthgDrawOptions = {}): RgbaImage {
  const f = framePicture(doc, frame, opts);
  if (!f.extent) throw new FormatError('cthg', `frame ${frame} has no sprite pixels to draw`);
  return drawPicture({ frames: [f], what: `frame ${frame}` }).frames[0]!;
}

/** Parses `CLASS=ID,...` (both 0-255); throws an OptionError naming the bad pair. */
export function parseLayers(text: string): Map<number, number> {
  const m = new Map<number, number>();
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const mm = /^(\d+)=(\d+)$/.exec(part);
    if (!mm || Number(mm[1]) > 255 || Number(mm[2]) > 255) throw new OptionError(`"${part}" is not CLASS=ID with both 0-255`);
    m.set(Number(mm[1]), Number(mm[2]));
  }
  return m;
}

/** Parses `LAYER=PALETTE.png,...` (layer 0-255) into layer and path; throws an OptionError naming the bad pair. */
export function parseRecolour(text: string): Map<number, string> {
  const m = new Map<number, string>();
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const mm = /^(\d+)=(.+)$/.exec(part);
    if (!mm || Number(mm[1]) > 255) throw new OptionError(`"${part}" is not LAYER=PALETTE.png with the layer 0-255`);
    m.set(Number(mm[1]), mm[2]!);
  }
  return m;
}

/** Loads `LAYER=PALETTE.png,...` through the resource loader (paths as given: the command line made them absolute). */
export async function loadRecolourTables(
  text: string,
  resources: ResourceLoader,
  options?: CommandOptions,
): Promise<Map<number, RecolourTable>> {
  const m = new Map<number, RecolourTable>();
  const limits = limitsFrom(options);
  for (const [layer, path] of checkOptionValue(RECOLOUR_OPTION, text) as Map<number, string>) {
    const what = `--recolour palette for layer ${layer}`;
    const { image } = await loadImage(resources, { format: 'cthg', what, name: path }, limits);
    // A recolour table has 256 entries (the spec): a narrower palette would leave indices to the grey ramp, silently.
    if (image.width < 256)
      throw new FormatError(
        'cthg',
        `${what} "${resources.describe?.(path) ?? path}": its first row has ${image.width} colours; a recolour table has 256 (the palette image is at least 256 pixels wide)`,
      );
    m.set(layer, recolourTableFromImage(image));
  }
  return m;
}

/** The document names no file; the --recolour palettes given (`references`), by existence only. */
export async function cthgReferences(resources: ResourceLoader, options?: CommandOptions): Promise<string[]> {
  const text = stringOption(options, RECOLOUR_OPTION);
  if (text === undefined) return [];
  const layers = checkOptionValue(RECOLOUR_OPTION, text) as Map<number, string>;
  return foundResources(
    resources,
    [...layers].map(([layer, name]) => ({ format: 'cthg', what: `--recolour palette for layer ${layer}`, name })),
  );
}

/** The paths inside a --recolour value (LAYER=PATH,...), each rewritten by `resolve`. */
export function recolourPaths(value: string, resolve: (p: string) => string): string {
  return value
    .split(',')
    .map((part) => {
      const m = /^(\s*\d+\s*=\s*)(.*?)(\s*)$/.exec(part);
      return m?.[2] ? m[1] + resolve(m[2]) + m[3] : part;
    })
    .join(',');
}

/** `sprat render` for CTHG (see docs/spec/cthg.md): a sprite, a frame or a whole view, as a picture. */
export async function cthgPicture(doc: CthgDocument, options: CommandOptions, resources: ResourceLoader): Promise<Picture> {
  const flip = choiceOption(options, FLIP_OPTION) ?? 'document';
  const layers = parsedOption(options, LAYERS_OPTION);
  const recolourText = stringOption(options, RECOLOUR_OPTION);
  const opts: CthgDrawOptions = {
    flipConvention: flip,
    layers,
    tables: recolourText ? await loadRecolourTables(recolourText, resources, options) : undefined,
  };
  const cache = new SpriteCache(doc, opts.tables);
  const spriteN = intOption(options, SPRITE_OPTION);
  if (spriteN !== undefined) {
    if (stringOption(options, ANIMATION_OPTION) !== undefined || intOption(options, FRAME_OPTION) !== undefined) {
      throw new OptionError('option --sprite cannot be combined with --animation or --frame');
    }
    const s = doc.sprites[selectIndex('sprite', spriteN, doc.sprites.length, 'sprite', 'the file')]!;
    if (!s.width || !s.height) throw new FormatError('cthg', `sprite ${spriteN} is ${s.width}x${s.height}: it has no pixels to draw`);
    return { frames: [{ parts: [{ image: cache.get(spriteN) }] }], what: `sprite ${spriteN}` };
  }
  const sel = selectView(doc, options);
  const n = sel.animation.frameCount;
  // --origin: the frame's anchor (0, 0), where the game places the object's tile.
  const mark = (f: PictureFrame): PictureFrame => (flagOption(options, ORIGIN_OPTION) ? withOriginCross(f, 0, 0) : f);
  const k = intOption(options, FRAME_OPTION);
  if (k !== undefined) {
    selectIndex('frame', k, n, 'frame', `the ${sel.view} view of "${sel.animation.name}"`);
    const f = framePicture(doc, sel.first + k, opts, cache);
    if (!f.extent) throw new FormatError('cthg', `frame ${sel.first + k} has no sprite pixels to draw`);
    return { frames: [mark(f)], what: `frame ${sel.first + k}` };
  }
  const frames: PictureFrame[] = [];
  for (let i = 0; i < n; i++) frames.push({ ...framePicture(doc, sel.first + i, opts, cache), delayMs: TICK_MS });
  if (!frames.some((f) => f.extent))
    throw new FormatError('cthg', `the ${sel.view} view of "${sel.animation.name}" has no sprite pixels to draw`);
  const what = `the ${sel.view} view of "${sel.animation.name}"`;
  const marked = frames.map(mark);
  return n === 1 ? { frames: marked, what } : { frames: marked, loops: 0, what };
}

/** `sprat render` for CTHG, drawn through the pipeline. */
export async function renderCthg(doc: CthgDocument, options: CommandOptions, resources: ResourceLoader): Promise<RenderResult> {
  return drawPicture(await cthgPicture(doc, options, resources), budgetFrom(options));
}

/** What the viewer offers: every view of every animation (with its tile size when a name has several). */
export function cthgViews(doc: CthgDocument): RenderView[] {
  const out: RenderView[] = [];
  for (const a of doc.animations) {
    const sizes = doc.animations.filter((b) => b.name === a.name).length > 1;
    for (const v of VIEWS) {
      if (a.views[v] === null) continue;
      const options: CommandOptions = { animation: a.name, view: v };
      if (sizes) options['tile-size'] = String(a.tileSize);
      out.push({ label: `${a.name} (${v}${sizes ? `, ${a.tileSize}` : ''})`, options });
    }
  }
  return out;
}
