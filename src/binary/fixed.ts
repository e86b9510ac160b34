/**
 * 24-bit fixed point, as ISPRITE stores it: an int16 then a u8 fraction;
 * value = int16 + u8 / 256 (so -0.5 is stored as -1 and 128).
 */
export const FIXED24_MIN = -32768;
export const FIXED24_MAX = 32767 + 255 / 256;

export function fixed24FromParts(int16: number, frac: number): number {
  return int16 + frac / 256;
}

/** The value stored at `at` of `bytes` (`view` over the same memory); the caller has checked the 3 bytes are there. */
export function fixed24At(view: DataView, bytes: Uint8Array, at: number): number {
  return fixed24FromParts(view.getInt16(at, true), bytes[at + 2]!);
}

/** Splits a value into [int16, u8], rounding to the nearest 1/256. Returns null when out of range. */
export function fixed24ToParts(value: number): [number, number] | null {
  if (!Number.isFinite(value)) return null;
  const n = Math.round(value * 256);
  if (n < FIXED24_MIN * 256 || n > 32767 * 256 + 255) return null;
  const int = Math.floor(n / 256);
  return [int, n - int * 256];
}

/** Rounds a value to what fixed24 can store (nearest 1/256), or NaN if out of range. */
export function roundFixed24(value: number): number {
  const p = fixed24ToParts(value);
  return p ? fixed24FromParts(p[0], p[1]) : NaN;
}
