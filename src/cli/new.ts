import { printable } from '../binary/errors.js';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { formatByName, newSprite, UnknownFormatError } from '../api.js';
import { formatsForExtension } from '../detect.js';
import { budgetFrom, limitsFrom } from '../binary/limits.js';
import { fsResourceLoader } from '../node/fs.js';
import { intOption, sizeOption } from '../formats/options.js';
import { loadImage } from '../formats/resources.js';
import type { FormatHandler, OptionSpec } from '../formats/types.js';
import { cutCells, gridCells, gutterCells, parseAnimations } from '../model/frames.js';
import type { RgbaImage } from '../render/image.js';
import { parseArgs, stringOption, UsageError } from './args.js';
import { allOptions, checkFormatNames, rejectForeignOptions, type Command } from './command.js';
import { outputTargets } from './convert.js';
import { FileError, reportError, resolvePath, type Io } from './io.js';
import { FORCE_OPTION, OVERWRITE_OPTION, writeOutputs } from './write.js';

const TO_OPTION: OptionSpec = {
  name: 'to',
  type: 'string',
  value: 'F',
  description: "the sprite format to make (default: from OUT's extension)",
};
const CELL_OPTION: OptionSpec = {
  name: 'cell',
  type: 'size',
  min: 1,
  max: 65536,
  description: 'a sheet: cut it into cells of WxH, row by row (default: cells found from its transparent gutters)',
};
const MARGIN_OPTION: OptionSpec = {
  name: 'margin',
  type: 'int',
  min: 0,
  max: 65536,
  description: 'with --cell: pixels around the grid (default 0)',
};
const SPACING_OPTION: OptionSpec = {
  name: 'spacing',
  type: 'int',
  min: 0,
  max: 65536,
  description: 'with --cell: pixels between cells (default 0)',
};
const ANIMATION_OPTION: OptionSpec = {
  name: 'animation',
  aliases: ['anim'],
  type: 'string',
  value: 'SPEC',
  description:
    'the animations, NAME[/DIR]:ITEMS[,loop|,loop=N|,once] separated by ";", ITEMS = FRAME[-FRAME][@MS] joined by "+" (e.g. "walk:0-7@100;idle:8@500,once"; NAME/rows: one direction per sheet row); default: one looping animation "default" of every frame at 100 ms',
  parse: (text) => parseAnimations(text),
};
const ORIGIN_OPTION: OptionSpec = {
  name: 'origin',
  type: 'string',
  value: 'X,Y',
  description: "the sprite's origin in each frame (cell), from its upper-left corner (default 0,0)",
  parse: (text) => parseOrigin(text),
};
const NO_TRIM_OPTION: OptionSpec = {
  name: 'no-trim',
  type: 'flag',
  description: 'keep every frame at its full size (default: trimmed to its visible pixels; always so for hallgeir-sprite)',
};

function parseOrigin(text: string): { x: number; y: number } | undefined {
  const m = /^\s*(-?\d{1,6})\s*,\s*(-?\d{1,6})\s*$/.exec(text);
  return m ? { x: Number(m[1]), y: Number(m[2]) } : undefined;
}

const IMAGE_EXTENSIONS = ['.png', '.bmp'];

/** The frames of a folder: its PNG and BMP files (regular files, not links), in natural name order. */
async function folderFrames(dir: string, shown: string, limits: ReturnType<typeof limitsFrom>, cwd: string): Promise<RgbaImage[]> {
  const entries = await fsp.readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isFile() && IMAGE_EXTENSIONS.includes(path.extname(e.name).toLowerCase()))
    .map((e) => e.name)
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }) || (a < b ? -1 : a > b ? 1 : 0));
  if (names.length === 0) throw new FileError(shown, 'the folder holds no PNG or BMP frame');
  if (names.length > limits.maxItems) {
    throw new FileError(
      shown,
      `the folder holds ${names.length} frames, more than the limit of ${limits.maxItems} (raise it with --max-items)`,
    );
  }
  const loader = fsResourceLoader(dir, { cwd, maxFileBytes: limits.maxFileBytes });
  const frames: RgbaImage[] = [];
  let pixels = 0;
  for (const name of names) {
    const { image } = await loadImage(loader, { format: 'new', what: 'frame', name }, limits);
    pixels += image.width * image.height;
    if (pixels > limits.maxPixels) {
      throw new FileError(
        shown,
        `the frames hold ${pixels} pixels, more than the limit of ${limits.maxPixels} (raise it with --max-pixels)`,
      );
    }
    frames.push(image);
  }
  return frames;
}

export const newCommand: Command = {
  name: 'new',
  summary:
    "Make a sprite from frames: INPUT is a folder of PNG (or BMP) frames, taken in name order, or a sheet cut into cells (--cell, --margin, --spacing, or found from its transparent gutters). --animation describes the animations. OUT is written in any sprite format through the common model, with the packed frames (each stored once) as OUT's sheet STEM.png where the format has one.",
  usage:
    'sprat new INPUT OUT [--to F] [--animation SPEC] [--origin X,Y] [--cell WxH] [--margin N] [--spacing N] [--no-trim] [--overwrite] [--force]',
  options: [
    TO_OPTION,
    ANIMATION_OPTION,
    ORIGIN_OPTION,
    CELL_OPTION,
    MARGIN_OPTION,
    SPACING_OPTION,
    NO_TRIM_OPTION,
    OVERWRITE_OPTION,
    FORCE_OPTION,
  ],
  formatOptionKeys: ['writeOptions'],
  async run(argv: string[], io: Io) {
    const { positionals, options } = parseArgs(argv, allOptions(this));
    checkFormatNames(options, ['to'], this);
    if (positionals.length !== 2) throw new UsageError('new takes INPUT (a folder of frames or a sheet) and OUT');
    const [inFile, outFile] = positionals as [string, string];
    const inPath = resolvePath(io, inFile);
    const outPath = resolvePath(io, outFile);
    const to = stringOption(options, TO_OPTION);
    let target: FormatHandler;
    if (to) target = formatByName(to);
    else {
      const candidates = formatsForExtension(outFile).filter((f) => f.fromModel);
      if (candidates.length !== 1) {
        const ext = path.extname(outFile);
        throw new UsageError(
          candidates.length === 0
            ? `cannot tell which format to make from the extension "${ext}"; use --to`
            : `the extension "${ext}" is shared by ${candidates.map((c) => c.name).join(', ')}; use --to`,
        );
      }
      target = candidates[0]!;
    }
    rejectForeignOptions(this, [target], options);
    const cell = sizeOption(options, CELL_OPTION);
    if (!cell && (options.margin !== undefined || options.spacing !== undefined))
      throw new UsageError('--margin and --spacing go with --cell');
    try {
      const limits = limitsFrom(options);
      let st;
      try {
        st = await fsp.stat(inPath);
      } catch (e) {
        throw new FileError(inFile, (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or folder' : (e as Error).message);
      }
      let frames: RgbaImage[];
      let rows: number[] | undefined;
      const protect: string[] = [];
      if (st.isDirectory()) {
        if (cell) throw new UsageError('--cell cuts a sheet; INPUT is a folder of frames');
        frames = await folderFrames(inPath, inFile, limits, io.cwd);
        protect.push(inPath);
      } else {
        const loader = fsResourceLoader(path.dirname(inPath), { cwd: io.cwd, maxFileBytes: limits.maxFileBytes });
        const { image } = await loadImage(loader, { format: 'new', what: 'sheet', name: path.basename(inPath) }, limits);
        // Cells are counted (--max-items) before they are made, and cut within --max-pixels.
        const budget = budgetFrom(options);
        const cells = cell
          ? gridCells(
              image.width,
              image.height,
              cell,
              intOption(options, MARGIN_OPTION) ?? 0,
              intOption(options, SPACING_OPTION) ?? 0,
              budget,
            )
          : gutterCells(image, budget);
        frames = cutCells(image, cells, budget);
        rows = cells.map((c) => c.row);
        protect.push(inPath);
      }
      const { files, notes } = await newSprite(
        {
          frames,
          rows,
          animations: stringOption(options, ANIMATION_OPTION),
          origin: parseOrigin(stringOption(options, ORIGIN_OPTION) ?? '0,0'),
          trim: options['no-trim'] !== true,
        },
        target,
        path.basename(outPath),
        options,
      );
      for (const n of notes) io.err(`${printable(`${inFile}: note: ${n}`)}\n`);
      const targets = outputTargets(outPath, files, outFile);
      // A folder of frames: none of its files may be replaced (an output inside it is fine).
      if (st.isDirectory()) {
        for (const e of await fsp.readdir(inPath)) protect.push(path.join(inPath, e));
      }
      const code = await writeOutputs(io, 'new', targets, {
        protect,
        overwrite: options.overwrite === true,
        force: options.force === true,
      });
      if (code === 0) for (const t of targets) io.out(`${printable(`wrote ${t.label}`)}\n`);
      return code;
    } catch (e) {
      if (e instanceof UsageError) throw e;
      if (e instanceof UnknownFormatError) {
        io.err(`${printable(`sprat: error: ${e.message}`)}\n`);
        return 1;
      }
      return reportError(io, e, inFile);
    }
  },
};
