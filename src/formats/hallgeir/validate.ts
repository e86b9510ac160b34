/**
 * `validate`: the reader's strictness gives the errors (docs/spec/hallgeir.md's
 * decisions 1-4: bad counts and lengths, trailing bytes, next frames out of
 * range, NaN/infinite delays); warnings for invalid UTF-8 and for things a
 * user likely did not mean (empty animations, duplicate names, frames that
 * playback never reaches).
 */
import { diagnostic, diagnosticFromError, isFormatError, type Diagnostic } from '../../binary/errors.js';
import type { CommandOptions } from '../types.js';
import type { HallgeirDocument, HallgeirKind } from './model.js';
import { frameCount } from './compact.js';
import { frameChain } from './play.js';
import { ENDIAN_OPTION, readHallgeir } from './read.js';
import { choiceOption } from '../options.js';

function duplicates(names: string[]): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const n of names) (seen.has(n) ? dup : seen).add(n);
  return [...dup];
}

export function documentWarnings(doc: HallgeirDocument): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (doc.kind === 'sprite') {
    for (const n of duplicates(doc.animations.map((a) => a.name)))
      out.push(diagnostic('warning', `two animations are named ${JSON.stringify(n)}`));
    for (const a of doc.animations) {
      if (frameCount(a) === 0) {
        out.push(diagnostic('warning', `animation ${JSON.stringify(a.name)} has no frames`));
        continue;
      }
      const { dropped } = frameChain(a);
      if (dropped.length) {
        out.push(
          diagnostic(
            'warning',
            `animation ${JSON.stringify(a.name)}: playback from frame 0 never reaches frame${dropped.length === 1 ? '' : 's'} ${dropped.join(', ')}`,
          ),
        );
      }
    }
  } else if (doc.kind === 'map') {
    for (const n of duplicates(doc.textures.map((t) => t.name)))
      out.push(diagnostic('warning', `two textures are named ${JSON.stringify(n)}`));
  }
  return out;
}

export function validateHallgeir(bytes: Uint8Array, kind: HallgeirKind, options: CommandOptions = {}): Diagnostic[] {
  const out: Diagnostic[] = [];
  const endian = choiceOption(options, ENDIAN_OPTION); // a bad value is the caller's mistake (OptionError), not the file's
  try {
    const doc = readHallgeir(bytes, kind, { endian, warn: (d) => out.push(d) });
    for (const w of documentWarnings(doc)) out.push(w);
  } catch (e) {
    if (isFormatError(e)) out.push(diagnosticFromError(e));
    else out.push(diagnostic('error', `internal error: ${(e as Error)?.message ?? String(e)}`));
  }
  return out;
}
