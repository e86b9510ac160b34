/**
 * Theme Hospital's data layout, as CorsixTH reads it beside its CTHG
 * animations (`sprat check` on a CorsixTH graphics folder): sprite tables
 * `NAME.TAB` with their sprite data `NAME.DAT` (VSPR-0, VBLK-0, fonts and
 * panels), and palettes (`MPalette.dat`, `*.pal`). Only what CorsixTH's
 * loader relies on is checked:
 *
 * - a palette is exactly 256 entries of 3 bytes (the game refuses any other
 *   length), each component a 6-bit VGA value 0-63 (the game keeps only the
 *   low 6 bits, so a larger value shows another colour);
 * - a sprite table is 6-byte entries (u32 little-endian offset into the
 *   data file, u8 width, u8 height); a sprite with a size must start inside
 *   the data file (its unpacked size when the file is RNC-packed, as the
 *   original game's files are);
 * - a folder named `Data` that holds sprite tables holds `MPalette.dat`, the
 *   palette the game draws them with.
 *
 * Browser-safe: bytes in, problems out.
 */
import { diagnostic, type Diagnostic } from '../../binary/errors.js';

/** Bytes of a Theme Hospital palette: 256 RGB entries. */
export const TH_PALETTE_BYTES = 256 * 3;
/** Bytes of one sprite table entry. */
export const TH_TABLE_ENTRY = 6;

/** The unpacked size of an RNC-packed file ("RNC" + method 1 or 2, u32 big-endian unpacked size), or undefined when it is not packed. */
export function rncUnpackedSize(bytes: Uint8Array): number | undefined {
  if (bytes.length < 18 || bytes[0] !== 0x52 || bytes[1] !== 0x4e || bytes[2] !== 0x43 || (bytes[3] !== 1 && bytes[3] !== 2))
    return undefined;
  return ((bytes[4]! << 24) | (bytes[5]! << 16) | (bytes[6]! << 8) | bytes[7]!) >>> 0;
}

/** The problems of a Theme Hospital palette file (`name` for messages). */
export function thPaletteProblems(bytes: Uint8Array): Diagnostic[] {
  if (rncUnpackedSize(bytes) !== undefined) {
    const n = rncUnpackedSize(bytes)!;
    return n === TH_PALETTE_BYTES
      ? []
      : [diagnostic('error', `a palette unpacks to ${n} bytes; CorsixTH reads only palettes of 256 entries (768 bytes)`, { offset: 4 })];
  }
  if (bytes.length !== TH_PALETTE_BYTES)
    return [
      diagnostic(
        'error',
        `a palette is 256 entries of 3 bytes (768 bytes); this file has ${bytes.length} bytes${bytes.length % 3 === 0 ? ` (${bytes.length / 3} entries)` : ''}, and CorsixTH refuses it`,
        { offset: Math.min(bytes.length, TH_PALETTE_BYTES) },
      ),
    ];
  let first = -1;
  let bad = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i]! <= 63) continue;
    if (bad++ === 0) first = i;
  }
  if (first < 0) return [];
  const v = bytes[first]!;
  const more = bad > 1 ? ` (and ${bad - 1} more components)` : '';
  return [
    diagnostic(
      'warning',
      `palette entry ${Math.floor(first / 3)}: ${'RGB'[first % 3]} is ${v}, out of the 6-bit range 0-63 (the game keeps its low 6 bits: ${v & 63})${more}`,
      { offset: first },
    ),
  ];
}

/**
 * The problems of a sprite table, given the size of its sprite data file
 * (unpacked; undefined when there is none: one error).
 */
export function thSpriteTableProblems(table: Uint8Array, dataName: string, dataSize: number | undefined): Diagnostic[] {
  if (rncUnpackedSize(table) !== undefined) return []; // packed: its entries are not read here
  const out: Diagnostic[] = [];
  if (dataSize === undefined) {
    out.push(diagnostic('error', `the sprite data file ${dataName} the table indexes is not there`));
    return out;
  }
  if (table.length % TH_TABLE_ENTRY !== 0)
    out.push(
      diagnostic(
        'warning',
        `a sprite table is 6-byte entries; the last ${table.length % TH_TABLE_ENTRY} bytes are no entry (the game ignores them)`,
        { offset: table.length - (table.length % TH_TABLE_ENTRY) },
      ),
    );
  const view = new DataView(table.buffer, table.byteOffset, table.byteLength);
  let bad = 0;
  for (let i = 0; i + TH_TABLE_ENTRY <= table.length; i += TH_TABLE_ENTRY) {
    const at = view.getUint32(i, true);
    const w = table[i + 4]!;
    const h = table[i + 5]!;
    if (w === 0 || h === 0 || at < dataSize) continue;
    if (bad++ < 3)
      out.push(
        diagnostic(
          'error',
          `sprite ${i / TH_TABLE_ENTRY} (${w}x${h}): its data at byte ${at} lies past the end of ${dataName} (${dataSize} bytes)`,
          { offset: i },
        ),
      );
  }
  if (bad > 3) out.push(diagnostic('error', `and ${bad - 3} more sprites whose data lies past the end of ${dataName}`));
  return out;
}

/** The size of a sprite data file as the game sees it: unpacked when RNC-packed. */
export function thDataSize(bytes: Uint8Array): number {
  return rncUnpackedSize(bytes) ?? bytes.length;
}
