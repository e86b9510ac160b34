/**
 * Aseprite's JSON sheet export (File > Export Sprite Sheet, "JSON Data"):
 * frames in the "hash" or "array" layout, meta.frameTags (forward, reverse,
 * pingpong, pingpong_reverse, optional repeat count), durations in ms, and
 * the PNG sheet named by meta.image.
 */
import { type Diagnostic, FormatError, printableLines } from '../../binary/errors.js';
import { ANIMATION_OPTION, FRAME_OPTION, PLAY_MS_OPTION, PLAY_STEP_MS_OPTION } from '../../formats/selections.js';
import type { CommandOptions, FormatHandler, OptionSpec } from '../../formats/types.js';
import { choiceOption, stringOption } from '../../formats/options.js';
import { budgetFrom, limitsFrom } from '../../binary/limits.js';
import { StringMap } from '../../binary/string-map.js';
import { jsonFile } from '../../binary/json-chunks.js';
import type { LevelModel, ModelAnimation, ModelFrame, ModelLayer, ModelShape, SpriteModel } from '../../model/types.js';
import { unusedAnimation, unusedFrameNames } from '../../model/unused.js';
import { timingNotes, type FrameAt } from '../../model/timing.js';
import type { RgbaImage } from '../../render/image.js';
import type { Atlas, AtlasExporter, AtlasFile } from '../../model/atlas.js';
import { atlasLosses, frameMs, pageDataName, pageMeta, requireUnrotated } from '../atlasfile.js';
import { baseName, has, JsonReader, jsonLinePositions, type FromJson, sniffText } from '../json.js';
import { buildSheet, sheetLossNotes, type SheetFrame } from '../sheet.js';
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
import { framePart, readFrames, type Rect, type SheetJsonFrame } from '../sheetjson.js';
import {
  attachFrames,
  type CompactFrames,
  frameAt,
  frameCount,
  frameDurationAt,
  frameNameAt,
  framesJsonValue,
  scanSheet,
  type SheetFrameStore,
} from '../sheetcompact.js';
import { LAYOUT_OPTION, SHEET_IMAGE_OPTION, sheetFiles, sheetModelMethods, validateSheetDoc } from '../sheethandler.js';
import { playAseprite, tagPlayback, tagSequence } from './play.js';

export { tagPlayback, tagSequence } from './play.js';

export type AsepriteDirection = 'forward' | 'reverse' | 'pingpong' | 'pingpong_reverse';
const DIRECTIONS: readonly string[] = ['forward', 'reverse', 'pingpong', 'pingpong_reverse'];
/** The direction that plays the frames of a tag the other way round. */
const REVERSED: Record<AsepriteDirection, AsepriteDirection> = {
  forward: 'reverse',
  reverse: 'forward',
  pingpong: 'pingpong_reverse',
  pingpong_reverse: 'pingpong',
};

export interface AsepriteTag {
  name: string;
  from: number;
  to: number;
  direction: AsepriteDirection;
  color?: string;
  /** Times to play (Aseprite 1.3); absent: forever. */
  repeat?: number;
  data?: string;
}

export interface AsepriteLayer {
  name: string;
  opacity?: number;
  blendMode?: string;
  group?: string;
}

export interface AsepriteSliceKey {
  frame: number;
  bounds: Rect;
  center?: Rect;
  pivot?: { x: number; y: number };
}

export interface AsepriteSlice {
  name: string;
  color?: string;
  data?: string;
  keys: AsepriteSliceKey[];
}

export interface AsepriteDoc extends FromJson, CompactFrames {
  layout: 'hash' | 'array';
  frames: SheetJsonFrame[];
  meta: {
    app?: string;
    version?: string;
    image?: string;
    format?: string;
    size?: { w: number; h: number };
    scale?: string;
    frameTags: AsepriteTag[];
    layers: AsepriteLayer[];
    slices: AsepriteSlice[];
    /** What the model held that Aseprite's JSON cannot say (src/interop/sheetextras.ts). */
    sprat?: SheetExtras;
  };
  /** The sheet pixels to write next to the JSON (set by fromModel). */
  sheet?: RgbaImage;
}

const FORMAT = 'aseprite';
/** The longest duration Aseprite stores (a 16-bit field in .aseprite files). */
const MAX_DURATION = 65535;
/** Cap on frames made by expanding `repeat`. */
const MAX_EXPANDED = 100000;

/**
 * What the writer names frames: Aseprite's `--filename-format` placeholders
 * (src/app/filename_formatter.cpp): {title}, {name} ({title}.aseprite),
 * {extension} ("aseprite"), {layer} ("Layer 1"), {tag} / {innertag} /
 * {outertag} (the narrowest tag holding the frame), {frame} and {tagframe}
 * (digits after the word: `{frame1}` counts from 1, `{frame000}` pads to 3
 * digits from 0, `{frame001}` from 1), {duration}; sprat adds {label}, the
 * frame's name in the source (its number when it has none).
 */
export const DEFAULT_FILENAME_FORMAT = '{frame}';
const PLACEHOLDER = /\{(fullname|path|name|title|extension|layer|group|slice|tag|innertag|outertag|duration|label|(?:tag)?frame\d*)\}/g;
export const FILENAME_FORMAT_OPTION: OptionSpec = {
  name: 'filename-format',
  type: 'string',
  value: 'FORMAT',
  description:
    "Aseprite frame names, as Aseprite's --filename-format: {frame} (default: what Phaser looks up), {title}, {tag}, {tagframe}, {frame001}, {extension}, {duration}, {label} (the source frame name)",
  parse(text) {
    if (!text) throw new Error('it is empty');
    const rest = text.replace(PLACEHOLDER, '');
    const unknown = /\{[^}]*\}/.exec(rest);
    if (unknown) throw new Error(`unknown placeholder ${unknown[0]}`);
    return text;
  },
};

/** A frame's name by an Aseprite `--filename-format` (see FILENAME_FORMAT_OPTION). */
export function formatFrameName(
  format: string,
  f: { title: string; frame: number; tag: string; tagFrame: number; duration: number; label: string },
): string {
  return format.replace(PLACEHOLDER, (_, key: string) => {
    const counter = /^(tag)?frame(\d*)$/.exec(key);
    if (counter) {
      const digits = counter[2]!;
      const n = (counter[1] ? f.tagFrame : f.frame) + (digits ? Number(digits) : 0);
      return String(n).padStart(digits.length, '0');
    }
    switch (key) {
      case 'title':
        return f.title;
      case 'name':
      case 'fullname':
        return `${f.title}.aseprite`;
      case 'extension':
        return 'aseprite';
      case 'path':
        return '.';
      case 'layer':
        return 'Layer 1';
      case 'tag':
      case 'innertag':
      case 'outertag':
        return f.tag;
      case 'duration':
        return String(f.duration);
      case 'label':
        return f.label;
      default:
        return ''; // {group}, {slice}: nothing sprat writes
    }
  });
}

/** A read document with its frames renamed by --filename-format and laid out by --layout, when those are given. */
function rekeyed(doc: AsepriteDoc, options?: CommandOptions): AsepriteDoc {
  const format = stringOption(options, FILENAME_FORMAT_OPTION);
  const layout = choiceOption(options, LAYOUT_OPTION) ?? doc.layout;
  if (format === undefined) return layout === doc.layout ? doc : { ...doc, layout };
  const title = doc.meta.image ? baseName(doc.meta.image) : 'sprite';
  const used = new Set<string>();
  const frames = doc.frames.map((f, i) => {
    const tag = innerTag(doc.meta.frameTags, i);
    const base = formatFrameName(format, {
      title,
      frame: i,
      tag: tag?.name ?? '',
      tagFrame: tag ? i - tag.from : 0,
      duration: f.duration ?? 100,
      label: f.filename,
    });
    let filename = base;
    for (let k = 2; used.has(filename); k++) filename = `${base} (${k})`;
    used.add(filename);
    return { ...f, filename };
  });
  return { ...doc, layout, frames };
}

/** The narrowest tag holding sheet frame `i` (Aseprite's inner tag), first when several are as narrow. */
function innerTag(tags: AsepriteTag[], i: number): AsepriteTag | undefined {
  let best: AsepriteTag | undefined;
  for (const t of tags) if (t.from <= i && i <= t.to && (!best || t.to - t.from < best.to - best.from)) best = t;
  return best;
}

export function readAseprite(bytes: Uint8Array, r = new JsonReader(FORMAT)): AsepriteDoc {
  // The frames straight from the bytes into a store (src/interop/sheetcompact.ts); anything unusual the old way.
  const scanned = scanSheet(bytes, r, false);
  let root: Record<string, unknown>;
  let layout: 'hash' | 'array';
  let frames: SheetJsonFrame[] = [];
  let store: SheetFrameStore | undefined;
  if (scanned) {
    ({ root, layout, store } = scanned);
  } else {
    root = r.obj(r.parse(bytes), '$');
    ({ layout, frames } = readFrames(r, root.frames, '$.frames'));
  }
  const count = store ? store.count : frames.length;
  const m = r.obj(root.meta ?? {}, '$.meta');
  const meta: AsepriteDoc['meta'] = { frameTags: [], layers: [], slices: [] };
  meta.app = r.optStr(m, 'app', '$.meta');
  meta.version = r.optStr(m, 'version', '$.meta');
  meta.image = r.optStr(m, 'image', '$.meta');
  meta.format = r.optStr(m, 'format', '$.meta');
  if (has(m, 'size')) meta.size = r.size(m.size, '$.meta.size');
  if (has(m, 'scale')) meta.scale = typeof m.scale === 'number' ? String(m.scale) : r.str(m.scale, '$.meta.scale');
  if (has(m, 'frameTags')) {
    meta.frameTags = r.arr(m.frameTags, '$.meta.frameTags').map((v, i) => {
      const p = `$.meta.frameTags[${i}]`;
      const o = r.obj(v, p);
      if (count === 0) throw r.error(p, 'a tag in a sheet without frames');
      const tag: AsepriteTag = {
        name: r.str(o.name, `${p}.name`),
        from: r.num(o.from, `${p}.from`, { int: true, min: 0, max: Math.max(0, count - 1) }),
        to: r.num(o.to, `${p}.to`, { int: true, min: 0, max: Math.max(0, count - 1) }),
        direction: (r.optStr(o, 'direction', p) ?? 'forward') as AsepriteDirection,
      };
      if (!DIRECTIONS.includes(tag.direction)) throw r.error(`${p}.direction`, `unknown direction "${tag.direction}"`);
      if (tag.to < tag.from) throw r.error(`${p}.to`, `ends (${tag.to}) before it starts (${tag.from})`);
      const color = r.optStr(o, 'color', p);
      if (color !== undefined) tag.color = color;
      if (has(o, 'repeat')) {
        const rep = typeof o.repeat === 'string' ? Number(o.repeat) : o.repeat;
        tag.repeat = r.num(rep, `${p}.repeat`, { int: true, min: 0 });
      }
      const data = r.optStr(o, 'data', p);
      if (data !== undefined) tag.data = data;
      return tag;
    });
  }
  if (has(m, 'layers')) {
    meta.layers = r.arr(m.layers, '$.meta.layers').map((v, i) => {
      const p = `$.meta.layers[${i}]`;
      const o = r.obj(v, p);
      const layer: AsepriteLayer = { name: r.str(o.name, `${p}.name`) };
      const group = r.optStr(o, 'group', p);
      if (group !== undefined) layer.group = group;
      const opacity = r.optNum(o, 'opacity', p);
      if (opacity !== undefined) layer.opacity = opacity;
      const blendMode = r.optStr(o, 'blendMode', p);
      if (blendMode !== undefined) layer.blendMode = blendMode;
      return layer;
    });
  }
  if (has(m, 'slices')) {
    meta.slices = r.arr(m.slices, '$.meta.slices').map((v, i) => {
      const p = `$.meta.slices[${i}]`;
      const o = r.obj(v, p);
      const slice: AsepriteSlice = { name: r.str(o.name, `${p}.name`), keys: [] };
      const color = r.optStr(o, 'color', p);
      if (color !== undefined) slice.color = color;
      const data = r.optStr(o, 'data', p);
      if (data !== undefined) slice.data = data;
      slice.keys = r.arr(o.keys ?? [], `${p}.keys`).map((kv, j) => {
        const kp = `${p}.keys[${j}]`;
        const ko = r.obj(kv, kp);
        const k: AsepriteSliceKey = {
          frame: r.num(ko.frame ?? 0, `${kp}.frame`, { int: true, min: 0 }),
          bounds: r.rect(ko.bounds, `${kp}.bounds`),
        };
        if (has(ko, 'center')) k.center = r.rect(ko.center, `${kp}.center`);
        if (has(ko, 'pivot')) {
          const po = r.obj(ko.pivot, `${kp}.pivot`);
          k.pivot = { x: r.num(po.x, `${kp}.pivot.x`), y: r.num(po.y, `${kp}.pivot.y`) };
        }
        return k;
      });
      return slice;
    });
  }
  const extras = readExtras(r, m);
  if (extras) meta.sprat = extras;
  const doc: AsepriteDoc = { layout, frames, meta };
  if (store) attachFrames(doc, store);
  return r.remember(doc);
}

/**
 * The document as Aseprite's JSON. For a file (`write`: naming `image` as its sheet), the frames are a
 * JsonText whose text jsonChunks writes a piece at a time from their numbers (framesJsonValue); for
 * `inspect --json`, so are those of a document read from a file while its `frames` were not asked for.
 */
export function asepriteToJson(doc: AsepriteDoc, write?: { image: string | undefined }): Record<string, unknown> {
  const frames = framesJsonValue(doc, doc.layout, false, !!write);
  const image = write ? write.image : doc.meta.image;
  const m = doc.meta;
  const meta: Record<string, unknown> = {};
  // meta.sprat first: the rest of meta stays at the end of the file, where detection looks (a 16 KiB tail).
  if (m.sprat) meta.sprat = extrasJson(m.sprat);
  if (m.app !== undefined) meta.app = m.app;
  if (m.version !== undefined) meta.version = m.version;
  if (image !== undefined) meta.image = image;
  if (m.format !== undefined) meta.format = m.format;
  if (m.size !== undefined) meta.size = m.size;
  if (m.scale !== undefined) meta.scale = m.scale;
  meta.frameTags = m.frameTags.map((t) => {
    const o: Record<string, unknown> = { name: t.name, from: t.from, to: t.to, direction: t.direction };
    if (t.color !== undefined) o.color = t.color;
    if (t.repeat !== undefined) o.repeat = String(t.repeat);
    if (t.data !== undefined) o.data = t.data;
    return o;
  });
  meta.layers = m.layers;
  meta.slices = m.slices;
  return { frames, meta };
}

function asepriteOrigin(doc: AsepriteDoc): { x: number; y: number } {
  const s = doc.meta.slices.find((sl) => sl.name === 'origin' && sl.keys[0]?.pivot);
  const k = s?.keys[0];
  return k?.pivot ? { x: k.bounds.x + k.pivot.x, y: k.bounds.y + k.pivot.y } : { x: 0, y: 0 };
}

/**
 * The slices (but sprat's `origin`) as each frame's rectangles, relative to
 * the origin: in a frame, the key of the slice's last key frame at or before
 * it (Aseprite's keys hold from their frame on; a slice has none before its
 * first key, and none where the key's bounds are empty), with its 9-patch
 * centre, pivot, colour and user data.
 */
function addSliceShapes(doc: AsepriteDoc, frames: ModelFrame[], origin: { x: number; y: number }): string | undefined {
  const slices = doc.meta.slices.filter((sl) => !(sl.name === 'origin' && sl.keys[0]?.pivot));
  // Counted before any is made: a small file of many slices over many frames would be a great many rectangles.
  let count = 0;
  for (const sl of slices) {
    let first = Infinity;
    for (const k of sl.keys) first = Math.min(first, k.frame);
    if (first < frames.length) count += frames.length - Math.max(0, first);
  }
  if (count > MAX_SLICE_SHAPES)
    return `aseprite: the ${slices.length} slices over ${frames.length} frames make ${count} rectangles, more than sprat carries (${MAX_SLICE_SHAPES}): they are not carried`;
  for (const sl of slices) {
    const keys = [...sl.keys].sort((a, b) => a.frame - b.frame);
    let k = -1;
    for (let i = 0; i < frames.length; i++) {
      while (k + 1 < keys.length && keys[k + 1]!.frame <= i) k++;
      const key = keys[k];
      if (!key || (key.bounds.w === 0 && key.bounds.h === 0)) continue;
      const rect: ModelShape = {
        type: 'rect',
        name: sl.name,
        x: key.bounds.x - origin.x,
        y: key.bounds.y - origin.y,
        width: key.bounds.w,
        height: key.bounds.h,
      };
      if (key.center) rect.center = { x: key.center.x, y: key.center.y, width: key.center.w, height: key.center.h };
      if (key.pivot) rect.pivot = { x: key.pivot.x, y: key.pivot.y };
      if (sl.color !== undefined) rect.color = sl.color;
      if (sl.data !== undefined) rect.userData = sl.data;
      (frames[i]!.shapes ??= []).push(rect);
    }
  }
  return undefined;
}

/** The most slice rectangles (slices x the frames they are in) the model is given. */
const MAX_SLICE_SHAPES = 1 << 20;

/** The model without pixels (sheet image not loaded). */
export function asepriteModel(doc: AsepriteDoc): SpriteModel {
  const origin = asepriteOrigin(doc);
  const frames: ModelFrame[] = new Array(frameCount(doc));
  for (let i = 0; i < frames.length; i++) {
    const f = frameAt(doc, i);
    frames[i] = {
      durationMs: f.duration ?? 100,
      parts: [framePart(f, origin.x, origin.y)],
      label: f.filename,
      // The sprite's canvas (sourceSize), with the origin slice's pivot inside it.
      canvas: { x: -origin.x, y: -origin.y, width: f.sourceSize.w, height: f.sourceSize.h },
    };
  }
  const sliceNote = addSliceShapes(doc, frames, origin);
  const notes: string[] = sliceNote ? [sliceNote] : [];
  const animations: ModelAnimation[] = [];
  const name = doc.meta.image ? baseName(doc.meta.image) : 'sprite';
  // Tags with sheet frame numbers; whole files without tags (a batch export), each one animation.
  let tags: AsepriteTag[] = doc.meta.frameTags;
  let wholes: { name: string; from: number; to: number }[] = [];
  const batch = splitBatch(doc);
  if (batch) {
    tags = batch.tags;
    wholes = batch.wholes;
    notes.push(
      `aseprite: a batch export of ${batch.files.length} files (${batch.files.join(', ')}): one animation set per file, ` +
        `${batch.titled ? 'named "FILE/TAG"' : 'its frames numbered from 0 in each file'}; Aseprite does not say which file a tag belongs to, so tags were given to the files in order`,
    );
  }
  if (tags.length === 0 && wholes.length === 0) {
    animations.push({ name, frames: frames.map(copyFrame), loopTo: frames.length ? 0 : null });
  }
  // The extras of each tag of the file (a batch export's tags are rebuilt: sprat writes none).
  const take = extrasTaker(batch ? undefined : doc.meta.sprat);
  const extraOf = new Map<AsepriteTag, AnimationExtra | undefined>(tags.map((t) => [t, take(t.name)]));
  const pieces = [
    ...tags.map((t) => ({ at: t.from, tag: t as AsepriteTag | undefined, whole: undefined })),
    ...wholes.map((w) => ({ at: w.from, tag: undefined, whole: w })),
  ];
  // File order (stable: tags keep theirs); a sheet sprat wrote lists its tags in the model's order.
  if (!extraOf.size || batch || !doc.meta.sprat) pieces.sort((a, b) => a.at - b.at);
  for (const { tag, whole } of pieces) {
    if (whole) {
      const list = frames.slice(whole.from, whole.to + 1).map(copyFrame);
      animations.push({ name: whole.name, frames: list, loopTo: list.length ? 0 : null });
      continue;
    }
    const seq = tagSequence(tag!);
    let times = tag!.repeat ?? 0;
    if (times > 0) {
      times = Math.min(times, Math.max(1, Math.floor(MAX_EXPANDED / Math.max(1, seq.length))));
      if (times < tag!.repeat!) notes.push(`aseprite: tag "${tag!.name}" repeats ${tag!.repeat} times; only ${times} kept`);
    }
    const played = tagPlayback(tag!, times);
    const anim: ModelAnimation = {
      name: tag!.name,
      frames: played.frames.map((i) => copyFrame(frames[i]!)),
      loopTo: played.loop ? 0 : null,
    };
    if (tag!.direction !== 'forward' || tag!.repeat) {
      anim.playback = { direction: tag!.direction };
      if (tag!.repeat) anim.playback.repeat = tag!.repeat;
    }
    if (tag!.data !== undefined) anim.userData = tag!.data;
    applyExtra(anim, extraOf.get(tag!));
    animations.push(anim);
  }
  // Frames no tag plays are kept (as an animation marked unused).
  if (tags.length) {
    const tagged = new Set<number>();
    for (const tag of [...tags, ...wholes]) for (let i = tag.from; i <= tag.to; i++) tagged.add(i);
    const rest = unusedAnimation(animations, frames.filter((_, i) => !tagged.has(i)).map(copyFrame));
    if (rest) {
      animations.push(rest);
      // They go after the tagged frames: where one stood before a tagged frame, the stored order changes.
      let lastTagged = -1;
      for (const i of tagged) lastTagged = Math.max(lastTagged, i);
      if (frames.some((_, i) => !tagged.has(i) && i < lastTagged)) {
        notes.push(
          `aseprite: frames no tag plays are stored after the tagged frames (their order among the frames changes): ${unusedFrameNames(rest)}`,
        );
      }
    }
  }
  const model: SpriteModel = { kind: 'sprite', name, sheets: [{ path: doc.meta.image ?? '' }], animations };
  if (doc.meta.layers.length) {
    model.layers = doc.meta.layers.map((l) => {
      const layer: ModelLayer = { name: l.name };
      if (l.opacity !== undefined) layer.opacity = l.opacity / 255;
      if (l.blendMode !== undefined) layer.blendMode = l.blendMode;
      if (l.group !== undefined) layer.group = l.group;
      return layer;
    });
  }
  if (notes.length) model.notes = notes;
  return model;
}

/**
 * An Aseprite 1.3 batch export (`aseprite -b a.aseprite b.aseprite --sheet
 * s.png --data s.json`) holds the frames of several files, named by its
 * default `{title} {frame}.{extension}` and numbered from 0 in each file, and
 * lists every file's tags counted from that file's first frame, without
 * saying which file each belongs to (src/app/doc_exporter.cpp). Found from
 * the names (two titles or more, each numbered 0, 1, ... in a run); the tags
 * go to the files in order (Aseprite lists a file's tags by their first
 * frame): the next file when a tag starts before the one before it, repeats
 * a name of the file's, or does not fit. Returns the tags with sheet frame numbers, named "FILE/TAG", and
 * each file without tags as a whole; undefined when the document is not
 * such an export or its tags do not fit.
 *
 * With another `--filename-format` that ends in `{frame}` (`{tag} {frame}`,
 * as aseprite-atlas-pack writes), the names carry no title: the files are the
 * runs of frame numbers restarting at 0, taken for files only when the tags
 * say so too (a tag starting before the one listed before it, or repeating
 * its name, as no one-file export lists them). Such files are named by their
 * place ("file 1", ...), and a tag keeps its name unless another file has a
 * tag of that name ("file 2/idle").
 */
export function splitBatch(
  doc: AsepriteDoc,
): { files: string[]; titled: boolean; tags: AsepriteTag[]; wholes: { name: string; from: number; to: number }[] } | undefined {
  const files = titledRuns(doc) ?? numberedRuns(doc);
  if (!files) return undefined;
  const tags: AsepriteTag[] = [];
  const owner: number[] = [];
  let at = 0;
  let prevFrom = -1;
  let names = new Set<string>();
  let backwards = false;
  for (const t of doc.meta.frameTags) {
    if (t.from < prevFrom || names.has(t.name)) {
      backwards = true;
      at++;
      names = new Set();
    }
    while (at < files.length && t.to >= files[at]!.count) at++;
    if (at >= files.length) return undefined;
    prevFrom = t.from;
    names.add(t.name);
    const f = files[at]!;
    owner.push(at);
    tags.push({ ...t, from: f.start + t.from, to: f.start + t.to });
  }
  const untitled = files[0]!.title === undefined;
  if (untitled && !backwards) return undefined;
  const label = (i: number) => files[i]!.title?.replace(/\.[^.]*$/, '') ?? `file ${i + 1}`;
  const shared = new Set(
    doc.meta.frameTags.filter((t, i) => doc.meta.frameTags.some((u, j) => u.name === t.name && owner[j] !== owner[i])).map((t) => t.name),
  );
  tags.forEach((t, i) => {
    if (!untitled || shared.has(t.name)) t.name = `${label(owner[i]!)}/${t.name}`;
  });
  const tagged = new Set(owner);
  const wholes = files
    .map((f, i) => ({ f, i }))
    .filter(({ i }) => !tagged.has(i))
    .map(({ f, i }) => ({ name: label(i), from: f.start, to: f.start + f.count - 1 }));
  return {
    files: files.map((f, i) => f.title ?? `${label(i)}: frames ${f.start}-${f.start + f.count - 1}`),
    titled: !untitled,
    tags,
    wholes,
  };
}

interface BatchFile {
  title?: string;
  start: number;
  count: number;
}

/** Files from `{title} {frame}.{extension}` names: two titles or more, each numbered 0, 1, ... in a run. */
function titledRuns(doc: AsepriteDoc): BatchFile[] | undefined {
  const files: BatchFile[] = [];
  for (let i = 0, n = frameCount(doc); i < n; i++) {
    const m = /^(.*?)(?: (\d+))?\.([A-Za-z0-9]+)$/.exec(frameNameAt(doc, i));
    if (!m) return undefined;
    const n = m[2] === undefined ? 0 : Number(m[2]);
    const title = `${m[1]}.${m[3]}`;
    const last = files[files.length - 1];
    if (last && last.title === title && n === last.count) last.count++;
    else if (n === 0) files.push({ title, start: i, count: 1 });
    else return undefined;
  }
  if (files.length < 2 || new Set(files.map((f) => f.title)).size !== files.length) return undefined;
  return files;
}

/** Files from names ending in the frame's number in its file (`{tag} {frame}`): runs 0, 1, ... restarting at 0. */
function numberedRuns(doc: AsepriteDoc): BatchFile[] | undefined {
  const files: BatchFile[] = [];
  for (let i = 0, n = frameCount(doc); i < n; i++) {
    const m = /(\d+)(?:\.[A-Za-z0-9]+)?$/.exec(frameNameAt(doc, i));
    if (!m) return undefined;
    const n = Number(m[1]);
    const last = files[files.length - 1];
    if (last && n === last.count) last.count++;
    else if (n === 0) files.push({ start: i, count: 1 });
    else return undefined;
  }
  return files.length < 2 ? undefined : files;
}

function copyFrame(f: ModelFrame): ModelFrame {
  return { ...f, parts: f.parts.map((p) => ({ ...p })) };
}

export function asepriteFromModel(model: SpriteModel | LevelModel, options: CommandOptions = {}): AsepriteDoc {
  if (model.kind !== 'sprite') throw new FormatError(FORMAT, 'a level cannot be written as an Aseprite sheet');
  const notes = sheetLossNotes(model, FORMAT);
  const built = buildSheet(model, FORMAT, budgetFrom(options), true);
  let clamped = false;
  // One key per model frame: frames with equal keys are the same Aseprite frame.
  const byAnim: SheetFrame[][] = model.animations.map(() => []);
  for (const bf of built.frames) byAnim[bf.animation]![bf.index] = bf;
  const keyOf = (bf: SheetFrame) =>
    JSON.stringify([model.animations[bf.animation]!.frames[bf.index]!.label ?? null, bf.frame, bf.spriteSourceSize, bf.durationMs]);
  const emitted: SheetFrame[] = [];
  const emittedKeys: string[] = [];
  /** Where each key was written, to find runs quickly. */
  const starts = new StringMap<number[]>();
  const frameTags: AsepriteTag[] = [];
  /** The model animation of each tag. */
  const tagAnim: number[] = [];
  const loopsElsewhere: ModelAnimation[] = [];
  model.animations.forEach((a, ai) => {
    if (a.frames.length === 0) return;
    if (a.unused) {
      // Frames no animation plays: written, in no tag.
      byAnim[ai]!.forEach((bf) => {
        const key = keyOf(bf);
        if (starts.has(key)) return;
        starts.set(key, [emitted.length]);
        emitted.push(bf);
        emittedKeys.push(key);
      });
      return;
    }
    const keys = byAnim[ai]!.map(keyOf);
    const plan = (a.playback && playbackPlan(keys, a.playback)) || tagPlan(keys, a.loopTo);
    let from = findRun(emittedKeys, starts, plan.keys);
    let direction = plan.direction;
    if (from < 0) {
      const back = findRun(emittedKeys, starts, [...plan.keys].reverse());
      if (back >= 0) {
        from = back;
        direction = REVERSED[direction];
      }
    }
    if (from < 0) {
      from = emitted.length;
      plan.indices.forEach((i, k) => {
        const key = plan.keys[k]!;
        const at = starts.get(key);
        if (at) at.push(emitted.length);
        else starts.set(key, [emitted.length]);
        emitted.push(byAnim[ai]![i]!);
        emittedKeys.push(key);
      });
    }
    const tag: AsepriteTag = {
      name: a.direction ? `${a.name}/${a.direction}` : a.name,
      from,
      to: from + plan.keys.length - 1,
      direction,
      color: '#000000ff',
    };
    if (plan.repeat !== undefined) tag.repeat = plan.repeat;
    if (a.userData !== undefined) tag.data = a.userData;
    if (a.loopTo !== null && a.loopTo !== 0) loopsElsewhere.push(a);
    frameTags.push(tag);
    tagAnim.push(ai);
  });
  // Names: --filename-format (default "{frame}", the keys Phaser's createFromAseprite looks up).
  const format = stringOption(options, FILENAME_FORMAT_OPTION) ?? DEFAULT_FILENAME_FORMAT;
  const used = new Set<string>();
  let renamed = 0;
  const rounding: { at: FrameAt; fromMs: number; toMs: number }[] = [];
  const frames: SheetJsonFrame[] = emitted.map((bf, i) => {
    let d = bf.durationMs;
    if (!Number.isFinite(d) || d > MAX_DURATION) {
      d = MAX_DURATION;
      clamped = true;
    } else {
      const a = model.animations[bf.animation]!;
      rounding.push({ at: { animation: a.name, direction: a.direction, frame: bf.index }, fromMs: d, toMs: Math.max(1, Math.round(d)) });
    }
    const duration = Math.max(1, Math.round(d));
    const tag = innerTag(frameTags, i);
    const mf = model.animations[bf.animation]!.frames[bf.index]!;
    const label = mf.name ?? mf.label;
    const base = formatFrameName(format, {
      title: model.name,
      frame: i,
      tag: tag?.name ?? '',
      tagFrame: tag ? i - tag.from : 0,
      duration,
      label: label ?? String(i),
    });
    let filename = base;
    for (let k = 2; used.has(filename); k++) filename = `${base} (${k})`;
    if (filename !== base) renamed++;
    used.add(filename);
    return {
      filename,
      frame: bf.frame,
      rotated: false,
      trimmed: bf.trimmed,
      spriteSourceSize: bf.spriteSourceSize,
      sourceSize: bf.sourceSize,
      duration,
    };
  });
  if (renamed) notes.push(`aseprite: --filename-format "${format}" gives ${renamed} frame(s) a name already taken; " (2)", ... added`);
  if (loopsElsewhere.length)
    notes.push(
      `aseprite: loops back to a frame other than the first (Aseprite tags cannot; players loop to the first, sprat reads it back from meta.sprat): ${animationList(loopsElsewhere)}`,
    );
  if (clamped) {
    const forever = model.animations.filter((a) => !a.unused && a.frames.some((f) => !Number.isFinite(f.durationMs)));
    const long = model.animations.filter(
      (a) => !a.unused && a.frames.some((f) => Number.isFinite(f.durationMs) && f.durationMs > MAX_DURATION),
    );
    if (forever.length)
      notes.push(
        `aseprite: frames shown forever were given ${MAX_DURATION} ms (sprat reads them back as shown forever from meta.sprat): ${animationList(forever)}`,
      );
    if (long.length) notes.push(`aseprite: frames longer than ${MAX_DURATION} ms were given ${MAX_DURATION} ms: ${animationList(long)}`);
  }
  // What the tags cannot say, for sprat to read back: each tag's animation and direction, frames shown forever, loop points, source frame names.
  const nameOfKey = new Map<string, string>();
  emittedKeys.forEach((k, i) => nameOfKey.set(k, frames[i]!.filename));
  const extras: AnimationExtra[] = [];
  frameTags.forEach((t, i) => {
    const ai = tagAnim[i]!;
    const e = animationExtra(model.animations[ai]!, t.name, {
      loopTo: 'frame',
      sheetNames: byAnim[ai]!.map((bf) => nameOfKey.get(keyOf(bf)) ?? ''),
    });
    if (e) extras.push(e);
  });
  for (const n of timingNotes(FORMAT, 'Aseprite stores whole milliseconds, at least 1', rounding)) notes.push(n);
  const layout = choiceOption(options, LAYOUT_OPTION) ?? 'hash';
  const doc: AsepriteDoc = {
    layout,
    frames,
    meta: {
      app: 'https://www.aseprite.org/',
      version: 'sprat',
      image: `${model.name}.png`,
      format: 'RGBA8888',
      size: { w: built.image.width, h: built.image.height },
      scale: '1',
      frameTags,
      layers: jsonLayers(model),
      // sprat's place for the sprite origin (Aseprite has no per-frame pivot); at the canvas's corner, none (as a reader assumes).
      slices:
        built.originX === 0 && built.originY === 0
          ? []
          : [
              {
                name: 'origin',
                color: '#0000ffff',
                keys: [
                  {
                    frame: 0,
                    bounds: { x: 0, y: 0, w: built.sourceSize.w, h: built.sourceSize.h },
                    pivot: { x: built.originX, y: built.originY },
                  },
                ],
              },
            ],
    },
    sheet: built.image,
  };
  if (extras.length) doc.meta.sprat = { animations: extras };
  if (notes.length) model.notes = [...(model.notes ?? []), ...notes];
  return doc;
}

/**
 * `meta.layers` as Aseprite lists them (src/app/doc_exporter.cpp): the
 * visible layers, each with its group, and opacity (0-255) and blend mode
 * for image layers (a group has neither); a source without layers, Aseprite's
 * one default layer.
 */
function jsonLayers(model: SpriteModel): AsepriteLayer[] {
  if (!model.layers?.length) return [{ name: 'Layer 1', opacity: 255, blendMode: 'normal' }];
  return model.layers
    .filter((l) => l.visible !== false)
    .map((l) => {
      const o: AsepriteLayer = { name: l.name };
      if (l.group !== undefined) o.group = l.group;
      if (l.opacity !== undefined) o.opacity = Math.round(Math.min(1, Math.max(0, l.opacity)) * 255);
      if (l.blendMode !== undefined) o.blendMode = l.blendMode;
      return o;
    });
}

/**
 * How to write one animation as a tag: the frames to store (indices into
 * the animation), the direction and the repeat count, found from the
 * pattern of its frames (a ping-pong, a run played N times).
 */
export function tagPlan(
  keys: string[],
  loopTo: number | null,
): { indices: number[]; keys: string[]; direction: AsepriteDirection; repeat?: number } {
  const n = keys.length;
  let period = n;
  if (loopTo === null) {
    for (let p = 1; p < n; p++) {
      if (n % p === 0 && keys.every((k, i) => k === keys[i % p])) {
        period = p;
        break;
      }
    }
  }
  const repeat = loopTo === null ? n / period : undefined;
  const core = keys.slice(0, period);
  // A ping-pong over m frames plays 2m - 2: up, then down without the ends.
  if (period >= 4 && period % 2 === 0) {
    const m = period / 2 + 1;
    const up = core.slice(0, m);
    const down = [...up].reverse().slice(1, -1);
    if (down.every((k, i) => k === core[m + i]) && new Set(up).size === m) {
      return { indices: up.map((_, i) => i), keys: up, direction: 'pingpong', repeat };
    }
  }
  return { indices: core.map((_, i) => i), keys: core, direction: 'forward', repeat };
}

/**
 * How to write an animation whose model says how it plays (`playback`, read
 * from an Aseprite tag): the frames of one pass in sheet order, when that
 * direction and repeat count play exactly the animation's frames; undefined
 * when they do not (tagPlan finds a plan from the frames then).
 */
function playbackPlan(
  keys: string[],
  mode: NonNullable<ModelAnimation['playback']>,
): { indices: number[]; keys: string[]; direction: AsepriteDirection; repeat?: number } | undefined {
  const n = keys.length;
  const times = mode.repeat ?? 0;
  const pingpong = mode.direction === 'pingpong' || mode.direction === 'pingpong_reverse';
  const candidates: number[] = [];
  if (!pingpong) candidates.push(times > 0 ? n / times : n);
  else if (times > 0) candidates.push(1, (n - 1) / times + 1);
  else candidates.push(n === 1 ? 1 : n / 2 + 1);
  for (const m of candidates) {
    if (!Number.isInteger(m) || m < 1 || m > n) continue;
    const pass = keys.slice(0, m);
    const stored = mode.direction === 'reverse' || mode.direction === 'pingpong_reverse' ? [...pass].reverse() : pass;
    const tag: AsepriteTag = { name: '', from: 0, to: m - 1, direction: mode.direction };
    if (times > 0) tag.repeat = times;
    const played = tagPlayback(tag, times).frames;
    if (played.length !== n || played.some((j, i) => stored[j] !== keys[i])) continue;
    const indices = stored.map((k) => keys.indexOf(k));
    return { indices, keys: stored, direction: mode.direction, ...(times > 0 ? { repeat: times } : {}) };
  }
  return undefined;
}

/** Where `run` appears as a contiguous run of `list` (`starts`: the positions of each key in it), or -1. */
function findRun(list: string[], starts: StringMap<number[]>, run: string[]): number {
  outer: for (const s of starts.get(run[0]!) ?? []) {
    if (s + run.length > list.length) continue;
    for (let i = 1; i < run.length; i++) if (list[s + i] !== run[i]) continue outer;
    return s;
  }
  return -1;
}

export function sniffAseprite(bytes: Uint8Array): boolean {
  const t = sniffText(bytes);
  if (!t) return false;
  const re = /"app"\s*:\s*"[^"]*aseprite/i;
  return /"frames"\s*:/.test(t.head) && (re.test(t.head) || re.test(t.tail));
}

export function asepriteInspectText(doc: AsepriteDoc): string {
  const lines = [
    `Aseprite sheet (${doc.layout} layout), ${frameCount(doc)} frame(s), image ${doc.meta.image ?? '(none)'}` +
      (doc.meta.size ? ` ${doc.meta.size.w}x${doc.meta.size.h}` : ''),
  ];
  for (const t of doc.meta.frameTags) {
    lines.push(`  tag "${t.name}": frames ${t.from}-${t.to}, ${t.direction}${t.repeat ? `, ${t.repeat} time(s)` : ''}`);
  }
  let total = 0;
  for (let i = 0, n = frameCount(doc); i < n; i++) total += frameDurationAt(doc, i) ?? 0;
  lines.push(`  total duration ${total} ms`);
  return printableLines(lines) + '\n';
}

export const asepriteHandler: FormatHandler<AsepriteDoc> = {
  name: 'aseprite',
  text: true,
  title: 'Aseprite JSON sprite sheet',
  extensions: ['.json'],
  sniff: sniffAseprite,
  read: (bytes) => readAseprite(bytes),
  writeOptions: [LAYOUT_OPTION, FILENAME_FORMAT_OPTION],
  async writeFiles(doc, outName, options) {
    // A document read from a file (an aseprite -> aseprite convert) takes --filename-format and --layout when given.
    if (!doc.sheet) doc = rekeyed(doc, options);
    return sheetFiles((image) => asepriteToJson(doc, { image }), doc.sheet, doc.meta.image, outName, limitsFrom(options));
  },
  validate: (bytes): Diagnostic[] => validateSheetDoc(bytes, FORMAT, readAseprite),
  inspectJson: (doc) => ({ format: 'aseprite', layout: doc.layout, ...asepriteToJson(doc) }),
  // The inspect JSON is the file's own (plus format and layout): each value's place in the file.
  linePositions: (_doc, bytes) => jsonLinePositions(bytes),
  inspectText: asepriteInspectText,
  // Tags as Aseprite plays them, each frame for its `duration` (src/interop/aseprite/play.ts, as for .aseprite files).
  play: (doc, options) =>
    playAseprite(
      {
        durations: Array.from({ length: frameCount(doc) }, (_, i) => frameDurationAt(doc, i) ?? 100),
        tags: doc.meta.frameTags,
        format: FORMAT,
        firstTag: true,
      },
      options,
      ANIMATION_OPTION,
    ),
  playOptions: [ANIMATION_OPTION, PLAY_MS_OPTION, PLAY_STEP_MS_OPTION],
  renderOptions: [ANIMATION_OPTION, FRAME_OPTION],
  resourceOptions: [SHEET_IMAGE_OPTION],
  ...sheetModelMethods(FORMAT, asepriteModel),
  fromModel: (model, options) => asepriteFromModel(model, options),
};

// The shared sheet-format pieces lived here; kept importable from here too.
export {
  LAYOUT_OPTION,
  loadSheet,
  modelPicture,
  selectModelAnimation,
  sheetFiles,
  sheetModelMethods,
  validateSheetDoc,
} from '../sheethandler.js';

// The native .aseprite / .ase file (format `ase`), exported from the folder like every handler.
export { aseHandler } from './file.js';

/**
 * The atlas's animations as Aseprite tags: an animation whose frames are
 * consecutive frames of the page, in order, becomes `from`..`to`; the
 * others cannot be a tag (Aseprite's tags are frame ranges).
 */
function atlasTags(atlas: Atlas, onPage: number[]): { tags: AsepriteTag[]; left: string[] } {
  const at = new Map(onPage.map((i, k) => [i, k]));
  const tags: AsepriteTag[] = [];
  const left: string[] = [];
  for (const a of atlas.animations) {
    const ks = a.frames.map((i) => at.get(i));
    const from = ks[0];
    const run = from !== undefined && ks.every((k, j) => k === from + j);
    if (run) tags.push({ name: a.name, from, to: from + ks.length - 1, direction: 'forward' });
    else if (a.frames.some((i) => at.has(i))) left.push(a.name);
  }
  return { tags, left };
}

/**
 * `sprat pack --to aseprite`: the atlas as Aseprite's JSON sheet (hash),
 * written by the one writer above (asepriteToJson): one file per page
 * (`NAME.json`, `NAME-1.json`, ...: Aseprite's sheet has one image), each
 * frame's `duration` (100 ms when the source says none), animations of
 * consecutive frames as `frameTags`.
 */
function asepriteAtlasFiles(atlas: Atlas, dataName: string): AtlasFile[] {
  requireUnrotated(atlas, FORMAT, "Aseprite's sheet JSON cannot say a frame is turned");
  return atlas.pages.map((p, page) => {
    const onPage = atlas.frames.map((f, i) => (f.page === page ? i : -1)).filter((i) => i >= 0);
    const doc: AsepriteDoc = {
      layout: 'hash',
      frames: onPage.map((i) => {
        const f = atlas.frames[i]!;
        return {
          filename: f.name,
          frame: { ...f.frame },
          rotated: false,
          trimmed: f.trimmed,
          spriteSourceSize: { ...f.spriteSourceSize },
          sourceSize: { ...f.sourceSize },
          duration: frameMs(f),
        };
      }),
      meta: {
        ...pageMeta(atlas, page),
        frameTags: atlasTags(atlas, onPage).tags,
        layers: [],
        slices: [],
      },
    };
    return jsonFile(pageDataName(dataName, page), asepriteToJson(doc, { image: doc.meta.image }));
  });
}

export const asepriteExporter: AtlasExporter = {
  name: 'aseprite',
  description: "Aseprite's JSON sheet (hash), one per page: trimmed frames, durations, animations as frame tags",
  extension: '.json',
  rotation: false,
  multipage: false,
  write: asepriteAtlasFiles,
  losses(atlas) {
    const out = atlasLosses(atlas, FORMAT, { durations: 'frame', animations: true, crossPageAnimations: false });
    const left = atlas.pages.flatMap((_, page) =>
      atlasTags(
        atlas,
        atlas.frames.map((f, i) => (f.page === page ? i : -1)).filter((i) => i >= 0),
      ).left.filter((n) => !atlas.animations.find((a) => a.name === n && new Set(a.frames.map((i) => atlas.frames[i]!.page)).size > 1)),
    );
    if (left.length)
      out.push(`aseprite tags are frame ranges: ${left.map((n) => `"${n}"`).join(', ')} are not consecutive frames and are not written`);
    return out;
  },
};
