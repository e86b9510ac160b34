import { decompressPrefix } from '../../lzf/index.js';
import type { FormatHandler } from '../types.js';
import { levelFromModel, levelToModel } from './convert.js';
import { inspectJson, inspectText } from './inspect.js';
import { MAGIC, type SpriteTileLevel } from './model.js';
import { readSpriteTile } from './read.js';
import { checkLevel, validateSpriteTile } from './validate.js';
import { parseFlavour, writeSpriteTile } from './write.js';
import { renderLevel } from './render.js';

export * from './model.js';
export { readSpriteTile, parseLevel, type ReadOptions } from './read.js';
export { writeSpriteTile, serializeLevel, layout, type WriteOptions, type TagLayout } from './write.js';
export { validateSpriteTile, checkLevel } from './validate.js';
export { inspectJson, inspectText } from './inspect.js';
export { levelToModel, levelFromModel } from './convert.js';
export { renderLevel, parseTilesetOption, tileColour, type TilesetSpec } from './render.js';

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
    return writeSpriteTile(level, { lzf: parseFlavour(options?.lzf) });
  },
  writeOptions: [
    { name: 'lzf', type: 'string', description: 'SpriteTile LZF flavour: clzf2 (default, as the TileEditor writes), liblzf or best (smallest)' },
  ],
  validate(bytes) {
    return validateSpriteTile(bytes);
  },
  inspectJson,
  inspectText,
  render(level, options, resources) {
    return renderLevel(level, options, resources);
  },
  renderOptions: [
    {
      name: 'tileset',
      type: 'string',
      description: 'SpriteTile tile images: SET=IMAGE.png:WxH, several separated by commas (tiles without one are flat colours)',
    },
  ],
  async toModel(level) {
    return levelToModel(level);
  },
  fromModel(model, options) {
    return levelFromModel(model, { clamp: options?.clamp === true });
  },
};
