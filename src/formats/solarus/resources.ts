import { FormatError, OptionError } from '../../binary/errors.js';
import type { CommandOptions, OptionSpec, ResourceLoader } from '../types.js';
import { stringOption } from '../options.js';
import { decodePng } from '../../render/png.js';
import type { RgbaImage } from '../../render/image.js';

export const IMAGES_OPTION: OptionSpec = {
  name: 'images',
  type: 'string',
  value: 'DIR',
  description: "Solarus: the quest's sprites/ folder the images are relative to (default: the file's folder, then its parent)",
};
export const TILESET_OPTION: OptionSpec = { name: 'tileset', type: 'string', value: 'IMAGE', description: 'Solarus: the tileset image for animations whose image is "tileset"' };

/** Joins a folder and a relative path with `/` ("" for the document's own folder). */
function join(dir: string, p: string): string {
  if (dir === '' || dir === '.') return p;
  return dir.replace(/[\\/]+$/, '') + '/' + p;
}

/**
 * The places an animation's `image` (a path relative to the quest's
 * `sprites/` folder) is looked for: DIR/image when `--images DIR` is given,
 * else the sprite file's own folder, then its parent (a quest keeps sprites
 * in `sprites/`, sheets beside them), then further up (for sprite ids in
 * sub-folders).
 */
export function imageCandidates(image: string, options: CommandOptions = {}): string[] {
  const dir = stringOption(options, IMAGES_OPTION);
  if (dir !== undefined) return [join(dir, image)];
  return [image, '../' + image, '../../' + image, '../../../' + image];
}

/** Loads and decodes the sheet an animation names (`tileset` needs --tileset). */
export async function loadSheet(format: string, image: string, resources: ResourceLoader, options: CommandOptions = {}): Promise<RgbaImage> {
  let candidates: string[];
  if (image === 'tileset') {
    const t = stringOption(options, TILESET_OPTION);
    if (t === undefined) {
      throw new OptionError('the animation draws from the map\'s tileset ("tileset"): give its image with --tileset IMAGE');
    }
    candidates = [t];
  } else {
    candidates = imageCandidates(image, options);
  }
  for (const c of candidates) {
    if (await resources.exists(c)) return decodePng(await resources.load(c));
  }
  throw new FormatError(format, `image "${image}" not found (looked for ${candidates.join(', ')}; use --images DIR)`);
}

/** Loads every distinct image once; returns a cache keyed by the image name. */
export function sheetCache(format: string, resources: ResourceLoader, options: CommandOptions = {}) {
  const cache = new Map<string, Promise<RgbaImage>>();
  return (image: string): Promise<RgbaImage> => {
    let p = cache.get(image);
    if (!p) {
      p = loadSheet(format, image, resources, options);
      cache.set(image, p);
    }
    return p;
  };
}
