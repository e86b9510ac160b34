import { OptionError } from '../../binary/errors.js';
import type { CommandOptions, OptionSpec, ResourceLoader } from '../types.js';
import { stringOption } from '../options.js';
import type { RgbaImage } from '../../render/image.js';
import { foundResources, imageCache, joinPath, questRoot, relativePath, type ResourceRequest } from '../resources.js';

export const IMAGES_OPTION: OptionSpec = {
  name: 'images',
  type: 'string',
  value: 'DIR',
  description:
    "Solarus: the quest's sprites/ folder the images are relative to (default: found from the sprite's folder upwards, the folder holding quest.dat or sprites/)",
  paths: true,
};
export const TILESET_OPTION: OptionSpec = {
  name: 'tileset',
  type: 'string',
  value: 'IMAGE',
  description: 'Solarus: the tileset image for animations whose image is "tileset"',
  paths: true,
};

/**
 * Where an animation's `src_image` is: relative to the quest's `sprites/`
 * folder, as the engine reads it. That folder is DIR with `--images DIR`,
 * else `sprites/` in the quest's data folder, found by walking up from the
 * sprite file to the folder holding `quest.dat` or a `sprites/` folder;
 * outside any quest, the sprite's own folder. `tileset` is the map's
 * tileset, given with --tileset IMAGE.
 */
export async function sheetRequest(
  format: string,
  image: string,
  resources: ResourceLoader,
  options: CommandOptions = {},
  /** Finds the quest root (questRoot, or a cached answer). */
  root: () => Promise<string | undefined> = () => questRoot(resources),
): Promise<ResourceRequest> {
  if (image === 'tileset') {
    const t = stringOption(options, TILESET_OPTION);
    if (t === undefined) {
      throw new OptionError('the animation draws from the map\'s tileset ("tileset"): give its image with --tileset IMAGE');
    }
    return { format, what: '--tileset image', name: t };
  }
  const req: ResourceRequest = { format, what: 'image', name: image };
  const dir = stringOption(options, IMAGES_OPTION);
  if (dir !== undefined) return { ...req, candidates: [joinPath(dir, image)] };
  const prefix = await root();
  if (prefix !== undefined) return { ...req, candidates: [joinPath(prefix + 'sprites', image)] };
  return {
    ...req,
    candidates: [image],
    hint: "the sprite is in no quest (no folder above it holds quest.dat or sprites/): give the quest's sprites/ folder with --images DIR",
  };
}

/** Loads each distinct image once (for one sprite file). */
export function sheetCache(format: string, resources: ResourceLoader, options: CommandOptions = {}) {
  const load = imageCache(resources, options);
  const requests = new Map<string, Promise<ResourceRequest>>();
  let root: Promise<string | undefined> | undefined;
  return async (image: string): Promise<RgbaImage> => {
    let req = requests.get(image);
    if (!req) requests.set(image, (req = sheetRequest(format, image, resources, options, () => (root ??= questRoot(resources)))));
    return (await load(await req)).image;
  };
}

/**
 * The images the animations name (`references`): found as `sheetCache` finds
 * them, by existence only. An animation drawn from the map's tileset names no
 * file of its own: it references the --tileset image when one is given, and
 * nothing without one (only drawing it needs the image).
 */
export async function sheetReferences(
  format: string,
  animations: readonly { image: string }[],
  resources: ResourceLoader,
  options: CommandOptions = {},
): Promise<string[]> {
  let root: Promise<string | undefined> | undefined;
  const tileset = stringOption(options, TILESET_OPTION) !== undefined;
  const images = [...new Set(animations.map((a) => a.image))].filter((image) => image !== 'tileset' || tileset);
  return foundResources(
    resources,
    images.map((image) => sheetRequest(format, image, resources, options, () => (root ??= questRoot(resources)))),
  );
}

/**
 * The quest's `sprites/` folder a sheet written in `dir` is read from, as
 * `questRoot` finds it when the sheet is read (the nearest folder, from
 * `dir` upwards, holding `quest.dat` or `sprites/`), when `dir` is inside it;
 * else undefined (outside a quest, images are named from the sheet's own
 * folder). Paths as `resources` names them.
 */
export async function spritesFolderOf(dir: string, resources: ResourceLoader): Promise<string | undefined> {
  const prefix = await questRoot(resources, dir);
  if (prefix === undefined) return undefined;
  const sprites = joinPath(dir, `${prefix}sprites`);
  const rel = relativePath(sprites, dir);
  return rel !== undefined && !rel.startsWith('..') ? sprites : undefined;
}
