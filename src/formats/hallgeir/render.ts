/**
 * Drawing: a sprite's frame or whole animation (from its texture, with the
 * frame size given by the user, decision 5), and a map (each object's
 * `.obj`, its `.spr` and its texture resolved through the ResourceLoader;
 * frame 0 of the first animation drawn at the object's position).
 */
import { diagnostic, FormatError, isFormatError, type Diagnostic } from '../../binary/errors.js';
import { ANIMATION_OPTION, FRAME_OPTION } from '../selections.js';
import type { RgbaImage } from '../../render/image.js';
import { translate } from '../../render/matrix.js';
import { drawPicture, type Picture, type PictureFrame } from '../../render/pipeline.js';
import { budgetFrom } from '../../binary/limits.js';
import type { CommandOptions, OptionSpec, RenderResult, RenderView, ResourceLoader } from '../types.js';
import { intOption, selectIndex, selectNamed, stringOption } from '../options.js';
import type { HallgeirAnimation, HallgeirMap, HallgeirObject, HallgeirSprite } from './model.js';
import { frameByIndex, frameCount, framesOf, objectPaths, objectsOf } from './compact.js';
import { frameChain } from './play.js';
import { readObject, readSprite } from './read.js';
import { dirOf, frameSizeOption, joinPath, loadTextureByName, requireFrameSize, textureRequest, type FrameSize } from './resources.js';
import { foundResources, imageCache, loadResource, MissingFiles, type ResourceRequest } from '../resources.js';

/** The animation named by `animation` (default: the first). */
export function pickAnimation(sprite: HallgeirSprite, name: string | undefined, format = 'hallgeir-sprite'): HallgeirAnimation {
  if (sprite.animations.length === 0) throw new FormatError(format, 'the sprite has no animations');
  if (name === undefined) return sprite.animations[0]!;
  // a wrong --animation is a wrong command line (docs/spec/README.md: exit 2), as for the other formats
  return selectNamed('animation', name, sprite.animations, (x) => x.name, 'animation', 'the sprite');
}

function frameOpt(options: CommandOptions, anim: HallgeirAnimation): number | undefined {
  const n = intOption(options, FRAME_OPTION);
  return n === undefined ? undefined : selectIndex('frame', n, frameCount(anim), 'frame', `animation ${JSON.stringify(anim.name)}`);
}

/** Milliseconds a frame shows in a rendered animation (frames that hold forever: their delay, else one second). */
function renderDelayMs(delay: number): number {
  return delay > 0 ? delay * 1000 : 1000;
}

/** A sprite's animation (or one frame of it) as a picture: each frame its rectangle of the texture. */
export async function spritePicture(
  sprite: HallgeirSprite,
  options: CommandOptions,
  resources: ResourceLoader,
  /** The sprite's folder, relative to the loader's (when drawn for an object). */
  dir = '',
): Promise<Picture> {
  const format = 'hallgeir-sprite';
  const size = requireFrameSize(options, format, 'rendering a sprite');
  const anim = pickAnimation(sprite, stringOption(options, ANIMATION_OPTION));
  const only = frameOpt(options, anim);
  const frames = framesOf(anim);
  if (frames.length === 0) throw new FormatError(format, `animation ${JSON.stringify(anim.name)} has no frames`);
  const { image } = await loadTextureByName(resources, dir, sprite.texture, format, options);
  const frame = (j: number, delayMs?: number): PictureFrame => ({
    parts: [{ image, sx: frames.x(j), sy: frames.y(j), sw: size.width, sh: size.height }],
    delayMs,
  });
  const canvas = { x: 0, y: 0, width: size.width, height: size.height };
  const what = `animation ${JSON.stringify(anim.name)}`;
  if (only !== undefined) return { frames: [frame(only)], canvas, what };
  const { chain, loopTo } = frameChain(anim);
  return { frames: chain.map((j) => frame(j, renderDelayMs(frames.delay(j)))), canvas, loops: loopTo === null ? 1 : 0, what };
}

export async function renderSprite(
  sprite: HallgeirSprite,
  options: CommandOptions,
  resources: ResourceLoader,
  dir = '',
): Promise<RenderResult> {
  return drawPicture(await spritePicture(sprite, options, resources, dir), budgetFrom(options));
}

/** What the viewer offers for a sprite: every animation. */
export function spriteViews(sprite: HallgeirSprite): RenderView[] {
  return sprite.animations.map((a) => ({ label: a.name, options: { animation: a.name } }));
}

/** A frame size guessed from a sprite's frame positions: the smallest step between frames, else the rest of the texture. */
export function inferFrameSize(sprite: HallgeirSprite, texture: RgbaImage, x0: number, y0: number): FrameSize {
  const step = (vals: Set<number>): number | undefined => {
    const s = [...vals].sort((a, b) => a - b);
    let best: number | undefined;
    for (let i = 1; i < s.length; i++) {
      const d = s[i]! - s[i - 1]!;
      if (best === undefined || d < best) best = d;
    }
    return best;
  };
  const xs = new Set<number>();
  const ys = new Set<number>();
  for (const a of sprite.animations) {
    const frames = framesOf(a);
    for (let i = 0; i < frames.length; i++) {
      xs.add(frames.x(i));
      ys.add(frames.y(i));
    }
  }
  const w = step(xs) ?? texture.width - x0;
  const h = step(ys) ?? texture.height - y0;
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
export async function objectPicture(obj: HallgeirObject, options: CommandOptions, resources: ResourceLoader): Promise<Picture> {
  const { path, sprite } = await resolveSprite(resources, '', obj.sprite, `object ${JSON.stringify(obj.name)}`, 'hallgeir-object');
  return spritePicture(sprite, options, resources, dirOf(path));
}

export async function renderObject(obj: HallgeirObject, options: CommandOptions, resources: ResourceLoader): Promise<RenderResult> {
  return drawPicture(await objectPicture(obj, options, resources), budgetFrom(options));
}

interface Placed {
  x: number;
  y: number;
  image: RgbaImage;
  sx: number;
  sy: number;
  w: number;
  h: number;
  fields: Record<string, unknown>;
}

/** A map: frame 0 of each object's first animation at the object's position, on a canvas from (0, 0) or the leftmost, topmost object. */
export async function mapPicture(map: HallgeirMap, options: CommandOptions, resources: ResourceLoader): Promise<Picture> {
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

  // An object whose file, sprite or texture cannot be had is left out, its file a warning (MissingFiles).
  const missing = new MissingFiles(options);
  const table = objectsOf(map);
  for (let i = 0; i < table.length; i++) {
    const o = { x: table.x(i), y: table.y(i), object: table.object(i) };
    const objPath = joinPath('', o.object);
    const got = await missing.attempt(async () => {
      const { path: sprPath, sprite } = await spriteFor(objPath);
      const first = sprite.animations[0];
      const frame = first && frameByIndex(first, 0);
      if (!frame) return undefined; // nothing to draw
      const mapTex = map.textures.find((t) => t.name === sprite.texture);
      let image: RgbaImage;
      if (mapTex) {
        image = (await loadImage({ ...textureRequest(format, '', mapTex.path), what: `texture "${mapTex.name}": file` })).image;
      } else {
        const req = textureRequest(format, dirOf(sprPath), sprite.texture);
        image = (await loadImage({ ...req, what: `sprite "${sprPath}": texture`, hint: 'it is not a texture of the map either' })).image;
      }
      return { sprPath, sprite, frame, image };
    }, `object "${o.object}"`);
    if (!got) continue;
    const { sprPath, sprite, frame, image } = got;
    const size = given ?? inferFrameSize(sprite, image, frame.x, frame.y);
    placed.push({
      x: o.x,
      y: o.y,
      image,
      sx: frame.x,
      sy: frame.y,
      w: size.width,
      h: size.height,
      fields: { object: o.object, x: o.x, y: o.y, sprite: sprPath, texture: sprite.texture, animation: sprite.animations[0]!.name },
    });
  }

  // Objects there, none of them drawable: the first missing file is the error.
  if (placed.length === 0 && missing.firstError) throw missing.firstError;
  if (placed.length === 0) return { frames: [{ parts: [] }], canvas: { x: 0, y: 0, width: 1, height: 1 }, what: 'the map' };
  let minX = 0;
  let minY = 0;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const p of placed) {
    minX = Math.min(minX, p.x);
    minY = Math.min(minY, p.y);
    maxX = Math.max(maxX, p.x + p.w);
    maxY = Math.max(maxY, p.y + p.h);
  }
  const parts = placed.map((p) => ({ image: p.image, sx: p.sx, sy: p.sy, sw: p.w, sh: p.h, transform: translate(p.x, p.y), layer: 0 }));
  const canvas = { x: minX, y: minY, width: Math.max(1, maxX - minX), height: Math.max(1, maxY - minY) };
  const objects = placed.map((p) => ({ x: p.x, y: p.y, width: p.w, height: p.h, fields: p.fields }));
  return missing.mark({ frames: [{ parts }], canvas, layers: [{ name: 'objects', objects }], what: 'the map' });
}

export async function renderMap(map: HallgeirMap, options: CommandOptions, resources: ResourceLoader): Promise<RenderResult> {
  return drawPicture(await mapPicture(map, options, resources), budgetFrom(options));
}

/**
 * The files a Hallgeir document names (`references`), found as rendering
 * finds them: a sprite's texture; an object's sprite and its texture; a
 * map's textures and each object's file, sprite and texture. Textures are
 * asked for by existence only; `.obj` and `.spr` files are read to follow
 * their names (one that cannot be read or parsed ends its chain).
 */
export async function hallgeirReferences(doc: HallgeirSprite | HallgeirObject | HallgeirMap, resources: ResourceLoader): Promise<string[]> {
  const format = `hallgeir-${doc.kind}`;
  const found = new Set<string>();
  const add = async (...reqs: ResourceRequest[]) => {
    for (const p of await foundResources(resources, reqs)) found.add(p);
  };
  // A sprite (read from `dir`, or the document itself): its texture, a map texture's name first when in a map.
  const spriteTexture = async (sprite: HallgeirSprite, dir: string, map?: HallgeirMap) => {
    if (map?.textures.some((t) => t.name === sprite.texture)) return;
    await add(textureRequest(format, dir, sprite.texture));
  };
  const objectChain = async (obj: HallgeirObject, dir: string, map?: HallgeirMap) => {
    try {
      const { path, sprite } = await resolveSprite(resources, dir, obj.sprite, 'object', format);
      found.add(path);
      await spriteTexture(sprite, dirOf(path), map);
    } catch {
      // not there or not a sprite: nothing more to follow
    }
  };
  if (doc.kind === 'sprite') await spriteTexture(doc, '');
  else if (doc.kind === 'object') await objectChain(doc, '');
  else {
    await add(...doc.textures.map((t) => textureRequest(format, '', t.path)));
    for (const objPath of new Set(objectPaths(doc).map((p) => joinPath('', p)))) {
      try {
        const { path, bytes } = await loadResource(resources, { format, what: 'object', name: objPath });
        found.add(path);
        await objectChain(readObject(bytes), dirOf(objPath), doc);
      } catch {
        // not there or not an object: nothing more to follow
      }
    }
  }
  return [...found];
}

/**
 * The chain a document leans on, checked without drawing (no frame size
 * needed): map -> its textures and object files -> each object's sprite ->
 * the sprite's texture (a map texture of that name first), each found and
 * read or decoded. One problem per broken link, naming the link.
 */
export async function hallgeirChainProblems(
  doc: HallgeirSprite | HallgeirObject | HallgeirMap,
  resources: ResourceLoader,
  options?: CommandOptions,
): Promise<Diagnostic[]> {
  const format = `hallgeir-${doc.kind}`;
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  const problem = (e: unknown, where: string) => {
    if (!isFormatError(e)) throw e;
    const message = where ? `${where}: ${e.reason}` : e.reason;
    if (seen.has(message)) return;
    seen.add(message);
    out.push(diagnostic('error', message));
  };
  const texture = async (sprite: HallgeirSprite, dir: string, where: string, map?: HallgeirMap) => {
    if (map?.textures.some((t) => t.name === sprite.texture)) return;
    try {
      await loadTextureByName(resources, dir, sprite.texture, format, options);
    } catch (e) {
      problem(e, where);
    }
  };
  const object = async (obj: HallgeirObject, dir: string, where: string, map?: HallgeirMap) => {
    let found: { path: string; sprite: HallgeirSprite };
    try {
      found = await resolveSprite(resources, dir, obj.sprite, where, format);
    } catch (e) {
      problem(e, ''); // its reason names `where` already
      return;
    }
    await texture(found.sprite, dirOf(found.path), `${where} -> sprite "${found.path}"`, map);
  };
  if (doc.kind === 'sprite') await texture(doc, '', 'the sprite');
  else if (doc.kind === 'object') await object(doc, '', `object ${JSON.stringify(doc.name)}`);
  else {
    const loadImage = imageCache(resources, options);
    for (const t of doc.textures) {
      try {
        await loadImage(textureRequest(format, '', t.path));
      } catch (e) {
        problem(e, `the map's texture "${t.name}"`);
      }
    }
    for (const objPath of new Set(objectPaths(doc).map((p) => joinPath('', p)))) {
      let obj: HallgeirObject;
      try {
        const { bytes } = await loadResource(resources, { format, what: 'object', name: objPath });
        try {
          obj = readObject(bytes);
        } catch (e) {
          wrap(e, `object "${objPath}"`);
        }
      } catch (e) {
        problem(e, 'the map');
        continue;
      }
      await object(obj, dirOf(objPath), `the map -> object file "${objPath}"`, doc);
    }
  }
  return out;
}
