import { printable } from '../binary/errors.js';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { limitsFrom } from '../binary/limits.js';
import type { CommandOptions } from '../formats/types.js';
import { isTiledProjectName, projectFolderFollowed, tiledProjectProblems, type TiledProject } from '../interop/tiled/check.js';
import type { FoundFile } from '../node/files.js';
import { fsResourceLoader, readFileBytes } from '../node/fs.js';
import { parseArgs, UsageError } from './args.js';
import { findPlaces, JOBS_OPTION, OVERSUBSCRIBE_OPTION, runJobs, workersFor } from './batch.js';
import type { BatchJob, BatchReply, CheckJob, FileReport } from './batch-job.js';
import { readReports } from './check-merge.js';
import { allOptions, resolveUserPaths, type Command } from './command.js';
import { formatByName } from '../api.js';
import type { Io } from './io.js';
import { jsonChunks } from '../binary/json-chunks.js';
import { Progress } from './progress.js';
import { sarifLog } from './sarif.js';

export const checkCommand: Command = {
  name: 'check',
  summary:
    'Check every sprite and level file under folders: each validated, the sheets and textures it references found and decoded; one line per problem, a summary; exit 1 on any error.',
  examples: ['sprat check quest/data', 'sprat check . --json', "sprat check 'sprites/**/*.dat' --sarif"],
  usage:
    'sprat check [DIR|FILE|GLOB...] [--json|--sarif] [--warnings-as-errors] [--jobs N [--oversubscribe]]\n       sprat check --merge REPORT.json... [--json|--sarif] [--warnings-as-errors]',
  options: [
    { name: 'json', type: 'flag', description: 'print one JSON report {files, summary}' },
    { name: 'warnings-as-errors', type: 'flag', description: 'exit 1 on warnings too' },
    { name: 'sarif', type: 'flag', description: 'print a SARIF 2.1.0 log instead (GitHub code scanning; docs/git.md)' },
    JOBS_OPTION,
    OVERSUBSCRIBE_OPTION,
    { name: 'merge', type: 'flag', description: 'read check --json reports (of shards of a project) and report them as one' },
    {
      ...formatByName('cthg').renderOptions!.find((o) => o.name === 'recolour')!,
      description:
        'CTHG: draw every CorsixTH animation with these recolour palettes (LAYER=PALETTE.png,...): each must be there, decode and hold 256 colours',
    },
  ],
  async run(argv: string[], io: Io) {
    const { positionals, options } = parseArgs(argv, allOptions(this));
    const limits = limitsFrom(options); // a bad --max-* value is a command-line error before any file is read
    resolveUserPaths(this, [], options, io.cwd); // --recolour palettes: relative to the current folder
    if (options.json && options.sarif) throw new UsageError('--json and --sarif are two reports: give one');
    // --merge: the reports of earlier runs (shards), as one.
    const files: FileReport[] = options.merge === true ? await readReports(io, positionals, limits) : [];
    const found = options.merge === true ? [] : await findPlaces(io, positionals.length ? positionals : ['.']);
    const projects = await withProjectFiles(io, found, options);
    const th = thDataRoles(found);
    const progress = new Progress(io, found.length);
    const jobs: CheckJob[] = found.map((f) => ({
      kind: 'check',
      shown: f.shown,
      abs: f.abs,
      named: f.named,
      cwd: io.cwd,
      options,
      ...(f.unreadable !== undefined ? { unreadable: f.unreadable } : {}),
      ...(projects.get(f.abs) ? { tiledProject: projects.get(f.abs) } : {}),
      ...(th.get(f.abs) ? { thData: th.get(f.abs) } : {}),
    }));
    const stopped = (job: BatchJob, message: string): BatchReply => ({
      kind: 'check',
      report: { path: (job as CheckJob).shown, format: null, problems: [{ severity: 'error', message }] },
    });
    await runJobs(
      jobs,
      workersFor(options, jobs.length, (t) => io.err(t)),
      (reply) => {
        if (reply.kind === 'check' && reply.report) files.push(reply.report);
        progress.step();
      },
      stopped,
    );
    progress.end();
    let errors = 0;
    let warnings = 0;
    for (const f of files) for (const p of f.problems) p.severity === 'error' ? errors++ : warnings++;
    const failed = errors > 0 || (options['warnings-as-errors'] === true && warnings > 0);
    if (options.sarif) {
      for (const chunk of jsonChunks(sarifLog(files, io.cwd), 2, limits)) io.out(chunk);
      io.out('\n');
      return failed ? 1 : 0;
    }
    if (options.json) {
      const report = {
        files: files.map((f) => ({ path: f.path, format: f.format, problems: f.problems.map((p) => ({ ...p })) })),
        summary: { files: files.length, errors, warnings },
      };
      for (const chunk of jsonChunks(report, 2, limits)) io.out(chunk);
      io.out('\n');
      return failed ? 1 : 0;
    }
    for (const f of files) for (const p of f.problems) io.out(`${printable(`${f.path}: ${p.severity}: ${p.message}`)}\n`);
    io.out(summaryTable(files, errors, warnings));
    return failed ? 1 : 0;
  },
};

/**
 * Tiled projects (`.tiled-project`) among the files: the files under each
 * project's folders are added to `found` (once), and each file under them is
 * mapped to the project and the custom types it defines (for the property
 * type rule). A project that cannot be read adds nothing (its own check says why).
 */
async function withProjectFiles(
  io: Io,
  found: FoundFile[],
  options: CommandOptions,
): Promise<Map<string, { shown: string; types: string[] }>> {
  const owner = new Map<string, { shown: string; types: string[] }>();
  const projects = found.filter((f) => f.unreadable === undefined && isTiledProjectName(f.abs));
  if (!projects.length) return owner;
  const seen = new Set(found.map((f) => f.abs));
  const limits = limitsFrom(options);
  for (const p of projects) {
    let project: TiledProject | undefined;
    try {
      const bytes = await readFileBytes(p.abs, limits);
      project = (await tiledProjectProblems(bytes, p.shown, fsResourceLoader(path.dirname(p.abs), { maxFileBytes: limits.maxFileBytes })))
        .project;
    } catch {
      // its own check says why
    }
    if (!project) continue;
    for (const folder of project.folders) {
      if (!projectFolderFollowed(folder)) continue; // the project's check warns
      const abs = path.resolve(path.dirname(p.abs), folder);
      const st = await fsp.stat(abs).catch(() => undefined);
      if (!st?.isDirectory()) continue; // the project's check warns
      const place = path.relative(io.cwd, abs) || '.';
      for (const f of await findPlaces(io, [place])) {
        if (!seen.has(f.abs)) {
          seen.add(f.abs);
          found.push(f);
        }
        const inside = f.abs.startsWith(abs + path.sep);
        if (!inside) continue;
        const had = owner.get(f.abs);
        owner.set(
          f.abs,
          had ? { shown: had.shown, types: [...new Set([...had.types, ...project.types])] } : { shown: p.shown, types: project.types },
        );
      }
    }
  }
  return owner;
}

/**
 * CorsixTH graphics in Theme Hospital's data layout: a folder holding sprite
 * tables (`NAME.tab`, with `NAME.dat`: VSPR-0, VBLK-0, fonts, panels). Each
 * table gets its data file; its palettes (`*.pal`, `MPalette.dat`) are
 * checked as palettes; a `Data` folder's tables need `MPalette.dat`.
 */
function thDataRoles(found: readonly FoundFile[]): Map<string, NonNullable<CheckJob['thData']>> {
  const roles = new Map<string, NonNullable<CheckJob['thData']>>();
  const byDir = new Map<string, Map<string, FoundFile>>();
  for (const f of found) {
    if (f.unreadable !== undefined) continue;
    const dir = path.dirname(f.abs);
    const names = byDir.get(dir) ?? byDir.set(dir, new Map()).get(dir)!;
    names.set(path.basename(f.abs).toLowerCase(), f);
  }
  for (const [dir, names] of byDir) {
    const tables = [...names.keys()].filter((n) => n.endsWith('.tab')).sort();
    if (!tables.length) continue;
    const palette = names.get('mpalette.dat');
    let needsPalette = !palette && path.basename(dir).toLowerCase() === 'data';
    for (const t of tables) {
      const stem = t.slice(0, -4);
      const data = names.get(`${stem}.dat`);
      const f = names.get(t)!;
      const dataName = data ? path.basename(data.abs) : `${path.basename(f.abs).slice(0, -4)}.dat`;
      roles.set(f.abs, { role: 'table', ...(data ? { data: data.abs } : {}), dataName, ...(needsPalette ? { needsPalette } : {}) });
      needsPalette = false;
    }
    for (const [n, f] of names) if (n.endsWith('.pal') || n === 'mpalette.dat') roles.set(f.abs, { role: 'palette' });
  }
  return roles;
}

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
  for (const [k, r] of [...rows].sort()) table.push([printable(k), String(r[0]), String(r[1]), String(r[2])]);
  table.push(['total', String(files.length), String(errors), String(warnings)]);
  const w = table[0]!.map((_, i) => table.reduce((m, row) => Math.max(m, row[i]!.length), 0));
  return '\n' + table.map((row) => row.map((c, i) => (i === 0 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join('  ')).join('\n') + '\n';
}
