/**
 * LZF (liblzf's raw format): a bounded, damage-reporting decompressor and
 * three compressors (see docs/spec/lzf.md). Browser-safe.
 *
 * @module sprat/lzf
 */
export {
  decompress,
  decompressInto,
  decompressView,
  decompressPrefix,
  measure,
  DEFAULT_LZF_LIMIT,
  type DecompressOptions,
  type DecompressIntoOptions,
} from './decompress.js';
export {
  compress,
  compressClzf2,
  compressLiblzf,
  compressBest,
  LZF_FLAVOURS,
  type LzfFlavour,
  type CompressOptions,
} from './compress.js';
