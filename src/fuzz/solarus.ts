/**
 * Whole Solarus sprite sheets for the fuzzer: several animations, in the line
 * syntax or the Lua one, each drawn from a real image sheet, the map's
 * tileset (`tileset`, which only --tileset gives), an image that is not
 * there, or a file that is no image, in any order (a sheet that draws from a
 * PNG and then from the tileset is what crashed `convert`). Written by the
 * library's own writers, so every sheet reads; mutations of them reach the
 * parsers. Browser-safe.
 */
import type { SolarusAnimation, SolarusDirection, SolarusSheet } from '../formats/solarus/model.js';
import { formatLines } from '../formats/solarus/lines.js';
import { formatLua } from '../formats/solarus/lua.js';
import type { FormatName } from '../formats/types.js';

/** The folder of samples/ the images are found from (relative to samples/). */
export const SHEET_DIR = 'solarus/sprites';

/**
 * What an animation draws from, seen from samples/solarus/sprites: the
 * sample's sheet, the map's tileset, an image that is not there, a file that
 * is not an image (the sample sheet itself), a name that leads out of the
 * folder.
 */
export const SHEET_IMAGES = ['enemies/slime.png', 'tileset', 'enemies/missing.png', 'slime.dat', '../../missing.png'] as const;

const NAMES = ['stopped', 'walking', 'hurt', 'shaking', 'destroy', 'on_ground'];

function direction(random: () => number): SolarusDirection {
  const int = (max: number) => Math.floor(random() * (max + 1));
  return {
    x: int(3) * 16,
    y: int(3) * 16,
    frameWidth: 1 + int(31),
    frameHeight: 1 + int(31),
    originX: int(16) - 4,
    originY: int(16) - 4,
    frameCount: 1 + int(4),
    columns: 1 + int(4),
  };
}

/** A sheet of one to six animations, each drawn from one of SHEET_IMAGES. */
export function randomSolarusSheet(random: () => number): SolarusSheet {
  const count = 1 + Math.floor(random() * 6);
  const animations: SolarusAnimation[] = [];
  for (let i = 0; i < count; i++) {
    const frames = 1 + Math.floor(random() * 4);
    animations.push({
      name: `${NAMES[i % NAMES.length]}${i >= NAMES.length ? i : ''}`,
      image: SHEET_IMAGES[Math.floor(random() * SHEET_IMAGES.length)]!,
      frameDelay: random() < 0.2 ? 0 : 50 + Math.floor(random() * 200),
      loopOnFrame: random() < 0.5 ? -1 : Math.floor(random() * frames),
      directions: Array.from({ length: 1 + Math.floor(random() * 4) }, () => direction(random)),
    });
  }
  return { animations };
}

/** The sheet as a file of `format`: the line syntax (`solarus`) or the Lua one. */
export function solarusSheetBytes(sheet: SolarusSheet, format: 'solarus' | 'solarus-lua'): Uint8Array {
  return new TextEncoder().encode(format === 'solarus' ? formatLines(sheet) : formatLua(sheet));
}

export interface GeneratedSheet {
  name: string;
  format: FormatName;
  bytes: Uint8Array;
  /** The samples/ folder its images are found from (relative to samples/). */
  dir: string;
}

/** A generated sheet in a random syntax, named as the fuzzer saves it. */
export function generatedSolarusSheet(random: () => number, index: number): GeneratedSheet {
  const format = random() < 0.5 ? 'solarus' : 'solarus-lua';
  return {
    name: `generated-${index}${format === 'solarus' ? '' : '-lua'}.dat`,
    format,
    bytes: solarusSheetBytes(randomSolarusSheet(random), format),
    dir: SHEET_DIR,
  };
}
