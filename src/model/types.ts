import type { RgbaImage } from '../render/image.js';

/**
 * The common model that conversions between formats go through. A format
 * folder never imports another format: it converts its own document to and
 * from these types (src/model/<format>.ts or the format's own `toModel`).
 */

/** A source sheet: the path the document names, and its pixels once loaded. */
export interface ModelSheet {
  /** As named by the source document (e.g. "sheets/hero", "hud/magic_bar.png"). */
  path: string;
  /** The pixels, when the converter could load them (or made them, e.g. CTHG sprites). */
  image?: RgbaImage;
  /** Why `image` is missing: the resource layer's message (where it looked, what failed). */
  loadError?: string;
  /** Draw with nearest-neighbour filtering (pixel art). */
  nearest?: boolean;
}

/** A rectangle of a sheet drawn into a frame. */
export interface ModelPart {
  sheet: number;
  /** Source rectangle as stored in the sheet, in pixels (with `rotatedInSheet`, the upright part is sh wide and sw tall). */
  sx: number;
  sy: number;
  sw: number;
  sh: number;
  /** Where the part's pivot goes, relative to the sprite origin. */
  x: number;
  y: number;
  /** The pivot inside the (unrotated, unflipped) part; default (0, 0): the upper-left corner. */
  originX?: number;
  originY?: number;
  flipX?: boolean;
  flipY?: boolean;
  /** Degrees clockwise about the pivot. Flips, then scale, then rotation apply about the pivot. */
  rotation?: number;
  scaleX?: number;
  scaleY?: number;
  /** 0 (transparent) … 1 (opaque). */
  opacity?: number;
  /** The slice is stored rotated 90° clockwise in the sheet (ISPRITE, TexturePacker) and is turned back counter-clockwise. */
  rotatedInSheet?: boolean;
  name?: string;
}

/** A rectangle in sprite coordinates (relative to the sprite origin). */
export interface ModelRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A layer of the source (Aseprite layers), kept so writers can list them. */
export interface ModelLayer {
  name: string;
  /** 0 (transparent) … 1 (opaque). */
  opacity?: number;
  /** The source's blend mode name (Aseprite: "normal", "multiply", ...). */
  blendMode?: string;
  visible?: boolean;
  /** The name of the group layer this layer sits in. */
  group?: string;
}

/** A named point or collision shape in a frame. */
export type ModelShape =
  | { type: 'point'; name: string; x: number; y: number; rotation?: number }
  | {
      type: 'rect';
      name: string;
      x: number;
      y: number;
      width: number;
      height: number;
      rotation?: number;
      /** An Aseprite slice's 9-patch centre, relative to the rectangle. */
      center?: ModelRect;
      /** An Aseprite slice's pivot, relative to the rectangle. */
      pivot?: { x: number; y: number };
      /** An Aseprite slice's colour (`#rrggbbaa`) and user data text. */
      color?: string;
      userData?: string;
    }
  | { type: 'circle'; name: string; x: number; y: number; radius: number };

export interface ModelFrame {
  /** How long the frame shows, in milliseconds; Infinity = forever. */
  durationMs: number;
  /** Drawn in order, first at the back. */
  parts: ModelPart[];
  shapes?: ModelShape[];
  /** Trigger strings or sound ids, as text. */
  events?: string[];
  label?: string;
  /**
   * The frame's untrimmed box (Aseprite's canvas, TexturePacker's
   * `sourceSize`), placed relative to the sprite origin: `-canvas.x,
   * -canvas.y` is the origin inside the canvas. Absent when the source has
   * no such box; writers then use the union of the frames' visible boxes.
   */
  canvas?: ModelRect;
  /** The frame's own name or key in the source (a TexturePacker frame key, an Aseprite JSON frame name). */
  name?: string;
  /** The frame's user data text (Aseprite cel user data), carried as is. */
  userData?: string;
}

export interface ModelAnimation {
  name: string;
  /** A direction or view label when the source has several per animation ("north", "0"...). */
  direction?: string;
  frames: ModelFrame[];
  /** Index of the frame playback returns to after the last; null: stop on the last frame. */
  loopTo: number | null;
  /** Name of an animation to play when this one ends (ISPRITE follow-ups). */
  next?: string;
  /**
   * The source's frames that no animation plays, kept so that no conversion
   * drops them (src/model/unused.ts). Formats with frames outside any
   * animation (Aseprite, TexturePacker) write them so; the others write an
   * ordinary animation of that name.
   */
  unused?: boolean;
  /**
   * How a player walks the frames (Aseprite tag direction and repeat count;
   * repeat 0 or absent: forever). Absent: forward. See docs/interop.md.
   */
  playback?: {
    direction: 'forward' | 'reverse' | 'pingpong' | 'pingpong_reverse';
    repeat?: number;
  };
  /** The animation's user data text (Aseprite tag user data), carried as is. */
  userData?: string;
}

export interface SpriteModel {
  kind: 'sprite';
  name: string;
  sheets: ModelSheet[];
  animations: ModelAnimation[];
  /** The source's layers, back to front, when it has named layers (Aseprite). */
  layers?: ModelLayer[];
  /** Notes about what the conversion could not carry over. */
  notes?: string[];
}

/** One cell of a tile layer. */
export interface ModelCell {
  /** Tileset index, or -1 for an empty cell. */
  set: number;
  tile: number;
  flipX?: boolean;
  flipY?: boolean;
  /** Degrees counter-clockwise. */
  rotation?: number;
  /** Format-specific extras (order, trigger, collider ...). */
  extra?: Record<string, number | boolean>;
}

export interface ModelTileLayer {
  name: string;
  width: number;
  height: number;
  tileWidth: number;
  tileHeight: number;
  /** width × height cells, row 0 at the TOP, left to right. */
  cells: ModelCell[];
  properties?: Record<string, string | number | boolean>;
}

export interface ModelTileset {
  name: string;
  image?: RgbaImage;
  imagePath?: string;
  tileWidth: number;
  tileHeight: number;
}

export interface LevelModel {
  kind: 'level';
  layers: ModelTileLayer[];
  tilesets: ModelTileset[];
  properties?: Record<string, string | number | boolean>;
  notes?: string[];
}
