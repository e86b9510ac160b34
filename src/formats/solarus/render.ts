/** Drawing a frame, a direction (an animation) or the whole sheet (--sheet). */
import { FormatError } from '../../binary/errors.js';
import { drawImage } from '../../render/compose.js';
import { drawText, LINE_HEIGHT, textWidth } from '../../render/font.js';
import { createImage, fillImage, type RgbaImage } from '../../render/image.js';
import type { CommandOptions, OptionSpec, RenderResult, ResourceLoader } from '../types.js';
import { frameRect, type SolarusDirection, type SolarusSheet, type SolarusSyntax } from './model.js';
import { PLAY_OPTIONS, select } from './play.js';
import { IMAGES_OPTION, TILESET_OPTION, sheetCache } from './resources.js';
import { flagOption, intOption, selectIndex } from '../options.js';

const FRAME_OPTION: OptionSpec = { name: 'frame', type: 'int', min: 0, description: 'Solarus: draw only this frame (default: the whole direction as an animation)' };
const SHEET_OPTION: OptionSpec = { name: 'sheet', type: 'flag', description: 'Solarus: draw every animation and direction in a labelled grid' };

export const RENDER_OPTIONS: readonly OptionSpec[] = [
  PLAY_OPTIONS[0]!,
  PLAY_OPTIONS[1]!,
  FRAME_OPTION,
  IMAGES_OPTION,
  TILESET_OPTION,
  SHEET_OPTION,
];

/** Most pixels a render may allocate. */
const MAX_PIXELS = 64 * 1024 * 1024;

function frameImage(src: RgbaImage, d: SolarusDirection, j: number): RgbaImage {
  const r = frameRect(d, j);
  const out = createImage(r.width, r.height);
  drawImage(out, src, { sx: r.x, sy: r.y, sw: r.width, sh: r.height });
  return out;
}

function checkSize(format: string, w: number, h: number, frames = 1): void {
  if (w * h * frames > MAX_PIXELS) throw new FormatError(format, `the render would be ${w}x${h}${frames > 1 ? ` x ${frames} frames` : ''} pixels, too large`);
}

export async function render(format: SolarusSyntax, sheet: SolarusSheet, options: CommandOptions, resources: ResourceLoader): Promise<RenderResult> {
  const load = sheetCache(format, resources, options);
  if (flagOption(options, SHEET_OPTION)) return { frames: [await renderSheet(format, sheet, load)] };
  const { a, d, k } = select(format, sheet, options);
  const fv = intOption(options, FRAME_OPTION);
  if (fv !== undefined) {
    const j = selectIndex('frame', fv, d.frameCount, 'frame', `animation "${a.name}" direction ${k}`);
    checkSize(format, d.frameWidth, d.frameHeight);
    return { frames: [frameImage(await load(a.image), d, j)] };
  }
  const src = await load(a.image);
  checkSize(format, d.frameWidth, d.frameHeight, d.frameCount);
  if (a.frameDelay === 0) return { frames: [frameImage(src, d, 0)] };
  const frames: RgbaImage[] = [];
  for (let j = 0; j < d.frameCount; j++) frames.push(frameImage(src, d, j));
  return { frames, delaysMs: frames.map(() => a.frameDelay), loops: a.loopOnFrame >= 0 ? 0 : 1 };
}

const PAD = 4;
const GAP = 2;
const BACKGROUND = [40, 40, 48, 255] as const;
const LABEL = [230, 230, 230, 255] as [number, number, number, number];
const FRAME_BOX = [70, 70, 84, 255] as const;

/** Every animation and direction: one row each, a label then the frames left to right. */
async function renderSheet(format: SolarusSyntax, sheet: SolarusSheet, load: (image: string) => Promise<RgbaImage>): Promise<RgbaImage> {
  const rows: { label: string; d: SolarusDirection; image: string }[] = [];
  for (const a of sheet.animations) {
    a.directions.forEach((d, k) => rows.push({ label: `${a.name} ${k}`, d, image: a.image }));
  }
  if (rows.length === 0) throw new FormatError(format, 'the sheet has no animation to draw');
  const labelW = Math.max(...rows.map((r) => textWidth(r.label)));
  let width = 0;
  let height = PAD;
  const tops: number[] = [];
  for (const r of rows) {
    const w = PAD + labelW + PAD + r.d.frameCount * (r.d.frameWidth + GAP) - GAP + PAD;
    if (w > width) width = w;
    tops.push(height);
    height += Math.max(LINE_HEIGHT, r.d.frameHeight) + PAD;
    checkSize(format, width, height);
  }
  const out = createImage(width, height);
  fillImage(out, BACKGROUND[0], BACKGROUND[1], BACKGROUND[2], BACKGROUND[3]);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    const top = tops[i]!;
    const rowH = Math.max(LINE_HEIGHT, r.d.frameHeight);
    drawText(out, PAD, top + Math.floor((rowH - 5) / 2), r.label, LABEL);
    const src = await load(r.image);
    let x = PAD + labelW + PAD;
    for (let j = 0; j < r.d.frameCount; j++) {
      const box = createImage(r.d.frameWidth, r.d.frameHeight);
      fillImage(box, FRAME_BOX[0], FRAME_BOX[1], FRAME_BOX[2], FRAME_BOX[3]);
      drawImage(out, box, { transform: [1, 0, 0, 1, x, top] });
      const f = frameRect(r.d, j);
      drawImage(out, src, { sx: f.x, sy: f.y, sw: f.width, sh: f.height, transform: [1, 0, 0, 1, x, top] });
      x += r.d.frameWidth + GAP;
    }
  }
  return out;
}
