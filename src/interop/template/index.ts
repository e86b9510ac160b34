/**
 * Any other engine's atlas format, written through a user's template: an
 * Eta template (eta.js.org; `<%= value %>` writes a value as is, `<% code %>`
 * runs JavaScript, a line break right after a tag is dropped) rendered with
 * the atlas as `it` (the variables: docs/atlas-formats.md, "template").
 *
 * `templateExporter(text, fileName)` makes the exporter; the data file's
 * extension comes from the template's name without `.eta`
 * (`solar2d.lua.eta` writes `.lua`). The registered `template` exporter
 * needs a template (`withTemplate`); writing without one is an OptionError.
 */
import { Eta, type TemplateFunction } from 'eta/core';
import { FormatError, OptionError } from '../../binary/errors.js';
import type { Atlas, AtlasExporter, AtlasFrame } from '../../model/atlas.js';
import { frameMs, requireTurn, storedSize, textFile, xmlEscape } from '../atlasfile.js';

/** One frame as a template sees it (`it.frames[i]`). */
export interface TemplateFrame {
  index: number;
  name: string;
  page: number;
  /** The page's image file. */
  file: string;
  /** Place on the page and the frame's own (unrotated) size. */
  x: number;
  y: number;
  w: number;
  h: number;
  /** Stored a quarter turn clockwise; `storedW` x `storedH` are the pixels it covers on the page. */
  rotated: boolean;
  storedW: number;
  storedH: number;
  trimmed: boolean;
  /** Where the stored pixels go on the untrimmed canvas (`sourceW` x `sourceH`). */
  offsetX: number;
  offsetY: number;
  sourceW: number;
  sourceH: number;
  /** The pivot as a fraction of the canvas (0.5, 0.5 when the source has none); `hasPivot` says whether it has. */
  pivotX: number;
  pivotY: number;
  hasPivot: boolean;
  /** How long it shows (100 when the source does not say). */
  durationMs: number;
  /** The frame this one shares pixels with, by name, or null. */
  aliasOf: string | null;
}

/** What a template gets as `it`. */
export interface TemplateData {
  /** The data file's name, and it without its extension. */
  dataName: string;
  baseName: string;
  scale: number;
  pages: { index: number; file: string; width: number; height: number; frames: TemplateFrame[] }[];
  frames: TemplateFrame[];
  animations: { name: string; loop: boolean; frames: TemplateFrame[] }[];
  /** JSON text of a value; XML-escaped text; a Lua or C string literal. */
  json: (value: unknown) => string;
  xml: (text: string) => string;
  quote: (text: string) => string;
}

export function templateData(atlas: Atlas, dataName: string): TemplateData {
  requireTurn(atlas, 'template', 'clockwise');
  const file = dataName.replace(/^.*\//, '');
  const frame = (f: AtlasFrame, index: number): TemplateFrame => {
    const s = storedSize(f);
    const alias = f.aliasOf === undefined ? undefined : atlas.frames[f.aliasOf];
    return {
      index,
      name: f.name,
      page: f.page,
      file: atlas.pages[f.page]?.file ?? '',
      ...f.frame,
      rotated: f.rotated,
      storedW: s.w,
      storedH: s.h,
      trimmed: f.trimmed,
      offsetX: f.spriteSourceSize.x,
      offsetY: f.spriteSourceSize.y,
      sourceW: f.sourceSize.w,
      sourceH: f.sourceSize.h,
      pivotX: f.pivot?.x ?? 0.5,
      pivotY: f.pivot?.y ?? 0.5,
      hasPivot: f.pivot !== undefined,
      durationMs: frameMs(f),
      aliasOf: alias ? alias.name : null,
    };
  };
  const frames = atlas.frames.map(frame);
  return {
    dataName: file,
    baseName: file.replace(/\.[^.]*$/, ''),
    scale: atlas.scale,
    pages: atlas.pages.map((p, index) => ({
      index,
      file: p.file,
      width: p.image.width,
      height: p.image.height,
      frames: frames.filter((f) => f.page === index),
    })),
    frames,
    animations: atlas.animations.map((a) => ({ name: a.name, loop: a.loop, frames: a.frames.map((i) => frames[i]!) })),
    json: (v) => JSON.stringify(v),
    xml: xmlEscape,
    quote: (t) => JSON.stringify(t),
  };
}

/** The data file's extension for a template file: `defold.tpinfo.eta` → `.tpinfo`; `.txt` when it has none. */
export function templateExtension(fileName: string): string {
  const base = fileName.replace(/^.*[\\/]/, '').replace(/\.eta$/i, '');
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot) : '.txt';
}

/** One line of an Eta error, with its line and column when Eta gives them. */
function templateError(e: unknown): FormatError {
  const message = e instanceof Error ? e.message : String(e);
  const first = message.split('\n')[0]!.replace(/:$/, '').trim();
  const at = /at line (\d+) col (\d+)/.exec(first);
  const reason = at ? first.slice(0, at.index).trim() : first;
  return new FormatError(
    'template',
    `the template failed: ${reason || 'an error'}`,
    at ? { line: Number(at[1]), column: Number(at[2]) } : {},
  );
}

/**
 * The exporter for an Eta template. `rotation`: the template writes each
 * frame's `rotated` (the packer may store frames turned only then; default no).
 */
export function templateExporter(text: string, fileName: string, options: { rotation?: boolean } = {}): AtlasExporter {
  const eta = new Eta({ autoEscape: false, useWith: false, cache: false });
  let compiled: TemplateFunction;
  try {
    compiled = eta.compile(text);
  } catch (e) {
    throw templateError(e);
  }
  return {
    name: 'template',
    description: `the template ${fileName}`,
    extension: templateExtension(fileName),
    rotation: options.rotation ?? false,
    multipage: true,
    write: (atlas, dataName) => {
      let out: string;
      try {
        out = eta.render(compiled, templateData(atlas, dataName) as unknown as object);
      } catch (e) {
        throw templateError(e);
      }
      return [textFile(dataName, out)];
    },
    losses: () => [],
  };
}

export const templateAtlasExporter: AtlasExporter = {
  name: 'template',
  description: 'any format through an Eta template file (--template FILE): the atlas is `it`',
  extension: '.txt',
  rotation: false,
  multipage: true,
  write: () => {
    throw new OptionError('the template exporter needs a template file (--template FILE)');
  },
  withTemplate: (text, fileName) => templateExporter(text, fileName),
};
