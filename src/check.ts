/**
 * `sprat check` at the library level (browser-safe): which files a project
 * check reads, and the problems of one file: its own (validate) and those of
 * what it references (sheets and textures that are missing or do not decode),
 * found by drawing every picture it offers (or making its model) through the
 * given resource loader.
 */
import { OptionError, diagnosticFromError, isFormatError, oneLine, type Diagnostic } from './binary/errors.js';
import { LimitError } from './binary/limits.js';
import { extensionOf } from './detect.js';
import { FORMATS } from './registry.js';
import type { CommandOptions, FormatHandler, ResourceLoader } from './formats/types.js';
import { load, renderViews, validateWithResources } from './api.js';
import { budgetFrom } from './binary/limits.js';
import { sharingImages } from './formats/resources.js';
import { drawPicture, type Picture, type PicturePart } from './render/pipeline.js';
import { isTiledProjectName, tiledProjectProblems } from './interop/tiled/check.js';

/**
 * Frames whose source rectangle leaves its image (the Solarus
 * engine draws garbage or crashes; docs/commands/check.md): one message per frame. Only parts given
 * as a list are looked at (a level may give its cells as a one-pass iterable).
 */
export function framesOutsideImages(picture: Picture, label: string): string[] {
  const out: string[] = [];
  picture.frames.forEach((frame, i) => {
    if (!Array.isArray(frame.parts)) return;
    for (const part of frame.parts as PicturePart[]) {
      if (part.sx === undefined && part.sy === undefined && part.sw === undefined && part.sh === undefined) continue;
      const { width, height } = part.image;
      const x = part.sx ?? 0;
      const y = part.sy ?? 0;
      const w = part.sw ?? width - x;
      const h = part.sh ?? height - y;
      if (x < 0 || y < 0 || x + w > width || y + h > height) {
        out.push(`${label}, frame ${i}: the rectangle x ${x}, y ${y}, ${w}x${h} lies outside its ${width}x${height} image`);
        break;
      }
    }
  });
  return out;
}

/** Extensions too common to mean a sprite file by themselves: only the content (a format's sniff) says. */
const NOT_SPRITES = /(^|[\\/])(tilesets|maps|languages|fonts)[\\/]/;

const CONTENT_ONLY = new Set(['.json', '.lua', '.dat', '.tmj', '.txt', '.tsx']);

/**
 * The format `check` reads a file as, or undefined to skip it quietly: a
 * format's sniff first; else the extension, except for `.json`/`.lua`/`.dat`,
 * which many other files share (a `.dat` under a `sprites/` folder is a
 * Solarus sprite, as the `.dat` rule of docs/spec/README.md says).
 */
export function checkFormatOf(bytes: Uint8Array, filePath: string): FormatHandler | undefined {
  // A Solarus quest's other data files (quest.dat, tilesets, maps) look like sprite text but are not sprites.
  if (extensionOf(filePath) === '.dat' && (NOT_SPRITES.test(filePath) || /(^|[\\/])(quest|project_db)\.dat$/.test(filePath)))
    return undefined;
  // Tiled object templates are checked through the maps that place them.
  if (/\.(tx|tj)$/i.test(filePath)) return undefined;
  for (const f of FORMATS) {
    // The Solarus syntaxes are plain text that a README or notes file can resemble: only their own extensions.
    if (f.name.startsWith('solarus') && !f.extensions.includes(extensionOf(filePath))) continue;
    try {
      if (f.sniff?.(bytes)) return f;
    } catch {
      // a sniffer that trips over odd bytes says no
    }
  }
  const ext = extensionOf(filePath);
  if (!ext) return undefined;
  if (ext === '.dat' && /(^|[\\/])sprites[\\/]/.test(filePath)) return FORMATS.find((f) => f.name === 'solarus');
  if (CONTENT_ONLY.has(ext)) return undefined;
  return FORMATS.find((f) => f.extensions.includes(ext));
}

class BoundsProblem extends Error {}

/**
 * `resources` with each answer remembered for one file's check: every
 * picture of a document asks the same questions (the quest root climbed
 * once per animation and direction, the same sheet found and decoded), and
 * on disk each was a stat or a read. Images are decoded once (sharingImages).
 */
export function rememberingLoader(resources: ResourceLoader): ResourceLoader {
  const exists = new Map<string, Promise<boolean>>();
  const loads = new Map<string, Promise<Uint8Array>>();
  return sharingImages({
    load: (p) => loads.get(p) ?? (loads.set(p, resources.load(p)), loads.get(p)!),
    exists: (p) => exists.get(p) ?? (exists.set(p, resources.exists(p)), exists.get(p)!),
    ...(resources.describe ? { describe: (p: string) => resources.describe!(p) } : {}),
  });
}

function problemOf(e: unknown): Diagnostic {
  if (isFormatError(e)) return diagnosticFromError(e);
  if (e instanceof LimitError) return { severity: 'error', message: oneLine(e.message) };
  return { severity: 'error', message: oneLine((e as Error | undefined)?.message ?? String(e)) };
}

/**
 * The problems of one file read as `handler`: validation first; when valid,
 * every picture it offers is drawn through `resources` (or its model made
 * when it has no picture), and each distinct failure is an error.
 * Never throws for bad input.
 */
export async function checkFile(
  bytes: Uint8Array,
  fileName: string,
  handler: FormatHandler,
  resources: ResourceLoader,
  options: CommandOptions = {},
): Promise<Diagnostic[]> {
  resources = rememberingLoader(resources);
  // Validation with the files the document needs (Tiled's external tilesets), then what it leans on (the Hallgeir chain).
  const v = await validateWithResources(bytes, fileName, handler.name, options, resources);
  if (!v.valid) return v.diagnostics;
  if (handler.checkResources) {
    try {
      const chain = await handler.checkResources(handler.read(bytes, { options }), resources, options);
      if (chain.length) return [...v.diagnostics, ...chain];
    } catch (e) {
      return [...v.diagnostics, problemOf(e)];
    }
  }
  const problems: Diagnostic[] = v.diagnostics.slice();
  const seen = new Set(problems.map((p) => p.message));
  const add = (e: unknown) => {
    // a picture that needs the user's word (Solarus "tileset" animations, a Hallgeir frame size) is not the file's fault
    if (e instanceof OptionError) return;
    // a picture sprat cannot draw (a hexagonal Tiled map) is sprat's limit, not the file's fault
    if ((e as { notDrawn?: unknown } | undefined)?.notDrawn === true) return;
    const d = problemOf(e);
    if (seen.has(d.message)) return;
    seen.add(d.message);
    problems.push(d);
  };
  let loaded;
  try {
    loaded = load(bytes, fileName, handler.name, options);
  } catch (e) {
    add(e);
    return problems;
  }
  if (handler.picture) {
    for (const view of renderViews(loaded)) {
      try {
        // Strict: a missing file is the picture's error (render draws the rest, MissingFiles), reported here.
        const opts = { ...options, ...view.options, strict: true };
        const picture = await handler.picture(loaded.doc, opts, resources);
        const outside = framesOutsideImages(picture, view.label);
        if (outside.length) add(new BoundsProblem(outside[0] + (outside.length > 1 ? ` (and ${outside.length - 1} more frames)` : '')));
        drawPicture(picture, budgetFrom(opts));
      } catch (e) {
        add(e);
      }
    }
  } else if (handler.toModel) {
    try {
      await handler.toModel(loaded.doc, resources, options);
    } catch (e) {
      add(e);
    }
  }
  return problems;
}

/** What `check` reports of one file: its path, the format it was read as (null when unread) and its problems. */
export interface CheckReport {
  format: string | null;
  problems: Diagnostic[];
}

/**
 * `check` of one file found by a walk (`filePath` as shown, relative to
 * where the check runs; `resources` relative to the file): a Tiled project
 * (`.tiled-project`), else the format `checkFormatOf` reads it as, checked
 * by `checkFile`; null when `check` skips the file quietly (not a sprite
 * or level file). The command line and the viewer's opened folder both
 * report through it.
 */
export async function checkReport(
  bytes: Uint8Array,
  filePath: string,
  resources: ResourceLoader,
  options: CommandOptions = {},
): Promise<CheckReport | null> {
  if (isTiledProjectName(filePath))
    return { format: 'tiled-project', problems: (await tiledProjectProblems(bytes, filePath, resources)).problems };
  const handler = checkFormatOf(bytes, filePath);
  if (!handler) return null;
  return { format: handler.name, problems: await checkFile(bytes, filePath, handler, resources, options) };
}

/** Whether `check` reads the file (`checkReport` gives a report, not null), told without checking it. */
export function checkReads(bytes: Uint8Array, filePath: string): boolean {
  return isTiledProjectName(filePath) || checkFormatOf(bytes, filePath) !== undefined;
}
