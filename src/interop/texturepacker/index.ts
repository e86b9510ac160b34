/**
 * TexturePacker's "JSON (Hash)" sheet as PixiJS and Phaser read it: frames
 * with frame / rotated / trimmed / spriteSourceSize / sourceSize / pivot,
 * meta.image / size / scale, and PixiJS's `animations` map. The "JSON
 * (Array)" layout is read too. A rotated frame is stored turned 90°
 * clockwise and takes frame.h × frame.w pixels of the sheet.
 */
import { FormatError, type Diagnostic } from '../../binary/errors.js';
import type { CommandOptions, FormatHandler } from '../../formats/types.js';
import type { LevelModel, ModelAnimation, ModelFrame, SpriteModel } from '../../model/types.js';
import { unusedAnimation } from '../../model/unused.js';
import type { RgbaImage } from '../../render/image.js';
import { ANIMATION_OPTION, FRAME_OPTION, LAYOUT_OPTION, sheetFiles, sheetModelMethods, validateSheetDoc } from '../sheethandler.js';
import { choiceOption } from '../../formats/options.js';
import { baseName, has, JsonReader, type FromJson, key, sniffText } from '../json.js';
import { budgetFrom } from '../../binary/limits.js';
import { buildSheet, frameNames, sheetLossNotes, type SheetFrame as BuiltFrame } from '../sheet.js';
import { frameRecord, framePart, readFrames, type SheetJsonFrame } from '../sheetjson.js';

export interface TexturePackerDoc extends FromJson {
  layout: 'hash' | 'array';
  frames: SheetJsonFrame[];
  /** PixiJS animations: name → frame names, in file order. */
  animations: [string, string[]][];
  meta: {
    app?: string;
    version?: string;
    image?: string;
    format?: string;
    size?: { w: number; h: number };
    scale?: string;
    smartupdate?: string;
  };
  /** The sheet pixels to write next to the JSON (set by fromModel). */
  sheet?: RgbaImage;
}

const FORMAT = 'texturepacker';
/** What a frame lasts when the file does not say (TexturePacker stores no timing). */
export const DEFAULT_DURATION_MS = 100;

export function readTexturePacker(bytes: Uint8Array, r = new JsonReader(FORMAT)): TexturePackerDoc {
  const root = r.obj(r.parse(bytes), '$');
  if (has(root, 'textures') && !has(root, 'frames')) {
    throw r.error('$.textures', 'multi-texture atlases (several sheets) are not supported');
  }
  const { layout, frames } = readFrames(r, root.frames, '$.frames', (o, p, f) => {
    // TexturePacker writes `pivot`; PixiJS reads `anchor` (Phaser: `anchor`, else `pivot`).
    for (const name of ['pivot', 'anchor'] as const) {
      if (!has(o, name)) continue;
      const po = r.obj(o[name], `${p}.${name}`);
      f[name] = { x: r.num(po.x, `${p}.${name}.x`), y: r.num(po.y, `${p}.${name}.y`) };
    }
  });
  const names = new Set(frames.map((f) => f.filename));
  // PixiJS names the frames of the array layout by their index ("0", "1", ...): an entry that is no file name may be one.
  const indexName = (v: string): string | undefined =>
    layout === 'array' && /^(0|[1-9]\d*)$/.test(v) ? frames[Number(v)]?.filename : undefined;
  const animations: [string, string[]][] = [];
  if (has(root, 'animations')) {
    const ao = r.obj(root.animations, '$.animations');
    for (const name of Object.keys(ao)) {
      const p = `$.animations${key(name)}`;
      const list = r.arr(ao[name], p).map((v, i) => {
        const f = r.str(v, `${p}[${i}]`);
        if (names.has(f)) return f;
        const byIndex = indexName(f);
        if (byIndex === undefined) throw r.error(`${p}[${i}]`, `names no frame "${f}"`);
        return byIndex;
      });
      animations.push([name, list]);
    }
  }
  const m = r.obj(root.meta ?? {}, '$.meta');
  const meta: TexturePackerDoc['meta'] = {};
  meta.app = r.optStr(m, 'app', '$.meta');
  meta.version = r.optStr(m, 'version', '$.meta');
  meta.image = r.optStr(m, 'image', '$.meta');
  meta.format = r.optStr(m, 'format', '$.meta');
  if (has(m, 'size')) meta.size = r.size(m.size, '$.meta.size');
  if (has(m, 'scale')) meta.scale = typeof m.scale === 'number' ? String(m.scale) : r.str(m.scale, '$.meta.scale');
  meta.smartupdate = r.optStr(m, 'smartupdate', '$.meta');
  for (const k of Object.keys(meta) as (keyof typeof meta)[]) if (meta[k] === undefined) delete meta[k];
  return r.remember({ layout, frames, animations, meta });
}

export function texturePackerToJson(doc: TexturePackerDoc): Record<string, unknown> {
  const frames =
    doc.layout === 'array'
      ? doc.frames.map((f) => frameRecord(f, 'array', true))
      : Object.fromEntries(doc.frames.map((f) => [f.filename, frameRecord(f, 'hash', true)]));
  const out: Record<string, unknown> = { frames };
  if (doc.animations.length) out.animations = Object.fromEntries(doc.animations);
  out.meta = doc.meta;
  return out;
}

/** The model without pixels: one part per frame, the sprite origin at each frame's pivot. */
export function texturePackerModel(doc: TexturePackerDoc): SpriteModel {
  const notes: string[] = [];
  const byName = new Map<string, ModelFrame>();
  let untimed = false;
  for (const f of doc.frames) {
    // Rounded to a millionth so that a pivot written as origin / size gives the origin back exactly.
    const pivot = f.anchor ?? f.pivot; // as Phaser reads them; PixiJS reads only `anchor`
    const px = Math.round((pivot?.x ?? 0) * f.sourceSize.w * 1e6) / 1e6;
    const py = Math.round((pivot?.y ?? 0) * f.sourceSize.h * 1e6) / 1e6;
    if (f.duration === undefined) untimed = true;
    byName.set(f.filename, { durationMs: f.duration ?? DEFAULT_DURATION_MS, parts: [framePart(f, px, py)], label: f.filename });
  }
  if (untimed && doc.frames.length) notes.push(`texturepacker: frame durations are not stored; ${DEFAULT_DURATION_MS} ms assumed`);
  const copy = (name: string): ModelFrame => {
    const f = byName.get(name)!;
    return { ...f, parts: f.parts.map((p) => ({ ...p })) };
  };
  const name = doc.meta.image ? baseName(doc.meta.image) : 'sprite';
  const animations: ModelAnimation[] = doc.animations.length
    ? doc.animations.map(([n, list]) => ({ name: n, frames: list.map(copy), loopTo: list.length ? 0 : null }))
    : [{ name, frames: doc.frames.map((f) => copy(f.filename)), loopTo: doc.frames.length ? 0 : null }];
  // Frames no animation plays are kept (as an animation marked unused).
  if (doc.animations.length) {
    const played = new Set(doc.animations.flatMap(([, list]) => list));
    const rest = unusedAnimation(
      animations,
      doc.frames.filter((f) => !played.has(f.filename)).map((f) => copy(f.filename)),
    );
    if (rest) animations.push(rest);
  }
  const model: SpriteModel = { kind: 'sprite', name, sheets: [{ path: doc.meta.image ?? '' }], animations };
  if (notes.length) model.notes = notes;
  return model;
}

export function texturePackerFromModel(model: SpriteModel | LevelModel, options: CommandOptions = {}): TexturePackerDoc {
  if (model.kind !== 'sprite') throw new FormatError(FORMAT, 'a level cannot be written as a TexturePacker sheet');
  const notes = sheetLossNotes(model, FORMAT);
  const built = buildSheet(model, FORMAT, budgetFrom(options));
  const names = frameNames(model, (anim, i) => `${anim}/${String(i).padStart(4, '0')}`);
  const pivot = {
    x: built.sourceSize.w ? built.originX / built.sourceSize.w : 0,
    y: built.sourceSize.h ? built.originY / built.sourceSize.h : 0,
  };
  // A label used by several model frames that look and last the same becomes one shared frame entry.
  const labelOf = (bf: BuiltFrame) => model.animations[bf.animation]!.frames[bf.index]!.label;
  const look = (bf: BuiltFrame) => JSON.stringify([bf.frame, bf.spriteSourceSize, bf.durationMs]);
  const looks = new Map<string, Set<string>>();
  for (const bf of built.frames) {
    const l = labelOf(bf);
    if (l !== undefined) looks.set(l, (looks.get(l) ?? new Set()).add(look(bf)));
  }
  const generated = new Set(names.flat());
  const frames: SheetJsonFrame[] = [];
  const emitted = new Set<string>();
  for (const bf of built.frames) {
    const l = labelOf(bf);
    let filename = names[bf.animation]![bf.index]!;
    if (l !== undefined && looks.get(l)!.size === 1 && (!generated.has(l) || filename === l)) filename = l;
    names[bf.animation]![bf.index] = filename;
    if (emitted.has(filename)) continue;
    emitted.add(filename);
    frames.push({
      filename,
      frame: bf.frame,
      rotated: false,
      trimmed: bf.trimmed,
      spriteSourceSize: bf.spriteSourceSize,
      sourceSize: built.sourceSize,
      pivot,
      anchor: pivot,
      duration: Number.isFinite(bf.durationMs) ? bf.durationMs : 0,
    });
  }
  if (model.animations.some((a) => a.frames.some((f) => !Number.isFinite(f.durationMs)))) {
    notes.push('texturepacker: frames shown forever were given duration 0');
  }
  if (model.animations.some((a) => a.loopTo !== 0 && a.frames.length && !a.unused)) {
    notes.push('texturepacker: how animations loop is not stored (players loop from the first frame)');
  }
  const animations: [string, string[]][] = [];
  const taken = new Set<string>();
  model.animations.forEach((a, ai) => {
    if (a.unused) return; // its frames are written, in no animation
    let n = a.direction ? `${a.name}/${a.direction}` : a.name;
    for (let k = 2; taken.has(n); k++) n = `${a.name} (${k})`;
    taken.add(n);
    animations.push([n, names[ai]!]);
  });
  const layout = choiceOption(options, LAYOUT_OPTION) ?? 'hash';
  if (layout === 'array') {
    // PixiJS names array frames by their index, and its `animations` list those names: the file names are the indices.
    const index = new Map(frames.map((f, i) => [f.filename, String(i)]));
    frames.forEach((f, i) => {
      f.filename = String(i);
    });
    for (const a of animations) a[1] = a[1].map((n) => index.get(n)!);
  }
  const doc: TexturePackerDoc = {
    layout,
    frames,
    animations,
    meta: {
      app: 'sprat',
      version: '1.0',
      image: `${model.name}.png`,
      format: 'RGBA8888',
      size: { w: built.image.width, h: built.image.height },
      scale: '1',
    },
    sheet: built.image,
  };
  if (notes.length) model.notes = [...(model.notes ?? []), ...notes];
  return doc;
}

export function sniffTexturePacker(bytes: Uint8Array): boolean {
  const t = sniffText(bytes);
  if (!t) return false;
  const all = t.head + t.tail;
  if (!/"frames"\s*:/.test(t.head) || !/"meta"\s*:/.test(all)) return false;
  if (/"app"\s*:\s*"[^"]*texturepacker/i.test(all)) return true;
  if (/"app"\s*:\s*"[^"]*aseprite/i.test(all)) return false;
  if (/"tiledversion"\s*:|"type"\s*:\s*"map"/.test(all)) return false;
  return /"image"\s*:\s*"/.test(all);
}

export const texturePackerHandler: FormatHandler<TexturePackerDoc> = {
  name: 'texturepacker',
  text: true,
  title: 'TexturePacker JSON sprite sheet (PixiJS, Phaser)',
  extensions: ['.json'],
  sniff: sniffTexturePacker,
  read: (bytes) => readTexturePacker(bytes),
  writeOptions: [LAYOUT_OPTION],
  async writeFiles(doc, outName) {
    return sheetFiles((image) => texturePackerToJson({ ...doc, meta: { ...doc.meta, image } }), doc.sheet, doc.meta.image, outName);
  },
  validate: (bytes): Diagnostic[] => validateSheetDoc(bytes, FORMAT, readTexturePacker),
  inspectJson: (doc) => ({ format: 'texturepacker', layout: doc.layout, ...texturePackerToJson(doc) }),
  inspectText(doc) {
    const lines = [
      `TexturePacker sheet (${doc.layout} layout), ${doc.frames.length} frame(s), image ${doc.meta.image ?? '(none)'}` +
        (doc.meta.size ? ` ${doc.meta.size.w}x${doc.meta.size.h}` : ''),
    ];
    const rotated = doc.frames.filter((f) => f.rotated).length;
    const trimmed = doc.frames.filter((f) => f.trimmed).length;
    lines.push(`  ${rotated} rotated, ${trimmed} trimmed`);
    for (const [n, list] of doc.animations) lines.push(`  animation "${n}": ${list.length} frame(s)`);
    return lines.join('\n') + '\n';
  },
  renderOptions: [ANIMATION_OPTION, FRAME_OPTION],
  ...sheetModelMethods(FORMAT, texturePackerModel),
  fromModel: (model, options) => texturePackerFromModel(model, options),
};
