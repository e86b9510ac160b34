/**
 * The shared selections: the options several formats take to choose what
 * `render` draws and `play` runs, declared once here so that every command
 * and every format spells and checks them the same way (their values are
 * read through src/formats/options.ts). A format with its own syntax for a
 * name declares its own spec under the same name (Aseprite's
 * `--hide-layers` takes layer names and group paths as well as numbers).
 * `sprat CMD --help` lists these as the command's selections.
 */
import type { OptionSpec } from './types.js';

/** `--animation NAME`: the animation (sequence, tag) to draw or play. */
export const ANIMATION_OPTION: OptionSpec = {
  name: 'animation',
  type: 'string',
  value: 'NAME',
  description:
    'the animation to draw or play (ISPRITE: a sequence name, any case, or a path Root/Armed/attack; Aseprite: a tag); default: the first (ISPRITE: the default sequence; an .aseprite file: every frame)',
};

/** `--frame N`: one position of the chosen animation (view, direction, tag). */
export const FRAME_OPTION: OptionSpec = {
  name: 'frame',
  type: 'int',
  min: 0,
  description: 'draw only this frame (from 0) of the animation, view or direction; default: all of them (animated in GIF/APNG)',
};

/** `--direction N`: a direction of the animation, by number. */
export const DIRECTION_OPTION: OptionSpec = {
  name: 'direction',
  type: 'int',
  min: 0,
  description: 'the direction of the animation, from 0 (default 0)',
};

/** `--origin`: every format that draws sprites marks each frame's origin with it. */
export const ORIGIN_OPTION: OptionSpec = {
  name: 'origin',
  type: 'flag',
  description: "mark each frame's origin point with a magenta cross",
};

/** `--ms N`: how long `play` runs. */
export const PLAY_MS_OPTION: OptionSpec = {
  name: 'ms',
  type: 'int',
  min: 0,
  description: 'play: how long to run, in ms (default: a looping animation twice, else all of it; Hallgeir: 1000)',
};

/** `--step-ms N`: the time between two records of `play`. */
export const PLAY_STEP_MS_OPTION: OptionSpec = {
  name: 'step-ms',
  type: 'int',
  min: 1,
  description:
    "play: the time between records, in ms (default: the animation's frame delay; Aseprite: the largest that lands on every frame's start; Hallgeir: 100)",
};

// ---- a level's layers: shown, hidden, faded ----

/** `--hide-layers 0,2`: layers left out of the picture, by their number (0 = the first the file lists). */
export const HIDE_LAYERS_OPTION = {
  name: 'hide-layers',
  type: 'string',
  value: 'N,...',
  description: 'leave out these layers (numbers from 0, in the order inspect lists them)',
  parse(text: string): number[] | undefined {
    const out: number[] = [];
    for (const part of text.split(',')) {
      const t = part.trim();
      if (!/^\d{1,6}$/.test(t)) return undefined;
      out.push(Number(t));
    }
    return out;
  },
} as const satisfies OptionSpec;

/** `--layer-opacity 1=0.5,3=0.25`: layers drawn faded (0 = invisible, 1 = as the file says). */
export const LAYER_OPACITY_OPTION = {
  name: 'layer-opacity',
  type: 'string',
  value: 'N=OPACITY,...',
  description: 'draw these layers at this opacity, 0 to 1 (numbers from 0, in the order inspect lists them)',
  parse(text: string): Map<number, number> | undefined {
    const out = new Map<number, number>();
    for (const part of text.split(',')) {
      const m = /^\s*(\d{1,6})\s*=\s*(\d+(?:\.\d*)?|\.\d+)\s*$/.exec(part);
      if (!m || Number(m[2]) > 1) return undefined;
      out.set(Number(m[1]), Number(m[2]));
    }
    return out;
  },
} as const satisfies OptionSpec;

/** The options of every format that draws levels of layers. */
export const LAYER_OPTIONS: readonly OptionSpec[] = [HIDE_LAYERS_OPTION, LAYER_OPACITY_OPTION];

/** Every shared selection, in the order --help lists them. */
export const SELECTION_OPTIONS: readonly OptionSpec[] = [
  ANIMATION_OPTION,
  DIRECTION_OPTION,
  FRAME_OPTION,
  HIDE_LAYERS_OPTION,
  LAYER_OPACITY_OPTION,
  ORIGIN_OPTION,
  PLAY_MS_OPTION,
  PLAY_STEP_MS_OPTION,
];
