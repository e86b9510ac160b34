import { FormatError } from '../../binary/errors.js';
import { OptionError } from '../../binary/errors.js';
import { budgetFrom } from '../../binary/limits.js';
import { intOption, stringOption } from '../options.js';
import type { CommandOptions, OptionSpec } from '../types.js';
import { VIEWS, findAnimation, type CthgAnimation, type CthgDocument, type CthgViewName } from './model.js';

/**
 * CorsixTH's SDL timer fires every 30 ms and, at "Normal" game speed, the
 * world (and every animation) advances one tick every third timer event:
 * one frame per 90 ms.
 */
export const TICK_MS = 90;

/** CTHG's option readers: counts are never negative. */
export const optString = stringOption;
export function optInt(options: CommandOptions, name: string, min = 0): number | undefined {
  return intOption(options, name, min);
}

export interface ViewSelection {
  animation: CthgAnimation;
  view: CthgViewName;
  /** Index of the view's first frame. */
  first: number;
}

/**
 * The animation and view that `--animation`, `--tile-size` and `--view`
 * select. Without --animation: the first animation; without --view: its
 * first view (north, east, south, west).
 */
export function selectView(doc: CthgDocument, options: CommandOptions): ViewSelection {
  const name = optString(options, 'animation');
  const tileSize = optInt(options, 'tile-size');
  let animation: CthgAnimation | undefined;
  if (name === undefined) {
    animation = tileSize === undefined ? doc.animations[0] : doc.animations.find((a) => a.tileSize === tileSize);
    if (!animation) throw new FormatError('cthg', 'the file has no animation to select');
  } else {
    animation = findAnimation(doc, name, tileSize);
    if (!animation) {
      const sizes = doc.animations.filter((a) => a.name === name).map((a) => a.tileSize);
      if (sizes.length) {
        throw new OptionError(`animation "${name}" has no tile size ${tileSize ?? 64} (it has ${sizes.join(', ')}); use --tile-size`);
      }
      const known = [...new Set(doc.animations.map((a) => a.name))];
      throw new OptionError(`no animation named "${name}" (the file has: ${known.join(', ') || 'none'})`);
    }
  }
  const viewOpt = optString(options, 'view');
  let view: CthgViewName | undefined;
  if (viewOpt !== undefined) {
    const v = viewOpt.toLowerCase();
    if (!(VIEWS as readonly string[]).includes(v)) throw new OptionError(`--view must be north, east, south or west, not "${viewOpt}"`);
    view = v as CthgViewName;
    if (animation.views[view] === null) {
      const have = VIEWS.filter((x) => animation!.views[x] !== null);
      throw new OptionError(`animation "${animation.name}" has no ${view} view (it has: ${have.join(', ') || 'none'})`);
    }
  } else {
    view = VIEWS.find((x) => animation!.views[x] !== null);
    if (!view) throw new FormatError('cthg', `animation "${animation.name}" has no views`);
  }
  return { animation, view, first: animation.views[view]! };
}

export const PLAY_OPTIONS: readonly OptionSpec[] = [
  { name: 'animation', type: 'string', description: 'CTHG: the animation name (default: the first)' },
  { name: 'view', type: 'string', description: 'CTHG: north, east, south or west (default: the first the animation has)' },
  { name: 'tile-size', type: 'int', description: 'CTHG: the animation tile size (default 64)' },
  { name: 'ticks', type: 'int', description: 'CTHG: how many ticks to run (default: one pass through the view)' },
];

export interface CthgPlayRecord {
  tick: number;
  frame: number;
  sound: number;
}

/** Decision 12: the view's frames in order, looping, one per tick; a frame's sound plays when it is shown. */
export function playCthg(doc: CthgDocument, options: CommandOptions): { records: CthgPlayRecord[]; warnings: string[]; text: string } {
  const sel = selectView(doc, options);
  const ticks = optInt(options, 'ticks') ?? sel.animation.frameCount;
  budgetFrom(options).spend('maxRecords', ticks, `--ticks ${ticks}`);
  const records: CthgPlayRecord[] = [];
  const lines: string[] = [`${sel.animation.name} (tile size ${sel.animation.tileSize}), ${sel.view} view, ${TICK_MS} ms per tick:`];
  for (let t = 0; t < ticks; t++) {
    const frame = sel.first + (t % sel.animation.frameCount);
    const sound = doc.frames[frame]!.sound;
    records.push({ tick: t, frame, sound });
    lines.push(`  tick ${t}: frame ${frame}${sound ? `, sound ${sound}` : ''}`);
  }
  return { records, warnings: [], text: lines.join('\n') + '\n' };
}
