import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import type { Diagnostic } from '../binary/errors.js';
import { limitsFrom } from '../binary/limits.js';
import { checkFile, checkFormatOf } from '../check.js';
import { readFileBytes } from '../node/fs.js';
import { parseArgs, UsageError } from './args.js';
import { allOptions, type Command } from './command.js';
import { describeFsError, resolvePath, resourcesFor, type Io } from './io.js';
import { stringifyJsonChunks } from './json.js';
import { sarifLog } from './sarif.js';

const SKIPPED_FOLDERS = new Set(['node_modules', '.git']);

/** The files under the places the user named, in a stable order: folders walked (not node_modules, .git or symbolic links). */
async function* walk(io: Io, place: string): AsyncGenerator<{ shown: string; abs: string; named: boolean }> {
  const abs = resolvePath(io, place);
  const st = await fsp.stat(abs);
  if (!st.isDirectory()) {
    yield { shown: place, abs, named: true };
    return;
  }
  const entries = (await fsp.readdir(abs, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const shown = path.join(place, e.name);
    if (e.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(e.name)) yield* walk(io, shown);
    } else if (e.isFile()) {
      yield { shown, abs: path.join(abs, e.name), named: false };
    }
    // symbolic links and special files are left alone
  }
}

interface FileReport {
  path: string;
  format: string | null;
  problems: Diagnostic[];
}

export const checkCommand: Command = {
  name: 'check',
  summary:
    'Check every sprite and level file under folders: each validated, the sheets and textures it references found and decoded; one line per problem, a summary; exit 1 on any error.',
  usage: 'sprat check [DIR|FILE...] [--json|--sarif] [--warnings-as-errors]',
  options: [
    { name: 'json', type: 'flag', description: 'print one JSON report {files, summary}' },
    { name: 'warnings-as-errors', type: 'flag', description: 'exit 1 on warnings too' },
    { name: 'sarif', type: 'flag', description: 'print a SARIF 2.1.0 log instead (GitHub code scanning; docs/git.md)' },
  ],
  async run(argv: string[], io: Io) {
    const { positionals, options } = parseArgs(argv, allOptions(this));
    const limits = limitsFrom(options); // a bad --max-* value is a command-line error before any file is read
    if (options.json && options.sarif) throw new UsageError('--json and --sarif are two reports: give one');
    const places = positionals.length ? positionals : ['.'];
    const files: FileReport[] = [];
    for (const place of places) {
      try {
        await fsp.stat(resolvePath(io, place));
      } catch (e) {
        throw new UsageError(`${place}: ${describeFsError(e)}`);
      }
      for await (const f of walk(io, place)) {
        let bytes: Uint8Array;
        try {
          bytes = await readFileBytes(f.abs, limits);
        } catch (e) {
          files.push({ path: f.shown, format: null, problems: [{ severity: 'error', message: describeFsError(e) }] });
          continue;
        }
        const handler = checkFormatOf(bytes, f.shown);
        if (!handler) {
          if (f.named)
            files.push({ path: f.shown, format: null, problems: [{ severity: 'error', message: 'not a file of any format sprat knows' }] });
          continue;
        }
        const problems = await checkFile(bytes, f.shown, handler, resourcesFor(io, f.abs, options), options);
        files.push({ path: f.shown, format: handler.name, problems });
      }
    }
    let errors = 0;
    let warnings = 0;
    for (const f of files) for (const p of f.problems) p.severity === 'error' ? errors++ : warnings++;
    const failed = errors > 0 || (options['warnings-as-errors'] === true && warnings > 0);
    if (options.sarif) {
      for (const chunk of stringifyJsonChunks(sarifLog(files, io.cwd), 2, limits) ?? []) io.out(chunk);
      io.out('\n');
      return failed ? 1 : 0;
    }
    if (options.json) {
      const report = {
        files: files.map((f) => ({ path: f.path, format: f.format, problems: f.problems.map((p) => ({ ...p })) })),
        summary: { files: files.length, errors, warnings },
      };
      for (const chunk of stringifyJsonChunks(report, 2, limits) ?? []) io.out(chunk);
      io.out('\n');
      return failed ? 1 : 0;
    }
    for (const f of files) for (const p of f.problems) io.out(`${f.path}: ${p.severity}: ${p.message}\n`);
    io.out(summaryTable(files, errors, warnings));
    return failed ? 1 : 0;
  },
};

/** Files, errors and warnings per format, then the totals. */
function summaryTable(files: FileReport[], errors: number, warnings: number): string {
  const rows = new Map<string, [number, number, number]>();
  for (const f of files) {
    const key = f.format ?? '(unread)';
    const r = rows.get(key) ?? [0, 0, 0];
    r[0]++;
    for (const p of f.problems) r[p.severity === 'error' ? 1 : 2]++;
    rows.set(key, r);
  }
  const table: string[][] = [['format', 'files', 'errors', 'warnings']];
  for (const [k, r] of [...rows].sort()) table.push([k, String(r[0]), String(r[1]), String(r[2])]);
  table.push(['total', String(files.length), String(errors), String(warnings)]);
  const w = table[0]!.map((_, i) => table.reduce((m, row) => Math.max(m, row[i]!.length), 0));
  return '\n' + table.map((row) => row.map((c, i) => (i === 0 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join('  ')).join('\n') + '\n';
}
