/**
 * A small ISPRITE byte builder for the conformance suite: every field
 * spelled out, so that a case can be exactly as wrong as it means to be.
 * Also a few locators that walk the bytes on their own (not through sprat's
 * reader) to state where a case's expected problem is.
 */
export type Part = number[] | Uint8Array;

export const u8 = (v: number): number[] => [v & 0xff];
export const u16 = (v: number): number[] => [v & 0xff, (v >>> 8) & 0xff];
export const u32 = (v: number): number[] => [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff];
/** A 24-bit fixed-point value from its stored parts: int16, then the fraction byte. */
export const fxp = (int: number, frac: number): number[] => [...u16(int & 0xffff), frac & 0xff];
/** A 24-bit fixed-point value from a multiple of 1/256. */
export const fx = (v: number): number[] => {
  const n = Math.round(v * 256);
  const int = Math.floor(n / 256);
  return fxp(int, n - int * 256);
};
export const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));
/** A string: u16 byte length, then UTF-8. */
export const str = (s: string): number[] => {
  const b = [...new TextEncoder().encode(s)];
  return [...u16(b.length), ...b];
};
/** A string from raw bytes (for invalid UTF-8). */
export const rawStr = (b: number[]): number[] => [...u16(b.length), ...b];
export const cat = (...parts: Part[]): number[] => parts.flatMap((p) => [...p]);

/** A chunk: 4-character ID, u32 size of what follows, then the body. */
export function chunk(id: string, ...body: Part[]): number[] {
  const b = cat(...body);
  return [...ascii(id), ...u32(b.length), ...b];
}

export interface HeaderOptions {
  major?: number;
  minor?: number;
  flags?: number;
  id?: string;
  frameRate?: number;
  /** Default: the right value, file length − 12 (erratum 9). */
  fileSize?: number;
  /** Bytes 19-23 (erratum 1). */
  reserved?: number[];
}

/** A whole file: the 24-byte header, then the chunks. */
export function file(h: HeaderOptions, ...chunks: Part[]): Uint8Array {
  const body = cat(...chunks);
  const head = [
    ...ascii('ISPRITE '),
    ...u32(h.fileSize ?? 24 + body.length - 12),
    h.major ?? 1,
    h.minor ?? 0,
    h.flags ?? 0,
    ...ascii((h.id ?? '').padEnd(3, '\0')),
    h.frameRate ?? 30,
    ...(h.reserved ?? [0, 0, 0, 0, 0]),
  ];
  return new Uint8Array([...head, ...body]);
}

/** TEX: count, stride, then each texture's `stride` bytes (flags first) and its path. */
export function tex(textures: { flags?: number; path: string; extra?: number[] }[], stride = 1, count = textures.length): number[] {
  return chunk('TEX ', u8(count), u8(stride), ...textures.map((t) => cat(u8(t.flags ?? 0), t.extra ?? [], str(t.path))));
}

export interface SliceSpec {
  texture?: number;
  flags?: number;
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  extra?: number[];
}

/** SLIC: u32 count, stride, then the slice records. */
export function slic(slices: SliceSpec[], stride = 10, count = slices.length): number[] {
  return chunk(
    'SLIC',
    u32(count),
    u8(stride),
    ...slices.map((s) =>
      cat(u8(s.texture ?? 0), u8(s.flags ?? 0), u16(s.x ?? 0), u16(s.y ?? 0), u16(s.width ?? 16), u16(s.height ?? 16), s.extra ?? []),
    ),
  );
}

/** NAME: u16 count, then the strings. */
export function names(list: string[], count = list.length): number[] {
  return chunk('NAME', u16(count), ...list.map(str));
}

/** TIER parts. */
export const G = (name: string): number[] => [0x47, ...str(name)];
export const C = (): number[] => [0x43];
export function S(name: string, frames: number[], loop: number | null = 0, followUp = '', frameCount = frames.length): number[] {
  return cat([0x53], u32(frameCount), u32(loop === null ? 0xffffffff : loop), str(name), str(followUp), ...frames.map(u32));
}
export const tier = (...parts: Part[]): number[] => chunk('TIER', ...parts);

export interface FrameSpec {
  hold?: number;
  flags?: number;
  label?: string;
  triggers?: string;
  notes?: string;
  /** Element count field (default: the number of elements given). */
  count?: number;
  /** Size field (default: the record's length − 4, erratum 12). */
  size?: number;
  marker?: number;
  /** Bytes after the elements. */
  trailing?: number[];
}

/** A frame record. */
export function frame(f: FrameSpec, ...elements: number[][]): number[] {
  const rest = cat(
    u16(f.count ?? elements.length),
    u16(f.hold ?? 1),
    u8(f.flags ?? 0),
    str(f.label ?? ''),
    str(f.triggers ?? ''),
    str(f.notes ?? ''),
    ...elements,
    f.trailing ?? [],
  );
  return [f.marker ?? 0x46, ...u32(f.size ?? rest.length + 1), ...rest];
}

/** FRAM: u32 frame count, u16 maximum element count, the frames. */
export function fram(frames: number[][], maxElements?: number, count = frames.length): number[] {
  const max = maxElements ?? frames.reduce((m, f) => Math.max(m, f[5]! | (f[6]! << 8)), 0);
  return chunk('FRAM', u32(count), u16(max), ...frames);
}

export const NONE = 0xffff;

/** An element: marker, u16 name, size byte (default: the data's length), data. */
export function element(marker: number | string, name: number, data: Part, size?: number): number[] {
  const m = typeof marker === 'string' ? marker.charCodeAt(0) : marker;
  const d = [...data];
  return [m, ...u16(name), size ?? d.length, ...d];
}

/** "g": slice, x, y, mirroring (u8). */
export const simple = (o: { name?: number; slice?: number; x?: number[]; y?: number[]; mirror?: number; size?: number }): number[] =>
  element('g', o.name ?? NONE, cat(u16(o.slice ?? 0), o.x ?? fx(0), o.y ?? fx(0), u8(o.mirror ?? 0)), o.size);

/** "G": slice, x, y, mirroring, origin x, y, rotation, scale x, y, opacity. */
export const expanded = (o: {
  name?: number;
  slice?: number;
  x?: number[];
  y?: number[];
  mirror?: number;
  originX?: number[];
  originY?: number[];
  rotation?: number[];
  scaleX?: number[];
  scaleY?: number[];
  opacity?: number;
}): number[] =>
  element(
    'G',
    o.name ?? NONE,
    cat(
      u16(o.slice ?? 0),
      o.x ?? fx(0),
      o.y ?? fx(0),
      u8(o.mirror ?? 0),
      o.originX ?? fx(8),
      o.originY ?? fx(8),
      o.rotation ?? fx(0),
      o.scaleX ?? fx(1),
      o.scaleY ?? fx(1),
      u16(o.opacity ?? 0xffff),
    ),
  );

/** "A": ID, x, y, mirroring (u16, erratum 4), rotation, scale x, y, opacity. */
export const attachment = (o: {
  name?: number;
  id?: number;
  x?: number[];
  y?: number[];
  mirror?: number;
  rotation?: number[];
  scaleX?: number[];
  scaleY?: number[];
  opacity?: number;
}): number[] =>
  element(
    'A',
    o.name ?? NONE,
    cat(
      u16(o.id ?? 0),
      o.x ?? fx(0),
      o.y ?? fx(0),
      u16(o.mirror ?? 0),
      o.rotation ?? fx(0),
      o.scaleX ?? fx(1),
      o.scaleY ?? fx(1),
      u16(o.opacity ?? 0xffff),
    ),
  );

/** "C" rectangle (erratum 3): reserved byte 4, "r" at 5, ID, x, y, width, height, reserved byte 20, rotation. */
export const rect = (o: {
  name?: number;
  id?: number;
  x?: number[];
  y?: number[];
  width?: number[];
  height?: number[];
  rotation?: number[];
  reserved?: [number, number];
  shape?: number;
  size?: number;
}): number[] =>
  element(
    'C',
    o.name ?? NONE,
    cat(
      u8(o.reserved?.[0] ?? 0),
      u8(o.shape ?? 0x72),
      u16(o.id ?? 0),
      o.x ?? fx(0),
      o.y ?? fx(0),
      o.width ?? fx(8),
      o.height ?? fx(8),
      u8(o.reserved?.[1] ?? 0),
      o.rotation ?? fx(0),
    ),
    o.size,
  );

/** "C" circle (erratum 3): reserved byte 4, "c" at 5, ID, x, y, radius. */
export const circle = (o: { name?: number; id?: number; x?: number[]; y?: number[]; radius?: number[]; reserved?: number }): number[] =>
  element('C', o.name ?? NONE, cat(u8(o.reserved ?? 0), u8(0x63), u16(o.id ?? 0), o.x ?? fx(0), o.y ?? fx(0), o.radius ?? fx(4)));

// ------------------------------------------------------------------ locators

const le32 = (b: Uint8Array, p: number): number => (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24)) >>> 0;
const le16 = (b: Uint8Array, p: number): number => b[p]! | (b[p + 1]! << 8);

/** The offset of the header of the first chunk with this ID (chunks walked by their size fields from byte 24). */
export function chunkAt(b: Uint8Array, id: string): number {
  for (let p = 24; p + 8 <= b.length; p += 8 + le32(b, p + 4)) {
    if (String.fromCharCode(b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!) === id) return p;
  }
  throw new Error(`no ${id} chunk`);
}

/** The offset of frame `k`'s record (frames walked by their size fields, erratum 12). */
export function frameAt(b: Uint8Array, k: number): number {
  let p = chunkAt(b, 'FRAM') + 8 + 6;
  for (let i = 0; i < k; i++) p += 4 + le32(b, p + 1);
  return p;
}

/** The offset of the `n`th sequence marker (file order) in TIER. */
export function sequenceAt(b: Uint8Array, n: number): number {
  const start = chunkAt(b, 'TIER');
  const end = start + 8 + le32(b, start + 4);
  let seen = 0;
  for (let p = start + 8; p < end; ) {
    const m = b[p]!;
    if (m === 0x47) p += 3 + le16(b, p + 1);
    else if (m === 0x43) p += 1;
    else {
      if (seen++ === n) return p;
      const count = le32(b, p + 1);
      let q = p + 9;
      q += 2 + le16(b, q); // name
      q += 2 + le16(b, q); // follow-up
      p = q + 4 * count;
    }
  }
  throw new Error(`no sequence ${n}`);
}

/** The offset of MET+ field `k`'s name. */
export function extraMetaAt(b: Uint8Array, k: number): number {
  let p = chunkAt(b, 'MET+') + 8;
  for (let i = 0; i < k; i++) {
    p += 2 + le16(b, p);
    p += 2 + le16(b, p);
  }
  return p;
}
