/**
 * SpriteTile levels (`.bytes`, LZF-compressed): the format handler and the
 * library API (level model, reader, writer, validator, inspect, conversions
 * to and from the common level model, rendering).
 *
 * @module sprat/spritetile
 */
import { decompressPrefix } from '../../lzf/index.js';
import { LAYER_OPTIONS } from '../selections.js';
import type { FormatHandler } from '../types.js';
import { levelFromModel } from './convert.js';
import { inspectJson, inspectText, jsonItems } from './inspect.js';
import { MAGIC, type SpriteTileLevel } from './model.js';
import { readSpriteTile } from './read.js';
import { checkLevel, validateSpriteTile } from './validate.js';
import { LZF_OPTION, writeSpriteTile } from './write.js';
import { choiceOption } from '../options.js';
import { levelModelWithTilesets, TILESET_OPTION, spriteTilePicture, spriteTileReferences } from './render.js';

export * from './model.js';
export { readSpriteTile, parseLevel, type ReadOptions } from './read.js';
export { writeSpriteTile, serializeLevel, layout, type WriteOptions, type TagLayout } from './write.js';
export { validateSpriteTile, checkLevel } from './validate.js';
export { inspectJson, inspectText } from './inspect.js';
export { levelToModel, levelFromModel } from './convert.js';
export { renderLevel, spriteTilePicture, parseTilesetOption, tileColour, type TilesetSpec } from './render.js';

/** True when the LZF stream starts with "SpriteTileLevel" (decodes only those bytes). */
export function sniffSpriteTile(bytes: Uint8Array): boolean {
  const head = decompressPrefix(bytes, MAGIC.length);
  if (head.length < MAGIC.length) return false;
  for (let i = 0; i < MAGIC.length; i++) if (head[i] !== MAGIC.charCodeAt(i)) return false;
  return true;
}

export const spritetileHandler: FormatHandler<SpriteTileLevel> = {
  name: 'spritetile',
  title: 'SpriteTile level (TileEditor .bytes, LZF-compressed)',
  extensions: ['.bytes'],
  sniff: sniffSpriteTile,
  read(bytes, ctx) {
    const level = readSpriteTile(bytes);
    for (const d of checkLevel(level)) ctx?.warn?.(d);
    return level;
  },
  write(level, options) {
    return writeSpriteTile(level, { lzf: choiceOption(options, LZF_OPTION) });
  },
  writeOptions: [LZF_OPTION],
  validate(bytes) {
    return validateSpriteTile(bytes);
  },
  inspectJson,
  jsonItems,
  inspectText,
  picture: (level, options, resources) => spriteTilePicture(level, options, resources),
  renderOptions: LAYER_OPTIONS,
  // `--tileset` draws the tiles in render and puts the images on the converted tilesets (SpriteTile -> Tiled).
  resourceOptions: [TILESET_OPTION],
  references: (_level, resources, options) => spriteTileReferences(resources, options),
  async toModel(level, resources, options) {
    return levelModelWithTilesets(level, options ?? {}, resources);
  },
  fromModel(model, options) {
    return levelFromModel(model, { clamp: options?.clamp === true });
  },
};
