/**
 * Tiled JSON read without JSON.parse building the GID arrays: the big
 * `"data": [...]` arrays of plain whole numbers are cut out of the bytes
 * before parsing and scanned straight into Uint32Arrays (4 bytes a cell,
 * and none of JSON.parse's temporaries while it grows an array of millions
 * of numbers); the rest of the text is parsed as before. Errors are what
 * the plain parse gives: a syntax error anywhere makes the whole text parse
 * again the plain way (its error, line and column), and an array that is
 * not plain whole numbers in 0..2^32-1 is left in the text for the reader
 * to name its bad entry as before.
 */
import type { JsonReader } from '../json.js';

/** Arrays shorter than this (in bytes of text) are left to JSON.parse: cutting them saves nothing. */
const MIN_CUT_BYTES = 256;
const SENTINEL = '\u0000sprat-gids:';

const isWs = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;

/**
 * The array of plain whole numbers (`[` ws digits (ws `,` ws digits)* ws `]`,
 * each 0..4294967295 without a leading zero) starting at `start` (its `[`):
 * its entries and the offset after its `]`, or null when it is anything else.
 */
function scanGids(b: Uint8Array, start: number): { gids: Uint32Array; end: number } | null {
  const n = b.length;
  // First pass: check and count, so that the array is made at its size.
  let i = start + 1;
  let count = 0;
  while (i < n && isWs(b[i]!)) i++;
  if (b[i] === 93) return null; // [] : nothing to gain
  for (;;) {
    const d0 = i;
    let v = 0;
    while (i < n) {
      const c = b[i]!;
      if (c < 48 || c > 57) break;
      v = v * 10 + (c - 48);
      i++;
    }
    const digits = i - d0;
    if (digits === 0 || digits > 10 || (digits > 1 && b[d0] === 48) || v > 0xffffffff) return null;
    count++;
    while (i < n && isWs(b[i]!)) i++;
    const c = b[i];
    if (c === 93) break;
    if (c !== 44) return null;
    i++;
    while (i < n && isWs(b[i]!)) i++;
  }
  const end = i + 1;
  if (end - start < MIN_CUT_BYTES) return null;
  // Second pass: the numbers (the text is known good).
  const gids = new Uint32Array(count);
  let k = 0;
  let v = 0;
  let inNum = false;
  for (let j = start + 1; j < i; j++) {
    const c = b[j]!;
    if (c >= 48 && c <= 57) {
      v = v * 10 + (c - 48);
      inNum = true;
    } else if (inNum) {
      gids[k++] = v;
      v = 0;
      inNum = false;
    }
  }
  if (inNum) gids[k++] = v;
  return { gids, end };
}

/** True when `b` holds the text `\u0000` (then a sentinel could be confused with a string of the file: nothing is cut). */
function hasNulEscape(b: Uint8Array): boolean {
  for (let i = b.indexOf(92); i >= 0 && i + 5 < b.length; i = b.indexOf(92, i + 1)) {
    if (b[i + 1] === 117 && b[i + 2] === 48 && b[i + 3] === 48 && b[i + 4] === 48 && b[i + 5] === 48) return true;
  }
  return false;
}

/**
 * The text of `bytes` with every `"data"` array of plain whole numbers
 * (long enough to matter) replaced by a sentinel string, and those arrays.
 * Structure only (strings, keys, nesting); the text's validity is left to
 * JSON.parse, which sees the same text less values it would have accepted.
 */
export function cutGidArrays(bytes: Uint8Array): { text: string; arrays: Uint32Array[] } | null {
  if (hasNulEscape(bytes)) return null;
  const n = bytes.length;
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const decoder = new TextDecoder('utf-8');
  const parts: string[] = [];
  const arrays: Uint32Array[] = [];
  let pieceStart = i;
  // Containers open, 1 for an object (a byte each: a hostile file of 10^8 '[' costs 10^8 bytes here).
  let stack = new Uint8Array(64);
  let depth = 0;
  const push = (v: number) => {
    if (depth === stack.length) {
      const grown = new Uint8Array(depth * 2);
      grown.set(stack);
      stack = grown;
    }
    stack[depth++] = v;
  };
  let expectKey = false;
  /** The last key read was "data" and only its ':' (and white space) came since. */
  let afterDataKey = false;
  let sawColon = false;
  while (i < n) {
    const c = bytes[i]!;
    if (c === 34) {
      const s = i;
      i++;
      while (i < n) {
        const q = bytes[i]!;
        if (q === 34) break;
        i += q === 92 ? 2 : 1;
      }
      i++;
      if (expectKey) {
        afterDataKey = i - s === 6 && bytes[s + 1] === 100 && bytes[s + 2] === 97 && bytes[s + 3] === 116 && bytes[s + 4] === 97;
        sawColon = false;
        expectKey = false;
      } else afterDataKey = false;
      continue;
    }
    if (isWs(c)) {
      i++;
      continue;
    }
    if (c === 58) {
      sawColon = afterDataKey;
      i++;
      continue;
    }
    if (c === 91 && afterDataKey && sawColon) {
      afterDataKey = false;
      const cut = scanGids(bytes, i);
      if (cut) {
        parts.push(decoder.decode(bytes.subarray(pieceStart, i)), `"\\u0000${SENTINEL.slice(1)}${arrays.length}"`);
        arrays.push(cut.gids);
        i = cut.end;
        pieceStart = i;
        continue;
      }
    }
    afterDataKey = false;
    if (c === 123) {
      push(1);
      expectKey = true;
    } else if (c === 91) {
      push(0);
      expectKey = false;
    } else if (c === 125 || c === 93) {
      if (depth > 0) depth--;
      expectKey = false;
    } else if (c === 44) expectKey = depth > 0 && stack[depth - 1] === 1;
    i++;
  }
  if (!arrays.length) return null;
  parts.push(decoder.decode(bytes.subarray(pieceStart)));
  return { text: parts.join(''), arrays };
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The cut array a value names, or -1. */
function sentinelIndex(v: unknown, count: number): number {
  if (typeof v !== 'string' || !v.startsWith(SENTINEL)) return -1;
  const k = Number(v.slice(SENTINEL.length));
  return Number.isInteger(k) && k >= 0 && k < count ? k : -1;
}

/**
 * Parses Tiled JSON (see cutGidArrays) with `r`, which keeps the bytes to
 * place later errors as `r.parse` does. The GIDs of tile layers (and their
 * chunks) in csv come back as Uint32Arrays; a cut array anywhere else (a
 * `data` key in an object's properties, a layer of another type, base64
 * layers, which expect a string) is put back as the plain array JSON.parse
 * gives, so the document is what the plain parse gives but for the type of
 * the GID arrays.
 */
export function parseTiledJson(r: JsonReader, bytes: Uint8Array): unknown {
  const cut = cutGidArrays(bytes);
  if (!cut) return r.parse(bytes);
  let value: unknown;
  try {
    value = JSON.parse(cut.text);
  } catch {
    // Not valid JSON: the plain parse gives the error, its line and column.
    return r.parse(bytes);
  }
  r.keep(bytes);
  const { arrays } = cut;
  let placed = 0;
  const gidLayer = (l: Record<string, unknown>) => {
    if (l.type !== 'tilelayer' || !(l.encoding === undefined || l.encoding === 'csv')) return;
    const k = sentinelIndex(l.data, arrays.length);
    if (k >= 0) {
      l.data = arrays[k]!;
      placed++;
    }
    if (Array.isArray(l.chunks))
      for (const c of l.chunks) {
        if (!isObj(c)) continue;
        const kc = sentinelIndex(c.data, arrays.length);
        if (kc >= 0) {
          c.data = arrays[kc]!;
          placed++;
        }
      }
  };
  const layers = (ls: unknown, depth: number) => {
    if (!Array.isArray(ls) || depth > 64) return;
    for (const l of ls) {
      if (!isObj(l)) continue;
      gidLayer(l);
      if (l.type === 'group') layers(l.layers, depth + 1);
    }
  };
  if (isObj(value) && value.type !== 'tileset') layers(value.layers, 0);
  if (placed < arrays.length) restoreArrays(value, arrays);
  return value;
}

/** Every sentinel still in `value` replaced by its array as JSON.parse gives it (iterative: any depth). */
function restoreArrays(value: unknown, arrays: Uint32Array[]): void {
  const todo: unknown[] = [value];
  while (todo.length) {
    const v = todo.pop();
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const k = sentinelIndex(v[i], arrays.length);
        if (k >= 0) v[i] = Array.from(arrays[k]!);
        else if (typeof v[i] === 'object' && v[i] !== null) todo.push(v[i]);
      }
    } else if (isObj(v)) {
      for (const key of Object.keys(v)) {
        const x = v[key];
        const k = sentinelIndex(x, arrays.length);
        if (k >= 0) v[key] = Array.from(arrays[k]!);
        else if (typeof x === 'object' && x !== null) todo.push(x);
      }
    }
  }
}
