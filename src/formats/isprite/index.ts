/**
 * ISPRITE (Vision Riders Integrated Sprite System 1.0): the format handler
 * and the library API (document model, reader, writer, validator, tree
 * helpers, conversions to and from the common model).
 */
import type { FormatHandler } from '../types.js';
import type { IspriteDocument } from './model.js';
import { isIsprite, readIsprite } from './read.js';
import { writeIsprite } from './write.js';
import { validateIsprite } from './validate.js';
import { inspectIspriteJson, inspectIspriteText } from './inspect.js';
import { ispriteFromModel, ispriteToModel } from './convert.js';
import { ispritePlayOptions, playIsprite } from './play-cli.js';
import { ispriteRenderOptions, renderIsprite } from './render.js';
import * as paths from './paths.js';

export * from './model.js';
export { readIsprite, readIspriteDetailed, isIsprite, ISPRITE_MAGIC, type IspriteReadInfo } from './read.js';
export { writeIsprite } from './write.js';
export { validateIsprite, checkIsprite } from './validate.js';
export { inspectIspriteJson, inspectIspriteText } from './inspect.js';
export { ispriteToModel, ispriteFromModel, graphicPart } from './convert.js';
export * from './runtime.js';
export { renderIsprite, ispriteRenderOptions, drawFrame as drawIspriteFrame, loadTextures as loadIspriteTextures } from './render.js';
export type { GroupRef as IspriteGroupRef, SequenceRef as IspriteSequenceRef } from './paths.js';

/**
 * Group-tree helpers (paths, the case-insensitive lookup, the MET+ keys of
 * erratum 6) under their earlier names; all of them are the functions of
 * paths.ts (exported directly too), a few with the earlier signatures.
 */
export const ispriteTree = Object.freeze({
  DEFAULT_SEQUENCE_KEY: paths.DEFAULT_SEQUENCE_KEY,
  SEQUENCE_FRAME_RATE_PREFIX: paths.SEQUENCE_FRAME_RATE_PREFIX,
  foldName: paths.foldName,
  namesEqual: paths.namesEqual,
  rootGroup: paths.rootGroup,
  allSequences: paths.allSequences,
  allGroups: paths.allGroups,
  findGroup: paths.findGroup,
  findSequenceByPath: paths.findSequenceByPath,
  resolveSequence: paths.resolveSequence,
  makePathResolver: paths.makePathResolver,
  resolveFollowUps: paths.resolveFollowUps,
  extraMetaValue: paths.extraMetaValue,
  /** The default sequence with its group and path, or null. */
  defaultSequence(doc: IspriteDocument): paths.SequenceRef | null {
    const p = paths.getDefaultSequencePath(doc);
    return p === null ? null : paths.findSequenceByPath(doc, p);
  },
  parseFrameRate: paths.parseFrameRateValue,
  /** Per-sequence rates that differ from the master rate (255 entries left out). */
  sequenceFrameRates: paths.frameRateOverrides,
  effectiveFrameRate: (doc: IspriteDocument, seq: paths.SequenceRef['sequence'], rates = paths.frameRateOverrides(doc)): number =>
    paths.effectiveFrameRate(doc, seq, rates),
});

export const isprite: FormatHandler<IspriteDocument> = {
  name: 'isprite',
  title: 'Vision Riders Integrated Sprite',
  extensions: ['.isprite', '.sprite'],
  sniff: isIsprite,
  read: (bytes, ctx) => readIsprite(bytes, ctx),
  write: (doc) => writeIsprite(doc),
  validate: (bytes) => validateIsprite(bytes),
  inspectJson: inspectIspriteJson,
  inspectText: inspectIspriteText,
  play: playIsprite,
  playOptions: ispritePlayOptions,
  render: renderIsprite,
  renderOptions: ispriteRenderOptions,
  toModel: (doc, resources) => ispriteToModel(doc, resources),
  fromModel: (model) => ispriteFromModel(model),
};
