/**
 * Interoperability with other tools' formats: Aseprite files and JSON sheets,
 * TexturePacker / PixiJS / Phaser JSON hashes and Tiled maps and tilesets,
 * plus the MaxRects packer that lays frames out on a sheet (packRects).
 *
 * @module sprat/interop
 */
export { aseHandler } from './aseprite/file.js';
export type {
  AseCel,
  AseCelType,
  AseColor,
  AseColorProfile,
  AseDirection,
  AseDoc,
  AseFrame,
  AseHeader,
  AseLayer,
  AseLayerType,
  AsePaletteChunk,
  AseSlice,
  AseSliceKey,
  AseTag,
  AseTilemap,
  AseTileset,
  AseUserData,
  AseValue,
} from './aseprite/ase.js';
export { asepriteHandler, type AsepriteDoc } from './aseprite/index.js';
export { texturePackerHandler, type TexturePackerDoc } from './texturepacker/index.js';
export type { AnimationExtra, FrameExtra, SheetExtras } from './sheetextras.js';
export { tiledHandler, type TiledDoc, orientationToBits, bitsToOrientation, FLIP_H, FLIP_V, FLIP_D } from './tiled/index.js';
export { packRects, type PackHeuristic, type PackInput, type PackOptions, type PackPlacement, type PackResult } from '../model/pack.js';
export { godot3Exporter, godot4Exporter } from './godot/index.js';
export { libgdxExporter } from './libgdx/index.js';
export { starlingExporter } from './starling/index.js';
export { cocos2dExporter } from './cocos2d/index.js';
export { phaser3Exporter } from './phaser/index.js';
export { pixiExporter } from './pixi/index.js';
export { cssExporter, cssIdentifier } from './css/index.js';
export {
  templateAtlasExporter,
  templateExporter,
  templateData,
  templateExtension,
  type TemplateData,
  type TemplateFrame,
} from './template/index.js';
