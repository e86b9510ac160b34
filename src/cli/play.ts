import { load, play } from '../api.js';
import { parseArgs, UsageError, stringOption } from './args.js';
import { FORMAT_OPTION, allOptions, rejectForeignOptions, checkFormatNames, type Command } from './command.js';
import { readInput, reportError, type Io } from './io.js';

/** Prints a JSON array with one record per line. */
export function recordsJson(records: unknown[]): string {
  if (records.length === 0) return '[]\n';
  return '[\n' + records.map((r) => '  ' + JSON.stringify(r)).join(',\n') + '\n]\n';
}

export const playCommand: Command = {
  name: 'play',
  summary: "Run the format's playback rules and print one record per step (a JSON array with --json, else a timeline).",
  usage: 'sprat play FILE [options] [--json]',
  options: [{ name: 'json', type: 'flag', description: 'print a JSON array of records' }, FORMAT_OPTION],
  formatOptionKeys: ['playOptions', 'readOptions'],
  async run(argv: string[], io: Io) {
    const { positionals, options } = parseArgs(argv, allOptions(this));
    checkFormatNames(options, ['format'], this);
    if (positionals.length !== 1) throw new UsageError('play takes exactly one FILE');
    const file = positionals[0]!;
    try {
      const loaded = load(await readInput(io, file, options), file, stringOption(options, FORMAT_OPTION), options);
      rejectForeignOptions(this, [loaded.handler], options);
      for (const w of loaded.warnings) io.err(`${file}: warning: ${w.message}\n`);
      const { records, warnings, text } = play(loaded, options);
      for (const w of warnings) io.err(`${file}: warning: ${w}\n`);
      if (options.json) io.out(recordsJson(records));
      else io.out(text ?? records.map((r) => JSON.stringify(r)).join('\n') + '\n');
      return 0;
    } catch (e) {
      if (e instanceof UsageError) throw e;
      return reportError(io, e, file);
    }
  },
};
