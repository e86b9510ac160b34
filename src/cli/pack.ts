import { printable } from '../binary/errors.js';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { load } from '../api.js';
import { budgetFrom, limitsFrom } from '../binary/limits.js';
import { choiceOption, intOption, sizeOption } from '../formats/options.js';
import { loadImage } from '../formats/resources.js';
import type { CommandOptions, OptionSpec, OutputFile } from '../formats/types.js';
import { spriteAtlasFrames } from '../interop/sheet.js';
import type { AtlasExporter } from '../model/atlas.js';
import { sameBytes } from '../model/frames.js';
import { type AtlasSourceAnimation, type AtlasSourceFrame, packAtlas } from '../model/packatlas.js';
import { fsResourceLoader, readFileBytes, recordingLoader } from '../node/fs.js';
import { type FoundFile, findFiles, PlaceError } from '../node/files.js';
import { checkFormatOf } from '../check.js';
import { encodePng } from '../render/png.js';
import { ATLAS_EXPORTERS, getAtlasExporter } from '../registry.js';
import { parseArgs, stringOption, UsageError } from './args.js';
import { allOptions, type Command } from './command.js';
import { outputTargets } from './convert.js';
import { FileError, InFileError, reportError, resolvePath, resourcesFor, type Io } from './io.js';
import { FORCE_OPTION, OVERWRITE_OPTION, writeOutputs } from './write.js';

/** The `--to` names `pack` takes (`template` with --template FILE). */
const PACK_FORMATS = ATLAS_EXPORTERS.map((e) => e.name);

const OUTPUT_OPTION: OptionSpec = { name: 'output', type: 'string', value: 'OUT', description: 'the atlas data file to write (-o)' };
const TO_OPTION: OptionSpec & { choices: readonly string[] } = {
  name: 'to',
  type: 'string',
  value: 'F',
  choices: PACK_FORMATS,
  description: `the atlas format: ${PACK_FORMATS.join(', ')} (default: from OUT's extension; .json: texturepacker)`,
};
const TRIM_OPTION: OptionSpec = {
  name: 'trim',
  type: 'flag',
  description: 'cut transparent edges (alpha 0) off each frame, keeping its place',
};
const TRIM_THRESHOLD_OPTION: OptionSpec = {
  name: 'trim-threshold',
  type: 'int',
  min: 0,
  max: 254,
  value: 'N',
  description: 'trim (as --trim) edges whose pixels have alpha N or less (default 0)',
};
const ROTATE_OPTION: OptionSpec = {
  name: 'rotate',
  type: 'flag',
  description: 'frames may be stored a quarter turn (clockwise; libgdx: counterclockwise) where the format can say so',
};
const EXTRUDE_OPTION: OptionSpec = {
  name: 'extrude',
  type: 'int',
  min: 0,
  max: 64,
  value: 'N',
  description: "repeat each frame's edge N pixels outwards",
};
const PADDING_OPTION: OptionSpec = { name: 'padding', type: 'int', min: 0, max: 256, value: 'N', description: 'pixels between frames' };
const BORDER_OPTION: OptionSpec = {
  name: 'border',
  type: 'int',
  min: 0,
  max: 256,
  value: 'N',
  description: "pixels between the frames and the page's edge",
};
const POT_OPTION: OptionSpec = { name: 'pot', type: 'flag', description: 'page sides are powers of two' };
const SQUARE_OPTION: OptionSpec = { name: 'square', type: 'flag', description: 'pages are square' };
const MAX_SIZE_OPTION: OptionSpec = { name: 'max-size', type: 'size', min: 1, max: 65536, description: 'the largest page' };
const MULTIPACK_OPTION: OptionSpec = {
  name: 'multipack',
  type: 'flag',
  description: 'spread the frames over several pages when one page of --max-size is not enough',
};
const SCALE_OPTION: OptionSpec = {
  name: 'scale',
  type: 'string',
  value: 'LIST',
  description: 'the scales to write, e.g. 1,0.5 (OUT and its pages for 1, NAME@0.5x.EXT and its pages for 0.5)',
};
const TEMPLATE_OPTION: OptionSpec = {
  name: 'template',
  type: 'string',
  value: 'FILE',
  description: 'with --to template: the Eta template (NAME.EXT.eta writes .EXT; docs/atlas-formats.md)',
};
const CHANGED_OPTION: OptionSpec = {
  name: 'changed',
  type: 'flag',
  description:
    'write only the files whose bytes the pack changes: OUT, its pages and data files missing or not what the inputs pack to (none: say so)',
};

/** The exporter `--to` names, else the one OUT's extension names (.json: texturepacker). */
function exporterFor(out: string, to: string | undefined): AtlasExporter {
  if (to) return getAtlasExporter(to)!;
  const ext = path.extname(out).toLowerCase();
  if (ext === '.json') return getAtlasExporter('texturepacker')!;
  const found = ATLAS_EXPORTERS.filter((e) => e.name !== 'template' && e.extension === ext);
  if (found.length !== 1)
    throw new UsageError(
      found.length
        ? `the extension "${ext}" is shared by ${found.map((e) => e.name).join(', ')}; use --to`
        : `cannot tell which atlas format to write from the extension "${ext}"; use --to (${PACK_FORMATS.join(', ')})`,
    );
  return found[0]!;
}

function parseScales(text: string | undefined): number[] {
  if (text === undefined) return [1];
  const list = text.split(',').map((s) => s.trim());
  const out = list.map((s) => (/^\d+(\.\d+)?$/.test(s) ? Number(s) : Number.NaN));
  const bad = list.find((_, i) => !(out[i]! > 0));
  if (bad !== undefined) throw new UsageError(`--scale takes numbers above 0 separated by commas, e.g. 1,0.5 (not "${bad}")`);
  return out;
}

/** `NAME.EXT` at scale s: `NAME@sx.EXT` (1: as it is). */
const scaledName = (name: string, s: number) => (s === 1 ? name : `${name.replace(/(\.[^./]*)?$/, '')}@${s}x${path.extname(name)}`);

/** Frame images from PNG files (`walk_0.png` ... also make animation `walk`) and sprite files (their animations). */
async function gatherFrames(
  io: Io,
  inputs: readonly string[],
  options: CommandOptions,
): Promise<{ frames: AtlasSourceFrame[]; animations: AtlasSourceAnimation[]; used: string[] }> {
  const limits = limitsFrom(options);
  const budget = budgetFrom(options);
  let found: Awaited<ReturnType<typeof findFiles>>;
  try {
    found = await findFiles(io.cwd, inputs);
  } catch (e) {
    if (e instanceof PlaceError) throw new FileError(e.place, e.fsError ? 'no such file or folder' : 'no file matches');
    throw e;
  }
  const frames: AtlasSourceFrame[] = [];
  const animations: AtlasSourceAnimation[] = [];
  const used: string[] = [];
  const pngs = found.filter((f) => f.abs.toLowerCase().endsWith('.png'));
  const sprites = found.filter((f) => !f.abs.toLowerCase().endsWith('.png') && (f.named || !f.unreadable));
  for (const f of found) if (f.unreadable) throw new FileError(f.shown, f.unreadable);
  const prefix = sprites.length + (pngs.length ? 1 : 0) > 1;
  const numbered = new Map<string, { n: number; name: string }[]>();
  for (const f of pngs) {
    const loader = fsResourceLoader(path.dirname(f.abs), { cwd: io.cwd, maxFileBytes: limits.maxFileBytes });
    const { image } = await inFile(f.shown, () => loadImage(loader, { format: 'pack', what: 'frame', name: path.basename(f.abs) }, limits));
    const name = f.rel.replace(/\\/g, '/').replace(/\.png$/i, '');
    frames.push({ name, image });
    used.push(f.abs);
    const m = /^(.*)_(\d+)$/.exec(name);
    if (m) numbered.set(m[1]!, [...(numbered.get(m[1]!) ?? []), { n: Number(m[2]), name }]);
  }
  for (const [name, list] of numbered) animations.push({ name, frames: list.sort((a, b) => a.n - b.n).map((x) => x.name) });
  for (const f of sprites) {
    const bytes = await inFile(f.shown, () => readFileBytes(f.abs, limits));
    // A file a walk or a glob found is packed when `sprat check` reads it (not a README or a quest's other data).
    if (!f.named && !checkFormatOf(bytes, f.shown)) continue;
    await inFile(f.shown, () => packSprite(f, bytes));
  }
  if (!frames.length) throw new FileError(inputs[0]!, 'no PNG frames or sprite files to pack');
  return { frames, animations, used };

  /** A sprite file's frames and animations, named below the file's own name when there are several inputs. */
  async function packSprite(f: FoundFile, bytes: Uint8Array): Promise<void> {
    const loaded = load(bytes, f.shown, undefined, options);
    for (const w of loaded.warnings) io.err(`${printable(`${f.shown}: warning: ${w.message}`)}\n`);
    if (!loaded.handler.toModel) throw new FileError(f.shown, `${loaded.handler.name} files hold no frames to pack`);
    const resources = recordingLoader(resourcesFor(io, f.abs, options), path.dirname(f.abs));
    const model = await loaded.handler.toModel(loaded.doc, resources, options);
    if (model.kind !== 'sprite') throw new FileError(f.shown, 'a level has no frames to pack (pack a sprite, or PNG frames)');
    used.push(f.abs);
    for (const u of resources.used) used.push(u);
    const got = spriteAtlasFrames(model, budget);
    const p = prefix ? `${path.basename(f.abs).replace(/\.[^.]*$/, '')}/` : '';
    for (const fr of got.frames) frames.push({ ...fr, name: p + fr.name });
    for (const a of got.animations) animations.push({ name: p + a.name, frames: a.frames.map((n) => p + n), loop: a.loop });
  }
}

/**
 * The targets whose file is missing or holds other bytes (for --changed):
 * the pack is deterministic, so an input edited, a page deleted or drawn
 * over by hand, or another option shows here, and a target left out keeps
 * its bytes and time.
 */
async function differing<T extends { path: string; bytes: Uint8Array }>(targets: readonly T[]): Promise<T[]> {
  const out: T[] = [];
  for (const t of targets) {
    const st = await fsp.stat(t.path).catch(() => null);
    const same = st?.isFile() && st.size === t.bytes.length && sameBytes(await fsp.readFile(t.path), t.bytes);
    if (!same) out.push(t);
  }
  return out;
}

/** `work` on the file shown as `shown`: whatever it throws is reported for that file (InFileError). */
async function inFile<T>(shown: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    throw e instanceof FileError || e instanceof InFileError ? e : new InFileError(shown, e);
  }
}

export const packCommand: Command = {
  name: 'pack',
  summary:
    'Pack frames into a texture atlas for an engine: INPUT is a folder or glob of PNG frames (file name = frame name; walk_0.png, walk_1.png, ... make animation "walk") or a sprite file sprat reads (its animations kept). Writes OUT (the data file) and its page images beside it, atomically; inputs and files they use are never replaced, other existing files only with --overwrite. Examples:\n  sprat pack frames/ -o hero.json --trim\n  sprat pack "art/*.png" -o hero.tres --to godot4 --max-size 1024x1024 --multipack\n  sprat pack hero.isprite -o hero-atlas.json --to pixi --trim --rotate --scale 1,0.5',
  usage:
    'sprat pack INPUT... -o OUT [--to F] [--trim] [--trim-threshold N] [--rotate] [--extrude N] [--padding N] [--border N] [--pot] [--square] [--max-size WxH] [--multipack] [--scale LIST] [--template FILE] [--changed] [--overwrite] [--force]',
  options: [
    OUTPUT_OPTION,
    TO_OPTION,
    TRIM_OPTION,
    TRIM_THRESHOLD_OPTION,
    ROTATE_OPTION,
    EXTRUDE_OPTION,
    PADDING_OPTION,
    BORDER_OPTION,
    POT_OPTION,
    SQUARE_OPTION,
    MAX_SIZE_OPTION,
    MULTIPACK_OPTION,
    SCALE_OPTION,
    TEMPLATE_OPTION,
    CHANGED_OPTION,
    OVERWRITE_OPTION,
    FORCE_OPTION,
  ],
  async run(argv: string[], io: Io) {
    const { positionals, options } = parseArgs(argv, allOptions(this), { o: 'output' });
    const outFile = stringOption(options, OUTPUT_OPTION);
    if (!outFile) throw new UsageError('pack needs the output: -o OUT');
    if (positionals.length === 0) throw new UsageError('pack takes INPUT... (folders or globs of PNG frames, or sprite files)');
    const to = choiceOption(options, TO_OPTION);
    let exporter = exporterFor(outFile, to);
    const template = stringOption(options, TEMPLATE_OPTION);
    if ((exporter.name === 'template') !== (template !== undefined))
      throw new UsageError(template === undefined ? '--to template needs --template FILE' : '--template goes with --to template');
    const scales = parseScales(stringOption(options, SCALE_OPTION));
    const maxSize = sizeOption(options, MAX_SIZE_OPTION);
    if (options.multipack && !maxSize) throw new UsageError('--multipack splits pages of --max-size: add --max-size WxH');
    if (options.rotate && !exporter.rotation) {
      const why = exporter.whyNoRotation ? `stores frames upright (${exporter.whyNoRotation})` : 'cannot say a frame is stored rotated';
      const can = ATLAS_EXPORTERS.filter((e) => e.rotation).map((e) => e.name);
      throw new UsageError(`--rotate: ${exporter.name} ${why}; formats that can: ${can.join(', ')}`);
    }
    const outPath = resolvePath(io, outFile);
    try {
      if (template !== undefined && exporter.withTemplate) {
        const text = new TextDecoder().decode(await readFileBytes(resolvePath(io, template), limitsFrom(options)));
        exporter = exporter.withTemplate(text, path.basename(template));
      }
      const { frames, animations, used } = await gatherFrames(io, positionals, options);
      if (used.includes(outPath)) throw new UsageError(`${outFile}: OUT is an input; pack never overwrites its input`);
      const base = path.basename(outPath).replace(/\.[^.]*$/, '') || 'atlas';
      const threshold = intOption(options, TRIM_THRESHOLD_OPTION);
      const atlases = packAtlas(
        frames,
        {
          trim: threshold !== undefined ? { alphaThreshold: threshold } : options.trim === true,
          rotate: options.rotate === true,
          extrude: intOption(options, EXTRUDE_OPTION) ?? 0,
          padding: intOption(options, PADDING_OPTION) ?? 0,
          border: intOption(options, BORDER_OPTION) ?? 0,
          pot: options.pot === true,
          square: options.square === true,
          ...(maxSize ? { maxWidth: maxSize.width, maxHeight: maxSize.height } : {}),
          multipack: options.multipack === true,
          scale: scales,
          exporter,
          name: base,
          budget: budgetFrom(options),
        },
        animations,
      );
      const files: OutputFile[] = [];
      const notes = new Set<string>();
      for (const atlas of atlases) {
        for (const f of exporter.write(atlas, scaledName(path.basename(outPath), atlas.scale))) files.push(f);
        for (const p of atlas.pages) files.push({ name: p.file, bytes: encodePng(p.image) });
        for (const n of exporter.losses?.(atlas) ?? []) notes.add(n);
      }
      for (const n of notes) io.err(`${printable(`${outFile}: note: ${n}`)}\n`);
      let targets = outputTargets(outPath, files, outFile);
      if (options.changed) {
        targets = await differing(targets);
        if (!targets.length) {
          io.out(`${printable(`${outFile}: up to date (every file the pack writes is there, byte for byte), nothing written`)}\n`);
          return 0;
        }
      }
      const code = await writeOutputs(io, 'pack', targets, {
        protect: template !== undefined ? [...used, resolvePath(io, template)] : used,
        overwrite: options.overwrite === true,
        force: options.force === true,
      });
      if (code === 0) {
        const pages = atlases[0]!.pages;
        io.out(
          `${printable(`packed ${frames.length} frames onto ${pages.length} ${pages.length === 1 ? 'page' : 'pages'} (${pages.map((p) => `${p.image.width}x${p.image.height}`).join(', ')})`)}\n`,
        );
        for (const t of targets) io.out(`${printable(`wrote ${t.label}`)}\n`);
      }
      return code;
    } catch (e) {
      if (e instanceof UsageError) throw e;
      return reportError(io, e, positionals.length === 1 ? positionals[0] : undefined);
    }
  },
};
