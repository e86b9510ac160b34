import * as path from 'node:path';
import { load, references, render } from '../api.js';
import { recordingLoader, sameFile } from '../node/fs.js';
import { encodeRender, imageFormatFor, imageNotes } from '../render/output.js';
import type { OptionSpec } from '../formats/types.js';
import { upscaleImage } from '../render/image.js';
import { OptionError, printable } from '../binary/errors.js';
import { intOption, parseArgs, UsageError, stringOption } from './args.js';
import { FORMAT_OPTION, allOptions, rejectForeignOptions, resolveUserPaths, checkFormatNames, type Command } from './command.js';
import { readInput, reportError, resolvePath, resourcesFor, type Io } from './io.js';
import { FORCE_OPTION, writeOutputs } from './write.js';
import { BATCH_OPTIONS, IMAGE_OPTION, isBatchForm, renderBatch } from './batch.js';

/** What --scale may enlarge to, over all frames (1 GiB of RGBA). */
const MAX_SCALED_PIXELS = 256 * 2 ** 20;

const OUTPUT_OPTION: OptionSpec = { name: 'output', type: 'string', value: 'OUT', description: 'the image to write (-o)' };
const STRICT_OPTION: OptionSpec = {
  name: 'strict',
  type: 'flag',
  description: 'a missing image, template or tileset is an error (default: the rest is drawn, a warning per missing file)',
};
const SCALE_OPTION: OptionSpec = {
  name: 'scale',
  type: 'int',
  min: 1,
  max: 64,
  description: 'enlarge the picture this many times, nearest neighbour (default 1)',
};
const DITHER_OPTION: OptionSpec = {
  name: 'dither',
  type: 'flag',
  description: 'GIF: dither partial alpha (ordered, 4x4) instead of making it opaque or transparent at 50 %',
};

export const renderCommand: Command = {
  name: 'render',
  summary: 'Draw a frame, an animation (GIF or APNG), a sprite or a level. The selection options depend on the format.',
  examples: [
    'sprat render hero.isprite -o hero.gif --animation walk',
    'sprat render tunic1.dat -o walk.png --animation walking --direction 2 --frame 0',
    'sprat render level.tmx -o level.png --scale 2',
    'sprat render sprites/ -o out/ --image gif --jobs 2',
  ],
  usage:
    'sprat render FILE -o OUT.png|.gif|.apng [selection options]\n       sprat render DIR|GLOB|FILE... -o OUTDIR [--image png|gif|apng] [--jobs N] [--changed] [--dry-run]',
  options: [OUTPUT_OPTION, SCALE_OPTION, DITHER_OPTION, STRICT_OPTION, FORCE_OPTION, FORMAT_OPTION, IMAGE_OPTION, ...BATCH_OPTIONS],
  formatOptionKeys: ['renderOptions', 'resourceOptions', 'readOptions'],
  async run(argv: string[], io: Io) {
    const { positionals, options } = parseArgs(argv, allOptions(this), { o: 'output' });
    checkFormatNames(options, ['format'], this);
    const out = stringOption(options, OUTPUT_OPTION);
    const dither = options.dither === true;
    if (positionals.length >= 1 && (await isBatchForm(io, positionals, options))) {
      if (!out) throw new UsageError('render needs -o OUTDIR for a folder, a glob or several files');
      if (dither && options.image !== 'gif') throw new UsageError('--dither applies to GIF output: add --image gif');
      return renderBatch(io, positionals, out, options);
    }
    if (options.image !== undefined)
      throw new UsageError('--image applies to a folder, a glob or several files; name the output OUT.png, OUT.gif or OUT.apng');
    if (positionals.length !== 1) throw new UsageError('render takes exactly one FILE');
    if (!out) throw new UsageError('render needs -o OUT.png, OUT.gif or OUT.apng');
    const imageFormat = imageFormatFor(out);
    if (!imageFormat) throw new UsageError(`cannot write "${out}": the output must end in .png, .gif or .apng`);
    if (dither && imageFormat !== 'gif')
      throw new UsageError(`--dither applies to GIF output; ${out} is ${imageFormat.toUpperCase()}, which keeps alpha`);
    const file = positionals[0]!;
    const factor = intOption(options, SCALE_OPTION) ?? 1;
    const inPath = resolvePath(io, file);
    if (await sameFile(inPath, resolvePath(io, out)))
      throw new UsageError(`${out}: the output is the input file; render never overwrites its input`);
    try {
      const loaded = load(await readInput(io, file, options), file, stringOption(options, FORMAT_OPTION), options);
      rejectForeignOptions(this, [loaded.handler], options);
      resolveUserPaths(this, [loaded.handler], options, io.cwd);
      for (const w of loaded.warnings) io.err(`${printable(`${file}: warning: ${w.message}`)}\n`);
      const resources = recordingLoader(resourcesFor(io, inPath, options), path.dirname(inPath));
      const result = await render(loaded, options, resources);
      for (const w of result.warnings ?? []) io.err(`${printable(`${file}: warning: ${w}`)}\n`);
      for (const n of result.notes ?? []) io.err(`${printable(`${file}: note: ${n}`)}\n`);
      // Every file the document names, drawn or not: the output replaces none.
      await references(loaded, resources, options);
      if (factor > 1) {
        const pixels = result.frames.reduce((n, f) => n + f.width * f.height, 0) * factor * factor;
        if (pixels > MAX_SCALED_PIXELS) {
          const f = result.frames[0]!;
          throw new OptionError(
            `--scale ${factor} would make ${result.frames.length > 1 ? `${result.frames.length} frames of ` : ''}${f.width * factor}x${f.height * factor} pixels, more than the limit of ${MAX_SCALED_PIXELS / 2 ** 20} megapixels`,
          );
        }
        result.frames = result.frames.map((f) => upscaleImage(f, factor));
      }
      for (const n of imageNotes(result, imageFormat, { dither })) io.err(`${file}: note: ${n}\n`);
      const bytes = encodeRender(result, imageFormat, { dither });
      return await writeOutputs(io, 'render', [{ path: resolvePath(io, out), bytes, label: out }], {
        protect: [inPath, ...resources.used],
        force: options.force === true,
      });
    } catch (e) {
      if (e instanceof UsageError) throw e;
      return reportError(io, e, file);
    }
  },
};
