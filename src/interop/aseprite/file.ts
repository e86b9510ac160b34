/**
 * The native Aseprite file (`.aseprite`, `.ase`) as a format: read by
 * ase.ts, drawn as Aseprite flattens its visible layers (src/render/blend.ts
 * through the one pipeline), and converted through the common model as the
 * Aseprite JSON export is (tags -> animations, the "origin" slice's pivot
 * -> the origin).
 *
 * Flattening, as Aseprite 1.3's renderer does it (src/render/render.cpp,
 * src/doc/render_plan.cpp) with its default preferences (new blend method,
 * groups composed only when the file says so):
 * - The layers are ordered by layer index + the cel's z-index (ties: the
 *   smaller z-index first), then hidden layers (or inside a hidden group)
 *   and reference layers are left out. Background layers are drawn first.
 * - Each cel is blended with its layer's blend mode at cel opacity × layer
 *   opacity (MUL_UN8). Layer opacity counts when header flag 1 is set;
 *   background layers are normal and opaque.
 * - Groups: with header flag 2 ("composite groups"), a group's children are
 *   drawn into their own transparent image, which is blended with the
 *   group's mode and opacity; without it (Aseprite's default), the children
 *   are drawn as if the group were not there (only its visibility counts).
 * - Indexed sprites: pixels of the transparent index are left out, and when
 *   a visible background layer exists the canvas starts as that palette
 *   entry; each frame uses the palette in force at it.
 * - Tilemap layers: their tiles are drawn from the tileset (empty tile 0,
 *   x/y/diagonal flips, the diagonal first as Tiled does).
 */
import { type Diagnostic, diagnostic, diagnosticFromError, FormatError, isFormatError, printableLines } from '../../binary/errors.js';
import { ANIMATION_OPTION, FRAME_OPTION, PLAY_MS_OPTION, PLAY_STEP_MS_OPTION } from '../../formats/selections.js';
import { type Budget, budgetFrom, LimitError } from '../../binary/limits.js';
import type { CommandOptions, FormatHandler, OptionSpec, RenderView } from '../../formats/types.js';
import { intOption, namesNothing, parsedOption, selectIndex, selectNamed, stringOption } from '../../formats/options.js';
import type { ModelLayer, SpriteModel } from '../../model/types.js';
import { mulUn8 } from '../../render/blend.js';
import { createImage, type RgbaImage } from '../../render/image.js';
import { scale, translate } from '../../render/matrix.js';
import { drawPicture, type Picture, type PictureFrame, type PictureLayer, type PicturePart, solidImage } from '../../render/pipeline.js';
import type { SheetJsonFrame } from '../sheetjson.js';
import { type AseCel, type AseDoc, type AseLayer, type AseUserData, ASE_FORMAT, celImage, readAse, sniffAse, tilesetImage } from './ase.js';
import { type AsepriteDoc, type AsepriteTag, asepriteModel, tagPlayback } from './index.js';
import { playAseprite } from './play.js';

/** `--hide-layers`: layers by number (as inspect lists them, groups included), name or group path. */
export const ASE_HIDE_LAYERS_OPTION: OptionSpec = {
  name: 'hide-layers',
  type: 'string',
  value: 'LAYER,...',
  description:
    'leave out these layers: numbers from 0 (as inspect lists them, groups included), names or group paths (Body/Arm); a hidden group hides its children',
  parse(text: string): string[] | undefined {
    const out = text.split(',').map((t) => t.trim());
    return out.every((t) => t.length > 0) ? out : undefined;
  },
};

/** `--layer-opacity LAYER=OPACITY,...`: layers drawn faded (a group fades its children). */
export const ASE_LAYER_OPACITY_OPTION: OptionSpec = {
  name: 'layer-opacity',
  type: 'string',
  value: 'LAYER=OPACITY,...',
  description: 'draw these layers (numbers, names or group paths) at this opacity, 0 to 1, times their own',
  parse(text: string): [string, number][] | undefined {
    const out: [string, number][] = [];
    for (const part of text.split(',')) {
      const m = /^\s*(.+?)\s*=\s*(\d+(?:\.\d*)?|\.\d+)\s*$/.exec(part);
      if (!m || Number(m[2]) > 1) return undefined;
      out.push([m[1]!, Number(m[2])]);
    }
    return out;
  },
};

/** The layer options of `render`, `convert` and the viewer. */
export const ASE_LAYER_OPTIONS: readonly OptionSpec[] = [ASE_HIDE_LAYERS_OPTION, ASE_LAYER_OPACITY_OPTION];

/** Groups shown above a layer in its displayed path (a deeper one starts with "…/"): deep nesting stays linear. */
const SHOWN_DEPTH = 8;

/** Each layer's path as shown (the viewer's list, messages): its groups' names and its own, joined by "/". */
export function aseLayerPaths(doc: AseDoc): string[] {
  return doc.layers.map((l) => {
    const names = [l.name];
    let p = l.parent;
    while (p !== null && names.length <= SHOWN_DEPTH) {
      const g = doc.layers[p];
      if (!g) break;
      names.unshift(g.name);
      p = g.parent;
    }
    if (p !== null) names.unshift('…');
    return names.join('/');
  });
}

/** Whether the path of layer `i` from the top is exactly `segments` (walks up at most that many groups). */
function pathIs(doc: AseDoc, i: number, segments: readonly string[]): boolean {
  let at: number | null = i;
  for (let k = segments.length - 1; k >= 0; k--) {
    const l: AseLayer | undefined = at === null ? undefined : doc.layers[at];
    if (!l || l.name !== segments[k]) return false;
    at = l.parent;
  }
  return at === null;
}

/** The layers `item` names: a number (from 0), else every layer of that name or path from the top. */
function layersNamed(doc: AseDoc, item: string, option: string): number[] {
  if (/^\d{1,9}$/.test(item)) return [selectIndex(option, Number(item), doc.layers.length, 'layer', 'the sprite')];
  const segments = item.split('/');
  const found: number[] = [];
  doc.layers.forEach((l, i) => {
    if (l.name === item || (segments.length > 1 && pathIs(doc, i, segments))) found.push(i);
  });
  if (!found.length) throw namesNothing(option, item, 'layer', 'the sprite', aseLayerPaths(doc));
  return found;
}

/** The layer choices of `--hide-layers` and `--layer-opacity`, by layer index. */
export interface AseLayerChoices {
  hidden: Set<number>;
  opacity: Map<number, number>;
}

export function aseLayerChoices(doc: AseDoc, options: CommandOptions | undefined): AseLayerChoices {
  const out: AseLayerChoices = { hidden: new Set(), opacity: new Map() };
  const hide = parsedOption(options, ASE_HIDE_LAYERS_OPTION as OptionSpec & { parse(t: string): string[] | undefined });
  const fade = parsedOption(options, ASE_LAYER_OPACITY_OPTION as OptionSpec & { parse(t: string): [string, number][] | undefined });
  if (!hide && !fade) return out;
  for (const item of hide ?? []) for (const i of layersNamed(doc, item, 'hide-layers')) out.hidden.add(i);
  for (const [item, v] of fade ?? []) for (const i of layersNamed(doc, item, 'layer-opacity')) out.opacity.set(i, v);
  return out;
}

const NO_CHOICES: AseLayerChoices = { hidden: new Set(), opacity: new Map() };

interface LayerTree {
  children: number[][];
  top: number[];
  visible: boolean[];
  /** The opacity the layer choices give each layer (1: as the file says); without composed groups, times its groups'. */
  fade: number[];
}

/**
 * Each layer's children, the top layers, and whether each layer and all its
 * groups are visible (parents come before children), after the layer choices.
 */
function layerTree(doc: AseDoc, choices: AseLayerChoices = NO_CHOICES): LayerTree {
  const children: number[][] = doc.layers.map(() => []);
  const top: number[] = [];
  const visible: boolean[] = [];
  const fade: number[] = [];
  const compose = (doc.header.flags & 2) !== 0;
  doc.layers.forEach((l, i) => {
    const p = l.parent;
    (p === null ? top : children[p]!).push(i);
    visible.push(l.visible && !choices.hidden.has(i) && (p === null || visible[p]!));
    fade.push((choices.opacity.get(i) ?? 1) * (p === null || compose ? 1 : fade[p]!));
  });
  return { children, top, visible, fade };
}

/** A cache of each frame's cels by layer. */
const celCache = new WeakMap<AseDoc['frames'][number], Map<number, AseCel>>();

function celOf(doc: AseDoc, frame: number, layer: number): AseCel | undefined {
  const f = doc.frames[frame];
  if (!f) return undefined;
  let m = celCache.get(f);
  if (!m) {
    m = new Map();
    // The first cel of a layer in a frame counts.
    for (const c of f.cels) if (!m.has(c.layer)) m.set(c.layer, c);
    celCache.set(f, m);
  }
  return m.get(layer);
}

interface PlanItem {
  order: number;
  layer: number;
  cel: AseCel | undefined;
}

/**
 * Aseprite's RenderPlan at `frame`, z-ordered, visible layers only: without
 * composed groups, every image layer of the sprite (a layer's order is its
 * index: the file lists layers in the plan's order); with them, the children
 * of `parent` (null: the top), numbered among themselves.
 */
function renderPlan(doc: AseDoc, t: LayerTree, parent: number | null, frame: number, compose: boolean): PlanItem[] {
  const items: PlanItem[] = [];
  if (!compose) {
    doc.layers.forEach((l, i) => {
      if (l.type !== 'group') items.push({ order: i, layer: i, cel: celOf(doc, frame, i) });
    });
  } else {
    (parent === null ? t.top : t.children[parent]!).forEach((li, k) => {
      items.push({ order: k, layer: li, cel: doc.layers[li]!.type === 'group' ? undefined : celOf(doc, frame, li) });
    });
  }
  const z = (i: PlanItem) => i.cel?.zIndex ?? 0;
  if (items.some((i) => z(i) !== 0)) {
    for (const i of items) i.order += z(i);
    items.sort((a, b) => a.order - b.order || z(a) - z(b));
  }
  return items.filter((i) => t.visible[i.layer]);
}

/** A tilemap cel's pixels: its tiles drawn from the layer's tileset (RGBA, empty tiles transparent). */
function tilemapImage(doc: AseDoc, cel: AseCel, layer: AseLayer, frame: number, budget: Budget): RgbaImage | undefined {
  const tm = cel.tilemap;
  const ts = doc.tilesets.find((t) => t.id === layer.tileset);
  if (!tm || !ts) return undefined;
  const tiles = tilesetImage(doc, ts, frame);
  if (!tiles) return undefined;
  const tw = ts.tileWidth;
  const th = ts.tileHeight;
  const W = tm.width * tw;
  const H = tm.height * th;
  budget.spend('maxPixels', W * H, `a ${tm.width}x${tm.height} tilemap of ${tw}x${th} tiles`);
  const out = createImage(W, H);
  const zeroIsEmpty = (ts.flags & 4) !== 0;
  const shift = tm.tileIdMask ? 31 - Math.clz32(tm.tileIdMask & -tm.tileIdMask) : 0;
  const s32 = new Uint32Array(tiles.data.buffer, tiles.data.byteOffset, tiles.width * tiles.height);
  const d32 = new Uint32Array(out.data.buffer);
  for (let row = 0; row < tm.height; row++) {
    for (let col = 0; col < tm.width; col++) {
      const raw = tm.tiles[row * tm.width + col]!;
      const id = ((raw & tm.tileIdMask) >>> 0) >>> shift;
      if (zeroIsEmpty ? id === 0 : raw === 0xffffffff) continue;
      if (id >= ts.tiles) continue;
      const fx = (raw & tm.xFlipMask) !== 0;
      const fy = (raw & tm.yFlipMask) !== 0;
      const fd = (raw & tm.diagonalFlipMask) !== 0;
      for (let y = 0; y < th; y++) {
        for (let x = 0; x < tw; x++) {
          // Destination (x, y) in the tile: undo the flips (x, y first, then the diagonal).
          let u = fx ? tw - 1 - x : x;
          let v = fy ? th - 1 - y : y;
          if (fd) [u, v] = [v, u];
          if (u >= tw || v >= th) continue;
          d32[(row * th + y) * W + col * tw + x] = s32[(id * th + v) * tw + u]!;
        }
      }
    }
  }
  return out;
}

/**
 * The parts of one frame, bottom to top. With composed groups, each visible
 * group is drawn first into its own image (the deepest first: a group's
 * index is above its children's, so descending order has every child group
 * ready), of the size its children cover, and is then one part.
 */
function frameParts(doc: AseDoc, frame: number, budget: Budget, choices: AseLayerChoices): PicturePart[] {
  const compose = (doc.header.flags & 2) !== 0;
  const groups = new Map<number, PicturePart | null>();
  const t = layerTree(doc, choices);
  if (compose) {
    for (let g = doc.layers.length - 1; g >= 0; g--) {
      const layer = doc.layers[g]!;
      if (layer.type !== 'group' || !t.visible[g]) continue;
      const children = planParts(doc, t, g, frame, budget, groups);
      if (!children.length) {
        groups.set(g, null);
        continue;
      }
      const drawn = drawPicture({ frames: [{ parts: children }], what: `group "${layer.name}"` }, budget);
      groups.set(g, {
        image: drawn.frames[0]!,
        transform: translate(-drawn.originX, -drawn.originY),
        opacity: (layer.effectiveOpacity / 255) * t.fade[g]!,
        blend: layer.effectiveBlendMode,
      });
    }
  }
  return planParts(doc, t, null, frame, budget, groups);
}

/** The parts of the plan of `parent`'s children (composed groups: from `groups`). */
function planParts(
  doc: AseDoc,
  t: LayerTree,
  parent: number | null,
  frame: number,
  budget: Budget,
  groups: Map<number, PicturePart | null>,
): PicturePart[] {
  const compose = (doc.header.flags & 2) !== 0;
  const plan = renderPlan(doc, t, parent, frame, compose);
  const bg = plan.filter((i) => doc.layers[i.layer]!.background);
  const rest = plan.filter((i) => !doc.layers[i.layer]!.background);
  const parts: PicturePart[] = [];
  for (const item of [...bg, ...rest]) {
    const layer = doc.layers[item.layer]!;
    if (layer.type === 'group') {
      const part = groups.get(item.layer);
      if (part) parts.push(part);
      continue;
    }
    if (layer.reference || !item.cel) continue;
    const cel = item.cel;
    const image = layer.type === 'tilemap' ? tilemapImage(doc, cel, layer, frame, budget) : celImage(doc, cel, frame);
    if (!image) continue;
    const opacity = mulUn8(cel.opacity, layer.effectiveOpacity);
    parts.push({
      image,
      transform: translate(cel.x, cel.y),
      opacity: (opacity / 255) * t.fade[item.layer]!,
      blend: layer.effectiveBlendMode,
    });
  }
  return parts;
}

/** One frame as Aseprite flattens it, on the sprite's canvas. */
export function aseFrame(doc: AseDoc, frame: number, budget: Budget, choices: AseLayerChoices = NO_CHOICES): PictureFrame {
  const parts = frameParts(doc, frame, budget, choices);
  const { width, height, colorDepth, transparentIndex } = doc.header;
  const bg = doc.layers.findIndex((l) => l.background);
  if (colorDepth === 8 && bg >= 0 && doc.layers[bg]!.visible && !choices.hidden.has(bg)) {
    // Aseprite starts an indexed sprite with a visible background from the transparent index's colour.
    const c = doc.palettes[frame]?.[transparentIndex];
    if (c) parts.unshift({ image: solidImage(c.r, c.g, c.b, c.a), transform: scale(width, height) });
  }
  return { parts, extent: { x: 0, y: 0, width, height }, delayMs: doc.frames[frame]?.duration ?? 100 };
}

/**
 * The frames `--animation` selects: a tag's as Aseprite plays it (its
 * direction; `repeat` passes, then it stops: `loops` 1; else `loops` 0,
 * forever), or every frame in order, looping. A forward or reverse tag
 * played N times is its frames once with `loops` N (what a GIF stores).
 */
export function aseSelection(doc: AseDoc, options: CommandOptions): { frames: number[]; loops: number; label: string } {
  const want = stringOption(options, ANIMATION_OPTION);
  if (want === undefined) return { frames: doc.frames.map((_, i) => i), loops: 0, label: 'the sprite' };
  const tag = selectNamed('animation', want, doc.tags, (t) => t.name, 'tag', 'the sprite');
  const label = `tag "${tag.name}"`;
  if (tag.repeat > 0 && (tag.direction === 'forward' || tag.direction === 'reverse')) {
    return { frames: tagPlayback(jsonTag(tag), 0).frames, loops: tag.repeat, label };
  }
  const played = tagPlayback(jsonTag(tag));
  return { frames: played.frames, loops: played.loop ? 0 : 1, label };
}

/** The viewer's layer list: every layer by its path, in inspect's order; those the file hides (or reference layers) marked. */
function pictureLayers(doc: AseDoc): PictureLayer[] {
  const paths = aseLayerPaths(doc);
  const t = layerTree(doc);
  return doc.layers.map((l, i) => ({
    name: paths[i]!,
    ...(t.visible[i] && !l.reference ? {} : { hidden: true }),
    ...(l.parent === null ? {} : { parent: l.parent }),
  }));
}

export function asePicture(doc: AseDoc, options: CommandOptions): Picture {
  const budget = budgetFrom(options);
  const choices = aseLayerChoices(doc, options);
  const sel = aseSelection(doc, options);
  const j = intOption(options, FRAME_OPTION);
  let frames = sel.frames;
  if (j !== undefined) frames = [frames[selectIndex('frame', j, frames.length, 'frame', sel.label)]!];
  if (!frames.length) throw new FormatError(ASE_FORMAT, 'nothing to render: the sprite has no frames');
  const { width, height } = doc.header;
  const picture: Picture = {
    frames: frames.map((f) => aseFrame(doc, f, budget, choices)),
    canvas: { x: 0, y: 0, width, height },
    what: sel.label,
    layers: pictureLayers(doc),
    ownLayerChoices: true,
  };
  if (frames.length > 1) picture.loops = sel.loops;
  return picture;
}

function jsonTag(t: AseDoc['tags'][number]): AsepriteTag {
  const tag: AsepriteTag = { name: t.name, from: t.from, to: t.to, direction: t.direction };
  const c = t.userData?.color;
  tag.color = c ? `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}` : `${t.color}ff`;
  // 0: "not specified" (forever in Aseprite's UI); N: N times.
  if (t.repeat > 0) tag.repeat = t.repeat;
  if (t.userData?.text !== undefined) tag.data = t.userData.text;
  return tag;
}

/** The common model: every frame flattened into one strip sheet, tags and the origin as the Aseprite JSON export maps them. */
export function aseModel(doc: AseDoc, options?: CommandOptions): SpriteModel {
  const budget = budgetFrom(options);
  const choices = aseLayerChoices(doc, options);
  const { width: W, height: H } = doc.header;
  const n = doc.frames.length;
  const frames: SheetJsonFrame[] = doc.frames.map((f, i) => ({
    filename: String(i),
    frame: { x: i * W, y: 0, w: W, h: H },
    rotated: false,
    trimmed: false,
    spriteSourceSize: { x: 0, y: 0, w: W, h: H },
    sourceSize: { w: W, h: H },
    duration: f.duration,
  }));
  const json: AsepriteDoc = {
    layout: 'array',
    frames,
    meta: {
      frameTags: doc.tags.map(jsonTag),
      layers: [],
      slices: doc.slices.map((s) => ({
        name: s.name,
        ...(s.userData?.color ? { color: `#${s.userData.color.map((v) => v.toString(16).padStart(2, '0')).join('')}` } : {}),
        ...(s.userData?.text !== undefined ? { data: s.userData.text } : {}),
        keys: s.keys.map((k) => ({
          frame: k.frame,
          bounds: { x: k.x, y: k.y, w: k.width, h: k.height },
          ...(k.center ? { center: { x: k.center.x, y: k.center.y, w: k.center.width, h: k.center.height } } : {}),
          ...(k.pivot ? { pivot: k.pivot } : {}),
        })),
      })),
    },
  } as unknown as AsepriteDoc;
  const model = asepriteModel(json);
  const sheet = createImage(0, 0);
  if (n > 0) {
    const drawn = drawPicture(
      {
        frames: doc.frames.map((_, i) => aseFrame(doc, i, budget, choices)),
        canvas: { x: 0, y: 0, width: W, height: H },
        what: 'the sprite',
      },
      budget,
    );
    budget.spend('maxPixels', W * H * n, `the sheet of ${n} frames`);
    const strip = createImage(W * n, H);
    drawn.frames.forEach((img, i) => {
      for (let y = 0; y < H; y++) strip.data.set(img.data.subarray(y * W * 4, (y + 1) * W * 4), (y * W * n + i * W) * 4);
    });
    model.sheets = [{ path: '', image: strip, nearest: true }];
  } else model.sheets = [{ path: '', image: sheet, nearest: true }];
  model.layers = modelLayers(doc, choices);
  const notes = model.notes ?? [];
  for (const n of lossNotes(doc, choices)) notes.push(n);
  if (notes.length) model.notes = notes;
  return model;
}

/**
 * The file's layers for the model, in file order (back to front): each
 * with its group, visibility (as drawn: a hidden group, --hide-layers and
 * reference layers count) and, for image layers, opacity and blend mode.
 */
function modelLayers(doc: AseDoc, choices: AseLayerChoices): ModelLayer[] {
  const t = layerTree(doc, choices);
  return doc.layers.map((l, i) => {
    const layer: ModelLayer = { name: l.name };
    if (l.type !== 'group') {
      layer.opacity = l.opacity / 255;
      layer.blendMode = l.blendMode;
    }
    layer.visible = t.visible[i]! && !l.reference;
    if (l.parent !== null) layer.group = doc.layers[l.parent]!.name;
    return layer;
  });
}

/** What the common model does not carry (each named, never dropped silently). */
function lossNotes(doc: AseDoc, choices: AseLayerChoices): string[] {
  const out: string[] = [];
  const lost: string[] = [];
  if (doc.layers.length > 1) lost.push(`${doc.layers.length} layers (flattened as Aseprite draws them)`);
  // Image layers not drawn: hidden (in the file, by a hidden group, or by --hide-layers) and reference layers.
  const t = layerTree(doc, choices);
  const paths = aseLayerPaths(doc);
  const hidden = doc.layers
    .map((l, i) => (l.type !== 'group' && (!t.visible[i] || l.reference) ? paths[i] : null))
    .filter((p) => p !== null);
  if (hidden.length) {
    const shown = hidden.slice(0, 20).map((p) => `"${p}"`);
    if (hidden.length > 20) shown.push(`... (${hidden.length} in all)`);
    lost.push(`hidden and reference layers (not drawn): ${shown.join(', ')}`);
  }
  if (doc.header.colorDepth !== 32) lost.push(`the ${doc.header.colorDepth === 8 ? 'indexed' : 'grayscale'} colour mode and palette`);
  const ud = countUserData(doc);
  if (ud) lost.push(`user data on ${ud} object(s)`);
  if (doc.tilesets.length) lost.push(`${doc.tilesets.length} tileset(s) (tilemaps drawn as pixels)`);
  if (doc.colorProfile && doc.colorProfile.type !== 'srgb') lost.push(`the ${doc.colorProfile.type} color profile`);
  if (lost.length) out.push(`ase: not carried over: ${lost.join('; ')}`);
  return out;
}

function countUserData(doc: AseDoc): number {
  const has = (u?: AseUserData) => (u && (u.text !== undefined || u.color || u.properties?.length) ? 1 : 0);
  let n = has(doc.userData);
  for (const l of doc.layers) n += has(l.userData);
  for (const f of doc.frames) for (const c of f.cels) n += has(c.userData);
  // A tag's colour goes over (as the tag colour); its text too (as the tag's data).
  for (const t of doc.tags) n += t.userData?.properties?.length ? 1 : 0;
  // A slice's colour and text go over (as its rectangles'); its properties do not.
  for (const s of doc.slices) n += s.userData?.properties?.length ? 1 : 0;
  for (const ts of doc.tilesets) n += has(ts.userData) + (ts.tileUserData ?? []).reduce((a, u) => a + has(u), 0);
  return n;
}

function userDataJson(u: AseUserData | undefined): Record<string, unknown> | undefined {
  if (!u) return undefined;
  const o: Record<string, unknown> = {};
  if (u.text !== undefined) o.text = u.text;
  if (u.color) o.color = u.color;
  if (u.properties) o.properties = u.properties.map((p) => ({ key: p.key, values: p.values }));
  return o;
}

/** `inspect --json`: the document as read (no pixels). */
export function aseInspectJson(doc: AseDoc): unknown {
  const ud = (u?: AseUserData) => {
    const j = userDataJson(u);
    return j ? { userData: j } : {};
  };
  return {
    format: 'ase',
    header: doc.header,
    layers: doc.layers.map((l) => ({
      name: l.name,
      type: l.type,
      flags: l.flags,
      visible: l.visible,
      background: l.background,
      reference: l.reference,
      childLevel: l.childLevel,
      parent: l.parent,
      blendMode: l.blendMode,
      opacity: l.opacity,
      ...(l.tileset !== undefined ? { tileset: l.tileset } : {}),
      ...(l.uuid !== undefined ? { uuid: l.uuid } : {}),
      ...ud(l.userData),
    })),
    frames: doc.frames.map((f) => ({
      duration: f.duration,
      cels: f.cels.map((c) => ({
        layer: c.layer,
        type: c.type,
        x: c.x,
        y: c.y,
        width: c.width,
        height: c.height,
        opacity: c.opacity,
        zIndex: c.zIndex,
        ...(c.link !== undefined ? { link: c.link } : {}),
        ...(c.tilemap && c.type === 'tilemap'
          ? {
              tilemap: {
                bitsPerTile: c.tilemap.bitsPerTile,
                tileIdMask: c.tilemap.tileIdMask,
                xFlipMask: c.tilemap.xFlipMask,
                yFlipMask: c.tilemap.yFlipMask,
                diagonalFlipMask: c.tilemap.diagonalFlipMask,
              },
            }
          : {}),
        ...(c.extra ? { extra: c.extra } : {}),
        ...ud(c.userData),
      })),
    })),
    palettes: doc.paletteChunks.map((p) => ({ frame: p.frame, kind: p.kind, size: p.size, first: p.first, colors: p.colors })),
    tags: doc.tags.map((t) => ({
      name: t.name,
      from: t.from,
      to: t.to,
      direction: t.direction,
      repeat: t.repeat,
      color: t.color,
      ...ud(t.userData),
    })),
    slices: doc.slices.map((s) => ({ name: s.name, flags: s.flags, keys: s.keys, ...ud(s.userData) })),
    tilesets: doc.tilesets.map((t) => ({
      id: t.id,
      flags: t.flags,
      tiles: t.tiles,
      tileWidth: t.tileWidth,
      tileHeight: t.tileHeight,
      baseIndex: t.baseIndex,
      name: t.name,
      ...(t.external ? { external: t.external } : {}),
      embedded: t.data !== undefined,
      ...ud(t.userData),
      ...(t.tileUserData ? { tileUserData: t.tileUserData.map((u) => userDataJson(u) ?? {}) } : {}),
    })),
    ...(doc.colorProfile
      ? {
          colorProfile: {
            type: doc.colorProfile.type,
            flags: doc.colorProfile.flags,
            gamma: doc.colorProfile.gamma,
            ...(doc.colorProfile.icc ? { iccBytes: doc.colorProfile.icc.length } : {}),
          },
        }
      : {}),
    externalFiles: doc.externalFiles,
    ...ud(doc.userData),
  };
}

export function aseInspectText(doc: AseDoc): string {
  const h = doc.header;
  const mode = h.colorDepth === 32 ? 'RGBA' : h.colorDepth === 16 ? 'grayscale' : `indexed (transparent index ${h.transparentIndex})`;
  const lines = [`Aseprite file ${h.width}x${h.height}, ${mode}, ${doc.frames.length} frame(s), ${doc.layers.length} layer(s)`];
  const depths: number[] = [];
  for (const l of doc.layers) depths.push(l.parent === null ? 0 : depths[l.parent]! + 1);
  doc.layers.forEach((l, i) => {
    const flags = [l.visible ? '' : 'hidden', l.background ? 'background' : '', l.reference ? 'reference' : ''].filter(Boolean);
    lines.push(
      `  ${'  '.repeat(depths[i]!)}${l.type === 'group' ? 'group' : l.type === 'tilemap' ? 'tilemap' : 'layer'} "${l.name}": ${l.blendMode}, opacity ${l.opacity}${flags.length ? `, ${flags.join(', ')}` : ''}`,
    );
  });
  for (const t of doc.tags) {
    lines.push(`  tag "${t.name}": frames ${t.from}-${t.to}, ${t.direction}${t.repeat ? `, ${t.repeat} time(s)` : ''}`);
  }
  for (const s of doc.slices) lines.push(`  slice "${s.name}": ${s.keys.length} key(s)`);
  const total = doc.frames.reduce((s, f) => s + f.duration, 0);
  lines.push(`  total duration ${total} ms`);
  return `${printableLines(lines)}\n`;
}

function readWith(bytes: Uint8Array, options: CommandOptions | undefined, warn?: (d: Diagnostic) => void): AseDoc {
  return readAse(bytes, {
    budget: budgetFrom(options),
    warn: (reason, offset) => warn?.(diagnostic('warning', reason, { offset })),
  });
}

export const aseHandler: FormatHandler<AseDoc> = {
  name: 'ase',
  title: 'Aseprite file',
  extensions: ['.aseprite', '.ase'],
  // OUT.json without --to: Aseprite's own JSON sheet export (as File > Export Sprite Sheet).
  compilesTo: { '.json': 'aseprite' },
  sniff: sniffAse,
  read: (bytes, ctx) => readWith(bytes, ctx?.options, ctx?.warn),
  validate(bytes, options): Diagnostic[] {
    const out: Diagnostic[] = [];
    try {
      readWith(bytes, options, (d) => out.push(d));
    } catch (e) {
      if (isFormatError(e)) return [...out, diagnosticFromError(e)];
      if (e instanceof LimitError) return [...out, { severity: 'error', message: e.message }];
      throw e;
    }
    return out;
  },
  inspectJson: (doc) => aseInspectJson(doc),
  inspectText: aseInspectText,
  byteRanges(doc, bytes) {
    const out: Record<string, [number, number]> = { '/header': [0, 128] };
    const u32 = (p: number) => (bytes[p]! | (bytes[p + 1]! << 8) | (bytes[p + 2]! << 16) | (bytes[p + 3]! << 24)) >>> 0;
    doc.frames.forEach((f, i) => {
      out[`/frames/${i}`] = [f.offset, f.offset + u32(f.offset)];
      f.cels.forEach((c, j) => {
        out[`/frames/${i}/cels/${j}`] = [c.offset, c.offset + u32(c.offset)];
      });
    });
    doc.layers.forEach((l, i) => {
      out[`/layers/${i}`] = [l.offset, l.offset + u32(l.offset)];
    });
    return out;
  },
  play: (doc, options) =>
    playAseprite(
      { durations: doc.frames.map((f) => f.duration), tags: doc.tags.map(jsonTag), format: ASE_FORMAT },
      options,
      ANIMATION_OPTION,
    ),
  playOptions: [ANIMATION_OPTION, PLAY_MS_OPTION, PLAY_STEP_MS_OPTION],
  renderOptions: [ANIMATION_OPTION, FRAME_OPTION, ...ASE_LAYER_OPTIONS],
  // The layer choices draw the sheet `convert` writes too.
  convertOptions: ASE_LAYER_OPTIONS,
  picture: async (doc, options) => asePicture(doc, options),
  renderViews: (doc): RenderView[] => [
    { label: 'all frames', options: {} },
    ...[...new Set(doc.tags.map((t) => t.name))].map((name) => ({ label: name, options: { animation: name } })),
  ],
  toModel: async (doc, _resources, options) => aseModel(doc, options),
};
