import { expect } from 'vitest';
import { FormatError } from '../../src/binary/errors.js';

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
