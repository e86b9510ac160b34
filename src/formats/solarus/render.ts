/** Drawing a frame, a direction (an animation) or the whole sheet (--sheet). */
import { budgetFrom } from '../../binary/limits.js';
import { FormatError } from '../../binary/errors.js';
import { LINE_HEIGHT, textWidth } from '../../render/font.js';
import type { RgbaImage } from '../../render/image.js';
import { solidImage, withOriginCross, type Overlay, type Picture, type PictureFrame, type PicturePart } from '../../render/pipeline.js';
import type { CommandOptions, OptionSpec, RenderView, ResourceLoader } from '../types.js';
import { frameRect, type SolarusDirection, type SolarusSheet, type SolarusSyntax } from './model.js';
import { PLAY_OPTIONS, select } from './play.js';
import { IMAGES_OPTION, TILESET_OPTION, sheetCache } from './resources.js';
import { flagOption, intOption, ORIGIN_OPTION, selectIndex } from '../options.js';
import { animationsOf } from './compact.js';

const FRAME_OPTION: OptionSpec = {
  name: 'frame',
  type: 'int',
  min: 0,
  description: 'Solarus: draw only this frame (default: the whole direction as an animation)',
};
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

/** `sprat render` for Solarus: a frame, a direction (an animation) or the labelled sheet, as a picture. */
export async function solarusPicture(
  format: SolarusSyntax,
  sheet: SolarusSheet,
  options: CommandOptions,
  resources: ResourceLoader,
): Promise<Picture> {
  const load = sheetCache(format, resources, options);
  if (flagOption(options, SHEET_OPTION)) return sheetPicture(format, sheet, load);
  const { a, d, k } = select(format, sheet, options);
  const canvas = { x: 0, y: 0, width: d.frameWidth, height: d.frameHeight };
  const what = `animation "${a.name}" direction ${k}`;
  const mark = (f: PictureFrame): PictureFrame => (flagOption(options, ORIGIN_OPTION) ? withOriginCross(f, d.originX, d.originY) : f);
  const fv = intOption(options, FRAME_OPTION);
  if (fv !== undefined) {
    const j = selectIndex('frame', fv, d.frameCount, 'frame', `animation "${a.name}" direction ${k}`);
    return { frames: [mark(framePart(await load(a.image), d, j))], canvas, what };
  }
  // nb_frames is a number in the text: 6 x 10^7 frames of 1x1 pass the pixel check but not this one.
  budgetFrom(options).spend('maxItems', d.frameCount, `the ${d.frameCount} frames of animation "${a.name}" direction ${k}`);
  const src = await load(a.image);
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
async function sheetPicture(format: SolarusSyntax, sheet: SolarusSheet, load: (image: string) => Promise<RgbaImage>): Promise<Picture> {
  const rows: { label: string; d: SolarusDirection; image: string }[] = [];
  for (const a of animationsOf(sheet)) {
    a.directions.forEach((d, k) => rows.push({ label: `${a.name} ${k}`, d, image: a.image }));
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
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    const top = tops[i]!;
    const rowH = Math.max(LINE_HEIGHT, r.d.frameHeight);
    overlays.push({ kind: 'text', x: PAD, y: top + Math.floor((rowH - 5) / 2), text: r.label, colour: LABEL });
    const src = await load(r.image);
    let x = PAD + labelW + PAD;
    for (let j = 0; j < r.d.frameCount; j++) {
      parts.push({ image: box, transform: [r.d.frameWidth, 0, 0, r.d.frameHeight, x, top] });
      const f = frameRect(r.d, j);
      parts.push({ image: src, sx: f.x, sy: f.y, sw: f.width, sh: f.height, transform: [1, 0, 0, 1, x, top] });
      x += r.d.frameWidth + GAP;
    }
  }
  return { frames: [{ parts, overlays }], canvas: { x: 0, y: 0, width, height }, background: BACKGROUND, what: 'the sheet' };
}
