/**
 * Finding and decoding the files a document names: textures (PNG or BMP),
 * `.obj` and `.spr` files, through a ResourceLoader. Paths are joined with
 * `/` (a `\` in an engine path counts as `/`), so this runs in browsers.
 */
import { FormatError, OptionError, isFormatError } from '../../binary/errors.js';
import type { CommandOptions, OptionSpec, ResourceLoader } from '../types.js';
import { sizeOption } from '../options.js';
import { decodePng } from '../../render/png.js';
import { decodeBmp, isBmp } from '../../render/bmp.js';
import type { RgbaImage } from '../../render/image.js';

/** The folder part of a relative path ("" for a bare name). */
export function dirOf(p: string): string {
  const s = p.replace(/\\/g, '/');
  const i = s.lastIndexOf('/');
  return i < 0 ? '' : s.slice(0, i);
}

/** Joins a relative path to a folder, resolving `.` and `..` where it can. */
export function joinPath(dir: string, rel: string): string {
  const r = rel.replace(/\\/g, '/');
  if (r.startsWith('/') || /^[A-Za-z]:\//.test(r)) return r;
  const parts = (dir ? dir.replace(/\\/g, '/') + '/' + r : r).split('/');
  const out: string[] = [];
  for (const part of parts) {
    if (part === '' || part === '.') continue;
    if (part === '..' && out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else out.push(part);
  }
  return out.join('/');
}

/** The first candidate that exists, or undefined. */
export async function firstExisting(resources: ResourceLoader, candidates: string[]): Promise<string | undefined> {
  for (const c of candidates) {
    try {
      if (await resources.exists(c)) return c;
    } catch {
      // A loader that cannot tell counts as "not there".
    }
  }
  return undefined;
}

/** Candidates for a texture name: as given, then with .png and .bmp appended. */
export function textureCandidates(dir: string, name: string): string[] {
  const base = joinPath(dir, name);
  return [base, base + '.png', base + '.bmp'];
}

/** Decodes a PNG or BMP texture by its signature. */
export function decodeTexture(bytes: Uint8Array, path: string): RgbaImage {
  try {
    if (bytes.length >= 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return decodePng(bytes);
    if (isBmp(bytes)) return decodeBmp(bytes);
  } catch (e) {
    if (isFormatError(e)) throw new FormatError(e.format, `texture "${path}": ${e.reason}`, { offset: e.offset });
    throw e;
  }
  throw new FormatError('hallgeir-sprite', `texture "${path}" is neither a PNG nor a BMP image`);
}

export async function loadBytes(resources: ResourceLoader, path: string, what: string, format: string): Promise<Uint8Array> {
  try {
    return await resources.load(path);
  } catch (e) {
    const code = (e as { code?: string })?.code;
    throw new FormatError(format, `cannot load ${what} "${path}": ${code === 'ENOENT' ? 'no such file' : (e as Error)?.message ?? String(e)}`);
  }
}

/** Finds and decodes a texture named by a sprite, relative to `dir`. */
export async function loadTextureByName(
  resources: ResourceLoader,
  dir: string,
  name: string,
  format: string,
): Promise<{ path: string; image: RgbaImage }> {
  const candidates = textureCandidates(dir, name);
  const path = await firstExisting(resources, candidates);
  if (path === undefined) {
    throw new FormatError(format, `texture "${name}" not found (tried ${candidates.map((c) => JSON.stringify(c)).join(', ')})`);
  }
  return { path, image: decodeTexture(await loadBytes(resources, path, 'texture', format), path) };
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
