import { printable } from '../binary/errors.js';
import * as path from 'node:path';
import { convert, load, outputFormatFor, outputFormatNote, references } from '../api.js';
import { fileTarget, recordingLoader, sameFile, type WriteTarget } from '../node/fs.js';
import { parseArgs, UsageError, stringOption } from './args.js';
import { allOptions, rejectForeignOptions, resolveUserPaths, checkFormatNames, type Command } from './command.js';
import { FileError, readInput, reportError, resolvePath, resourcesFor, type Io } from './io.js';
import { FORCE_OPTION, OVERWRITE_OPTION, writeOutputs } from './write.js';
import type { OptionSpec, OutputFile } from '../formats/types.js';
import { BATCH_OPTIONS, convertBatch, isBatchForm } from './batch.js';
import { formatByName } from '../api.js';

/**
 * Where a conversion's files go: OUT, and any companions (sheets, textures)
 * beside it. A companion name taken from the document must not lead out of
 * OUT's folder (`../../x.png`, an absolute path). Each is labelled as the
 * user would write it (OUT as given, a companion in OUT's folder); only OUT
 * may replace an existing file without --overwrite.
 */
export function outputTargets(outPath: string, files: readonly OutputFile[], label = outPath): (WriteTarget & { label: string })[] {
  const outDir = path.dirname(outPath);
  return files.map((f) => {
    const p = path.resolve(outDir, f.name);
    const rel = path.relative(outDir, p);
    if (rel === '' || rel === '..' || rel.startsWith('..' + path.sep) || path.isAbsolute(rel)) {
      throw new FileError(label, `a file "${f.name}" would be written outside the output's folder`);
    }
    const isOut = p === path.resolve(outPath);
    return fileTarget(f, p, { label: isOut ? label : path.join(path.dirname(label), rel), mayReplace: isOut });
  });
}

const FROM_OPTION: OptionSpec = {
  name: 'from',
  type: 'string',
  value: 'F',
  description: 'the input format (default: found from content, then extension)',
};
const TO_OPTION: OptionSpec = {
  name: 'to',
  type: 'string',
  value: 'F',
  description: "the output format (default: from OUT's extension, else the input's)",
};

const CLAMP_OPTION: OptionSpec = {
  name: 'clamp',
  type: 'flag',
  description: "values that do not fit the output's fields are clamped, with a note for each, instead of refused",
};

export const convertCommand: Command = {
  name: 'convert',
  summary:
    'Read IN and write OUT (and its sheets, beside it), printing each file written. The same format re-encodes; other formats go through the common model. All files are written atomically as one group; IN, the files it uses and existing files other than OUT are never replaced (--overwrite allows the last).',
  examples: [
    'sprat convert tunic1.dat tunic1.json --to aseprite',
    'sprat convert hero.json hero.isprite',
    'sprat convert fan.dat fan.txt',
    'sprat convert sprites/ out/ --to solarus-lua --changed',
  ],
  usage:
    'sprat convert IN OUT [--from F] [--to F] [--overwrite] [--force] [--lzf clzf2|liblzf|best] [--endian little|big]\n       sprat convert DIR|GLOB|FILE... OUTDIR [--to F] [--jobs N] [--changed] [--dry-run]',
  options: [FROM_OPTION, TO_OPTION, OVERWRITE_OPTION, FORCE_OPTION, CLAMP_OPTION, ...BATCH_OPTIONS],
  formatOptionKeys: ['writeOptions', 'resourceOptions', 'readOptions', 'convertOptions'],
  async run(argv: string[], io: Io) {
    const { positionals, options } = parseArgs(argv, allOptions(this));
    checkFormatNames(options, ['from', 'to'], this);
    if (positionals.length >= 2 && (await isBatchForm(io, positionals.slice(0, -1), options))) {
      const to = stringOption(options, TO_OPTION);
      return convertBatch(io, positionals, options, to ? formatByName(to) : undefined);
    }
    if (positionals.length !== 2) throw new UsageError('convert takes IN and OUT');
    const [inFile, outFile] = positionals as [string, string];
    const inPath = resolvePath(io, inFile);
    const outPath = resolvePath(io, outFile);
    if (await sameFile(inPath, outPath)) throw new UsageError(`${outFile}: OUT is the input file; convert never overwrites its input`);
    try {
      const bytes = await readInput(io, inFile, options);
      const loaded = load(bytes, inFile, stringOption(options, FROM_OPTION), options);
      for (const w of loaded.warnings) io.err(`${printable(`${inFile}: warning: ${w.message}`)}\n`);
      const target = outputFormatFor(loaded.handler, outFile, stringOption(options, TO_OPTION));
      const shared = outputFormatNote(loaded.handler, outFile, stringOption(options, TO_OPTION));
      rejectForeignOptions(this, [loaded.handler, target], options);
      resolveUserPaths(this, [loaded.handler, target], options, io.cwd);
      // Every file the conversion reads is recorded: no output may replace it.
      const resources = recordingLoader(resourcesFor(io, inPath, options), path.dirname(inPath));
      const place = { dir: path.dirname(outPath), inputDir: path.dirname(inPath), resources: resourcesFor(io, outPath, options) };
      const { files, notes } = await convert(loaded, target, path.basename(outPath), resources, options, place);
      // And every file it names, even those a conversion need not load (a same-format re-encode).
      await references(loaded, resources, options);
      for (const n of shared ? [shared, ...notes] : notes) io.err(`${printable(`${inFile}: note: ${n}`)}\n`);
      const targets = outputTargets(outPath, files, outFile);
      const code = await writeOutputs(io, 'convert', targets, {
        protect: [inPath, ...resources.used],
        overwrite: options.overwrite === true,
        force: options.force === true,
      });
      if (code === 0) for (const t of targets) io.out(`${printable(`wrote ${t.label}`)}\n`);
      return code;
    } catch (e) {
      if (e instanceof UsageError) throw e;
      return reportError(io, e, inFile);
    }
  },
};
