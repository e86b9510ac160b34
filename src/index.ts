/**
 * sprat: read, check, play, draw and convert 2D game sprite, animation and
 * level files. This entry point runs in browsers and Node alike; file-system
 * helpers live in `sprat/node`.
 *
 * The generic API (`load`, `validate`, `convert`, `render`, `play`) works on
 * any format; each format's own typed API is a namespace (`cthg`, `solarus`,
 * `hallgeir`, `interop`, ...).
 *
 * @module sprat
 */
export * from './binary/index.js';
export * from './api.js';
export { editables, applyEdit, editedBytes } from './edit.js';
export { diffDocuments, diffJson, changeText, textForm, pixelDiff, diffPlayback, type DiffChange, type FrameDiff } from './diff.js';
export {
  playbackOf,
  comparePlayback,
  playbackChangeText,
  type PlaybackSummary,
  type PlaybackTrack,
  type PlaybackFrame,
  type PlaybackMode,
  type PlaybackOptions,
  type PlaybackChange,
  type PlaybackAt,
  type PlaybackChangeKind,
  PLAYBACK_CHANGE_KINDS,
} from './model/playback.js';
export {
  roundTrip,
  lossesOf,
  matrixTable,
  matrixRowOf,
  backFormatOf,
  LOSS_NOTES,
  type MatrixCell,
  type MatrixLoss,
  type MatrixRow,
  type MatrixSource,
  type MatrixStage,
} from './matrix.js';
export * from './formats/types.js';
export { FORMATS, getFormat } from './registry.js';
export { ATLAS_EXPORTERS, getAtlasExporter } from './registry.js';
export type { Atlas, AtlasAnimation, AtlasExporter, AtlasFile, AtlasFrame, AtlasPage, AtlasTurn } from './model/atlas.js';
export {
  packAtlas,
  atlasPageFile,
  MAX_ATLAS_SCALE,
  type AtlasSourceFrame,
  type AtlasSourceAnimation,
  type PackAtlasOptions,
} from './model/packatlas.js';
export { detectFormat, extensionOf } from './detect.js';
export { loadImage, loadResource, imageCache, MissingFiles, questRoot, type ResourceRequest } from './formats/resources.js';
export * from './model/types.js';
export { renderModelFrame, renderModelAnimation, type BakedFrame, type BakedAnimation } from './model/bake.js';
export { renderLevelModel } from './model/bake-level.js';
export { chooseFrameRate } from './model/timing.js';
export * from './render/index.js';
export * as cthg from './formats/cthg/index.js';
export * as solarus from './formats/solarus/index.js';
export * as hallgeir from './formats/hallgeir/index.js';
export * as interop from './interop/index.js';
export * as spritetile from './formats/spritetile/index.js';
export * as lzf from './lzf/index.js';
export * from './formats/isprite/index.js';
export * as isprite from './formats/isprite/index.js';
