import { FormatError, OptionError } from '../../binary/errors.js';
import { parsedOption, selectIndex } from '../options.js';
import type { RgbaImage } from '../../render/image.js';
import { drawPicture, solidImage, type Picture, type PictureLayer, type PicturePart } from '../../render/pipeline.js';
import { budgetFrom } from '../../binary/limits.js';
import { compose, rotate, scale, translate } from '../../render/matrix.js';
import { foundResources, imageCache } from '../resources.js';
import type { CommandOptions, OptionSpec, RenderResult, ResourceLoader } from '../types.js';
import type { LevelModel } from '../../model/types.js';
import { levelToModel } from './convert.js';
import { FLIP_X, FLIP_Y, getCell, ROTATION_MASK, tilesPerSet, type SpriteTileLevel } from './model.js';

const FORMAT = 'spritetile';
/**
 * Layout, not a limit: without tilesets, cells shrink (down to one pixel)
 * until the level fits this side and area. What may be allocated is the
 * pipeline's --max-pixels budget.
 */
const FLAT_FIT_SIDE = 8192;
const FLAT_FIT_PIXELS = 40_000_000;
/** Pixels per tile when no tileset is given (shrunk for big levels). */
export const DEFAULT_CELL_PIXELS = 16;

export interface TilesetSpec {
  set: number;
  path: string;
  tileWidth: number;
  tileHeight: number;
}

/** The paths inside a --tileset value (SET=IMAGE.png:WxH,...), each rewritten by `resolve`. */
export function tilesetPaths(value: string, resolve: (p: string) => string): string {
  return value
    .split(',')
    .map((part) => {
      const m = /^(\s*\d+=)(.+)(:\d+x\d+\s*)$/.exec(part);
      return m ? m[1] + resolve(m[2]!) + m[3] : part;
    })
    .join(',');
}

/** `render --tileset`: the tile images, by tile set. */
export const TILESET_OPTION = {
  name: 'tileset',
  type: 'string',
  value: 'SET=IMAGE.png:WxH,...',
  description: 'SpriteTile tile images, several separated by commas (tiles without one are flat colours)',
  parse: parseTilesetOption,
  paths: tilesetPaths,
} as const satisfies OptionSpec;

/** Parses `SET=IMAGE.png:WxH[,SET=IMAGE.png:WxH...]`; an OptionError names the bad item. */
export function parseTilesetOption(value: string): TilesetSpec[] {
  const out: TilesetSpec[] = [];
  for (const part of value.split(',')) {
    const s = part.trim();
    if (!s) continue;
    const m = /^(\d+)=(.+):(\d+)x(\d+)$/.exec(s);
    if (!m || Number(m[3]) < 1 || Number(m[4]) < 1) {
      throw new OptionError(`"${s}" is not SET=IMAGE.png:WxH, e.g. 0=tiles.png:16x16`);
    }
    out.push({ set: Number(m[1]), path: m[2]!, tileWidth: Number(m[3]), tileHeight: Number(m[4]) });
  }
  return out;
}

/** A flat colour for a tile number (stable, well spread hues). */
export function tileColour(rawTile: number): [number, number, number] {
  // golden-angle hues: neighbouring tile numbers get clearly different colours
  const hue = (((((rawTile + 1) * 137.508) % 360) + 360) % 360) / 60;
  const c = 200;
  const x = Math.round(c * (1 - Math.abs((hue % 2) - 1)));
  const base = 40;
  const rgb: [number, number, number][] = [
    [c, x, 0],
    [x, c, 0],
    [0, c, x],
    [0, x, c],
    [x, 0, c],
    [c, 0, x],
  ];
  const [r, g, b] = rgb[Math.floor(hue) % 6]!;
  return [r + base, g + base, b + base];
}

interface LoadedTileset extends TilesetSpec {
  image: RgbaImage;
  columns: number;
  count: number;
}

/** The level names no file; the --tileset images given (`references`), by existence only. */
export async function spriteTileReferences(resources: ResourceLoader, options?: CommandOptions): Promise<string[]> {
  const specs = parsedOption(options, TILESET_OPTION) ?? [];
  return foundResources(
    resources,
    specs.map((s) => ({ format: FORMAT, what: `--tileset image for set ${s.set}`, name: s.path })),
  );
}

/**
 * The level as a common model with the `--tileset` images put on its
 * tilesets ("set N"), so that a conversion (to Tiled, say) writes the tile
 * images a client needs. When every image has one tile size and every layer
 * one SpriteTile tile size, the model's grid takes that pixel size.
 */
export async function levelModelWithTilesets(
  level: SpriteTileLevel,
  options: CommandOptions,
  resources: ResourceLoader,
): Promise<LevelModel> {
  const model = levelToModel(level, options);
  const specs = parsedOption(options, TILESET_OPTION) ?? [];
  if (!specs.length) return model;
  for (const s of specs) selectIndex('tileset', s.set, level.numSets, 'tile set', 'the level');
  const loadImage = imageCache(resources, options);
  const notes: string[] = [];
  for (const s of specs) {
    const ts = model.tilesets.find((t) => t.name === `set ${s.set}`);
    if (!ts) {
      notes.push(`spritetile: --tileset image for set ${s.set} left out: no cell uses that set`);
      continue;
    }
    const { image } = await loadImage({ format: FORMAT, what: `--tileset image for set ${s.set}`, name: s.path });
    ts.image = image;
    ts.imagePath = s.path;
    ts.tileWidth = s.tileWidth;
    ts.tileHeight = s.tileHeight;
  }
  const sizes = new Set(model.tilesets.filter((t) => t.image).map((t) => `${t.tileWidth}x${t.tileHeight}`));
  const layerSizes = new Set((level.layers ?? []).map((l) => `${l.tileSizeX}x${l.tileSizeY}`));
  const first = model.tilesets.find((t) => t.image);
  if (first && sizes.size === 1 && layerSizes.size <= 1) {
    for (const l of model.layers) {
      l.tileWidth = first.tileWidth;
      l.tileHeight = first.tileHeight;
    }
  } else if (first) {
    notes.push('spritetile: the --tileset images or the layers have several tile sizes; the grid keeps 32 px cells');
  }
  if (notes.length) model.notes = [...(model.notes ?? []), ...notes];
  return model;
}

/**
 * Draws every layer, back to front (largest z first, Unity's camera looking
 * along +z), cells by order-in-layer. Tiles come from the tileset images
 * given per set; tiles without one are flat colours from their number.
 * The level as a picture; its cells are made as the pipeline draws them.
 */
export async function spriteTilePicture(level: SpriteTileLevel, options: CommandOptions, resources: ResourceLoader): Promise<Picture> {
  const layers = level.layers ?? [];
  if (!layers.length) throw new FormatError(FORMAT, 'nothing to draw: the file has no layers');
  const specs = parsedOption(options, TILESET_OPTION) ?? [];
  for (const s of specs) selectIndex('tileset', s.set, level.numSets, 'tile set', 'the level');
  const sets = new Map<number, LoadedTileset>();
  const loadImage = imageCache(resources, options);
  for (const s of specs) {
    const { image } = await loadImage({ format: FORMAT, what: `--tileset image for set ${s.set}`, name: s.path });
    const columns = Math.floor(image.width / s.tileWidth);
    const rows = Math.floor(image.height / s.tileHeight);
    sets.set(s.set, { ...s, image, columns, count: columns * rows });
  }
  const sizes = layers.map((l) => l.tileSizeX).filter((v) => v > 0 && Number.isFinite(v));
  const unit = sizes.length ? sizes.reduce((m, v) => Math.min(m, v)) : 1;
  const cellFor = (v: number): number => (v > 0 && Number.isFinite(v) ? v / unit : 1);
  // pixels per tile of the smallest world size
  let base = specs.length ? specs.reduce((m, s) => Math.max(m, s.tileWidth), 0) : DEFAULT_CELL_PIXELS;
  const span = (pick: (l: (typeof layers)[number]) => number): number => layers.reduce((m, l) => Math.max(m, pick(l)), 1);
  const wUnits = span((l) => l.width * cellFor(l.tileSizeX));
  const hUnits = span((l) => l.height * cellFor(l.tileSizeY));
  if (!specs.length) {
    while (base > 1 && (wUnits * base > FLAT_FIT_SIDE || hUnits * base > FLAT_FIT_SIDE || wUnits * hUnits * base * base > FLAT_FIT_PIXELS))
      base--;
  }
  const W = Math.ceil(wUnits * base);
  const H = Math.ceil(hUnits * base);
  const per = tilesPerSet(level.numSets);
  const flat = new Map<number, RgbaImage>();
  const orderOfLayers = layers.map((l, i) => ({ l, i })).sort((a, b) => b.l.z - a.l.z || a.i - b.i);
  function* cells(): Generator<PicturePart> {
    for (const { l, i: layer } of orderOfLayers) {
      const cw = cellFor(l.tileSizeX) * base;
      const ch = cellFor(l.tileSizeY) * base;
      const list: number[] = [];
      let ordered = false;
      for (let i = 0; i < l.tiles.length; i++) {
        if (l.tiles[i]! === -1) continue;
        list.push(i);
        if (l.order[i]! !== 0) ordered = true;
      }
      if (ordered) list.sort((a, b) => l.order[a]! - l.order[b]! || a - b);
      for (const i of list) {
        const t = l.tiles[i]!;
        const f = l.flags[i]!;
        const x = i % l.width;
        const y = Math.floor(i / l.width);
        const left = x * cw;
        const top = H - (y + 1) * ch;
        const ts = sets.get(Math.floor(t / per));
        const n = t % per;
        let src: RgbaImage;
        let sx = 0;
        let sy = 0;
        let sw = 1;
        let sh = 1;
        if (ts && n < ts.count) {
          src = ts.image;
          sx = (n % ts.columns) * ts.tileWidth;
          sy = Math.floor(n / ts.columns) * ts.tileHeight;
          sw = ts.tileWidth;
          sh = ts.tileHeight;
        } else {
          let dot = flat.get(t);
          if (!dot) flat.set(t, (dot = solidImage(...tileColour(t))));
          src = dot;
        }
        const deg = (f & ROTATION_MASK) / 5;
        const m = compose(
          translate(-sw / 2, -sh / 2),
          scale((f & FLIP_X ? -1 : 1) * (cw / sw), (f & FLIP_Y ? -1 : 1) * (ch / sh)),
          rotate(-deg),
          translate(left + cw / 2, top + ch / 2),
        );
        yield { image: src, sx, sy, sw, sh, transform: m, layer };
      }
    }
  }
  // The layers as drawn: row 0 at the bottom (the world's y goes up), each layer's cells of its own world size.
  const pictureLayers: PictureLayer[] = layers.map((l, i) => ({
    name: `layer ${i} (z ${l.z})`,
    grid: {
      x: 0,
      y: H,
      cellWidth: cellFor(l.tileSizeX) * base,
      cellHeight: cellFor(l.tileSizeY) * base,
      columns: l.width,
      rows: l.height,
      bottomUp: true,
    },
    cell(x, y) {
      if (x < 0 || y < 0 || x >= l.width || y >= l.height) return undefined;
      const c = getCell(level, l, x, y);
      if (c.empty) return undefined;
      const { empty: _empty, ...fields } = c;
      return fields;
    },
  }));
  return {
    frames: [{ parts: { [Symbol.iterator]: cells } }],
    canvas: { x: 0, y: 0, width: W, height: H },
    layers: pictureLayers,
    what: 'the level',
  };
}

/** `sprat render` for SpriteTile, drawn through the pipeline. */
export async function renderLevel(level: SpriteTileLevel, options: CommandOptions, resources: ResourceLoader): Promise<RenderResult> {
  return drawPicture(await spriteTilePicture(level, options, resources), budgetFrom(options));
}
