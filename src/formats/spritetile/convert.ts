import { FormatError } from '../../binary/errors.js';
import { budgetFrom } from '../../binary/limits.js';
import type { CommandOptions } from '../types.js';
import { fitInt, rangePolicy } from '../../binary/writer.js';
import type { LevelModel, ModelCell, ModelTileLayer, SpriteModel } from '../../model/types.js';
import {
  COLLIDER,
  FLIP_X,
  FLIP_Y,
  MAX_RAW_ROTATION,
  ROTATION_MASK,
  VALID_NUM_SETS,
  createLevel,
  createLayer,
  tilesPerSet,
  setsUsed,
  type SpriteTileLevel,
} from './model.js';

const FORMAT = 'spritetile';
/** Pixel size given to tiles in the common model when nothing better is known. */
export const MODEL_TILE_PIXELS = 32;

/**
 * To the common LevelModel. Rows are reversed (the model's row 0 is the top,
 * SpriteTile's the bottom); order, trigger, collider and the unused flag bits
 * go to cell.extra; z, lock, tile sizes and editor values to layer
 * properties. One tileset per SpriteTile set used, named "set N".
 */
export function levelToModel(level: SpriteTileLevel, options?: CommandOptions): LevelModel {
  const per = tilesPerSet(level.numSets);
  const layers = level.layers ?? [];
  // A few MB of LZF hold 10^7 cells; each model cell is an object. Count them before making any.
  const budget = budgetFrom(options);
  layers.forEach((l, li) => budget.spend('maxItems', l.tiles.length, `the cells of layer ${li} (${l.width}x${l.height})`));
  const used = new Set<number>();
  for (const l of layers) for (const s of setsUsed(level, l)) used.add(s);
  const sets = [...used].sort((a, b) => a - b);
  const setIndex = new Map(sets.map((s, i) => [s, i]));
  const notes: string[] = [];
  const dropped = level.tags.map((t) => t.name).filter((n) => n !== 'lvlayrs' && n !== 'numsets');
  if (dropped.length) notes.push(`SpriteTile editor tags not carried over: ${dropped.join(', ')}`);
  const modelLayers: ModelTileLayer[] = layers.map((l, li) => {
    const cells: ModelCell[] = new Array(l.width * l.height);
    for (let y = 0; l.width > 0 && y < l.height; y++) {
      const row = l.height - 1 - y;
      for (let x = 0; x < l.width; x++) {
        const i = y * l.width + x;
        const t = l.tiles[i]!;
        const f = l.flags[i]!;
        const extra: Record<string, number | boolean> = { order: l.order[i]!, trigger: l.trigger[i]!, collider: (f & COLLIDER) !== 0 };
        if (f & 0x6000) extra.unusedFlags = f & 0x6000;
        const cell: ModelCell = t === -1 ? { set: -1, tile: -1 } : { set: setIndex.get(Math.floor(t / per))!, tile: t % per };
        if (f & FLIP_X) cell.flipX = true;
        if (f & FLIP_Y) cell.flipY = true;
        if (f & ROTATION_MASK) cell.rotation = (f & ROTATION_MASK) / 5;
        cell.extra = extra;
        cells[row * l.width + x] = cell;
      }
    }
    return {
      name: `layer ${li}`,
      width: l.width,
      height: l.height,
      tileWidth: MODEL_TILE_PIXELS,
      tileHeight: MODEL_TILE_PIXELS,
      cells,
      properties: {
        tileSizeX: l.tileSizeX,
        tileSizeY: l.tileSizeY,
        z: l.z,
        layerLock: l.layerLock,
        addBorder: l.addBorder,
        previewSize: l.previewSize,
        scrollX: l.scrollX,
        scrollY: l.scrollY,
      },
    };
  });
  return {
    kind: 'level',
    layers: modelLayers,
    tilesets: sets.map((s) => ({ name: `set ${s}`, tileWidth: MODEL_TILE_PIXELS, tileHeight: MODEL_TILE_PIXELS })),
    properties: { numSets: level.numSets, version: level.version, littleEndian: level.littleEndian },
    notes,
  };
}

function num(v: unknown, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}

/**
 * From the common LevelModel (decision 6: little-endian, version 3, lvlayrs
 * and numsets only). Every number is checked against its field: one that
 * does not fit is a FormatError naming the layer, the field and the value,
 * or with `clamp` the nearest value that fits, with a note in model.notes.
 */
export function levelFromModel(model: SpriteModel | LevelModel, opts: { clamp?: boolean } = {}): SpriteTileLevel {
  if (model.kind !== 'level') throw new FormatError(FORMAT, 'a SpriteTile level can only be made from a tile map, not a sprite');
  const notes: string[] = [];
  const policy = rangePolicy(!!opts.clamp, notes);
  const fitField = (kind: 'i16' | 'u8' | 'i32', v: number, what: () => string): number =>
    Number.isInteger(v) && v >= -0x8000 && v <= (kind === 'u8' ? 0xff : 0x7fff) && (kind !== 'u8' || v >= 0)
      ? v
      : fitInt(FORMAT, kind, v, what(), policy);
  const wanted = num(model.properties?.numSets, 32);
  const numSets = VALID_NUM_SETS.includes(wanted) ? wanted : 32;
  if (numSets !== wanted) notes.push(`spritetile: numSets ${wanted} is not one of ${VALID_NUM_SETS.join(', ')}; 32 written`);
  const per = tilesPerSet(numSets);
  const level = createLevel(numSets);
  // the SpriteTile set of each model tileset: "set N" names keep N, others their index
  const setOf = model.tilesets.map((ts, i) => {
    const m = /^set (\d+)$/.exec(ts.name);
    return m ? Number(m[1]) : i;
  });
  /** A float32 field: a finite value that would become infinite is refused (clamping does not apply). */
  const f32 = (v: number, what: () => string): number => {
    if (!Number.isFinite(Math.fround(v))) throw new FormatError(FORMAT, `${what()} ${v} does not fit the file's 32-bit float field`);
    return v;
  };
  level.layers = model.layers.map((ml, li) => {
    const p = ml.properties ?? {};
    const l = createLayer({
      width: ml.width,
      height: ml.height,
      tileSizeX: f32(num(p.tileSizeX, 1), () => `layer ${li} tileSizeX`),
      tileSizeY: f32(num(p.tileSizeY, num(p.tileSizeX, 1)), () => `layer ${li} tileSizeY`),
      z: f32(num(p.z, li), () => `layer ${li} z`),
      layerLock: fitField('i32', num(p.layerLock, 0), () => `layer ${li} layerLock`),
      addBorder: fitField('i32', num(p.addBorder, 0), () => `layer ${li} addBorder`),
      previewSize: fitField('i32', num(p.previewSize, 64), () => `layer ${li} previewSize`),
    });
    l.scrollX = fitField('i32', num(p.scrollX, 0), () => `layer ${li} scrollX`);
    l.scrollY = fitField('i32', num(p.scrollY, 0), () => `layer ${li} scrollY`);
    if (ml.cells.length !== ml.width * ml.height) {
      throw new FormatError(FORMAT, `layer "${ml.name}" has ${ml.cells.length} cells for ${ml.width}x${ml.height}`);
    }
    // No cells, no rows to walk (a 0-wide layer may claim any height).
    for (let row = 0; ml.width > 0 && row < ml.height; row++) {
      const y = ml.height - 1 - row;
      for (let x = 0; x < ml.width; x++) {
        const c = ml.cells[row * ml.width + x]!;
        const i = y * ml.width + x;
        const e = c.extra ?? {};
        if (c.set >= 0 && c.tile >= 0) {
          const set = setOf[c.set] ?? c.set;
          if (set >= numSets || c.tile >= per) {
            throw new FormatError(
              FORMAT,
              `layer "${ml.name}" cell (${x}, ${row}) uses set ${set} tile ${c.tile}, which ${numSets} sets of ${per} tiles cannot hold`,
            );
          }
          l.tiles[i] = set * per + c.tile;
        }
        const r = c.rotation ?? 0;
        let rot = Math.round((r >= 0 && r <= 360 ? r : ((r % 360) + 360) % 360) * 5);
        if (!(rot >= 0 && rot <= MAX_RAW_ROTATION)) rot = 0;
        l.flags[i] =
          rot | (c.flipY ? FLIP_Y : 0) | (c.flipX ? FLIP_X : 0) | (e.collider === true ? COLLIDER : 0) | (num(e.unusedFlags, 0) & 0x6000);
        l.order[i] = fitField('i16', num(e.order, 0), () => `layer ${li} cell (${x}, ${row}) order`);
        l.trigger[i] = fitField('u8', num(e.trigger, 0), () => `layer ${li} cell (${x}, ${row}) trigger`);
      }
    }
    return l;
  });
  policy.finish();
  if (notes.length) model.notes = [...(model.notes ?? []), ...notes];
  return level;
}
