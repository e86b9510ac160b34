/**
 * The one error type every reader throws for bad input. It names the format
 * and where the problem is: a byte offset for binary formats, a line and a
 * column (both 1-based) for text formats.
 */
export interface ErrorLocation {
  /** Byte offset into the data being read (for LZF-wrapped formats: into the decompressed data unless `reason` says otherwise). */
  offset?: number;
  /** 1-based line number, for text formats. */
  line?: number;
  /** 1-based column number, for text formats. */
  column?: number;
}

export function describeLocation(loc: ErrorLocation): string {
  if (loc.line !== undefined) {
    return loc.column !== undefined ? `at line ${loc.line}, column ${loc.column}` : `at line ${loc.line}`;
  }
  if (loc.offset !== undefined) return `at byte ${loc.offset}`;
  return '';
}

/**
 * `text` with line breaks and other control characters (but tabs) escaped as
 * in JSON (\r, \n, \u0000): errors, warnings and notes quote names from the
 * input, and each must stay one line.
 */
export function oneLine(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this escapes
  return text.replace(/[\u0000-\u0008\u000a-\u001f\u007f\u2028\u2029]/g, (c) =>
    c === '\n' ? '\\n' : c === '\r' ? '\\r' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** A sorted list of numbers, compactly, for messages: 0,1,2,5,7,8 -> "0-2, 5, 7-8". */
export function numberRanges(list: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < list.length; ) {
    let j = i;
    while (j + 1 < list.length && list[j + 1] === list[j]! + 1) j++;
    out.push(i === j ? String(list[i]) : `${list[i]}-${list[j]}`);
    i = j + 1;
  }
  return out.join(', ');
}

export class FormatError extends Error {
  override name = 'FormatError';
  /** Short format name (`isprite`, `cthg`, `lzf`, ...). */
  readonly format: string;
  /** What is wrong, without the location. */
  readonly reason: string;
  readonly offset?: number;
  readonly line?: number;
  readonly column?: number;

  constructor(format: string, reason: string, loc: ErrorLocation = {}) {
    // An error is one line: control characters quoted from the input (a CR in a name) are escaped.
    reason = oneLine(reason);
    const where = describeLocation(loc);
    super(where ? `${reason} (${where})` : reason);
    this.format = format;
    this.reason = reason;
    this.offset = loc.offset;
    this.line = loc.line;
    this.column = loc.column;
  }

  static atByte(format: string, reason: string, offset: number): FormatError {
    return new FormatError(format, reason, { offset });
  }

  static atLine(format: string, reason: string, line: number, column?: number): FormatError {
    return new FormatError(format, reason, { line, column });
  }
}

export function isFormatError(e: unknown): e is FormatError {
  return e instanceof FormatError;
}

/** A problem found by a validator. `message` already names the location. */
export interface Diagnostic {
  severity: 'error' | 'warning';
  message: string;
  offset?: number;
  line?: number;
  column?: number;
}

export function diagnostic(severity: Diagnostic['severity'], reason: string, loc: ErrorLocation = {}): Diagnostic {
  const where = describeLocation(loc);
  reason = oneLine(reason);
  return { severity, message: where ? `${reason} (${where})` : reason, ...loc };
}

/** Turns a FormatError into an error diagnostic. */
export function diagnosticFromError(e: FormatError): Diagnostic {
  return { severity: 'error', message: e.message, offset: e.offset, line: e.line, column: e.column };
}

/**
 * A wrong or missing option given by the caller (a program or the command
 * line), as opposed to bad input data: the command line exits 2 for it.
 */
export class OptionError extends Error {
  override name = 'OptionError';
  constructor(message: string) {
    // It may quote names from the input (`--animation x` names nothing; the file has: ...): one line.
    super(oneLine(message));
  }
}
