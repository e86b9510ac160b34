/**
 * The handler pieces the JSON + PNG sheet formats share (Aseprite,
 * TexturePacker): their options, loading the sheet named by meta.image,
 * `render`/`toModel`, the files `convert` writes, and validation.
 */
import { diagnosticFromError, isFormatError, FormatError } from '../binary/errors.js';
import { ANIMATION_OPTION, FRAME_OPTION } from '../formats/selections.js';
import type { CommandOptions, OptionSpec, OutputFile, RenderView, ResourceLoader } from '../formats/types.js';
import { intOption, selectIndex, selectNamed, stringOption } from '../formats/options.js';
import { foundResources, isAbsolutePath, loadImage, MissingFiles, type ResourceRequest } from '../formats/resources.js';
import { Budget, limitsFrom, type Limits } from '../binary/limits.js';
import { jsonFile } from '../binary/json-chunks.js';
import { modelAnimationPicture } from '../model/bake.js';
import type { SpriteModel } from '../model/types.js';
import { pictureCanvas, type Picture } from '../render/pipeline.js';
import type { RgbaImage } from '../render/image.js';
import { encodePng } from '../render/png.js';
import { baseName, errorIn, JsonReader } from './json.js';
import { frameWarnings, type SheetJsonFrame } from './sheetjson.js';
import { eachFrame, framesJsonMinBytes } from './sheetcompact.js';

/** The JSON sheet formats' options (Aseprite, TexturePacker). */
export const LAYOUT_OPTION = {
  name: 'layout',
  type: 'string',
  choices: ['hash', 'array'],
  description: 'frames as a JSON object keyed by name ("hash", default) or an "array"',
} as const satisfies OptionSpec;
/** For the sheets a document names no image for: a Phaser atlas whose image the game passes to load.atlas. */
export const SHEET_IMAGE_OPTION: OptionSpec = {
  name: 'sheet-image',
  type: 'string',
  value: 'IMAGE',
  description:
    'Aseprite, TexturePacker: the sheet image of a document that names none (a Phaser atlas whose image the game gives load.atlas)',
  paths: true,
};

/** The animation index and frame `--animation` and `--frame` select (OptionErrors when they name nothing). */
export function selectModelAnimation(model: SpriteModel, options: CommandOptions): { index: number; frame: number | undefined } {
  const want = stringOption(options, ANIMATION_OPTION);
  // A direction of an animation is its tag NAME/DIRECTION, as the sheet and the players name it; NAME alone is its first direction.
  const keyOf = (a: SpriteModel['animations'][number]) => (a.direction !== undefined ? `${a.name}/${a.direction}` : a.name);
  const anim =
    want === undefined
      ? model.animations[0]
      : (model.animations.find((a) => keyOf(a) === want) ??
        model.animations.find((a) => a.name === want) ??
        selectNamed('animation', want, model.animations, keyOf, 'animation', 'the sheet'));
  const index = anim ? model.animations.indexOf(anim) : 0;
  const j = intOption(options, FRAME_OPTION);
  const frame =
    j === undefined
      ? undefined
      : selectIndex('frame', j, anim?.frames.length ?? 0, 'frame', anim ? `animation "${anim.name}"` : 'the sheet');
  return { index, frame };
}

/** `sprat render` of a sheet format: an animation of its model (or one frame of it, on the animation's canvas), as a picture. */
export function modelPicture(model: SpriteModel, options: CommandOptions): Picture {
  const { index, frame } = selectModelAnimation(model, options);
  if (!model.animations[index]?.frames.length) throw new FormatError(model.name, 'nothing to render: the sprite has no frames');
  const a = modelAnimationPicture(model, index);
  if (frame !== undefined) return { frames: [a.frames[frame]!], canvas: pictureCanvas(a), what: a.what };
  return a.frames.length === 1 ? { ...a, loops: undefined } : a;
}

/** A sheet image a document names, and the JSON path of that name (where errors about it are placed). */
export interface SheetRef {
  name: string | undefined;
  at: string;
}

/** The sheet of a one-sheet document: `meta.image`. */
export const metaImage = (doc: { meta: { image?: string } }): SheetRef[] => [{ name: doc.meta.image, at: '$.meta.image' }];

/** The file name at the end of a path, either slash. */
function lastName(p: string): string {
  return p.replace(/\\/g, '/').split('/').pop() ?? p;
}

/**
 * Where to look for a sheet image: the path as written; for an absolute path
 * (`C:\\art\\hero.png`, `/home/me/hero.png`: a tool's export on another
 * machine), then its file name next to the document.
 */
export function sheetRequest(format: string, name: string): ResourceRequest {
  const req: ResourceRequest = { format, what: 'the sheet', name };
  if (isAbsolutePath(name) && lastName(name) !== name) req.candidates = [name, lastName(name)];
  return req;
}

/** Loads every sheet the document names into the model's sheets, in order; errors placed at each name in the document's text. */
export async function loadSheets(
  format: string,
  model: SpriteModel,
  doc: object,
  refs: SheetRef[],
  resources: ResourceLoader,
  options?: CommandOptions,
  /** For `render`: a sheet that cannot be had is left without pixels, its file a warning (else the error). */
  missing?: MissingFiles,
) {
  // Each image once, however many sheets name it.
  const seen = new Map<string, { path: string; image: RgbaImage } | null>();
  for (let i = 0; i < refs.length; i++) {
    const { at } = refs[i]!;
    const name = refs[i]!.name || stringOption(options, SHEET_IMAGE_OPTION);
    const sheet = model.sheets[i];
    if (!sheet) continue;
    if (!name) throw errorIn(doc, format, at, 'the document names no sheet image (give it with --sheet-image IMAGE)');
    let loaded = seen.get(name);
    if (loaded === null) continue;
    if (loaded) {
      sheet.path = loaded.path;
      sheet.image = loaded.image;
      sheet.nearest = true;
      continue;
    }
    const load = async () => {
      try {
        return await loadImage(resources, sheetRequest(format, name), limitsFrom(options));
      } catch (e) {
        throw isFormatError(e) ? errorIn(doc, format, at, e.reason) : e;
      }
    };
    const got = missing ? await missing.attempt(load, `the frames on it`, name) : await load();
    seen.set(name, got ?? null);
    if (!got) continue;
    loaded = got;
    if (loaded.path !== name) {
      const note = `${format}: ${at} "${name}" is an absolute path; the sheet was read from "${loaded.path}" next to the document`;
      model.notes = [...(model.notes ?? []), note];
    }
    // The sheet is the file its pixels came from: a writer that names it (a Hallgeir sprite) names that one.
    sheet.path = loaded.path;
    sheet.image = loaded.image;
    sheet.nearest = true;
  }
}

/** Loads the sheet named by `doc.meta.image` into the model's first sheet; errors placed at meta.image in the document's text. */
export async function loadSheet(
  format: string,
  model: SpriteModel,
  doc: { meta: { image?: string } },
  resources: ResourceLoader,
  options?: CommandOptions,
) {
  await loadSheets(format, model, doc, metaImage(doc), resources, options);
}

/**
 * `render` and `toModel` of a JSON + sheet format: the document's model, with its sheet images loaded.
 * `sheets`: the images the document names (default `meta.image`); `siblings`: the other documents
 * it pulls in (TexturePacker multipack), and `expand` the document with them, read through the
 * resource layer.
 */
export function sheetModelMethods<D extends { meta: { image?: string } }>(
  format: string,
  modelOf: (doc: D) => SpriteModel,
  more: {
    sheets?: (doc: D) => SheetRef[];
    siblings?: (doc: D) => ResourceRequest[];
    expand?: (doc: D, resources: ResourceLoader, options?: CommandOptions) => Promise<D>;
  } = {},
) {
  const sheetsOf = more.sheets ?? metaImage;
  const withSheet = async (doc: D, resources: ResourceLoader, options?: CommandOptions, missing?: MissingFiles): Promise<SpriteModel> => {
    const full = more.expand ? await more.expand(doc, resources, options) : doc;
    const model = modelOf(full);
    await loadSheets(format, model, full, sheetsOf(full), resources, options, missing);
    return model;
  };
  return {
    // Frames outside any tag / animation are written as such.
    holdsUnusedFrames: true,
    // Tag direction and repeat: Aseprite's own fields, TexturePacker's meta.sprat (sheetextras.ts).
    holdsPlayback: true,
    // Carried in meta.sprat, with their own notes (sheet.ts sheetLossNotes).
    holdsShapes: true,
    holdsEvents: true,
    picture: async (doc: D, options: CommandOptions, resources: ResourceLoader): Promise<Picture> => {
      // A selection that names nothing fails before the sheet is loaded (when no other document adds animations).
      if (!more.siblings?.(doc).length) selectModelAnimation(modelOf(doc), options);
      // A sheet that cannot be had: its frames' parts are left out (MissingFiles), unless none is left to draw.
      const missing = new MissingFiles(options);
      const model = await withSheet(doc, resources, options, missing);
      let picture: Picture;
      try {
        picture = modelPicture(model, options);
      } catch (e) {
        // Nothing to draw (no frames): the missing sheet is said first, as before.
        throw missing.firstError ?? e;
      }
      if (!missing.empty && picture.frames.every((f) => [...f.parts].length === 0)) throw missing.firstError;
      return missing.mark(picture);
    },
    renderViews: (doc: D): RenderView[] =>
      [...new Set(modelOf(doc).animations.map((a) => a.name))].map((name) => ({ label: name, options: { animation: name } })),
    toModel: (doc: D, resources: ResourceLoader, options?: CommandOptions) => withSheet(doc, resources, options),
    /** The sheets the document names (and the files it pulls in, with theirs), by existence only. */
    references: async (doc: D, resources: ResourceLoader, options?: CommandOptions): Promise<string[]> => {
      const requests: ResourceRequest[] = [...(more.siblings?.(doc) ?? [])];
      let full = doc;
      if (more.expand && requests.length) {
        try {
          full = await more.expand(doc, resources);
        } catch {
          // A sibling that cannot be read names no sheets.
        }
      }
      const given = stringOption(options, SHEET_IMAGE_OPTION);
      for (const r of sheetsOf(full)) {
        const name = r.name || given;
        if (name) requests.push(sheetRequest(format, name));
      }
      return foundResources(resources, requests);
    },
  };
}

/**
 * JSON as OUT; the sheet (when the document carries pixels) as OUT's base name + .png, named in meta.image.
 * The JSON is made a chunk at a time as it is written (jsonFile), within `limits.maxJsonBytes`: a sheet whose
 * frames alone would take more (framesJsonMinBytes, known before their text is made) is refused here.
 */
export async function sheetFiles(
  json: (image: string | undefined) => unknown,
  sheet: RgbaImage | undefined,
  image: string | undefined,
  outName: string,
  limits: Limits,
): Promise<OutputFile[]> {
  const png = sheet ? `${baseName(outName)}.png` : undefined;
  const value = json(sheet ? png : image);
  const min = framesJsonMinBytes((value as { frames?: unknown }).frames);
  new Budget(limits).check('maxJsonBytes', min, 'the JSON of the frames');
  const file = jsonFile(outName, value, limits);
  return sheet ? [file, { name: png!, bytes: encodePng(sheet) }] : [file];
}

/** Diagnostics for a JSON sheet: a read error, or warnings; each with the line and column of its value. */
export function validateSheetDoc(
  bytes: Uint8Array,
  format: string,
  read: (
    b: Uint8Array,
    r: JsonReader,
  ) => { layout: 'hash' | 'array'; frames: SheetJsonFrame[]; meta: { size?: { w: number; h: number }; image?: string } },
) {
  try {
    const r = new JsonReader(format);
    const doc = read(bytes, r);
    const out = frameWarnings(eachFrame(doc), doc.meta.size, '$.frames', doc.layout, r);
    const textures = (doc as { textures?: { image?: string; at: string }[] }).textures;
    if (textures) {
      // A multiatlas: each texture names its image.
      for (const t of textures) if (!t.image) out.push(r.diagnostic('warning', t.at.replace(/\.image$/, ''), 'the texture names no image'));
    } else if (!doc.meta.image) out.push(r.diagnostic('warning', '$.meta.image', 'the document names no sheet image'));
    return out;
  } catch (e) {
    if (isFormatError(e)) return [diagnosticFromError(e)];
    throw e;
  }
}
