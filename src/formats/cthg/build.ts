/**
 * Building a CTHG file from PNG images: a small JSON description names, for
 * every animation, view and frame, the elements and the PNG regions they
 * show. `buildCthg(description, loadImage)` makes the document; write it
 * with `writeCthg`.
 */
import { FormatError } from '../../binary/errors.js';
import { cropImage, type RgbaImage } from '../../render/image.js';
import { VIEWS, createCthg, type CthgDocument, type CthgViewName } from './model.js';
import { spriteFromImage } from './rle.js';

export interface CthgElementDescription {
  /** The PNG (path as the loader understands it). */
  image: string;
  /** The region of the image (default: the whole image). */
  left?: number;
  top?: number;
  width?: number;
  height?: number;
  /** Where the region's upper-left corner goes, relative to the animation's origin. */
  x: number;
  y: number;
  /** Element flags (0x1 flip vertically, 0x2 horizontally, 0x4 50 % opacity, 0x8 25 % opacity). */
  flags?: number;
  layerClass?: number;
  layerId?: number;
  /**
   * A recolour map image of the same size as `image`: the red channel of
   * each pixel is its recolour layer (0 = a fixed-colour pixel). A
   * recoloured pixel's table index is the largest of its R, G and B.
   */
  recolour?: string;
}

export interface CthgFrameDescription {
  sound?: number;
  elements: CthgElementDescription[];
}

export interface CthgAnimationDescription {
  name: string;
  tileSize?: number;
  /** Each view lists its frames; every view of an animation needs the same number of frames. */
  views: Partial<Record<CthgViewName, CthgFrameDescription[]>>;
}

export interface CthgDescription {
  animations: CthgAnimationDescription[];
}

function bad(msg: string): FormatError {
  return new FormatError('cthg', msg);
}

function int(v: unknown, what: string, min: number, max: number, fallback?: number): number {
  if (v === undefined && fallback !== undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
    throw bad(`${what} must be a whole number from ${min} to ${max}`);
  return v;
}

/** Every image path a description names (elements and recolour maps), once each. */
export function descriptionImages(description: CthgDescription): string[] {
  if (!description || !Array.isArray(description.animations)) throw bad('the description needs an "animations" array');
  const out = new Set<string>();
  for (const a of description.animations) {
    for (const frames of Object.values(a?.views ?? {})) {
      if (!Array.isArray(frames)) continue;
      for (const f of frames) {
        for (const e of f?.elements ?? []) {
          if (typeof e?.image === 'string') out.add(e.image);
          if (typeof e?.recolour === 'string') out.add(e.recolour);
        }
      }
    }
  }
  return [...out];
}

/**
 * Makes a CTHG document from a description, loading its images with
 * `loadImage` (e.g. `async (p) => decodePng(await readFile(p))`). Identical
 * regions (same image, rectangle and recolour map) become one sprite.
 * Blocks are numbered in the encoder's order, so the file written is in the
 * canonical order.
 */
export async function buildCthg(description: CthgDescription, loadImage: (path: string) => Promise<RgbaImage>): Promise<CthgDocument> {
  const images = new Map<string, RgbaImage>();
  for (const p of descriptionImages(description)) images.set(p, await loadImage(p));
  return buildCthgFromImages(description, images);
}

/** buildCthg with the images already at hand (synchronous). */
export function buildCthgFromImages(description: CthgDescription, images: ReadonlyMap<string, RgbaImage>): CthgDocument {
  if (!description || !Array.isArray(description.animations)) throw bad('the description needs an "animations" array');
  const load = (p: string) => {
    const i = images.get(p);
    if (!i) throw bad(`image "${p}" is not available`);
    return i;
  };
  const doc = createCthg();
  const spriteKeys = new Map<string, number>();
  for (const a of description.animations) {
    if (typeof a?.name !== 'string') throw bad('every animation needs a "name"');
    const where = `animation "${a.name}"`;
    const tileSize = int(a.tileSize, `${where}: tileSize`, 0, 0xffff, 64);
    const present = VIEWS.filter((v) => a.views?.[v] !== undefined);
    if (!present.length) throw bad(`${where} has no views`);
    for (const k of Object.keys(a.views)) if (!(VIEWS as readonly string[]).includes(k)) throw bad(`${where}: unknown view "${k}"`);
    const frameCount = a.views[present[0]!]!.length;
    if (!frameCount) throw bad(`${where}: a view needs at least one frame`);
    const views = { north: null, east: null, south: null, west: null } as Record<CthgViewName, number | null>;
    for (const v of present) {
      const frames = a.views[v]!;
      if (!Array.isArray(frames) || frames.length !== frameCount) throw bad(`${where}: every view needs ${frameCount} frames`);
      views[v] = doc.frames.length;
      for (const [fi, f] of frames.entries()) {
        const fw = `${where}, ${v} frame ${fi}`;
        const elements = [];
        for (const e of f.elements ?? []) {
          if (typeof e?.image !== 'string') throw bad(`${fw}: every element needs an "image"`);
          const img = load(e.image);
          const left = int(e.left, `${fw}: left`, 0, img.width, 0);
          const top = int(e.top, `${fw}: top`, 0, img.height, 0);
          const width = int(e.width, `${fw}: width`, 0, img.width - left, img.width - left);
          const height = int(e.height, `${fw}: height`, 0, img.height - top, img.height - top);
          const key = JSON.stringify([e.image, left, top, width, height, e.recolour ?? null]);
          let sprite = spriteKeys.get(key);
          if (sprite === undefined) {
            let recolour: Uint8Array | null = null;
            if (e.recolour !== undefined) {
              const map = load(e.recolour);
              if (map.width < left + width || map.height < top + height)
                throw bad(`${fw}: the recolour map ${e.recolour} is smaller than the region`);
              const cut = cropImage(map, left, top, width, height);
              recolour = new Uint8Array(width * height);
              for (let i = 0; i < recolour.length; i++) recolour[i] = cut.data[i * 4]!;
            }
            sprite = doc.sprites.length;
            doc.sprites.push(spriteFromImage(cropImage(img, left, top, width, height), { recolour }));
            spriteKeys.set(key, sprite);
          }
          elements.push({
            sprite,
            x: int(e.x, `${fw}: x`, -32768, 32767),
            y: int(e.y, `${fw}: y`, -32768, 32767),
            layerClass: int(e.layerClass, `${fw}: layerClass`, 0, 255, 0),
            layerId: int(e.layerId, `${fw}: layerId`, 0, 255, 0),
            flags: int(e.flags, `${fw}: flags`, 0, 0xffff, 0),
          });
        }
        doc.frames.push({ sound: int(f.sound, `${fw}: sound`, 0, 0xffff, 0), elements });
      }
    }
    doc.animations.push({ name: a.name, tileSize, frameCount, views });
  }
  return doc;
}
