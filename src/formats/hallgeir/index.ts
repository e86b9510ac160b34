/**
 * The Hallgeir Lien engine formats (2007): `.spr` sprites, `.obj` object
 * descriptions, `.map` maps. Three handlers; see docs/formats/hallgeir.md
 * and ../shared/contract/hallgeir.md.
 */
import { FormatError, OptionError } from '../../binary/errors.js';
import { intOption } from '../options.js';
import type { CommandOptions, FormatHandler, OptionSpec, ReadContext } from '../types.js';
import { spriteFromModel, spriteToModel } from './convert.js';
import { inspectJson, inspectText } from './inspect.js';
import { FORMAT_NAMES, type HallgeirDocument, type HallgeirKind, type HallgeirMap, type HallgeirObject, type HallgeirSprite } from './model.js';
import { playRecords } from './play.js';
import { parseEndian, readHallgeir, sniffHallgeir } from './read.js';
import { mapPicture, objectPicture, pickAnimation, spritePicture, spriteViews } from './render.js';
import { validateHallgeir } from './validate.js';
import { writeHallgeir } from './write.js';

export * from './model.js';
export { readHallgeir, readSprite, readObject, readMap, sniffHallgeir, parseEndian, type HallgeirReadOptions, type EndianOption } from './read.js';
export { writeHallgeir, type HallgeirWriteOptions } from './write.js';
export { HallgeirPlayer, frameAt, frameAtTimes, frameChain, playRecords, type PlayRecord } from './play.js';
export { inspectJson as hallgeirInspectJson, inspectText as hallgeirInspectText } from './inspect.js';
export { renderSprite, renderMap, renderObject, spritePicture, objectPicture, mapPicture, inferFrameSize } from './render.js';
export { spriteToModel, spriteFromModel } from './convert.js';

const ENDIAN_READ: OptionSpec = {
  name: 'endian',
  type: 'string',
  description: 'byte order: auto (default: little-endian, else big-endian), little or big (tried first); for convert, the byte order written',
};
const FRAME_SIZE: OptionSpec = { name: 'frame-size', type: 'string', description: 'Hallgeir sprites: the frame size WxH (not stored in the file)' };

function writeOptionsFor(options: CommandOptions | undefined, format: string): { endian?: 'little' | 'big' } {
  const e = parseEndian(options?.endian, format);
  return e === 'auto' ? {} : { endian: e };
}

function readWith<K extends HallgeirKind>(kind: K) {
  return (bytes: Uint8Array, ctx?: ReadContext & { options?: CommandOptions }) =>
    readHallgeir(bytes, kind, { endian: parseEndian(ctx?.options?.endian, FORMAT_NAMES[kind]), warn: ctx?.warn });
}

export const hallgeirSpriteFormat: FormatHandler<HallgeirSprite> = {
  name: 'hallgeir-sprite',
  title: 'Hallgeir Lien engine sprite (2007)',
  extensions: ['.spr'],
  sniff: (bytes) => sniffHallgeir(bytes, 'sprite'),
  read: readWith('sprite') as FormatHandler<HallgeirSprite>['read'],
  write: (doc, options) => writeHallgeir(doc, writeOptionsFor(options, 'hallgeir-sprite')),
  readOptions: [ENDIAN_READ],
  writeOptions: [ENDIAN_READ, FRAME_SIZE],
  validate: (bytes, options) => validateHallgeir(bytes, 'sprite', options),
  inspectJson: (doc) => inspectJson(doc),
  inspectText: (doc) => inspectText(doc),
  play(doc, options) {
    const anim = pickAnimation(doc, typeof options.animation === 'string' ? options.animation : undefined);
    const ms = intOption(options, 'ms') ?? 1000;
    const step = intOption(options, 'step-ms') ?? 100;
    if (step < 1) throw new OptionError(`--step-ms must be at least 1, not ${step}`);
    if (ms < 0) throw new OptionError(`--ms must not be negative, not ${ms}`);
    if (ms / step > 10_000_000) throw new OptionError(`--ms ${ms} at --step-ms ${step} would print more than 10 million records`);
    const { records, stuck } = playRecords(anim, ms, step);
    const warnings: string[] = [];
    if (anim.frames.length === 0) warnings.push(`animation ${JSON.stringify(anim.name)} has no frames`);
    if (stuck) warnings.push(`animation ${JSON.stringify(anim.name)}: its delays are too small to advance the time at double precision; the frame stays`);
    const lines = [`animation ${JSON.stringify(anim.name)}, ${records.length} step${records.length === 1 ? '' : 's'} of ${step} ms`];
    for (const r of records) lines.push(`${String(r.time).padStart(8)} ms  ${r.frame === null ? '-' : `frame ${r.frame}`}`);
    return { records, warnings, text: lines.join('\n') + '\n' };
  },
  playOptions: [
    { name: 'animation', type: 'string', description: 'the animation to play or draw (default: the first)' },
    { name: 'ms', type: 'int', description: 'play for this many milliseconds (default 1000)' },
    { name: 'step-ms', type: 'int', description: 'one record every this many milliseconds (default 100)' },
    ENDIAN_READ,
  ],
  picture: (doc, options, resources) => spritePicture(doc, options, resources),
  renderViews: spriteViews,
  renderOptions: [
    FRAME_SIZE,
    { name: 'animation', type: 'string', description: 'the animation to play or draw (default: the first)' },
    { name: 'frame', type: 'int', description: 'draw only this frame (an index into the animation)' },
    ENDIAN_READ,
  ],
  toModel: (doc, resources, options) => spriteToModel(doc, resources, options),
  fromModel: (model) => spriteFromModel(model),
};

export const hallgeirObjectFormat: FormatHandler<HallgeirObject> = {
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
  renderOptions: [FRAME_SIZE, ENDIAN_READ],
};

export const hallgeirMapFormat: FormatHandler<HallgeirMap> = {
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
  renderOptions: [FRAME_SIZE, ENDIAN_READ],
};

export const hallgeirFormats: FormatHandler<HallgeirDocument>[] = [
  hallgeirSpriteFormat as FormatHandler,
  hallgeirObjectFormat as FormatHandler,
  hallgeirMapFormat as FormatHandler,
];
