/**
 * The rendering engine: images, transforms, the compositor and image encoders (browser-safe).
 *
 * @module sprat/render
 */
export * from './image.js';
export * from './matrix.js';
export * from './compose.js';
export * from './pipeline.js';
export { encodePng, decodePng } from './png.js';
export { decodeImage, imageDecoderFor, IMAGE_DECODERS, type ImageDecoder } from './decode.js';
export { encodeGif, gifDelays, ditherAlpha, partialAlpha, type GifOptions, type PartialAlpha } from './gif.js';
export { encodeApng, delayFraction, crc32 } from './apng.js';
export { setZlibDeflate, getZlibDeflate, fflateDeflate, type ZlibDeflate } from './deflate.js';
export { setRawInflate, getRawInflate, fflateInflate, type RawInflate } from './inflate.js';
export { encodeRender, imageFormatFor, imageNotes, type ImageFormat, type ImageOptions } from './output.js';
