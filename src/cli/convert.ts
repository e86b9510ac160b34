import * as path from 'node:path';
import { convert, load, outputFormatFor } from '../api.js';
import { LZF_FLAVOURS, type LzfFlavour } from '../lzf/compress.js';
import { fsResourceLoader, readFileBytes, sameFile, writeFilesAtomic } from '../node/fs.js';
import { parseArgs, UsageError, stringOption } from './args.js';
import { allOptions, rejectForeignOptions, checkFormatNames, type Command } from './command.js';
import { FileError, reportError, reportWriteError, resolvePath, type Io } from './io.js';
import type { OutputFile } from '../formats/types.js';

/**
 * Where a conversion's files go: OUT, and any companions (sheets, textures)
 * beside it. A companion name taken from the document must not lead out of
 * OUT's folder (`../../x.png`, an absolute path).
 */
export function outputTargets(outPath: string, files: readonly OutputFile[], label = outPath): { path: string; bytes: Uint8Array }[] {
  const outDir = path.dirname(outPath);
  return files.map((f) => {
    const p = path.resolve(outDir, f.name);
    const rel = path.relative(outDir, p);
    if (rel === '' || rel === '..' || rel.startsWith('..' + path.sep) || path.isAbsolute(rel)) {
      throw new FileError(label, `a file "${f.name}" would be written outside the output's folder`);
    }
    return { path: p, bytes: f.bytes };
  });
}

export const convertCommand: Command = {
  name: 'convert',
  summary:
    'Read IN and write OUT. The same format re-encodes; other formats go through the common model. OUT is written atomically; IN is never touched.',
  usage: 'sprat convert IN OUT [--from F] [--to F] [--lzf clzf2|liblzf|best] [--endian little|big]',
  options: [
    { name: 'from', type: 'string', description: 'the input format (default: found from content, then extension)' },
    { name: 'to', type: 'string', description: "the output format (default: from OUT's extension, else the input's)" },
    { name: 'clamp', type: 'flag', description: "values that do not fit the output's fields are clamped, with a note for each, instead of refused" },
  ],
  formatOptionKeys: ['writeOptions', 'readOptions'],
  async run(argv: string[], io: Io) {
    const { positionals, options } = parseArgs(argv, allOptions(this));
    checkFormatNames(options, ['from', 'to']);
    const lzf = options.lzf;
    if (typeof lzf === 'string' && !LZF_FLAVOURS.includes(lzf as LzfFlavour)) {
      throw new UsageError(`unknown LZF flavour "${lzf}" for --lzf (use ${LZF_FLAVOURS.join(', ')})`);
    }
    if (positionals.length !== 2) throw new UsageError('convert takes IN and OUT');
    const [inFile, outFile] = positionals as [string, string];
    const inPath = resolvePath(io, inFile);
    const outPath = resolvePath(io, outFile);
    if (await sameFile(inPath, outPath)) throw new UsageError(`${outFile}: OUT is the input file; convert never overwrites its input`);
    try {
      const bytes = await readFileBytes(inPath);
      const loaded = load(bytes, inFile, stringOption(options, 'from'), options);
      for (const w of loaded.warnings) io.err(`${inFile}: warning: ${w.message}\n`);
      const target = outputFormatFor(loaded.handler, outFile, stringOption(options, 'to'));
      rejectForeignOptions(this, [loaded.handler, target], options);
      const resources = fsResourceLoader(path.dirname(inPath));
      const { files, notes } = await convert(loaded, target, path.basename(outPath), resources, options);
      for (const n of notes) io.err(`${inFile}: note: ${n}\n`);
      const targets = outputTargets(outPath, files, outFile);
      for (const t of targets) {
        if (await sameFile(t.path, inPath)) throw new UsageError(`${path.relative(io.cwd, t.path)}: an output file would overwrite the input`);
      }
      try {
        await writeFilesAtomic(targets);
      } catch (e) {
        return reportWriteError(io, e, outFile);
      }
      return 0;
    } catch (e) {
      if (e instanceof UsageError) throw e;
      return reportError(io, e, inFile);
    }
  },
};
