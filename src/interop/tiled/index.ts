/**
 * Tiled maps and tilesets, JSON (.tmj/.tsj/.json) or XML (.tmx/.tsx, read
 * into the JSON shape by xml.ts): finite and infinite maps, tile layers in
 * every encoding (csv, base64 plain/zlib/gzip/zstd), groups, object and
 * image layers, embedded and external tilesets, GIDs with the flip bits,
 * properties of every type; what sprat does not model is kept (`raw`) and
 * written back. Drawn as Tiled draws by draw.ts; converted through the
 * LevelModel (tile layers only).
 */
import { gunzipSync, gzipSync, unzlibSync, zlibSync } from 'fflate';
import { LAYER_OPTIONS } from '../../formats/selections.js';
import { decompress as zstdDecompress } from 'fzstd';
import { diagnosticFromError, FormatError, isFormatError, type Diagnostic, printableLines } from '../../binary/errors.js';
import { budgetFrom } from '../../binary/limits.js';
import type { CommandOptions, FormatHandler, OutputFile, ResourceLoader } from '../../formats/types.js';
import { drawPicture, type PicturePart } from '../../render/pipeline.js';
import { translate } from '../../render/matrix.js';
import { gridSize } from '../../model/frames.js';
import type { LevelModel, ModelCell, ModelTileLayer, ModelTileset, SpriteModel } from '../../model/types.js';
import type { RgbaImage } from '../../render/image.js';
import { encodePng } from '../../render/png.js';
import { foundResources, imageCache, loadResource } from '../../formats/resources.js';
import { baseName, errorIn, has, JsonReader, jsonLinePositions, type FromJson, key, sniffText } from '../json.js';
import { IMAGE_ORDER, looksLikeXml, readXmlDocument, XmlReader, xmlRootName, xmlText } from './xml.js';
import { tiledPicture } from './draw.js';
import { tiledResourceProblems } from './check.js';
import { parseTiledJson } from './json-gids.js';
import { jsonNumbers } from '../../binary/json-array.js';

export const FLIP_H = 0x80000000;
export const FLIP_V = 0x40000000;
export const FLIP_D = 0x20000000;
/** Hexagonal 120° rotation; cleared and ignored on orthogonal maps. */
export const FLIP_HEX = 0x10000000;
const GID_MASK = 0x0fffffff;

/** A property value: a plain value, a `class` value (members by name) or a `list` (typed items), kept as read. */
export type TiledPropertyValue = string | number | boolean | Record<string, unknown> | unknown[];
export interface TiledProperty {
  name: string;
  type: string;
  value: TiledPropertyValue;
  propertytype?: string;
}

/** The object as read (JSON shape, also for TMX): every field sprat does not model, written back as it was. */
export interface Raw {
  raw?: Record<string, unknown>;
}

/** One chunk of an infinite tile layer: a rectangle of GIDs at (x, y) in tiles. */
export interface TiledChunk {
  x: number;
  y: number;
  width: number;
  height: number;
  /** GIDs (flip bits included), rows top first. */
  data: Uint32Array;
}

export interface TiledTileset extends Raw {
  firstgid: number;
  /** An external tileset file (.tsj/.json/.tsx); the other fields are then unknown until loaded. */
  source?: string;
  name: string;
  image?: string;
  imagewidth?: number;
  imageheight?: number;
  tilewidth: number;
  tileheight: number;
  columns: number;
  tilecount: number;
  margin: number;
  spacing: number;
  properties: TiledProperty[];
}

export interface TiledTileLayer extends Raw {
  type: 'tilelayer';
  id?: number;
  name: string;
  width: number;
  height: number;
  x: number;
  y: number;
  opacity: number;
  visible: boolean;
  /** GIDs (flip bits included, unsigned), rows top first; empty for an infinite map's layer (see chunks). 4 bytes a cell. */
  data: Uint32Array;
  /** An infinite map's layer: its chunks. */
  chunks?: TiledChunk[];
  /** How the data was stored ('csv', 'base64'; XML `<tile>` elements read as csv) and compressed ('', zlib, gzip, zstd). */
  encoding?: string;
  compression?: string;
  properties: TiledProperty[];
}

export interface TiledOtherLayer {
  type: 'objectgroup' | 'imagelayer';
  name: string;
  /** The layer as parsed, written back unchanged. */
  raw: Record<string, unknown>;
}

export interface TiledGroupLayer extends Raw {
  type: 'group';
  id?: number;
  name: string;
  layers: TiledLayer[];
  properties: TiledProperty[];
}

export type TiledLayer = TiledTileLayer | TiledOtherLayer | TiledGroupLayer;

export interface TiledDoc extends FromJson, Raw {
  /** A map, or a tileset file on its own (.tsx/.tsj: one tileset, no layers). */
  type: 'map' | 'tileset';
  /** Read from (and by default written as) Tiled's XML syntax (TMX/TSX). */
  xml?: boolean;
  version?: string;
  tiledversion?: string;
  orientation: string;
  renderorder?: string;
  width: number;
  height: number;
  tilewidth: number;
  tileheight: number;
  infinite: boolean;
  nextlayerid?: number;
  nextobjectid?: number;
  layers: TiledLayer[];
  tilesets: TiledTileset[];
  properties: TiledProperty[];
  /** Tileset pixels to write next to the map, by image name (set by fromModel). */
  images?: Map<string, RgbaImage>;
}

const FORMAT = 'tiled';
const MAX_GROUP_DEPTH = 32;
/** Largest layer (cells) accepted from compressed data. */
const MAX_COMPRESSED_CELLS = 1 << 24;
/** Property names sprat uses to carry what Tiled has no place for. */
export const P_SET = 'sprat:set';
export const P_CELLS = 'sprat:cells';
export const P_TILE_W = 'sprat:tileWidth';
export const P_TILE_H = 'sprat:tileHeight';

// ---------------------------------------------------------------- flips

/** 2×2 integer matrix [a, b, c, d]: (x, y) → (a·x + c·y, b·x + d·y), screen space (y down). */
type M2 = [number, number, number, number];
const mul = (m: M2, n: M2): M2 => [
  m[0] * n[0] + m[2] * n[1],
  m[1] * n[0] + m[3] * n[1],
  m[0] * n[2] + m[2] * n[3],
  m[1] * n[2] + m[3] * n[3],
];
const I2: M2 = [1, 0, 0, 1];
const FX: M2 = [-1, 0, 0, 1];
const FY: M2 = [1, 0, 0, -1];
const SWAP: M2 = [0, 1, 1, 0];
/** Counter-clockwise on screen by a multiple of 90°. */
function ccw(deg: number): M2 {
  let m = I2;
  for (let i = 0; i < (((deg / 90) % 4) + 4) % 4; i++) m = mul([0, -1, 1, 0], m);
  return m;
}
/** A model cell's transform: flips first, then the counter-clockwise rotation. */
function cellMatrix(flipX: boolean, flipY: boolean, rotation: number): M2 {
  let m = I2;
  if (flipX) m = mul(FX, m);
  if (flipY) m = mul(FY, m);
  return mul(ccw(rotation), m);
}
/** Tiled's transform for flip bits: the diagonal flip (x/y swap) first, then horizontal, then vertical. */
function bitsMatrix(bits: number): M2 {
  let m = I2;
  if (bits & FLIP_D) m = mul(SWAP, m);
  if (bits & FLIP_H) m = mul(FX, m);
  if (bits & FLIP_V) m = mul(FY, m);
  return m;
}
const eq = (a: M2, b: M2) => a.every((v, i) => v === b[i]);
const ALL_BITS = [0, FLIP_H, FLIP_V, FLIP_H | FLIP_V, FLIP_D, FLIP_D | FLIP_H, FLIP_D | FLIP_V, FLIP_D | FLIP_H | FLIP_V].map(
  (b) => b >>> 0,
);

export interface CellOrientation {
  flipX: boolean;
  flipY: boolean;
  /** Degrees counter-clockwise: 0, 90, 180 or 270. */
  rotation: number;
}

/** For each flip-bit combination, the simplest (fewest flags) model orientation with the same effect. */
const FROM_BITS = new Map<number, CellOrientation>();
for (const bits of ALL_BITS) {
  let best: CellOrientation | undefined;
  let bestCost = 99;
  for (const rotation of [0, 90, 180, 270]) {
    for (const flipX of [false, true]) {
      for (const flipY of [false, true]) {
        if (!eq(cellMatrix(flipX, flipY, rotation), bitsMatrix(bits))) continue;
        // Fewest flags; on a tie a horizontal flip is preferred to a vertical one.
        const cost = +flipX + 1.01 * +flipY + +(rotation !== 0);
        if (cost < bestCost) {
          best = { flipX, flipY, rotation };
          bestCost = cost;
        }
      }
    }
  }
  FROM_BITS.set(bits, best!);
}

/** Tiled flip bits for a model orientation (rotation a multiple of 90°). */
const TO_BITS: number[] = [];
for (let k = 0; k < 16; k++) {
  const m = cellMatrix(!!(k & 1), !!(k & 2), (k >> 2) * 90);
  TO_BITS.push(ALL_BITS.find((b) => eq(bitsMatrix(b), m))!);
}

export function orientationToBits(flipX: boolean, flipY: boolean, rotation: number): number {
  const quarter = ((Math.round(rotation / 90) % 4) + 4) % 4;
  return TO_BITS[+flipX | (+flipY << 1) | (quarter << 2)]!;
}

/** The model orientation for Tiled flip bits (any GID; other bits ignored). */
export function bitsToOrientation(gid: number): CellOrientation {
  return FROM_BITS_BY_TOP[(gid >>> 29) & 7]!;
}
const FROM_BITS_BY_TOP: readonly CellOrientation[] = [0, 1, 2, 3, 4, 5, 6, 7].map((t) =>
  Object.freeze({ ...FROM_BITS.get((t << 29) >>> 0)! }),
);

// ---------------------------------------------------------------- reading

function readProperties(r: JsonReader, v: unknown, path: string, warn?: (d: Diagnostic) => void): TiledProperty[] {
  if (v === undefined) return [];
  // Old Tiled (before 1.2) wrote properties as an object with a `propertytypes` sibling.
  if (r.isObject(v)) {
    return Object.keys(v).map((k) => {
      const val = v[k];
      const p = `${path}${key(k)}`;
      if (typeof val === 'string') return { name: k, type: 'string', value: val };
      if (typeof val === 'boolean') return { name: k, type: 'bool', value: val };
      const n = r.num(val, p);
      return { name: k, type: Number.isInteger(n) ? 'int' : 'float', value: n };
    });
  }
  const out: TiledProperty[] = [];
  r.arr(v, path).forEach((pv, i) => {
    const p = `${path}[${i}]`;
    const o = r.obj(pv, p);
    const name = r.str(o.name, `${p}.name`);
    const type = r.optStr(o, 'type', p) ?? 'string';
    const val = o.value;
    let value: TiledPropertyValue;
    if (type === 'class') value = val === undefined ? {} : r.obj(val, `${p}.value`);
    else if (type === 'list') value = val === undefined ? [] : r.arr(val, `${p}.value`);
    else if (type === 'int' || type === 'float' || type === 'object') value = r.num(val, `${p}.value`);
    else if (type === 'bool') value = r.bool(val, `${p}.value`);
    else if (type === 'string' || type === 'color' || type === 'file') value = r.str(val ?? '', `${p}.value`);
    else {
      // A type this Tiled version does not know: kept as it is.
      warn?.(r.diagnostic('warning', p, `property "${name}" has the unknown type "${type}"; kept as it is`));
      value = (val ?? '') as TiledPropertyValue;
    }
    const prop: TiledProperty = { name, type, value };
    const pt = r.optStr(o, 'propertytype', p);
    if (pt !== undefined) prop.propertytype = pt;
    out.push(prop);
  });
  return out;
}

export function readTileset(r: JsonReader, v: unknown, path: string, needFirstGid: boolean, warn?: (d: Diagnostic) => void): TiledTileset {
  const o = r.obj(v, path);
  const firstgid = needFirstGid ? r.num(o.firstgid, `${path}.firstgid`, { int: true, min: 1, max: GID_MASK }) : 1;
  const source = r.optStr(o, 'source', path);
  if (source !== undefined) {
    return {
      firstgid,
      source,
      name: '',
      tilewidth: 0,
      tileheight: 0,
      columns: 0,
      tilecount: 0,
      margin: 0,
      spacing: 0,
      properties: [],
      raw: o,
    };
  }
  const ts: TiledTileset = {
    raw: o,
    firstgid,
    name: r.optStr(o, 'name', path) ?? '',
    tilewidth: r.num(o.tilewidth, `${path}.tilewidth`, { int: true, min: 1 }),
    tileheight: r.num(o.tileheight, `${path}.tileheight`, { int: true, min: 1 }),
    columns: r.optNum(o, 'columns', path, { int: true, min: 0 }) ?? 0,
    tilecount: r.optNum(o, 'tilecount', path, { int: true, min: 0, max: GID_MASK }) ?? 0,
    margin: r.optNum(o, 'margin', path, { int: true, min: 0 }) ?? 0,
    spacing: r.optNum(o, 'spacing', path, { int: true, min: 0 }) ?? 0,
    properties: readProperties(r, o.properties, `${path}.properties`, warn),
  };
  const image = r.optStr(o, 'image', path);
  if (image !== undefined) {
    ts.image = image;
    const iw = r.optNum(o, 'imagewidth', path, { int: true, min: 0 });
    const ih = r.optNum(o, 'imageheight', path, { int: true, min: 0 });
    if (iw !== undefined) ts.imagewidth = iw;
    if (ih !== undefined) ts.imageheight = ih;
  }
  return ts;
}

function base64Bytes(r: JsonReader, s: string, path: string): Uint8Array {
  const clean = s.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 === 1) throw r.error(path, 'not valid base64');
  const bin = atob(clean.length % 4 ? clean + '='.repeat(4 - (clean.length % 4)) : clean);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Cells decoded from base64 so far in the document being read. */
interface Decoded {
  cells: number;
}

function readLayerData(
  r: JsonReader,
  o: Record<string, unknown>,
  path: string,
  cells: number,
  layer: Record<string, unknown> = o,
  layerPath = path,
  decoded: Decoded = { cells: 0 },
): Uint32Array {
  const encoding = r.optStr(layer, 'encoding', layerPath) ?? 'csv';
  if (encoding === 'csv') {
    // Read straight into a Uint32Array (JSON: parseTiledJson; TMX csv: csvGidArray), already checked: the layer's as it is.
    if (o.data instanceof Uint32Array) {
      if (o.data.length !== cells) throw r.error(`${path}.data`, `has ${o.data.length} entries for ${cells} cells`);
      return o.data;
    }
    const arr = r.arr(o.data, `${path}.data`);
    if (arr.length !== cells) throw r.error(`${path}.data`, `has ${arr.length} entries for ${cells} cells`);
    const out = new Uint32Array(cells);
    for (let i = 0; i < cells; i++) {
      const v = arr[i];
      // The common case checked inline; the path is built only for an error (r.num throws for anything else).
      if (!(typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffffffff))
        r.num(v, `${path}.data[${i}]`, { int: true, min: 0, max: 0xffffffff });
      out[i] = v as number;
    }
    // The raw layer shares the layer's GIDs (not a second array of millions of cells).
    o.data = out;
    return out;
  }
  if (encoding !== 'base64') throw r.error(`${layerPath}.encoding`, `unknown encoding "${encoding}"`);
  const compression = r.optStr(layer, 'compression', layerPath) ?? '';
  // Compressed data is counted over the whole document (an infinite map has many chunks).
  decoded.cells += cells;
  const total = decoded.cells;
  if (cells > MAX_COMPRESSED_CELLS) throw r.error(path, `${cells} cells is more than the ${MAX_COMPRESSED_CELLS} supported`);
  if (total > MAX_COMPRESSED_CELLS)
    throw r.error(path, `the base64 data holds more than the ${MAX_COMPRESSED_CELLS} cells supported in one document`);
  let bytes = base64Bytes(r, r.str(o.data, `${path}.data`), `${path}.data`);
  const expected = cells * 4;
  if (compression === 'zlib' || compression === 'gzip') {
    try {
      bytes =
        compression === 'zlib'
          ? unzlibSync(bytes, { out: new Uint8Array(expected) })
          : gunzipSync(bytes, { out: new Uint8Array(expected) });
    } catch (e) {
      throw r.error(`${path}.data`, `cannot decompress (${compression}): ${(e as Error).message}`);
    }
  } else if (compression === 'zstd') {
    try {
      // The output buffer bounds the memory: a frame that decodes to more fails.
      bytes = zstdDecompress(bytes, new Uint8Array(expected));
    } catch (e) {
      throw r.error(`${path}.data`, `cannot decompress (zstd): ${(e as Error).message}`);
    }
  } else if (compression !== '') {
    throw r.error(`${layerPath}.compression`, `compression "${compression}" is not supported`);
  }
  if (bytes.length !== expected) throw r.error(`${path}.data`, `holds ${bytes.length} bytes for ${cells} cells (${expected} needed)`);
  return gidsOfBytes(bytes, cells);
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** `cells` little-endian 32-bit words as GIDs: the decoded bytes' own memory when it can be (no copy). */
function gidsOfBytes(bytes: Uint8Array, cells: number): Uint32Array {
  if (LITTLE_ENDIAN && bytes.byteOffset % 4 === 0 && bytes.byteLength === cells * 4 && bytes.buffer.byteLength === bytes.byteLength)
    return new Uint32Array(bytes.buffer, bytes.byteOffset, cells);
  const out = new Uint32Array(cells);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < cells; i++) out[i] = dv.getUint32(i * 4, true);
  return out;
}

/** An infinite layer's chunks (each a rectangle of GIDs in any encoding the layer names). */
function readChunks(r: JsonReader, o: Record<string, unknown>, path: string, decoded: Decoded): TiledChunk[] {
  return r.arr(o.chunks, `${path}.chunks`).map((cv, i) => {
    const p = `${path}.chunks[${i}]`;
    const c = r.obj(cv, p);
    const width = r.num(c.width, `${p}.width`, { int: true, min: 0, max: 0x7fffffff });
    const height = r.num(c.height, `${p}.height`, { int: true, min: 0, max: 0x7fffffff });
    return {
      x: r.num(c.x, `${p}.x`, { int: true, min: -0x80000000, max: 0x7fffffff }),
      y: r.num(c.y, `${p}.y`, { int: true, min: -0x80000000, max: 0x7fffffff }),
      width,
      height,
      data: readLayerData(r, c, p, width * height, o, path, decoded),
    };
  });
}

function readLayers(
  r: JsonReader,
  v: unknown,
  path: string,
  depth: number,
  warn: ((d: Diagnostic) => void) | undefined,
  decoded: Decoded,
): TiledLayer[] {
  if (depth > MAX_GROUP_DEPTH) throw r.error(path, `groups nested more than ${MAX_GROUP_DEPTH} deep`);
  return r.arr(v, path).map((lv, i) => {
    const p = `${path}[${i}]`;
    const o = r.obj(lv, p);
    const type = r.str(o.type, `${p}.type`);
    const name = r.optStr(o, 'name', p) ?? '';
    const id = r.optNum(o, 'id', p, { int: true });
    if (type === 'tilelayer') {
      // Tiled stores sizes as 32-bit ints.
      const width = r.num(o.width ?? 0, `${p}.width`, { int: true, min: 0, max: 0x7fffffff });
      const height = r.num(o.height ?? 0, `${p}.height`, { int: true, min: 0, max: 0x7fffffff });
      const chunked = has(o, 'chunks');
      const layer: TiledTileLayer = {
        raw: o,
        type,
        name,
        width,
        height,
        x: r.optNum(o, 'x', p) ?? 0,
        y: r.optNum(o, 'y', p) ?? 0,
        opacity: r.optNum(o, 'opacity', p, { min: 0, max: 1 }) ?? 1,
        visible: r.optBool(o, 'visible', p) ?? true,
        data: chunked ? new Uint32Array(0) : readLayerData(r, o, p, width * height, o, p, decoded),
        properties: readProperties(r, o.properties, `${p}.properties`, warn),
      };
      if (chunked) layer.chunks = readChunks(r, o, p, decoded);
      const enc = r.optStr(o, 'encoding', p);
      if (enc !== undefined) layer.encoding = enc;
      const comp = r.optStr(o, 'compression', p);
      if (comp !== undefined) layer.compression = comp;
      if (id !== undefined) layer.id = id;
      return layer;
    }
    if (type === 'group') {
      const g: TiledGroupLayer = {
        raw: o,
        type,
        name,
        layers: readLayers(r, o.layers ?? [], `${p}.layers`, depth + 1, warn, decoded),
        properties: readProperties(r, o.properties, `${p}.properties`, warn),
      };
      if (id !== undefined) g.id = id;
      return g;
    }
    if (type === 'objectgroup' || type === 'imagelayer') {
      if (type === 'objectgroup' && has(o, 'objects')) r.arr(o.objects, `${p}.objects`).forEach((ov, k) => r.obj(ov, `${p}.objects[${k}]`));
      return { type, name, raw: o };
    }
    throw r.error(`${p}.type`, `unknown layer type "${type}"`);
  });
}

/** True when the bytes are Tiled XML (a TMX map or a TSX tileset) rather than JSON. */
export function isTiledXml(bytes: Uint8Array): boolean {
  return xmlRootName(bytes) !== undefined;
}

/**
 * Reads a Tiled map or tileset, JSON (.tmj/.tsj) or XML (.tmx/.tsx): the
 * XML is read into the JSON shape first, so both give the same document.
 */
export function readTiled(bytes: Uint8Array, warn?: (d: Diagnostic) => void, r?: JsonReader): TiledDoc {
  if (looksLikeXml(bytes)) {
    const x = readXmlDocument(FORMAT, bytes, warn);
    const doc = readTiledObject(x.reader, x.json, warn);
    doc.xml = true;
    if (x.doctype) Object.defineProperty(doc, 'xmlDoctype', { value: x.doctype, enumerable: false });
    return x.reader.remember(doc);
  }
  const reader = r ?? new JsonReader(FORMAT);
  const o = reader.obj(parseTiledJson(reader, bytes), '$');
  return reader.remember(readTiledObject(reader, o, warn));
}

/** A map or tileset in the JSON shape (parsed JSON, or XML read into that shape). */
export function readTiledObject(r: JsonReader, o: Record<string, unknown>, warn?: (d: Diagnostic) => void): TiledDoc {
  if (o.type === 'tileset' || (!has(o, 'type') && !has(o, 'layers') && has(o, 'tilewidth') && !has(o, 'width'))) {
    const ts = readTileset(r, o, '$', false, warn);
    if (ts.source !== undefined) throw r.error('$.source', 'a tileset file cannot name another tileset file');
    const doc: TiledDoc = {
      raw: o,
      type: 'tileset',
      orientation: 'orthogonal',
      width: 0,
      height: 0,
      tilewidth: ts.tilewidth,
      tileheight: ts.tileheight,
      infinite: false,
      layers: [],
      tilesets: [ts],
      properties: [],
    };
    return doc;
  }
  if (has(o, 'type') && o.type !== 'map') throw r.error('$.type', `expected "map", found ${JSON.stringify(o.type)}`);
  const doc: TiledDoc = {
    raw: o,
    type: 'map',
    orientation: r.optStr(o, 'orientation', '$') ?? 'orthogonal',
    width: r.num(o.width, '$.width', { int: true, min: 0, max: 0x7fffffff }),
    height: r.num(o.height, '$.height', { int: true, min: 0, max: 0x7fffffff }),
    tilewidth: r.num(o.tilewidth, '$.tilewidth', { int: true, min: 1 }),
    tileheight: r.num(o.tileheight, '$.tileheight', { int: true, min: 1 }),
    infinite: r.optBool(o, 'infinite', '$') ?? false,
    layers: [],
    tilesets: [],
    properties: [],
  };
  const version = o.version;
  if (version !== undefined) doc.version = typeof version === 'number' ? String(version) : r.str(version, '$.version');
  const tv = r.optStr(o, 'tiledversion', '$');
  if (tv !== undefined) doc.tiledversion = tv;
  const ro = r.optStr(o, 'renderorder', '$');
  if (ro !== undefined) doc.renderorder = ro;
  const nl = r.optNum(o, 'nextlayerid', '$', { int: true });
  if (nl !== undefined) doc.nextlayerid = nl;
  const no = r.optNum(o, 'nextobjectid', '$', { int: true });
  if (no !== undefined) doc.nextobjectid = no;
  doc.layers = readLayers(r, o.layers ?? [], '$.layers', 0, warn, { cells: 0 });
  doc.tilesets = r.arr(o.tilesets ?? [], '$.tilesets').map((v, i) => readTileset(r, v, `$.tilesets[${i}]`, true, warn));
  doc.properties = readProperties(r, o.properties, '$.properties', warn);
  return doc;
}

// ---------------------------------------------------------------- writing (the JSON shape, for JSON and XML)

function propsJson(props: TiledProperty[]): unknown[] {
  return props.map((p) => {
    const o: Record<string, unknown> = { name: p.name };
    if (p.propertytype !== undefined) o.propertytype = p.propertytype;
    o.type = p.type;
    o.value = p.value;
    return o;
  });
}

/** GIDs as Tiled stores them with base64: little-endian 32-bit words, compressed (zstd is written as zlib: sprat has no zstd encoder; `writeNotes` says so). */
function encodeGids(data: ArrayLike<number>, compression: string | undefined): { data: string; compression?: string } {
  const bytes = new Uint8Array(data.length * 4);
  const dv = new DataView(bytes.buffer);
  for (let i = 0; i < data.length; i++) dv.setUint32(i * 4, data[i]! >>> 0, true);
  let out = bytes;
  let comp = compression || undefined;
  if (comp === 'zlib' || comp === 'zstd') {
    out = zlibSync(bytes);
    comp = 'zlib';
  } else if (comp === 'gzip') out = gzipSync(bytes, { mtime: 0 });
  else comp = undefined;
  let s = '';
  for (let i = 0; i < out.length; i++) s += String.fromCharCode(out[i]!);
  const res: { data: string; compression?: string } = { data: btoa(s) };
  if (comp) res.compression = comp;
  return res;
}

/** True when base64 text `read` (in the layer's compression) decodes to exactly `data`. */
function sameGids(read: string, l: TiledTileLayer, data: ArrayLike<number>): boolean {
  try {
    const got = readLayerData(
      new JsonReader(FORMAT),
      { data: read },
      '$',
      data.length,
      { encoding: 'base64', compression: l.compression ?? '' },
      '$',
    );
    for (let i = 0; i < got.length; i++) if (got[i] !== data[i]) return false;
    return true;
  } catch {
    return false;
  }
}

/** A copy of the raw fields less the ones the typed view writes. */
function rest(raw: Record<string, unknown> | undefined, owned: readonly string[]): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  if (!raw) return o;
  for (const k of Object.keys(raw)) if (!owned.includes(k)) setOwn(o, k, raw[k]);
  return o;
}

const LAYER_OWNED = [
  'data',
  'chunks',
  'encoding',
  'compression',
  'height',
  'id',
  'name',
  'opacity',
  'properties',
  'type',
  'visible',
  'width',
  'x',
  'y',
  'layers',
];

function layerJson(l: TiledLayer): Record<string, unknown> {
  if (l.type !== 'tilelayer' && l.type !== 'group') return l.raw;
  if (l.type === 'group') {
    const o: Record<string, unknown> = {
      opacity: 1,
      visible: true,
      x: 0,
      y: 0,
      ...rest(l.raw, ['id', 'layers', 'name', 'properties', 'type']),
    };
    if (l.id !== undefined) o.id = l.id;
    o.layers = l.layers.map(layerJson);
    o.name = l.name;
    if (l.properties.length) o.properties = propsJson(l.properties);
    o.type = 'group';
    return o;
  }
  const o = rest(l.raw, LAYER_OWNED);
  const base64 = l.encoding === 'base64';
  const put = (target: Record<string, unknown>, data: ArrayLike<number>, read: unknown) => {
    if (!base64) target.data = data;
    else if (typeof read === 'string' && l.compression !== 'zstd' && sameGids(read, l, data)) {
      // Unchanged: the text as read (another zlib gives other bytes for the same GIDs).
      target.data = read;
      if (target === o && l.compression) o.compression = l.compression;
    } else {
      const e = encodeGids(data, l.compression);
      target.data = e.data;
      if (target === o && e.compression) o.compression = e.compression;
    }
  };
  if (l.chunks) {
    const readChunks = Array.isArray(l.raw?.chunks) ? (l.raw.chunks as Record<string, unknown>[]) : [];
    o.chunks = l.chunks.map((c, i) => {
      const co: Record<string, unknown> = { height: c.height, width: c.width, x: c.x, y: c.y };
      put(co, c.data, readChunks[i]?.data);
      return co;
    });
    if (base64 && l.compression) o.compression = l.compression === 'zstd' ? 'zlib' : l.compression;
  } else put(o, l.data, l.raw?.data);
  let width = l.width;
  let height = l.height;
  if (l.chunks?.length) {
    // As Tiled writes an infinite layer: its size and start are its chunks' bounds.
    const b = chunkBounds([l]);
    if (b) {
      o.startx = b.x;
      o.starty = b.y;
      width = b.width;
      height = b.height;
    }
  }
  if (base64) o.encoding = 'base64';
  o.height = height;
  if (l.id !== undefined) o.id = l.id;
  o.name = l.name;
  o.opacity = l.opacity;
  if (l.properties.length) o.properties = propsJson(l.properties);
  o.type = 'tilelayer';
  o.visible = l.visible;
  o.width = width;
  o.x = l.x;
  o.y = l.y;
  return o;
}

const TILESET_OWNED = [
  'columns',
  'firstgid',
  'image',
  'imageheight',
  'imagewidth',
  'margin',
  'name',
  'properties',
  'spacing',
  'tilecount',
  'tileheight',
  'tilewidth',
  'source',
];

function tilesetJson(t: TiledTileset, imageName?: (name: string) => string, standalone = false): Record<string, unknown> {
  if (t.source !== undefined) return { firstgid: t.firstgid, source: t.source };
  const o: Record<string, unknown> = rest(t.raw, TILESET_OWNED);
  o.columns = t.columns;
  if (!standalone) o.firstgid = t.firstgid;
  if (t.image !== undefined) {
    o.image = imageName ? imageName(t.image) : t.image;
    if (t.imageheight !== undefined) o.imageheight = t.imageheight;
    if (t.imagewidth !== undefined) o.imagewidth = t.imagewidth;
  }
  o.margin = t.margin;
  o.name = t.name;
  if (t.properties.length) o.properties = propsJson(t.properties);
  o.spacing = t.spacing;
  o.tilecount = t.tilecount;
  o.tileheight = t.tileheight;
  o.tilewidth = t.tilewidth;
  if (standalone) o.type = 'tileset';
  const order = t.raw ? (t.raw as Record<symbol, unknown>)[IMAGE_ORDER] : undefined;
  if (order) Object.defineProperty(o, IMAGE_ORDER, { value: order, enumerable: false });
  return o;
}

/** What Tiled's XML leaves out when it has the default value. */
const XML_DEFAULTS: Record<string, unknown> = {
  opacity: 1,
  visible: true,
  x: 0,
  y: 0,
  margin: 0,
  spacing: 0,
  compressionlevel: -1,
  infinite: false,
  columns: 0,
  tilecount: 0,
};

/**
 * For XML: the keys in the order they were read (`raw`), new ones after, and
 * the ones the source did not have left out when they hold Tiled's default.
 */
function xmlOrder(o: Record<string, unknown>, raw: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const order = (o as Record<symbol, unknown>)[IMAGE_ORDER];
  if (order) Object.defineProperty(out, IMAGE_ORDER, { value: order, enumerable: false });
  const had = raw ?? {};
  for (const k of Object.keys(had)) if (has(o, k)) setOwn(out, k, o[k]);
  for (const k of Object.keys(o)) {
    if (has(out, k)) continue;
    if (has(XML_DEFAULTS, k) && XML_DEFAULTS[k] === o[k]) continue;
    setOwn(out, k, o[k]);
  }
  return out;
}

function xmlLayers(json: unknown[], layers: TiledLayer[]): unknown[] {
  return json.map((j, i) => {
    const l = layers[i]!;
    const o = xmlOrder(j as Record<string, unknown>, l.raw);
    if (l.type === 'group') o.layers = xmlLayers(o.layers as unknown[], l.layers);
    if (l.type === 'tilelayer' && l.chunks) {
      // TMX keeps an infinite layer's size as given (only JSON has the chunks' bounds and start).
      o.width = l.width;
      o.height = l.height;
      if (!l.raw || !has(l.raw, 'startx')) delete o.startx;
      if (!l.raw || !has(l.raw, 'starty')) delete o.starty;
      const readChunks = Array.isArray(l.raw?.chunks) ? (l.raw.chunks as Record<string, unknown>[]) : [];
      o.chunks = (o.chunks as Record<string, unknown>[]).map((c, k) => xmlOrder(c, readChunks[k]));
    }
    return o;
  });
}

/** A copy with the keys of every plain object in alphabetical order, as Tiled writes JSON. */
function sorted(v: unknown): unknown {
  // GIDs in a typed array: the same array.
  if (ArrayBuffer.isView(v)) return v;
  if (Array.isArray(v)) {
    // A list of numbers (a layer's GIDs: millions) has nothing to sort: the same array, not a copy.
    let plain = true;
    for (let i = 0; i < v.length && plain; i++) plain = typeof v[i] === 'number';
    return plain ? v : v.map(sorted);
  }
  if (typeof v !== 'object' || v === null) return v;
  const o = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o).sort()) setOwn(out, k, sorted(o[k]));
  return out;
}

const MAP_OWNED = [
  'height',
  'infinite',
  'layers',
  'nextlayerid',
  'nextobjectid',
  'orientation',
  'properties',
  'renderorder',
  'tiledversion',
  'tileheight',
  'tilesets',
  'tilewidth',
  'type',
  'version',
  'width',
];

/**
 * The document in the JSON shape (keys in alphabetical order, as Tiled
 * writes them): what `.tmj`/`.tsj` files hold, and what the TMX/TSX writer
 * turns into XML. `sorted`: false keeps the order fields were read in (for XML).
 */
export function tiledToJson(doc: TiledDoc, imageName?: (name: string) => string, sort = true): Record<string, unknown> {
  if (doc.type === 'tileset') {
    const t = doc.tilesets[0]!;
    const o = tilesetJson(t, imageName, true);
    for (const k of ['version', 'tiledversion']) if (doc.raw && has(doc.raw, k) && !has(o, k)) o[k] = doc.raw[k];
    return (sort ? sorted(o) : xmlOrder(o, doc.raw)) as Record<string, unknown>;
  }
  const o: Record<string, unknown> = { compressionlevel: -1, ...rest(doc.raw, MAP_OWNED) };
  o.height = doc.height;
  o.infinite = doc.infinite;
  o.layers = doc.layers.map(layerJson);
  if (doc.nextlayerid !== undefined) o.nextlayerid = doc.nextlayerid;
  if (doc.nextobjectid !== undefined) o.nextobjectid = doc.nextobjectid;
  o.orientation = doc.orientation;
  if (doc.properties.length) o.properties = propsJson(doc.properties);
  if (doc.renderorder !== undefined) o.renderorder = doc.renderorder;
  if (doc.tiledversion !== undefined) o.tiledversion = doc.tiledversion;
  o.tileheight = doc.tileheight;
  o.tilesets = doc.tilesets.map((t) => tilesetJson(t, imageName));
  o.tilewidth = doc.tilewidth;
  o.type = 'map';
  if (doc.version !== undefined) o.version = doc.version;
  o.width = doc.width;
  if (sort) return sorted(o) as Record<string, unknown>;
  const x = xmlOrder(o, doc.raw);
  x.tilesets = (o.tilesets as Record<string, unknown>[]).map((t, i) => xmlOrder(t, doc.tilesets[i]!.raw));
  x.layers = xmlLayers(o.layers as unknown[], doc.layers);
  return x;
}

// ---------------------------------------------------------------- to the model

/** Sets an own property, even one named "__proto__". */
function setOwn<T>(o: Record<string, T>, k: string, v: T): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

function propValue(p: TiledProperty): string | number | boolean {
  // class and list values: their JSON text.
  return typeof p.value === 'object' ? JSON.stringify(p.value) : p.value;
}

function modelProps(props: TiledProperty[]): Record<string, string | number | boolean> | undefined {
  const out: Record<string, string | number | boolean> = {};
  let any = false;
  for (const p of props) {
    if (p.name.startsWith('sprat:')) continue;
    setOwn(out, p.name, propValue(p));
    any = true;
  }
  return any ? out : undefined;
}

function propNum(props: TiledProperty[], name: string): number | undefined {
  const p = props.find((q) => q.name === name);
  return p && typeof p.value === 'number' && Number.isInteger(p.value) ? p.value : undefined;
}

function dirOf(p: string): string {
  const i = p.lastIndexOf('/');
  return i < 0 ? '' : p.slice(0, i + 1);
}

/** The tileset `i` of the map, an external one loaded (errors about it placed at its `source` in the map). */
export async function resolveTileset(
  doc: TiledDoc,
  i: number,
  resources: ResourceLoader,
  notes: string[],
): Promise<{ ts: TiledTileset; dir: string }> {
  const t = doc.tilesets[i]!;
  if (t.source === undefined) return { ts: t, dir: '' };
  const at = `$.tilesets[${i}].source`;
  let bytes: Uint8Array;
  try {
    bytes = (await loadResource(resources, { format: FORMAT, what: 'the external tileset', name: t.source })).bytes;
  } catch (e) {
    throw isFormatError(e) ? errorIn(doc, FORMAT, at, e.reason) : e;
  }
  // Paths into the tileset start with its file name; errors give their line and column in it.
  let r: JsonReader = new JsonReader(FORMAT, t.source);
  let parsed: unknown;
  try {
    if (looksLikeXml(bytes)) {
      const x = readXmlDocument(FORMAT, bytes, undefined, t.source);
      r = x.reader;
      parsed = x.json;
      if (x.json.type !== 'tileset') throw r.error(t.source, `expected a <tileset> root element, found a ${String(x.json.type)}`);
    } else parsed = r.parse(bytes);
  } catch (e) {
    // A syntax error: placed at its line and column in the tileset file, named first.
    if (isFormatError(e) && e.line !== undefined) throw FormatError.atLine(FORMAT, `${t.source}: ${e.reason}`, e.line, e.column);
    throw new FormatError(FORMAT, `${t.source}: ${(e as Error).message}`);
  }
  const ts = readTileset(r, parsed, t.source, false);
  ts.firstgid = t.firstgid;
  notes.push(`tiled: the external tileset "${t.source}" is embedded in the converted map`);
  return { ts, dir: dirOf(t.source) };
}

/**
 * Cuts a tileset image with margin and spacing into a plain grid (columns ×
 * rows, no gaps), drawn through the picture pipeline. Only the tiles that
 * start inside the image are cut (a `tilecount` or `columns` larger than the
 * image holds adds no work, and tiles past its last row draw as tiles without
 * pixels); a grid much larger than the image (a lying `columns`) is refused.
 */
function regrid(img: RgbaImage, t: TiledTileset): RgbaImage {
  if (!t.margin && !t.spacing) return img;
  const stepX = t.tilewidth + t.spacing;
  const stepY = t.tileheight + t.spacing;
  const fitX = Math.max(0, Math.ceil((img.width - t.margin) / stepX));
  const fitY = Math.max(0, Math.ceil((img.height - t.margin) / stepY));
  // Tiled's Tileset::columnCountForWidth and rowCountForHeight: the margin counts once.
  const fit = gridSize(img.width, img.height, { width: t.tilewidth, height: t.tileheight }, t.margin, t.spacing);
  const cols = Math.max(1, t.columns || fit.columns);
  const count = t.tilecount || cols * fit.rows;
  const rows = Math.max(1, Math.min(Math.ceil(count / cols), fitY));
  if (cols * t.tilewidth * rows * t.tileheight > 4 * img.width * img.height) {
    throw new FormatError(
      FORMAT,
      `tileset "${t.name}": ${cols} columns of ${t.tilewidth}x${t.tileheight} tiles are far more than its ${img.width}x${img.height} image holds`,
    );
  }
  function* tiles(): Generator<PicturePart> {
    for (let cy = 0; cy < rows; cy++) {
      for (let cx = 0; cx < Math.min(cols, fitX) && cy * cols + cx < count; cx++) {
        const sx = t.margin + cx * stepX;
        const sy = t.margin + cy * stepY;
        yield { image: img, sx, sy, sw: t.tilewidth, sh: t.tileheight, transform: translate(cx * t.tilewidth, cy * t.tileheight) };
      }
    }
  }
  const canvas = { x: 0, y: 0, width: cols * t.tilewidth, height: rows * t.tileheight };
  return drawPicture({ frames: [{ parts: { [Symbol.iterator]: tiles } }], canvas, what: `tileset "${t.name}"` }).frames[0]!;
}

function flattenTileLayers(layers: TiledLayer[], prefix: string, out: { layer: TiledTileLayer; name: string }[], notes: string[]) {
  for (const l of layers) {
    if (l.type === 'tilelayer') out.push({ layer: l, name: prefix + l.name });
    else if (l.type === 'group') {
      notes.push(`tiled: the layers of group "${l.name}" were taken out of the group`);
      flattenTileLayers(l.layers, `${prefix}${l.name}/`, out, notes);
    } else notes.push(`tiled: ${l.type} "${l.name}" left out (only tile layers convert)`);
  }
}

interface CellRecord {
  set?: number;
  tile?: number;
  flipX?: boolean;
  flipY?: boolean;
  rotation?: number;
  extra?: Record<string, number | boolean>;
}

/** The external tilesets and tileset images the map names (`references`): an external tileset is read to find its image, images only by existence. */
async function tiledReferences(doc: TiledDoc, resources: ResourceLoader): Promise<string[]> {
  const found = new Set<string>();
  for (let i = 0; i < doc.tilesets.length; i++) {
    const t = doc.tilesets[i]!;
    let resolved: { ts: TiledTileset; dir: string };
    try {
      if (t.source !== undefined)
        for (const p of await foundResources(resources, [{ format: FORMAT, what: 'the external tileset', name: t.source }])) found.add(p);
      resolved = await resolveTileset(doc, i, resources, []);
    } catch {
      continue; // not there or not a tileset: nothing more to follow
    }
    const { ts, dir } = resolved;
    const names = ts.image === undefined ? [] : [ts.image];
    const tiles = Array.isArray(ts.raw?.tiles) ? (ts.raw.tiles as unknown[]) : [];
    for (const t of tiles)
      if (typeof t === 'object' && t !== null && typeof (t as Record<string, unknown>).image === 'string')
        names.push((t as Record<string, string>).image!);
    for (const n of names) {
      const req = { format: FORMAT, what: `the image of tileset "${ts.name}"`, name: dir + n };
      for (const p of await foundResources(resources, [req])) found.add(p);
    }
  }
  // Image layers' images and object templates.
  const visit = async (ls: TiledLayer[]) => {
    for (const l of ls) {
      if (l.type === 'group') await visit(l.layers);
      else if (l.type === 'imagelayer' && typeof l.raw.image === 'string' && l.raw.image)
        for (const p of await foundResources(resources, [{ format: FORMAT, what: 'the image of an image layer', name: l.raw.image }]))
          found.add(p);
      else if (l.type === 'objectgroup' && Array.isArray(l.raw.objects))
        for (const o of l.raw.objects as Record<string, unknown>[])
          if (typeof o?.template === 'string')
            for (const p of await foundResources(resources, [{ format: FORMAT, what: 'the object template', name: o.template }]))
              found.add(p);
    }
  };
  await visit(doc.layers);
  return [...found];
}

export async function tiledToModel(
  doc: TiledDoc,
  resources: ResourceLoader,
  loadImages = true,
  options?: CommandOptions,
): Promise<LevelModel> {
  if (doc.orientation !== 'orthogonal')
    throw errorIn(doc, FORMAT, '$.orientation', `"${doc.orientation}" maps are not supported (orthogonal only)`);
  const notes: string[] = [];
  // A compressed layer of a few KB holds 10^7 cells; each model cell is an object. Count them before making any.
  const budget = budgetFrom(options);
  const countCells = (ls: TiledLayer[]): void => {
    for (const l of ls) {
      if (l.type === 'group') countCells(l.layers);
      else if (l.type === 'tilelayer') budget.spend('maxItems', l.data.length, `the cells of layer "${l.name}" (${l.width}x${l.height})`);
    }
  };
  countCells(doc.layers);
  const loadImage = imageCache(resources, options);
  const resolved = [];
  for (let i = 0; i < doc.tilesets.length; i++) resolved.push(await resolveTileset(doc, i, resources, notes));
  // Tileset numbers: sprat:set when every tileset has a distinct one, else their order.
  const setProps = resolved.map((x) => propNum(x.ts.properties, P_SET));
  const useSetProps = setProps.every((n) => n !== undefined && n >= 0 && n < 4096) && new Set(setProps).size === setProps.length;
  const index = resolved.map((_, i) => (useSetProps ? setProps[i]! : i));
  const tilesets: ModelTileset[] = [];
  const count = index.reduce((m, i) => Math.max(m, i + 1), 0);
  for (let i = 0; i < count; i++) tilesets.push({ name: '', tileWidth: doc.tilewidth, tileHeight: doc.tileheight });
  for (let k = 0; k < resolved.length; k++) {
    const { ts, dir } = resolved[k]!;
    const mt: ModelTileset = { name: ts.name, tileWidth: ts.tilewidth, tileHeight: ts.tileheight };
    if (ts.image !== undefined) {
      mt.imagePath = dir + ts.image;
      if (loadImages) {
        try {
          mt.image = regrid((await loadImage({ format: FORMAT, what: `the image of tileset "${ts.name}"`, name: mt.imagePath })).image, ts);
        } catch (e) {
          if (!isFormatError(e)) throw e;
          notes.push(`tiled: ${e.reason}; its tiles have no pixels`);
        }
      }
    } else notes.push(`tiled: tileset "${ts.name}" is a collection of images, which is not supported; its tiles have no pixels`);
    tilesets[index[k]!] = mt;
  }
  // GID → (set, tile): tilesets by firstgid.
  const byFirst = resolved.map((x, k) => ({ first: x.ts.firstgid, set: index[k]! })).sort((a, b) => a.first - b.first);
  const lookup = (id: number): { set: number; tile: number } | null => {
    let lo = 0;
    let hi = byFirst.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (byFirst[mid]!.first <= id) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found < 0 ? null : { set: byFirst[found]!.set, tile: id - byFirst[found]!.first };
  };
  const flat: { layer: TiledTileLayer; name: string }[] = [];
  flattenTileLayers(doc.layers, '', flat, notes);
  if (doc.infinite) {
    // The model has no chunks: every layer becomes the grid of the union of all chunks.
    const b = chunkBounds(doc.layers);
    if (b) {
      budget.spend('maxItems', b.width * b.height * flat.length, `the cells of the infinite map's layers (${b.width}x${b.height} each)`);
      notes.push(`tiled: the infinite map's chunks became layers of ${b.width}x${b.height} tiles starting at tile (${b.x}, ${b.y})`);
    }
    for (const f of flat)
      f.layer = { ...f.layer, ...(b ? gridOf(f.layer, b) : { width: 0, height: 0, data: new Uint32Array(0) }), chunks: undefined };
  }
  let badGids = 0;
  const bad = new Set<number>();
  const decoded = new Map<number, ModelCell>();
  const layers: ModelTileLayer[] = flat.map(({ layer: l, name }) => {
    const records = cellRecords(l);
    const cells: ModelCell[] = Array.from(l.data, (gid, i) => {
      let proto = decoded.get(gid);
      if (!proto) {
        const id = gid & GID_MASK;
        const st = id === 0 ? null : lookup(id);
        if (!st) {
          if (id !== 0) bad.add(gid);
          proto = { set: -1, tile: -1 };
        } else {
          proto = { set: st.set, tile: st.tile };
          const o = bitsToOrientation(gid);
          if (o.flipX) proto.flipX = true;
          if (o.flipY) proto.flipY = true;
          if (o.rotation) proto.rotation = o.rotation;
        }
        decoded.set(gid, proto);
      }
      if (bad.size && bad.has(gid)) badGids++;
      const cell: ModelCell = { ...proto };
      const rec = records.get(i);
      if (rec) {
        if (rec.set !== undefined) cell.set = rec.set;
        if (rec.tile !== undefined) cell.tile = rec.tile;
        if (rec.flipX !== undefined) setFlag(cell, 'flipX', rec.flipX);
        if (rec.flipY !== undefined) setFlag(cell, 'flipY', rec.flipY);
        if (rec.rotation !== undefined) {
          if (rec.rotation) cell.rotation = rec.rotation;
          else delete cell.rotation;
        }
        if (rec.extra) cell.extra = rec.extra;
      }
      return cell;
    });
    const ml: ModelTileLayer = {
      name,
      width: l.width,
      height: l.height,
      tileWidth: propNum(l.properties, P_TILE_W) ?? doc.tilewidth,
      tileHeight: propNum(l.properties, P_TILE_H) ?? doc.tileheight,
      cells,
    };
    const props = modelProps(l.properties);
    if (props) ml.properties = props;
    return ml;
  });
  const faded = flat.filter(({ layer: l }) => l.opacity !== 1 || !l.visible).map(({ name }) => name);
  if (faded.length) notes.push(`tiled: layer opacity and visibility are not carried over (${faded.join(', ')})`);
  if (badGids) notes.push(`tiled: ${badGids} cell(s) name a tile of no tileset and were left empty`);
  const model: LevelModel = { kind: 'level', layers, tilesets };
  const props = modelProps(doc.properties);
  if (props) model.properties = props;
  if (notes.length) model.notes = notes;
  return model;
}

function setFlag(cell: ModelCell, k: 'flipX' | 'flipY', v: boolean) {
  if (v) cell[k] = true;
  else delete cell[k];
}

/** The tile rectangle the chunks of these layers (and their groups') cover, or null. */
export function chunkBounds(layers: TiledLayer[]): { x: number; y: number; width: number; height: number } | null {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  const visit = (ls: TiledLayer[]) => {
    for (const l of ls) {
      if (l.type === 'group') visit(l.layers);
      else if (l.type === 'tilelayer')
        for (const c of l.chunks ?? []) {
          if (!c.width || !c.height) continue;
          x0 = Math.min(x0, c.x);
          y0 = Math.min(y0, c.y);
          x1 = Math.max(x1, c.x + c.width);
          y1 = Math.max(y1, c.y + c.height);
        }
    }
  };
  visit(layers);
  return x1 > x0 ? { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } : null;
}

/** An infinite layer's chunks as one grid over `b` (rows top first). */
export function gridOf(l: TiledTileLayer, b: { x: number; y: number; width: number; height: number }) {
  const data = new Uint32Array(b.width * b.height);
  for (const c of l.chunks ?? []) {
    for (let y = 0; y < c.height; y++) {
      for (let x = 0; x < c.width; x++) {
        const g = c.data[y * c.width + x]!;
        if (g) data[(c.y - b.y + y) * b.width + (c.x - b.x + x)] = g;
      }
    }
  }
  return { width: b.width, height: b.height, data };
}

/** The sprat:cells layer property: a JSON object from cell index to what the GID cannot say. */
function cellRecords(l: TiledTileLayer): Map<number, CellRecord> {
  const out = new Map<number, CellRecord>();
  const p = l.properties.find((q) => q.name === P_CELLS);
  if (!p || typeof p.value !== 'string') return out;
  let parsed: unknown;
  try {
    parsed = JSON.parse(p.value);
  } catch {
    return out;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return out;
  for (const [k, v] of Object.entries(parsed as Record<string, unknown>)) {
    const i = Number(k);
    if (!Number.isInteger(i) || i < 0 || i >= l.data.length || typeof v !== 'object' || v === null) continue;
    const src = v as Record<string, unknown>;
    const rec: CellRecord = {};
    if (typeof src.set === 'number' && Number.isInteger(src.set)) rec.set = src.set;
    if (typeof src.tile === 'number' && Number.isInteger(src.tile)) rec.tile = src.tile;
    if (typeof src.flipX === 'boolean') rec.flipX = src.flipX;
    if (typeof src.flipY === 'boolean') rec.flipY = src.flipY;
    if (typeof src.rotation === 'number' && Number.isFinite(src.rotation)) rec.rotation = src.rotation;
    if (typeof src.extra === 'object' && src.extra !== null && !Array.isArray(src.extra)) {
      const extra: Record<string, number | boolean> = {};
      for (const [ek, ev] of Object.entries(src.extra as Record<string, unknown>)) {
        if (typeof ev === 'number' || typeof ev === 'boolean') setOwn(extra, ek, ev);
      }
      rec.extra = extra;
    }
    out.set(i, rec);
  }
  return out;
}

// ---------------------------------------------------------------- from the model

function tiledProp(name: string, value: string | number | boolean): TiledProperty {
  const type = typeof value === 'boolean' ? 'bool' : typeof value === 'number' ? (Number.isInteger(value) ? 'int' : 'float') : 'string';
  return { name, type, value };
}

function toProps(p: Record<string, string | number | boolean> | undefined): TiledProperty[] {
  return p ? Object.keys(p).map((k) => tiledProp(k, p[k]!)) : [];
}

/** A cell a GID can name: a set and a tile, whole numbers ≥ 0. */
const placeable = (c: ModelCell) => Number.isInteger(c.set) && Number.isInteger(c.tile) && c.set >= 0 && c.tile >= 0;
const NO_FLIP: CellOrientation = Object.freeze({ flipX: false, flipY: false, rotation: 0 });
const norm = (deg: number | undefined) => (((deg ?? 0) % 360) + 360) % 360;

function safeName(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '') || 'tileset';
}

export function tiledFromModel(model: SpriteModel | LevelModel): TiledDoc {
  if (model.kind !== 'level') throw new FormatError(FORMAT, 'a sprite cannot be written as a Tiled map');
  const notes: string[] = [];
  const first = model.layers[0];
  const tw = first?.tileWidth ?? model.tilesets[0]?.tileWidth ?? 16;
  const th = first?.tileHeight ?? model.tilesets[0]?.tileHeight ?? 16;
  // Sets in use and the largest tile of each.
  const maxTile = new Map<number, number>();
  for (const l of model.layers) {
    if (l.cells.length !== l.width * l.height) {
      throw new FormatError(FORMAT, `layer "${l.name}" has ${l.cells.length} cells for ${l.width}x${l.height}`);
    }
    for (const c of l.cells) {
      if (!placeable(c)) continue;
      maxTile.set(c.set, Math.max(maxTile.get(c.set) ?? 0, c.tile));
    }
  }
  const images = new Map<string, RgbaImage>();
  const tilesets: TiledTileset[] = [];
  const firstGid = new Map<number, number>();
  let next = 1;
  const usedNames = new Set<string>();
  for (const set of [...maxTile.keys()].sort((a, b) => a - b)) {
    const mt: ModelTileset = model.tilesets[set] ?? { name: `set ${set}`, tileWidth: tw, tileHeight: th };
    if (!(mt.tileWidth >= 1 && mt.tileHeight >= 1)) {
      throw new FormatError(FORMAT, `tileset "${mt.name}" has a tile size of ${mt.tileWidth}x${mt.tileHeight}`);
    }
    const name = mt.name || `set ${set}`;
    const ts: TiledTileset = {
      firstgid: next,
      name,
      tilewidth: mt.tileWidth,
      tileheight: mt.tileHeight,
      columns: 1,
      tilecount: 1,
      margin: 0,
      spacing: 0,
      properties: [tiledProp(P_SET, set)],
    };
    const used = maxTile.get(set)! + 1;
    if (mt.image) {
      ts.columns = Math.max(1, Math.floor(mt.image.width / mt.tileWidth));
      ts.tilecount = Math.max(used, ts.columns * Math.floor(mt.image.height / mt.tileHeight));
      let file = `${safeName(name)}.png`;
      for (let k = 2; usedNames.has(file); k++) file = `${safeName(name)}-${k}.png`;
      usedNames.add(file);
      ts.image = file;
      ts.imagewidth = mt.image.width;
      ts.imageheight = mt.image.height;
      images.set(file, mt.image);
    } else {
      ts.columns = used;
      ts.tilecount = used;
      ts.image = mt.imagePath ?? `${safeName(name)}.png`;
      ts.imagewidth = used * mt.tileWidth;
      ts.imageheight = mt.tileHeight;
      notes.push(`tiled: tileset "${name}" has no pixels; the map names the image "${ts.image}" without writing it`);
    }
    if (next + ts.tilecount > GID_MASK) throw new FormatError(FORMAT, 'too many tiles for Tiled GIDs (28 bits)');
    firstGid.set(set, next);
    next += ts.tilecount;
    tilesets.push(ts);
  }
  /** Cells turned by an angle Tiled's flip bits cannot show (not a multiple of 90°). */
  let offAngles = 0;
  const offAngleValues = new Set<number>();
  const layers: TiledTileLayer[] = model.layers.map((l, li) => {
    const records: Record<string, CellRecord> = {};
    const data = new Uint32Array(l.cells.length);
    l.cells.forEach((c, i) => {
      let gid = 0;
      let tile = -1;
      let set = -1;
      let o: CellOrientation = NO_FLIP;
      const rot = norm(c.rotation);
      if (placeable(c) && firstGid.has(c.set)) {
        if (rot % 90 !== 0) {
          offAngles++;
          offAngleValues.add(rot);
        }
        gid = (firstGid.get(c.set)! + c.tile + orientationToBits(!!c.flipX, !!c.flipY, rot % 90 === 0 ? rot : 0)) >>> 0;
        tile = c.tile;
        set = c.set;
        o = bitsToOrientation(gid);
      }
      // What the GID alone would give back, compared with the cell: the differences go to sprat:cells.
      const same =
        tile === c.tile &&
        set === c.set &&
        o.flipX === !!c.flipX &&
        o.flipY === !!c.flipY &&
        o.rotation === (c.rotation ?? 0) &&
        !(c.extra && Object.keys(c.extra).length);
      if (!same) {
        const rec: CellRecord = {};
        if (set !== c.set) rec.set = c.set;
        if (tile !== c.tile) rec.tile = c.tile;
        if (o.flipX !== !!c.flipX) rec.flipX = !!c.flipX;
        if (o.flipY !== !!c.flipY) rec.flipY = !!c.flipY;
        if (o.rotation !== (c.rotation ?? 0)) rec.rotation = c.rotation ?? 0;
        if (c.extra && Object.keys(c.extra).length) rec.extra = c.extra;
        records[i] = rec;
      }
      data[i] = gid;
    });
    const properties = toProps(l.properties);
    if (l.tileWidth !== tw) properties.push(tiledProp(P_TILE_W, l.tileWidth));
    if (l.tileHeight !== th) properties.push(tiledProp(P_TILE_H, l.tileHeight));
    if (Object.keys(records).length) properties.push(tiledProp(P_CELLS, JSON.stringify(records)));
    return {
      type: 'tilelayer',
      id: li + 1,
      name: l.name,
      width: l.width,
      height: l.height,
      x: 0,
      y: 0,
      opacity: 1,
      visible: true,
      data,
      properties,
    };
  });
  const unused = model.tilesets.filter((_, i) => !maxTile.has(i)).length;
  if (unused) notes.push(`tiled: ${unused} tileset(s) no cell uses were left out`);
  if (offAngles) {
    const angles = [...offAngleValues].sort((a, b) => a - b).slice(0, 8);
    notes.push(
      `tiled: ${offAngles} cell(s) turned by an angle Tiled cannot show (${angles.map((a) => `${a}°`).join(', ')}${offAngleValues.size > 8 ? ', …' : ''}) are drawn unturned by Tiled; the angle is kept in the layer's sprat:cells property`,
    );
  }
  const doc: TiledDoc = {
    type: 'map',
    version: '1.10',
    tiledversion: '1.10.2',
    orientation: 'orthogonal',
    renderorder: 'right-down',
    width: model.layers.reduce((m, l) => Math.max(m, l.width), 0),
    height: model.layers.reduce((m, l) => Math.max(m, l.height), 0),
    tilewidth: tw,
    tileheight: th,
    infinite: false,
    nextlayerid: layers.length + 1,
    nextobjectid: 1,
    layers,
    tilesets,
    properties: toProps(model.properties),
    images,
  };
  if (notes.length) model.notes = [...(model.notes ?? []), ...notes];
  return doc;
}

/** JSON text with two-space indentation, layer data written a map row per line (as Tiled does) instead of a number per line. */
export function tiledJsonText(map: Record<string, unknown>): string {
  const arrays: { data: ArrayLike<number> & { slice(a: number, b: number): { join(s: string): string } }; width: number }[] = [];
  const text = JSON.stringify(
    map,
    function (this: Record<string, unknown>, k: string, v: unknown) {
      if (k === 'data' && (Array.isArray(v) || v instanceof Uint32Array) && typeof this.width === 'number') {
        arrays.push({ data: v as number[], width: this.width });
        return `\u0000data${arrays.length - 1}`;
      }
      return v;
    },
    2,
  );
  return (
    text.replace(/"\\u0000data(\d+)"/g, (_, n: string) => {
      const { data, width } = arrays[Number(n)]!;
      const rows: string[] = [];
      const w = Math.max(1, width);
      for (let i = 0; i < data.length; i += w) rows.push(data.slice(i, i + w).join(', '));
      return `[${rows.join(',\n  ')}]`;
    }) + '\n'
  );
}

export async function tiledFiles(doc: TiledDoc, outName: string): Promise<OutputFile[]> {
  const base = baseName(outName);
  const images = doc.images ?? new Map<string, RgbaImage>();
  const rename = (n: string) => (images.has(n) ? `${base}-${n}` : n);
  const xml = /\.(tmx|tsx|tx|xml)$/i.test(outName);
  const text = xml
    ? xmlText(tiledToJson(doc, rename, false), (doc as { xmlDoctype?: string }).xmlDoctype)
    : tiledJsonText(tiledToJson(doc, rename));
  const files: OutputFile[] = [{ name: outName, bytes: new TextEncoder().encode(text) }];
  for (const [n, img] of images) files.push({ name: rename(n), bytes: encodePng(img) });
  return files;
}

// ---------------------------------------------------------------- handler

/** The GID arrays of a document in the JSON shape shown as JSON arrays (views of the same memory: sprat's JSON writer reads them as they are). */
function jsonGids<T extends Record<string, unknown>>(o: T): T {
  const layers = (ls: unknown) => {
    if (!Array.isArray(ls)) return;
    for (const l of ls as Record<string, unknown>[]) {
      if (l.data instanceof Uint32Array) l.data = jsonNumbers(l.data);
      if (Array.isArray(l.chunks))
        for (const c of l.chunks as Record<string, unknown>[]) if (c.data instanceof Uint32Array) c.data = jsonNumbers(c.data);
      if (l.type === 'group') layers(l.layers);
    }
  };
  layers(o.layers);
  return o;
}

export function sniffTiled(bytes: Uint8Array): boolean {
  if (isTiledXml(bytes)) return true;
  const t = sniffText(bytes);
  if (!t) return false;
  const all = t.head + t.tail;
  if (/"type"\s*:\s*"map"/.test(all) || /"tiledversion"\s*:/.test(all)) return true;
  return /"layers"\s*:/.test(all) && /"tilesets"\s*:/.test(all);
}

function countGids(doc: TiledDoc) {
  let cells = 0;
  let flipped = 0;
  const visit = (ls: TiledLayer[]) => {
    for (const l of ls) {
      if (l.type === 'group') visit(l.layers);
      else if (l.type === 'tilelayer') {
        for (const data of [l.data, ...(l.chunks ?? []).map((c) => c.data)]) {
          for (const g of data) {
            if (g & GID_MASK) cells++;
            if (g & (FLIP_H | FLIP_V | FLIP_D)) flipped++;
          }
        }
      }
    }
  };
  visit(doc.layers);
  return { cells, flipped };
}

export const tiledHandler: FormatHandler<TiledDoc> = {
  name: 'tiled',
  text: true,
  title: 'Tiled map or tileset (JSON or TMX/TSX)',
  extensions: ['.tmj', '.json', '.tmx', '.tsx', '.tsj'],
  sniff: sniffTiled,
  read: (bytes, ctx) => readTiled(bytes, ctx?.warn),
  writeFiles: (doc, outName) => tiledFiles(doc, outName),
  writeNotes(doc): string[] {
    const zstd: string[] = [];
    const visit = (ls: TiledLayer[], prefix: string) => {
      for (const l of ls) {
        if (l.type === 'group') visit(l.layers, `${prefix}${l.name}/`);
        else if (l.type === 'tilelayer' && l.encoding === 'base64' && l.compression === 'zstd') zstd.push(`"${prefix}${l.name}"`);
      }
    };
    visit(doc.layers ?? [], '');
    return zstd.length ? [`tiled: zstd-compressed layer data is written with zlib (sprat has no zstd encoder): ${zstd.join(', ')}`] : [];
  },
  validate(bytes): Diagnostic[] {
    const out: Diagnostic[] = [];
    try {
      const doc = readTiled(bytes, (d) => out.push(d));
      const r = doc.jsonSource ?? new JsonReader(FORMAT);
      if (doc.orientation !== 'orthogonal')
        out.push(
          r.diagnostic(
            'warning',
            '$.orientation',
            `"${doc.orientation}" maps are read and written, but not drawn or converted to other formats`,
          ),
        );
      const firsts = doc.tilesets.map((t) => t.firstgid);
      const dup = firsts.findIndex((f, i) => firsts.indexOf(f) !== i);
      if (dup >= 0)
        out.push(r.diagnostic('error', `$.tilesets[${dup}].firstgid`, `the same firstgid (${firsts[dup]}) as an earlier tileset`));
    } catch (e) {
      if (isFormatError(e)) return [diagnosticFromError(e)];
      throw e;
    }
    return out;
  },
  inspectJson: (doc) => jsonGids({ format: 'tiled', ...tiledToJson(doc) }),
  // The inspect JSON has the shape of Tiled's JSON: each value's place in a JSON file, each element's in a TMX/TSX file.
  linePositions: (doc, bytes) => {
    const src = doc.jsonSource;
    return src instanceof XmlReader ? src.linePositions() : jsonLinePositions(bytes);
  },
  inspectText(doc) {
    if (doc.type === 'tileset') {
      const t = doc.tilesets[0]!;
      return `Tiled tileset "${t.name}": ${t.tilecount} tile(s) ${t.tilewidth}x${t.tileheight}, image ${t.image ?? '(a collection of images)'}\n`;
    }
    const { cells, flipped } = countGids(doc);
    const lines = [
      `Tiled ${doc.orientation}${doc.infinite ? ' infinite' : ''} map ${doc.width}x${doc.height} tiles of ${doc.tilewidth}x${doc.tileheight}` +
        (doc.tiledversion ? ` (Tiled ${doc.tiledversion})` : ''),
      `  ${doc.layers.length} layer(s), ${doc.tilesets.length} tileset(s), ${cells} non-empty cell(s), ${flipped} flipped or rotated`,
    ];
    for (const t of doc.tilesets) {
      lines.push(
        t.source !== undefined
          ? `  tileset firstgid ${t.firstgid}: external "${t.source}"`
          : `  tileset "${t.name}" firstgid ${t.firstgid}: ${t.tilecount} tile(s) ${t.tilewidth}x${t.tileheight}, image ${t.image ?? '(none)'}`,
      );
    }
    return printableLines(lines) + '\n';
  },
  picture: (doc, options, resources) => tiledPicture(doc, options, resources),
  renderOptions: LAYER_OPTIONS,
  toModel: (doc, resources, options) => tiledToModel(doc, resources, true, options),
  references: (doc, resources) => tiledReferences(doc, resources),
  checkResources: (doc, resources, options) => tiledResourceProblems(doc, resources, options),
  async validateResources(doc, resources) {
    // The external tilesets: a map cannot be drawn or converted without them.
    const out: Diagnostic[] = [];
    for (let i = 0; i < doc.tilesets.length; i++) {
      if (doc.tilesets[i]!.source === undefined) continue;
      try {
        await resolveTileset(doc, i, resources, []);
      } catch (e) {
        if (!isFormatError(e)) throw e;
        out.push(diagnosticFromError(e));
      }
    }
    return out;
  },
  fromModel: (model: SpriteModel | LevelModel, _options?: CommandOptions) => tiledFromModel(model),
};
