/**
 * LZF (liblzf's raw format): a bounded, damage-reporting decompressor and
 * three compressors (see ../shared/contract/lzf.md). Browser-safe.
 *
 * @module sprat/lzf
 */
export { decompress, decompressPrefix, measure, DEFAULT_LZF_LIMIT, type DecompressOptions } from './decompress.js';
export {
  compress,
  compressClzf2,
  compressLiblzf,
  compressBest,
  LZF_FLAVOURS,
  type LzfFlavour,
  type CompressOptions,
} from './compress.js';
