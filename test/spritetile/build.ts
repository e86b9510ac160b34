import { ByteWriter } from '../../src/binary/writer.js';

/** Builds decompressed SpriteTile data by hand: tags with explicit data, laid out in order after the table. */
export function buildRaw(opts: {
  littleEndian?: boolean;
  version?: number;
  endianByte?: number;
  magic?: string;
  tags: { name: string; data: Uint8Array; offset?: number }[];
  count?: number;
}): Uint8Array {
  const le = opts.littleEndian ?? true;
  const w = new ByteWriter({ format: 't', littleEndian: le });
  w.ascii(opts.magic ?? 'SpriteTileLevel')
    .u8(opts.endianByte ?? (le ? 1 : 0))
    .i32(opts.version ?? 2)
    .i32(opts.count ?? opts.tags.length);
  let pos = 24 + opts.tags.length * 11;
  for (const t of opts.tags) {
    w.ascii(t.name).i32(t.offset ?? pos);
    pos += t.data.length;
  }
  for (const t of opts.tags) w.bytes(t.data);
  return w.finish();
}

export interface RawLayer {
  width: number;
  height: number;
  marker?: string;
  layerLock?: number;
  cells?: [number, number, number, number][];
  extraCells?: number;
}

export function layersData(layers: RawLayer[], littleEndian = true, trailing = 0): Uint8Array {
  const w = new ByteWriter({ format: 't', littleEndian });
  w.i32(layers.length);
  for (const l of layers) {
    w.ascii(l.marker ?? 'lyrdata')
      .f32(1)
      .f32(1)
      .i32(0)
      .i32(0)
      .i32(64)
      .f32(0)
      .i32(l.layerLock ?? 0)
      .i32(0)
      .i32(l.width)
      .i32(l.height);
    const n = l.width * l.height + (l.extraCells ?? 0);
    for (let i = 0; i < n; i++) {
      const c = l.cells?.[i] ?? [-1, 0, 0, 0];
      w.i16(c[0]).u16(c[1]).i16(c[2]).u8(c[3]);
    }
  }
  w.zeros(trailing);
  return w.finish();
}

export function i32Data(v: number, littleEndian = true): Uint8Array {
  return new ByteWriter({ format: 't', littleEndian }).i32(v).finish();
}
