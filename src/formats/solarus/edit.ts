/**
 * Changing a sheet's values in place (FormatHandler.edits, src/edit.ts): an
 * animation's frame_delay and loop frame (`loop_on_frame` in the line
 * syntax, `frame_to_loop_on` in the Lua one) and a direction's origin. The
 * changed sheet keeps the style the file was read in (style.ts), so writing
 * it changes nothing but the values set.
 */
import { FormatError } from '../../binary/errors.js';
import type { CommandOptions, EditableValue } from '../types.js';
import { editable, checkEditValues, intPart } from '../edits.js';
import { animationAt, animationCount, animationStore, animationsOf } from './compact.js';
import { FIELD_NAMES, MAX_INT, type SolarusAnimation, type SolarusSheet, type SolarusSyntax } from './model.js';
import { rememberStyle } from './style.js';

/** One change to a sheet; `animation` is the animation's name (names are unique in a sheet). */
export type SolarusEdit =
  | { field: 'frameDelay'; animation: string; value: number }
  | { field: 'loopOnFrame'; animation: string; value: number }
  | { field: 'origin'; animation: string; direction: number; x: number; y: number };

/** The index of the animation named `name`, or -1 (a compact sheet stays compact). */
function animationIndex(sheet: SolarusSheet, name: string): number {
  const store = animationStore(sheet);
  const n = animationCount(sheet);
  for (let i = 0; i < n; i++) if ((store ? store.name(i) : sheet.animations[i]!.name) === name) return i;
  return -1;
}

/** The largest loop frame an animation takes: one frame short of its shortest direction. */
function lastLoopFrame(a: SolarusAnimation): number {
  return a.directions.reduce((m, d) => Math.min(m, d.frameCount), Infinity) - 1;
}

/** A new sheet with animation `i` replaced, in the style the sheet was read in. */
function withAnimation(sheet: SolarusSheet, i: number, a: SolarusAnimation): SolarusSheet {
  const animations = animationsOf(sheet).slice();
  animations[i] = a;
  const out: SolarusSheet = { animations };
  const style = sheet.style;
  if (style) rememberStyle(out, style);
  return out;
}

/**
 * The sheet with one value changed (`sheet` is left as it is). Refuses,
 * with a one-line FormatError in `format`'s words, an animation or
 * direction the sheet does not have, a negative or fractional frame_delay,
 * a loop frame that is not -1 or a frame of every direction, and an origin
 * the engine's ints cannot hold.
 */
export function editSheet(format: SolarusSyntax, sheet: SolarusSheet, edit: SolarusEdit): SolarusSheet {
  const names = FIELD_NAMES[format];
  const i = animationIndex(sheet, edit.animation);
  if (i < 0) throw new FormatError(format, `no animation "${edit.animation}" in the sheet`);
  const a = animationAt(sheet, i);
  const at = `animation "${a.name}"`;
  if (edit.field === 'frameDelay') {
    checkEditValues(format, `${at} ${names.frameDelay}`, [intPart('ms', a.frameDelay, 0, MAX_INT)], [edit.value]);
    return withAnimation(sheet, i, { ...a, frameDelay: edit.value });
  }
  if (edit.field === 'loopOnFrame') {
    checkEditValues(format, `${at} ${names.loopOnFrame}`, [intPart('frame', a.loopOnFrame, -1, lastLoopFrame(a))], [edit.value]);
    return withAnimation(sheet, i, { ...a, loopOnFrame: edit.value });
  }
  const k = edit.direction;
  const d = Number.isInteger(k) ? a.directions[k] : undefined;
  if (!d)
    throw new FormatError(format, `${at} has no direction ${k} (${a.directions.length} direction${a.directions.length === 1 ? '' : 's'})`);
  checkEditValues(
    format,
    `${at} direction ${k} origin`,
    [intPart('x', d.originX, -MAX_INT, MAX_INT), intPart('y', d.originY, -MAX_INT, MAX_INT)],
    [edit.x, edit.y],
  );
  const directions = a.directions.slice();
  directions[k] = { ...d, originX: edit.x, originY: edit.y };
  return withAnimation(sheet, i, { ...a, directions });
}

/**
 * What can be changed in the picture `view` shows (`animation`, `direction`
 * as `renderViews` gives them): its animation's frame_delay and loop frame,
 * and its direction's origin. None for the whole sheet (no `animation`).
 */
export function sheetEdits(format: SolarusSyntax, sheet: SolarusSheet, view: CommandOptions): EditableValue<SolarusSheet>[] {
  const name = view.animation;
  if (typeof name !== 'string') return [];
  const i = animationIndex(sheet, name);
  if (i < 0) return [];
  const a = animationAt(sheet, i);
  const k = Number(view.direction ?? 0);
  const d = Number.isInteger(k) ? a.directions[k] : undefined;
  const names = FIELD_NAMES[format];
  const at = `animation "${a.name}"`;
  const out: EditableValue<SolarusSheet>[] = [
    editable(format, `animation ${i} frameDelay`, `${at} ${names.frameDelay}`, [intPart('ms', a.frameDelay, 0, MAX_INT)], ([v]) =>
      editSheet(format, sheet, { field: 'frameDelay', animation: a.name, value: v! }),
    ),
    editable(
      format,
      `animation ${i} loopOnFrame`,
      `${at} ${names.loopOnFrame}`,
      [intPart('frame', a.loopOnFrame, -1, lastLoopFrame(a))],
      ([v]) => editSheet(format, sheet, { field: 'loopOnFrame', animation: a.name, value: v! }),
    ),
  ];
  if (d)
    out.push(
      editable(
        format,
        `animation ${i} direction ${k} origin`,
        `${at} direction ${k} origin`,
        [intPart('x', d.originX, -MAX_INT, MAX_INT), intPart('y', d.originY, -MAX_INT, MAX_INT)],
        ([x, y]) => editSheet(format, sheet, { field: 'origin', animation: a.name, direction: k, x: x!, y: y! }),
      ),
    );
  return out;
}
