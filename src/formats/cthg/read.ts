import { ByteReader } from '../../binary/reader.js';
import { diagnostic, type Diagnostic } from '../../binary/errors.js';
import {
  CTHG_VERSION,
  NO_REF,
  VIEWS,
  countsOf,
  type CthgAnimation,
  type CthgDocument,
  type CthgElement,
  type CthgFrame,
  type CthgHeader,
  type CthgSprite,
  type CthgViewName,
} from './model.js';
import { checkPixelData } from './rle.js';

export const HEADER_SIZE = 26;

export interface CthgReadOptions {
  /** Called for non-fatal problems (header counts that differ from the blocks, invalid UTF-8 names). */
  warn?(d: Diagnostic): void;
  /** The sprites' pixel data may be views of `bytes` instead of copies (the caller never changes them: ReadContext.keepBytes). */
  keepBytes?: boolean;
}

/** True when the bytes start with the CTHG magic. */
export function sniffCthg(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x43 && bytes[1] === 0x54 && bytes[2] === 0x48 && bytes[3] === 0x47;
}

const HEADER_NAMES: [keyof CthgHeader, string][] = [
  ['animations', 'grouped animation count'],
  ['frames', 'frame count'],
  ['elements', 'sprite element count'],
  ['sprites', 'sprite count'],
  ['spriteBytes', 'sprite data byte count'],
];

/** Differences between the header counts and what the blocks hold (offsets of the header fields). */
export function headerMismatches(doc: CthgDocument): { reason: string; offset: number }[] {
  if (!doc.header) return [];
  const actual = countsOf(doc);
  const out: { reason: string; offset: number }[] = [];
  HEADER_NAMES.forEach(([key, what], i) => {
    if (doc.header![key] !== actual[key]) {
      out.push({ reason: `the header's ${what} is ${doc.header![key]} but the file holds ${actual[key]}`, offset: 6 + 4 * i });
    }
  });
  return out;
}

/**
 * Reads a CTHG version 513 file. Blocks may come in any order that defines
 * each frame and sprite before it is referenced. Throws a FormatError naming
 * the byte offset for anything the game would reject; header counts that
 * differ from the blocks are only warnings here (errors in `validate`).
 */
export function readCthg(bytes: Uint8Array, options: CthgReadOptions = {}): CthgDocument {
  /** Where the last string that was not valid UTF-8 starts (its bytes are kept, see CthgAnimation.rawName). */
  let badUtf8At = -1;
  const r = new ByteReader(bytes, {
    format: 'cthg',
    littleEndian: true,
    onInvalidUtf8: (at) => {
      badUtf8At = at;
      options.warn?.(diagnostic('warning', 'the animation name is not valid UTF-8', { offset: at }));
    },
  });
  if (bytes.length < 4 || !sniffCthg(bytes)) throw r.error('not a CTHG file: it does not start with "CTHG"', 0);
  r.pos = 4;
  const version = r.u16();
  if (version !== CTHG_VERSION) {
    if (version < 512) {
      throw r.error(
        `version ${version} is one of the free graphics formats (versions 0-511), not an animation file; only version 513 is supported`,
        4,
      );
    }
    throw r.error(`unsupported CTHG version ${version} (only 513 is supported)`, 4);
  }
  r.need(20, 'header');
  const header: CthgHeader = {
    animations: r.u32(),
    frames: r.u32(),
    elements: r.u32(),
    sprites: r.u32(),
    spriteBytes: r.u32(),
  };
  const animations: CthgAnimation[] = [];
  const frames: CthgFrame[] = [];
  const sprites: CthgSprite[] = [];
  let order = '';
  while (!r.atEnd) {
    const at = r.pos;
    r.need(2, 'block identification');
    const a = bytes[at]!;
    const b = bytes[at + 1]!;
    r.pos += 2;
    if (a === 0x43 && b === 0x41) {
      // CA: grouped animation
      const tileSize = r.u16();
      const frameCount = r.u32();
      if (frameCount === 0) throw r.error('a grouped animation has 0 frames per view', at + 4);
      const nameAt = r.pos;
      const name = r.str8('animation name');
      const rawName = badUtf8At === nameAt + 1 ? bytes.slice(nameAt + 1, r.pos) : undefined;
      const views = {} as Record<CthgViewName, number | null>;
      for (const v of VIEWS) {
        const fieldAt = r.pos;
        const first = r.u32();
        if (first === NO_REF) {
          views[v] = null;
          continue;
        }
        if (first + frameCount > frames.length) {
          throw r.error(
            `the ${v} view of "${name}" uses frames ${first} to ${first + frameCount - 1} but only ${frames.length} frame${frames.length === 1 ? ' is' : 's are'} defined before it`,
            fieldAt,
          );
        }
        views[v] = first;
      }
      animations.push(rawName ? { name, rawName, tileSize, frameCount, views } : { name, tileSize, frameCount, views });
      order += 'A';
    } else if (a === 0x46 && b === 0x52) {
      // FR: frame
      const sound = r.u16();
      const countAt = r.pos;
      const count = r.u16();
      r.checkCount(count, 12, 'sprite element', countAt);
      const elements: CthgElement[] = new Array(count);
      for (let i = 0; i < count; i++) {
        const refAt = r.pos;
        const ref = r.u32();
        if (ref !== NO_REF && ref >= sprites.length) {
          throw r.error(
            `a sprite element refers to sprite ${ref} but only ${sprites.length} sprite${sprites.length === 1 ? ' is' : 's are'} defined before it`,
            refAt,
          );
        }
        elements[i] = {
          sprite: ref === NO_REF ? null : ref,
          x: r.i16(),
          y: r.i16(),
          layerClass: r.u8(),
          layerId: r.u8(),
          flags: r.u16(),
        };
      }
      frames.push({ sound, elements });
      order += 'F';
    } else if (a === 0x53 && b === 0x50) {
      // SP: sprite
      const width = r.u16();
      const height = r.u16();
      const lenAt = r.pos;
      const length = r.u32();
      r.checkCount(length, 1, 'sprite data byte', lenAt);
      checkPixelData(bytes, r.pos, r.pos + length, width, height);
      sprites.push({ width, height, data: options.keepBytes ? r.bytesView(length, 'sprite data') : r.bytesCopy(length, 'sprite data') });
      order += 'S';
    } else {
      const shown = [a, b].map((c) => (c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : `\\x${c.toString(16).padStart(2, '0')}`)).join('');
      throw r.error(`unknown block ID "${shown}" (expected CA, FR or SP; blocks have no size, so it cannot be skipped)`, at);
    }
  }
  const doc: CthgDocument = { version, header, blockOrder: order, animations, frames, sprites };
  for (const m of headerMismatches(doc)) options.warn?.(diagnostic('warning', m.reason, { offset: m.offset }));
  return doc;
}
