/**
 * Ancillary PNG chunks are never inflated: the chunk walk of the PNG reader (readPngParts,
 * src/render/png.ts) skips every one but tRNS unread (an iCCP profile inflates 500 MiB from
 * 500 KB). The full-size files run in test/hostile/sweep.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import * as zlib from 'node:zlib';
import { decodePng, encodePng, readPngParts } from '../../src/render/png.js';
import { fflateInflate, getRawInflate, setRawInflate } from '../../src/render/inflate.js';
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

/** Counts the inflater's calls and the compressed bytes it was given, while `f` runs. */
function inflations<T>(f: () => T): { result: T; calls: number[] } {
  const calls: number[] = [];
  const before = getRawInflate();
  setRawInflate((data, size) => {
    calls.push(data.length);
    return fflateInflate(data, size);
  });
  try {
    return { result: f(), calls };
  } finally {
    setRawInflate(before);
  }
}

describe('ancillary PNG chunks', () => {
  afterEach(() => setRawInflate(null));

  it('zlibZeros (the hostile generator) is a valid zlib stream of 1 + 258 n zeros', () => {
    for (const n of [0, 1, 7, 5000]) {
      const out = zlib.inflateSync(zlibZeros(n));
      expect(out.length).toBe(1 + 258 * n);
      expect(out.every((b) => b === 0)).toBe(true);
    }
  });

  it('iCCP, zTXt, iTXt, tEXt and unknown ancillary chunks are skipped unread; the pixels are the same', () => {
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
    const { result, calls } = inflations(() => decodePng(hostile));
    expect(result.data).toEqual(decodePng(plain).data);
    // one inflate: the IDAT's deflate data (its zlib stream without the 2-byte header), nothing else
    expect(calls).toEqual([readPngParts(plain).data.length - 2]);
  });

  it('tRNS and PLTE are read: palette transparency still applies (and the indexed decoder walks the same way)', () => {
    const png = encodeIndexedPng(2, 1, new Uint8Array([0, 1]), [
      [255, 0, 0, 0],
      [0, 255, 0, 255],
    ]);
    const hostile = withChunks(png, [iccpBomb(1)]);
    expect(readPngParts(hostile).paletteSize).toBe(2);
    expect([...decodePng(hostile).data]).toEqual([...decodePng(png).data]);
    expect(decodePng(hostile).data[3]).toBe(0);
    expect(decodeIndexedPng(hostile).indices).toEqual(new Uint8Array([0, 1]));
  });

  it('a chunk that runs past the end of the file is a FormatError at the chunk, never inflated', () => {
    const plain = encodePng(picture());
    const cut = withChunks(plain, [iccpBomb(1)]).subarray(0, 33 + 200);
    const { calls } = inflations(() =>
      expect(() => decodePng(cut)).toThrow(/the iCCP chunk \(\d+ bytes\) runs past the end of the file \(at byte 33\)/),
    );
    expect(calls).toEqual([]);
    const truncatedIdat = plain.subarray(0, plain.length - 20);
    expect(() => decodePng(truncatedIdat)).toThrow(/the IDAT chunk \(\d+ bytes\) runs past the end of the file/);
    expect(() => decodePng(plain.subarray(0, plain.length - 12))).toThrow(/the file ends before its IEND chunk/);
  });
});
