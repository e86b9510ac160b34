/** Every format the sweep and the memory table cover. */
export declare const SWEEP_FORMATS: string[];
/** A generated input of about `target` bytes for `format` (bench/inputs.mjs). */
export declare function makeInput(
  format: string,
  target: number,
): Promise<{ bytes: Uint8Array; name: string; format: string; size: number; note?: string }>;
