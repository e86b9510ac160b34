import { ByteReader } from '../../binary/reader.js';
import { FormatError } from '../../binary/errors.js';
import { decompress, measure, DEFAULT_LZF_LIMIT } from '../../lzf/index.js';
import { decompressRetained, splitRecords7, type Records7 } from '../../lzf/wasm.js';
import {
  CELL_SIZE,
  HEADER_SIZE,
  LAYER_HEADER_SIZE,
  MAGIC,
  MAX_RAW_ROTATION,
  ROTATION_MASK,
  TAG_ENTRY_SIZE,
  VALID_NUM_SETS,
  type SpriteTileLayer,
  type SpriteTileLevel,
  type SpriteTileTag,
} from './model.js';

const FORMAT = 'spritetile';
/** Layers of at least this many cells are split with WebAssembly when it is there. */
export const WASM_CELLS_FROM = 2048;

/** Errors inside the level say that their offset is in the decompressed data; the message still ends `(at byte N)`. */
export const LEVEL_PREFIX = 'in the decompressed level: ';

function levelError(reason: string, offset: number): FormatError {
  const e = FormatError.atByte(FORMAT, reason, offset);
  // e.reason is the reason made one line (a tag name may hold a line break).
  e.message = `${LEVEL_PREFIX}${e.reason} (at byte ${offset})`;
  return e;
}

function relabel(e: unknown): never {
  if (e instanceof FormatError && e.format === FORMAT && e.offset !== undefined && !e.message.startsWith(LEVEL_PREFIX)) {
    throw levelError(e.reason, e.offset);
  }
  throw e;
}

export interface ReadOptions {
  /** LZF decompression limit (default 256 MiB). */
  limit?: number;
}

/** Reads a `.bytes` file: decompresses the LZF stream, then parses the level. */
export function readSpriteTile(bytes: Uint8Array, options: ReadOptions = {}): SpriteTileLevel {
  const limit = options.limit ?? DEFAULT_LZF_LIMIT;
  let data: Uint8Array;
  try {
    // Big levels: decode in WebAssembly and split the cells where they lie.
    const kept = bytes.length >= 4096 ? decompressRetained(bytes, limit, measure) : null;
    if (kept && kept !== 'damaged') {
      try {
        return parseWith(kept.data, kept.split);
      } finally {
        kept.done();
      }
    }
    data = decompress(bytes, { limit });
  } catch (e) {
    if (e instanceof FormatError && e.format === 'lzf' && e.offset !== undefined) {
      const err = FormatError.atByte('lzf', e.reason, e.offset);
      err.message = `damaged LZF stream in the file: ${e.reason} (at byte ${e.offset})`;
      throw err;
    }
    throw e;
  }
  return parseLevel(data);
}

/** Parses decompressed level data. Errors name offsets inside it. */
export function parseLevel(data: Uint8Array): SpriteTileLevel {
  return parseWith(data, (at, n, le) => splitRecords7(data, at, n, le));
}

/** Splits `n` cells at data[at] fast: the arrays, the index of a bad cell, or null (use the JavaScript loop). */
type Splitter = (at: number, n: number, littleEndian: boolean) => Records7 | number | null;

function parseWith(data: Uint8Array, split: Splitter): SpriteTileLevel {
  try {
    return parse(data, split);
  } catch (e) {
    relabel(e);
  }
}

function parse(data: Uint8Array, split: Splitter): SpriteTileLevel {
  const r = new ByteReader(data, { format: FORMAT });
  if (data.length < MAGIC.length || r.ascii(MAGIC.length) !== MAGIC) {
    throw levelError('not a SpriteTile level: the data does not start with "SpriteTileLevel"', 0);
  }
  r.need(9, 'header');
  const endian = r.u8();
  if (endian !== 0 && endian !== 1) throw levelError(`endianness byte ${endian} is neither 0 (big) nor 1 (little)`, 15);
  r.littleEndian = endian === 1;
  const version = r.i32();
  if (version !== 2 && version !== 3) throw levelError(`unsupported SpriteTile level version ${version} (2 and 3 are known)`, 16);
  const count = r.i32();
  if (count < 1) throw levelError(`tag count ${count} is invalid: a level has at least one tag`, 20);
  r.checkCount(count, TAG_ENTRY_SIZE, 'tag', 20);
  const tableEnd = HEADER_SIZE + count * TAG_ENTRY_SIZE;
  const tags: SpriteTileTag[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < count; i++) {
    const at = r.pos;
    const name = r.ascii(7, 'tag name');
    const offset = r.i32();
    if (seen.has(name)) throw levelError(`tag "${name}" appears twice in the tag table`, at);
    seen.add(name);
    if (offset < tableEnd || offset > data.length) {
      throw levelError(`tag "${name}" has offset ${offset}, outside the tag data (${tableEnd} to ${data.length})`, at + 7);
    }
    tags.push({ name, offset });
  }

  // Extents: each distinct offset up to the next larger one, or the end.
  const offsets = [...new Set(tags.map((t) => t.offset))].sort((a, b) => a - b);
  const extentEnd = new Map<number, number>();
  offsets.forEach((o, i) => extentEnd.set(o, i + 1 < offsets.length ? offsets[i + 1]! : data.length));
  const dataOrder = offsets.map((o) => tags.filter((t) => t.offset === o).map((t) => t.name));
  const gap = data.slice(tableEnd, offsets[0]!);

  const level: SpriteTileLevel = {
    littleEndian: r.littleEndian,
    version,
    numSets: 32,
    layers: null,
    tags,
    opaque: new Map(),
    dataOrder,
    gap,
  };

  for (const tag of tags) {
    const start = tag.offset;
    const end = extentEnd.get(start)!;
    const sub = new ByteReader(data, { format: FORMAT, littleEndian: r.littleEndian, start, end });
    if (tag.name === 'numsets') {
      if (end - start < 4) throw levelError(`numsets data is ${end - start} bytes; it needs 4`, start);
      const v = sub.i32();
      if (!VALID_NUM_SETS.includes(v)) throw levelError(`numsets is ${v}; it must be one of 32, 16, 8, 4, 2`, start);
      if (!sub.atEnd) throw levelError(`${sub.remaining} bytes left over after the numsets value`, sub.pos);
      level.numSets = v;
    } else if (tag.name === 'lvlayrs') {
      level.layers = readLayers(sub, split);
    } else {
      level.opaque.set(tag.name, data.slice(start, end));
    }
  }
  return level;
}

function readLayers(r: ByteReader, split: Splitter): SpriteTileLayer[] {
  const countAt = r.pos;
  const count = r.i32();
  r.checkCount(count, LAYER_HEADER_SIZE, 'layer', countAt);
  const layers: SpriteTileLayer[] = [];
  const d = r.bytes;
  const le = r.littleEndian;
  for (let li = 0; li < count; li++) {
    const at = r.pos;
    r.need(LAYER_HEADER_SIZE, `layer ${li} header`);
    const marker = r.ascii(7);
    if (marker !== 'lyrdata') throw levelError(`layer ${li} does not start with "lyrdata" (found ${JSON.stringify(marker)})`, at);
    const tileSizeX = r.f32();
    const tileSizeY = r.f32();
    const scrollX = r.i32();
    const scrollY = r.i32();
    const previewSize = r.i32();
    const z = r.f32();
    const layerLock = r.i32();
    const addBorder = r.i32();
    const width = r.i32();
    const height = r.i32();
    if (width < 0) throw levelError(`layer ${li} width ${width} is negative`, r.pos - 8);
    if (height < 0) throw levelError(`layer ${li} height ${height} is negative`, r.pos - 4);
    const n = width * height;
    if (n * CELL_SIZE > r.remaining) {
      throw levelError(
        `layer ${li} is ${width}x${height} tiles (${n * CELL_SIZE} bytes of cells) but only ${r.remaining} bytes of lvlayrs data remain`,
        r.pos - 8,
      );
    }
    const fast = n >= WASM_CELLS_FROM ? split(r.pos, n, le) : null;
    const header = { tileSizeX, tileSizeY, scrollX, scrollY, previewSize, z, layerLock, addBorder, width, height };
    if (fast && typeof fast === 'object') {
      r.pos += n * CELL_SIZE;
      layers.push({ ...header, tiles: fast.a, flags: fast.b, order: fast.c, trigger: fast.d });
      continue;
    }
    // the JavaScript loop: small layers, no WebAssembly, or a bad cell to report
    const tiles = new Int16Array(n);
    const flags = new Uint16Array(n);
    const order = new Int16Array(n);
    const trigger = new Uint8Array(n);
    let p = r.pos;
    for (let i = 0; i < n; i++, p += CELL_SIZE) {
      let t: number;
      let f: number;
      let o: number;
      if (le) {
        t = ((d[p + 1]! << 24) | (d[p]! << 16)) >> 16;
        f = d[p + 2]! | (d[p + 3]! << 8);
        o = ((d[p + 5]! << 24) | (d[p + 4]! << 16)) >> 16;
      } else {
        t = ((d[p]! << 24) | (d[p + 1]! << 16)) >> 16;
        f = (d[p + 2]! << 8) | d[p + 3]!;
        o = ((d[p + 4]! << 24) | (d[p + 5]! << 16)) >> 16;
      }
      if (t < -1) throw levelError(`layer ${li} cell ${i} has tile value ${t}; only -1 (empty) may be negative`, p);
      if ((f & ROTATION_MASK) > MAX_RAW_ROTATION) {
        throw levelError(`layer ${li} cell ${i} has rotation ${f & ROTATION_MASK} (over 1800, i.e. 360 degrees)`, p + 2);
      }
      tiles[i] = t;
      flags[i] = f;
      order[i] = o;
      trigger[i] = d[p + 6]!;
    }
    r.pos = p;
    layers.push({ ...header, tiles, flags, order, trigger });
  }
  if (!r.atEnd) throw levelError(`${r.remaining} bytes left over after the last layer in lvlayrs`, r.pos);
  return layers;
}
