/** Drawing a frame, a direction (an animation) or the whole sheet (--sheet). */
import { budgetFrom } from '../../binary/limits.js';
import { FRAME_OPTION, ORIGIN_OPTION } from '../selections.js';
import { FormatError } from '../../binary/errors.js';
import { LINE_HEIGHT, textWidth } from '../../render/font.js';
import type { RgbaImage } from '../../render/image.js';
import { solidImage, withOriginCross, type Overlay, type Picture, type PictureFrame, type PicturePart } from '../../render/pipeline.js';
import type { CommandOptions, OptionSpec, RenderView, ResourceLoader } from '../types.js';
import { frameRect, type SolarusAnimation, type SolarusDirection, type SolarusSheet, type SolarusSyntax } from './model.js';
import { MissingFiles } from '../resources.js';
import { PLAY_OPTIONS, select } from './play.js';
import { IMAGES_OPTION, TILESET_OPTION, sheetCache } from './resources.js';
import { flagOption, intOption, selectIndex } from '../options.js';
import { animationsOf } from './compact.js';

const SHEET_OPTION: OptionSpec = {
  name: 'sheet',
  type: 'flag',
  description: 'Solarus: draw every animation and direction in a labelled grid',
};

/** What `render` and `convert` take: the files the sheets come from. */
export const RESOURCE_OPTIONS: readonly OptionSpec[] = [IMAGES_OPTION, TILESET_OPTION];

export const RENDER_OPTIONS: readonly OptionSpec[] = [PLAY_OPTIONS[0]!, PLAY_OPTIONS[1]!, FRAME_OPTION, SHEET_OPTION, ORIGIN_OPTION];

/** Frame j of a direction: its rectangle of the sheet, on a canvas of the frame's size. */
function framePart(src: RgbaImage, d: SolarusDirection, j: number, delayMs?: number): PictureFrame {
  const r = frameRect(d, j);
  return { parts: [{ image: src, sx: r.x, sy: r.y, sw: r.width, sh: r.height }], delayMs };
}

/**
 * `sprat render` for Solarus: a frame, a direction (an animation) or the labelled sheet, as a picture.
 * An animation whose image cannot be had (missing, not an image, `tileset` without --tileset) is left
 * out of the sheet, its file a warning (MissingFiles); the animation selected is drawn or is the
 * error. With no selection option, the first animation that can be drawn is (a note says so).
 */
export async function solarusPicture(
  format: SolarusSyntax,
  sheet: SolarusSheet,
  options: CommandOptions,
  resources: ResourceLoader,
): Promise<Picture> {
  const load = sheetCache(format, resources, options);
  const missing = new MissingFiles(options);
  if (flagOption(options, SHEET_OPTION)) return missing.mark(await sheetPicture(format, sheet, load, missing));
  const selected = select(format, sheet, options);
  const { a, d, k } = selected;
  const fv = intOption(options, FRAME_OPTION);
  if (fv !== undefined) selectIndex('frame', fv, d.frameCount, 'frame', `animation "${a.name}" direction ${k}`);
  // nb_frames is a number in the text: 6 x 10^7 frames of 1x1 pass the pixel check but not this one.
  if (fv === undefined)
    budgetFrom(options).spend('maxItems', d.frameCount, `the ${d.frameCount} frames of animation "${a.name}" direction ${k}`);
  const chosen = await drawable(format, sheet, selected, options, load, missing);
  if (chosen.a.name !== a.name && fv === undefined)
    budgetFrom(options).spend(
      'maxItems',
      chosen.d.frameCount,
      `the ${chosen.d.frameCount} frames of animation "${chosen.a.name}" direction 0`,
    );
  const picture = directionPicture(chosen.a, chosen.d, chosen.k, fv, chosen.src, options);
  if (chosen.a.name !== a.name)
    picture.notes = [`animation "${a.name}" cannot be drawn without its image: drew animation "${chosen.a.name}", the first that can be`];
  return missing.mark(picture);
}

/**
 * The animation to draw and its image: the one selected; when no option selects one (the default, the
 * first) and its image cannot be had, the first animation whose image can, each image tried once. None:
 * the selected animation's error.
 */
async function drawable(
  format: SolarusSyntax,
  sheet: SolarusSheet,
  selected: { a: SolarusAnimation; d: SolarusDirection; k: number },
  options: CommandOptions,
  load: (image: string) => Promise<RgbaImage>,
  missing: MissingFiles,
): Promise<{ a: SolarusAnimation; d: SolarusDirection; k: number; src: RgbaImage }> {
  const chosen = ['animation', 'direction', 'frame'].some((o) => options[o] !== undefined);
  if (chosen || missing.strict) return { ...selected, src: await load(selected.a.image) };
  const tried = new Set<string>();
  for (const a of animationsOf(sheet)) {
    if (a.directions.length === 0 || tried.has(a.image)) continue;
    const src = await missing.attempt(() => load(a.image), `animation "${a.name}"`);
    if (src) return { a, d: a.directions[0]!, k: 0, src };
    tried.add(a.image);
  }
  throw missing.firstError ?? new FormatError(format, 'the sheet has no animation to draw');
}

/** Direction k of animation a: frame `fv`, or every frame as an animation at the frame delay. */
function directionPicture(
  a: SolarusAnimation,
  d: SolarusDirection,
  k: number,
  fv: number | undefined,
  src: RgbaImage,
  options: CommandOptions,
): Picture {
  const canvas = { x: 0, y: 0, width: d.frameWidth, height: d.frameHeight };
  const what = `animation "${a.name}" direction ${k}`;
  const mark = (f: PictureFrame): PictureFrame => (flagOption(options, ORIGIN_OPTION) ? withOriginCross(f, d.originX, d.originY) : f);
  if (fv !== undefined) return { frames: [mark(framePart(src, d, fv))], canvas, what };
  if (a.frameDelay === 0) return { frames: [mark(framePart(src, d, 0))], canvas, what };
  const frames: PictureFrame[] = [];
  for (let j = 0; j < d.frameCount; j++) frames.push(mark(framePart(src, d, j, a.frameDelay)));
  return { frames, canvas, loops: a.loopOnFrame >= 0 ? 0 : 1, what };
}

/** What the viewer offers: every direction of every animation. */
/** Solarus's names for the directions of a 4-direction animation (0 = right, counter-clockwise). */
const DIRECTION_NAMES = ['right', 'up', 'left', 'down'];

export function solarusViews(sheet: SolarusSheet): RenderView[] {
  return animationsOf(sheet).flatMap((a) =>
    a.directions.map((_, k) => ({
      label: `${a.name} (${a.directions.length === 4 ? DIRECTION_NAMES[k] : k})`,
      options: { animation: a.name, direction: String(k) },
    })),
  );
}

const PAD = 4;
const GAP = 2;
const BACKGROUND = [40, 40, 48, 255] as const;
const LABEL = [230, 230, 230, 255] as const;
const FRAME_BOX = [70, 70, 84, 255] as const;

/** Every animation and direction: one row each, a label then the frames left to right. */
async function sheetPicture(
  format: SolarusSyntax,
  sheet: SolarusSheet,
  load: (image: string) => Promise<RgbaImage>,
  missing: MissingFiles,
): Promise<Picture> {
  const rows: { label: string; name: string; d: SolarusDirection; image: string }[] = [];
  for (const a of animationsOf(sheet)) {
    a.directions.forEach((d, k) => rows.push({ label: `${a.name} ${k}`, name: a.name, d, image: a.image }));
  }
  if (rows.length === 0) throw new FormatError(format, 'the sheet has no animation to draw');
  const labelW = rows.reduce((m, r) => Math.max(m, textWidth(r.label)), 0);
  let width = 0;
  let height = PAD;
  const tops: number[] = [];
  for (const r of rows) {
    const w = PAD + labelW + PAD + r.d.frameCount * (r.d.frameWidth + GAP) - GAP + PAD;
    if (w > width) width = w;
    tops.push(height);
    height += Math.max(LINE_HEIGHT, r.d.frameHeight) + PAD;
  }
  const box = solidImage(...FRAME_BOX);
  const parts: PicturePart[] = [];
  const overlays: Overlay[] = [];
  let drawn = 0;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    const top = tops[i]!;
    const rowH = Math.max(LINE_HEIGHT, r.d.frameHeight);
    overlays.push({ kind: 'text', x: PAD, y: top + Math.floor((rowH - 5) / 2), text: r.label, colour: LABEL });
    // A row whose image cannot be had keeps its label and empty frame boxes.
    const src = await missing.attempt(() => load(r.image), `animation "${r.name}"`);
    if (src) drawn++;
    let x = PAD + labelW + PAD;
    for (let j = 0; j < r.d.frameCount; j++) {
      parts.push({ image: box, transform: [r.d.frameWidth, 0, 0, r.d.frameHeight, x, top] });
      const f = frameRect(r.d, j);
      if (src) parts.push({ image: src, sx: f.x, sy: f.y, sw: f.width, sh: f.height, transform: [1, 0, 0, 1, x, top] });
      x += r.d.frameWidth + GAP;
    }
  }
  // Nothing of the sheet can be drawn: the first missing file is the error.
  if (drawn === 0 && missing.firstError) throw missing.firstError;
  return { frames: [{ parts, overlays }], canvas: { x: 0, y: 0, width, height }, background: BACKGROUND, what: 'the sheet' };
}
