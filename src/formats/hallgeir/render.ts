/**
 * Drawing: a sprite's frame or whole animation (from its texture, with the
 * frame size given by the user, decision 5), and a map (each object's
 * `.obj`, its `.spr` and its texture resolved through the ResourceLoader;
 * frame 0 of the first animation drawn at the object's position).
 */
import { FormatError, OptionError, isFormatError } from '../../binary/errors.js';
import { drawImage } from '../../render/compose.js';
import { createImage, cropImage, type RgbaImage } from '../../render/image.js';
import { translate } from '../../render/matrix.js';
import type { CommandOptions, RenderResult, ResourceLoader } from '../types.js';
import type { HallgeirAnimation, HallgeirMap, HallgeirObject, HallgeirSprite } from './model.js';
import { frameChain } from './play.js';
import { readObject, readSprite } from './read.js';
import { dirOf, frameSizeOption, joinPath, loadTextureByName, requireFrameSize, textureRequest, type FrameSize } from './resources.js';
import { imageCache, loadResource } from '../resources.js';

/** The largest map drawing, in pixels. */
const MAX_CANVAS_PIXELS = 1 << 26;

/** The animation named by `animation` (default: the first). */
export function pickAnimation(sprite: HallgeirSprite, name: string | undefined, format = 'hallgeir-sprite'): HallgeirAnimation {
  if (sprite.animations.length === 0) throw new FormatError(format, 'the sprite has no animations');
  if (name === undefined) return sprite.animations[0]!;
  const a = sprite.animations.find((x) => x.name === name);
  if (!a) {
    // a wrong --animation is a wrong command line (README: exit 2), as for the other formats
    throw new OptionError(`no animation named ${JSON.stringify(name)} (the sprite has ${sprite.animations.map((x) => JSON.stringify(x.name)).join(', ')})`);
  }
  return a;
}

function stringOpt(options: CommandOptions, name: string): string | undefined {
  const v = options[name];
  return typeof v === 'string' ? v : undefined;
}

function frameOpt(options: CommandOptions, count: number, format: string): number | undefined {
  const v = options.frame;
  if (v === undefined || v === false) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n >= count) {
    throw new FormatError(format, `--frame ${String(v)} is not a frame of the animation (0-${count - 1})`);
  }
  return n;
}

/** Milliseconds a frame shows in a rendered animation (frames that hold forever: their delay, else one second). */
function renderDelayMs(delay: number): number {
  return delay > 0 ? delay * 1000 : 1000;
}

export async function renderSprite(
  sprite: HallgeirSprite,
  options: CommandOptions,
  resources: ResourceLoader,
  /** The sprite's folder, relative to the loader's (when drawn for an object). */
  dir = '',
): Promise<RenderResult> {
  const format = 'hallgeir-sprite';
  const size = requireFrameSize(options, format, 'rendering a sprite');
  const anim = pickAnimation(sprite, stringOpt(options, 'animation'));
  if (anim.frames.length === 0) throw new FormatError(format, `animation ${JSON.stringify(anim.name)} has no frames`);
  const only = frameOpt(options, anim.frames.length, format);
  const { image } = await loadTextureByName(resources, dir, sprite.texture, format, options);
  const crop = (j: number) => cropImage(image, anim.frames[j]!.x, anim.frames[j]!.y, size.width, size.height);
  if (size.width * size.height > MAX_CANVAS_PIXELS) throw new FormatError(format, `a frame of ${size.width}x${size.height} pixels is too large to draw`);
  if (only !== undefined) return { frames: [crop(only)] };
  const { chain, loopTo } = frameChain(anim);
  if (chain.length * size.width * size.height > MAX_CANVAS_PIXELS * 2) {
    throw new FormatError(format, `${chain.length} frames of ${size.width}x${size.height} pixels are too many to draw`);
  }
  return {
    frames: chain.map(crop),
    delaysMs: chain.map((j) => renderDelayMs(anim.frames[j]!.delay)),
    loops: loopTo === null ? 1 : 0,
  };
}

/** A frame size guessed from a sprite's frame positions: the smallest step between frames, else the rest of the texture. */
export function inferFrameSize(sprite: HallgeirSprite, texture: RgbaImage, x0: number, y0: number): FrameSize {
  const step = (vals: number[]): number | undefined => {
    const s = [...new Set(vals)].sort((a, b) => a - b);
    let best: number | undefined;
    for (let i = 1; i < s.length; i++) {
      const d = s[i]! - s[i - 1]!;
      if (best === undefined || d < best) best = d;
    }
    return best;
  };
  const all = sprite.animations.flatMap((a) => a.frames);
  const w = step(all.map((f) => f.x)) ?? texture.width - x0;
  const h = step(all.map((f) => f.y)) ?? texture.height - y0;
  return { width: Math.max(1, Math.min(w, 65536)), height: Math.max(1, Math.min(h, 65536)) };
}

function wrap(e: unknown, what: string): never {
  if (isFormatError(e)) throw new FormatError(e.format, `${what}: ${e.reason}`, { offset: e.offset, line: e.line, column: e.column });
  throw e;
}

/** Finds and reads an object's sprite: the name, then with `.spr`, in the object's folder, then in the document's. */
export async function resolveSprite(
  resources: ResourceLoader,
  dir: string,
  name: string,
  what: string,
  format: string,
): Promise<{ path: string; sprite: HallgeirSprite }> {
  const candidates = [...new Set([joinPath(dir, name), joinPath(dir, name + '.spr'), joinPath('', name), joinPath('', name + '.spr')])];
  const { path, bytes } = await loadResource(resources, { format, what: `${what}: sprite`, name, candidates });
  try {
    return { path, sprite: readSprite(bytes) };
  } catch (e) {
    wrap(e, `sprite "${path}"`);
  }
}

/** An object drawn as its sprite (the sprite's texture relative to the sprite). */
export async function renderObject(obj: HallgeirObject, options: CommandOptions, resources: ResourceLoader): Promise<RenderResult> {
  const { path, sprite } = await resolveSprite(resources, '', obj.sprite, `object ${JSON.stringify(obj.name)}`, 'hallgeir-object');
  return renderSprite(sprite, options, resources, dirOf(path));
}

interface Placed {
  x: number;
  y: number;
  image: RgbaImage;
  sx: number;
  sy: number;
  w: number;
  h: number;
}

export async function renderMap(map: HallgeirMap, options: CommandOptions, resources: ResourceLoader): Promise<RenderResult> {
  const format = 'hallgeir-map';
  const given = frameSizeOption(options, format);
  const sprites = new Map<string, { path: string; sprite: HallgeirSprite }>();
  const loadImage = imageCache(resources, options);
  const placed: Placed[] = [];

  const spriteFor = async (objPath: string) => {
    let entry = sprites.get(objPath);
    if (entry) return entry;
    const { bytes: objBytes } = await loadResource(resources, { format, what: 'object', name: objPath });
    let obj;
    try {
      obj = readObject(objBytes);
    } catch (e) {
      wrap(e, `object "${objPath}"`);
    }
    const { path: sprPath, sprite } = await resolveSprite(resources, dirOf(objPath), obj.sprite, `object "${objPath}"`, format);
    entry = { path: sprPath, sprite };
    sprites.set(objPath, entry);
    return entry;
  };

  for (const o of map.objects) {
    const objPath = joinPath('', o.object);
    const { path: sprPath, sprite } = await spriteFor(objPath);
    const frame = sprite.animations[0]?.frames[0];
    if (!frame) continue; // nothing to draw
    const mapTex = map.textures.find((t) => t.name === sprite.texture);
    let image: RgbaImage;
    if (mapTex) {
      image = (await loadImage({ ...textureRequest(format, '', mapTex.path), what: `texture "${mapTex.name}": file` })).image;
    } else {
      const req = textureRequest(format, dirOf(sprPath), sprite.texture);
      image = (await loadImage({ ...req, what: `sprite "${sprPath}": texture`, hint: 'it is not a texture of the map either' })).image;
    }
    const size = given ?? inferFrameSize(sprite, image, frame.x, frame.y);
    placed.push({ x: o.x, y: o.y, image, sx: frame.x, sy: frame.y, w: size.width, h: size.height });
  }

  if (placed.length === 0) return { frames: [createImage(1, 1)] };
  const minX = Math.min(0, ...placed.map((p) => p.x));
  const minY = Math.min(0, ...placed.map((p) => p.y));
  const maxX = Math.max(...placed.map((p) => p.x + p.w));
  const maxY = Math.max(...placed.map((p) => p.y + p.h));
  const width = Math.max(1, maxX - minX);
  const height = Math.max(1, maxY - minY);
  if (width * height > MAX_CANVAS_PIXELS || width > 65536 || height > 65536) {
    throw new FormatError(format, `the map drawing would be ${width}x${height} pixels, too large`);
  }
  const canvas = createImage(width, height);
  for (const p of placed) {
    drawImage(canvas, p.image, { sx: p.sx, sy: p.sy, sw: p.w, sh: p.h, transform: translate(p.x - minX, p.y - minY) });
  }
  return { frames: [canvas] };
}
