/**
 * `validate` for ISPRITE: everything the reader finds (errors and warnings),
 * then the checks that need the whole document: references in range, the
 * document's "invalid" values, loop flags (erratum 7), hold time 0
 * (erratum 10), follow-ups, the MET+ keys of erratum 6, missing chunks
 * (erratum 13).
 */
import { diagnostic, diagnosticFromError, isFormatError, type Diagnostic } from '../../binary/errors.js';
import type { IspriteDate, IspriteDocument, IspriteSequence } from './model.js';
import { readIspriteDetailed, type IspriteReadInfo } from './read.js';
import { elementCount, elementsOf } from './compact.js';
import { DEFAULT_SEQUENCE_KEY, allGroups, allSequences, foldName, playbackMetaEntries, resolveFollowUps } from './paths.js';

/** At most this many diagnostics of one kind are listed; the rest are counted. */
const PER_KIND = 20;

export function validateIsprite(bytes: Uint8Array): Diagnostic[] {
  const out: Diagnostic[] = [];
  let res: { doc: IspriteDocument; info: IspriteReadInfo };
  try {
    res = readIspriteDetailed(bytes, (d) => out.push(d), true);
  } catch (e) {
    if (isFormatError(e)) return [...out, diagnosticFromError(e)];
    throw e;
  }
  for (const d of checkIsprite(res.doc, res.info)) out.push(d);
  return out;
}

/** Semantic checks of a document (offsets where `info` knows them). */
export function checkIsprite(doc: IspriteDocument, info?: IspriteReadInfo): Diagnostic[] {
  const out: Diagnostic[] = [];
  const counts = new Map<string, number>();
  const add = (kind: string, severity: Diagnostic['severity'], reason: string, offset?: number) => {
    const n = (counts.get(kind) ?? 0) + 1;
    counts.set(kind, n);
    if (n <= PER_KIND) out.push(diagnostic(severity, reason, offset === undefined ? {} : { offset }));
  };
  const frameAt = (f: number) => info?.frameOffsets[f];

  if (info) {
    const ids = new Set(info.chunks.map((c) => c.id));
    for (const id of ['TEX ', 'SLIC', 'NAME', 'TIER', 'FRAM']) {
      if (!ids.has(id)) add('missing', 'warning', `no ${id.trim()} chunk (read as empty)`);
    }
    const maxEls = doc.frames.reduce((m, f) => Math.max(m, elementCount(f)), 0);
    if (info.maxElementCount !== null && info.maxElementCount < maxEls) {
      const fram = info.chunks.find((c) => c.id === 'FRAM');
      add(
        'maxel',
        'warning',
        `FRAM maximum element count ${info.maxElementCount} is less than the ${maxEls} elements of the largest frame`,
        fram ? fram.offset + 12 : undefined,
      );
    }
  }

  if (doc.meta) {
    checkDate(doc.meta.created, 'META creation date', add);
    checkDate(doc.meta.saved, 'META save date', add);
  }

  doc.textures.forEach((t, i) => {
    if (t.path === '') add('texpath', 'warning', `texture ${i} has an empty path`, info?.textureOffsets[i]);
  });

  doc.slices.forEach((s, i) => {
    const at = info?.sliceOffsets[i];
    if (s.texture >= doc.textures.length) {
      add(
        'slicetex',
        'error',
        `slice ${i} uses texture ${s.texture}, but there ${doc.textures.length === 1 ? 'is 1 texture' : `are ${doc.textures.length} textures`}`,
        at,
      );
    }
    if (s.width === 0 || s.height === 0)
      add('slicesize', 'error', `slice ${i} is ${s.width}x${s.height} pixels (zero is not a valid width or height)`, at);
  });

  // Frames and their elements.
  const nNames = doc.names.length;
  doc.frames.forEach((fr, f) => {
    const at = frameAt(f);
    if (fr.holdTime === 0) add('hold', 'warning', `frame ${f} has hold time 0 (invalid; played as 1)`, at);
    elementsOf(fr).forEach((el, e) => {
      if (el.name !== null && el.name >= nNames) {
        add(
          'elname',
          'error',
          `frame ${f} element ${e} uses name ${el.name}, but there ${nNames === 1 ? 'is 1 name' : `are ${nNames} names`}`,
          at,
        );
      }
      if (el.type === 'graphic' && el.slice >= doc.slices.length) {
        add(
          'elslice',
          'error',
          `frame ${f} element ${e} uses slice ${el.slice}, but there ${doc.slices.length === 1 ? 'is 1 slice' : `are ${doc.slices.length} slices`}`,
          at,
        );
      }
      if (el.type === 'unknown') add('elunknown', 'warning', `frame ${f} element ${e} has an unknown marker ${el.marker} (kept as is)`, at);
    });
  });

  // Sequences.
  const seqs = allSequences(doc);
  const followUps = resolveFollowUps(doc);
  const seqAt = (s: IspriteSequence) => info?.sequenceOffsets.get(s);
  const loopTargets = new Set<number>();
  for (const ref of seqs) {
    const s = ref.sequence;
    const at = seqAt(s);
    s.frames.forEach((id, i) => {
      if (id >= doc.frames.length) {
        add(
          'seqframe',
          'error',
          `sequence ${ref.path} position ${i} uses frame ${id}, but there ${doc.frames.length === 1 ? 'is 1 frame' : `are ${doc.frames.length} frames`}`,
          at,
        );
      }
    });
    // "This value is ignored if a follow-up sequence is defined."
    if (s.followUp === '' && s.loopPoint !== null && s.loopPoint < s.frames.length) loopTargets.add(s.frames[s.loopPoint]!);
    if (s.followUp !== '' && !followUps.get(s)) {
      add(
        'followup',
        'warning',
        `sequence ${ref.path} has follow-up "${s.followUp}", which names no sequence in its group or any group above it (the default sequence plays instead)`,
        at,
      );
    }
    if (s.frames.length === 0) add('empty', 'warning', `sequence ${ref.path} has no frames`, at);
  }
  // Erratum 7: a frame flagged as a loop point that no sequence loops to.
  doc.frames.forEach((fr, f) => {
    if (fr.loopPoint && !loopTargets.has(f)) {
      add(
        'loopflag',
        'warning',
        `frame ${f} is flagged as a loop point, but no sequence that uses it loops to it (the sequence's loop point decides)`,
        frameAt(f),
      );
    }
  });
  // Names should be unique within a group.
  for (const g of allGroups(doc)) {
    const seen = new Set<string>();
    for (const n of g.children) {
      const key = `${n.kind}:${foldName(n.name)}`;
      if (seen.has(key)) add('dupname', 'warning', `${g.path} has more than one ${n.kind} named "${n.name}" (the first one wins)`);
      seen.add(key);
    }
  }

  // Erratum 6: the project's MET+ keys.
  for (const m of playbackMetaEntries(doc)) {
    const at = info?.extraMetaOffsets[m.index];
    if (m.kind === DEFAULT_SEQUENCE_KEY) {
      if (!m.sequence)
        add('meta6', 'warning', `MET+ default-sequence "${m.value}" names no sequence (a path from Root, like Root/idle)`, at);
    } else {
      if (!m.sequence) add('meta6', 'warning', `MET+ ${m.key} names no sequence (a path from Root, like Root/idle)`, at);
      if (m.rate === null) add('meta6', 'warning', `MET+ ${m.key} value "${m.value}" is not a frame rate (a decimal 0-255)`, at);
    }
  }

  for (const n of counts.values()) {
    if (n > PER_KIND) {
      out.push(diagnostic('warning', `${n - PER_KIND} more problem${n - PER_KIND === 1 ? '' : 's'} like the ones above (not listed)`));
    }
  }
  return out;
}

function checkDate(
  d: IspriteDate | null,
  what: string,
  add: (kind: string, severity: Diagnostic['severity'], reason: string, offset?: number) => void,
): void {
  if (!d) return;
  const ok =
    d.day >= 1 &&
    d.day <= 31 &&
    d.month >= 1 &&
    d.month <= 12 &&
    d.year >= 1 &&
    d.hour <= 23 &&
    d.minute <= 59 &&
    d.second <= 59 &&
    d.centisecond <= 99;
  if (!ok) {
    add(
      'date',
      'warning',
      `${what} ${d.year}-${d.month}-${d.day} ${d.hour}:${d.minute}:${d.second}.${d.centisecond} is not a valid date and time`,
    );
  }
}
