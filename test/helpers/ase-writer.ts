/**
 * A tiny test-only writer of Aseprite files (docs/ase-file-specs.md), to
 * build a file for each feature the reader covers. Not part of sprat: sprat
 * does not write .aseprite.
 */
import { zlibSync } from 'fflate';

export interface WUserData {
  text?: string;
  color?: [number, number, number, number];
  /** Raw properties block (after the size field: map count, maps). */
  properties?: Uint8Array;
}

export interface WLayer {
  name: string;
  /** 0 normal, 1 group, 2 tilemap. */
  type?: number;
  /** Default 3 (visible, editable). */
  flags?: number;
  childLevel?: number;
  blend?: number;
  opacity?: number;
  tileset?: number;
  userData?: WUserData;
}

export interface WCel {
  layer: number;
  x?: number;
  y?: number;
  opacity?: number;
  zIndex?: number;
  kind?: 'raw' | 'compressed' | 'linked' | 'tilemap';
  w?: number;
  h?: number;
  /** The pixels in the file's colour mode. */
  pixels?: Uint8Array;
  link?: number;
  /** Tilemap cels: 32-bit tiles. */
  tiles?: number[];
  userData?: WUserData;
}

export interface WTag {
  from: number;
  to: number;
  direction?: number;
  repeat?: number;
  name: string;
  userData?: WUserData;
}

export interface WSlice {
  name: string;
  keys: {
    frame: number;
    x: number;
    y: number;
    w: number;
    h: number;
    center?: [number, number, number, number];
    pivot?: [number, number];
  }[];
  userData?: WUserData;
}

export interface WTileset {
  id: number;
  tiles: number;
  tw: number;
  th: number;
  name: string;
  /** tw × th·tiles pixels in the file's colour mode. */
  pixels: Uint8Array;
}

export interface WFrame {
  duration?: number;
  cels: WCel[];
  /** A palette chunk in this frame (entries from 0). */
  palette?: [number, number, number, number][];
  /** More chunks as [type, body]. */
  chunks?: [number, Uint8Array][];
}

export interface WFile {
  width: number;
  height: number;
  depth?: 8 | 16 | 32;
  /** Header flags; default 1 (layer opacity valid). */
  flags?: number;
  transparentIndex?: number;
  speed?: number;
  layers: WLayer[];
  frames: WFrame[];
  palette?: [number, number, number, number][];
  spriteUserData?: WUserData;
  tags?: WTag[];
  slices?: WSlice[];
  tilesets?: WTileset[];
  /** [type, gamma] color profile. */
  colorProfile?: [number, number];
}

class Out {
  bytes: number[] = [];
  u8(v: number) {
    this.bytes.push(v & 255);
    return this;
  }
  u16(v: number) {
    return this.u8(v).u8(v >> 8);
  }
  u32(v: number) {
    return this.u16(v & 0xffff).u16((v >>> 16) & 0xffff);
  }
  zeros(n: number) {
    for (let i = 0; i < n; i++) this.u8(0);
    return this;
  }
  str(s: string) {
    const b = new TextEncoder().encode(s);
    this.u16(b.length);
    for (const v of b) this.u8(v);
    return this;
  }
  raw(b: Uint8Array | number[]) {
    for (const v of b) this.u8(v);
    return this;
  }
  get length() {
    return this.bytes.length;
  }
}

export function chunk(type: number, body: Out | Uint8Array): Uint8Array {
  const data = body instanceof Out ? body.bytes : Array.from(body);
  const o = new Out()
    .u32(data.length + 6)
    .u16(type)
    .raw(data);
  return Uint8Array.from(o.bytes);
}

function userData(u: WUserData): Uint8Array {
  const o = new Out().u32((u.text !== undefined ? 1 : 0) | (u.color ? 2 : 0) | (u.properties ? 4 : 0));
  if (u.text !== undefined) o.str(u.text);
  if (u.color) o.raw(u.color);
  if (u.properties) o.u32(u.properties.length + 4).raw(u.properties);
  return chunk(0x2020, o);
}

function paletteChunk(p: [number, number, number, number][]): Uint8Array {
  const o = new Out()
    .u32(p.length)
    .u32(0)
    .u32(p.length - 1)
    .zeros(8);
  for (const [r, g, b, a] of p) o.u16(0).u8(r).u8(g).u8(b).u8(a);
  return chunk(0x2019, o);
}

export function aseFile(f: WFile): Uint8Array {
  const depth = f.depth ?? 32;
  const frames: Uint8Array[] = [];
  f.frames.forEach((fr, i) => {
    const chunks: Uint8Array[] = [];
    if (i === 0) {
      if (f.colorProfile)
        chunks.push(
          chunk(
            0x2007,
            new Out()
              .u16(f.colorProfile[0])
              .u16(1)
              .u32(Math.round(f.colorProfile[1] * 65536))
              .zeros(8),
          ),
        );
      if (f.palette) chunks.push(paletteChunk(f.palette));
      if (f.spriteUserData) chunks.push(userData(f.spriteUserData));
      for (const ts of f.tilesets ?? []) {
        const z = zlibSync(ts.pixels);
        const o = new Out()
          .u32(ts.id)
          .u32(2 | 4)
          .u32(ts.tiles)
          .u16(ts.tw)
          .u16(ts.th)
          .u16(1)
          .zeros(14)
          .str(ts.name)
          .u32(z.length)
          .raw(z);
        chunks.push(chunk(0x2023, o));
      }
      for (const l of f.layers) {
        const o = new Out()
          .u16(l.flags ?? 3)
          .u16(l.type ?? 0)
          .u16(l.childLevel ?? 0)
          .u16(0)
          .u16(0)
          .u16(l.blend ?? 0)
          .u8(l.opacity ?? 255)
          .zeros(3)
          .str(l.name);
        if ((l.type ?? 0) === 2) o.u32(l.tileset ?? 0);
        chunks.push(chunk(0x2004, o));
        if (l.userData) chunks.push(userData(l.userData));
      }
      if (f.tags?.length) {
        const o = new Out().u16(f.tags.length).zeros(8);
        for (const t of f.tags)
          o.u16(t.from)
            .u16(t.to)
            .u8(t.direction ?? 0)
            .u16(t.repeat ?? 0)
            .zeros(6)
            .raw([0, 0, 0])
            .u8(0)
            .str(t.name);
        chunks.push(chunk(0x2018, o));
        for (const t of f.tags) chunks.push(userData(t.userData ?? {}));
      }
      for (const s of f.slices ?? []) {
        const center = s.keys.some((k) => k.center);
        const pivot = s.keys.some((k) => k.pivot);
        const o = new Out()
          .u32(s.keys.length)
          .u32((center ? 1 : 0) | (pivot ? 2 : 0))
          .u32(0)
          .str(s.name);
        for (const k of s.keys) {
          o.u32(k.frame).u32(k.x).u32(k.y).u32(k.w).u32(k.h);
          if (center) for (const v of k.center ?? [0, 0, 0, 0]) o.u32(v);
          if (pivot) for (const v of k.pivot ?? [0, 0]) o.u32(v);
        }
        chunks.push(chunk(0x2022, o));
        if (s.userData) chunks.push(userData(s.userData));
      }
    }
    if (i > 0 && fr.palette) chunks.push(paletteChunk(fr.palette));
    for (const c of fr.cels) {
      const kind = c.kind ?? 'compressed';
      const t = { raw: 0, linked: 1, compressed: 2, tilemap: 3 }[kind];
      const o = new Out()
        .u16(c.layer)
        .u16(c.x ?? 0)
        .u16(c.y ?? 0)
        .u8(c.opacity ?? 255)
        .u16(t)
        .u16(c.zIndex ?? 0)
        .zeros(5);
      if (kind === 'linked') o.u16(c.link ?? 0);
      else if (kind === 'tilemap') {
        const tiles = new Uint8Array(new Uint32Array(c.tiles ?? []).buffer);
        o.u16(c.w ?? 0)
          .u16(c.h ?? 0)
          .u16(32)
          .u32(0x1fffffff)
          .u32(0x20000000)
          .u32(0x40000000)
          .u32(0x80000000)
          .zeros(10)
          .raw(zlibSync(tiles));
      } else {
        o.u16(c.w ?? 0).u16(c.h ?? 0);
        o.raw(kind === 'raw' ? (c.pixels ?? []) : zlibSync(c.pixels ?? new Uint8Array(0)));
      }
      chunks.push(chunk(0x2005, o));
      if (c.userData) chunks.push(userData(c.userData));
    }
    for (const [type, body] of fr.chunks ?? []) chunks.push(chunk(type, body));
    const size = 16 + chunks.reduce((s, c) => s + c.length, 0);
    const head = new Out()
      .u32(size)
      .u16(0xf1fa)
      .u16(Math.min(chunks.length, 0xffff))
      .u16(fr.duration ?? 100)
      .zeros(2)
      .u32(chunks.length);
    frames.push(Uint8Array.from(head.bytes), ...chunks);
  });
  const body = frames.reduce((s, b) => s + b.length, 0);
  const h = new Out()
    .u32(128 + body)
    .u16(0xa5e0)
    .u16(f.frames.length)
    .u16(f.width)
    .u16(f.height)
    .u16(depth)
    .u32(f.flags ?? 1)
    .u16(f.speed ?? 100)
    .zeros(8)
    .u8(f.transparentIndex ?? 0)
    .zeros(3)
    .u16(f.palette?.length ?? 0)
    .u8(1)
    .u8(1)
    .u16(0)
    .u16(0)
    .u16(16)
    .u16(16)
    .zeros(84);
  const out = new Uint8Array(128 + body);
  out.set(h.bytes, 0);
  let at = 128;
  for (const b of frames) {
    out.set(b, at);
    at += b.length;
  }
  return out;
}

/** A w × h RGBA image filled by fn(x, y) -> [r, g, b, a]. */
export function rgbaPixels(w: number, h: number, fn: (x: number, y: number) => [number, number, number, number]): Uint8Array {
  const out = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) out.set(fn(x, y), (y * w + x) * 4);
  return out;
}

/** Properties bytes: one user map (key 0) of the given [name, type, value bytes]. */
export function propertiesBlock(props: [string, number, number[]][]): Uint8Array {
  const o = new Out().u32(1).u32(0).u32(props.length);
  for (const [name, type, value] of props) o.str(name).u16(type).raw(value);
  return Uint8Array.from(o.bytes);
}

export { Out as AseOut };
