import { ByteWriter, type RangePolicy } from '../../binary/writer.js';
import { FormatError } from '../../binary/errors.js';
import { checkOptionValue } from '../options.js';
import type { OptionSpec } from '../types.js';
import { compress, LZF_FLAVOURS, type LzfFlavour } from '../../lzf/index.js';
import {
  CELL_SIZE,
  HEADER_SIZE,
  LAYER_HEADER_SIZE,
  MAGIC,
  TAG_ENTRY_SIZE,
  VALID_NUM_SETS,
  type SpriteTileLayer,
  type SpriteTileLevel,
} from './model.js';

const FORMAT = 'spritetile';

export interface WriteOptions {
  /** LZF flavour: `clzf2` (default, what the TileEditor writes), `liblzf` or `best`. */
  lzf?: LzfFlavour;
  /** Values that do not fit their fields: refused (default) or clamped with a note. */
  range?: RangePolicy;
}

export interface TagLayout {
  name: string;
  offset: number;
  size: number;
}

interface Plan {
  /** Tag table, in order. */
  names: string[];
  /** Data extents in file order. */
  groups: string[][];
}

/** Which tags the level will be written with, and in which data order (decisions 3, 6, 9). */
function plan(level: SpriteTileLevel): Plan {
  const names = level.tags.map((t) => t.name);
  if (level.layers && !names.includes('lvlayrs')) names.push('lvlayrs');
  if (level.numSets !== 32 && !names.includes('numsets')) names.push('numsets');
  const drop = new Set<string>();
  if (!level.layers) drop.add('lvlayrs');
  const table = names.filter((n) => !drop.has(n));
  const placed = new Set<string>();
  const groups: string[][] = [];
  for (const g of level.dataOrder) {
    const members = g.filter((n) => table.includes(n) && !placed.has(n));
    if (members.length === 0) continue;
    members.forEach((n) => placed.add(n));
    groups.push(members);
  }
  for (const n of table) if (!placed.has(n)) groups.push([n]);
  return { names: table, groups };
}

function layersSize(layers: SpriteTileLayer[]): number {
  let size = 4;
  for (const l of layers) size += LAYER_HEADER_SIZE + l.width * l.height * CELL_SIZE;
  return size;
}

function groupSize(level: SpriteTileLevel, group: string[]): number {
  if (group.includes('lvlayrs')) return layersSize(level.layers ?? []);
  if (group.includes('numsets')) return 4;
  return level.opaque.get(group[0]!)?.length ?? 0;
}

/** Every tag's offset and data size as the writer lays them out (for an unchanged file: as read). */
export function layout(level: SpriteTileLevel): { tags: TagLayout[]; size: number } {
  const p = plan(level);
  const at = new Map<string, { offset: number; size: number }>();
  let pos = HEADER_SIZE + p.names.length * TAG_ENTRY_SIZE + level.gap.length;
  for (const g of p.groups) {
    const size = groupSize(level, g);
    for (const n of g) at.set(n, { offset: pos, size });
    pos += size;
  }
  return { tags: p.names.map((name) => ({ name, ...at.get(name)! })), size: pos };
}

function checkLayer(l: SpriteTileLayer, i: number): void {
  const n = l.width * l.height;
  if (
    !Number.isInteger(l.width) ||
    !Number.isInteger(l.height) ||
    l.width < 0 ||
    l.height < 0 ||
    l.width > 0x7fffffff ||
    l.height > 0x7fffffff
  ) {
    throw new FormatError(FORMAT, `layer ${i} has a bad size ${l.width}x${l.height}`);
  }
  if (l.tiles.length !== n || l.flags.length !== n || l.order.length !== n || l.trigger.length !== n) {
    throw new FormatError(FORMAT, `layer ${i} is ${l.width}x${l.height} but its cell arrays do not hold ${n} cells`);
  }
}

/** The decompressed level bytes. */
export function serializeLevel(level: SpriteTileLevel, range?: RangePolicy): Uint8Array {
  if (level.version !== 2 && level.version !== 3) {
    throw new FormatError(FORMAT, `cannot write SpriteTile level version ${level.version} (2 and 3 are known)`);
  }
  if (!VALID_NUM_SETS.includes(level.numSets)) {
    throw new FormatError(FORMAT, `numSets ${level.numSets} is not one of 32, 16, 8, 4, 2`);
  }
  (level.layers ?? []).forEach(checkLayer);
  const p = plan(level);
  const { tags, size } = layout(level);
  const le = level.littleEndian;
  const w = new ByteWriter({ format: FORMAT, littleEndian: le, initialSize: size, range });
  w.ascii(MAGIC)
    .u8(le ? 1 : 0)
    .i32(level.version)
    .i32(p.names.length);
  for (const t of tags) {
    if (t.name.length !== 7) throw new FormatError(FORMAT, `tag name "${t.name}" is not 7 characters`);
    w.ascii(t.name).i32(t.offset);
  }
  w.bytes(level.gap);
  for (const g of p.groups) {
    if (g.includes('lvlayrs')) writeLayers(w, level.layers ?? [], le);
    else if (g.includes('numsets')) w.i32(level.numSets);
    else {
      const b = level.opaque.get(g[0]!);
      if (b) w.bytes(b);
    }
  }
  return w.finish();
}

function writeLayers(w: ByteWriter, layers: SpriteTileLayer[], le: boolean): void {
  w.i32(layers.length);
  layers.forEach((l, li) => {
    const at = `layer ${li}`;
    w.ascii('lyrdata')
      .f32(l.tileSizeX)
      .f32(l.tileSizeY)
      .int('i32', l.scrollX, `${at} scrollX`)
      .int('i32', l.scrollY, `${at} scrollY`)
      .int('i32', l.previewSize, `${at} previewSize`)
      .f32(l.z)
      .int('i32', l.layerLock, `${at} layerLock`)
      .int('i32', l.addBorder, `${at} addBorder`)
      .i32(l.width)
      .i32(l.height);
    const n = l.width * l.height;
    const cells = new Uint8Array(n * CELL_SIZE);
    for (let i = 0, p = 0; i < n; i++, p += CELL_SIZE) {
      const t = l.tiles[i]!;
      const f = l.flags[i]!;
      const o = l.order[i]!;
      if (le) {
        cells[p] = t;
        cells[p + 1] = t >> 8;
        cells[p + 2] = f;
        cells[p + 3] = f >> 8;
        cells[p + 4] = o;
        cells[p + 5] = o >> 8;
      } else {
        cells[p] = t >> 8;
        cells[p + 1] = t;
        cells[p + 2] = f >> 8;
        cells[p + 3] = f;
        cells[p + 4] = o >> 8;
        cells[p + 5] = o;
      }
      cells[p + 6] = l.trigger[i]!;
    }
    w.bytes(cells);
  });
}

/** `convert --lzf`: the LZF flavour a SpriteTile file is written with. */
export const LZF_OPTION: OptionSpec & { choices: readonly LzfFlavour[] } = {
  name: 'lzf',
  type: 'string',
  choices: LZF_FLAVOURS,
  description: 'SpriteTile LZF flavour: clzf2 (default, as the TileEditor writes), liblzf or best (smallest)',
};

export function parseFlavour(v: unknown): LzfFlavour {
  if (v === undefined || v === false || v === null) return 'clzf2';
  return checkOptionValue(LZF_OPTION, typeof v === 'string' || typeof v === 'boolean' ? v : String(v)) as LzfFlavour;
}

/** The `.bytes` file: the level, LZF-compressed (default flavour `clzf2`, as the TileEditor writes). */
export function writeSpriteTile(level: SpriteTileLevel, options: WriteOptions = {}): Uint8Array {
  return compress(serializeLevel(level, options.range), parseFlavour(options.lzf));
}
