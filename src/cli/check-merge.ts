/**
 * `sprat check --merge A.json B.json ...`: the `--json` reports of several
 * check runs (shards of a project checked on several machines or processes)
 * read back as one list of files, for one combined report of the same schema.
 */
import type { Limits } from '../binary/limits.js';
import { readFileBytes } from '../node/fs.js';
import { UsageError } from './args.js';
import type { FileReport } from './batch-job.js';
import { describeFsError, FileError, resolvePath, type Io } from './io.js';

function isProblem(p: unknown): boolean {
  if (!p || typeof p !== 'object') return false;
  const q = p as Record<string, unknown>;
  return (
    (q.severity === 'error' || q.severity === 'warning') &&
    typeof q.message === 'string' &&
    ['line', 'column', 'offset'].every((k) => q[k] === undefined || typeof q[k] === 'number')
  );
}

/** The files of one report, or why it is not a `sprat check --json` report. */
function filesOf(report: unknown): FileReport[] | string {
  if (!report || typeof report !== 'object' || !Array.isArray((report as { files?: unknown }).files)) return 'it has no "files" list';
  const out: FileReport[] = [];
  for (const [i, f] of (report as { files: unknown[] }).files.entries()) {
    const r = f as Record<string, unknown> | null;
    if (!r || typeof r.path !== 'string' || !(r.format === null || typeof r.format === 'string') || !Array.isArray(r.problems))
      return `files[${i}] is not a file's report ({ "path", "format", "problems" })`;
    const bad = r.problems.findIndex((p) => !isProblem(p));
    if (bad >= 0) return `files[${i}].problems[${bad}] is not a problem ({ "severity", "message", ... })`;
    out.push({ path: r.path, format: r.format as string | null, problems: r.problems as FileReport['problems'] });
  }
  return out;
}

/**
 * Reads the reports named: every file of each, listed once (a file in
 * several reports as the last one has it), sorted by path. A report that
 * cannot be read or is not a check report is an error naming it (exit 1).
 */
export async function readReports(io: Io, reports: readonly string[], limits: Limits): Promise<FileReport[]> {
  if (!reports.length) throw new UsageError('check --merge needs the REPORT.json files of earlier check --json runs');
  const byPath = new Map<string, FileReport>();
  for (const name of reports) {
    const bytes = await readFileBytes(resolvePath(io, name), limits).catch((e: unknown) => {
      throw new FileError(name, describeFsError(e));
    });
    let parsed: unknown;
    try {
      parsed = JSON.parse(new TextDecoder().decode(bytes));
    } catch (e) {
      throw new FileError(name, `not a sprat check --json report: ${(e as Error).message}`);
    }
    const files = filesOf(parsed);
    if (typeof files === 'string') throw new FileError(name, `not a sprat check --json report: ${files}`);
    for (const f of files) {
      byPath.delete(f.path);
      byPath.set(f.path, f);
    }
  }
  return [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
