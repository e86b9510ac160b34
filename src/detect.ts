import { FORMATS } from './registry.js';
import type { FormatHandler } from './formats/types.js';

/** Lower-case extension with the dot ("" when none). */
export function extensionOf(fileName: string): string {
  const base = fileName.replace(/^.*[\\/]/, '');
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot).toLowerCase();
}

/** The formats whose usual extensions include this file's, in registry order. */
export function formatsForExtension(fileName: string): FormatHandler[] {
  const ext = extensionOf(fileName);
  return ext ? FORMATS.filter((f) => f.extensions.includes(ext)) : [];
}

/**
 * Finds a file's format: content first (each format's `sniff`, in registry
 * order), then the extension. Returns undefined when neither says.
 *
 * The `.dat` rule of docs/spec/README.md: CTHG when the file starts with `CTHG`, else
 * Solarus: the Lua syntax when its first statement is an `animation` call
 * (both are sniffed above), else the line syntax, whatever the bytes (so an
 * empty or broken `.dat` gets the line-syntax reader's error, not CTHG's).
 */
export function detectFormat(bytes: Uint8Array, fileName = ''): FormatHandler | undefined {
  for (const f of FORMATS) {
    try {
      if (f.sniff?.(bytes)) return f;
    } catch {
      // A sniffer that trips over odd bytes just says no.
    }
  }
  // docs/commands/README.md: "A `.dat` file is CTHG when it starts with `CTHG`, else Solarus: the Lua syntax when its first
  // statement is an `animation` call, else the line syntax." The sniffers above found CTHG and the Lua syntax.
  if (extensionOf(fileName) === '.dat') {
    const lines = FORMATS.find((f) => f.name === 'solarus');
    if (lines) return lines;
  }
  return formatsForExtension(fileName)[0];
}
