/**
 * Where the inspect JSON's parts lie in an ISPRITE file (the viewer's field
 * tree): the header, each chunk, and each texture, slice and frame record,
 * as byte ranges [start, end) keyed by JSON pointer (`/frames/3`). Read
 * again with the reader's own offset tracking; {} when the file does not read.
 */
import { readIspriteDetailed } from './read.js';
import { CHUNK, HEADER } from './records.js';

const CHUNK_KEYS: Record<string, string> = {
  META: '/meta',
  'MET+': '/extraMeta',
  'TEX ': '/textures',
  SLIC: '/slices',
  NAME: '/names',
  TIER: '/tree',
  FRAM: '/frames',
};

export function ispriteByteRanges(bytes: Uint8Array): Record<string, [number, number]> {
  let info;
  try {
    info = readIspriteDetailed(bytes, undefined, true).info;
  } catch {
    return {};
  }
  const h = HEADER.at;
  const out: Record<string, [number, number]> = {
    '/version': [h.major, h.minor + 1],
    '/nonStandard': [h.flags, h.flags + 1],
    '/workFile': [h.flags, h.flags + 1],
    '/nonStandardId': [h.nonStandardId, h.nonStandardId + 3],
    '/frameRate': [h.frameRate, h.frameRate + 1],
  };
  let unknown = 0;
  for (const c of info.chunks) {
    const range: [number, number] = [c.offset, c.offset + CHUNK.size + c.size];
    const key = CHUNK_KEYS[c.id];
    if (key) out[key] = range;
    else out[`/unknownChunks/${unknown++}`] = range;
    const records =
      c.id === 'TEX ' ? info.textureOffsets : c.id === 'SLIC' ? info.sliceOffsets : c.id === 'FRAM' ? info.frameOffsets : null;
    if (!key || !records) continue;
    records.forEach((at, i) => {
      out[`${key}/${i}`] = [at, records[i + 1] ?? range[1]];
    });
  }
  return out;
}
