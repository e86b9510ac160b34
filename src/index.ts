/**
 * sprat: read, check, play, draw and convert 2D game sprite, animation and
 * level files. This entry point runs in browsers and Node alike; file-system
 * helpers live in `sprat/node`.
 */
export * from './binary/index.js';
export * from './api.js';
export * from './formats/types.js';
export { FORMATS, getFormat } from './formats/registry.js';
export { detectFormat, extensionOf } from './formats/detect.js';
export * from './model/types.js';
export * from './render/image.js';
export { encodePng, decodePng } from './render/png.js';
export { encodeRender, imageFormatFor } from './render/output.js';
export * from './formats/isprite/index.js';
