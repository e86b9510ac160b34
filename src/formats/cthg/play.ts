import { FormatError, printableLines } from '../../binary/errors.js';
import { ANIMATION_OPTION } from '../selections.js';
import { budgetFrom } from '../../binary/limits.js';
import { choiceOption, intOption, namesNothing, stringOption } from '../options.js';
import type { CommandOptions, OptionSpec } from '../types.js';
import { VIEWS, findAnimation, type CthgAnimation, type CthgDocument, type CthgViewName } from './model.js';

/**
 * CorsixTH's SDL timer fires every 30 ms and, at "Normal" game speed, the
 * world (and every animation) advances one tick every third timer event:
 * one frame per 90 ms.
 */
export const TICK_MS = 90;

export const VIEW_OPTION: OptionSpec & { choices: readonly CthgViewName[] } = {
  name: 'view',
  type: 'string',
  choices: VIEWS,
  description: 'CTHG: the view (default: the first the animation has)',
};
export const TILE_SIZE_OPTION: OptionSpec = {
  name: 'tile-size',
  type: 'int',
  min: 0,
  max: 65535,
  description: 'CTHG: the animation tile size (default 64)',
};
export const TICKS_OPTION: OptionSpec = {
  name: 'ticks',
  type: 'int',
  min: 0,
  max: 1_000_000,
  description: 'CTHG: how many ticks to run (default: one pass through the view)',
};

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
  const name = stringOption(options, ANIMATION_OPTION);
  const tileSize = intOption(options, TILE_SIZE_OPTION);
  let animation: CthgAnimation | undefined;
  if (name === undefined) {
    animation = tileSize === undefined ? doc.animations[0] : doc.animations.find((a) => a.tileSize === tileSize);
    if (!animation && tileSize !== undefined && doc.animations.length) {
      throw namesNothing('tile-size', tileSize, 'tile size', 'the file', [...new Set(doc.animations.map((a) => a.tileSize))]);
    }
    if (!animation) throw new FormatError('cthg', 'the file has no animation to select');
  } else {
    animation = findAnimation(doc, name, tileSize);
    if (!animation) {
      const sizes = doc.animations.filter((a) => a.name === name).map((a) => a.tileSize);
      if (sizes.length) throw namesNothing('tile-size', tileSize ?? 64, 'tile size', `animation "${name}"`, sizes);
      throw namesNothing('animation', name, 'animation', 'the file', [...new Set(doc.animations.map((a) => a.name))]);
    }
  }
  let view = choiceOption(options, VIEW_OPTION);
  if (view !== undefined) {
    if (animation.views[view] === null) {
      throw namesNothing(
        'view',
        view,
        'view',
        `animation "${animation.name}"`,
        VIEWS.filter((x) => animation!.views[x] !== null),
      );
    }
  } else {
    view = VIEWS.find((x) => animation!.views[x] !== null);
    if (!view) throw new FormatError('cthg', `animation "${animation.name}" has no views`);
  }
  return { animation, view, first: animation.views[view]! };
}

export const PLAY_OPTIONS: readonly OptionSpec[] = [ANIMATION_OPTION, VIEW_OPTION, TILE_SIZE_OPTION, TICKS_OPTION];

export interface CthgPlayRecord {
  tick: number;
  frame: number;
  sound: number;
}

/** Decision 12: the view's frames in order, looping, one per tick; a frame's sound plays when it is shown. */
export function playCthg(doc: CthgDocument, options: CommandOptions): { records: CthgPlayRecord[]; warnings: string[]; text: string } {
  const sel = selectView(doc, options);
  const ticks = intOption(options, TICKS_OPTION) ?? sel.animation.frameCount;
  budgetFrom(options).spend('maxRecords', ticks, `--ticks ${ticks}`);
  const records: CthgPlayRecord[] = [];
  const lines: string[] = [`${sel.animation.name} (tile size ${sel.animation.tileSize}), ${sel.view} view, ${TICK_MS} ms per tick:`];
  for (let t = 0; t < ticks; t++) {
    const frame = sel.first + (t % sel.animation.frameCount);
    const sound = doc.frames[frame]!.sound;
    records.push({ tick: t, frame, sound });
    lines.push(`  tick ${t}: frame ${frame}${sound ? `, sound ${sound}` : ''}`);
  }
  return { records, warnings: [], text: printableLines(lines) + '\n' };
}
