/**
 * The Hallgeir Lien engine formats (2007): `.spr` sprites, `.obj` object
 * descriptions, `.map` maps. Three handlers; see docs/formats/hallgeir.md
 * and docs/spec/hallgeir.md.
 *
 * @module sprat/hallgeir
 */
import { printableLines } from '../../binary/errors.js';
import { ANIMATION_OPTION, FRAME_OPTION, LAYER_OPTIONS, PLAY_MS_OPTION, PLAY_STEP_MS_OPTION } from '../selections.js';
import { budgetFrom } from '../../binary/limits.js';
import { choiceOption, intOption, stringOption } from '../options.js';
import type { CommandOptions, FormatHandler, OptionSpec, ReadContext } from '../types.js';
import { frameCount } from './compact.js';
import { spriteFromModel, spriteToModel } from './convert.js';
import { inspectJson, inspectText } from './inspect.js';
import type { HallgeirDocument, HallgeirKind, HallgeirMap, HallgeirObject, HallgeirSprite } from './model.js';
import { playRecords } from './play.js';
import { ENDIAN_OPTION, readHallgeir, sniffHallgeir } from './read.js';
import {
  hallgeirChainProblems,
  hallgeirReferences,
  mapPicture,
  objectPicture,
  pickAnimation,
  spritePicture,
  spriteViews,
} from './render.js';
import { FRAME_SIZE_OPTION } from './resources.js';
import { validateHallgeir } from './validate.js';
import { writeHallgeir } from './write.js';
import { encodePng } from '../../render/png.js';
import { baseName } from '../../interop/json.js';

export * from './model.js';
export {
  readHallgeir,
  readSprite,
  readObject,
  readMap,
  sniffHallgeir,
  parseEndian,
  type HallgeirReadOptions,
  type EndianOption,
} from './read.js';
export { writeHallgeir, type HallgeirWriteOptions } from './write.js';
export {
  framesOf as hallgeirFramesOf,
  frameCount as hallgeirFrameCount,
  frameByIndex as hallgeirFrameByIndex,
  objectsOf as hallgeirObjectsOf,
  type FrameTable as HallgeirFrameTable,
  type ObjectTable as HallgeirObjectTable,
} from './compact.js';
export { HallgeirPlayer, frameAt, frameAtTimes, frameChain, playRecords, type PlayRecord } from './play.js';
export { inspectJson as hallgeirInspectJson, inspectText as hallgeirInspectText } from './inspect.js';
export { renderSprite, renderMap, renderObject, spritePicture, objectPicture, mapPicture, inferFrameSize } from './render.js';
export { spriteToModel, spriteFromModel, hallgeirFrameSizeOf } from './convert.js';

const ENDIAN_READ: OptionSpec = ENDIAN_OPTION;
const FRAME_SIZE: OptionSpec = FRAME_SIZE_OPTION;

function writeOptionsFor(options: CommandOptions | undefined, _format: string): { endian?: 'little' | 'big' } {
  const e = choiceOption(options, ENDIAN_OPTION) ?? 'auto';
  return e === 'auto' ? {} : { endian: e };
}

function readWith<K extends HallgeirKind>(kind: K) {
  return (bytes: Uint8Array, ctx?: ReadContext & { options?: CommandOptions }) =>
    readHallgeir(bytes, kind, { endian: choiceOption(ctx?.options, ENDIAN_OPTION), warn: ctx?.warn, keepBytes: ctx?.keepBytes });
}

export const hallgeirSpriteHandler: FormatHandler<HallgeirSprite> = {
  name: 'hallgeir-sprite',
  title: 'Hallgeir Lien engine sprite (2007)',
  extensions: ['.spr'],
  sniff: (bytes) => sniffHallgeir(bytes, 'sprite'),
  read: readWith('sprite') as FormatHandler<HallgeirSprite>['read'],
  write: (doc, options) => writeHallgeir(doc, writeOptionsFor(options, 'hallgeir-sprite')),
  // A sprite made from frames that name no texture of their own: the new texture, STEM.png, beside it (spriteFromModel).
  async writeFiles(doc, outName, options) {
    const write = (d: HallgeirSprite) => writeHallgeir(d, writeOptionsFor(options, 'hallgeir-sprite'));
    if (!doc.bakedTexture) return [{ name: outName, bytes: write(doc) }];
    const png = `${baseName(outName)}.png`;
    return [
      { name: outName, bytes: write({ ...doc, texture: png }) },
      { name: png, bytes: encodePng(doc.bakedTexture) },
    ];
  },
  readOptions: [ENDIAN_READ],
  writeOptions: [ENDIAN_READ, FRAME_SIZE],
  validate: (bytes, options) => validateHallgeir(bytes, 'sprite', options),
  inspectJson: (doc) => inspectJson(doc),
  inspectText: (doc) => inspectText(doc),
  play(doc, options) {
    const anim = pickAnimation(doc, stringOption(options, ANIMATION_OPTION));
    const ms = intOption(options, PLAY_MS_OPTION) ?? 1000;
    const step = intOption(options, PLAY_STEP_MS_OPTION) ?? 100;
    budgetFrom(options).spend('maxRecords', Math.ceil(ms / step), `--ms ${ms} at --step-ms ${step}`);
    const { records, stuck } = playRecords(anim, ms, step);
    const warnings: string[] = [];
    if (frameCount(anim) === 0) warnings.push(`animation ${JSON.stringify(anim.name)} has no frames`);
    if (stuck)
      warnings.push(
        `animation ${JSON.stringify(anim.name)}: its delays are too small to advance the time at double precision; the frame stays`,
      );
    const lines = [`animation ${JSON.stringify(anim.name)}, ${records.length} step${records.length === 1 ? '' : 's'} of ${step} ms`];
    for (const r of records) lines.push(`${String(r.time).padStart(8)} ms  ${r.frame === null ? '-' : `frame ${r.frame}`}`);
    return { records, warnings, text: printableLines(lines) + '\n' };
  },
  playOptions: [ANIMATION_OPTION, PLAY_MS_OPTION, PLAY_STEP_MS_OPTION, ENDIAN_READ],
  picture: (doc, options, resources) => spritePicture(doc, options, resources),
  references: (doc, resources) => hallgeirReferences(doc, resources),
  checkResources: (doc, resources, options) => hallgeirChainProblems(doc, resources, options),
  renderViews: spriteViews,
  renderOptions: [FRAME_SIZE, ANIMATION_OPTION, FRAME_OPTION, ENDIAN_READ],
  toModel: (doc, resources, options) => spriteToModel(doc, resources, options),
  fromModel: (model, options) => spriteFromModel(model, options),
};

export const hallgeirObjectHandler: FormatHandler<HallgeirObject> = {
  name: 'hallgeir-object',
  title: 'Hallgeir Lien engine object (2007)',
  extensions: ['.obj'],
  sniff: (bytes) => sniffHallgeir(bytes, 'object'),
  read: readWith('object') as FormatHandler<HallgeirObject>['read'],
  write: (doc, options) => writeHallgeir(doc, writeOptionsFor(options, 'hallgeir-object')),
  readOptions: [ENDIAN_READ],
  writeOptions: [ENDIAN_READ],
  validate: (bytes, options) => validateHallgeir(bytes, 'object', options),
  inspectJson: (doc) => inspectJson(doc),
  inspectText: (doc) => inspectText(doc),
  picture: (doc, options, resources) => objectPicture(doc, options, resources),
  references: (doc, resources) => hallgeirReferences(doc, resources),
  checkResources: (doc, resources, options) => hallgeirChainProblems(doc, resources, options),
  renderOptions: [FRAME_SIZE, ENDIAN_READ, ...LAYER_OPTIONS],
};

export const hallgeirMapHandler: FormatHandler<HallgeirMap> = {
  name: 'hallgeir-map',
  title: 'Hallgeir Lien engine map (2007)',
  extensions: ['.map'],
  sniff: (bytes) => sniffHallgeir(bytes, 'map'),
  read: readWith('map') as FormatHandler<HallgeirMap>['read'],
  write: (doc, options) => writeHallgeir(doc, writeOptionsFor(options, 'hallgeir-map')),
  readOptions: [ENDIAN_READ],
  writeOptions: [ENDIAN_READ],
  validate: (bytes, options) => validateHallgeir(bytes, 'map', options),
  inspectJson: (doc) => inspectJson(doc),
  inspectText: (doc) => inspectText(doc),
  picture: (doc, options, resources) => mapPicture(doc, options, resources),
  references: (doc, resources) => hallgeirReferences(doc, resources),
  checkResources: (doc, resources, options) => hallgeirChainProblems(doc, resources, options),
  renderOptions: [FRAME_SIZE, ENDIAN_READ, ...LAYER_OPTIONS],
};

export const hallgeirFormats: FormatHandler<HallgeirDocument>[] = [
  hallgeirSpriteHandler as FormatHandler,
  hallgeirObjectHandler as FormatHandler,
  hallgeirMapHandler as FormatHandler,
];
