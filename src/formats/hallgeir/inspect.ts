/** `inspect --json` (docs/spec/hallgeir.md's shapes, keys in its order) and the readable summary. */
import { printableLines } from '../../binary/errors.js';
import type { HallgeirDocument, HallgeirMap, HallgeirObject, HallgeirSprite } from './model.js';
import { FORMAT_NAMES } from './model.js';
import { frameChain } from './play.js';
import { JsonList, jsonMap } from '../../binary/json-array.js';
import { compactFrames, compactObjects, framesOf, objectsOf } from './compact.js';
import { TextContext, framesJsonText, objectsJsonText } from './json-text.js';

export function inspectJson(doc: HallgeirDocument): unknown {
  const format = FORMAT_NAMES[doc.kind];
  if (doc.kind === 'sprite') {
    const ctx = new TextContext();
    return {
      format,
      littleEndian: doc.littleEndian,
      name: doc.name,
      texture: doc.texture,
      animations: jsonMap(doc.animations, (a) => {
        const c = compactFrames(a);
        if (!c) return { name: a.name, frames: jsonMap(a.frames, (f) => ({ x: f.x, y: f.y, delay: f.delay, next: f.next })) };
        // A compact animation: the text written from its records (the items made from them when asked for).
        const t = framesOf(a);
        const list = new JsonList(t.length, (i) => ({ x: t.x(i), y: t.y(i), delay: t.delay(i), next: t.next(i) }));
        return { name: a.name, frames: framesJsonText(c, list, ctx) };
      }),
    };
  }
  if (doc.kind === 'object') return { format, littleEndian: doc.littleEndian, name: doc.name, sprite: doc.sprite };
  return {
    format,
    littleEndian: doc.littleEndian,
    textures: jsonMap(doc.textures, (t) => ({ path: t.path, name: t.name })),
    objects: mapObjectsJson(doc),
  };
}

function mapObjectsJson(m: HallgeirMap): JsonList {
  const c = compactObjects(m);
  if (!c) return jsonMap(m.objects, (o) => ({ x: o.x, y: o.y, object: o.object }));
  // A compact map: the text written from its typed arrays (the items made from them when asked for).
  const t = objectsOf(m);
  return objectsJsonText(c, new JsonList(t.length, (i) => ({ x: t.x(i), y: t.y(i), object: t.object(i) })));
}

const order = (le: boolean) => (le ? 'little-endian' : 'big-endian');
const q = (s: string) => JSON.stringify(s);

function spriteText(s: HallgeirSprite): string {
  const lines = [
    `Hallgeir sprite ${q(s.name)} (${order(s.littleEndian)})`,
    `texture: ${q(s.texture)}`,
    `animations: ${s.animations.length}`,
  ];
  for (const a of s.animations) {
    const { chain, loopTo, dropped } = frameChain(a);
    const frames = framesOf(a);
    const cycle = loopTo === null ? 0 : chain.slice(loopTo).reduce((sum, j) => sum + frames.delay(j), 0);
    const how =
      frames.length === 0
        ? 'no frames'
        : loopTo === null
          ? `plays ${chain.length} frame${chain.length === 1 ? '' : 's'} then holds frame ${chain[chain.length - 1]}`
          : `loops back to frame ${chain[loopTo]} (a cycle of ${chain.length - loopTo} frame${chain.length - loopTo === 1 ? '' : 's'}, ${Number(cycle.toFixed(6))} s)`;
    lines.push(
      `  ${q(a.name)}: ${frames.length} frame${frames.length === 1 ? '' : 's'}, ${how}${dropped.length ? `; never shown: ${dropped.join(', ')}` : ''}`,
    );
    for (let i = 0; i < frames.length; i++) {
      lines.push(`    ${i}: at (${frames.x(i)}, ${frames.y(i)}), delay ${frames.delay(i)} s, next ${frames.next(i)}`);
    }
  }
  return printableLines(lines);
}

function objectText(o: HallgeirObject): string {
  return printableLines([`Hallgeir object ${q(o.name)} (${order(o.littleEndian)})`, `sprite: ${q(o.sprite)}`]);
}

function mapText(m: HallgeirMap): string {
  const lines = [`Hallgeir map (${order(m.littleEndian)})`, `textures: ${m.textures.length}`];
  for (const t of m.textures) lines.push(`  ${q(t.name)}: ${q(t.path)}`);
  const objects = objectsOf(m);
  lines.push(`objects: ${objects.length}`);
  for (let i = 0; i < objects.length; i++) lines.push(`  (${objects.x(i)}, ${objects.y(i)}): ${q(objects.object(i))}`);
  return printableLines(lines);
}

export function inspectText(doc: HallgeirDocument): string {
  return doc.kind === 'sprite' ? spriteText(doc) : doc.kind === 'object' ? objectText(doc) : mapText(doc);
}
