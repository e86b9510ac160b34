import { printableLines } from '../../binary/errors.js';
import { JsonText, jsonMap, type JsonList } from '../../binary/json-array.js';
import { isJsonPrimitive as prim, joinBytes, jsonBytes, jsonListText, objectParts, type JsonOut } from '../../binary/json-out.js';
import { VIEWS, countsOf, type CthgAnimation, type CthgDocument, type CthgFrame, type CthgSprite } from './model.js';

/** The `inspect --json` object of docs/spec/cthg.md (keys in its order). */
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
    animations: asText(
      jsonMap(doc.animations, (a) => ({
        name: a.name,
        tileSize: a.tileSize,
        frameCount: a.frameCount,
        views: { north: a.views.north, east: a.views.east, south: a.views.south, west: a.views.west },
      })),
      doc.animations,
      plainAnimation,
      animationsText,
    ),
    frames: asText(
      jsonMap(doc.frames, (f) => ({
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
      doc.frames,
      plainFrame,
      framesText,
    ),
    sprites: asText(
      jsonMap(doc.sprites, (s) => ({ width: s.width, height: s.height, dataLength: s.data.length })),
      doc.sprites,
      plainSprite,
      spritesText,
    ),
  };
}

// The three lists' text written straight from the records (src/binary/json-out.ts: no object or string per
// record, so the young generation stays small), when every record's fields are numbers, strings, booleans or
// null as the objects above would hold them; else the objects are written. The text is the same either way
// (test/cthg/inspect-json.test.ts compares it with JSON.stringify's).

type Pad = (n: number) => string;

function asText<S, T>(
  list: JsonList<T>,
  source: readonly S[],
  plain: (s: S) => boolean,
  text: (source: readonly S[], depth: number, pad: Pad) => Iterable<string>,
): JsonList<T> {
  for (let i = 0; i < source.length; i++) if (!plain(source[i]!)) return list;
  return new JsonText(
    list.length,
    (i) => list.at(i),
    (depth, pad) => text(source, depth, pad),
  );
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object';

function plainAnimation(a: CthgAnimation): boolean {
  if (!isObject(a) || !prim(a.name) || !prim(a.tileSize) || !prim(a.frameCount) || !isObject(a.views)) return false;
  for (const v of VIEWS) if (!prim(a.views[v])) return false;
  return true;
}

function plainFrame(f: CthgFrame): boolean {
  if (!isObject(f) || !prim(f.sound) || !Array.isArray(f.elements)) return false;
  for (const e of f.elements) {
    if (!isObject(e) || !prim(e.sprite) || !prim(e.x) || !prim(e.y) || !prim(e.layerClass) || !prim(e.layerId) || !prim(e.flags))
      return false;
  }
  return true;
}

function plainSprite(s: CthgSprite): boolean {
  return isObject(s) && prim(s.width) && prim(s.height) && isObject(s.data) && prim(s.data.length);
}

function animationsText(list: readonly CthgAnimation[], depth: number, pad: Pad): Iterable<string> {
  const a = objectParts(['name', 'tileSize', 'frameCount', 'views'], depth + 1, pad);
  const v = objectParts(VIEWS, depth + 2, pad);
  // Constant parts that follow each other joined (one copy instead of two).
  const viewsOpen = joinBytes(a.lead[3]!, v.lead[0]!);
  const viewsClose = joinBytes(v.close, a.close);
  const [, east, south, west] = v.lead as [Uint8Array, Uint8Array, Uint8Array, Uint8Array];
  return jsonListText(list, depth, pad, (o: JsonOut, x) => {
    o.raw(a.lead[0]!);
    o.value(x.name);
    o.raw(a.lead[1]!);
    o.value(x.tileSize);
    o.raw(a.lead[2]!);
    o.value(x.frameCount);
    const views = x.views;
    o.raw(viewsOpen);
    o.value(views.north);
    o.raw(east);
    o.value(views.east);
    o.raw(south);
    o.value(views.south);
    o.raw(west);
    o.value(views.west);
    o.raw(viewsClose);
  });
}

function framesText(list: readonly CthgFrame[], depth: number, pad: Pad): Iterable<string> {
  const f = objectParts(['sound', 'elements'], depth + 1, pad);
  const e = objectParts(['sprite', 'x', 'y', 'layerClass', 'layerId', 'flags'], depth + 3, pad);
  const [, x, y, layerClass, layerId, flags] = e.lead as [Uint8Array, Uint8Array, Uint8Array, Uint8Array, Uint8Array, Uint8Array];
  // Constant parts that follow each other joined: `"elements": [` to the first element's `"sprite": `, from
  // one element's `}` to the next one's `"sprite": `, and from the last one's `}` to the frame's.
  const empty = joinBytes(f.lead[1]!, jsonBytes('[]'), f.close);
  const open = joinBytes(f.lead[1]!, jsonBytes(`[\n${pad(depth + 3)}`), e.lead[0]!);
  const between = joinBytes(e.close, jsonBytes(`,\n${pad(depth + 3)}`), e.lead[0]!);
  const close = joinBytes(e.close, jsonBytes(`\n${pad(depth + 2)}]`), f.close);
  return jsonListText(list, depth, pad, (o: JsonOut, fr) => {
    o.raw(f.lead[0]!);
    o.value(fr.sound);
    const els = fr.elements;
    if (els.length === 0) {
      o.raw(empty);
      return;
    }
    o.raw(open);
    for (let i = 0; i < els.length; i++) {
      const el = els[i]!;
      if (i > 0) o.raw(between);
      o.value(el.sprite);
      o.raw(x);
      o.value(el.x);
      o.raw(y);
      o.value(el.y);
      o.raw(layerClass);
      o.value(el.layerClass);
      o.raw(layerId);
      o.value(el.layerId);
      o.raw(flags);
      o.value(el.flags);
    }
    o.raw(close);
  });
}

function spritesText(list: readonly CthgSprite[], depth: number, pad: Pad): Iterable<string> {
  const s = objectParts(['width', 'height', 'dataLength'], depth + 1, pad);
  return jsonListText(list, depth, pad, (o: JsonOut, x) => {
    o.raw(s.lead[0]!);
    o.value(x.width);
    o.raw(s.lead[1]!);
    o.value(x.height);
    o.raw(s.lead[2]!);
    o.value(x.data.length);
    o.raw(s.close);
  });
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
  return printableLines(lines) + '\n';
}
