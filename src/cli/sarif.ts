/**
 * `sprat check --sarif`: the report as a SARIF 2.1.0 log, which GitHub code
 * scanning (and other SARIF viewers) show on the file and line. One rule per
 * kind of problem; each result's location is the file, relative to the
 * current folder (`%SRCROOT%`), with the line and column of a text format or
 * the byte offset of a binary one when the problem has one.
 */
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic } from '../binary/errors.js';

export interface SarifRule {
  id: string;
  text: string;
  level: 'error' | 'warning';
}

/** The kinds of problem `check` reports, in the order they are tried. */
export const SARIF_RULES: readonly (SarifRule & { test(d: Diagnostic, format: string | null): boolean })[] = [
  {
    id: 'frame-outside-image',
    text: 'A frame rectangle leaves the image it is cut from (the engine draws garbage or crashes).',
    level: 'error',
    test: (d) => /lies outside its \d+x\d+ image/.test(d.message),
  },
  {
    id: 'limit-exceeded',
    text: 'Checking the file would pass a work limit (raise it with the --max-* option named).',
    level: 'error',
    test: (d) => /raise it with --max-/.test(d.message),
  },
  {
    id: 'missing-reference',
    text: 'A file the document names (a sheet, texture, tileset, object) is not there.',
    level: 'error',
    test: (d) => /\bnot found\b|no such file|does not exist/i.test(d.message),
  },
  {
    id: 'bad-image',
    text: 'An image the document names does not decode (not a PNG or BMP, corrupt or truncated).',
    level: 'error',
    test: (d) => /\b(PNG|BMP)\b/.test(d.message),
  },
  {
    id: 'unreadable-file',
    text: 'The file cannot be read, or is of no format sprat knows.',
    level: 'error',
    test: (_d, format) => format === null,
  },
  {
    id: 'format-warning',
    text: 'The file is readable but has a problem its format allows.',
    level: 'warning',
    test: (d) => d.severity === 'warning',
  },
  { id: 'format-error', text: 'The file breaks its format (corrupt, truncated or invalid).', level: 'error', test: () => true },
];

/** A file `check` looked at, with its problems. */
export interface SarifFile {
  path: string;
  format: string | null;
  problems: readonly Diagnostic[];
}

/** A path as a SARIF URI: relative to `cwd` (with `%SRCROOT%`) when inside it, else an absolute file URI. */
function artifactLocation(file: string, cwd: string): { uri: string; uriBaseId?: string } {
  const abs = path.resolve(cwd, file);
  const rel = path.relative(cwd, abs);
  if (rel && !rel.startsWith('..') && !path.isAbsolute(rel))
    return { uri: rel.split(path.sep).map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' };
  return { uri: pathToFileURL(abs).href };
}

/** The SARIF 2.1.0 log of a check report; `cwd` is the folder paths are relative to. */
export function sarifLog(files: readonly SarifFile[], cwd: string): unknown {
  const used = new Map<string, number>();
  const rules: SarifRule[] = [];
  const results: unknown[] = [];
  for (const f of files) {
    for (const d of f.problems) {
      const rule = SARIF_RULES.find((r) => r.test(d, f.format))!;
      let index = used.get(rule.id);
      if (index === undefined) {
        index = rules.length;
        used.set(rule.id, index);
        rules.push({ id: rule.id, text: rule.text, level: rule.level });
      }
      const region =
        d.line !== undefined
          ? { startLine: Math.max(1, d.line), ...(d.column !== undefined ? { startColumn: Math.max(1, d.column) } : {}) }
          : d.offset !== undefined
            ? { byteOffset: d.offset }
            : undefined;
      results.push({
        ruleId: rule.id,
        ruleIndex: index,
        level: d.severity,
        message: { text: d.message },
        locations: [{ physicalLocation: { artifactLocation: artifactLocation(f.path, cwd), ...(region ? { region } : {}) } }],
      });
    }
  }
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'sprat',
            rules: rules.map((r) => ({
              id: r.id,
              shortDescription: { text: r.text },
              defaultConfiguration: { level: r.level },
            })),
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { uri: pathToFileURL(cwd + path.sep).href } },
        results,
      },
    ],
  };
}
