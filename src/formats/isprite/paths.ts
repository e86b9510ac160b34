/**
 * Sequence and group paths of an ISPRITE document, and the project's MET+
 * keys for what the file layout has no field for (contract erratum 6):
 *
 * - `default-sequence` = PATH
 * - `sequence-frame-rate:PATH` = decimal 0-255 (255 = the master rate)
 *
 * A PATH names a group or sequence from Root, segments joined by `/`, e.g.
 * `Root/Armed/attack`. Segments are matched one by one with the document's
 * name rule: case-insensitive for the 52 ASCII letters only; within one group
 * the first match in file order wins. The first segment must be `Root`.
 * Group segments match groups only, and a sequence path's last segment
 * matches sequences only. A name that itself contains `/` cannot be reached
 * by a path.
 *
 * MET+ key names are matched exactly (case-sensitively); the PATH inside a
 * `sequence-frame-rate:` key follows the path rule. When several entries name
 * the same thing, the first one in file order counts.
 */
import type { IspriteDocument, IspriteGroup, IspriteNode, IspriteSequence } from './model.js';

export const DEFAULT_SEQUENCE_KEY = 'default-sequence';
export const SEQUENCE_FRAME_RATE_PREFIX = 'sequence-frame-rate:';
/** The per-sequence rate value meaning "use the sprite's master frame rate". */
export const MASTER_RATE = 255;

/** Lower-cases A-Z only (the document's rule: "case insensitive for the 52 ASCII latin characters"). */
export function foldName(name: string): string {
  let i = 0;
  for (; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 65 && c <= 90) break;
  }
  if (i === name.length) return name;
  let out = name.slice(0, i);
  for (; i < name.length; i++) {
    const c = name.charCodeAt(i);
    out += c >= 65 && c <= 90 ? String.fromCharCode(c + 32) : name[i];
  }
  return out;
}

/** True when two names are equal under the A-Z/a-z case-insensitive rule. */
export function namesEqual(a: string, b: string): boolean {
  return a.length === b.length && foldName(a) === foldName(b);
}

/** The implicit Root group as a group object whose children are the document's tree. */
export function rootGroup(doc: IspriteDocument): IspriteGroup {
  return { kind: 'group', name: 'Root', children: doc.tree };
}

/** Splits a path into segments; null when it does not start with `Root`. */
export function pathSegments(path: string): string[] | null {
  const segs = path.split('/');
  if (!namesEqual(segs[0]!, 'Root')) return null;
  return segs.slice(1);
}

function childGroup(children: IspriteNode[], seg: string): IspriteGroup | null {
  const f = foldName(seg);
  for (const n of children) if (n.kind === 'group' && foldName(n.name) === f) return n;
  return null;
}

function directSequence(children: IspriteNode[], name: string): IspriteSequence | null {
  const f = foldName(name);
  for (const n of children) if (n.kind === 'sequence' && foldName(n.name) === f) return n;
  return null;
}

/** The group a path names (`Root` gives the Root group object of {@link rootGroup}); null when none. */
export function findGroup(doc: IspriteDocument, path: string): IspriteGroup | null {
  const segs = pathSegments(path);
  if (!segs) return null;
  let g = rootGroup(doc);
  for (const s of segs) {
    const c = childGroup(g.children, s);
    if (!c) return null;
    g = c;
  }
  return g;
}

/** The sequence a path names (`Root/Armed/attack`); null when none. */
export function findSequence(doc: IspriteDocument, path: string): IspriteSequence | null {
  const segs = pathSegments(path);
  if (!segs || segs.length === 0) return null;
  let children = doc.tree;
  for (let i = 0; i < segs.length - 1; i++) {
    const c = childGroup(children, segs[i]!);
    if (!c) return null;
    children = c.children;
  }
  return directSequence(children, segs[segs.length - 1]!);
}

/** One sequence of the tree with where it is. */
export interface SequenceEntry {
  sequence: IspriteSequence;
  /** `Root/…/name`, built from the stored names. */
  path: string;
  /** The group the sequence is directly in (null for Root). */
  group: IspriteGroup | null;
}

/** Every sequence in file order (depth first), with its path. The order is the sequences' index. */
export function listSequences(doc: IspriteDocument): SequenceEntry[] {
  const out: SequenceEntry[] = [];
  // Depth first in file order, with an explicit stack (a hostile tree may be very deep).
  const stack: { children: IspriteNode[]; i: number; path: string; group: IspriteGroup | null }[] = [
    { children: doc.tree, i: 0, path: 'Root', group: null },
  ];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.i >= top.children.length) {
      stack.pop();
      continue;
    }
    const n = top.children[top.i++]!;
    if (n.kind === 'sequence') out.push({ sequence: n, path: `${top.path}/${n.name}`, group: top.group });
    else if (n.kind === 'group') stack.push({ children: n.children, i: 0, path: `${top.path}/${n.name}`, group: n });
  }
  return out;
}

/** The path of a sequence object of this document (by identity); null when it is not in the tree. */
export function sequencePath(doc: IspriteDocument, sequence: IspriteSequence): string | null {
  for (const e of listSequences(doc)) if (e.sequence === sequence) return e.path;
  return null;
}

/**
 * The document's "Setting Animation" lookup without a player: the first
 * sequence named `name` among the direct sequences of the group at
 * `groupPath`, then of its parent, and so on up to Root; else the default
 * sequence; else null. Null also when `groupPath` names no group.
 */
export function lookupSequence(doc: IspriteDocument, groupPath: string, name: string): IspriteSequence | null {
  const segs = pathSegments(groupPath);
  if (!segs) return null;
  const chain: IspriteNode[][] = [doc.tree];
  for (const s of segs) {
    const c = childGroup(chain[chain.length - 1]!, s);
    if (!c) return null;
    chain.push(c.children);
  }
  for (let i = chain.length - 1; i >= 0; i--) {
    const found = directSequence(chain[i]!, name);
    if (found) return found;
  }
  return getDefaultSequence(doc);
}

function resolveSequenceArg(doc: IspriteDocument, seq: string | IspriteSequence): { sequence: IspriteSequence; path: string } {
  if (typeof seq === 'string') {
    const s = findSequence(doc, seq);
    if (!s) throw new RangeError(`no sequence at path "${seq}"`);
    return { sequence: s, path: sequencePath(doc, s)! };
  }
  const path = sequencePath(doc, seq);
  if (path === null) throw new RangeError(`sequence "${seq.name}" is not in this document's tree`);
  return { sequence: seq, path };
}

/** The raw `default-sequence` value (first entry), or null when there is none. */
export function getDefaultSequencePath(doc: IspriteDocument): string | null {
  for (const [k, v] of doc.extraMeta ?? []) if (k === DEFAULT_SEQUENCE_KEY) return v;
  return null;
}

/** The default sequence: what the first `default-sequence` entry names, or null (none, or it names no sequence). */
export function getDefaultSequence(doc: IspriteDocument): IspriteSequence | null {
  const p = getDefaultSequencePath(doc);
  return p === null ? null : findSequence(doc, p);
}

/**
 * Removes every entry `match` accepts; with `value`, puts [key, value] where
 * the first removed entry was (or at the end). A MET+ chunk emptied by a
 * removal becomes null (no chunk); one never present is created on demand.
 */
function replaceEntries(doc: IspriteDocument, match: (key: string) => boolean, entry: [string, string] | null): void {
  const list = doc.extraMeta ?? [];
  const out: [string, string][] = [];
  let at = -1;
  for (const e of list) {
    if (match(e[0])) {
      if (at < 0) at = out.length;
    } else out.push(e);
  }
  if (entry) out.splice(at < 0 ? out.length : at, 0, entry);
  doc.extraMeta = out.length === 0 && (list.length > 0 || doc.extraMeta === null) ? null : out;
}

/**
 * Sets (or with null removes) the default sequence: a path or a sequence
 * object of the tree. The stored value is the sequence's own path. Throws a
 * RangeError when the path names no sequence.
 */
export function setDefaultSequence(doc: IspriteDocument, seq: string | IspriteSequence | null): void {
  if (seq === null) {
    replaceEntries(doc, (k) => k === DEFAULT_SEQUENCE_KEY, null);
    return;
  }
  const { path } = resolveSequenceArg(doc, seq);
  replaceEntries(doc, (k) => k === DEFAULT_SEQUENCE_KEY, [DEFAULT_SEQUENCE_KEY, path]);
}

/** Parses a `sequence-frame-rate` value: a decimal whole number 0-255, else null. */
export function parseFrameRateValue(value: string): number | null {
  if (!/^\d{1,3}$/.test(value)) return null;
  const n = Number(value);
  return n <= 255 ? n : null;
}

/**
 * Every sequence's stored rate, by sequence object: the first valid
 * `sequence-frame-rate:PATH` entry whose PATH names it. Entries naming no
 * sequence or with a bad value are ignored here (see {@link checkPlaybackMeta}).
 */
export function sequenceFrameRates(doc: IspriteDocument): Map<IspriteSequence, number> {
  const rates = new Map<IspriteSequence, number>();
  for (const [k, v] of doc.extraMeta ?? []) {
    if (!k.startsWith(SEQUENCE_FRAME_RATE_PREFIX)) continue;
    const s = findSequence(doc, k.slice(SEQUENCE_FRAME_RATE_PREFIX.length));
    const r = parseFrameRateValue(v);
    if (s && r !== null && !rates.has(s)) rates.set(s, r);
  }
  return rates;
}

/** The stored rate of a sequence (0-255, 255 = master), or null when no entry sets it. */
export function getSequenceFrameRate(doc: IspriteDocument, seq: string | IspriteSequence): number | null {
  const { sequence } = resolveSequenceArg(doc, seq);
  return sequenceFrameRates(doc).get(sequence) ?? null;
}

/** The rate the sequence plays at: its stored rate unless absent or 255, else the master rate. */
export function effectiveFrameRate(doc: IspriteDocument, seq: string | IspriteSequence): number {
  const r = getSequenceFrameRate(doc, seq);
  return r === null || r === MASTER_RATE ? doc.frameRate : r;
}

/**
 * Sets a sequence's rate (a whole number 0-255; 255 = master; 0 = the
 * application steps by hand), or with null removes it. Every entry naming
 * the sequence is replaced by one `sequence-frame-rate:PATH` entry with its
 * own path. Throws a RangeError for a bad rate or a path naming no sequence.
 */
export function setSequenceFrameRate(doc: IspriteDocument, seq: string | IspriteSequence, rate: number | null): void {
  if (rate !== null && !(Number.isInteger(rate) && rate >= 0 && rate <= 255)) {
    throw new RangeError(`a sequence frame rate is a whole number 0-255, not ${rate}`);
  }
  const { sequence, path } = resolveSequenceArg(doc, seq);
  const names = (k: string): boolean =>
    k.startsWith(SEQUENCE_FRAME_RATE_PREFIX) && findSequence(doc, k.slice(SEQUENCE_FRAME_RATE_PREFIX.length)) === sequence;
  replaceEntries(doc, names, rate === null ? null : [SEQUENCE_FRAME_RATE_PREFIX + path, String(rate)]);
}

/**
 * Problems with the project's MET+ keys, as warning texts (for `validate`):
 * a default sequence naming no sequence, a rate naming no sequence, a bad
 * rate value, and duplicates that are ignored.
 */
export function checkPlaybackMeta(doc: IspriteDocument): string[] {
  const out: string[] = [];
  let sawDefault = false;
  const seen = new Set<IspriteSequence>();
  for (const [k, v] of doc.extraMeta ?? []) {
    if (k === DEFAULT_SEQUENCE_KEY) {
      if (sawDefault) out.push(`MET+ ${k} appears again ("${v}"); only the first counts`);
      else if (!findSequence(doc, v)) out.push(`MET+ ${k} "${v}" names no sequence`);
      sawDefault = true;
    } else if (k.startsWith(SEQUENCE_FRAME_RATE_PREFIX)) {
      const p = k.slice(SEQUENCE_FRAME_RATE_PREFIX.length);
      const s = findSequence(doc, p);
      if (!s) out.push(`MET+ ${k}: "${p}" names no sequence`);
      if (parseFrameRateValue(v) === null) out.push(`MET+ ${k} = "${v}" is not a whole number 0-255`);
      else if (s && seen.has(s)) out.push(`MET+ ${k}: a rate for this sequence was already given; only the first counts`);
      else if (s) seen.add(s);
    }
  }
  return out;
}
