/**
 * The files a Hallgeir document names: textures (PNG or BMP), `.obj` and
 * `.spr` files, found through the shared resource layer (../resources.ts),
 * relative to the naming file's folder.
 */
import { OptionError } from '../../binary/errors.js';
import { limitsFrom } from '../../binary/limits.js';
import type { CommandOptions, ResourceLoader } from '../types.js';
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

/** The frame size from `frameSize` (library) or `frame-size` (command line), "WxH"; undefined when absent. */
export function frameSizeOption(options: CommandOptions | undefined, format: string): FrameSize | undefined {
  const v = options?.frameSize ?? options?.['frame-size'];
  if (v === undefined || v === false) return undefined;
  const m = typeof v === 'string' ? /^\s*(\d+)\s*[xX×]\s*(\d+)\s*$/.exec(v) : null;
  if (!m) throw new OptionError(`--frame-size must be WxH (e.g. 32x32), not "${String(v)}"`);
  const width = Number(m[1]);
  const height = Number(m[2]);
  if (width < 1 || height < 1 || width > 65536 || height > 65536) {
    throw new OptionError(`--frame-size ${width}x${height} is out of range (1-65536 each way)`);
  }
  return { width, height };
}

export function requireFrameSize(options: CommandOptions | undefined, format: string, doing: string): FrameSize {
  const fs = frameSizeOption(options, format);
  if (!fs) throw new OptionError(`${doing} needs --frame-size WxH: the format does not store the frame size`);
  return fs;
}
