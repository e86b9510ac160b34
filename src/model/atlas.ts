import type { RgbaImage } from '../render/image.js';

/**
 * A packed texture atlas: what the packer lays out and every atlas exporter
 * writes (TexturePacker's data model, which the engines' formats share).
 *
 * Coordinates follow TexturePacker's JSON: `frame` is where the stored
 * pixels are on the page; `w`/`h` are the frame's own (unrotated) size, so a
 * rotated frame covers `h` x `w` pixels of its page; `spriteSourceSize` is
 * where the stored pixels go on the frame's `sourceSize` canvas.
 */
export interface AtlasFrame {
  /** The frame's name (a file name without its extension, or `animation/index`). */
  name: string;
  /** Index into `Atlas.pages`. */
  page: number;
  /** Upper-left corner on the page and the frame's own (unrotated) size. */
  frame: { x: number; y: number; w: number; h: number };
  /** Stored turned 90 degrees on the page: clockwise (TexturePacker's `rotated`), or as `Atlas.turn` says. */
  rotated: boolean;
  /** The stored pixels are smaller than the canvas (transparent edges cut off). */
  trimmed: boolean;
  /** Where the stored pixels go on the canvas. */
  spriteSourceSize: { x: number; y: number; w: number; h: number };
  /** The frame's canvas before trimming. */
  sourceSize: { w: number; h: number };
  /** The origin (pivot) on the canvas as a fraction of `sourceSize`, when the source has one. */
  pivot?: { x: number; y: number };
  /** How long the frame shows, when the source says (0: shown until changed). */
  durationMs?: number;
  /** Another frame with identical pixels, stored once: the index of the frame this one shares pixels with. */
  aliasOf?: number;
}

/** One page (one image) of an atlas. */
export interface AtlasPage {
  /** The image's file name, relative to the data file (e.g. `atlas.png`, `atlas-1@0.5x.png`). */
  file: string;
  image: RgbaImage;
}

/** A named sequence of frames, in play order. */
export interface AtlasAnimation {
  name: string;
  /** Indices into `Atlas.frames`. */
  frames: number[];
  /** Play the frames again from the first after the last. */
  loop: boolean;
}

/** Which way a frame stored rotated is turned on its page: TexturePacker's way, or libGDX's and Spine's (`rotate`). */
export type AtlasTurn = 'clockwise' | 'counterclockwise';

export interface Atlas {
  pages: AtlasPage[];
  frames: AtlasFrame[];
  animations: AtlasAnimation[];
  /** The scale of this variant (1 for the full-size atlas). */
  scale: number;
  /** Which way the `rotated` frames are turned (default clockwise); packAtlas stores them as its exporter's `turn`. */
  turn?: AtlasTurn;
}

/** A file an exporter writes, its name relative to the output's folder. */
export interface AtlasFile {
  name: string;
  readonly bytes: Uint8Array;
  /** The bytes as pieces made one at a time (see OutputFile.chunks in src/formats/types.ts). */
  readonly chunks?: () => Iterable<string | Uint8Array>;
}

/**
 * An engine's atlas format: writes the data file(s) for packed atlases (the
 * pages' images are written by the caller, under `AtlasPage.file`). Each
 * exporter lives in its tool's folder and is listed in src/registry.ts.
 */
export interface AtlasExporter {
  /** The name `sprat pack --to` takes, e.g. `texturepacker`, `godot4`. */
  name: string;
  /** A line for `--help`. */
  description: string;
  /** The data file's extension, with its dot (`.json`, `.tres`, `.atlas`). */
  extension: string;
  /** The format can say a frame is stored rotated (the packer may rotate only then). */
  rotation: boolean;
  /** With `rotation`: which way the format's rotated frames are turned (default clockwise). */
  turn?: AtlasTurn;
  /** Without `rotation`, when the file could say `rotated`: why the exporter stores frames upright (a few words for `--rotate`'s refusal). */
  whyNoRotation?: string;
  /** The format can spread one atlas over several pages (else the packer must fit one page, or write one data file per page). */
  multipage: boolean;
  /**
   * The data files for `atlas`, the main one named `dataName` (e.g.
   * `hero.json`); scale variants are exported one call each.
   */
  write(atlas: Atlas, dataName: string): AtlasFile[];
  /**
   * What writing `atlas` loses (pivots, durations, animations the format
   * cannot hold), each a sentence for the caller to print once as a note;
   * absent or empty when nothing is lost.
   */
  losses?(atlas: Atlas): string[];
  /**
   * For an exporter that writes through a user's template (`template`): the
   * exporter for the template `text` read from the file `fileName` (its data
   * file's extension comes from the name: `solar2d.lua.eta` writes `.lua`).
   */
  withTemplate?(text: string, fileName: string): AtlasExporter;
}
