import { jsonMap } from '../../binary/json-array.js';
import { VIEWS, countsOf, type CthgDocument } from './model.js';

/** The contract's `inspect --json` object (keys in the contract's order). */
export function inspectCthgJson(doc: CthgDocument): unknown {
  const header = doc.header ?? countsOf(doc);
  return {
    format: 'cthg',
    version: doc.version,
    header: {
      animations: header.animations,
      frames: header.frames,
      elements: header.elements,
      sprites: header.sprites,
      spriteBytes: header.spriteBytes,
    },
    blockOrder: doc.blockOrder ?? '',
    animations: jsonMap(doc.animations, (a) => ({
      name: a.name,
      tileSize: a.tileSize,
      frameCount: a.frameCount,
      views: { north: a.views.north, east: a.views.east, south: a.views.south, west: a.views.west },
    })),
    frames: jsonMap(doc.frames, (f) => ({
      sound: f.sound,
      elements: f.elements.map((e) => ({
        sprite: e.sprite,
        x: e.x,
        y: e.y,
        layerClass: e.layerClass,
        layerId: e.layerId,
        flags: e.flags,
      })),
    })),
    sprites: jsonMap(doc.sprites, (s) => ({ width: s.width, height: s.height, dataLength: s.data.length })),
  };
}

function flagWords(flags: number): string {
  const w: string[] = [];
  if (flags & 1) w.push('flip-v');
  if (flags & 2) w.push('flip-h');
  if (flags & 4) w.push('alpha50');
  if (flags & 8) w.push('alpha25');
  if (flags & ~15) w.push(`0x${(flags & ~15).toString(16)}`);
  return w.join(',');
}

/** A readable summary. */
export function inspectCthgText(doc: CthgDocument): string {
  const c = countsOf(doc);
  const lines: string[] = [];
  lines.push(`CTHG version ${doc.version} (CorsixTH animations)`);
  lines.push(
    `${c.animations} animation${c.animations === 1 ? '' : 's'}, ${c.frames} frame${c.frames === 1 ? '' : 's'}, ` +
      `${c.elements} element${c.elements === 1 ? '' : 's'}, ${c.sprites} sprite${c.sprites === 1 ? '' : 's'} (${c.spriteBytes} bytes of pixel data)`,
  );
  if (doc.blockOrder) lines.push(`block order: ${doc.blockOrder}`);
  lines.push('', 'animations:');
  for (const a of doc.animations) {
    const views = VIEWS.filter((v) => a.views[v] !== null).map((v) => {
      const f = a.views[v]!;
      return a.frameCount === 1 ? `${v} frame ${f}` : `${v} frames ${f}-${f + a.frameCount - 1}`;
    });
    lines.push(
      `  ${a.name} (tile size ${a.tileSize}, ${a.frameCount} frame${a.frameCount === 1 ? '' : 's'} per view): ${views.join(', ') || 'no views'}`,
    );
  }
  lines.push('', 'frames:');
  doc.frames.forEach((f, i) => {
    const els = f.elements.map((e) => {
      let s = `${e.sprite === null ? 'none' : 'sprite ' + e.sprite} at (${e.x}, ${e.y})`;
      if (e.layerClass || e.layerId) s += ` layer ${e.layerClass}=${e.layerId}`;
      if (e.flags) s += ` [${flagWords(e.flags)}]`;
      return s;
    });
    lines.push(`  ${i}:${f.sound ? ` sound ${f.sound};` : ''} ${els.join('; ') || 'no elements'}`);
  });
  lines.push('', 'sprites:');
  doc.sprites.forEach((s, i) => lines.push(`  ${i}: ${s.width}x${s.height}, ${s.data.length} bytes`));
  return lines.join('\n') + '\n';
}
