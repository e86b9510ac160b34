/**
 * The native Aseprite file (`.aseprite`, `.ase`): a reader written from
 * Aseprite's docs/ase-file-specs.md (and where it is silent, what its
 * src/dio/aseprite_decoder.cpp does). Little-endian; a 128-byte header,
 * then frames of chunks. Every count is checked against the bytes left
 * before anything is allocated, every zlib stream inflates into a buffer of
 * exactly the size its header promises, and pixels are spent from
 * --max-pixels (src/binary/limits.ts). Hand-written rather than the npm
 * `ase-parser` because that one needs Node's zlib and Buffer (the core must
 * run in browsers), does not read cel z-index or every property type, and
 * does not draw.
 *
 * Pixels are kept as RGBA (Aseprite's own conversion: grayscale v,a ->
 * v,v,v,a; indexed -> the palette entry in force at the cel's frame), with
 * the pixels equal to the sprite's mask colour (the transparent index) as
 * 0, which the blender skips as Aseprite does.
 */
import { unzlibSync } from 'fflate';
import { FormatError } from '../../binary/errors.js';
import { Budget } from '../../binary/limits.js';
import { ByteReader } from '../../binary/reader.js';
import { BLEND_MODES, type BlendMode } from '../../render/blend.js';
import type { RgbaImage } from '../../render/image.js';

export const ASE_FORMAT = 'ase';

export interface AseHeader {
  fileSize: number;
  frames: number;
  width: number;
  height: number;
  /** 32 RGBA, 16 grayscale, 8 indexed. */
  colorDepth: 8 | 16 | 32;
  flags: number;
  speed: number;
  transparentIndex: number;
  numColors: number;
  pixelWidth: number;
  pixelHeight: number;
  gridX: number;
  gridY: number;
  gridWidth: number;
  gridHeight: number;
}

export type AseValue = boolean | number | string | null | AseValue[] | { [key: string]: AseValue };

export interface AseUserData {
  text?: string;
  /** [r, g, b, a]. */
  color?: [number, number, number, number];
  /** Property maps by key: 0 the user's, else an external-file entry id (an extension). */
  properties?: { key: number; values: Record<string, AseValue> }[];
}

export type AseLayerType = 'normal' | 'group' | 'tilemap';

export interface AseLayer {
  name: string;
  type: AseLayerType;
  flags: number;
  visible: boolean;
  background: boolean;
  reference: boolean;
  childLevel: number;
  /** Index of the group holding it, or null at the top. */
  parent: number | null;
  /** As stored; `effectiveBlendMode` / `effectiveOpacity` are what Aseprite uses. */
  blendMode: BlendMode;
  opacity: number;
  effectiveBlendMode: BlendMode;
  effectiveOpacity: number;
  tileset?: number;
  uuid?: string;
  userData?: AseUserData;
  offset: number;
}

export type AseCelType = 'raw' | 'linked' | 'compressed' | 'tilemap';

export interface AseTilemap {
  width: number;
  height: number;
  bitsPerTile: number;
  tileIdMask: number;
  xFlipMask: number;
  yFlipMask: number;
  diagonalFlipMask: number;
  tiles: Uint32Array;
}

export interface AseCel {
  layer: number;
  x: number;
  y: number;
  opacity: number;
  type: AseCelType;
  zIndex: number;
  width: number;
  height: number;
  /** Linked cels: the frame whose cel (of the same layer) gives the pixels. */
  link?: number;
  /** Image cels (and linked cels, shared): the pixels in the file's colour mode (see `celImage`). */
  data?: Uint8Array;
  tilemap?: AseTilemap;
  extra?: { flags: number; x: number; y: number; width: number; height: number };
  userData?: AseUserData;
  offset: number;
}

export interface AseFrame {
  duration: number;
  cels: AseCel[];
  offset: number;
}

export interface AseColor {
  r: number;
  g: number;
  b: number;
  a: number;
  name?: string;
}

export interface AsePaletteChunk {
  frame: number;
  kind: 'palette' | 'old-0x0004' | 'old-0x0011';
  size: number;
  first: number;
  colors: AseColor[];
  offset: number;
}

export type AseDirection = 'forward' | 'reverse' | 'pingpong' | 'pingpong_reverse';
const DIRECTIONS: readonly AseDirection[] = ['forward', 'reverse', 'pingpong', 'pingpong_reverse'];

export interface AseTag {
  name: string;
  from: number;
  to: number;
  direction: AseDirection;
  repeat: number;
  /** The pre-1.3 colour, #rrggbb (the user data colour wins). */
  color: string;
  userData?: AseUserData;
}

export interface AseSliceKey {
  frame: number;
  x: number;
  y: number;
  width: number;
  height: number;
  center?: { x: number; y: number; width: number; height: number };
  pivot?: { x: number; y: number };
}

export interface AseSlice {
  name: string;
  flags: number;
  keys: AseSliceKey[];
  userData?: AseUserData;
}

export interface AseTileset {
  id: number;
  flags: number;
  tiles: number;
  tileWidth: number;
  tileHeight: number;
  baseIndex: number;
  name: string;
  external?: { file: number; id: number };
  /** The tiles, one under the other (tileWidth × tileHeight·tiles), in the file's colour mode. */
  data?: Uint8Array;
  userData?: AseUserData;
  tileUserData?: AseUserData[];
}

export interface AseColorProfile {
  type: 'none' | 'srgb' | 'icc';
  flags: number;
  gamma: number;
  /** The embedded ICC profile's bytes (kept, not applied). */
  icc?: Uint8Array;
}

export interface AseDoc {
  header: AseHeader;
  frames: AseFrame[];
  layers: AseLayer[];
  /** Palettes in force from each frame on: palettes[f] is frame f's (entries as r, g, b, a). */
  palettes: AseColor[][];
  paletteChunks: AsePaletteChunk[];
  tags: AseTag[];
  slices: AseSlice[];
  tilesets: AseTileset[];
  colorProfile?: AseColorProfile;
  externalFiles: { id: number; type: number; name: string }[];
  userData?: AseUserData;
  /** Chunks read but not used (deprecated masks, paths, unknown types). */
  skipped: { type: number; offset: number }[];
}

export const CHUNK_NAMES: Record<number, string> = {
  4: 'old palette',
  17: 'old palette',
  8196: 'layer',
  8197: 'cel',
  8198: 'cel extra',
  8199: 'color profile',
  8200: 'external files',
  8214: 'mask',
  8215: 'path',
  8216: 'tags',
  8217: 'palette',
  8224: 'user data',
  8226: 'slice',
  8227: 'tileset',
};

export function sniffAse(bytes: Uint8Array): boolean {
  if (bytes.length < 128 || bytes[4] !== 0xe0 || bytes[5] !== 0xa5) return false;
  const depth = bytes[12]! | (bytes[13]! << 8);
  if (depth !== 8 && depth !== 16 && depth !== 32) return false;
  const frames = bytes[6]! | (bytes[7]! << 8);
  return frames === 0 || (bytes.length >= 144 && bytes[132] === 0xfa && bytes[133] === 0xf1);
}

interface ReadOptions {
  warn?: (reason: string, offset: number) => void;
  budget?: Budget;
}

type Owner = { userData?: AseUserData } | null;

/** Reads a whole file. Throws FormatError (with the byte) for anything it cannot read. */
export function readAse(bytes: Uint8Array, opts: ReadOptions = {}): AseDoc {
  const budget = opts.budget ?? new Budget();
  const warn = opts.warn ?? (() => {});
  const r = new ByteReader(bytes, { format: ASE_FORMAT, littleEndian: true, onInvalidUtf8: (o) => warn('a name is not valid UTF-8', o) });
  r.need(128, 'the header');
  const header: AseHeader = {
    fileSize: r.u32(),
    frames: 0,
    width: 0,
    height: 0,
    colorDepth: 32,
    flags: 0,
    speed: 0,
    transparentIndex: 0,
    numColors: 0,
    pixelWidth: 0,
    pixelHeight: 0,
    gridX: 0,
    gridY: 0,
    gridWidth: 0,
    gridHeight: 0,
  };
  const magic = r.u16();
  if (magic !== 0xa5e0) throw r.error(`not an Aseprite file: magic 0x${magic.toString(16)}, expected 0xa5e0`, 4);
  header.frames = r.u16();
  header.width = r.u16();
  header.height = r.u16();
  const depthAt = r.pos;
  const depth = r.u16();
  if (depth !== 8 && depth !== 16 && depth !== 32) throw r.error(`color depth ${depth} is not 8, 16 or 32`, depthAt);
  header.colorDepth = depth;
  header.flags = r.u32();
  header.speed = r.u16();
  r.skip(8);
  header.transparentIndex = r.u8();
  r.skip(3);
  header.numColors = r.u16();
  header.pixelWidth = r.u8();
  header.pixelHeight = r.u8();
  header.gridX = r.i16();
  header.gridY = r.i16();
  header.gridWidth = r.u16();
  header.gridHeight = r.u16();
  if (header.width < 1 || header.height < 1) throw r.error(`the sprite size ${header.width}x${header.height} is empty`, 8);
  if (header.fileSize !== bytes.length) warn(`the header gives the file size ${header.fileSize}, the file has ${bytes.length} bytes`, 0);
  r.seek(128);
  // Each frame has a 16-byte header.
  r.checkCount(header.frames, 16, 'frame', 6);

  const doc: AseDoc = {
    header,
    frames: [],
    layers: [],
    palettes: [],
    paletteChunks: [],
    tags: [],
    slices: [],
    tilesets: [],
    externalFiles: [],
    skipped: [],
  };
  const layerOpacityValid = (header.flags & 1) !== 0;
  const composeGroups = (header.flags & 2) !== 0;
  const withUuid = (header.flags & 4) !== 0;
  // Aseprite's initial palette: numColors (0: 256) opaque black entries.
  let palette: AseColor[] = Array.from({ length: header.numColors || 256 }, () => ({ r: 0, g: 0, b: 0, a: 255 }));
  let ignoreOldPalettes = false;
  let owner: Owner = doc;
  /** What `owner` is: tags take the user data chunks after them in turn, a tileset its tiles'. */
  let ownerKind: 'tag' | 'tileset' | 'other' = 'other';
  let tagQueue: AseTag[] = [];
  /** Each frame's cels by layer (the first of a layer), for linked cels. */
  const celsByFrame: Map<number, AseCel>[] = [];
  let lastCel: AseCel | null = null;
  let level = -1;
  let previous = -1;

  for (let f = 0; f < header.frames; f++) {
    const frameAt = r.pos;
    r.need(16, `frame ${f}'s header`);
    const size = r.u32();
    const fmagic = r.u16();
    if (fmagic !== 0xf1fa) throw r.error(`frame ${f}: magic 0x${fmagic.toString(16)}, expected 0xf1fa`, frameAt + 4);
    const oldChunks = r.u16();
    const duration = r.u16();
    r.skip(2);
    const newChunks = r.u32();
    if (size < 16 || size > r.end - frameAt) throw r.error(`frame ${f} claims ${size} bytes, ${r.end - frameAt} are left`, frameAt);
    const frameEnd = frameAt + size;
    const chunks = newChunks !== 0 ? newChunks : oldChunks;
    const frame: AseFrame = { duration: duration > 0 ? duration : header.speed, cels: [], offset: frameAt };
    doc.frames.push(frame);
    const fr = new ByteReader(bytes, { format: ASE_FORMAT, start: r.pos, end: frameEnd, onInvalidUtf8: r.onInvalidUtf8 });
    fr.checkCount(chunks, 6, `frame ${f}'s chunk`, frameAt + 6, ' in the frame');
    for (let c = 0; c < chunks; c++) {
      const chunkAt = fr.pos;
      fr.need(6, 'a chunk header');
      const csize = fr.u32();
      const type = fr.u16();
      if (csize < 6 || csize > fr.end - chunkAt)
        throw fr.error(`chunk of type 0x${type.toString(16)} claims ${csize} bytes, ${fr.end - chunkAt} are left in the frame`, chunkAt);
      const cr = fr.sub(csize - 6, 'the chunk');
      switch (type) {
        case 0x0004:
        case 0x0011: {
          const chunk = readOldPalette(cr, f, type);
          doc.paletteChunks.push(chunk);
          if (!ignoreOldPalettes) palette = applyPalette(palette, chunk, budget);
          break;
        }
        case 0x2019: {
          const chunk = readPalette(cr, f, budget);
          doc.paletteChunks.push(chunk);
          palette = applyPalette(palette, chunk, budget);
          ignoreOldPalettes = true;
          break;
        }
        case 0x2004: {
          const layer = readLayer(cr, layerOpacityValid, composeGroups, withUuid);
          // NOTE.1: the child level places it in the tree, relative to the layer before it.
          // (As Aseprite: a deeper level is a child of the layer before, a shallower one climbs that many groups.)
          const at = doc.layers.length;
          const prev = doc.layers[previous];
          if (!prev || layer.childLevel === level) layer.parent = prev ? prev.parent : null;
          else if (layer.childLevel > level) {
            if (prev.type !== 'group')
              throw cr.error(
                `layer "${layer.name}" has child level ${layer.childLevel} under "${prev.name}", which is no group`,
                chunkAt + 10,
              );
            layer.parent = previous;
          } else {
            let p = prev.parent;
            for (let k = level - layer.childLevel; k > 0 && p !== null; k--) p = doc.layers[p]!.parent;
            layer.parent = p;
          }
          layer.offset = chunkAt;
          doc.layers.push(layer);
          previous = at;
          level = layer.childLevel;
          owner = layer;
          ownerKind = 'other';
          break;
        }
        case 0x2005: {
          const cel = readCel(cr, f, doc, chunkAt, budget, celsByFrame);
          const byLayer = celsByFrame[f] ?? (celsByFrame[f] = new Map());
          if (!byLayer.has(cel.layer)) byLayer.set(cel.layer, cel);
          frame.cels.push(cel);
          lastCel = cel;
          owner = cel;
          ownerKind = 'other';
          break;
        }
        case 0x2006: {
          cr.need(20, 'the cel extra chunk');
          const extra = { flags: cr.u32(), x: cr.i32() / 65536, y: cr.i32() / 65536, width: cr.i32() / 65536, height: cr.i32() / 65536 };
          if (lastCel) lastCel.extra = extra;
          else warn('a cel extra chunk with no cel before it', chunkAt);
          break;
        }
        case 0x2007:
          doc.colorProfile = readColorProfile(cr);
          break;
        case 0x2008: {
          const n = cr.u32();
          cr.skip(8);
          cr.checkCount(n, 14, 'external file', chunkAt + 6, ' in the chunk');
          for (let i = 0; i < n; i++) {
            const id = cr.u32();
            const t = cr.u8();
            cr.skip(7);
            doc.externalFiles.push({ id, type: t, name: cr.str16('an external file name') });
          }
          break;
        }
        case 0x2018: {
          const n = cr.u16();
          cr.skip(8);
          cr.checkCount(n, 19, 'tag', chunkAt + 6, ' in the chunk');
          tagQueue = [];
          for (let i = 0; i < n; i++) {
            const tagAt = cr.pos;
            const from = cr.u16();
            const to = cr.u16();
            const dir = cr.u8();
            const repeat = cr.u16();
            cr.skip(6);
            const rgb = [cr.u8(), cr.u8(), cr.u8()];
            cr.skip(1);
            const name = cr.str16('a tag name');
            if (dir > 3) throw cr.error(`tag "${name}": unknown direction ${dir}`, tagAt + 4);
            if (to < from) throw cr.error(`tag "${name}" ends (frame ${to}) before it starts (frame ${from})`, tagAt);
            if (to >= header.frames) throw cr.error(`tag "${name}" ends at frame ${to}; the sprite has ${header.frames} frames`, tagAt + 2);
            const tag: AseTag = {
              name,
              from,
              to,
              direction: DIRECTIONS[dir]!,
              repeat,
              color: `#${rgb.map((v) => v!.toString(16).padStart(2, '0')).join('')}`,
            };
            doc.tags.push(tag);
            tagQueue.push(tag);
          }
          owner = tagQueue.shift() ?? null;
          ownerKind = 'tag';
          break;
        }
        case 0x2020: {
          const data = readUserData(cr, 0);
          if (owner) owner.userData = data;
          else warn('user data with nothing to belong to', chunkAt);
          if (owner && ownerKind === 'tag') owner = tagQueue.shift() ?? null;
          else if (owner && ownerKind === 'tileset') {
            // Then one user data chunk per tile (Aseprite's readTilesData), when they are there.
            const ts = owner as AseTileset;
            ts.tileUserData = [];
            while (ts.tileUserData.length < ts.tiles && c + 1 < chunks && fr.remaining >= 6 && fr.u16At(fr.pos + 4) === 0x2020) {
              const at = fr.pos;
              const s = fr.u32();
              fr.u16();
              if (s < 6 || s > fr.end - at) throw fr.error(`user data chunk claims ${s} bytes, ${fr.end - at} are left in the frame`, at);
              ts.tileUserData.push(readUserData(fr.sub(s - 6, 'the chunk'), 0));
              c++;
            }
            owner = null;
            ownerKind = 'other';
          }
          break;
        }
        case 0x2022: {
          const slice = readSlice(cr);
          doc.slices.push(slice);
          owner = slice;
          ownerKind = 'other';
          break;
        }
        case 0x2023: {
          const ts = readTileset(cr, header, budget);
          if (!ts.data) warn(`tileset "${ts.name}" is in an external file, which is not read: its tiles are not drawn`, chunkAt);
          doc.tilesets.push(ts);
          owner = ts;
          ownerKind = 'tileset';
          break;
        }
        default:
          // Masks (deprecated), paths (never used) and unknown chunks: skipped, as Aseprite does.
          doc.skipped.push({ type, offset: chunkAt });
          if (type !== 0x2016 && type !== 0x2017 && type !== 0x2021) warn(`unknown chunk type 0x${type.toString(16)} skipped`, chunkAt);
      }
    }
    // The palette in force at this frame (a palette chunk may come after the cels: it still counts).
    doc.palettes.push(palette);
    r.seek(frameEnd);
  }
  if (r.pos < r.end) warn(`${r.end - r.pos} bytes after the last frame`, r.pos);
  // Tilemap layers must name a tileset.
  for (const l of doc.layers) {
    if (l.type === 'tilemap' && !doc.tilesets.some((t) => t.id === l.tileset)) {
      throw FormatError.atByte(ASE_FORMAT, `tilemap layer "${l.name}" names tileset ${l.tileset}, which the file does not hold`, l.offset);
    }
  }
  return doc;
}

function readOldPalette(cr: ByteReader, frame: number, type: number): AsePaletteChunk {
  const offset = cr.pos - 6;
  const packets = cr.u16();
  cr.checkCount(packets, 2, 'palette packet', offset + 6, ' in the chunk');
  const chunk: AsePaletteChunk = { frame, kind: type === 4 ? 'old-0x0004' : 'old-0x0011', size: 0, first: 0, colors: [], offset };
  let index = 0;
  let first = -1;
  const colors: (AseColor | undefined)[] = [];
  for (let p = 0; p < packets; p++) {
    index += cr.u8();
    const n = cr.u8() || 256;
    cr.checkCount(n, 3, 'palette color', cr.pos, ' in the chunk', false);
    if (first < 0) first = index;
    for (let i = 0; i < n; i++) {
      let [rr, gg, bb] = [cr.u8(), cr.u8(), cr.u8()];
      if (type === 0x11) [rr, gg, bb] = [rr, gg, bb].map((v) => ((v & 63) << 2) | ((v & 63) >> 4)) as [number, number, number];
      if (index < 256 * 256) colors[index] = { r: rr, g: gg, b: bb, a: 255 };
      index++;
    }
  }
  chunk.first = Math.max(0, first);
  chunk.size = colors.length;
  chunk.colors = colors.slice(chunk.first).map((c) => c ?? { r: 0, g: 0, b: 0, a: 255 });
  return chunk;
}

function readPalette(cr: ByteReader, frame: number, budget: Budget): AsePaletteChunk {
  const offset = cr.pos - 6;
  const size = cr.u32();
  const first = cr.u32();
  const last = cr.u32();
  cr.skip(8);
  if (last < first) throw cr.error(`palette: last index ${last} before first ${first}`, offset + 14);
  const n = last - first + 1;
  cr.checkCount(n, 6, 'palette entry', offset + 10, ' in the chunk');
  if (last >= size) throw cr.error(`palette: entries up to ${last} in a palette of ${size}`, offset + 14);
  budget.spend('maxItems', n, `${n} palette entries`);
  const colors: AseColor[] = [];
  for (let i = 0; i < n; i++) {
    const flags = cr.u16();
    const c: AseColor = { r: cr.u8(), g: cr.u8(), b: cr.u8(), a: cr.u8() };
    if (flags & 1) c.name = cr.str16('a color name');
    colors.push(c);
  }
  return { frame, kind: 'palette', size, first, colors, offset };
}

function applyPalette(prev: AseColor[], chunk: AsePaletteChunk, budget: Budget): AseColor[] {
  const size = chunk.kind === 'palette' ? chunk.size : Math.max(prev.length, chunk.first + chunk.colors.length);
  budget.spend('maxItems', size, `a palette of ${size} colors`);
  const out: AseColor[] = [];
  for (let i = 0; i < size; i++) out.push(prev[i] ?? { r: 0, g: 0, b: 0, a: 255 });
  chunk.colors.forEach((c, i) => {
    out[chunk.first + i] = { r: c.r, g: c.g, b: c.b, a: c.a };
  });
  return out;
}

function readLayer(cr: ByteReader, opacityValid: boolean, composeGroups: boolean, withUuid: boolean): AseLayer {
  const at = cr.pos;
  const flags = cr.u16();
  const t = cr.u16();
  const childLevel = cr.u16();
  cr.skip(4);
  const blendAt = cr.pos;
  const blend = cr.u16();
  const opacity = cr.u8();
  cr.skip(3);
  const name = cr.str16('a layer name');
  if (t > 2) throw cr.error(`layer "${name}": unknown layer type ${t}`, at + 2);
  if (blend >= BLEND_MODES.length) throw cr.error(`layer "${name}": unknown blend mode ${blend}`, blendAt);
  const type: AseLayerType = t === 0 ? 'normal' : t === 1 ? 'group' : 'tilemap';
  const background = (flags & 8) !== 0;
  const layer: AseLayer = {
    name,
    type,
    flags,
    visible: (flags & 1) !== 0,
    background,
    reference: (flags & 64) !== 0,
    childLevel,
    parent: null,
    blendMode: BLEND_MODES[blend]!,
    opacity,
    effectiveBlendMode: 'normal',
    effectiveOpacity: 255,
    offset: 0,
  };
  // Aseprite keeps the blend mode and opacity of transparent image layers (opacity only with header flag 1), of groups only with flag 2.
  if ((type !== 'group' || composeGroups) && !background) {
    layer.effectiveBlendMode = layer.blendMode;
    if (opacityValid) layer.effectiveOpacity = opacity;
  }
  if (type === 'tilemap') layer.tileset = cr.u32();
  if (withUuid) layer.uuid = uuidText(cr.bytesView(16, 'a layer UUID'));
  return layer;
}

function uuidText(b: Uint8Array): string {
  const h = Array.from(b, (v) => v.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const BYTES_PER_PIXEL = { 8: 1, 16: 2, 32: 4 } as const;

function inflate(cr: ByteReader, expected: number, what: string): Uint8Array {
  const at = cr.pos;
  const data = cr.bytesView(cr.remaining, what);
  let out: Uint8Array;
  try {
    out = unzlibSync(data, { out: new Uint8Array(expected) });
  } catch (e) {
    throw cr.error(`${what}: cannot decompress (zlib): ${(e as Error).message}`, at);
  }
  if (out.length !== expected) throw cr.error(`${what}: decompresses to ${out.length} bytes, ${expected} expected`, at);
  return out;
}

function readCel(cr: ByteReader, frame: number, doc: AseDoc, chunkAt: number, budget: Budget, celsByFrame: Map<number, AseCel>[]): AseCel {
  cr.need(16, 'the cel chunk');
  const layerIndex = cr.u16();
  const cel: AseCel = {
    layer: layerIndex,
    x: cr.i16(),
    y: cr.i16(),
    opacity: cr.u8(),
    type: 'raw',
    zIndex: 0,
    width: 0,
    height: 0,
    offset: chunkAt,
  };
  const typeAt = cr.pos;
  const t = cr.u16();
  cel.zIndex = cr.i16();
  cr.skip(5);
  const layer = doc.layers[layerIndex];
  if (!layer) throw cr.error(`frame ${frame}: a cel of layer ${layerIndex}; the file has ${doc.layers.length} layers`, chunkAt + 6);
  if (layer.type === 'group') throw cr.error(`frame ${frame}: a cel in group layer "${layer.name}"`, chunkAt + 6);
  if (t > 3) throw cr.error(`frame ${frame}: unknown cel type ${t}`, typeAt);
  cel.type = (['raw', 'linked', 'compressed', 'tilemap'] as const)[t]!;
  if (t === 1) {
    const link = cr.u16();
    const target = link < frame ? celsByFrame[link]?.get(layerIndex) : undefined;
    if (!target) throw cr.error(`frame ${frame}: a linked cel to frame ${link}, which has no cel in layer "${layer.name}"`, typeAt + 8);
    cel.link = link;
    cel.width = target.width;
    cel.height = target.height;
    if (target.data) cel.data = target.data;
    if (target.tilemap) cel.tilemap = target.tilemap;
    return cel;
  }
  cel.width = cr.u16();
  cel.height = cr.u16();
  if (t === 3) {
    if (layer.type !== 'tilemap') throw cr.error(`frame ${frame}: a tilemap cel in layer "${layer.name}", which is no tilemap`, typeAt);
    const bits = cr.u16();
    const tm = { bitsPerTile: bits, tileIdMask: cr.u32(), xFlipMask: cr.u32(), yFlipMask: cr.u32(), diagonalFlipMask: cr.u32() };
    cr.skip(10);
    if (bits !== 8 && bits !== 16 && bits !== 32) throw cr.error(`frame ${frame}: ${bits} bits per tile`, typeAt + 6);
    budget.spend('maxItems', cel.width * cel.height, `a ${cel.width}x${cel.height} tilemap`);
    const raw = inflate(cr, cel.width * cel.height * (bits / 8), 'the tilemap');
    const tiles = new Uint32Array(cel.width * cel.height);
    const dv = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
    for (let i = 0; i < tiles.length; i++)
      tiles[i] = bits === 32 ? dv.getUint32(i * 4, true) : bits === 16 ? dv.getUint16(i * 2, true) : raw[i]!;
    cel.tilemap = { width: cel.width, height: cel.height, ...tm, tiles };
    return cel;
  }
  if (layer.type === 'tilemap') throw cr.error(`frame ${frame}: an image cel in tilemap layer "${layer.name}"`, typeAt);
  const bpp = BYTES_PER_PIXEL[doc.header.colorDepth];
  const n = cel.width * cel.height;
  budget.spend('maxPixels', n, `a ${cel.width}x${cel.height} cel`);
  if (t === 0) cel.data = cr.bytesView(n * bpp, 'the cel pixels');
  else cel.data = inflate(cr, n * bpp, 'the cel image');
  return cel;
}

/** A cache of each cel's (and tileset's) pixels converted to RGBA, by palette. */
const converted = new WeakMap<Uint8Array, Map<AseColor[] | null, RgbaImage>>();

/** A cel's pixels as RGBA for the frame's palette (indexed), cached; undefined for a cel without pixels. */
export function celImage(doc: AseDoc, cel: AseCel, frame: number): RgbaImage | undefined {
  return cel.data ? cachedRgba(doc, cel.data, cel.width, cel.height, frame) : undefined;
}

/** A tileset's tiles as RGBA (one under the other) for the frame's palette, cached. */
export function tilesetImage(doc: AseDoc, ts: AseTileset, frame: number): RgbaImage | undefined {
  return ts.data ? cachedRgba(doc, ts.data, ts.tileWidth, ts.tileHeight * ts.tiles, frame) : undefined;
}

function cachedRgba(doc: AseDoc, data: Uint8Array, width: number, height: number, frame: number): RgbaImage {
  const palette = doc.header.colorDepth === 8 ? (doc.palettes[frame] ?? doc.palettes[doc.palettes.length - 1] ?? []) : null;
  let byPalette = converted.get(data);
  if (!byPalette) converted.set(data, (byPalette = new Map()));
  let img = byPalette.get(palette);
  if (!img) byPalette.set(palette, (img = toRgba(data, width, height, doc.header, palette ?? [])));
  return img;
}

/** Pixels of the file's colour mode as RGBA; the mask colour (the transparent index) as 0. */
export function toRgba(data: Uint8Array, width: number, height: number, header: AseHeader, palette: AseColor[]): RgbaImage {
  const n = width * height;
  const out = new Uint8Array(n * 4);
  const mask = header.transparentIndex;
  if (header.colorDepth === 32) {
    for (let i = 0; i < n; i++) {
      const o = i * 4;
      if (data[o + 1] === 0 && data[o + 2] === 0 && data[o + 3] === 0 && data[o] === mask) continue;
      out[o] = data[o]!;
      out[o + 1] = data[o + 1]!;
      out[o + 2] = data[o + 2]!;
      out[o + 3] = data[o + 3]!;
    }
  } else if (header.colorDepth === 16) {
    for (let i = 0; i < n; i++) {
      const v = data[i * 2]!;
      const a = data[i * 2 + 1]!;
      if (a === 0 && v === mask) continue;
      out[i * 4] = out[i * 4 + 1] = out[i * 4 + 2] = v;
      out[i * 4 + 3] = a;
    }
  } else {
    for (let i = 0; i < n; i++) {
      const idx = data[i]!;
      if (idx === mask) continue;
      const c = palette[idx];
      if (!c) continue;
      out[i * 4] = c.r;
      out[i * 4 + 1] = c.g;
      out[i * 4 + 2] = c.b;
      out[i * 4 + 3] = c.a;
    }
  }
  return { width, height, data: out };
}

function readColorProfile(cr: ByteReader): AseColorProfile {
  const t = cr.u16();
  const flags = cr.u16();
  const gamma = cr.i32() / 65536;
  cr.skip(8);
  const profile: AseColorProfile = { type: t === 1 ? 'srgb' : t === 2 ? 'icc' : 'none', flags, gamma };
  if (t === 2) {
    const n = cr.u32();
    cr.need(n, 'the ICC profile');
    profile.icc = cr.bytesCopy(n, 'the ICC profile');
  }
  return profile;
}

function readSlice(cr: ByteReader): AseSlice {
  const offset = cr.pos - 6;
  const n = cr.u32();
  const flags = cr.u32();
  cr.skip(4);
  const name = cr.str16('a slice name');
  const keySize = 20 + (flags & 1 ? 16 : 0) + (flags & 2 ? 8 : 0);
  cr.checkCount(n, keySize, 'slice key', offset + 6, ' in the chunk', false);
  const slice: AseSlice = { name, flags, keys: [] };
  for (let i = 0; i < n; i++) {
    const key: AseSliceKey = { frame: cr.u32(), x: cr.i32(), y: cr.i32(), width: cr.u32(), height: cr.u32() };
    if (flags & 1) key.center = { x: cr.i32(), y: cr.i32(), width: cr.u32(), height: cr.u32() };
    if (flags & 2) key.pivot = { x: cr.i32(), y: cr.i32() };
    slice.keys.push(key);
  }
  return slice;
}

function readTileset(cr: ByteReader, header: AseHeader, budget: Budget): AseTileset {
  const ts: AseTileset = {
    id: cr.u32(),
    flags: cr.u32(),
    tiles: cr.u32(),
    tileWidth: cr.u16(),
    tileHeight: cr.u16(),
    baseIndex: cr.i16(),
    name: '',
  };
  cr.skip(14);
  ts.name = cr.str16('a tileset name');
  if (ts.flags & 1) ts.external = { file: cr.u32(), id: cr.u32() };
  if (ts.flags & 2) {
    const len = cr.u32();
    const zr = cr.sub(len, 'the tileset image');
    const w = ts.tileWidth;
    const h = ts.tileHeight * ts.tiles;
    budget.spend('maxPixels', w * h, `a tileset of ${ts.tiles} ${ts.tileWidth}x${ts.tileHeight} tiles`);
    ts.data = inflate(zr, w * h * BYTES_PER_PIXEL[header.colorDepth], 'the tileset image');
  }
  return ts;
}

const MAX_DEPTH = 128;

function readUserData(cr: ByteReader, _depth: number): AseUserData {
  const flags = cr.u32();
  const ud: AseUserData = {};
  if (flags & 1) ud.text = cr.str16('the user data text');
  if (flags & 2) ud.color = [cr.u8(), cr.u8(), cr.u8(), cr.u8()];
  if (flags & 4) {
    const at = cr.pos;
    const size = cr.u32();
    if (size < 8 || size - 4 > cr.remaining) throw cr.error(`user data properties claim ${size} bytes, ${cr.remaining + 4} are left`, at);
    const pr = cr.sub(size - 4, 'the properties');
    const maps = pr.u32();
    pr.checkCount(maps, 8, 'properties map', at + 4, ' in the chunk');
    ud.properties = [];
    for (let i = 0; i < maps; i++) {
      const key = pr.u32();
      ud.properties.push({ key, values: readProperties(pr, 0) });
    }
  }
  return ud;
}

function readProperties(pr: ByteReader, depth: number): Record<string, AseValue> {
  if (depth > MAX_DEPTH) throw pr.error(`properties nested more than ${MAX_DEPTH} levels deep`);
  const n = pr.u32();
  pr.checkCount(n, 4, 'property', pr.pos - 4, ' in the chunk');
  const out: Record<string, AseValue> = Object.create(null);
  for (let i = 0; i < n; i++) {
    const name = pr.str16('a property name');
    const type = pr.u16();
    out[name] = readValue(pr, type, depth);
  }
  return { ...out };
}

function safe64(v: bigint): number | string {
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
}

function readValue(pr: ByteReader, type: number, depth: number): AseValue {
  const at = pr.pos - 2;
  switch (type) {
    case 0x01:
      return pr.u8() !== 0;
    case 0x02:
      return pr.i8();
    case 0x03:
      return pr.u8();
    case 0x04:
      return pr.i16();
    case 0x05:
      return pr.u16();
    case 0x06:
      return pr.i32();
    case 0x07:
      return pr.u32();
    case 0x08: {
      const v = pr.u64();
      return safe64(BigInt.asIntN(64, v));
    }
    case 0x09:
      return safe64(pr.u64());
    case 0x0a:
      return pr.i32() / 65536;
    case 0x0b:
      return pr.f32();
    case 0x0c:
      return pr.f64();
    case 0x0d:
      return pr.str16('a property string');
    case 0x0e:
      return { x: pr.i32(), y: pr.i32() };
    case 0x0f:
      return { width: pr.i32(), height: pr.i32() };
    case 0x10:
      return { x: pr.i32(), y: pr.i32(), width: pr.i32(), height: pr.i32() };
    case 0x11: {
      if (depth >= MAX_DEPTH) throw pr.error(`properties nested more than ${MAX_DEPTH} levels deep`, at);
      const n = pr.u32();
      const et = pr.u16();
      pr.checkCount(n, et === 0 ? 2 : 1, 'vector element', pr.pos - 6, ' in the chunk');
      const list: AseValue[] = [];
      for (let i = 0; i < n; i++) list.push(readValue(pr, et === 0 ? pr.u16() : et, depth + 1));
      return list;
    }
    case 0x12:
      if (depth >= MAX_DEPTH) throw pr.error(`properties nested more than ${MAX_DEPTH} levels deep`, at);
      return readProperties(pr, depth + 1);
    case 0x13:
      return uuidText(pr.bytesView(16, 'a UUID'));
    default:
      throw pr.error(`unknown property type 0x${type.toString(16)}`, at);
  }
}
