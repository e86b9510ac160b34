/**
 * CTHG: CorsixTH animation files, version 513.
 *
 * @module sprat/cthg
 */
import type { FormatHandler } from '../types.js';
import type { CthgDocument } from './model.js';
import { cthgFromModel, cthgToModel } from './convert.js';
import { inspectCthgJson, inspectCthgText } from './inspect.js';
import { PLAY_OPTIONS, playCthg } from './play.js';
import { readCthg, sniffCthg } from './read.js';
import { RENDER_OPTIONS, cthgPicture, cthgReferences, cthgViews } from './render.js';
import { validateCthg } from './validate.js';
import { cthgByteRanges } from './ranges.js';
import { writeCthg } from './write.js';
import { decompileForConvert } from './script/index.js';
import { cthgEdits } from './edit.js';

export const cthgHandler: FormatHandler<CthgDocument> = {
  name: 'cthg',
  title: 'CorsixTH animation file (CTHG 513)',
  extensions: ['.dat'],
  sniff: sniffCthg,
  read: (bytes, ctx) => readCthg(bytes, { warn: ctx?.warn, keepBytes: ctx?.keepBytes }),
  write: (doc) => writeCthg(doc),
  validate: (bytes) => validateCthg(bytes),
  inspectJson: inspectCthgJson,
  byteRanges: (doc) => cthgByteRanges(doc),
  inspectText: inspectCthgText,
  play: playCthg,
  playOptions: PLAY_OPTIONS,
  picture: cthgPicture,
  renderViews: cthgViews,
  renderOptions: RENDER_OPTIONS,
  toModel: async (doc) => cthgToModel(doc),
  references: (_doc, resources, options) => cthgReferences(resources, options),
  // A frame holds one sound number; other events get their own note (convert.ts).
  holdsEvents: true,
  fromModel: (model, options) => cthgFromModel(model, options),
  // Decompiling to a CorsixTH AnimationEncoder script (script/): the script and its PNGs.
  convertTo: (doc, target) => (target.name === 'cthg-script' ? decompileForConvert(doc) : undefined),
  edits: cthgEdits,
};

export {
  cthgScriptHandler,
  readScript,
  parseScript,
  printScript,
  compileScript,
  decompileCthg,
  readCompileLine,
  scriptCompileOptions,
  type CthgScript,
  type ScriptCompileLine,
  type ScriptAnimation,
  type ScriptFrame,
  type ScriptElement,
} from './script/index.js';

export * from './model.js';
export { readCthg, sniffCthg, headerMismatches } from './read.js';
export { validateCthg } from './validate.js';
export { writeCthg, canonicalLayout, orderFits } from './write.js';
export { editCthg, cthgEdits, type CthgEdit } from './edit.js';
export { inspectCthgJson, inspectCthgText } from './inspect.js';
export {
  decodePixels,
  decodePixelsInto,
  decodeSprite,
  encodePixels,
  spriteFromImage,
  setSpritePixels,
  checkPixelData,
  recolourTableFromImage,
  type EncodeOptions,
  type RecolourTable,
  type RecolourTables,
} from './rle.js';
export { playCthg, selectView, TICK_MS, type CthgPlayRecord } from './play.js';
export { renderCthg, renderFrame, cthgPicture, framePicture, frameBounds, type CthgDrawOptions, type FlipConvention } from './render.js';
export { cthgToModel, cthgFromModel } from './convert.js';
export {
  buildCthg,
  buildCthgFromImages,
  descriptionImages,
  type CthgDescription,
  type CthgAnimationDescription,
  type CthgFrameDescription,
  type CthgElementDescription,
} from './build.js';
