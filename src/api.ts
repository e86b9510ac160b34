/**
 * The library's format-independent entry points: find a file's format, read,
 * validate, inspect, convert, play and render it. The command line and the
 * viewer are thin shells over these functions.
 */
import { FormatError, diagnosticFromError, isFormatError, oneLine, type Diagnostic } from './binary/errors.js';
import { detectFormat, extensionOf, formatsForExtension } from './detect.js';
import { FORMATS, getFormat } from './registry.js';
import type {
  CommandOptions,
  FormatHandler,
  LinePosition,
  OutputFile,
  ReadContext,
  RenderResult,
  RenderView,
  ResourceLoader,
} from './formats/types.js';
import { budgetFrom, type Budget } from './binary/limits.js';
import { drawPicture, nextFrame, withLayerChoices, type DrawnPicture, type PictureLayer } from './render/pipeline.js';
import { didYouMean, layerChoices, listed, NOTE_NAMES } from './formats/options.js';
import type { RgbaImage } from './render/image.js';
import type { LevelModel, ModelFrame, SpriteModel } from './model/types.js';
import { unusedFrameNames } from './model/unused.js';
import { repeatText } from './model/playback.js';
import { animationList } from './interop/sheetextras.js';
import { sharingImages } from './formats/resources.js';
import { animationsFor, spriteFromFrames } from './model/frames.js';
import { encodePng } from './render/png.js';

export class UnknownFormatError extends Error {
  override name = 'UnknownFormatError';
}

/** The handler for a format name; throws UnknownFormatError for names it does not know. */
export function formatByName(name: string): FormatHandler {
  const f = getFormat(name);
  if (!f) {
    const names = FORMATS.map((x) => x.name);
    throw new UnknownFormatError(`unknown format "${name}"${didYouMean(name, names)} (known: ${names.join(', ')})`);
  }
  return f;
}

/** The handler for a file: `format` when given, else found from content then extension. */
export function formatOf(bytes: Uint8Array, fileName: string, format?: string): FormatHandler {
  if (format) return formatByName(format);
  const f = detectFormat(bytes, fileName);
  if (!f) throw new FormatError('unknown', 'not a file of any format sprat knows (no known magic bytes or extension)', { offset: 0 });
  return f;
}

export interface Loaded<Doc = unknown> {
  handler: FormatHandler<Doc>;
  doc: Doc;
  warnings: Diagnostic[];
}

/**
 * Reads a document of any known format. Throws FormatError for bad input.
 * `how.keepBytes`: the caller will never change `bytes`, so the document may
 * share them (see ReadContext).
 */
export function load(
  bytes: Uint8Array,
  fileName = '',
  format?: string,
  options?: CommandOptions,
  how: Pick<ReadContext, 'keepBytes'> = {},
): Loaded {
  const handler = formatOf(bytes, fileName, format);
  const warnings: Diagnostic[] = [];
  const doc = handler.read(bytes, { warn: (d) => warnings.push(d), options, keepBytes: how.keepBytes });
  return { handler, doc, warnings };
}

export interface ValidationResult {
  format: string;
  valid: boolean;
  diagnostics: Diagnostic[];
}

/** Validates bytes: never throws for bad input. */
export function validate(bytes: Uint8Array, fileName = '', format?: string, options?: CommandOptions): ValidationResult {
  let handler: FormatHandler;
  try {
    handler = formatOf(bytes, fileName, format);
  } catch (e) {
    if (isFormatError(e)) return { format: 'unknown', valid: false, diagnostics: [diagnosticFromError(e)] };
    throw e;
  }
  let diagnostics: Diagnostic[];
  try {
    diagnostics = handler.validate(bytes, options);
  } catch (e) {
    if (isFormatError(e)) diagnostics = [diagnosticFromError(e)];
    else throw e;
  }
  return { format: handler.name, valid: !diagnostics.some((d) => d.severity === 'error'), diagnostics };
}

/** `validate`, then (when valid) the handler's `validateResources` through `resources`. Never throws for bad input. */
export async function validateWithResources(
  bytes: Uint8Array,
  fileName: string,
  format: string | undefined,
  options: CommandOptions | undefined,
  resources: ResourceLoader,
): Promise<ValidationResult> {
  const r = validate(bytes, fileName, format, options);
  if (!r.valid) return r;
  const handler = formatOf(bytes, fileName, r.format);
  if (!handler.validateResources) return r;
  try {
    const more = await handler.validateResources(handler.read(bytes, { options }), resources, options);
    const diagnostics = [...r.diagnostics, ...more];
    return { ...r, valid: !diagnostics.some((d) => d.severity === 'error'), diagnostics };
  } catch (e) {
    if (isFormatError(e)) return { ...r, valid: false, diagnostics: [...r.diagnostics, diagnosticFromError(e)] };
    throw e;
  }
}

/** The format a `convert` writes: `to` when given, else the extension rule of docs/spec/README.md. */
export function outputFormatFor(input: FormatHandler, outName: string, to?: string): FormatHandler {
  if (to) return formatByName(to);
  const ext = extensionOf(outName);
  const compiled = input.compilesTo?.[ext];
  if (compiled) return formatByName(compiled);
  const candidates = formatsForExtension(outName);
  if (input.extensions.includes(ext) || candidates.length > 1 || (candidates.length === 0 && ext === '')) return input;
  if (candidates.length === 1) return candidates[0]!;
  throw new UnknownFormatError(`cannot tell which format to write from the extension "${ext}"; use --to`);
}

/**
 * The note `convert` prints when `outputFormatFor` kept the input's format
 * because OUT's extension is shared by several formats, none of them the
 * input's (`tunic.dat` to `e9.json`: Solarus text in a `.json` file); else
 * undefined. The rule of docs/spec/README.md stands; the user is only told.
 */
export function outputFormatNote(input: FormatHandler, outName: string, to?: string): string | undefined {
  if (to) return undefined;
  const ext = extensionOf(outName);
  if (!ext || input.compilesTo?.[ext] || input.extensions.includes(ext)) return undefined;
  const names = formatsForExtension(outName).map((f) => f.name);
  if (names.length < 2) return undefined;
  const list = `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  return `${outName} is written as ${input.name}, the input's format (${ext} is shared by ${list}: give --to to choose one)`;
}

/**
 * Converts a loaded document to `target`. The same format re-encodes; a
 * format of the same family converts directly (`convertTo`); other formats
 * go through the common model. Returns the files to write (the first
 * is OUT itself).
 */
export async function convert(
  loaded: Loaded,
  target: FormatHandler,
  outName: string,
  resources: ResourceLoader,
  options: CommandOptions = {},
  /** Where OUT goes (its folder and the input's, by one loader): a Solarus sheet names its images from the quest's sprites/ folder. */
  place?: { dir: string; inputDir: string; resources: ResourceLoader },
): Promise<{ files: OutputFile[]; notes: string[] }> {
  const src = loaded.handler;
  let doc: unknown = loaded.doc;
  let viaModel = false;
  const notes: string[] = [];
  const direct = target !== src ? await src.convertTo?.(loaded.doc, target, options, resources) : undefined;
  if (direct) {
    // The same family (e.g. Solarus line <-> Lua syntax): converted directly, every field kept.
    doc = direct.doc;
    for (const n of direct.notes) notes.push(n);
  } else if (target !== src) {
    if (!src.toModel) throw new UnknownFormatError(`converting from ${src.name} is not supported`);
    if (!target.fromModel) throw new UnknownFormatError(`converting to ${target.name} is not supported`);
    const model = await src.toModel(loaded.doc, resources, options);
    doc = await target.fromModel(model, options);
    viaModel = true;
    // fromModel may add notes of its own (what the target cannot hold).
    for (const n of model.notes ?? []) notes.push(oneLine(n));
    for (const n of unusedFramesNotes(model, target)) notes.push(n);
    for (const n of playbackNotes(model, target)) notes.push(n);
    for (const n of frameDataNotes(model, target)) notes.push(n);
  }
  for (const n of target.writeNotes?.(doc) ?? []) notes.push(n);
  if (target.writeFiles) {
    const at = place && {
      dir: place.dir,
      resources: place.resources,
      note: (m: string) => notes.push(oneLine(m)),
      ...(viaModel ? { modelDir: place.inputDir } : {}),
    };
    return { files: await target.writeFiles(doc, outName, options, at), notes };
  }
  if (!target.write) throw new UnknownFormatError(`writing ${target.name} is not supported`);
  return { files: [{ name: outName, bytes: target.write(doc, options) }], notes };
}

/**
 * The files the document names (its handler's `references`), by existence
 * only: nothing decoded. Pass a recording loader (src/node/fs.ts) to protect
 * them from the outputs. [] when the format names none or they cannot be told.
 */
export async function references(loaded: Loaded, resources: ResourceLoader, options: CommandOptions = {}): Promise<string[]> {
  try {
    return (await loaded.handler.references?.(loaded.doc, resources, options)) ?? [];
  } catch {
    return [];
  }
}

/** Where frames no animation plays become an animation of their own in the target, a note that lists them. */
function unusedFramesNotes(model: SpriteModel | LevelModel, target: FormatHandler): string[] {
  if (model.kind !== 'sprite' || target.holdsUnusedFrames) return [];
  return model.animations
    .filter((a) => a.unused)
    .map((a) => `frames no animation plays are kept as the animation "${a.name}": ${unusedFrameNames(a)}`);
}

/**
 * To a format that does not store how an animation walks its frames (the
 * model's `playback`, docs/interop.md): the frames are already in the order
 * they play (the readers expand a ping-pong and its repeats), so playback is
 * the same; what is lost is the mode itself. One note per kind, naming the
 * animations.
 */
function playbackNotes(model: SpriteModel | LevelModel, target: FormatHandler): string[] {
  if (model.kind !== 'sprite' || target.holdsPlayback) return [];
  const label = (a: SpriteModel['animations'][number]) => JSON.stringify(a.direction ? `${a.name}/${a.direction}` : a.name);
  const directed = model.animations.filter((a) => a.playback && a.playback.direction !== 'forward');
  const repeated = model.animations.filter((a) => a.playback?.repeat);
  const notes: string[] = [];
  if (directed.length)
    notes.push(
      `${target.name}: tag directions are not stored; the frames are written in the order they play: ${listed(
        directed.map((a) => `${label(a)} (${a.playback!.direction})`),
        NOTE_NAMES,
      )}`,
    );
  if (repeated.length)
    notes.push(
      `${target.name}: tag repeat counts are not stored; the repeats are written out as frames: ${listed(
        repeated.map((a) => `${label(a)} (${repeatText(a.playback!.repeat!)})`),
        NOTE_NAMES,
      )}`,
    );
  return notes;
}

/** To a format that stores no points and collision shapes, or no frame events: one note per kind, naming the animations. */
function frameDataNotes(model: SpriteModel | LevelModel, target: FormatHandler): string[] {
  if (model.kind !== 'sprite') return [];
  const notes: string[] = [];
  for (const [what, held, has] of [
    ['points and collision shapes', target.holdsShapes, (f: ModelFrame) => !!f.shapes?.length],
    ['frame events', target.holdsEvents, (f: ModelFrame) => !!f.events?.length],
  ] as const) {
    if (held) continue;
    const lost = model.animations.filter((a) => a.frames.some(has));
    if (lost.length) notes.push(`${target.name}: ${what} are not stored and were dropped: ${animationList(lost)}`);
  }
  return notes;
}

/**
 * Draws what `options` select (an animation, view, direction, frame...)
 * through the one picture pipeline: the format describes the frames
 * (`handler.picture`), src/render/pipeline.ts draws them, spending the
 * `--max-pixels` and `--max-draw-pixels` budgets of `options` (or `budget`).
 */
export async function render(loaded: Loaded, options: CommandOptions, resources: ResourceLoader, budget?: Budget): Promise<RenderResult> {
  return (await renderLaidOut(loaded, options, resources, budget)).result;
}

/**
 * `render`, with what a level's picture says of its layers (their grids,
 * cells and objects, in picture coordinates; `result.originX/Y` is where
 * picture (0, 0) lands): the viewer's layer list and cell inspector.
 * `--hide-layers` and `--layer-opacity` are applied here, once for every format.
 */
export async function renderLaidOut(
  loaded: Loaded,
  options: CommandOptions,
  resources: ResourceLoader,
  budget?: Budget,
): Promise<{ result: DrawnPicture; layers: PictureLayer[] }> {
  const h = loaded.handler;
  if (!h.picture) throw new UnknownFormatError(`rendering ${h.name} files is not supported`);
  const b = budget ?? budgetFrom(options);
  let picture = await h.picture(loaded.doc, options, resources);
  const layers = picture.layers ?? [];
  if (!picture.ownLayerChoices && (options['hide-layers'] !== undefined || options['layer-opacity'] !== undefined)) {
    const { hidden, opacity } = layerChoices(options, layers.length);
    picture = withLayerChoices(picture, hidden, opacity);
  }
  return { result: drawPicture(picture, b), layers };
}

/** Where the parts of a document's inspect JSON lie in its bytes (JSON pointer → [start, end)); {} when the format does not say. */
export function byteRanges(loaded: Loaded, bytes: Uint8Array): Record<string, [number, number]> {
  try {
    return loaded.handler.byteRanges?.(loaded.doc, bytes) ?? {};
  } catch {
    return {};
  }
}

/** Where the parts of a text document's inspect JSON were in its file (JSON pointer → line and column); {} when the format does not say. */
export function linePositions(loaded: Loaded, bytes: Uint8Array): Record<string, LinePosition> {
  try {
    return loaded.handler.linePositions?.(loaded.doc, bytes) ?? {};
  } catch {
    return {};
  }
}

/** The pictures a document offers (for the viewer): each a label and the render options that select it. */
export function renderViews(loaded: Loaded): RenderView[] {
  const h = loaded.handler;
  if (!h.picture) return [];
  return h.renderViews?.(loaded.doc) ?? [{ label: h.name, options: {} }];
}

export function play(loaded: Loaded, options: CommandOptions): { records: unknown[]; warnings: string[]; text?: string } {
  const h = loaded.handler;
  if (!h.play) throw new UnknownFormatError(`playing ${h.name} files is not supported`);
  const r = h.play(loaded.doc, options);
  return { ...r, warnings: r.warnings.map(oneLine) };
}

/** One animation of the viewer's preview (see `preview`). */
export interface PreviewAnimation {
  label: string;
  /** The render options that select this animation (what `sprat render` would be given). */
  options: Record<string, string>;
  frames: RgbaImage[];
  /** One per frame for an animation; empty for a still picture. */
  delaysMs: number[];
  /** As `render` gives it: 0 = forever, 1 = once, undefined for a still picture. */
  loops?: number;
  /** The frame after `frame`, or null when playback stops. */
  next(frame: number): number | null;
  /** A level's layers (see renderLaidOut), and where picture (0, 0) lands on the frames. */
  layers: PictureLayer[];
  originX: number;
  originY: number;
}

export interface Preview {
  animations: PreviewAnimation[];
  note?: string;
}
/**
 * What the viewer animates for a document: every picture it offers
 * (`renderViews`), each drawn by the very call `sprat render` makes, so the
 * viewer shows the pixels and delays the command line writes. `options` are added
 * to each picture's; `options` are added
 * to each (e.g. a Hallgeir `frame-size`). A picture that cannot be drawn
 * is named in the note; when none can, the first error is thrown.
 */
export async function preview(loaded: Loaded, resources: ResourceLoader, options: CommandOptions = {}): Promise<Preview> {
  const views = renderViews(loaded);
  // Every picture of the document decodes each image it draws from once.
  resources = sharingImages(resources);
  if (views.length === 0) return { animations: [], note: `${loaded.handler.name} files have no picture to show` };
  const animations: PreviewAnimation[] = [];
  const failed: string[] = [];
  let first: unknown;
  for (const v of views) {
    const opts: Record<string, string> = {};
    for (const [k, x] of Object.entries({ ...v.options, ...options })) if (typeof x === 'string') opts[k] = x;
    try {
      const { result: r, layers } = await renderLaidOut(loaded, { ...v.options, ...options }, resources);
      const n = r.frames.length;
      animations.push({
        label: v.label,
        options: opts,
        frames: r.frames,
        delaysMs: r.delaysMs ?? [],
        loops: r.loops,
        next: (f) => nextFrame(f, n, r.loops),
        layers,
        originX: r.originX,
        originY: r.originY,
      });
    } catch (e) {
      first ??= e;
      failed.push(`${v.label}: ${(e as Error).message}`);
    }
  }
  if (animations.length === 0) throw first;
  return { animations, note: failed.length ? `not shown: ${failed.join('; ')}` : undefined };
}

/** What `sprat new` builds a sprite from (src/model/frames.ts). */
export interface NewSpriteRequest {
  /** The frames: separate images, or the cells cut from a sheet. */
  frames: RgbaImage[];
  /** Each frame's row on its sheet (for `NAME/rows` directions); absent for separate images. */
  rows?: number[];
  /** The animation description (`walk:0-7@100;idle:8@500,once`); default: one looping animation of every frame. */
  animations?: string;
  /** The sprite origin inside each frame, from its upper-left corner (default 0,0). */
  origin?: { x: number; y: number };
  /** Trim frames to their visible pixels (default true). */
  trim?: boolean;
}

/**
 * `sprat new`: a sprite in `target`'s format from frames and an animation
 * description, through the common model and the format's own writer. The
 * packed sheet of the frames (each stored once) is `STEM.png` beside OUT:
 * written by the format itself (ISPRITE, Aseprite, TexturePacker, a Solarus
 * sheet it redraws), or added here when the document names it (Hallgeir, a
 * Solarus sheet kept as it is); CTHG holds its pixels inside.
 */
export async function newSprite(
  request: NewSpriteRequest,
  target: FormatHandler,
  outName: string,
  options: CommandOptions = {},
): Promise<{ files: OutputFile[]; notes: string[] }> {
  if (!target.fromModel || !(target.write || target.writeFiles)) {
    throw new UnknownFormatError(`making a ${target.name} file from frames is not supported`);
  }
  const budget = budgetFrom(options);
  budget.spend('maxItems', request.frames.length, `the ${request.frames.length} frames`);
  const rows = request.rows;
  const animations = animationsFor(request.animations, request.frames.length, rows ? (i) => rows[i] ?? 0 : undefined);
  const stem =
    outName
      .replace(/^.*[\\/]/, '')
      .replace(/\.[^.]*$/, '')
      .replace(/\s+/g, '_') || 'sprite';
  const sheetPath = `${stem}.png`;
  // A Hallgeir sprite has one frame size (not stored) and no origin: its frames stay whole, at 0,0.
  const hallgeir = target.name === 'hallgeir-sprite';
  const early: string[] = [];
  if (hallgeir) {
    const o = request.origin;
    if (o && (o.x !== 0 || o.y !== 0)) early.push(`hallgeir-sprite: frames have no origin; the origin ${o.x},${o.y} is not stored`);
    const f = request.frames[0];
    if (f) early.push(`hallgeir-sprite: the frame size is not stored; read the sprite with --frame-size ${f.width}x${f.height}`);
  }
  const model = spriteFromFrames(request.frames, animations, {
    name: stem,
    sheetPath,
    origin: hallgeir ? undefined : request.origin,
    trim: hallgeir ? false : request.trim,
    budget,
  });
  const atlas = model.sheets[0]!.image!;
  const doc = await target.fromModel(model, options);
  const notes = [...early, ...(model.notes ?? [])].map(oneLine);
  const files = target.writeFiles
    ? await target.writeFiles(doc, outName, options)
    : [{ name: outName, bytes: target.write!(doc, options) }];
  if (!files.some((f) => f.name === sheetPath)) {
    // Does the document name the sheet? Asked of its own `references`, with a loader that has no file.
    const asked: string[] = [];
    const probe: ResourceLoader = {
      load: async (p) => {
        asked.push(p);
        throw Object.assign(new Error(`no file ${p}`), { code: 'ENOENT' });
      },
      exists: async (p) => {
        asked.push(p);
        return false;
      },
    };
    try {
      await target.references?.(doc, probe, options);
    } catch {
      // nothing named
    }
    if (asked.some((p) => p.replace(/^.*\//, '') === sheetPath)) files.push({ name: sheetPath, bytes: encodePng(atlas) });
  }
  return { files, notes };
}
