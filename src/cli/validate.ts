import { printable } from '../binary/errors.js';
import * as fsp from 'node:fs/promises';
import { validateWithResources } from '../api.js';
import { parseArgs, UsageError, stringOption } from './args.js';
import { FORMAT_OPTION, allOptions, checkFormatNames, type Command } from './command.js';
import { describeFsError, readInput, resolvePath, resourcesFor, type Io } from './io.js';
import { jsonChunks } from '../binary/json-chunks.js';
import { limitsFrom } from '../binary/limits.js';
import { isGlob } from '../node/files.js';
import { findPlaces } from './batch.js';
import { checkFormatOf } from '../check.js';

export const validateCommand: Command = {
  name: 'validate',
  summary:
    'Check files against their format: prints "FILE: ok" or "FILE: error: MESSAGE" per file, warnings on stderr; exit 1 if any file is invalid.',
  usage: 'sprat validate FILE|DIR|GLOB... [--json] [--format F]',
  options: [{ name: 'json', type: 'flag', description: 'print one JSON array of results' }, FORMAT_OPTION],
  formatOptionKeys: ['readOptions'],
  async run(argv: string[], io: Io) {
    const { positionals, options } = parseArgs(argv, allOptions(this));
    checkFormatNames(options, ['format'], this);
    if (positionals.length === 0) throw new UsageError('validate needs at least one FILE');
    const format = stringOption(options, FORMAT_OPTION);
    limitsFrom(options); // a bad --max-* value is a command-line error before any file is read
    let bad = 0;
    const results: unknown[] = [];
    // A glob is expanded by sprat (the same everywhere), as a shell would: each file it matches validated. A folder
    // is walked as `check` walks it: the files of a format sprat knows (the others skipped quietly), each validated;
    // a folder below it that cannot be read is one error.
    const files: { file: string; walked?: true; unreadable?: string }[] = [];
    for (const p of positionals) {
      const st = await fsp.stat(resolvePath(io, p)).catch(() => undefined);
      if (st?.isDirectory())
        for (const f of await findPlaces(io, [p]))
          files.push({ file: f.shown, walked: true, ...(f.unreadable !== undefined ? { unreadable: f.unreadable } : {}) });
      else if (isGlob(p) && !st)
        for (const f of await findPlaces(io, [p]))
          files.push({ file: f.shown, ...(f.unreadable !== undefined ? { unreadable: f.unreadable } : {}) });
      else files.push({ file: p });
    }
    for (const { file, walked, unreadable } of files) {
      let bytes: Uint8Array;
      try {
        if (unreadable !== undefined) throw new Error(unreadable);
        bytes = await readInput(io, file, options);
      } catch (e) {
        bad++;
        const msg = describeFsError(e);
        if (options.json) results.push({ file, format: null, valid: false, errors: [msg], warnings: [] });
        else io.out(`${printable(`${file}: error: ${msg}`)}\n`);
        continue;
      }
      if (walked && format === undefined && !checkFormatOf(bytes, file)) continue;
      const r = await validateWithResources(bytes, file, format, options, resourcesFor(io, resolvePath(io, file), options));
      const errors = r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message);
      const warnings = r.diagnostics.filter((d) => d.severity === 'warning').map((d) => d.message);
      if (!r.valid) bad++;
      if (options.json) {
        results.push({ file, format: r.format, valid: r.valid, errors, warnings });
        continue;
      }
      for (const w of warnings) io.err(`${printable(`${file}: warning: ${w}`)}\n`);
      if (r.valid) io.out(`${printable(`${file}: ok`)}\n`);
      else {
        // One line per file on stdout; any further errors go to stderr.
        io.out(`${printable(`${file}: error: ${errors[0]}`)}\n`);
        for (const m of errors.slice(1)) io.err(`${printable(`${file}: error: ${m}`)}\n`);
      }
    }
    if (options.json) {
      for (const chunk of jsonChunks(results, 2, limitsFrom(options))) io.out(chunk);
      io.out('\n');
    }
    return bad ? 1 : 0;
  },
};
