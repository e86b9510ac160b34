import type { FormatHandler, FormatName } from './types.js';
import { spritetileHandler } from './spritetile/index.js';

/**
 * Every format the toolkit knows, in the order content detection tries them
 * (formats with magic bytes first). Each format folder exports one handler
 * from its index.ts; add it here.
 */
export const FORMATS: FormatHandler[] = [spritetileHandler];

export function getFormat(name: string): FormatHandler | undefined {
  return FORMATS.find((f) => f.name === name);
}

export function formatNames(): FormatName[] {
  return FORMATS.map((f) => f.name);
}
