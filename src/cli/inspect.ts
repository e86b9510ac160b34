import { printable } from '../binary/errors.js';
import { load } from '../api.js';
import { parseArgs, UsageError, stringOption } from './args.js';
import { FORMAT_OPTION, allOptions, rejectForeignOptions, checkFormatNames, type Command } from './command.js';
import { readInput, reportError, type Io } from './io.js';
import { jsonChunks } from '../binary/json-chunks.js';
import { limitsFrom } from '../binary/limits.js';

export const inspectCommand: Command = {
  name: 'inspect',
  summary: 'Print a summary of a file, or with --json the whole document as docs/spec shapes it for each format.',
  examples: ['sprat inspect hero.isprite', 'sprat inspect level.map --json'],
  usage: 'sprat inspect FILE [--json] [--format F]',
  options: [{ name: 'json', type: 'flag', description: 'print the document as JSON' }, FORMAT_OPTION],
  formatOptionKeys: ['readOptions'],
  async run(argv: string[], io: Io) {
    const { positionals, options } = parseArgs(argv, allOptions(this));
    checkFormatNames(options, ['format'], this);
    if (positionals.length !== 1) throw new UsageError('inspect takes exactly one FILE');
    const file = positionals[0]!;
    try {
      const bytes = await readInput(io, file, options);
      // (The bytes are this command's own: the document may share them instead of copying.)
      const { handler, doc, warnings } = load(bytes, file, stringOption(options, FORMAT_OPTION), options, { keepBytes: true });
      rejectForeignOptions(this, [handler], options);
      for (const w of warnings) io.err(`${printable(`${file}: warning: ${w.message}`)}\n`);
      if (options.json) {
        const limits = limitsFrom(options);
        for (const chunk of jsonChunks(handler.inspectJson(doc, options), 2, limits)) io.out(chunk);
        io.out('\n');
      } else io.out(handler.inspectText(doc).replace(/\n?$/, '\n'));
      return 0;
    } catch (e) {
      return reportError(io, e, file);
    }
  },
};
