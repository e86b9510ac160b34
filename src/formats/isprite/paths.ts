/**
 * The ISPRITE group tree: walking it, sequence and group paths, the
 * document's name rule, the "Setting Animation" lookup, and the project's
 * MET+ keys for what the file layout has no field for (docs/spec/isprite.md, erratum 6):
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
 *
 * Everything here is iterative and indexes group children by folded name, so
 * hostile files (trees tens of thousands of groups deep, wide groups, many
 * MET+ keys) stay fast.
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

/**
 * A group of the tree seen from Root: its name and children (the node's own
 * children array), its parent (null for Root) and its path from Root.
 */
export interface GroupRef extends IspriteGroup {
  parent: GroupRef | null;
  path: string;
}

/** One sequence of the tree with where it is. */
export interface SequenceRef {
  sequence: IspriteSequence;
  /** The group the sequence is directly in (Root's ref for a top-level sequence). */
  group: GroupRef;
  /** `Root/…/name`, built from the stored names. */
  path: string;
}

/** @deprecated the former name of {@link SequenceRef}. */
export type SequenceEntry = SequenceRef;

/** The implicit Root group, whose children are the document's tree. */
export function rootGroup(doc: IspriteDocument): GroupRef {
  return { kind: 'group', name: 'Root', children: doc.tree, parent: null, path: 'Root' };
}

function childRef(parent: GroupRef, g: IspriteGroup): GroupRef {
  return { kind: 'group', name: g.name, children: g.children, parent, path: `${parent.path}/${g.name}` };
}

/** What {@link walkTree} calls; `C` is the caller's per-group context. */
export interface TreeVisitor<C> {
  /** A group is entered (before its children); returns the context for its children. */
  group(node: IspriteGroup, parent: C, path: string): C;
  /** A sequence, with the context of the group it is directly in. */
  sequence(node: IspriteSequence, parent: C, path: string): void;
  /** A group (Root last) is left, after all its children. */
  leave?(ctx: C): void;
}

/**
 * Visits the tree depth first in file order, with an explicit stack (a
 * hostile tree may be very deep). `root` is Root's context.
 */
export function walkTree<C>(doc: IspriteDocument, root: C, v: TreeVisitor<C>): void {
  const stack: { children: IspriteNode[]; i: number; ctx: C; path: string }[] = [{ children: doc.tree, i: 0, ctx: root, path: 'Root' }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.i >= top.children.length) {
      stack.pop();
      v.leave?.(top.ctx);
      continue;
    }
    const n = top.children[top.i++]!;
    const path = `${top.path}/${n.name}`;
    if (n.kind === 'sequence') v.sequence(n, top.ctx, path);
    else if (n.kind === 'group') stack.push({ children: n.children, i: 0, ctx: v.group(n, top.ctx, path), path });
  }
}

/** Every sequence in file order (depth first), with its group and path. The order is the sequences' index. */
export function allSequences(doc: IspriteDocument): SequenceRef[] {
  const out: SequenceRef[] = [];
  walkTree(doc, rootGroup(doc), {
    group: (g, parent) => childRef(parent, g),
    sequence: (sequence, group, path) => void out.push({ sequence, group, path }),
  });
  return out;
}

/** The player's name for {@link allSequences}. */
export const listSequences = allSequences;

/** Every group (Root first) in file order (depth first). */
export function allGroups(doc: IspriteDocument): GroupRef[] {
  const root = rootGroup(doc);
  const out: GroupRef[] = [root];
  walkTree(doc, root, {
    group: (g, parent) => {
      const ref = childRef(parent, g);
      out.push(ref);
      return ref;
    },
    sequence: () => {},
  });
  return out;
}

/** Splits a path into segments; null when it does not start with `Root`. */
export function pathSegments(path: string): string[] | null {
  const segs = path.split('/');
  if (!namesEqual(segs[0]!, 'Root')) return null;
  return segs.slice(1);
}

/** Path lookups, each group's children indexed by folded name on first use. */
export interface PathResolver {
  /** The group a path names (`Root`, `Root/Armed`); null when none. */
  findGroup(path: string): GroupRef | null;
  /** The sequence a path names (`Root/Armed/attack`); null when none. */
  findSequence(path: string): SequenceRef | null;
}

/**
 * Path lookups for many paths at once: each group's children are indexed by
 * folded name on first use (first in file order wins), so a lookup costs one
 * step per path segment (a hostile file with many MET+ keys and wide groups
 * stays fast).
 */
export function makePathResolver(doc: IspriteDocument): PathResolver {
  type Index = { groups: Map<string, IspriteGroup>; seqs: Map<string, IspriteSequence> };
  const cache = new Map<IspriteNode[], Index>();
  const index = (children: IspriteNode[]): Index => {
    let ix = cache.get(children);
    if (!ix) {
      ix = { groups: new Map(), seqs: new Map() };
      for (const n of children) {
        const k = foldName(n.name);
        if (n.kind === 'group') {
          if (!ix.groups.has(k)) ix.groups.set(k, n);
        } else if (!ix.seqs.has(k)) ix.seqs.set(k, n);
      }
      cache.set(children, ix);
    }
    return ix;
  };
  const walk = (segs: string[], n: number): GroupRef | null => {
    let g = rootGroup(doc);
    for (let i = 0; i < n; i++) {
      const next = index(g.children).groups.get(foldName(segs[i]!));
      if (!next) return null;
      g = childRef(g, next);
    }
    return g;
  };
  return {
    findGroup(path) {
      const segs = pathSegments(path);
      return segs ? walk(segs, segs.length) : null;
    },
    findSequence(path) {
      const segs = pathSegments(path);
      if (!segs || segs.length === 0) return null;
      const g = walk(segs, segs.length - 1);
      if (!g) return null;
      const s = index(g.children).seqs.get(foldName(segs[segs.length - 1]!));
      return s ? { sequence: s, group: g, path: `${g.path}/${s.name}` } : null;
    },
  };
}

/** The group a path names (`Root` gives {@link rootGroup}); null when none. */
export function findGroup(doc: IspriteDocument, path: string): GroupRef | null {
  return makePathResolver(doc).findGroup(path);
}

/** The sequence a path names (`Root/Armed/attack`), with its group and path; null when none. */
export function findSequenceByPath(doc: IspriteDocument, path: string): SequenceRef | null {
  return makePathResolver(doc).findSequence(path);
}

/** The sequence a path names (`Root/Armed/attack`); null when none. */
export function findSequence(doc: IspriteDocument, path: string): IspriteSequence | null {
  return findSequenceByPath(doc, path)?.sequence ?? null;
}

/** The path of a sequence object of this document (by identity); null when it is not in the tree. */
export function sequencePath(doc: IspriteDocument, sequence: IspriteSequence): string | null {
  for (const e of allSequences(doc)) if (e.sequence === sequence) return e.path;
  return null;
}

/**
 * "Setting Animation": the first sequence called `name` among the direct
 * sequences of `group`, then of its parent, and so on up to Root; null when
 * none (the caller then falls back to the default sequence).
 */
export function resolveSequence(group: GroupRef, name: string): SequenceRef | null {
  const f = foldName(name);
  for (let g: GroupRef | null = group; g; g = g.parent) {
    for (const n of g.children) {
      if (n.kind === 'sequence' && foldName(n.name) === f) return { sequence: n, group: g, path: `${g.path}/${n.name}` };
    }
  }
  return null;
}

/**
 * The document's "Setting Animation" lookup without a player: the first
 * sequence named `name` among the direct sequences of the group at
 * `groupPath`, then of its parent, and so on up to Root; else the default
 * sequence; else null. Null also when `groupPath` names no group.
 */
export function lookupSequence(doc: IspriteDocument, groupPath: string, name: string): IspriteSequence | null {
  const g = findGroup(doc, groupPath);
  if (!g) return null;
  return resolveSequence(g, name)?.sequence ?? getDefaultSequence(doc);
}

/**
 * Every sequence's follow-up, resolved as {@link resolveSequence} would from
 * the sequence's own group (null: no sequence of that name up the tree;
 * absent: no follow-up). One walk over the tree, whatever its depth.
 */
export function resolveFollowUps(doc: IspriteDocument): Map<IspriteSequence, SequenceRef | null> {
  const out = new Map<IspriteSequence, SequenceRef | null>();
  // For each folded name, the visible sequences of that name, innermost last.
  const scope = new Map<string, SequenceRef[]>();
  type Ctx = { group: GroupRef; pushed: string[] };
  const enter = (group: GroupRef): Ctx => {
    const pushed: string[] = [];
    const seen = new Set<string>();
    for (const n of group.children) {
      if (n.kind !== 'sequence') continue;
      const k = foldName(n.name);
      if (seen.has(k)) continue;
      seen.add(k);
      let st = scope.get(k);
      if (!st) scope.set(k, (st = []));
      st.push({ sequence: n, group, path: `${group.path}/${n.name}` });
      pushed.push(k);
    }
    for (const n of group.children) {
      if (n.kind === 'sequence' && n.followUp !== '') {
        const st = scope.get(foldName(n.followUp));
        out.set(n, st?.length ? st[st.length - 1]! : null);
      }
    }
    return { group, pushed };
  };
  walkTree(doc, enter(rootGroup(doc)), {
    group: (g, parent) => enter(childRef(parent.group, g)),
    sequence: () => {},
    leave: (ctx) => {
      for (const k of ctx.pushed) scope.get(k)!.pop();
    },
  });
  return out;
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

/** One MET+ entry with a key of erratum 6, as the rules read it. */
export interface PlaybackMetaEntry {
  /** Index in `extraMeta`. */
  index: number;
  kind: 'default-sequence' | 'sequence-frame-rate';
  key: string;
  value: string;
  /** The PATH: the value of `default-sequence`, the key's tail of `sequence-frame-rate:`. */
  path: string;
  /** The sequence PATH names, or null. */
  sequence: IspriteSequence | null;
  /** `sequence-frame-rate` only: the value as a rate 0-255, or null when it is not one. */
  rate: number | null;
  /**
   * An earlier entry already counts, so this one is ignored: any earlier
   * `default-sequence`; an earlier valid rate for the same sequence (only set
   * on valid rate entries).
   */
  repeat: boolean;
}

/**
 * The document's `default-sequence` and `sequence-frame-rate:PATH` entries
 * in file order, resolved with one indexed path lookup each.
 */
export function playbackMetaEntries(doc: IspriteDocument): PlaybackMetaEntry[] {
  const out: PlaybackMetaEntry[] = [];
  const list = doc.extraMeta ?? [];
  let paths: PathResolver | null = null;
  let sawDefault = false;
  const rated = new Set<IspriteSequence>();
  for (let index = 0; index < list.length; index++) {
    const [key, value] = list[index]!;
    if (key === DEFAULT_SEQUENCE_KEY) {
      paths ??= makePathResolver(doc);
      const sequence = paths.findSequence(value)?.sequence ?? null;
      out.push({ index, kind: DEFAULT_SEQUENCE_KEY, key, value, path: value, sequence, rate: null, repeat: sawDefault });
      sawDefault = true;
    } else if (key.startsWith(SEQUENCE_FRAME_RATE_PREFIX)) {
      paths ??= makePathResolver(doc);
      const path = key.slice(SEQUENCE_FRAME_RATE_PREFIX.length);
      const sequence = paths.findSequence(path)?.sequence ?? null;
      const rate = parseFrameRateValue(value);
      const valid = sequence !== null && rate !== null;
      out.push({ index, kind: 'sequence-frame-rate', key, value, path, sequence, rate, repeat: valid && rated.has(sequence) });
      if (valid) rated.add(sequence);
    }
  }
  return out;
}

/** The value of the first MET+ entry with this name (exact match), or undefined. */
export function extraMetaValue(doc: IspriteDocument, key: string): string | undefined {
  for (const [k, v] of doc.extraMeta ?? []) if (k === key) return v;
  return undefined;
}

/** The raw `default-sequence` value (first entry), or null when there is none. */
export function getDefaultSequencePath(doc: IspriteDocument): string | null {
  return extraMetaValue(doc, DEFAULT_SEQUENCE_KEY) ?? null;
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

/** Parses a `sequence-frame-rate` value: a decimal whole number 0-255 (plain digits, at most 3), else null. */
export function parseFrameRateValue(value: string): number | null {
  if (!/^[0-9]{1,3}$/.test(value)) return null;
  const n = Number(value);
  return n <= 255 ? n : null;
}

/**
 * Every sequence's stored rate (0-255, 255 = master), by sequence object: the
 * first valid `sequence-frame-rate:PATH` entry whose PATH names it. Entries
 * naming no sequence or with a bad value are ignored here (see
 * {@link checkPlaybackMeta}).
 */
export function sequenceFrameRates(doc: IspriteDocument): Map<IspriteSequence, number> {
  const rates = new Map<IspriteSequence, number>();
  for (const e of playbackMetaEntries(doc)) {
    if (e.sequence && e.rate !== null && !e.repeat) rates.set(e.sequence, e.rate);
  }
  return rates;
}

/** The sequences that play at their own rate: {@link sequenceFrameRates} without the 255 (master rate) entries. */
export function frameRateOverrides(doc: IspriteDocument): Map<IspriteSequence, number> {
  const rates = sequenceFrameRates(doc);
  for (const [s, r] of rates) if (r === MASTER_RATE) rates.delete(s);
  return rates;
}

/** The stored rate of a sequence (0-255, 255 = master), or null when no entry sets it. */
export function getSequenceFrameRate(doc: IspriteDocument, seq: string | IspriteSequence): number | null {
  const { sequence } = resolveSequenceArg(doc, seq);
  return sequenceFrameRates(doc).get(sequence) ?? null;
}

/**
 * The rate the sequence plays at: its stored rate unless absent or 255, else
 * the master rate. With `rates` (from {@link sequenceFrameRates} or
 * {@link frameRateOverrides} of this document), a sequence object is looked
 * up there directly, without checking that it is in the tree.
 */
export function effectiveFrameRate(doc: IspriteDocument, seq: string | IspriteSequence, rates?: Map<IspriteSequence, number>): number {
  const r = rates && typeof seq !== 'string' ? (rates.get(seq) ?? null) : getSequenceFrameRate(doc, seq);
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
  const paths = makePathResolver(doc);
  const names = (k: string): boolean =>
    k.startsWith(SEQUENCE_FRAME_RATE_PREFIX) && paths.findSequence(k.slice(SEQUENCE_FRAME_RATE_PREFIX.length))?.sequence === sequence;
  replaceEntries(doc, names, rate === null ? null : [SEQUENCE_FRAME_RATE_PREFIX + path, String(rate)]);
}

/**
 * Problems with the project's MET+ keys, as warning texts (for `validate`):
 * a default sequence naming no sequence, a rate naming no sequence, a bad
 * rate value, and duplicates that are ignored.
 */
export function checkPlaybackMeta(doc: IspriteDocument): string[] {
  const out: string[] = [];
  for (const { kind, key: k, value: v, path: p, sequence, rate, repeat } of playbackMetaEntries(doc)) {
    if (kind === DEFAULT_SEQUENCE_KEY) {
      if (repeat) out.push(`MET+ ${k} appears again ("${v}"); only the first counts`);
      else if (!sequence) out.push(`MET+ ${k} "${v}" names no sequence`);
    } else {
      if (!sequence) out.push(`MET+ ${k}: "${p}" names no sequence`);
      if (rate === null) out.push(`MET+ ${k} = "${v}" is not a whole number 0-255`);
      else if (repeat) out.push(`MET+ ${k}: a rate for this sequence was already given; only the first counts`);
    }
  }
  return out;
}
