/**
 * Playback by the engine's rules: frame 0 at time 0, the next change due at
 * frame_delay; each time the due time is reached the frame advances by one
 * and the due time moves by frame_delay. After the last frame: loop_on_frame,
 * or finished (nothing shown) when it is -1. frame_delay 0: frame 0 forever.
 */
import { FormatError, printableLines } from '../../binary/errors.js';
import { ANIMATION_OPTION, DIRECTION_OPTION, PLAY_MS_OPTION, PLAY_STEP_MS_OPTION } from '../selections.js';
import { budgetFrom } from '../../binary/limits.js';
import { intOption, selectIndex, selectNamed, stringOption } from '../options.js';
import type { CommandOptions, OptionSpec } from '../types.js';
import type { SolarusAnimation, SolarusDirection, SolarusSheet, SolarusSyntax } from './model.js';
import { animationAt, animationCount, animationsOf } from './compact.js';

export const PLAY_OPTIONS: readonly OptionSpec[] = [ANIMATION_OPTION, DIRECTION_OPTION, PLAY_MS_OPTION, PLAY_STEP_MS_OPTION];

/** The frame shown at time `t` (ms), or null once the animation is finished. */
export function frameAt(a: SolarusAnimation, d: SolarusDirection, t: number): number | null {
  if (a.frameDelay === 0) return 0;
  const n = d.frameCount;
  const k = Math.floor(t / a.frameDelay);
  if (k < n) return k;
  const loop = a.loopOnFrame;
  if (loop < 0 || loop >= n) return null;
  return loop + ((k - n) % (n - loop));
}

/** The animation and direction the options select (defaults: the first animation, direction 0). */
export function select(
  format: SolarusSyntax,
  sheet: SolarusSheet,
  options: CommandOptions,
): { a: SolarusAnimation; d: SolarusDirection; k: number } {
  const name = stringOption(options, ANIMATION_OPTION);
  const given = intOption(options, DIRECTION_OPTION);
  if (animationCount(sheet) === 0) throw new FormatError(format, 'the sheet has no animation');
  const a =
    name === undefined
      ? animationAt(sheet, 0)
      : selectNamed('animation', name, animationsOf(sheet), (x) => x.name, 'animation', 'the sheet');
  const k = given === undefined ? 0 : selectIndex('direction', given, a.directions.length, 'direction', `animation "${a.name}"`);
  if (k >= a.directions.length) throw new FormatError(format, `animation "${a.name}" has no directions`);
  return { a, d: a.directions[k]!, k };
}

export function play(
  format: SolarusSyntax,
  sheet: SolarusSheet,
  options: CommandOptions,
): { records: unknown[]; warnings: string[]; text: string } {
  const { a, d, k } = select(format, sheet, options);
  const warnings: string[] = [];
  const step = intOption(options, PLAY_STEP_MS_OPTION) ?? (a.frameDelay > 0 ? a.frameDelay : 100);
  const ms = intOption(options, PLAY_MS_OPTION) ?? (a.frameDelay > 0 ? 2 * d.frameCount * a.frameDelay : 1000);
  budgetFrom(options).spend('maxRecords', Math.ceil(ms / step), `--ms ${ms} at --step-ms ${step}`);
  if (a.loopOnFrame >= d.frameCount) {
    warnings.push(
      `loop_on_frame ${a.loopOnFrame} is not a frame of direction ${k} (the engine would crash): playback finishes after the last frame`,
    );
  }
  if (a.frameDelay === 0 && d.frameCount > 1) warnings.push('frame_delay is 0: the first frame shows forever');
  const records: { time: number; frame: number | null }[] = [];
  const lines = [
    `animation "${a.name}" direction ${k}: ${d.frameCount} frame${d.frameCount === 1 ? '' : 's'}, ${a.frameDelay} ms each, ${a.loopOnFrame < 0 ? 'plays once' : `loops on frame ${a.loopOnFrame}`}`,
  ];
  const width = String(Math.max(0, ms - 1)).length;
  let last: number | null | undefined;
  for (let t = 0; t < ms; t += step) {
    const frame = frameAt(a, d, t);
    records.push({ time: t, frame });
    const what = frame === null ? 'finished (nothing shown)' : `frame ${frame}`;
    lines.push(`${String(t).padStart(width)} ms  ${what}${last === undefined || frame === last ? '' : '  (changed)'}`);
    last = frame;
  }
  return { records, warnings, text: printableLines(lines) + '\n' };
}
