import { expect } from 'vitest';
import { FormatError } from '../../src/binary/errors.js';
import type { CliResult } from './cli.js';

/** The FormatError `f` throws; the test fails when it throws something else or nothing. */
export function errorOf(f: () => unknown): FormatError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(FormatError);
    return e as FormatError;
  }
  throw new Error('expected a FormatError');
}

/** Exit 1 and exactly one line, `sprat: error: FILE: ...`, naming the option that raises the limit. */
export function limitError(r: CliResult, option: string): void {
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr).toMatch(new RegExp(`^sprat: error: [^\\n]*raise it with --${option}\\)\\n$`));
}
