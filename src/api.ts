/**
 * The library's format-independent entry points: find a file's format, read,
 * validate, inspect, convert, play and render it. The command line and the
 * viewer are thin shells over these functions.
 */
import { FormatError, diagnosticFromError, isFormatError, oneLine, type Diagnostic } from './binary/errors.js';
import { detectFormat, extensionOf, formatsForExtension } from './detect.js';
import { FORMATS, getFormat } from './registry.js';
import type { CommandOptions, FormatHandler, OutputFile, RenderResult, RenderView, ResourceLoader } from './formats/types.js';
import { budgetFrom, type Budget } from './binary/limits.js';
import { drawPicture, nextFrame } from './render/pipeline.js';
import type { RgbaImage } from './render/image.js';
import type { LevelModel, SpriteModel } from './model/types.js';
import { unusedFrameNames } from './model/unused.js';
import { sharingImages } from './formats/resources.js';

export class UnknownFormatError extends Error {
  override name = 'UnknownFormatError';
}

/** The handler for a format name; throws UnknownFormatError for names it does not know. */
export function formatByName(name: string): FormatHandler {
  const f = getFormat(name);
  if (!f) {
    throw new UnknownFormatError(`unknown format "${name}" (known: ${FORMATS.map((x) => x.name).join(', ')})`);
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

/** Reads a document of any known format. Throws FormatError for bad input. */
export function load(bytes: Uint8Array, fileName = '', format?: string, options?: CommandOptions): Loaded {
  const handler = formatOf(bytes, fileName, format);
  const warnings: Diagnostic[] = [];
  const doc = handler.read(bytes, { warn: (d) => warnings.push(d), options });
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

/** The format a `convert` writes: `to` when given, else the contract's extension rule. */
export function outputFormatFor(input: FormatHandler, outName: string, to?: string): FormatHandler {
  if (to) return formatByName(to);
  const ext = extensionOf(outName);
  const candidates = formatsForExtension(outName);
  if (input.extensions.includes(ext) || candidates.length > 1 || (candidates.length === 0 && ext === '')) return input;
  if (candidates.length === 1) return candidates[0]!;
  throw new UnknownFormatError(`cannot tell which format to write from the extension "${ext}"; use --to`);
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
): Promise<{ files: OutputFile[]; notes: string[] }> {
  const src = loaded.handler;
  let doc: unknown = loaded.doc;
  const notes: string[] = [];
  const direct = target !== src ? src.convertTo?.(loaded.doc, target, options) : undefined;
  if (direct) {
    // The same family (e.g. Solarus line <-> Lua syntax): converted directly, every field kept.
    doc = direct.doc;
    for (const n of direct.notes) notes.push(n);
  } else if (target !== src) {
    if (!src.toModel) throw new UnknownFormatError(`converting from ${src.name} is not supported`);
    if (!target.fromModel) throw new UnknownFormatError(`converting to ${target.name} is not supported`);
    const model = await src.toModel(loaded.doc, resources, options);
    doc = await target.fromModel(model, options);
    // fromModel may add notes of its own (what the target cannot hold).
    for (const n of model.notes ?? []) notes.push(oneLine(n));
    for (const n of unusedFramesNotes(model, target)) notes.push(n);
  }
  if (target.writeFiles) return { files: await target.writeFiles(doc, outName, options), notes };
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
 * Draws what `options` select (an animation, view, direction, frame...)
 * through the one picture pipeline: the format describes the frames
 * (`handler.picture`), src/render/pipeline.ts draws them, spending the
 * `--max-pixels` and `--max-draw-pixels` budgets of `options` (or `budget`).
 */
export async function render(loaded: Loaded, options: CommandOptions, resources: ResourceLoader, budget?: Budget): Promise<RenderResult> {
  const h = loaded.handler;
  if (!h.picture) throw new UnknownFormatError(`rendering ${h.name} files is not supported`);
  const b = budget ?? budgetFrom(options);
  return drawPicture(await h.picture(loaded.doc, options, resources), b);
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
      const r = await render(loaded, { ...v.options, ...options }, resources);
      const n = r.frames.length;
      animations.push({
        label: v.label,
        options: opts,
        frames: r.frames,
        delaysMs: r.delaysMs ?? [],
        loops: r.loops,
        next: (f) => nextFrame(f, n, r.loops),
      });
    } catch (e) {
      first ??= e;
      failed.push(`${v.label}: ${(e as Error).message}`);
    }
  }
  if (animations.length === 0) throw first;
  return { animations, note: failed.length ? `not shown: ${failed.join('; ')}` : undefined };
}
