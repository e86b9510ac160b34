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
 * `text` made safe to print on a terminal, as one line: every control
 * character but the tab shown visibly (`\n`, `\r`, `\e` for ESC,
 * `\x07` and `\xHH` for the other C0 and C1 controls and DEL, `\u2028`,
 * `\u2029`), so a name from a file or a folder (an OSC title sequence, an
 * `ESC[2J`, a CR or a line break forging a line) cannot drive the terminal
 * nor forge an output line. The one escaping function of every text output:
 * errors, warnings and notes, the CLI's lines, `inspectText` and play text
 * (JSON escapes by its own rules).
 */
export function printable(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this escapes
  return text.replace(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\u001b') return '\\e';
    const n = c.charCodeAt(0);
    return n > 0xff ? `\\u${n.toString(16)}` : `\\x${n.toString(16).padStart(2, '0')}`;
  });
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

/** Lines of text output (inspect and play text), each `printable`, joined by line breaks. */
export function printableLines(lines: readonly string[]): string {
  return lines.map(printable).join('\n');
}

/** An error, warning or note as one line: `printable` (the one escaping of text output). */
export const oneLine = printable;

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
