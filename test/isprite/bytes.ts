/** Hand-built ISPRITE bytes for tests: every field spelled out. */
export type Part = number[] | Uint8Array;

export const u8 = (v: number): number[] => [v & 0xff];
export const u16 = (v: number): number[] => [v & 0xff, (v >>> 8) & 0xff];
export const u32 = (v: number): number[] => [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff];
/** Fixed point from its stored parts (int16, fraction byte). */
export const fxp = (int: number, frac: number): number[] => [...u16(int & 0xffff), frac];
/** Fixed point from a value that is a multiple of 1/256. */
export const fx = (v: number): number[] => {
  const n = Math.round(v * 256);
  const int = Math.floor(n / 256);
  return fxp(int, n - int * 256);
};
export const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));
export const str = (s: string): number[] => {
  const b = [...new TextEncoder().encode(s)];
  return [...u16(b.length), ...b];
};
export const cat = (...parts: Part[]): number[] => parts.flatMap((p) => [...p]);

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
  /** Override the file size field (default: computed, length - 12). */
  fileSize?: number;
  reserved?: number[];
}

/** A whole file: the 24-byte header then the given chunks. */
export function file(opts: HeaderOptions, ...chunks: Part[]): Uint8Array {
  const body = cat(...chunks);
  const id = ascii((opts.id ?? '').padEnd(3, '\0'));
  const head = [
    ...ascii('ISPRITE '),
    ...u32(opts.fileSize ?? 24 + body.length - 12),
    opts.major ?? 1,
    opts.minor ?? 0,
    opts.flags ?? 0,
    ...id,
    opts.frameRate ?? 30,
    ...(opts.reserved ?? [0, 0, 0, 0, 0]),
  ];
  return new Uint8Array([...head, ...body]);
}

/** A frame record: size = whole record length - 4 (erratum 12). */
export function frame(
  opts: { hold?: number; flags?: number; label?: string; triggers?: string; notes?: string; count?: number; size?: number },
  ...elements: Part[]
): number[] {
  const els = cat(...elements);
  const rest = cat(
    u16(opts.count ?? countElements(elements)),
    u16(opts.hold ?? 1),
    u8(opts.flags ?? 0),
    str(opts.label ?? ''),
    str(opts.triggers ?? ''),
    str(opts.notes ?? ''),
    els,
  );
  const size = opts.size ?? rest.length + 1;
  return [0x46, ...u32(size), ...rest];
}

function countElements(elements: Part[]): number {
  return elements.length;
}

export function fram(frames: number[][], maxElements = 0): number[] {
  return chunk('FRAM', u32(frames.length), u16(maxElements), ...frames);
}

/** An element: marker, name, size byte (default: data length), data. */
export function element(marker: number | string, name: number, data: Part, size?: number): number[] {
  const m = typeof marker === 'string' ? marker.charCodeAt(0) : marker;
  const d = [...data];
  return [m, ...u16(name), size ?? d.length, ...d];
}
