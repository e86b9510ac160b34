/**
 * Walking and searching the ISPRITE group tree: paths (`Root/Armed/attack`),
 * the case-insensitive name rule (A-Z/a-z only), sequence lookup up the
 * group tree, and the project's MET+ keys (erratum 6).
 */
import type { IspriteDocument, IspriteGroup, IspriteNode, IspriteSequence } from './model.js';

export const DEFAULT_SEQUENCE_KEY = 'default-sequence';
export const SEQUENCE_FRAME_RATE_PREFIX = 'sequence-frame-rate:';

/** Folds A-Z to a-z only (the document's "52 ASCII latin characters"). */
export function foldName(s: string): string {
  return s.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));
}

export function namesEqual(a: string, b: string): boolean {
  return a.length === b.length && foldName(a) === foldName(b);
}

/** A group in the tree, with its parent (null for Root) and its path from Root. */
export interface GroupRef {
  name: string;
  children: IspriteNode[];
  parent: GroupRef | null;
  path: string;
}

export interface SequenceRef {
  sequence: IspriteSequence;
  group: GroupRef;
  path: string;
}

export function rootGroup(doc: IspriteDocument): GroupRef {
  return { name: 'Root', children: doc.tree, parent: null, path: 'Root' };
}

/** Every sequence in file order (depth first), with its group and path. Iterative. */
export function allSequences(doc: IspriteDocument): SequenceRef[] {
  const out: SequenceRef[] = [];
  const stack: { group: GroupRef; i: number }[] = [{ group: rootGroup(doc), i: 0 }];
  while (stack.length) {
    const top = stack[stack.length - 1]!;
    if (top.i >= top.group.children.length) {
      stack.pop();
      continue;
    }
    const node = top.group.children[top.i++]!;
    if (node.kind === 'group') {
      stack.push({ group: { name: node.name, children: node.children, parent: top.group, path: `${top.group.path}/${node.name}` }, i: 0 });
    } else {
      out.push({ sequence: node, group: top.group, path: `${top.group.path}/${node.name}` });
    }
  }
  return out;
}

/** Every group (Root included) in file order. */
export function allGroups(doc: IspriteDocument): GroupRef[] {
  const out: GroupRef[] = [];
  const stack: GroupRef[] = [rootGroup(doc)];
  while (stack.length) {
    const g = stack.pop()!;
    out.push(g);
    const kids: GroupRef[] = [];
    for (const n of g.children) {
      if (n.kind === 'group') kids.push({ name: n.name, children: n.children, parent: g, path: `${g.path}/${n.name}` });
    }
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
  return out;
}

function splitPath(path: string): string[] | null {
  const segs = path.split('/');
  if (!namesEqual(segs[0] ?? '', 'Root')) return null;
  return segs.slice(1);
}

/** The group a path names (`Root`, `Root/Armed`), first match per level; null when none. */
export function findGroup(doc: IspriteDocument, path: string): GroupRef | null {
  const segs = splitPath(path);
  if (!segs) return null;
  let g = rootGroup(doc);
  for (const seg of segs) {
    const next = g.children.find((n): n is IspriteGroup => n.kind === 'group' && namesEqual(n.name, seg));
    if (!next) return null;
    g = { name: next.name, children: next.children, parent: g, path: `${g.path}/${next.name}` };
  }
  return g;
}

/** The sequence a path names (`Root/Armed/attack`); null when none. */
export function findSequenceByPath(doc: IspriteDocument, path: string): SequenceRef | null {
  const cut = path.lastIndexOf('/');
  if (cut < 0) return null;
  const g = findGroup(doc, path.slice(0, cut));
  if (!g) return null;
  const name = path.slice(cut + 1);
  const s = g.children.find((n): n is IspriteSequence => n.kind === 'sequence' && namesEqual(n.name, name));
  return s ? { sequence: s, group: g, path: `${g.path}/${s.name}` } : null;
}

/**
 * "Setting Animation": the first sequence called `name` among the direct
 * sequences of `group`, then of its parent, and so on up to Root; null when
 * none (the caller then falls back to the default sequence).
 */
export function resolveSequence(group: GroupRef, name: string): SequenceRef | null {
  for (let g: GroupRef | null = group; g; g = g.parent) {
    for (const n of g.children) {
      if (n.kind === 'sequence' && namesEqual(n.name, name)) return { sequence: n, group: g, path: `${g.path}/${n.name}` };
    }
  }
  return null;
}

/**
 * Path lookups for many paths at once: each group's children are indexed by
 * folded name on first use, so a lookup costs one step per path segment
 * (a hostile file with many MET+ keys and wide groups stays fast).
 */
export function makePathResolver(doc: IspriteDocument): {
  findGroup(path: string): GroupRef | null;
  findSequence(path: string): SequenceRef | null;
} {
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
  const findGroupFast = (path: string): GroupRef | null => {
    const segs = splitPath(path);
    if (!segs) return null;
    let g = rootGroup(doc);
    for (const seg of segs) {
      const next = index(g.children).groups.get(foldName(seg));
      if (!next) return null;
      g = { name: next.name, children: next.children, parent: g, path: `${g.path}/${next.name}` };
    }
    return g;
  };
  return {
    findGroup: findGroupFast,
    findSequence(path: string): SequenceRef | null {
      const cut = path.lastIndexOf('/');
      if (cut < 0) return null;
      const g = findGroupFast(path.slice(0, cut));
      if (!g) return null;
      const s = index(g.children).seqs.get(foldName(path.slice(cut + 1)));
      return s ? { sequence: s, group: g, path: `${g.path}/${s.name}` } : null;
    },
  };
}

/**
 * Every sequence's follow-up, resolved as `resolveSequence` would from the
 * sequence's own group (null: no sequence of that name up the tree; absent:
 * no follow-up). One walk over the tree, whatever its depth.
 */
export function resolveFollowUps(doc: IspriteDocument): Map<IspriteSequence, SequenceRef | null> {
  const out = new Map<IspriteSequence, SequenceRef | null>();
  const scope = new Map<string, SequenceRef[]>();
  type Frame = { group: GroupRef; i: number; pushed: string[] };
  const enter = (group: GroupRef): Frame => {
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
        out.set(n, st && st.length ? st[st.length - 1]! : null);
      }
    }
    return { group, i: 0, pushed };
  };
  const stack: Frame[] = [enter(rootGroup(doc))];
  while (stack.length) {
    const top = stack[stack.length - 1]!;
    const kids = top.group.children;
    while (top.i < kids.length && kids[top.i]!.kind !== 'group') top.i++;
    if (top.i >= kids.length) {
      for (const k of top.pushed) scope.get(k)!.pop();
      stack.pop();
      continue;
    }
    const g = kids[top.i++] as IspriteGroup;
    stack.push(enter({ name: g.name, children: g.children, parent: top.group, path: `${top.group.path}/${g.name}` }));
  }
  return out;
}

/** The value of the first MET+ field with this name (exact match), or undefined. */
export function extraMetaValue(doc: IspriteDocument, key: string): string | undefined {
  return doc.extraMeta?.find(([k]) => k === key)?.[1];
}

/** The default sequence (MET+ `default-sequence`), or null. */
export function defaultSequence(doc: IspriteDocument): SequenceRef | null {
  const v = extraMetaValue(doc, DEFAULT_SEQUENCE_KEY);
  return v === undefined ? null : findSequenceByPath(doc, v);
}

/** Parses a `sequence-frame-rate` value: a decimal 0-255, else null. */
export function parseFrameRate(v: string): number | null {
  if (!/^[0-9]{1,3}$/.test(v)) return null;
  const n = Number(v);
  return n <= 255 ? n : null;
}

/** Per-sequence frame-rate overrides from MET+ (255 = master rate is left out). */
export function sequenceFrameRates(doc: IspriteDocument): Map<IspriteSequence, number> {
  const out = new Map<IspriteSequence, number>();
  const paths = makePathResolver(doc);
  for (const [k, v] of doc.extraMeta ?? []) {
    if (!k.startsWith(SEQUENCE_FRAME_RATE_PREFIX)) continue;
    const ref = paths.findSequence(k.slice(SEQUENCE_FRAME_RATE_PREFIX.length));
    const rate = parseFrameRate(v);
    if (ref && rate !== null && !out.has(ref.sequence)) out.set(ref.sequence, rate);
  }
  for (const [s, r] of out) if (r === 255) out.delete(s);
  return out;
}

/** A sequence's effective frame rate: its MET+ override, else the master rate. */
export function effectiveFrameRate(doc: IspriteDocument, seq: IspriteSequence, rates = sequenceFrameRates(doc)): number {
  return rates.get(seq) ?? doc.frameRate;
}
