/**
 * The CTHG document model (CorsixTH animation file, version 513): what the
 * reader produces, what the writer takes, and what a program builds.
 * Field names follow the spec's JSON (docs/spec/cthg.md).
 * References are indices into the arrays (file order of each block type).
 */

export const CTHG_VERSION = 513;

/** The four view directions, in the order the CA block stores them. */
export const VIEWS = ['north', 'east', 'south', 'west'] as const;
export type CthgViewName = (typeof VIEWS)[number];

/** Block reference meaning "no block". */
export const NO_REF = 0xffffffff;

/** The five header counts, as a file states them. */
export interface CthgHeader {
  animations: number;
  frames: number;
  elements: number;
  sprites: number;
  spriteBytes: number;
}

/** A CA block: one named animation with up to four views of `frameCount` consecutive frames each. */
export interface CthgAnimation {
  name: string;
  /**
   * The name's bytes as stored, kept only when they are not valid UTF-8
   * (`name` then holds U+FFFD for the bad bytes). The writer writes them back
   * while `name` is still their decoding, so such a file re-writes to the
   * same bytes.
   */
  rawName?: Uint8Array;
  tileSize: number;
  frameCount: number;
  /** Index of each view's first frame, or null (0xFFFFFFFF) when the view does not exist. */
  views: Record<CthgViewName, number | null>;
}

/** Element flag bits. */
export const FLAG_FLIP_VERTICAL = 0x1;
export const FLAG_FLIP_HORIZONTAL = 0x2;
export const FLAG_ALPHA_50 = 0x4;
export const FLAG_ALPHA_75 = 0x8;

export interface CthgElement {
  /** Sprite index, or null (0xFFFFFFFF): the element draws nothing. */
  sprite: number | null;
  x: number;
  y: number;
  layerClass: number;
  layerId: number;
  /** u16; bits 0x1..0x8 are defined (see FLAG_*), the others are kept as data. */
  flags: number;
}

/** An FR block. */
export interface CthgFrame {
  /** 0 = no sound. */
  sound: number;
  elements: CthgElement[];
}

/**
 * An SP block. `data` is the run-length encoded pixel data exactly as stored;
 * it is written back unchanged, so unchanged sprites re-write to the same
 * bytes. Use `setSpritePixels` (rle.ts) to give a sprite new pixels.
 */
export interface CthgSprite {
  width: number;
  height: number;
  data: Uint8Array;
}

export interface CthgDocument {
  version: number;
  /** The header counts the file stated (null for a document built in code); the writer recomputes them. */
  header: CthgHeader | null;
  /**
   * One letter per block in file order (S = SP, F = FR, A = CA), or null.
   * The writer reuses it while it still fits the document, else it writes
   * the canonical (encoder's) order.
   */
  blockOrder: string | null;
  animations: CthgAnimation[];
  frames: CthgFrame[];
  sprites: CthgSprite[];
}

/** An empty document to build on. */
export function createCthg(): CthgDocument {
  return { version: CTHG_VERSION, header: null, blockOrder: null, animations: [], frames: [], sprites: [] };
}

/** The header counts the blocks hold. */
export function countsOf(doc: CthgDocument): CthgHeader {
  let elements = 0;
  for (const f of doc.frames) elements += f.elements.length;
  let spriteBytes = 0;
  for (const s of doc.sprites) spriteBytes += s.data.length;
  return {
    animations: doc.animations.length,
    frames: doc.frames.length,
    elements,
    sprites: doc.sprites.length,
    spriteBytes,
  };
}

/** Finds an animation by name and tile size (the game's key). */
export function findAnimation(doc: CthgDocument, name: string, tileSize?: number): CthgAnimation | undefined {
  const named = doc.animations.filter((a) => a.name === name);
  if (tileSize !== undefined) return named.find((a) => a.tileSize === tileSize);
  return named.find((a) => a.tileSize === 64) ?? (named.length === 1 ? named[0] : undefined);
}
