/**
 * TexturePacker's "JSON (Hash)" sheet as PixiJS and Phaser read it: frames
 * with frame / rotated / trimmed / spriteSourceSize / sourceSize / pivot,
 * meta.image / size / scale, and PixiJS's `animations` map. The "JSON
 * (Array)" layout is read too. A rotated frame is stored turned 90°
 * clockwise and takes frame.h × frame.w pixels of the sheet.
 */
import { FormatError, isFormatError, type Diagnostic, printableLines } from '../../binary/errors.js';
import { ANIMATION_OPTION, FRAME_OPTION } from '../../formats/selections.js';
import type { CommandOptions, FormatHandler, ResourceLoader } from '../../formats/types.js';
import type { LevelModel, ModelAnimation, ModelFrame, SpriteModel } from '../../model/types.js';
import { unusedAnimation } from '../../model/unused.js';
import type { RgbaImage } from '../../render/image.js';
import {
  LAYOUT_OPTION,
  metaImage,
  SHEET_IMAGE_OPTION,
  type SheetRef,
  sheetFiles,
  sheetModelMethods,
  validateSheetDoc,
} from '../sheethandler.js';
import { dirOf, joinPath, loadResource, type ResourceRequest } from '../../formats/resources.js';
import { choiceOption } from '../../formats/options.js';
import { baseName, errorIn, has, JsonReader, jsonLinePositions, type FromJson, key, sniffText } from '../json.js';
import { budgetFrom, limitsFrom } from '../../binary/limits.js';
import { StringMap, StringSet } from '../../binary/string-map.js';
import { jsonFile } from '../../binary/json-chunks.js';
import type { Atlas, AtlasExporter, AtlasFile } from '../../model/atlas.js';
import { atlasLosses, pageAnimations, pageDataName, pageMeta, requireTurn } from '../atlasfile.js';
import { buildSheet, frameNames, sheetLossNotes, type SheetFrame as BuiltFrame } from '../sheet.js';
import {
  type AnimationExtra,
  animationExtra,
  animationList,
  applyExtra,
  extrasJson,
  extrasTaker,
  readExtras,
  type SheetExtras,
} from '../sheetextras.js';
import { framePart, readFrames, type SheetJsonFrame } from '../sheetjson.js';
import {
  attachFrames,
  type CompactFrames,
  eachFrame,
  frameAt,
  frameCount,
  frameNameAt,
  framesJsonValue,
  scanSheet,
  type SheetFrameStore,
} from '../sheetcompact.js';

/** One sheet of a Phaser multiatlas (`textures: [...]`), or of a TexturePacker multipack once its siblings are read. */
export interface TexturePackerTexture {
  image?: string;
  format?: string;
  size?: { w: number; h: number };
  scale?: string;
  /** How its frames are written (multiatlas). */
  layout: 'hash' | 'array';
  /** Where errors about its image are placed: its name in the document. */
  at: string;
}

export interface TexturePackerDoc extends FromJson, CompactFrames {
  layout: 'hash' | 'array';
  /** Every frame; `sheet` says which texture holds it (multiatlas, multipack). */
  frames: SheetJsonFrame[];
  /** A Phaser multiatlas: one entry per sheet, in order (absent: the one sheet of `meta.image`). */
  textures?: TexturePackerTexture[];
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
    /** TexturePacker multipack: the other JSON files of the set (PixiJS loads them with this one). */
    related_multi_packs?: string[];
    /** What the model held that TexturePacker's JSON cannot say (src/interop/sheetextras.ts). */
    sprat?: SheetExtras;
  };
  /** The sheet pixels to write next to the JSON (set by fromModel). */
  sheet?: RgbaImage;
}

const FORMAT = 'texturepacker';
/** What a frame lasts when the file does not say (TexturePacker stores no timing). */
export const DEFAULT_DURATION_MS = 100;

export function readTexturePacker(bytes: Uint8Array, r = new JsonReader(FORMAT)): TexturePackerDoc {
  // The frames straight from the bytes into a store (src/interop/sheetcompact.ts); anything unusual (a multiatlas too) the old way.
  const scanned = scanSheet(bytes, r, true);
  const root = scanned ? scanned.root : r.obj(r.parse(bytes), '$');
  const pivots = (o: Record<string, unknown>, p: string, f: SheetJsonFrame) => {
    // TexturePacker writes `pivot`; PixiJS reads `anchor` (Phaser: `anchor`, else `pivot`).
    for (const name of ['pivot', 'anchor'] as const) {
      if (!has(o, name)) continue;
      const po = r.obj(o[name], `${p}.${name}`);
      f[name] = { x: r.num(po.x, `${p}.${name}.x`), y: r.num(po.y, `${p}.${name}.y`) };
    }
  };
  let layout: 'hash' | 'array';
  let frames: SheetJsonFrame[] = [];
  let store: SheetFrameStore | undefined;
  let textures: TexturePackerTexture[] | undefined;
  if (scanned) {
    ({ layout, store } = scanned);
  } else if (has(root, 'textures') && !has(root, 'frames')) {
    // Phaser's multiatlas: several sheets, each with its image and frames, read as one document.
    textures = [];
    frames = [];
    const list = r.arr(root.textures, '$.textures');
    if (!list.length) throw r.error('$.textures', 'a multiatlas without textures');
    list.forEach((v, i) => {
      const p = `$.textures[${i}]`;
      const o = r.obj(v, p);
      const read = readFrames(r, o.frames, `${p}.frames`, pivots);
      const t: TexturePackerTexture = { layout: read.layout, at: `${p}.image` };
      t.image = r.optStr(o, 'image', p);
      t.format = r.optStr(o, 'format', p);
      if (has(o, 'size')) t.size = r.size(o.size, `${p}.size`);
      if (has(o, 'scale')) t.scale = typeof o.scale === 'number' ? String(o.scale) : r.str(o.scale, `${p}.scale`);
      for (const k of ['image', 'format'] as const) if (t[k] === undefined) delete t[k];
      for (const f of read.frames) frames.push({ ...f, sheet: i });
      textures!.push(t);
    });
    layout = textures[0]!.layout;
  } else {
    ({ layout, frames } = readFrames(r, root.frames, '$.frames', pivots));
  }
  const count = store ? store.count : frames.length;
  const nameAt = (i: number) => (store ? store.name(i) : frames[i]!.filename);
  let names: Set<string> | undefined;
  // A multipack's animations may name frames of the other files: checked when they are read (withMultipack).
  const mo = root.meta;
  const multipack =
    typeof mo === 'object' &&
    mo !== null &&
    Array.isArray((mo as Record<string, unknown>).related_multi_packs) &&
    ((mo as Record<string, unknown[]>).related_multi_packs!.length ?? 0) > 0;
  // PixiJS names the frames of the array layout by their index ("0", "1", ...): an entry that is no file name may be one.
  const indexName = (v: string): string | undefined =>
    layout === 'array' && /^(0|[1-9]\d*)$/.test(v) && Number(v) < count ? nameAt(Number(v)) : undefined;
  const animations: [string, string[]][] = [];
  if (has(root, 'animations')) {
    const ao = r.obj(root.animations, '$.animations');
    const known = (names ??= new Set(Array.from({ length: count }, (_, i) => nameAt(i))));
    for (const name of Object.keys(ao)) {
      const p = `$.animations${key(name)}`;
      const list = r.arr(ao[name], p).map((v, i) => {
        const f = r.str(v, `${p}[${i}]`);
        if (known.has(f)) return f;
        const byIndex = indexName(f);
        if (byIndex !== undefined) return byIndex;
        if (!multipack) throw r.error(`${p}[${i}]`, `names no frame "${f}"`);
        return f;
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
  if (has(m, 'related_multi_packs')) {
    meta.related_multi_packs = r
      .arr(m.related_multi_packs, '$.meta.related_multi_packs')
      .map((v, i) => r.str(v, `$.meta.related_multi_packs[${i}]`));
  }
  for (const k of Object.keys(meta) as (keyof typeof meta)[]) if (meta[k] === undefined) delete meta[k];
  const extras = readExtras(r, m);
  if (extras) meta.sprat = extras;
  const doc: TexturePackerDoc = { layout, frames, animations, meta };
  if (store) attachFrames(doc, store);
  if (textures) doc.textures = textures;
  return r.remember(doc);
}

/**
 * The document as TexturePacker's JSON. For a file (`write`: naming `image` as its sheet), the frames are a
 * JsonText whose text jsonChunks writes a piece at a time from their numbers (framesJsonValue); for
 * `inspect --json`, so are those of a document read from a file while its `frames` were not asked for.
 */
export function texturePackerToJson(doc: TexturePackerDoc, write?: { image: string | undefined }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (doc.textures) {
    out.textures = doc.textures.map((t, i) => {
      const o: Record<string, unknown> = {};
      if (t.image !== undefined) o.image = t.image;
      if (t.format !== undefined) o.format = t.format;
      if (t.size !== undefined) o.size = t.size;
      if (t.scale !== undefined) o.scale = t.scale;
      o.frames = framesJsonValue({ frames: Array.from(eachFrame(doc)).filter((f) => (f.sheet ?? 0) === i) }, t.layout, true, !!write);
      return o;
    });
  } else out.frames = framesJsonValue(doc, doc.layout, true, !!write);
  if (doc.animations.length) out.animations = Object.fromEntries(doc.animations);
  const meta = !write || write.image === doc.meta.image ? doc.meta : { ...doc.meta, image: write.image };
  // meta.sprat first: the rest of meta stays at the end of the file, where detection looks (a 16 KiB tail).
  out.meta = meta.sprat ? { sprat: extrasJson(meta.sprat), ...meta } : meta;
  return out;
}

/** The model without pixels: one part per frame, the sprite origin at each frame's pivot. */
export function texturePackerModel(doc: TexturePackerDoc): SpriteModel {
  const notes: string[] = [];
  const byName = new Map<string, ModelFrame>();
  let untimed = false;
  for (const f of eachFrame(doc)) {
    // Rounded to a millionth so that a pivot written as origin / size gives the origin back exactly.
    const pivot = f.anchor ?? f.pivot; // as Phaser reads them; PixiJS reads only `anchor`
    const px = Math.round((pivot?.x ?? 0) * f.sourceSize.w * 1e6) / 1e6;
    const py = Math.round((pivot?.y ?? 0) * f.sourceSize.h * 1e6) / 1e6;
    if (f.duration === undefined) untimed = true;
    byName.set(f.filename, {
      durationMs: f.duration ?? DEFAULT_DURATION_MS,
      parts: [framePart(f, px, py)],
      label: f.filename,
      // The untrimmed sprite (sourceSize), with the pivot inside it.
      canvas: { x: -px, y: -py, width: f.sourceSize.w, height: f.sourceSize.h },
    });
  }
  if (untimed && frameCount(doc)) notes.push(`texturepacker: frame durations are not stored; ${DEFAULT_DURATION_MS} ms assumed`);
  // (A multipack's animations may name frames of files not read yet: left out until they are.)
  const known = (list: string[]) => list.filter((n) => byName.has(n));
  const copy = (name: string): ModelFrame => {
    const f = byName.get(name)!;
    return { ...f, parts: f.parts.map((p) => ({ ...p })) };
  };
  const take = extrasTaker(doc.meta.sprat);
  const first = doc.meta.image ?? doc.textures?.[0]?.image;
  const name = first ? baseName(first) : 'sprite';
  const animations: ModelAnimation[] = doc.animations.length
    ? doc.animations.map(([n, list]) => {
        const a: ModelAnimation = { name: n, frames: known(list).map(copy), loopTo: known(list).length ? 0 : null };
        applyExtra(a, take(n));
        return a;
      })
    : [{ name, frames: Array.from({ length: frameCount(doc) }, (_, i) => copy(frameNameAt(doc, i))), loopTo: frameCount(doc) ? 0 : null }];
  // Frames no animation plays are kept (as an animation marked unused).
  if (doc.animations.length) {
    const played = new Set(doc.animations.flatMap(([, list]) => list));
    const rest = unusedAnimation(
      animations,
      Array.from({ length: frameCount(doc) }, (_, i) => frameNameAt(doc, i))
        .filter((n) => !played.has(n))
        .map(copy),
    );
    if (rest) animations.push(rest);
  }
  const sheets = doc.textures ? doc.textures.map((t) => ({ path: t.image ?? '' })) : [{ path: doc.meta.image ?? '' }];
  const model: SpriteModel = { kind: 'sprite', name, sheets, animations };
  if (notes.length) model.notes = notes;
  return model;
}

export function texturePackerFromModel(model: SpriteModel | LevelModel, options: CommandOptions = {}): TexturePackerDoc {
  if (model.kind !== 'sprite') throw new FormatError(FORMAT, 'a level cannot be written as a TexturePacker sheet');
  const notes = sheetLossNotes(model, FORMAT);
  const budget = budgetFrom(options);
  // The names first: their length is JSON the sheet will hold, charged before the frames are drawn.
  const names = frameNames(model, (anim, i) => `${anim}/${String(i).padStart(4, '0')}`, budget);
  const built = buildSheet(model, FORMAT, budget);
  // The sprite origin as a normalised pivot on each frame's canvas.
  const pivotOf = (bf: BuiltFrame) => ({
    x: bf.sourceSize.w ? bf.originX / bf.sourceSize.w : 0,
    y: bf.sourceSize.h ? bf.originY / bf.sourceSize.h : 0,
  });
  // A label used by several model frames that look and last the same becomes one shared frame entry.
  const labelOf = (bf: BuiltFrame) => {
    const f = model.animations[bf.animation]!.frames[bf.index]!;
    return f.name ?? f.label;
  };
  const look = (bf: BuiltFrame) => JSON.stringify([bf.frame, bf.spriteSourceSize, bf.sourceSize, bf.durationMs]);
  const looks = new StringMap<Set<string>>();
  for (const bf of built.frames) {
    const l = labelOf(bf);
    if (l !== undefined) looks.set(l, (looks.get(l) ?? new Set()).add(look(bf)));
  }
  const generated = new StringSet(names.flat());
  const frames: SheetJsonFrame[] = [];
  const emitted = new StringSet();
  for (const bf of built.frames) {
    const l = labelOf(bf);
    let filename = names[bf.animation]![bf.index]!;
    if (l !== undefined && looks.get(l)!.size === 1 && (!generated.has(l) || filename === l)) filename = l;
    names[bf.animation]![bf.index] = filename;
    if (emitted.has(filename)) continue;
    emitted.add(filename);
    const pivot = pivotOf(bf);
    frames.push({
      filename,
      frame: bf.frame,
      rotated: false,
      trimmed: bf.trimmed,
      spriteSourceSize: bf.spriteSourceSize,
      sourceSize: bf.sourceSize,
      pivot,
      anchor: pivot,
      duration: Number.isFinite(bf.durationMs) ? bf.durationMs : 0,
    });
  }
  const played = model.animations.filter((a) => !a.unused && a.frames.length);
  const forever = played.filter((a) => a.frames.some((f) => !Number.isFinite(f.durationMs)));
  if (forever.length)
    notes.push(
      `texturepacker: frames shown forever were given duration 0 (sprat reads them back as shown forever from meta.sprat): ${animationList(forever)}`,
    );
  const loops = played.filter((a) => a.loopTo !== 0);
  if (loops.length)
    notes.push(
      `texturepacker: does not store how animations loop (players loop from the first frame; sprat reads it back from meta.sprat): ${animationList(loops)}`,
    );
  const modes = played.filter((a) => a.playback && (a.playback.direction !== 'forward' || a.playback.repeat));
  if (modes.length)
    notes.push(
      `texturepacker: has no tag direction or repeat (the frames are written as they play; sprat reads the mode back from meta.sprat): ${animationList(modes)}`,
    );
  const animations: [string, string[]][] = [];
  const taken = new StringSet();
  const extras: AnimationExtra[] = [];
  model.animations.forEach((a, ai) => {
    if (a.unused) return; // its frames are written, in no animation
    let n = a.direction ? `${a.name}/${a.direction}` : a.name;
    for (let k = 2; taken.has(n); k++) n = `${a.name} (${k})`;
    taken.add(n);
    animations.push([n, names[ai]!]);
    const e = animationExtra(a, n, { loopTo: 'any', playback: true, sheetNames: names[ai]! });
    if (e) extras.push(e);
  });
  const layout = choiceOption(options, LAYOUT_OPTION) ?? 'hash';
  if (layout === 'array') {
    // PixiJS names array frames by their index, and its `animations` list those names: the file names are the indices.
    const index = new StringMap<string>();
    frames.forEach((f, i) => index.set(f.filename, String(i)));
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
  if (extras.length) doc.meta.sprat = { animations: extras };
  if (notes.length) model.notes = [...(model.notes ?? []), ...notes];
  return doc;
}

/** The sheet images a document names: each multiatlas texture's, else `meta.image`. */
function texturePackerSheets(doc: TexturePackerDoc): SheetRef[] {
  return doc.textures ? doc.textures.map((t) => ({ name: t.image, at: t.at })) : metaImage(doc);
}

/** The other JSON files of a TexturePacker multipack (`meta.related_multi_packs`), relative to this one. */
function siblingRequests(doc: TexturePackerDoc): ResourceRequest[] {
  // Each file once (a list naming one file many times reads it once).
  return [...new Set(doc.meta.related_multi_packs ?? [])].map((name) => ({ format: FORMAT, what: 'the multipack sheet', name }));
}

/**
 * A multipack read as one document: the frames, animations and sheets of
 * every file `meta.related_multi_packs` names (as PixiJS loads them: one
 * level, the siblings' own lists are not followed), each sibling's image
 * relative to the sibling. A frame or animation name already taken keeps
 * the first. Errors are placed at the sibling's name in this document.
 */
export async function withMultipack(doc: TexturePackerDoc, resources: ResourceLoader): Promise<TexturePackerDoc> {
  const requests = siblingRequests(doc);
  if (!requests.length) return doc;
  const textures: TexturePackerTexture[] = doc.textures
    ? [...doc.textures]
    : [{ image: doc.meta.image, size: doc.meta.size, layout: doc.layout, at: '$.meta.image' }];
  const frames = [...doc.frames];
  const animations = [...doc.animations];
  const names = new Set(frames.map((f) => f.filename));
  for (let i = 0; i < requests.length; i++) {
    const req = requests[i]!;
    const at = `$.meta.related_multi_packs[${i}]`;
    let sib: TexturePackerDoc;
    try {
      sib = readTexturePacker((await loadResource(resources, req)).bytes);
    } catch (e) {
      throw isFormatError(e) ? errorIn(doc, FORMAT, at, `"${req.name}": ${e.reason}`) : e;
    }
    const base = textures.length;
    const dir = dirOf(req.name);
    for (const t of sib.textures ?? [{ image: sib.meta.image, size: sib.meta.size, layout: sib.layout, at }]) {
      textures.push({ ...t, image: t.image === undefined ? undefined : joinPath(dir, t.image), at });
    }
    for (const f of sib.frames) {
      if (names.has(f.filename)) continue;
      names.add(f.filename);
      frames.push({ ...f, sheet: base + (f.sheet ?? 0) });
    }
    for (const a of sib.animations) if (!animations.some(([n]) => n === a[0])) animations.push(a);
  }
  animations.forEach(([n, list], ai) => {
    list.forEach((f, i) => {
      if (!names.has(f))
        throw errorIn(
          doc,
          FORMAT,
          ai < doc.animations.length ? `$.animations${key(n)}[${i}]` : '$.meta.related_multi_packs',
          `names no frame "${f}" in any file of the multipack`,
        );
    });
  });
  const merged: TexturePackerDoc = { ...doc, frames, animations, textures };
  // Errors about the merged document are placed in this one's text.
  Object.defineProperty(merged, 'jsonSource', { value: doc.jsonSource, enumerable: false, writable: true, configurable: true });
  return merged;
}

export function sniffTexturePacker(bytes: Uint8Array): boolean {
  const t = sniffText(bytes);
  if (!t) return false;
  const all = t.head + t.tail;
  // sprat's own sheets may put a long meta.sprat before the rest of meta (src/interop/sheetextras.ts).
  if (!/"frames"\s*:/.test(t.head) || !(/"meta"\s*:/.test(all) || /"app"\s*:\s*"sprat"/.test(t.tail))) return false;
  if (/"app"\s*:\s*"[^"]*texturepacker/i.test(all)) return true;
  if (/"app"\s*:\s*"[^"]*aseprite/i.test(all)) return false;
  if (/"tiledversion"\s*:|"type"\s*:\s*"map"/.test(all)) return false;
  // Another tool's atlas: meta.image, or frame rectangles (a Phaser atlas naming no image: the game gives it to load.atlas).
  return /"image"\s*:\s*"/.test(all) || /"frame"\s*:\s*\{/.test(t.head);
}

export const texturePackerHandler: FormatHandler<TexturePackerDoc> = {
  name: 'texturepacker',
  text: true,
  title: 'TexturePacker JSON sprite sheet (PixiJS, Phaser)',
  extensions: ['.json'],
  sniff: sniffTexturePacker,
  read: (bytes) => readTexturePacker(bytes),
  writeOptions: [LAYOUT_OPTION],
  async writeFiles(doc, outName, options) {
    return sheetFiles((image) => texturePackerToJson(doc, { image }), doc.sheet, doc.meta.image, outName, limitsFrom(options));
  },
  validate: (bytes): Diagnostic[] => validateSheetDoc(bytes, FORMAT, readTexturePacker),
  inspectJson: (doc) => ({ format: 'texturepacker', layout: doc.layout, ...texturePackerToJson(doc) }),
  // The inspect JSON is the file's own (plus format and layout): each value's place in the file.
  linePositions: (_doc, bytes) => jsonLinePositions(bytes),
  inspectText(doc) {
    const lines = [
      `TexturePacker sheet (${doc.layout} layout), ${frameCount(doc)} frame(s), image ${doc.meta.image ?? '(none)'}` +
        (doc.meta.size ? ` ${doc.meta.size.w}x${doc.meta.size.h}` : ''),
    ];
    for (const [i, t] of (doc.textures ?? []).entries()) {
      let n = 0;
      for (const f of eachFrame(doc)) if ((f.sheet ?? 0) === i) n++;
      lines.push(`  texture ${i}: ${t.image ?? '(no image)'}${t.size ? ` ${t.size.w}x${t.size.h}` : ''}, ${n} frame(s)`);
    }
    if (doc.meta.related_multi_packs?.length) lines.push(`  multipack with ${doc.meta.related_multi_packs.join(', ')}`);
    let rotated = 0;
    let trimmed = 0;
    for (let i = 0, n = frameCount(doc); i < n; i++) {
      const f = frameAt(doc, i);
      if (f.rotated) rotated++;
      if (f.trimmed) trimmed++;
    }
    lines.push(`  ${rotated} rotated, ${trimmed} trimmed`);
    for (const [n, list] of doc.animations) lines.push(`  animation "${n}": ${list.length} frame(s)`);
    return printableLines(lines) + '\n';
  },
  renderOptions: [ANIMATION_OPTION, FRAME_OPTION],
  resourceOptions: [SHEET_IMAGE_OPTION],
  ...sheetModelMethods(FORMAT, texturePackerModel, {
    sheets: texturePackerSheets,
    siblings: siblingRequests,
    expand: (doc, resources) => withMultipack(doc, resources),
  }),
  fromModel: (model, options) => texturePackerFromModel(model, options),
};

/**
 * `sprat pack --to texturepacker`: the atlas as TexturePacker's JSON (Hash),
 * written by the one writer above (texturePackerToJson): one file per page,
 * linked by `meta.related_multi_packs` as TexturePacker's multipack writes
 * them (`NAME.json`, `NAME-1.json`, ...); `rotated` a quarter turn
 * clockwise, `pivot`/`anchor` when the frame has one, `duration`, PixiJS
 * `animations` on the page that holds all their frames.
 */
function texturePackerAtlasFiles(atlas: Atlas, dataName: string): AtlasFile[] {
  requireTurn(atlas, FORMAT, 'clockwise');
  const names = atlas.pages.map((_, page) => pageDataName(dataName, page));
  return atlas.pages.map((p, page) => {
    const frames: SheetJsonFrame[] = atlas.frames
      .filter((f) => f.page === page)
      .map((f) => ({
        filename: f.name,
        frame: { ...f.frame },
        rotated: f.rotated,
        trimmed: f.trimmed,
        spriteSourceSize: { ...f.spriteSourceSize },
        sourceSize: { ...f.sourceSize },
        ...(f.pivot ? { pivot: { ...f.pivot }, anchor: { ...f.pivot } } : {}),
        ...(f.durationMs !== undefined ? { duration: f.durationMs } : {}),
      }));
    const doc: TexturePackerDoc = {
      layout: 'hash',
      frames,
      animations: pageAnimations(atlas, page),
      meta: {
        ...pageMeta(atlas, page),
        ...(names.length > 1 ? { related_multi_packs: names.filter((_, i) => i !== page).map((n) => n.replace(/^.*\//, '')) } : {}),
      },
    };
    return jsonFile(names[page]!, texturePackerToJson(doc, { image: doc.meta.image }));
  });
}

export const texturePackerExporter: AtlasExporter = {
  name: 'texturepacker',
  description: 'TexturePacker JSON (Hash), one per page linked by related_multi_packs: trimmed and rotated frames, pivots, durations',
  extension: '.json',
  rotation: true,
  multipage: true,
  write: texturePackerAtlasFiles,
  losses: (atlas) => atlasLosses(atlas, FORMAT, { pivot: true, durations: 'frame', animations: true }),
};
