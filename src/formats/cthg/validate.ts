import { diagnostic, FormatError, type Diagnostic } from '../../binary/errors.js';
import type { CthgDocument } from './model.js';
import { headerMismatches, readCthg } from './read.js';

/** All problems of a file: read errors, and header count mismatches as errors. Never throws for bad input. */
export function validateCthg(bytes: Uint8Array): Diagnostic[] {
  const out: Diagnostic[] = [];
  let doc: CthgDocument;
  try {
    doc = readCthg(bytes, {
      warn: (d) => {
        // Header mismatches are re-reported below as errors.
        if (!/^the header's /.test(d.message)) out.push(d);
      },
    });
  } catch (e) {
    if (e instanceof FormatError) {
      out.push({ severity: 'error', message: e.message, offset: e.offset });
      return out;
    }
    throw e;
  }
  for (const m of headerMismatches(doc)) out.push(diagnostic('error', m.reason, { offset: m.offset }));
  return out;
}
