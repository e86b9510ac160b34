/**
 * The ISPRITE document model (Vision Riders Integrated Sprite System 1.0):
 * what the reader produces, what the writer takes, and what a program builds
 * to make a sprite from scratch. Field names follow the spec's JSON
 * (docs/spec/isprite.md). Sizes, counts and the FRAM maximum
 * element count are not stored: the writer computes them.
 */
import type { RgbaImage } from '../../render/image.js';

/** A date as the file stores it (UTC). `null` in the document means "unknown" (eight zero bytes). */
export interface IspriteDate {
  /** Years since 1 BCE: 1992 means 1992 CE. */
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  centisecond: number;
}

/** The META chunk. */
export interface IspriteMeta {
  created: IspriteDate | null;
  saved: IspriteDate | null;
  /** Milliseconds worked on the file (u64). */
  workTimeMs: bigint;
  tags: string;
  title: string;
  project: string;
  author: string;
  company: string;
  contact: string;
  url: string;
  copyright: string;
  comments: string;
  originatingProgram: string;
  program: string;
}

export interface IspriteTexture {
  /** Path relative to the sprite file, without extension, `/` separators. */
  path: string;
  /** Flag bit 0: filter with nearest neighbour. */
  nearest: boolean;
}

export interface IspriteSlice {
  texture: number;
  /** Flag bit 0: stored rotated 90° clockwise in the texture. */
  rotated: boolean;
  /** Upper-left corner in the texture, pixels. */
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface IspriteGroup {
  kind: 'group';
  name: string;
  children: IspriteNode[];
}

export interface IspriteSequence {
  kind: 'sequence';
  name: string;
  /** Position in the sequence to loop back to; null for 0xFFFFFFFF (stop). */
  loopPoint: number | null;
  /** Sequence to play when this one ends ("" for none). */
  followUp: string;
  /** Frame IDs (indices into `frames`). */
  frames: number[];
}

export type IspriteNode = IspriteGroup | IspriteSequence;

/** A graphic element: `expanded: false` is the 13-byte "g" record, `true` the 30-byte "G" record. */
export interface IspriteGraphic {
  type: 'graphic';
  expanded: boolean;
  /** Index into `names`, or null (0xFFFF). */
  name: number | null;
  slice: number;
  x: number;
  y: number;
  flipX: boolean;
  flipY: boolean;
  /** Expanded only (defaults for simple ones: slice centre, 0, 1, 1, 65535). */
  originX?: number;
  originY?: number;
  rotation?: number;
  scaleX?: number;
  scaleY?: number;
  /** Raw u16, 65535 = opaque. */
  opacity?: number;
}

export interface IspriteAttachment {
  type: 'attachment';
  name: number | null;
  id: number;
  x: number;
  y: number;
  flipX: boolean;
  flipY: boolean;
  rotation: number;
  scaleX: number;
  scaleY: number;
  opacity: number;
}

export interface IspriteRect {
  type: 'rect';
  name: number | null;
  id: number;
  /** Upper-left corner; rotation (degrees, clockwise) is about it. */
  x: number;
  y: number;
  width: number;
  height: number;
  rotation: number;
}

export interface IspriteCircle {
  type: 'circle';
  name: number | null;
  id: number;
  x: number;
  y: number;
  radius: number;
}

/** An element with a marker this version does not know, kept byte for byte. */
export interface IspriteUnknownElement {
  type: 'unknown';
  marker: number;
  name: number | null;
  /** The bytes after the 4-byte element header (its size byte is data.length). */
  data: Uint8Array;
}

export type IspriteElement = IspriteGraphic | IspriteAttachment | IspriteRect | IspriteCircle | IspriteUnknownElement;

export interface IspriteFrame {
  /** Frames of playback to hold this frame; 0 is invalid and plays as 1. */
  holdTime: number;
  /** Flag bit 0 (kept as data; the sequence's loop point decides playback). */
  loopPoint: boolean;
  label: string;
  triggers: string;
  notes: string;
  elements: IspriteElement[];
}

export interface IspriteUnknownChunk {
  /** Four characters. */
  id: string;
  data: Uint8Array;
}

export interface IspriteDocument {
  /** [major, minor]; the writer writes [1, 0] unless told otherwise. */
  version: [number, number];
  nonStandard: boolean;
  workFile: boolean;
  /** Up to three ASCII characters ("" for standard files). */
  nonStandardId: string;
  /** Master frame rate, frames per second (0: the application steps by hand). */
  frameRate: number;
  meta: IspriteMeta | null;
  /** MET+ name/value pairs in file order, or null when there is no MET+ chunk. */
  extraMeta: [string, string][] | null;
  textures: IspriteTexture[];
  slices: IspriteSlice[];
  names: string[];
  /** The children of the implicit Root group, in file order. */
  tree: IspriteNode[];
  frames: IspriteFrame[];
  unknownChunks: IspriteUnknownChunk[];
  /**
   * Only on a document a conversion made: the sheets it brought along
   * (pixels from another format, by texture index), written as one PNG
   * beside the new sprite by the handler's writeFiles. A document read from a
   * file has none, so re-encoding an ISPRITE file writes that file alone.
   * Non-enumerable: not part of the document's
   * data (inspect JSON, equality and copies leave it out).
   */
  convertedSheets?: (RgbaImage | undefined)[];
}

/** An empty sprite to build on. */
export function createIsprite(frameRate = 30): IspriteDocument {
  return {
    version: [1, 0],
    nonStandard: false,
    workFile: false,
    nonStandardId: '',
    frameRate,
    meta: null,
    extraMeta: null,
    textures: [],
    slices: [],
    names: [],
    tree: [],
    frames: [],
    unknownChunks: [],
  };
}

/** The fields an expanded ("G") graphic element has beyond a simple one. */
export interface IspriteExpandedFields {
  originX: number;
  originY: number;
  rotation: number;
  scaleX: number;
  scaleY: number;
  opacity: number;
}

/**
 * The default origin point of a graphic on this slice: the centre of the
 * element as displayed (a slice stored rotated shows height × width).
 */
export function sliceCentre(s: IspriteSlice | undefined): [number, number] {
  if (!s) return [0, 0];
  return s.rotated ? [s.height / 2, s.width / 2] : [s.width / 2, s.height / 2];
}

/**
 * A graphic element's expanded fields, the missing ones filled with the
 * document's defaults: origin = the centre of the element as displayed (0, 0 when
 * the slice does not exist or no document is given), rotation 0, scale 1,
 * opacity 65535.
 */
export function expandedFields(el: IspriteGraphic, doc?: IspriteDocument): IspriteExpandedFields {
  const [cx, cy] = sliceCentre(doc?.slices[el.slice]);
  return {
    originX: el.originX ?? cx,
    originY: el.originY ?? cy,
    rotation: el.rotation ?? 0,
    scaleX: el.scaleX ?? 1,
    scaleY: el.scaleY ?? 1,
    opacity: el.opacity ?? 65535,
  };
}
