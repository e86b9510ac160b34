/**
 * `inspect` for ISPRITE: the JSON of docs/spec/isprite.md (keys in its order)
 * and a readable summary.
 */
import { printableLines } from '../../binary/errors.js';
import { JsonList, jsonMap } from '../../binary/json-array.js';
import { compactElements, elementCount } from './compact.js';
import { framesJsonText } from './frames-json.js';
import { expandedFields, type IspriteDate, type IspriteDocument, type IspriteElement, type IspriteFrame } from './model.js';
import { allSequences, frameRateOverrides, getDefaultSequence, walkTree } from './paths.js';

function dateJson(d: IspriteDate | null): unknown {
  if (!d) return null;
  return { year: d.year, month: d.month, day: d.day, hour: d.hour, minute: d.minute, second: d.second, centisecond: d.centisecond };
}

export function elementJson(el: IspriteElement, doc?: IspriteDocument): unknown {
  switch (el.type) {
    case 'graphic': {
      const base = {
        type: 'graphic',
        expanded: el.expanded,
        name: el.name,
        slice: el.slice,
        x: el.x,
        y: el.y,
        flipX: el.flipX,
        flipY: el.flipY,
      };
      return el.expanded ? { ...base, ...expandedFields(el, doc) } : base;
    }
    case 'attachment':
      return {
        type: 'attachment',
        name: el.name,
        id: el.id,
        x: el.x,
        y: el.y,
        flipX: el.flipX,
        flipY: el.flipY,
        rotation: el.rotation,
        scaleX: el.scaleX,
        scaleY: el.scaleY,
        opacity: el.opacity,
      };
    case 'rect':
      return { type: 'rect', name: el.name, id: el.id, x: el.x, y: el.y, width: el.width, height: el.height, rotation: el.rotation };
    case 'circle':
      return { type: 'circle', name: el.name, id: el.id, x: el.x, y: el.y, radius: el.radius };
    case 'unknown':
      return { type: 'unknown', marker: el.marker, name: el.name, size: el.data.length };
  }
}

/**
 * A frame's elements as JSON, each made when it is written: a compact
 * frame's (compact.ts) straight from its records, the frame left compact.
 * An element made from a record has the keys of its JSON, in order, and
 * every expanded field: it is its own JSON (but an unknown one).
 */
function elementsJson(f: IspriteFrame, doc: IspriteDocument): JsonList<unknown> {
  const c = compactElements(f);
  if (!c) return jsonMap(f.elements, (e) => elementJson(e, doc));
  const store = c.store;
  // The writer asks for the items in order: each record is found from the one before.
  let last = 0;
  let q = c.at;
  return new JsonList(c.count, (j) => {
    if (j < last) {
      last = 0;
      q = c.at;
    }
    for (; last < j; last++) q = store.next(q);
    const el = store.element(q);
    return el.type === 'unknown' ? elementJson(el, doc) : el;
  });
}

/** The frames' JSON as objects, each frame's made when it is written. */
function framesJson(doc: IspriteDocument): JsonList<unknown> {
  return jsonMap(doc.frames, (f) => ({
    holdTime: f.holdTime,
    loopPoint: f.loopPoint,
    label: f.label,
    triggers: f.triggers,
    notes: f.notes,
    elements: elementsJson(f, doc),
  }));
}

/** The tree as JSON, built without recursion. */
function treeJson(doc: IspriteDocument): unknown[] {
  const root: unknown[] = [];
  walkTree(doc, root, {
    group: (n, out) => {
      const children: unknown[] = [];
      out.push({ group: n.name, children });
      return children;
    },
    sequence: (n, out) => void out.push({ sequence: n.name, loopPoint: n.loopPoint, followUp: n.followUp, frames: n.frames }),
  });
  return root;
}

export function inspectIspriteJson(doc: IspriteDocument): unknown {
  const m = doc.meta;
  return {
    format: 'isprite',
    version: [doc.version[0], doc.version[1]],
    nonStandard: doc.nonStandard,
    workFile: doc.workFile,
    nonStandardId: doc.nonStandardId,
    frameRate: doc.frameRate,
    meta: m
      ? {
          created: dateJson(m.created),
          saved: dateJson(m.saved),
          workTimeMs: Number(m.workTimeMs),
          tags: m.tags,
          title: m.title,
          project: m.project,
          author: m.author,
          company: m.company,
          contact: m.contact,
          url: m.url,
          copyright: m.copyright,
          comments: m.comments,
          originatingProgram: m.originatingProgram,
          program: m.program,
        }
      : null,
    extraMeta: doc.extraMeta ? doc.extraMeta.map(([k, v]) => [k, v]) : null,
    textures: doc.textures.map((t) => ({ path: t.path, nearest: t.nearest })),
    slices: jsonMap(doc.slices, (s) => ({ texture: s.texture, rotated: s.rotated, x: s.x, y: s.y, width: s.width, height: s.height })),
    names: [...doc.names],
    tree: treeJson(doc),
    // Written from the element records when the frames are as read (frames-json.ts), else made as objects.
    frames: framesJsonText(doc.frames, framesJson(doc)) ?? framesJson(doc),
    unknownChunks: doc.unknownChunks.map((c) => ({ id: c.id, size: c.data.length })),
  };
}

function fmtDate(d: IspriteDate | null): string {
  if (!d) return 'unknown';
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(d.year, 4)}-${p(d.month)}-${p(d.day)} ${p(d.hour)}:${p(d.minute)}:${p(d.second)}.${p(d.centisecond)} UTC`;
}

export function inspectIspriteText(doc: IspriteDocument): string {
  const L: string[] = [];
  const flags = [
    doc.nonStandard ? `non-standard${doc.nonStandardId ? ` (${doc.nonStandardId})` : ''}` : '',
    doc.workFile ? 'work file' : '',
  ]
    .filter(Boolean)
    .join(', ');
  L.push(`ISPRITE ${doc.version[0]}.${doc.version[1]}${flags ? `, ${flags}` : ''}, ${doc.frameRate} frames per second`);
  const m = doc.meta;
  if (m) {
    const fields: [string, string][] = [
      ['title', m.title],
      ['tags', m.tags],
      ['project', m.project],
      ['author', m.author],
      ['company', m.company],
      ['contact', m.contact],
      ['url', m.url],
      ['copyright', m.copyright],
      ['comments', m.comments],
      ['originating program', m.originatingProgram],
      ['program', m.program],
    ];
    for (const [k, v] of fields) if (v) L.push(`${k}: ${v}`);
    L.push(`created: ${fmtDate(m.created)}; saved: ${fmtDate(m.saved)}; work time: ${m.workTimeMs} ms`);
  }
  if (doc.extraMeta?.length) {
    L.push(`extra metadata (${doc.extraMeta.length}):`);
    for (const [k, v] of doc.extraMeta) L.push(`  ${k} = ${v}`);
  }
  const elements = doc.frames.reduce((n, f) => n + elementCount(f), 0);
  const seqs = allSequences(doc);
  L.push(
    `${doc.textures.length} texture${doc.textures.length === 1 ? '' : 's'}, ${doc.slices.length} slice${doc.slices.length === 1 ? '' : 's'}, ` +
      `${doc.names.length} name${doc.names.length === 1 ? '' : 's'}, ${seqs.length} sequence${seqs.length === 1 ? '' : 's'}, ` +
      `${doc.frames.length} frame${doc.frames.length === 1 ? '' : 's'}, ${elements} element${elements === 1 ? '' : 's'}`,
  );
  if (doc.textures.length) {
    L.push('textures:');
    doc.textures.forEach((t, i) => L.push(`  ${i}: ${t.path}${t.nearest ? ' (nearest)' : ''}`));
  }
  if (doc.names.length) L.push(`names: ${doc.names.map((n, i) => `${i}=${n}`).join(', ')}`);
  const def = getDefaultSequence(doc);
  const rates = frameRateOverrides(doc);
  L.push('Root');
  // Deep trees are indented at most 32 levels (a hostile file could nest thousands).
  const indent = (depth: number) => (depth <= 32 ? '  '.repeat(depth) : `${'  '.repeat(32)}[depth ${depth}] `);
  walkTree(doc, 1, {
    group: (n, depth) => {
      L.push(`${indent(depth)}${n.name}/`);
      return depth + 1;
    },
    sequence: (n, depth) => {
      const extra: string[] = [];
      extra.push(`${n.frames.length} frame${n.frames.length === 1 ? '' : 's'}`);
      if (n.followUp) extra.push(`then ${n.followUp}`);
      else extra.push(n.loopPoint === null || n.loopPoint >= n.frames.length ? 'stops' : `loops to ${n.loopPoint}`);
      const r = rates.get(n);
      if (r !== undefined) extra.push(`${r} fps`);
      if (def === n) extra.push('default');
      const ids = n.frames.length > 12 ? `${n.frames.slice(0, 12).join(' ')} ...` : n.frames.join(' ');
      L.push(`${indent(depth)}${n.name} (${extra.join(', ')}): ${ids}`);
    },
  });
  if (doc.unknownChunks.length) {
    L.push(`unknown chunks: ${doc.unknownChunks.map((c) => `${c.id} (${c.data.length} bytes)`).join(', ')}`);
  }
  return printableLines(L) + '\n';
}
