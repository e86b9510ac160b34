/**
 * BMP decoding, through the `decode-bmp` package (pure JS, runs in browsers).
 * That package reads the common layouts (1/2/4/8-bit palette, 24 and 32-bit,
 * bottom-up, pixels right after the header and palette) but trusts every
 * header field; this wrapper checks the header against the bytes first and
 * hands it a normalised copy (40-byte info header, palette, then pixels), so
 * top-down images, V4/V5 headers, pixel-data gaps and 32-bit bit-field masks
 * work too, and bad input is a FormatError naming the byte offset.
 * Not supported (FormatError): RLE/JPEG/PNG compression, 16-bit pixels,
 * OS/2 1.x headers.
 */
import decodeBmpLib from 'decode-bmp';
import { FormatError } from '../binary/errors.js';
import { DEFAULT_LIMITS } from '../binary/limits.js';
import type { RgbaImage } from './image.js';
import { checkDecodeSize } from './png.js';

function fail(reason: string, offset: number): never {
  throw FormatError.atByte('bmp', reason, offset);
}

/** True when the bytes start like a BMP file ("BM"). */
export function isBmp(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x42 && bytes[1] === 0x4d;
}

/** The image size in the header (width, and the height without its sign). */
export function bmpSize(bytes: Uint8Array): { width: number; height: number } {
  if (!isBmp(bytes)) fail('not a BMP image (no "BM" signature)', 0);
  if (bytes.length < 26) fail(`BMP headers need 26 bytes, the file has ${bytes.length}`, 0);
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: v.getInt32(18, true), height: Math.abs(v.getInt32(22, true)) };
}

/**
 * Decodes a BMP file to straight-alpha RGBA. Throws FormatError for anything
 * it cannot read; the size in the header is checked against `maxPixels`
 * (--max-pixels) before anything is allocated.
 */
export function decodeBmp(bytes: Uint8Array, maxPixels: number = DEFAULT_LIMITS.maxPixels): RgbaImage {
  if (!isBmp(bytes)) fail('not a BMP image (no "BM" signature)', 0);
  if (bytes.length < 18) fail(`BMP file header needs 18 bytes, the file has ${bytes.length}`, 0);
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dataOffset = v.getUint32(10, true);
  const headerSize = v.getUint32(14, true);
  if (headerSize === 12) fail('OS/2 1.x BMP headers are not supported', 14);
  if (headerSize < 40 || headerSize > 1024) fail(`BMP info header size ${headerSize} is not supported`, 14);
  if (14 + headerSize > bytes.length) fail(`BMP info header of ${headerSize} bytes runs past the end of the file`, 14);
  const width = v.getInt32(18, true);
  const rawHeight = v.getInt32(22, true);
  const bpp = v.getUint16(28, true);
  const compression = v.getUint32(30, true);
  let colorsUsed = v.getUint32(46, true);
  if (width <= 0) fail(`BMP width ${width} is not positive`, 18);
  if (rawHeight === 0 || rawHeight === -0x80000000) fail(`BMP height ${rawHeight} is not usable`, 22);
  const height = Math.abs(rawHeight);
  const topDown = rawHeight < 0;
  if (![1, 2, 4, 8, 24, 32].includes(bpp)) fail(`BMP with ${bpp} bits per pixel is not supported`, 28);

  // Where the palette / masks start: after the info header (and after 12 mask bytes for a 40-byte bit-field header).
  let paletteStart = 14 + headerSize;
  let alphaMask = 0;
  if (compression === 3 || compression === 6) {
    if (bpp !== 32) fail(`BMP bit-field masks with ${bpp} bits per pixel are not supported`, 30);
    let masksAt = 54;
    if (headerSize === 40) {
      masksAt = paletteStart;
      paletteStart += compression === 6 ? 16 : 12;
      if (paletteStart > bytes.length) fail('BMP bit-field masks run past the end of the file', masksAt);
    }
    const r = v.getUint32(masksAt, true);
    const g = v.getUint32(masksAt + 4, true);
    const b = v.getUint32(masksAt + 8, true);
    alphaMask = compression === 6 || headerSize >= 56 ? v.getUint32(masksAt + 12, true) : 0;
    if (r !== 0x00ff0000 || g !== 0x0000ff00 || b !== 0x000000ff || (alphaMask !== 0 && alphaMask !== 0xff000000)) {
      fail('BMP bit-field masks other than 8-bit BGRA are not supported', masksAt);
    }
  } else if (compression !== 0) {
    fail(`BMP compression ${compression} (RLE, JPEG or PNG) is not supported`, 30);
  } else if (bpp === 32) {
    alphaMask = -1; // decide from the data: a zero "reserved" byte everywhere means opaque
  }

  if (bpp > 8) colorsUsed = 0;
  else if (colorsUsed === 0) colorsUsed = 1 << bpp;
  if (bpp <= 8 && colorsUsed > 256) fail(`BMP palette of ${colorsUsed} colours is too large`, 46);
  const paletteBytes = colorsUsed * 4;
  if (paletteStart + paletteBytes > bytes.length) fail('BMP palette runs past the end of the file', paletteStart);
  const stride = Math.ceil((width * bpp) / 32) * 4;
  const pixelBytes = stride * height;
  if (dataOffset < 54 || dataOffset > bytes.length) {
    fail(`BMP pixel data offset ${dataOffset} is outside the file`, 10);
  }
  if (dataOffset + pixelBytes > bytes.length) {
    fail(`BMP pixel data needs ${pixelBytes} bytes at ${dataOffset}, the file has ${bytes.length - dataOffset}`, dataOffset);
  }
  // Data for every pixel is there; the RGBA copy must also fit the limits.
  checkDecodeSize('bmp', width, height, maxPixels, 18);

  // The normalised copy decode-bmp expects.
  const norm = new Uint8Array(54 + paletteBytes + pixelBytes);
  const nv = new DataView(norm.buffer);
  norm[0] = 0x42;
  norm[1] = 0x4d;
  nv.setUint32(2, norm.length, true);
  nv.setUint32(10, 54 + paletteBytes, true);
  nv.setUint32(14, 40, true);
  nv.setInt32(18, width, true);
  nv.setInt32(22, height, true);
  nv.setUint16(26, 1, true);
  nv.setUint16(28, bpp, true);
  nv.setUint32(46, colorsUsed, true);
  norm.set(bytes.subarray(paletteStart, paletteStart + paletteBytes), 54);
  norm.set(bytes.subarray(dataOffset, dataOffset + pixelBytes), 54 + paletteBytes);

  let decoded: { data: Uint8ClampedArray; width: number; height: number };
  try {
    decoded = decodeBmpLib(norm);
  } catch (e) {
    fail(`not a readable BMP image: ${(e as Error).message}`, 0);
  }
  const data = new Uint8Array(decoded.data.buffer, decoded.data.byteOffset, decoded.data.byteLength);
  if (bpp === 32 && alphaMask !== 0xff000000) {
    let anyAlpha = false;
    if (alphaMask === -1) for (let i = 3; i < data.length && !anyAlpha; i += 4) anyAlpha = data[i] !== 0;
    if (!anyAlpha) for (let i = 3; i < data.length; i += 4) data[i] = 255;
  }
  const out: RgbaImage = { width, height, data };
  if (topDown) flipRows(out);
  return out;
}

function flipRows(img: RgbaImage): void {
  const row = img.width * 4;
  const tmp = new Uint8Array(row);
  for (let y = 0, z = img.height - 1; y < z; y++, z--) {
    tmp.set(img.data.subarray(y * row, y * row + row));
    img.data.copyWithin(y * row, z * row, z * row + row);
    img.data.set(tmp, z * row);
  }
}
