/**
 * Whether a command's output is what the contract promises for errors: exit
 * 0, or exit 1 (and with `allowUsage` 2) with exactly one line
 * `sprat: error: ...` last on stderr (validate and check say why on stdout,
 * one line per problem); warnings and notes one line each; never a stack, an
 * `at` frame, source text or a line over 400 characters.
 */
import type { CliResult } from './cli.js';

/** Why a run's output is not clean, or null. */
export function problemOf(command: string, r: CliResult, allowUsage = false): string | null {
  const lines = (text: string) => text.split('\n').filter((l) => l !== '');
  const err = lines(r.stderr);
  for (const l of err) {
    if (l.length > 400) return `a line of ${l.length} characters: ${l.slice(0, 200)}...`;
    if (/^\s+at |\bat .*:\d+:\d+\)?$|^\s*\^+\s*$|node:internal|sprat\.cjs|Node\.js v\d/.test(l)) return `a stack or source line: ${l}`;
  }
  if (r.code === 0) {
    const odd = err.filter((l) => !/: (warning|note): /.test(l));
    return odd.length ? `exit 0 with stderr ${JSON.stringify(odd.slice(0, 3))}` : null;
  }
  if (r.code !== 1 && !(allowUsage && r.code === 2)) return `exit ${r.code}: ${JSON.stringify(r.stderr.slice(0, 400))}`;
  const errors = err.filter((l) => l.startsWith('sprat: error: '));
  const others = err.filter((l) => !l.startsWith('sprat: error: ') && !/: (warning|note|error): /.test(l));
  if (others.length) return `exit ${r.code} with other lines on stderr: ${JSON.stringify(others.slice(0, 3))}`;
  // validate and check say why on stdout, one line per problem.
  if ((command === 'validate' || command === 'check') && errors.length === 0) {
    const out = lines(r.stdout);
    if (!out.some((l) => /: error: /.test(l))) return `exit ${r.code} without an error line: ${JSON.stringify(r.stdout.slice(0, 400))}`;
    const long = out.find((l) => l.length > 400 || /^\s+at /.test(l));
    return long ? `a bad line on stdout: ${long.slice(0, 200)}` : null;
  }
  if (errors.length !== 1 || err.at(-1) !== errors[0])
    return `exit ${r.code} without exactly one error line at the end: ${JSON.stringify(r.stderr.slice(0, 400))}`;
  return null;
}
