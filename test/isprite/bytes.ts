/** Hand-built ISPRITE bytes for tests: every field spelled out. */
// The byte primitives, the chunk and the file header are the conformance suite's (scripts/conformance/bytes.ts).
import { cat, chunk, str, u16, u32, u8, type Part } from '../../scripts/conformance/bytes.js';

export { ascii, cat, chunk, file, fx, fxp, str, u16, u32, u8, type HeaderOptions, type Part } from '../../scripts/conformance/bytes.js';

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
