/**
 * Ancillary PNG chunks are never inflated: decodedChunks (src/render/png.ts) leaves out every one but
 * tRNS before fast-png sees the bytes (it inflates an iCCP profile with no limit: two 500 MiB
 * profiles in a 1 MB PNG cost 1.6 GiB). The full-size files run in test/hostile/sweep.test.ts.
 */
import { describe, expect, it } from 'vitest';
import * as zlib from 'node:zlib';
import { FormatError } from '../../src/binary/errors.js';
import { decodedChunks, decodePng, encodePng } from '../../src/render/png.js';
import { decodeIndexedPng, encodeIndexedPng } from '../../src/render/indexed.js';
import { createImage } from '../../src/render/image.js';
import { iccpBomb, pngChunk, withChunks, zlibZeros } from '../hostile/cases.js';

const text = (s: string) => new TextEncoder().encode(s);

function chunkTypes(png: Uint8Array): string[] {
  const out: string[] = [];
  for (let o = 8; o + 8 <= png.length; ) {
    const len = new DataView(png.buffer, png.byteOffset).getUint32(o);
    out.push(String.fromCharCode(...png.subarray(o + 4, o + 8)));
    o += 12 + len;
  }
  return out;
}

function picture() {
  const img = createImage(5, 3);
  for (let i = 0; i < img.data.length; i++) img.data[i] = (i * 53) & 255;
  return img;
}

describe('ancillary PNG chunks', () => {
  it('zlibZeros (the hostile generator) is a valid zlib stream of 1 + 258 n zeros', () => {
    for (const n of [0, 1, 7, 5000]) {
      const out = zlib.inflateSync(zlibZeros(n));
      expect(out.length).toBe(1 + 258 * n);
      expect(out.every((b) => b === 0)).toBe(true);
    }
  });

  it('iCCP, zTXt, iTXt, tEXt and unknown ancillary chunks are left out before decoding; the pixels are the same', () => {
    const img = picture();
    const plain = encodePng(img);
    const z = zlibZeros(4000);
    const hostile = withChunks(plain, [
      iccpBomb(1),
      pngChunk('zTXt', new Uint8Array([...text('Comment\0\0'), ...z])),
      pngChunk('iTXt', new Uint8Array([...text('XML:com.adobe.xmp\0\x01\0\0\0'), ...z])),
      pngChunk('tEXt', text('Software\0sprat')),
      pngChunk('prVt', new Uint8Array(10)),
    ]);
    expect(chunkTypes(hostile)).toEqual(['IHDR', 'iCCP', 'zTXt', 'iTXt', 'tEXt', 'prVt', 'IDAT', 'IEND']);
    expect(chunkTypes(decodedChunks(hostile))).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect(decodePng(hostile).data).toEqual(decodePng(plain).data);
    // a PNG without them is given to the decoder as it is
    expect(decodedChunks(plain)).toBe(plain);
  });

  it('tRNS and PLTE are kept: palette transparency still applies (and the indexed decoder walks the same way)', () => {
    const png = encodeIndexedPng(2, 1, new Uint8Array([0, 1]), [
      [255, 0, 0, 0],
      [0, 255, 0, 255],
    ]);
    const hostile = withChunks(png, [iccpBomb(1)]);
    expect(chunkTypes(decodedChunks(hostile))).toEqual(chunkTypes(png));
    expect([...decodePng(hostile).data]).toEqual([...decodePng(png).data]);
    expect(decodePng(hostile).data[3]).toBe(0);
    expect(decodeIndexedPng(hostile).indices).toEqual(new Uint8Array([0, 1]));
  });

  it('an ancillary chunk that runs past the end is dropped with the rest; a critical one is kept for the decoder to report', () => {
    const plain = encodePng(picture());
    const cut = withChunks(plain, [iccpBomb(1)]).subarray(0, 33 + 200);
    expect(chunkTypes(decodedChunks(cut))).toEqual(['IHDR']);
    expect(() => decodePng(cut)).toThrow(FormatError);
    const truncatedIdat = plain.subarray(0, plain.length - 20);
    expect(decodedChunks(truncatedIdat)).toBe(truncatedIdat);
  });
});
