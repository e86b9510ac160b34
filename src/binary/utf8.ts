const lenient = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

/** Decodes UTF-8; invalid sequences become U+FFFD and `valid` is false. */
export function decodeUtf8(bytes: Uint8Array): { text: string; valid: boolean } {
  let ascii = true;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i]! >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) {
    // Short ASCII strings decode faster by hand than through TextDecoder.
    if (bytes.length <= 32) {
      let s = '';
      for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]!);
      return { text: s, valid: true };
    }
    return { text: lenient.decode(bytes), valid: true };
  }
  try {
    return { text: strict.decode(bytes), valid: true };
  } catch {
    return { text: lenient.decode(bytes), valid: false };
  }
}

export function encodeUtf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/** Latin-1 / ASCII decoding (one char per byte), for magic numbers and tags. */
export function decodeAscii(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]!);
  return s;
}
