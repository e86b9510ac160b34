/**
 * The files a Hallgeir document names: textures (PNG or BMP), `.obj` and
 * `.spr` files, found through the shared resource layer (../resources.ts),
 * relative to the naming file's folder.
 */
import { OptionError } from '../../binary/errors.js';
import { limitsFrom } from '../../binary/limits.js';
import type { CommandOptions, OptionSpec, ResourceLoader } from '../types.js';
import { sizeOption } from '../options.js';
import type { RgbaImage } from '../../render/image.js';
import { joinPath, loadImage, type ResourceRequest } from '../resources.js';

export { dirOf, joinPath } from '../resources.js';

/** A texture name, relative to `dir`: as given, then with .png and .bmp appended. */
export function textureRequest(format: string, dir: string, name: string): ResourceRequest {
  const base = joinPath(dir, name);
  return { format, what: 'texture', name, candidates: [base, base + '.png', base + '.bmp'] };
}

/** Finds and decodes a texture named by a sprite, relative to `dir`. */
export async function loadTextureByName(
  resources: ResourceLoader,
  dir: string,
  name: string,
  format: string,
  options?: CommandOptions,
): Promise<{ path: string; image: RgbaImage }> {
  return loadImage(resources, textureRequest(format, dir, name), limitsFrom(options));
}

export interface FrameSize {
  width: number;
  height: number;
}

/** `--frame-size WxH`: Hallgeir sprites do not store their frame size. */
export const FRAME_SIZE_OPTION: OptionSpec = {
  name: 'frame-size',
  type: 'size',
  min: 1,
  max: 65536,
  description: 'Hallgeir sprites: the frame size (not stored in the file)',
};

/** The frame size from `frameSize` (library) or `frame-size` (command line), "WxH"; undefined when absent. */
export function frameSizeOption(options: CommandOptions | undefined, _format?: string): FrameSize | undefined {
  const v = options?.frameSize ?? options?.['frame-size'];
  return sizeOption({ 'frame-size': v }, FRAME_SIZE_OPTION);
}

export function requireFrameSize(options: CommandOptions | undefined, format: string, doing: string): FrameSize {
  const fs = frameSizeOption(options, format);
  if (!fs) throw new OptionError(`${doing} needs --frame-size WxH: the format does not store the frame size`);
  return fs;
}
