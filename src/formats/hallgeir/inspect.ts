/** `inspect --json` (the contract's shapes, keys in its order) and the readable summary. */
import type { HallgeirDocument, HallgeirMap, HallgeirObject, HallgeirSprite } from './model.js';
import { FORMAT_NAMES } from './model.js';
import { frameChain } from './play.js';
import { jsonMap } from '../../binary/json-array.js';

export function inspectJson(doc: HallgeirDocument): unknown {
  const format = FORMAT_NAMES[doc.kind];
  if (doc.kind === 'sprite') {
    return {
      format,
      littleEndian: doc.littleEndian,
      name: doc.name,
      texture: doc.texture,
      animations: jsonMap(doc.animations, (a) => ({
        name: a.name,
        frames: jsonMap(a.frames, (f) => ({ x: f.x, y: f.y, delay: f.delay, next: f.next })),
      })),
    };
  }
  if (doc.kind === 'object') return { format, littleEndian: doc.littleEndian, name: doc.name, sprite: doc.sprite };
  return {
    format,
    littleEndian: doc.littleEndian,
    textures: jsonMap(doc.textures, (t) => ({ path: t.path, name: t.name })),
    objects: jsonMap(doc.objects, (o) => ({ x: o.x, y: o.y, object: o.object })),
  };
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
    const cycle = loopTo === null ? 0 : chain.slice(loopTo).reduce((sum, j) => sum + a.frames[j]!.delay, 0);
    const how =
      a.frames.length === 0
        ? 'no frames'
        : loopTo === null
          ? `plays ${chain.length} frame${chain.length === 1 ? '' : 's'} then holds frame ${chain[chain.length - 1]}`
          : `loops back to frame ${chain[loopTo]} (a cycle of ${chain.length - loopTo} frame${chain.length - loopTo === 1 ? '' : 's'}, ${Number(cycle.toFixed(6))} s)`;
    lines.push(
      `  ${q(a.name)}: ${a.frames.length} frame${a.frames.length === 1 ? '' : 's'}, ${how}${dropped.length ? `; never shown: ${dropped.join(', ')}` : ''}`,
    );
    a.frames.forEach((f, i) => lines.push(`    ${i}: at (${f.x}, ${f.y}), delay ${f.delay} s, next ${f.next}`));
  }
  return lines.join('\n');
}

function objectText(o: HallgeirObject): string {
  return [`Hallgeir object ${q(o.name)} (${order(o.littleEndian)})`, `sprite: ${q(o.sprite)}`].join('\n');
}

function mapText(m: HallgeirMap): string {
  const lines = [`Hallgeir map (${order(m.littleEndian)})`, `textures: ${m.textures.length}`];
  for (const t of m.textures) lines.push(`  ${q(t.name)}: ${q(t.path)}`);
  lines.push(`objects: ${m.objects.length}`);
  for (const o of m.objects) lines.push(`  (${o.x}, ${o.y}): ${q(o.object)}`);
  return lines.join('\n');
}

export function inspectText(doc: HallgeirDocument): string {
  return doc.kind === 'sprite' ? spriteText(doc) : doc.kind === 'object' ? objectText(doc) : mapText(doc);
}
