/**
 * The SpriteTile level document (TileEditor `.bytes` files, versions 2 and 3;
 * docs/spec/spritetile.md) and helpers to edit it. Cells keep their
 * raw stored values so that an unchanged level is written back byte for
 * byte; `getCell` / `setCell` decode and encode them.
 */

export const MAGIC = 'SpriteTileLevel';
export const HEADER_SIZE = 24;
export const TAG_ENTRY_SIZE = 11;
export const LAYER_HEADER_SIZE = 47;
export const CELL_SIZE = 7;
export const VALID_NUM_SETS: readonly number[] = [32, 16, 8, 4, 2];
export const LAYER_LOCK_NAMES = ['None', 'X', 'Y', 'XandY'] as const;

/** Flag bits of a cell's u16. */
export const ROTATION_MASK = 0x07ff;
export const FLIP_Y = 0x0800;
export const FLIP_X = 0x1000;
export const COLLIDER = 0x8000;
/** The largest raw rotation (360.0 degrees × 5). */
export const MAX_RAW_ROTATION = 1800;

export interface SpriteTileLayer {
  /** World size of one tile (not the layer's size in tiles). */
  tileSizeX: number;
  tileSizeY: number;
  /** Editor scroll position (TileEditor only). */
  scrollX: number;
  scrollY: number;
  /** Editor preview size (TileEditor only; 64 by default). */
  previewSize: number;
  /** Z position in world space. */
  z: number;
  /** 0 None, 1 X, 2 Y, 3 XandY; other values are kept (validate reports them). */
  layerLock: number;
  addBorder: number;
  /** Size in tiles. */
  width: number;
  height: number;
  /**
   * Raw cell values, width × height each, in file order: the bottom row
   * first, left to right (index = y × width + x with y = 0 at the bottom).
   */
  tiles: Int16Array;
  flags: Uint16Array;
  order: Int16Array;
  trigger: Uint8Array;
}

export interface SpriteTileTag {
  /** Seven characters (bytes as Latin-1). */
  name: string;
  /** The offset the table gave when read (the writer computes its own). */
  offset: number;
}

export interface SpriteTileLevel {
  /** Byte order of every multi-byte value (the endianness byte: 1 little, 0 big). */
  littleEndian: boolean;
  /** 2 or 3. */
  version: number;
  /** 32 (the default when there is no `numsets` tag), 16, 8, 4 or 2. */
  numSets: number;
  /** The `lvlayrs` layers, or null when the file has no `lvlayrs` tag (a TileEditor "groups" file). */
  layers: SpriteTileLayer[] | null;
  /** The tag table, in file order. */
  tags: SpriteTileTag[];
  /** Data of every tag other than `lvlayrs` and `numsets`, kept as it was. */
  opaque: Map<string, Uint8Array>;
  /**
   * The order of the tags' data in the file: one entry per data extent, each
   * the names of the tags that share it (normally one). Tags missing here are
   * written after the others.
   */
  dataOrder: string[][];
  /** Bytes between the tag table and the first tag's data (normally none). */
  gap: Uint8Array;
}

/** A decoded cell. */
export interface SpriteTileCell {
  /** True for an empty cell (stored tile -1); set and tile are then -1. */
  empty: boolean;
  set: number;
  tile: number;
  /** Degrees counter-clockwise, 0.0 to 360.0 in 0.2 steps. */
  rotation: number;
  flipX: boolean;
  flipY: boolean;
  collider: boolean;
  /** Order in layer (i16). */
  order: number;
  /** Trigger value (u8). */
  trigger: number;
  /** The stored values. */
  rawTile: number;
  rawFlags: number;
}

export function tilesPerSet(numSets: number): number {
  return 32768 / numSets;
}

/** An empty level (version 3, little-endian, no layers yet). */
export function createLevel(numSets = 32): SpriteTileLevel {
  if (!VALID_NUM_SETS.includes(numSets)) throw new RangeError(`numSets must be one of ${VALID_NUM_SETS.join(', ')}`);
  return {
    littleEndian: true,
    version: 3,
    numSets,
    layers: [],
    tags: [{ name: 'lvlayrs', offset: 0 }],
    opaque: new Map(),
    dataOrder: [['lvlayrs']],
    gap: new Uint8Array(0),
  };
}

export interface NewLayerOptions {
  width: number;
  height: number;
  tileSizeX?: number;
  tileSizeY?: number;
  z?: number;
  layerLock?: number;
  addBorder?: number;
  previewSize?: number;
}

function checkSize(width: number, height: number): void {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 0 || height < 0) {
    throw new RangeError(`bad layer size ${width}x${height}`);
  }
}

/** A new layer of empty cells. */
export function createLayer(opts: NewLayerOptions): SpriteTileLayer {
  checkSize(opts.width, opts.height);
  const n = opts.width * opts.height;
  return {
    tileSizeX: opts.tileSizeX ?? 1,
    tileSizeY: opts.tileSizeY ?? opts.tileSizeX ?? 1,
    scrollX: 0,
    scrollY: 0,
    previewSize: opts.previewSize ?? 64,
    z: opts.z ?? 0,
    layerLock: opts.layerLock ?? 0,
    addBorder: opts.addBorder ?? 0,
    width: opts.width,
    height: opts.height,
    tiles: new Int16Array(n).fill(-1),
    flags: new Uint16Array(n),
    order: new Int16Array(n),
    trigger: new Uint8Array(n),
  };
}

/** Adds a new empty layer at the end and returns it. */
export function addLayer(level: SpriteTileLevel, opts: NewLayerOptions): SpriteTileLayer {
  const layer = createLayer(opts);
  if (!level.layers) level.layers = [];
  level.layers.push(layer);
  return layer;
}

function index(layer: SpriteTileLayer, x: number, y: number): number {
  if (!Number.isInteger(x) || !Number.isInteger(y) || x < 0 || y < 0 || x >= layer.width || y >= layer.height) {
    throw new RangeError(`cell (${x}, ${y}) is outside the ${layer.width}x${layer.height} layer`);
  }
  return y * layer.width + x;
}

/** Decodes raw values into a cell. */
export function decodeCell(rawTile: number, rawFlags: number, order: number, trigger: number, numSets: number): SpriteTileCell {
  const per = tilesPerSet(numSets);
  const empty = rawTile === -1;
  return {
    empty,
    set: empty ? -1 : Math.floor(rawTile / per),
    tile: empty ? -1 : rawTile % per,
    rotation: (rawFlags & ROTATION_MASK) / 5,
    flipX: (rawFlags & FLIP_X) !== 0,
    flipY: (rawFlags & FLIP_Y) !== 0,
    collider: (rawFlags & COLLIDER) !== 0,
    order,
    trigger,
    rawTile,
    rawFlags,
  };
}

/** The cell at (x, y); y = 0 is the BOTTOM row. */
export function getCell(level: SpriteTileLevel, layer: SpriteTileLayer, x: number, y: number): SpriteTileCell {
  const i = index(layer, x, y);
  return decodeCell(layer.tiles[i]!, layer.flags[i]!, layer.order[i]!, layer.trigger[i]!, level.numSets);
}

export interface CellInput {
  /** Omit (or -1) with tile -1 for an empty cell. */
  set?: number;
  tile: number;
  rotation?: number;
  flipX?: boolean;
  flipY?: boolean;
  collider?: boolean;
  order?: number;
  trigger?: number;
}

/** The raw tile value for (set, tile), or -1 for an empty cell. */
export function encodeTile(set: number, tile: number, numSets: number): number {
  if (tile === -1 && (set === -1 || set === 0)) return -1;
  const per = tilesPerSet(numSets);
  if (!Number.isInteger(set) || set < 0 || set >= numSets) throw new RangeError(`set ${set} is outside 0-${numSets - 1}`);
  if (!Number.isInteger(tile) || tile < 0 || tile >= per) throw new RangeError(`tile ${tile} is outside 0-${per - 1}`);
  return set * per + tile;
}

/** The raw flags value; rotation is rounded to 0.2 degrees. Bits 13-14 come from `keep`. */
export function encodeFlags(c: Pick<CellInput, 'rotation' | 'flipX' | 'flipY' | 'collider'>, keep = 0): number {
  const rot = Math.round((c.rotation ?? 0) * 5);
  if (!(rot >= 0 && rot <= MAX_RAW_ROTATION)) throw new RangeError(`rotation ${c.rotation} is outside 0-360 degrees`);
  return (rot | (c.flipY ? FLIP_Y : 0) | (c.flipX ? FLIP_X : 0) | (c.collider ? COLLIDER : 0) | (keep & 0x6000)) >>> 0;
}

/** Sets the cell at (x, y); y = 0 is the BOTTOM row. Unused flag bits are kept. */
export function setCell(level: SpriteTileLevel, layer: SpriteTileLayer, x: number, y: number, c: CellInput): void {
  const i = index(layer, x, y);
  const order = c.order ?? 0;
  const trigger = c.trigger ?? 0;
  if (!Number.isInteger(order) || order < -32768 || order > 32767) throw new RangeError(`order ${order} is outside the i16 range`);
  if (!Number.isInteger(trigger) || trigger < 0 || trigger > 255) throw new RangeError(`trigger ${trigger} is outside 0-255`);
  layer.tiles[i] = encodeTile(c.set ?? 0, c.tile, level.numSets);
  layer.flags[i] = encodeFlags(c, layer.flags[i]!);
  layer.order[i] = order;
  layer.trigger[i] = trigger;
}

/**
 * Resizes a layer in place, keeping the cells that still fit (anchored at
 * the lower-left corner, as the file stores them); new cells are empty.
 */
export function resizeLayer(layer: SpriteTileLayer, width: number, height: number): void {
  checkSize(width, height);
  const n = width * height;
  const tiles = new Int16Array(n).fill(-1);
  const flags = new Uint16Array(n);
  const order = new Int16Array(n);
  const trigger = new Uint8Array(n);
  const w = Math.min(width, layer.width);
  const h = Math.min(height, layer.height);
  for (let y = 0; y < h; y++) {
    const from = y * layer.width;
    const to = y * width;
    tiles.set(layer.tiles.subarray(from, from + w), to);
    flags.set(layer.flags.subarray(from, from + w), to);
    order.set(layer.order.subarray(from, from + w), to);
    trigger.set(layer.trigger.subarray(from, from + w), to);
  }
  layer.width = width;
  layer.height = height;
  layer.tiles = tiles;
  layer.flags = flags;
  layer.order = order;
  layer.trigger = trigger;
}

/** The sets used by a layer's cells, ascending. */
export function setsUsed(level: SpriteTileLevel, layer: SpriteTileLayer): number[] {
  const per = tilesPerSet(level.numSets);
  const seen = new Set<number>();
  for (let i = 0; i < layer.tiles.length; i++) {
    const t = layer.tiles[i]!;
    if (t >= 0) seen.add(Math.floor(t / per));
  }
  return [...seen].sort((a, b) => a - b);
}
