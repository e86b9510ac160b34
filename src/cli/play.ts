import { printable } from '../binary/errors.js';
import { load, play } from '../api.js';
import { parseArgs, UsageError, stringOption } from './args.js';
import { FORMAT_OPTION, allOptions, rejectForeignOptions, checkFormatNames, type Command } from './command.js';
import { readInput, reportError, type Io } from './io.js';
import { BoundedText } from '../binary/json-chunks.js';
import { limitsFrom, type Limits } from '../binary/limits.js';

/**
 * A JSON array with one record per line, as chunks to print in turn; its
 * size counts against `--max-json-bytes` as it is made (a long trigger on
 * every one of a million ticks would be gigabytes).
 */
export function recordsJsonChunks(records: readonly unknown[], limits: Partial<Limits> = {}): string[] {
  if (records.length === 0) return ['[]\n'];
  const text = new BoundedText(limits, 'the JSON records');
  text.add('[\n');
  for (let i = 0; i < records.length; i++) text.add((i ? ',\n  ' : '  ') + JSON.stringify(records[i]));
  text.add('\n]\n');
  return text.parts();
}

/** Prints a JSON array with one record per line. */
export function recordsJson(records: unknown[], limits: Partial<Limits> = {}): string {
  return recordsJsonChunks(records, limits).join('');
}

export const playCommand: Command = {
  name: 'play',
  summary: "Run the format's playback rules and print one record per step (a JSON array with --json, else a timeline).",
  examples: ['sprat play hero.isprite --animation walk --ticks 30', 'sprat play tunic1.dat --animation walking --direction 1 --json'],
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
      for (const w of loaded.warnings) io.err(`${printable(`${file}: warning: ${w.message}`)}\n`);
      const limits = limitsFrom(options);
      const result = play(loaded, options);
      let out: string[];
      if (options.json) out = recordsJsonChunks(result.records, limits);
      else if (result.text !== undefined)
        out = [result.text]; // (a getter for ISPRITE: made only here)
      else {
        const text = new BoundedText(limits, 'the records');
        for (const r of result.records) text.add(JSON.stringify(r) + '\n');
        out = text.parts();
      }
      for (const w of result.warnings) io.err(`${printable(`${file}: warning: ${w}`)}\n`);
      for (const chunk of out) io.out(chunk);
      return 0;
    } catch (e) {
      if (e instanceof UsageError) throw e;
      return reportError(io, e, file);
    }
  },
};
