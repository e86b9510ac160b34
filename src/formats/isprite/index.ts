/**
 * ISPRITE (Vision Riders Integrated Sprite System 1.0): the format handler
 * and the library API (document model, reader, writer, validator, tree
 * helpers, conversions to and from the common model).
 *
 * @module sprat/isprite
 */
import type { FormatHandler, OutputFile } from '../types.js';
import type { RgbaImage } from '../../render/image.js';
import { encodePng } from '../../render/png.js';
import { drawSheet, packRects } from '../../model/pack.js';
import type { IspriteDocument } from './model.js';
import { isIsprite, readIsprite } from './read.js';
import { writeIsprite } from './write.js';
import { validateIsprite } from './validate.js';
import { inspectIspriteJson, inspectIspriteText } from './inspect.js';
import { ispriteFromModel, ispriteToModel, textureRequest } from './convert.js';
import { foundResources } from '../resources.js';
import { ispritePlayOptions, playIsprite } from './play-cli.js';
import { ispritePicture, ispriteRenderOptions, ispriteViews } from './render.js';
import * as paths from './paths.js';
import { ispriteByteRanges } from './ranges.js';
import { ispriteEdits } from './edit.js';

export * from './model.js';
export { readIsprite, readIspriteDetailed, isIsprite, ISPRITE_MAGIC, type IspriteReadInfo } from './read.js';
export { writeIsprite } from './write.js';
export { editIsprite, ispriteEdits, type IspriteEdit } from './edit.js';
export { elementsOf as ispriteElementsOf, elementCount as ispriteElementCount, elementAt as ispriteElementAt } from './compact.js';
export { validateIsprite, checkIsprite } from './validate.js';
export { inspectIspriteJson, inspectIspriteText } from './inspect.js';
export { ispriteToModel, ispriteFromModel, graphicPart } from './convert.js';
export * from './runtime.js';
export {
  renderIsprite,
  ispritePicture,
  ispriteRenderOptions,
  framePicture as ispriteFramePicture,
  loadTextures as loadIspriteTextures,
} from './render.js';
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

/** Attaches the sheets a conversion brought along as `doc.convertedSheets` (non-enumerable). */
function withConvertedSheets(doc: IspriteDocument, sheets: (RgbaImage | undefined)[]): IspriteDocument {
  Object.defineProperty(doc, 'convertedSheets', { value: sheets, enumerable: false, writable: true, configurable: true });
  return doc;
}

async function writeWithSheets(doc: IspriteDocument, outName: string): Promise<OutputFile[]> {
  const images = doc.convertedSheets;
  if (!images?.some((i) => i)) return [{ name: outName, bytes: writeIsprite(doc) }];
  // Pack every converted sheet into one texture named after the sprite.
  const stem = outName.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '');
  const present = images.map((img, i) => ({ img, i })).filter((x): x is { img: RgbaImage; i: number } => !!x.img);
  const packed = packRects(
    present.map((x) => ({ w: x.img.width, h: x.img.height })),
    { padding: 1 },
  );
  const place = new Map<number, { x: number; y: number }>();
  present.forEach((x, k) => place.set(x.i, packed.positions[k]!));
  const atlas = drawSheet(
    present.map((x, k) => ({ image: x.img, ...packed.positions[k]! })),
    Math.max(1, packed.width),
    Math.max(1, packed.height),
  );
  const textures: IspriteDocument['textures'] = [{ path: stem, nearest: doc.textures.some((t) => t.nearest) }];
  const index = new Map<number, number>();
  doc.textures.forEach((t, i) => {
    if (place.has(i)) index.set(i, 0);
    else index.set(i, textures.push({ ...t }) - 1);
  });
  const slices = doc.slices.map((s) => {
    const at = place.get(s.texture);
    return { ...s, texture: index.get(s.texture) ?? s.texture, x: s.x + (at?.x ?? 0), y: s.y + (at?.y ?? 0) };
  });
  const out: IspriteDocument = { ...doc, textures, slices };
  return [
    { name: outName, bytes: writeIsprite(out) },
    { name: `${stem}.png`, bytes: encodePng(atlas) },
  ];
}

export const ispriteHandler: FormatHandler<IspriteDocument> = {
  name: 'isprite',
  title: 'Vision Riders Integrated Sprite',
  extensions: ['.isprite', '.sprite'],
  sniff: isIsprite,
  read: (bytes, ctx) => readIsprite(bytes, ctx),
  write: (doc) => writeIsprite(doc),
  validate: (bytes) => validateIsprite(bytes),
  inspectJson: inspectIspriteJson,
  byteRanges: (_doc, bytes) => ispriteByteRanges(bytes),
  inspectText: inspectIspriteText,
  play: playIsprite,
  playOptions: ispritePlayOptions,
  picture: ispritePicture,
  renderViews: ispriteViews,
  renderOptions: ispriteRenderOptions,
  toModel: (doc, resources, options) => ispriteToModel(doc, resources, options),
  references: (doc, resources) =>
    foundResources(
      resources,
      doc.textures.map((_, i) => textureRequest(doc, i)),
    ),
  // Attachment points, collision rectangles and circles; frame triggers.
  holdsShapes: true,
  holdsEvents: true,
  fromModel: (model, options) => {
    const doc = ispriteFromModel(model, { clamp: options?.clamp === true });
    if (model.kind === 'sprite')
      withConvertedSheets(
        doc,
        model.sheets.map((sh) => sh.image),
      );
    return doc;
  },
  writeFiles: async (doc, outName) => writeWithSheets(doc, outName),
  edits: ispriteEdits,
};
