import type { FormatHandler, FormatName } from './formats/types.js';
import type { AtlasExporter } from './model/atlas.js';
import { godot3Exporter, godot4Exporter } from './interop/godot/index.js';
import { libgdxExporter } from './interop/libgdx/index.js';
import { starlingExporter } from './interop/starling/index.js';
import { cocos2dExporter } from './interop/cocos2d/index.js';
import { phaser3Exporter } from './interop/phaser/index.js';
import { pixiExporter } from './interop/pixi/index.js';
import { cssExporter } from './interop/css/index.js';
import { templateAtlasExporter } from './interop/template/index.js';
import { texturePackerExporter } from './interop/texturepacker/index.js';
import { asepriteExporter } from './interop/aseprite/index.js';
import { ispriteHandler } from './formats/isprite/index.js';
import { cthgHandler, cthgScriptHandler } from './formats/cthg/index.js';
import { spritetileHandler } from './formats/spritetile/index.js';
import { hallgeirMapHandler, hallgeirObjectHandler, hallgeirSpriteHandler } from './formats/hallgeir/index.js';
import { aseHandler, asepriteHandler, texturePackerHandler, tiledHandler } from './interop/index.js';
import { solarusHandler, solarusLuaHandler } from './formats/solarus/index.js';

/**
 * Every format the toolkit knows, in the order content detection tries them
 * (formats with magic bytes first). Each format folder exports one handler
 * from its index.ts; add it here.
 */
export const FORMATS: FormatHandler[] = [
  ispriteHandler,
  cthgHandler,
  spritetileHandler,
  hallgeirSpriteHandler,
  hallgeirObjectHandler,
  hallgeirMapHandler,
  // Aseprite's native file (magic 0xA5E0).
  aseHandler,
  // Interchange formats: they sniff JSON content.
  asepriteHandler,
  texturePackerHandler,
  tiledHandler,
  // CorsixTH's encoder scripts (`animation "name" {`): before Solarus, whose line syntax takes any text.
  cthgScriptHandler,
  // Solarus last: its line syntax is plain text with no magic.
  solarusHandler,
  solarusLuaHandler,
];

export function getFormat(name: string): FormatHandler | undefined {
  return FORMATS.find((f) => f.name === name);
}

export function formatNames(): FormatName[] {
  return FORMATS.map((f) => f.name);
}

/**
 * Every atlas format `sprat pack` writes, by `--to` name. Each lives in its
 * tool's folder under src/interop/ and is listed here.
 */
export const ATLAS_EXPORTERS: AtlasExporter[] = [
  texturePackerExporter,
  asepriteExporter,
  godot4Exporter,
  godot3Exporter,
  libgdxExporter,
  starlingExporter,
  cocos2dExporter,
  phaser3Exporter,
  pixiExporter,
  cssExporter,
  templateAtlasExporter,
];

export function getAtlasExporter(name: string): AtlasExporter | undefined {
  return ATLAS_EXPORTERS.find((e) => e.name === name);
}
