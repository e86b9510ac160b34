/**
 * The document models of the Hallgeir Lien engine formats (2007): `.spr`
 * sprites, `.obj` object descriptions and `.map` maps. Field names follow
 * the spec's JSON (docs/spec/hallgeir.md). Each document keeps
 * the byte order it was read in, so re-writing it gives the same bytes.
 */
import type { RgbaImage } from '../../render/image.js';

export interface HallgeirFrame {
  /** Upper-left corner of the frame in the texture, pixels. */
  x: number;
  y: number;
  /** Seconds before the next frame; <= 0 holds the frame forever. Never NaN or infinite. */
  delay: number;
  /** Index of the next frame in the same animation, or -1: stay on this frame. */
  next: number;
}

export interface HallgeirAnimation {
  name: string;
  frames: HallgeirFrame[];
}

/**
 * How the file gave its identifier. The source document's tables make it 3
 * bytes (type string, size 3, no length field before it), and that is how
 * new files are written; a file that gives it as a string with its int length
 * (int 3, then the letters) reads too and sets this, so it is written back
 * the same way.
 */
export interface IdentifierForm {
  lengthPrefixedId?: boolean;
}

export interface HallgeirSprite extends IdentifierForm {
  kind: 'sprite';
  littleEndian: boolean;
  name: string;
  /** The texture's name: a file relative to the sprite, or a map texture's name when drawn in a map. */
  texture: string;
  animations: HallgeirAnimation[];
  /**
   * A sprite made from the common model whose frames could not name an
   * existing texture (trimmed sheet frames, a native .aseprite's cels): the
   * frames drawn into a new texture, which `writeFiles` writes beside the
   * sprite as STEM.png and names in `texture` (non-enumerable, not data).
   */
  bakedTexture?: RgbaImage;
}

export interface HallgeirObject extends IdentifierForm {
  kind: 'object';
  littleEndian: boolean;
  name: string;
  /** The sprite's name (its `.spr` file, with or without the extension). */
  sprite: string;
}

export interface HallgeirMapTexture {
  /** Path of the bitmap to load, relative to the map. */
  path: string;
  name: string;
}

export interface HallgeirMapObject {
  x: number;
  y: number;
  /** Path of the `.obj` file, relative to the map. */
  object: string;
}

export interface HallgeirMap extends IdentifierForm {
  kind: 'map';
  littleEndian: boolean;
  textures: HallgeirMapTexture[];
  objects: HallgeirMapObject[];
}

export type HallgeirDocument = HallgeirSprite | HallgeirObject | HallgeirMap;
export type HallgeirKind = HallgeirDocument['kind'];

/** The leading identifier string of each kind of file. */
export const IDENTIFIERS: Record<HallgeirKind, string> = { sprite: 'str', object: 'obj', map: 'map' };

/** Format names, as the registry and errors use them. */
export const FORMAT_NAMES: Record<HallgeirKind, 'hallgeir-sprite' | 'hallgeir-object' | 'hallgeir-map'> = {
  sprite: 'hallgeir-sprite',
  object: 'hallgeir-object',
  map: 'hallgeir-map',
};

/** Bytes of one frame record: int x, int y, double delay, int next. */
export const FRAME_SIZE = 20;

export function createSprite(name = '', texture = ''): HallgeirSprite {
  return { kind: 'sprite', littleEndian: true, name, texture, animations: [] };
}

export function createObject(name = '', sprite = ''): HallgeirObject {
  return { kind: 'object', littleEndian: true, name, sprite };
}

export function createMap(): HallgeirMap {
  return { kind: 'map', littleEndian: true, textures: [], objects: [] };
}
