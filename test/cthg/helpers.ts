import { ByteWriter } from '../../src/binary/writer.js';

/** Raw block builders for hand-made (and deliberately broken) files. */
export type RawBlock =
  | { t: 'SP'; width: number; height: number; data: number[] | Uint8Array; length?: number }
  | {
      t: 'FR';
      sound?: number;
      elements: { sprite: number; x?: number; y?: number; layerClass?: number; layerId?: number; flags?: number }[];
      count?: number;
    }
  | { t: 'CA'; name: string; tileSize?: number; frameCount: number; views: [number, number, number, number] }
  | { t: 'raw'; bytes: number[] };

export const NONE = 0xffffffff;

export function rawFile(blocks: RawBlock[], header?: number[], version = 513): Uint8Array {
  const w = new ByteWriter({ format: 'cthg' });
  w.ascii('CTHG').u16(version);
  let counts = [0, 0, 0, 0, 0];
  for (const b of blocks) {
    if (b.t === 'CA') counts[0]!++;
    if (b.t === 'FR') {
      counts[1]!++;
      counts[2]! += b.elements.length;
    }
    if (b.t === 'SP') {
      counts[3]!++;
      counts[4]! += b.data.length;
    }
  }
  if (header) counts = header;
  for (const c of counts) w.u32(c);
  for (const b of blocks) {
    if (b.t === 'SP')
      w.ascii('SP')
        .u16(b.width)
        .u16(b.height)
        .u32(b.length ?? b.data.length)
        .bytes(Uint8Array.from(b.data));
    else if (b.t === 'FR') {
      w.ascii('FR')
        .u16(b.sound ?? 0)
        .u16(b.count ?? b.elements.length);
      for (const e of b.elements)
        w.u32(e.sprite)
          .i16(e.x ?? 0)
          .i16(e.y ?? 0)
          .u8(e.layerClass ?? 0)
          .u8(e.layerId ?? 0)
          .u16(e.flags ?? 0);
    } else if (b.t === 'CA') {
      w.ascii('CA')
        .u16(b.tileSize ?? 64)
        .u32(b.frameCount)
        .str8(b.name);
      for (const v of b.views) w.u32(v);
    } else w.bytes(Uint8Array.from(b.bytes));
  }
  return w.finish();
}

/** A 2x1 sprite: one opaque red pixel, one transparent. */
export const TINY_SPRITE: RawBlock = { t: 'SP', width: 2, height: 1, data: [0x01, 255, 0, 0, 0x81] };
