// Types for the tests that use bench/inputs.mjs.
export const SWEEP_FORMATS: string[];
export function makeInput(
  format: string,
  target: number,
): Promise<{ bytes: Uint8Array; name: string; format: string; size: number; note?: string }>;
