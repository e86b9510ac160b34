/**
 * The ISPRITE runtime in one import: the player, sequence paths and the
 * MET+ playback keys, interpolation, attachment points, collision, and
 * `sprat play`. (The codec's index.ts may re-export this module.)
 */
export * from './paths.js';
export * from './play.js';
export * from './interpolate.js';
export * from './attach.js';
export * from './collide.js';
export * from './play-cli.js';
