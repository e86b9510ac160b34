import * as fs from 'node:fs';
import { describeOptions } from './args.js';
import { allOptions, checkFormatNames, DEBUG_OPTION, HELP_OPTION, LIMIT_OPTIONS, optionsByFormat, type Command } from './command.js';
import { detectFormat, formatsForExtension } from '../detect.js';
import type { FormatHandler } from '../formats/types.js';
import { FORMATS, getFormat } from '../registry.js';
import { UsageError } from './args.js';

/** --help, as git's: the command's own options; a format's with `--format F` or a FILE; every format's with `--all`. */
export interface HelpScope {
  /** The formats whose options are shown (from --format F or the FILEs given). */
  formats?: readonly FormatHandler[];
  /** Every format's options. */
  all?: boolean;
}

export function commandHelp(cmd: Command, scope: HelpScope = {}): string {
  let text = `usage: ${cmd.usage}\n\n${cmd.summary}\n`;
  if (cmd.examples?.length) text += `\nexamples:\n${cmd.examples.map((e) => `  ${e}`).join('\n')}\n`;
  text += `\noptions:\n${describeOptions([...cmd.options, HELP_OPTION, DEBUG_OPTION])}\n`;
  const groups = optionsByFormat(cmd.formatOptionKeys ?? [], scope.all ? FORMATS : (scope.formats ?? []));
  for (const [format, specs] of groups) text += `\n${format} options:\n${describeOptions(specs)}\n`;
  const withOptions = optionsByFormat(cmd.formatOptionKeys ?? []).flatMap(([names]) => names.split(', '));
  const shown = new Set(groups.flatMap(([names]) => names.split(', ')));
  const rest = withOptions.filter((n) => !shown.has(n));
  if (rest.length && !scope.all) {
    const ways: [string, string][] = [
      [`sprat ${cmd.name} FILE --help`, "the options of FILE's format"],
      [`sprat ${cmd.name} --help --format F`, 'the options of format F'],
      [`sprat ${cmd.name} --help --all`, "every format's"],
    ];
    const width = ways.reduce((m, [w]) => Math.max(m, w.length), 0);
    text += `\nformat options (${rest.join(', ')}):\n${ways.map(([w, d]) => `  ${w.padEnd(width)}  ${d}\n`).join('')}`;
  }
  text += `\nlimits (every command):\n${describeOptions(LIMIT_OPTIONS)}\n`;
  return text;
}

/**
 * What `--help` is asked about, from the rest of the command line: `--all`,
 * `--format F` (a near miss is suggested), and the FILEs named (each one's
 * format from its content, else its extension).
 */
export function helpScope(cmd: Command, args: readonly string[]): HelpScope {
  const valued = new Set(
    allOptions(cmd)
      .filter((o) => o.type !== 'flag')
      .flatMap((o) => [o.name, ...(o.aliases ?? [])]),
  );
  const formats: FormatHandler[] = [];
  let all = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--all') all = true;
    else if (a === '--format' || a.startsWith('--format=')) {
      const name = a === '--format' ? args[++i] : a.slice('--format='.length);
      if (name === undefined) throw new UsageError('option --format needs a value');
      // The one check of a format name (a near miss suggested), as the commands make it.
      checkFormatNames({ format: name });
      formats.push(getFormat(name)!);
    } else if (a.startsWith('--')) {
      if (!a.includes('=') && valued.has(a.slice(2))) i++;
    } else if (a === '-o') i++;
    else if (!a.startsWith('-')) for (const f of formatsOfFile(a)) formats.push(f);
  }
  return { formats: [...new Set(formats)], all };
}

/** A file's format for --help: its content (the first 64 KiB) when it can be read, else its extension's formats. */
function formatsOfFile(file: string): FormatHandler[] {
  try {
    const fd = fs.openSync(file, 'r');
    try {
      if (fs.fstatSync(fd).isFile()) {
        const head = new Uint8Array(65536);
        const n = fs.readSync(fd, head, 0, head.length, 0);
        const f = detectFormat(head.subarray(0, n), file);
        if (f) return [f];
      }
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // Not readable: the extension says.
  }
  return formatsForExtension(file);
}
