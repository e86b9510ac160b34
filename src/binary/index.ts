export * from './errors.js';
export * from './reader.js';
export * from './writer.js';
export * from './fixed.js';
export * from './utf8.js';
export * from './limits.js';
export { type ChunkedFile, chunkedFile, joinChunks, jsonChunks, jsonFile, stringifyJson } from './json-chunks.js';
