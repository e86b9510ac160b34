/**
 * Solarus sprite sheets: the 0.9 line syntax (`solarus`) and the 1.1+ Lua
 * syntax (`solarus-lua`). Both read to and write from the same SolarusSheet.
 *
 * @module sprat/solarus
 */
import { diagnosticFromError, isFormatError, OptionError, type Diagnostic } from '../../binary/errors.js';
import type { CommandOptions, FormatHandler, LinePosition } from '../types.js';
import { convertSyntax, modelToSheet, sheetToModel } from './convert.js';
import { readLines, writeLines } from './lines.js';
import { looksLikeLua, readLua, writeLua } from './lua.js';
import { encodePng } from '../../render/png.js';
import {
  BAKED_IMAGE,
  inspectJson,
  inspectText,
  positionsOf,
  rememberSource,
  type AnimationPositions,
  type ParseOptions,
  type Pos,
  type SolarusSheet,
  type SolarusSyntax,
} from './model.js';
import { PLAY_OPTIONS, play } from './play.js';
import { STYLE_OPTION, type LuaStyleKind } from './style.js';
import { choiceOption, listed, NOTE_NAMES } from '../options.js';
import { sheetReferences, spritesFolderOf } from './resources.js';
import { joinPath, relativePath } from '../resources.js';
import { solarusPicture, solarusViews, RENDER_OPTIONS, RESOURCE_OPTIONS } from './render.js';
import { animationCount, animationsOf } from './compact.js';
import { sheetEdits } from './edit.js';

export * from './model.js';
export { readLines, writeLines, formatLines, parseLines } from './lines.js';
export { readLua, writeLua, formatLua, parseLua, looksLikeLua } from './lua.js';
export { frameAt } from './play.js';
export { LUA_STYLES, STYLE_OPTION, luaStyle, type LuaStyle, type LuaStyleKind, type LinesStyle, type SolarusStyle } from './style.js';
export { sheetToModel, modelToSheet, convertSyntax } from './convert.js';
export { editSheet, sheetEdits, type SolarusEdit } from './edit.js';

/**
 * A content test for the line syntax, lenient so that broken files still get
 * this reader's errors: not CTHG, not the Lua syntax, text (no control bytes
 * besides tab, CR, LF) in the first 4 KiB, and a first non-blank line of at
 * least two tokens that does not start like JSON, XML or a Lua comment.
 */
export function looksLikeLines(bytes: Uint8Array): boolean {
  if (bytes.length >= 4 && bytes[0] === 0x43 && bytes[1] === 0x54 && bytes[2] === 0x48 && bytes[3] === 0x47) return false;
  if (looksLikeLua(bytes)) return false;
  const n = Math.min(bytes.length, 4096);
  let i = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  for (let k = i; k < n; k++) {
    const c = bytes[k]!;
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13) || c === 127) return false;
  }
  while (i < n && (bytes[i] === 32 || bytes[i] === 9 || bytes[i] === 10 || bytes[i] === 13)) i++;
  if (i >= n) return false;
  const first = bytes[i]!;
  if (first === 0x7b || first === 0x5b || first === 0x3c || (first === 0x2d && bytes[i + 1] === 0x2d)) return false;
  let tokens = 0;
  let inToken = false;
  for (; i < n && bytes[i] !== 10 && bytes[i] !== 13; i++) {
    const space = bytes[i] === 32 || bytes[i] === 9;
    if (!space && !inToken) tokens++;
    inToken = !space;
  }
  return tokens >= 2;
}

/** The Lua syntax's `--style`; refused for the line syntax (it has one style), rather than ignored. */
function styleFor(name: SolarusSyntax, options: CommandOptions | undefined): LuaStyleKind | undefined {
  const style = choiceOption<LuaStyleKind>(options, STYLE_OPTION);
  if (style !== undefined && name === 'solarus') {
    throw new OptionError(`--style ${style} applies to the Lua syntax (solarus-lua) only: the line syntax has one style`);
  }
  return style;
}

/** Where each animation (its name), its fields and its directions were in the file read (inspect JSON pointers). */
function linePositions(sheet: SolarusSheet): Record<string, LinePosition> {
  const out: Record<string, LinePosition> = {};
  const n = animationCount(sheet);
  for (let i = 0; i < n; i++) {
    const p = positionsOf(sheet, i);
    if (!p) continue;
    const ap = `/animations/${i}`;
    // The animation starts at its first field; a field the file leaves out (Lua) is placed at that start and not listed.
    const before = (a: Pos, b: Pos) => a.line < b.line || (a.line === b.line && a.column < b.column);
    const start = [p.frameDelay, p.loopOnFrame].reduce((a, b) => (before(b, a) ? b : a), p.name);
    const same = (a: Pos) => a.line === start.line && a.column === start.column;
    out[ap] = start;
    out[`${ap}/name`] = p.name;
    if (!same(p.frameDelay)) out[`${ap}/frameDelay`] = p.frameDelay;
    if (!same(p.loopOnFrame)) out[`${ap}/loopOnFrame`] = p.loopOnFrame;
    if (p.directions[0]) out[`${ap}/directions`] = p.directions[0];
    p.directions.forEach((d, k) => {
      out[`${ap}/directions/${k}`] = d;
    });
  }
  return out;
}

function makeHandler(name: SolarusSyntax): FormatHandler<SolarusSheet> {
  const read = (bytes: Uint8Array, opts: ParseOptions, keepBytes = false) =>
    name === 'solarus' ? readLines(bytes, opts, keepBytes) : readLua(bytes, opts);
  return {
    name,
    text: true,
    title: name === 'solarus' ? 'Solarus sprite sheet (0.9 line syntax)' : 'Solarus sprite sheet (Lua syntax, 1.1+)',
    extensions: name === 'solarus' ? ['.dat'] : ['.dat', '.lua'],
    sniff: name === 'solarus' ? looksLikeLines : looksLikeLua,
    read(bytes, ctx) {
      const sheet = read(bytes, { warn: ctx?.warn }, ctx?.keepBytes === true);
      let cache: AnimationPositions[] | undefined;
      rememberSource(sheet, () => {
        if (!cache) {
          cache = [];
          read(bytes, { positions: cache });
        }
        return cache;
      });
      return sheet;
    },
    write(doc, options) {
      const style = styleFor(name, options);
      return name === 'solarus' ? writeLines(doc) : writeLua(doc, undefined, style);
    },
    writeOptions: name === 'solarus' ? undefined : [STYLE_OPTION],
    async writeFiles(doc, outName, options, place) {
      const style = styleFor(name, options);
      const write = (d: SolarusSheet) => (name === 'solarus' ? writeLines(d) : writeLua(d, undefined, style));
      // Inside a quest, Solarus reads every src_image from its sprites/ folder (contract solarus.md): a sheet made from
      // the model in a folder under it names its images from there, as reading it finds them (sheetRequest).
      const sprites =
        place && (doc.bakedImage || place.modelDir !== undefined) ? await spritesFolderOf(place.dir, place.resources) : undefined;
      const fromSprites = (p: string) => (sprites === undefined ? undefined : relativePath(sprites, p));
      // Images the model names from the input's folder: from sprites/ in a quest, else from OUT's folder (as
      // sheetRequest looks for them). Solarus reads no image outside sprites/: such a one is named with "../", and noted.
      const outside = new Set<string>();
      const named = (image: string) => {
        if (place?.modelDir === undefined || image === 'tileset' || image === BAKED_IMAGE) return image;
        const full = joinPath(place.modelDir, image);
        const rel = sprites === undefined ? relativePath(place.dir, full) : fromSprites(full);
        if (rel === undefined) return image;
        if (sprites !== undefined && rel.startsWith('..')) outside.add(rel);
        return rel;
      };
      const noteOutside = () => {
        if (outside.size)
          place?.note?.(
            `${name}: Solarus reads images only from the quest's sprites/ folder; the sheet names ${listed(
              [...outside].map((o) => JSON.stringify(o)),
              NOTE_NAMES,
            )} from there: move ${outside.size === 1 ? 'it' : 'them'} under sprites/ for Solarus`,
          );
      };
      if (!doc.bakedImage) {
        const animations = animationsOf(doc).map((a) => ({ ...a, image: named(a.image) }));
        noteOutside();
        const same = animations.every((a, i) => a.image === animationsOf(doc)[i]!.image);
        return [{ name: outName, bytes: write(same ? doc : { animations }) }];
      }
      // A redrawn sheet: saved beside the sprite as STEM.png.
      const stem =
        outName
          .replace(/^.*[\\/]/, '')
          .replace(/\.[^.]*$/, '')
          .replace(/\s+/g, '_') || 'sprite';
      const imageName = `${stem}.png`;
      const baked = (place && fromSprites(joinPath(place.dir, imageName))) ?? imageName;
      const animations = animationsOf(doc).map((a) => (a.image === BAKED_IMAGE ? { ...a, image: baked } : { ...a, image: named(a.image) }));
      noteOutside();
      return [
        { name: outName, bytes: write({ animations }) },
        { name: imageName, bytes: encodePng(doc.bakedImage) },
      ];
    },
    validate(bytes) {
      const out: Diagnostic[] = [];
      try {
        read(bytes, { strict: true, warn: (d) => out.push(d) });
      } catch (e) {
        if (!isFormatError(e)) throw e;
        out.push(diagnosticFromError(e));
      }
      return out;
    },
    inspectJson: (doc) => inspectJson(name, doc),
    inspectText: (doc) => inspectText(name, doc),
    linePositions,
    play: (doc, options) => play(name, doc, options),
    playOptions: PLAY_OPTIONS,
    picture: (doc, options, resources) => solarusPicture(name, doc, options, resources),
    renderViews: solarusViews,
    renderOptions: RENDER_OPTIONS,
    resourceOptions: RESOURCE_OPTIONS,
    convertTo: (doc, target) => convertSyntax(doc, target.name),
    toModel: (doc, resources, options) => sheetToModel(name, doc, resources, options),
    references: (doc, resources, options) => sheetReferences(name, animationsOf(doc), resources, options),
    fromModel: (model, options) => modelToSheet(name, model, options),
    edits: (doc, view) => sheetEdits(name, doc, view),
  };
}

export const solarusHandler = makeHandler('solarus');
export const solarusLuaHandler = makeHandler('solarus-lua');
