/**
 * Draws a Tiled map as Tiled (and its `tmxrasterizer`) draws an orthogonal
 * map, through the one picture pipeline: layers in order (groups walked),
 * hidden layers (or a hidden group's) left out, opacity and tint multiplied
 * down the groups, offsets added, tiles placed by their bottom-left corner
 * (a tile bigger than the grid grows up and right), the tileset's
 * tileoffset, the flip bits (H, V and the anti-diagonal as a 90° turn plus
 * flips, as Tiled's CellRenderer does; the hexagonal 120° bit ignored),
 * transparentcolor, render order, animated tiles at their first frame,
 * image layers and tile objects (object alignment, size and rotation,
 * templates); shape, point and text objects as ./shapes.ts says.
 * The canvas is the map (the chunks' 16-tile-aligned bounds for an infinite
 * map) grown by the layer offsets, as tmxrasterizer sizes it.
 */
import { FormatError, isFormatError } from '../../binary/errors.js';
import { budgetFrom } from '../../binary/limits.js';
import type { CommandOptions, ResourceLoader } from '../../formats/types.js';
import { imageCache, loadResource } from '../../formats/resources.js';
import { div255 } from '../../render/compose.js';
import { createImage, type RgbaImage } from '../../render/image.js';
import { compose, rotate, scale, translate, type Matrix } from '../../render/matrix.js';
import type { Picture, PictureLayer, PicturePart } from '../../render/pipeline.js';
import { gridSize } from '../../model/frames.js';
import { errorIn, JsonReader } from '../json.js';
import {
  bitsToOrientation,
  FLIP_D,
  FLIP_H,
  FLIP_V,
  readTileset,
  resolveTileset,
  type TiledChunk,
  type TiledDoc,
  type TiledLayer,
  type TiledTileset,
} from './index.js';
import { DEFAULT_OBJECT_COLOUR, shapeObjectPart, shapeOf } from './shapes.js';
import { readXmlDocument, xmlRootName } from './xml.js';

const FORMAT = 'tiled';
const GID_MASK = 0x0fffffff;
const CHUNK = 16;

type J = Record<string, unknown>;
const isObj = (v: unknown): v is J => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown, d = 0) => (typeof v === 'number' && Number.isFinite(v) ? v : d);

/** One drawable tile: an image region and the tileset's offset and object alignment. */
interface TileImage {
  image: RgbaImage;
  sx: number;
  sy: number;
  sw: number;
  sh: number;
  offsetX: number;
  offsetY: number;
  alignment: string;
}

/** A tileset ready to draw: its tiles by local id (an animated tile gives its first frame). */
interface DrawSet {
  firstgid: number;
  tile(id: number): TileImage | undefined;
}

/** `#rrggbb` or `#aarrggbb` (Tiled's colour syntax) as [r, g, b, a], or undefined. */
export function parseColour(s: unknown): [number, number, number, number] | undefined {
  if (typeof s !== 'string') return undefined;
  const h = s.replace(/^#/, '');
  if (!/^[0-9a-fA-F]+$/.test(h)) return undefined;
  if (h.length === 6) return [parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16), 255];
  if (h.length === 8)
    return [parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16), parseInt(h.slice(6, 8), 16), parseInt(h.slice(0, 2), 16)];
  return undefined;
}

/** The image with every opaque pixel of colour `trans` made transparent (Qt's createMaskFromColor). */
function keyed(img: RgbaImage, trans: [number, number, number, number] | undefined): RgbaImage {
  if (!trans) return img;
  const d = img.data.slice();
  for (let i = 0; i < d.length; i += 4) {
    if (d[i + 3] === 255 && d[i] === trans[0] && d[i + 1] === trans[1] && d[i + 2] === trans[2]) d[i] = d[i + 1] = d[i + 2] = d[i + 3] = 0;
  }
  return { width: img.width, height: img.height, data: d };
}

/**
 * The image tinted as Tiled tints (Qt: multiply by the opaque colour, keep
 * the image's alpha, then times the colour's alpha), in premultiplied
 * integer steps, back to straight alpha.
 */
function tinted(img: RgbaImage, tint: [number, number, number, number]): RgbaImage {
  const d = new Uint8Array(img.data.length);
  const s = img.data;
  const ta = tint[3];
  for (let i = 0; i < s.length; i += 4) {
    const a = s[i + 3]!;
    if (a === 0) continue;
    const outA = div255(a * ta);
    if (outA === 0) continue;
    for (let c = 0; c < 3; c++) {
      const p = div255(s[i + c]! * a); // premultiplied
      const m = div255(tint[c]! * p + tint[c]! * (255 - a)); // multiply onto (p, a)
      const k = div255(div255(m * a) * ta); // destination-in: the image's alpha, then the tint's
      d[i + c] = Math.min(255, Math.round((k * 255) / outA));
    }
    d[i + 3] = outA;
  }
  return { width: img.width, height: img.height, data: d };
}

function mulTint(a: [number, number, number, number] | undefined, b: [number, number, number, number] | undefined) {
  if (!a) return b;
  if (!b) return a;
  return [0, 1, 2, 3].map((i) => div255(a[i]! * b[i]!)) as [number, number, number, number];
}

const isWhite = (t: [number, number, number, number] | undefined) => !t || (t[0] === 255 && t[1] === 255 && t[2] === 255 && t[3] === 255);

/** The alignment offset of an object's box (Tiled's alignmentOffset). */
function alignmentOffset(w: number, h: number, alignment: string): [number, number] {
  switch (alignment) {
    case 'topleft':
      return [0, 0];
    case 'top':
      return [w / 2, 0];
    case 'topright':
      return [w, 0];
    case 'left':
      return [0, h / 2];
    case 'center':
      return [w / 2, h / 2];
    case 'right':
      return [w, h / 2];
    case 'bottom':
      return [w / 2, h];
    case 'bottomright':
      return [w, h];
    default:
      return [0, h]; // bottomleft, and "unspecified" on orthogonal maps
  }
}

/**
 * The transform of one cell, as Tiled's CellRenderer places it: `at` is the
 * corner (bottom-left for tile layers, top-left for objects) of a box of
 * `size`; the image (iw × ih) is scaled to the box, flipped, and the
 * anti-diagonal flip is a 90° turn with the flips swapped.
 */
function cellTransform(t: TileImage, gid: number, x: number, y: number, w: number, h: number, bottomLeft: boolean): Matrix {
  const sxk = w / t.sw;
  const syk = h / t.sh;
  let fx = x + t.offsetX * sxk + w / 2;
  let fy = y + t.offsetY * syk + h / 2;
  if (bottomLeft) fy -= h;
  let flipH = (gid & FLIP_H) !== 0;
  let flipV = (gid & FLIP_V) !== 0;
  let rot = 0;
  if (gid & FLIP_D) {
    rot = 90;
    const h0 = flipH;
    flipH = flipV;
    flipV = !h0;
    const halfDiff = h / 2 - w / 2;
    fx += halfDiff;
    fy += halfDiff;
  }
  // Qt's fragment: the source centred on the origin, scaled (flips), turned clockwise, moved to (fx, fy).
  // Unscaled and unturned, Qt blits at the rounded position (qRound); otherwise it samples at pixel centres, as the pipeline does.
  if (!rot && !flipH && !flipV && sxk === 1 && syk === 1)
    return translate(Math.floor(fx - t.sw / 2 + 0.5), Math.floor(fy - t.sh / 2 + 0.5));
  return compose(translate(-t.sw / 2, -t.sh / 2), scale(sxk * (flipH ? -1 : 1), syk * (flipV ? -1 : 1)), rotate(rot), translate(fx, fy));
}

/** Paths relative to a folder, as the loader takes them. */
function dirOf(p: string): string {
  const i = p.lastIndexOf('/');
  return i < 0 ? '' : p.slice(0, i + 1);
}

async function drawSet(ts: TiledTileset, dir: string, loadImage: ReturnType<typeof imageCache>, notes: string[]): Promise<DrawSet> {
  const raw = ts.raw ?? {};
  const off = isObj(raw.tileoffset) ? raw.tileoffset : {};
  const offsetX = num(off.x);
  const offsetY = num(off.y);
  const alignment = typeof raw.objectalignment === 'string' ? raw.objectalignment : 'unspecified';
  const trans = parseColour(raw.transparentcolor);
  const load = async (name: string, what: string): Promise<RgbaImage | undefined> => {
    try {
      return (await loadImage({ format: FORMAT, what, name: dir + name })).image;
    } catch (e) {
      if (!isFormatError(e)) throw e;
      notes.push(`tiled: ${e.reason}; its tiles are not drawn`);
      return undefined;
    }
  };
  // Tiles with their own image (a collection of images), and animations by tile id.
  const own = new Map<number, TileImage>();
  const firstFrame = new Map<number, number>();
  // Tiled before 1.2 wrote `tiles` as an object keyed by tile id (sticker-knight's title.json).
  const tiles = Array.isArray(raw.tiles)
    ? raw.tiles.filter(isObj)
    : isObj(raw.tiles)
      ? Object.entries(raw.tiles).flatMap(([id, t]): J[] => (isObj(t) ? [{ id: Number(id), ...t }] : []))
      : [];
  for (const t of tiles) {
    const id = num(t.id, -1);
    if (id < 0) continue;
    if (Array.isArray(t.animation) && isObj(t.animation[0])) firstFrame.set(id, num(t.animation[0].tileid, id));
    if (typeof t.image === 'string') {
      const img = await load(t.image, `the image of tile ${id} of tileset "${ts.name}"`);
      if (img) {
        const k = keyed(img, parseColour(t.transparentcolor) ?? trans);
        const sx = num(t.x);
        const sy = num(t.y);
        const sw = t.width !== undefined ? num(t.width) : k.width - sx;
        const sh = t.height !== undefined ? num(t.height) : k.height - sy;
        own.set(id, { image: k, sx, sy, sw, sh, offsetX, offsetY, alignment });
      }
    }
  }
  let sheet: RgbaImage | undefined;
  if (ts.image !== undefined) {
    const img = await load(ts.image, `the image of tileset "${ts.name}"`);
    if (img) sheet = keyed(img, trans);
  }
  const tw = ts.tilewidth;
  const th = ts.tileheight;
  // Tiled counts the columns and rows from the image it loaded (Tileset::columnCountForWidth: the margin once).
  const { columns, rows } = sheet
    ? gridSize(sheet.width, sheet.height, { width: tw, height: th }, ts.margin, ts.spacing)
    : { columns: 0, rows: 0 };
  const grid = (id: number): TileImage | undefined => {
    const o = own.get(id);
    if (o) return o;
    if (!sheet || columns <= 0 || id >= columns * rows) return undefined;
    const cx = id % columns;
    const cy = Math.floor(id / columns);
    return {
      image: sheet,
      sx: ts.margin + cx * (tw + ts.spacing),
      sy: ts.margin + cy * (th + ts.spacing),
      sw: tw,
      sh: th,
      offsetX,
      offsetY,
      alignment,
    };
  };
  return { firstgid: ts.firstgid, tile: (id) => grid(firstFrame.get(id) ?? id) };
}

/** The 16-aligned chunks of a layer that hold a tile (Tiled's TileLayer::bounds), in tiles. */
function layerBounds(l: {
  data: ArrayLike<number>;
  width: number;
  height: number;
  chunks?: TiledChunk[];
}): { x0: number; y0: number; x1: number; y1: number } | null {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  const add = (x: number, y: number) => {
    const cx = Math.floor(x / CHUNK) * CHUNK;
    const cy = Math.floor(y / CHUNK) * CHUNK;
    x0 = Math.min(x0, cx);
    y0 = Math.min(y0, cy);
    x1 = Math.max(x1, cx + CHUNK);
    y1 = Math.max(y1, cy + CHUNK);
  };
  for (const c of l.chunks ?? []) {
    for (let i = 0; i < c.data.length; i++) if (c.data[i]! & GID_MASK) add(c.x + (i % c.width), c.y + Math.floor(i / c.width));
  }
  return x1 > x0 ? { x0, y0, x1, y1 } : null;
}

interface Walked {
  layer: TiledLayer;
  /** The layer's name, after its groups' ("group/layer"). */
  path: string;
  dx: number;
  dy: number;
  opacity: number;
  tint?: [number, number, number, number];
  visible: boolean;
}

function walk(
  layers: TiledLayer[],
  out: Walked[],
  dx = 0,
  dy = 0,
  opacity = 1,
  tint?: [number, number, number, number],
  visible = true,
  prefix = '',
) {
  for (const l of layers) {
    const raw = (l.raw ?? {}) as J;
    const x = dx + num(raw.offsetx);
    const y = dy + num(raw.offsety);
    const op = opacity * (l.type === 'tilelayer' ? l.opacity : num(raw.opacity, 1));
    const t = mulTint(tint, parseColour(raw.tintcolor));
    const vis = visible && (l.type === 'tilelayer' ? l.visible : raw.visible !== false);
    if (l.type === 'group') walk(l.layers, out, x, y, op, t, vis, `${prefix}${l.name}/`);
    else out.push({ layer: l, path: `${prefix}${l.name}`, dx: x, dy: y, opacity: op, tint: t, visible: vis });
  }
}

/** A template (.tx) file's object and the tileset its gid refers to. */
interface Template {
  object: J;
  set?: DrawSet;
  /** The template file is missing (a warning): its objects are not drawn. */
  missing?: boolean;
}

/** The picture of a Tiled map (or of a tileset file: its image, or its images side by side). */
export async function tiledPicture(doc: TiledDoc, options: CommandOptions, resources: ResourceLoader): Promise<Picture> {
  const notes: string[] = [];
  const loadImage = imageCache(resources, options);
  if (doc.type === 'tileset') {
    const ts = doc.tilesets[0]!;
    const set = await drawSet(ts, '', loadImage, notes);
    const parts: PicturePart[] = [];
    let x = 0;
    if (ts.image !== undefined) {
      const t = set.tile(0);
      if (t) parts.push({ image: t.image });
    } else {
      const tiles = Array.isArray(ts.raw?.tiles) ? (ts.raw!.tiles as unknown[]).filter(isObj) : [];
      for (const tl of tiles) {
        const t = set.tile(num(tl.id, -1));
        if (!t) continue;
        parts.push({ image: t.image, sx: t.sx, sy: t.sy, sw: t.sw, sh: t.sh, transform: translate(x, 0) });
        x += t.sw;
      }
    }
    if (!parts.length) throw new FormatError(FORMAT, `tileset "${ts.name}" has no image to draw${notes.length ? ` (${notes[0]})` : ''}`);
    return { frames: [{ parts }], what: `tileset "${ts.name}"` };
  }
  if (doc.orientation !== 'orthogonal') {
    // notDrawn: sprat's limit, not the file's fault (`sprat check` leaves it out).
    throw Object.assign(
      errorIn(
        doc,
        FORMAT,
        '$.orientation',
        `"${doc.orientation}" maps are not drawn (sprat draws orthogonal maps; inspect, validate and convert read them)`,
      ),
      { notDrawn: true },
    );
  }
  const budget = budgetFrom(options);
  const sets: DrawSet[] = [];
  for (let i = 0; i < doc.tilesets.length; i++) {
    const { ts, dir } = await resolveTileset(doc, i, resources, []);
    sets.push(await drawSet(ts, dir, loadImage, notes));
  }
  sets.sort((a, b) => a.firstgid - b.firstgid);
  const lookup = (gid: number, within = sets): TileImage | undefined => {
    const id = gid & GID_MASK;
    if (!id) return undefined;
    let found: DrawSet | undefined;
    for (const s of within) if (s.firstgid <= id) found = s;
    return found?.tile(id - found.firstgid);
  };
  const tw = doc.tilewidth;
  const th = doc.tileheight;
  const walked: Walked[] = [];
  walk(doc.layers, walked);
  // Parts name their layer by its place among the drawn (non-group) layers in file order: --hide-layers, --layer-opacity.
  const indexOf = new Map<Walked, number>(walked.map((w, i) => [w, i]));
  // The canvas: the map, or the union of the tile layers' bounds for an infinite map, grown by the layer offsets.
  let box = { x: 0, y: 0, width: doc.width * tw, height: doc.height * th };
  if (doc.infinite) {
    let b: { x0: number; y0: number; x1: number; y1: number } | null = null;
    for (const w of walked) {
      if (w.layer.type !== 'tilelayer') continue;
      const lb = layerBounds(w.layer);
      if (lb) b = b ? { x0: Math.min(b.x0, lb.x0), y0: Math.min(b.y0, lb.y0), x1: Math.max(b.x1, lb.x1), y1: Math.max(b.y1, lb.y1) } : lb;
    }
    box = b ? { x: b.x0 * tw, y: b.y0 * th, width: (b.x1 - b.x0) * tw, height: (b.y1 - b.y0) * th } : { x: 0, y: 0, width: tw, height: th };
  }
  let [ml, mt, mr, mb] = [0, 0, 0, 0];
  for (const w of walked) {
    ml = Math.max(ml, Math.ceil(-w.dx));
    mt = Math.max(mt, Math.ceil(-w.dy));
    mr = Math.max(mr, Math.ceil(w.dx));
    mb = Math.max(mb, Math.ceil(w.dy));
  }
  // At least 1 × 1 (a map of no width still has its height checked against --max-pixels).
  const canvas = { x: box.x - ml, y: box.y - mt, width: Math.max(1, box.width + ml + mr), height: Math.max(1, box.height + mt + mb) };
  const tintCache = new Map<RgbaImage, Map<string, RgbaImage>>();
  const tintOf = (img: RgbaImage, t: [number, number, number, number] | undefined): RgbaImage => {
    if (isWhite(t)) return img;
    const key = t!.join(',');
    let m = tintCache.get(img);
    if (!m) tintCache.set(img, (m = new Map()));
    let out = m.get(key);
    if (!out) {
      budget.spend('maxPixels', img.width * img.height, `a tinted copy of an image of ${img.width}x${img.height}`);
      m.set(key, (out = tinted(img, t!)));
    }
    return out;
  };
  const templates = new Map<string, Promise<Template>>();
  const loadTemplate = (name: string): Promise<Template> => {
    let p = templates.get(name);
    if (!p) {
      p = readTemplate(doc, name, resources, loadImage, notes);
      templates.set(name, p);
    }
    return p;
  };
  // Objects need their templates before drawing; collected first.
  const objectParts = new Map<Walked, PicturePart[]>();
  let texts = 0;
  for (const w of walked) {
    if (w.layer.type !== 'objectgroup' || !w.visible) continue;
    const raw = w.layer.raw;
    let objects = (Array.isArray(raw.objects) ? raw.objects : []).filter(isObj);
    if (raw.draworder !== 'index')
      objects = objects
        .map((o, i) => ({ o, i }))
        .sort((a, b) => num(a.o.y) - num(b.o.y) || a.i - b.i)
        .map((x) => x.o);
    const parts: PicturePart[] = [];
    for (let o of objects) {
      let within = sets;
      if (typeof o.template === 'string') {
        const t = await loadTemplate(o.template);
        // An object whose template is missing has no shape or tile to draw: left out (its template is a warning).
        if (t.missing) continue;
        // The template's gid names a tile of the template's own tileset; an instance's own gid, one of the map's.
        if (t.set && !Object.hasOwn(o, 'gid')) within = [t.set];
        o = { ...t.object, ...o };
      }
      if (o.visible === false) continue;
      if (o.gid === undefined) {
        const text = shapeOf(o) === 'text' ? (parseColour((o.text as J).color) ?? [0, 0, 0, 255]) : undefined;
        const colour = text ?? parseColour(raw.color) ?? DEFAULT_OBJECT_COLOUR;
        const at = { x: num(o.x) + w.dx, y: num(o.y) + w.dy };
        const part = shapeObjectPart(o, colour, at, num(o.rotation), w.opacity, canvas, budget, indexOf.get(w), { x: w.dx, y: w.dy });
        if (part) parts.push(part);
        if (text && part) texts++;
        continue;
      }
      const gid = num(o.gid) >>> 0;
      const tile = lookup(gid, within);
      if (!tile) continue;
      const w0 = o.width !== undefined && num(o.width) > 0 ? num(o.width) : tile.sw;
      const h0 = o.height !== undefined && num(o.height) > 0 ? num(o.height) : tile.sh;
      const [ax, ay] = alignmentOffset(w0, h0, tile.alignment);
      const x = num(o.x);
      const y = num(o.y);
      const rot = num(o.rotation);
      const local = cellTransform(tile, gid, 0, 0, w0, h0, false);
      let place = compose(local, translate(-ax, -ay), rotate(rot), translate(x + w.dx, y + w.dy));
      // An upright, unscaled object at a fractional position: Qt (tmxrasterizer) rounds its position half up,
      // where nearest sampling would round x.5 down (a half-pixel object lands one pixel further right/down).
      if (place[0] === 1 && place[1] === 0 && place[2] === 0 && place[3] === 1) {
        place = translate(Math.floor(place[4] + 0.5), Math.floor(place[5] + 0.5));
      }
      parts.push({
        image: tintOf(tile.image, w.tint),
        sx: tile.sx,
        sy: tile.sy,
        sw: tile.sw,
        sh: tile.sh,
        transform: place,
        opacity: w.opacity,
        layer: indexOf.get(w),
      });
    }
    objectParts.set(w, parts);
  }
  const imageParts = new Map<Walked, PicturePart>();
  for (const w of walked) {
    if (w.layer.type !== 'imagelayer' || !w.visible) continue;
    const raw = w.layer.raw;
    if (typeof raw.image !== 'string' || raw.image === '') continue;
    let img: RgbaImage;
    try {
      img = (await loadImage({ format: FORMAT, what: `the image of image layer "${w.layer.name}"`, name: raw.image })).image;
    } catch (e) {
      if (!isFormatError(e)) throw e;
      notes.push(`tiled: ${e.reason}`);
      continue;
    }
    img = tintOf(keyed(img, parseColour(raw.transparentcolor)), w.tint);
    let ox = w.dx + num(raw.x);
    let oy = w.dy + num(raw.y);
    const rx = raw.repeatx === true;
    const ry = raw.repeaty === true;
    if ((rx || ry) && img.width > 0 && img.height > 0) {
      // repeatx / repeaty (Tiled 1.8): the image tiles the whole drawn area along that axis, its copies aligned on
      // the layer's place, as tmxrasterizer draws it. Made as one image, spent against --max-pixels.
      const x0 = rx ? ox - Math.ceil((ox - canvas.x) / img.width) * img.width : ox;
      const y0 = ry ? oy - Math.ceil((oy - canvas.y) / img.height) * img.height : oy;
      const width = rx ? Math.ceil(canvas.x + canvas.width - x0) : img.width;
      const height = ry ? Math.ceil(canvas.y + canvas.height - y0) : img.height;
      budget.spend('maxPixels', width * height, `the repeated image of image layer "${w.layer.name}" (${width}x${height})`);
      const rep = createImage(width, height);
      const row = img.width * 4;
      for (let y = 0; y < height; y++) {
        const src = img.data.subarray((y % img.height) * row, ((y % img.height) + 1) * row);
        for (let x = 0; x < width; x += img.width) rep.data.set(src.subarray(0, Math.min(row, (width - x) * 4)), (y * width + x) * 4);
      }
      img = rep;
      ox = x0;
      oy = y0;
    }
    imageParts.set(w, {
      image: img,
      transform: translate(ox, oy),
      opacity: w.opacity,
      layer: indexOf.get(w),
    });
  }
  const order = doc.renderorder ?? 'right-down';
  const right = !order.startsWith('left');
  const down = !order.endsWith('up');
  function* layerCells(w: Walked, l: Extract<TiledLayer, { type: 'tilelayer' }>): Generator<PicturePart> {
    // Cells in render order: the whole layer, or its chunks merged into one grid walk.
    let gx = l.x;
    let gy = l.y;
    let width = l.width;
    let height = l.height;
    let data = l.data;
    if (l.chunks) {
      const b = layerBounds(l);
      if (!b) return;
      gx = b.x0;
      gy = b.y0;
      width = b.x1 - b.x0;
      height = b.y1 - b.y0;
      // The chunks are walked as one grid of their bounds: each cell covers at least a pixel of the drawing.
      budget.spend('maxPixels', width * height, `the ${width}x${height} cells of the chunks of layer "${l.name}"`);
      data = new Uint32Array(width * height);
      for (const c of l.chunks) {
        for (let i = 0; i < c.data.length; i++) {
          const g = c.data[i]!;
          if (g & GID_MASK) data[(c.y + Math.floor(i / c.width) - gy) * width + (c.x + (i % c.width) - gx)] = g;
        }
      }
    }
    if (!(width > 0 && height > 0)) return; // no cells (and a 0 x 10^9 layer must not walk its rows)
    const index = indexOf.get(w);
    for (let r = 0; r < height; r++) {
      const row = down ? r : height - 1 - r;
      for (let c = 0; c < width; c++) {
        const col = right ? c : width - 1 - c;
        const gid = data[row * width + col]!;
        const tile = lookup(gid);
        if (!tile) continue;
        const x = (gx + col) * tw + w.dx;
        const y = (gy + row + 1) * th + w.dy;
        yield {
          image: tintOf(tile.image, w.tint),
          sx: tile.sx,
          sy: tile.sy,
          sw: tile.sw,
          sh: tile.sh,
          transform: cellTransform(tile, gid, x, y, tile.sw, tile.sh, true),
          opacity: w.opacity,
          layer: index,
        };
      }
    }
  }
  function* parts(): Generator<PicturePart> {
    for (const w of walked) {
      if (!w.visible || w.opacity <= 0) continue;
      const l = w.layer;
      if (l.type === 'tilelayer') yield* layerCells(w, l);
      else if (l.type === 'objectgroup') yield* objectParts.get(w) ?? [];
      else if (l.type === 'imagelayer') {
        const p = imageParts.get(w);
        if (p) yield p;
      }
    }
  }
  // A missing or undecodable image (a tileset's, an image layer's) or template: the rest is drawn, as tmxrasterizer
  // draws it, and each such file is a warning (once, however many tiles or objects use it); with --strict, the
  // map's error (a picture without it is not the map).
  const missing = [...new Set(notes.map((n) => n.replace(/^tiled: /, '')))];
  if (missing.length && options?.strict === true) {
    const first = missing[0]!.replace(/; its tiles are not drawn$/, '');
    throw new FormatError(FORMAT, `${first}${missing.length > 1 ? ` (and ${missing.length - 1} more missing file(s))` : ''}`);
  }
  const layers = walked.map((w) => layerOf(doc, w, tw, th));
  // Shapes cost beyond their area (src/render/qtraster.ts): listed, so that the pipeline pays for them before drawing.
  const costly = walked
    .filter((w) => w.visible && w.opacity > 0)
    .flatMap((w) => objectParts.get(w) ?? [])
    .filter((p) => p.cost !== undefined);
  const out: Picture = { frames: [{ parts: { [Symbol.iterator]: parts }, costly }], layers, canvas, what: 'the map' };
  if (missing.length) out.warnings = missing;
  if (texts)
    out.notes = [
      `${texts} text object(s) drawn in sprat's own 3x5 font (in their boxes, colours and alignment), not in Tiled's fonts: their pixels differ from Tiled's`,
    ];
  return out;
}

/** The gid at tile (col, row) of a tile layer (map coordinates), 0 when none. */
function gidAt(l: Extract<TiledLayer, { type: 'tilelayer' }>, col: number, row: number): number {
  if (l.chunks) {
    for (const c of l.chunks) {
      if (col >= c.x && col < c.x + c.width && row >= c.y && row < c.y + c.height) return c.data[(row - c.y) * c.width + (col - c.x)] ?? 0;
    }
    return 0;
  }
  const x = col - l.x;
  const y = row - l.y;
  if (x < 0 || y < 0 || x >= l.width || y >= l.height) return 0;
  return l.data[y * l.width + x] ?? 0;
}

/** What the viewer's inspector shows of a drawn layer: a tile layer's grid and cells, an object layer's objects. */
function layerOf(doc: TiledDoc, w: Walked, tw: number, th: number): PictureLayer {
  const l = w.layer;
  if (l.type === 'tilelayer') {
    const b = l.chunks ? layerBounds(l) : { x0: l.x, y0: l.y, x1: l.x + l.width, y1: l.y + l.height };
    const x0 = b?.x0 ?? 0;
    const y0 = b?.y0 ?? 0;
    return {
      name: w.path,
      grid: {
        x: x0 * tw + w.dx,
        y: y0 * th + w.dy,
        cellWidth: tw,
        cellHeight: th,
        columns: b ? b.x1 - b.x0 : 0,
        rows: b ? b.y1 - b.y0 : 0,
      },
      cell(column, row) {
        const gid = gidAt(l, x0 + column, y0 + row) >>> 0;
        const id = gid & GID_MASK;
        if (!id) return undefined;
        let set = -1;
        for (let i = 0; i < doc.tilesets.length; i++)
          if (doc.tilesets[i]!.firstgid <= id && (set < 0 || doc.tilesets[i]!.firstgid >= doc.tilesets[set]!.firstgid)) set = i;
        if (set < 0) return { gid };
        const o = bitsToOrientation(gid);
        return {
          set,
          tile: id - doc.tilesets[set]!.firstgid,
          ...(o.flipX ? { flipX: true } : {}),
          ...(o.flipY ? { flipY: true } : {}),
          ...(o.rotation ? { rotation: o.rotation } : {}),
        };
      },
    };
  }
  if (l.type === 'objectgroup') {
    const raw = (l.raw ?? {}) as J;
    const objects = (Array.isArray(raw.objects) ? raw.objects : []).filter(isObj).map((o) => {
      const width = num(o.width);
      const height = num(o.height);
      // A tile object stands on its (x, y); other objects hang from it.
      const y = num(o.y) - (o.gid !== undefined ? height : 0);
      const fields: Record<string, unknown> = {};
      for (const k of ['id', 'name', 'type', 'class', 'gid', 'template', 'rotation', 'visible'])
        if (o[k] !== undefined && o[k] !== '') fields[k] = o[k];
      return { x: num(o.x) + w.dx, y: y + w.dy, width, height, fields };
    });
    return { name: w.path, objects };
  }
  return { name: w.path };
}

/** Reads a template (.tx/.tj): its object, and the tileset its gid names (loaded and ready to draw). */
async function readTemplate(
  doc: TiledDoc,
  name: string,
  resources: ResourceLoader,
  loadImage: ReturnType<typeof imageCache>,
  notes: string[],
): Promise<Template> {
  let bytes: Uint8Array;
  try {
    bytes = (await loadResource(resources, { format: FORMAT, what: 'the object template', name })).bytes;
  } catch (e) {
    if (!isFormatError(e)) throw e;
    notes.push(`tiled: ${e.reason}`);
    return { object: {}, missing: true };
  }
  let json: J;
  let r: JsonReader;
  if (xmlRootName(bytes) !== undefined) {
    const x = readXmlDocument(FORMAT, bytes, undefined, name);
    json = x.json;
    r = x.reader;
  } else {
    r = new JsonReader(FORMAT, name);
    json = r.obj(r.parse(bytes), name);
  }
  const object = isObj(json.object) ? json.object : {};
  if (!isObj(json.tileset)) return { object };
  const dir = dirOf(name);
  const tsRef = json.tileset;
  let ts: TiledTileset;
  let tsDir = dir;
  if (typeof tsRef.source === 'string') {
    const fake: TiledDoc = { ...doc, tilesets: [{ ...readTileset(r, tsRef, `${name}.tileset`, true), source: dir + tsRef.source }] };
    const res = await resolveTileset(fake, 0, resources, []);
    ts = res.ts;
    tsDir = res.dir;
  } else ts = readTileset(r, tsRef, `${name}.tileset`, true);
  return { object, set: await drawSet(ts, tsDir, loadImage, notes) };
}
