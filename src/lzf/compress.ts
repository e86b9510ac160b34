/**
 * LZF compressors. Three flavours produce valid LZF streams (see
 * docs/spec/lzf.md):
 *
 * - `clzf2`: byte-identical to the "CLZF2" C# port that SpriteTile's editor
 *   runs (2^14-entry table, its own slot formula).
 * - `liblzf`: byte-identical to liblzf 3.6 `lzf_compress` as Debian builds it
 *   (HLOG 16, VERY_FAST, not ULTRA_FAST, table starting empty).
 * - `best`: an optimal-parse search over hash-chain matches; never larger
 *   than `liblzf` (it returns the liblzf output when that is smaller).
 */

import { compressWasm } from './wasm.js';

export type LzfFlavour = 'clzf2' | 'liblzf' | 'best';

export const LZF_FLAVOURS: readonly LzfFlavour[] = ['clzf2', 'liblzf', 'best'];

const MAX_OFF = 8192;
const MAX_REF = 264;

/** Worst-case output size: one control byte per 32 literals, plus one. */
function bound(n: number): number {
  return n + (n >>> 5) + 3;
}

/** Inputs of at least this size go to the WebAssembly compressor when it is there. */
const WASM_FROM = 4 * 1024;

export interface CompressOptions {
  /** 'auto' (default: WebAssembly for 4 KiB and more when available), 'js' or 'wasm' (for tests). Same bytes either way. */
  engine?: 'auto' | 'js' | 'wasm';
}

export function compress(input: Uint8Array, flavour: LzfFlavour = 'clzf2', options: CompressOptions = {}): Uint8Array {
  const engine = options.engine ?? 'auto';
  if ((flavour === 'clzf2' || flavour === 'liblzf') && (engine === 'wasm' || (engine === 'auto' && input.length >= WASM_FROM))) {
    const out = compressWasm(input, flavour);
    if (out) return out;
  }
  switch (flavour) {
    case 'clzf2':
      return compressClzf2(input);
    case 'liblzf':
      return compressLiblzf(input);
    case 'best':
      return compressBest(input);
    default:
      throw new RangeError(`unknown LZF flavour "${String(flavour)}" (known: ${LZF_FLAVOURS.join(', ')})`);
  }
}

/** The editor's CLZF2 compressor, byte for byte. */
export function compressClzf2(inp: Uint8Array): Uint8Array {
  const n = inp.length;
  if (n === 0) return new Uint8Array(0);
  const out = new Uint8Array(bound(n));
  const htab = new Int32Array(1 << 14);
  let ip = 0;
  let op = 1;
  let lit = 0;
  let hval = (inp[0]! << 8) | (n > 1 ? inp[1]! : 0);
  const last = n - 2;
  while (ip < last) {
    hval = (hval << 8) | inp[ip + 2]!;
    let slot = ((hval ^ (hval << 5)) >>> ((10 - Math.imul(hval, 5)) & 31)) & 0x3fff;
    const ref = htab[slot]!;
    htab[slot] = ip;
    const off = ip - ref - 1;
    if (off < MAX_OFF && ip + 4 < n && ref > 0 && inp[ref] === inp[ip] && inp[ref + 1] === inp[ip + 1] && inp[ref + 2] === inp[ip + 2]) {
      let maxlen = n - ip - 2;
      if (maxlen > MAX_REF) maxlen = MAX_REF;
      let len = 3;
      while (len < maxlen && inp[ref + len] === inp[ip + len]) len++;
      out[op - lit - 1] = lit - 1;
      if (lit === 0) op--;
      const l = len - 2;
      if (l < 7) {
        out[op++] = (off >> 8) + (l << 5);
      } else {
        out[op++] = (off >> 8) + 224;
        out[op++] = l - 7;
      }
      out[op++] = off & 255;
      lit = 0;
      op++;
      let p = ip + len - 2;
      hval = (inp[p]! << 8) | inp[p + 1]!;
      hval = (hval << 8) | inp[p + 2]!;
      slot = ((hval ^ (hval << 5)) >>> ((10 - Math.imul(hval, 5)) & 31)) & 0x3fff;
      htab[slot] = p;
      p++;
      hval = (hval << 8) | inp[p + 2]!;
      slot = ((hval ^ (hval << 5)) >>> ((10 - Math.imul(hval, 5)) & 31)) & 0x3fff;
      htab[slot] = p;
      ip += len;
    } else {
      lit++;
      out[op++] = inp[ip++]!;
      if (lit === 32) {
        out[op - 33] = 31;
        lit = 0;
        op++;
      }
    }
  }
  while (ip < n) {
    lit++;
    out[op++] = inp[ip++]!;
    if (lit === 32) {
      out[op - 33] = 31;
      lit = 0;
      op++;
    }
  }
  out[op - lit - 1] = lit - 1;
  if (lit === 0) op--;
  return out.slice(0, op);
}

/**
 * liblzf 3.6 lzf_compress (HLOG 16, VERY_FAST), byte for byte. Unlike later
 * liblzf (and CLZF2) it has no `ip + 4 < in_end` test, so it also matches
 * in the last four bytes.
 */
export function compressLiblzf(inp: Uint8Array): Uint8Array {
  const n = inp.length;
  if (n === 0) return new Uint8Array(0);
  const out = new Uint8Array(bound(n));
  const htab = new Int32Array(1 << 16);
  let ip = 0;
  let op = 1;
  let lit = 0;
  let hval = (inp[0]! << 8) | (n > 1 ? inp[1]! : 0);
  const last = n - 2;
  while (ip < last) {
    hval = (hval << 8) | inp[ip + 2]!;
    const slot = ((hval >>> 8) - Math.imul(hval, 5)) & 0xffff;
    const ref = htab[slot]!;
    htab[slot] = ip;
    const off = ip - ref - 1;
    if (off < MAX_OFF && ref > 0 && inp[ref] === inp[ip] && inp[ref + 1] === inp[ip + 1] && inp[ref + 2] === inp[ip + 2]) {
      let maxlen = n - ip - 2;
      if (maxlen > MAX_REF) maxlen = MAX_REF;
      let len: number;
      if (maxlen > 16) {
        // liblzf's unrolled loop checks bytes 3..18 before it looks at maxlen.
        len = 3;
        while (len <= 18 && inp[ref + len] === inp[ip + len]) len++;
        if (len > 18) {
          len = 19;
          while (len < maxlen && inp[ref + len] === inp[ip + len]) len++;
        }
      } else {
        len = 3;
        while (len < maxlen && inp[ref + len] === inp[ip + len]) len++;
      }
      out[op - lit - 1] = lit - 1;
      if (lit === 0) op--;
      const l = len - 2;
      if (l < 7) {
        out[op++] = (off >> 8) + (l << 5);
      } else {
        out[op++] = (off >> 8) + 224;
        out[op++] = l - 7;
      }
      out[op++] = off & 255;
      lit = 0;
      op++;
      ip += len;
      if (ip >= last) break;
      let p = ip - 2;
      hval = (inp[p]! << 8) | inp[p + 1]!;
      hval = (hval << 8) | inp[p + 2]!;
      htab[((hval >>> 8) - Math.imul(hval, 5)) & 0xffff] = p;
      p++;
      hval = (hval << 8) | inp[p + 2]!;
      htab[((hval >>> 8) - Math.imul(hval, 5)) & 0xffff] = p;
    } else {
      lit++;
      out[op++] = inp[ip++]!;
      if (lit === 32) {
        out[op - 33] = 31;
        lit = 0;
        op++;
      }
    }
  }
  while (ip < n) {
    lit++;
    out[op++] = inp[ip++]!;
    if (lit === 32) {
      out[op - 33] = 31;
      lit = 0;
      op++;
    }
  }
  out[op - lit - 1] = lit - 1;
  if (lit === 0) op--;
  return out.slice(0, op);
}

const CHAIN_DEPTH = 24;
const HASH_BITS = 16;

/**
 * Optimal parse (shortest path over literal chunks and matches) using the
 * longest match found at each position through hash chains. Returns the
 * liblzf output instead when that happens to be smaller.
 */
export function compressBest(inp: Uint8Array): Uint8Array {
  const n = inp.length;
  const fallback = compress(inp, 'liblzf');
  if (n < 4) return fallback;

  // 1. Longest match (length, offset) at every position.
  const mlen = new Uint16Array(n);
  const moff = new Uint16Array(n);
  const head = new Int32Array(1 << HASH_BITS).fill(-1);
  const prev = new Int32Array(n);
  let carryOff = -1;
  let carryLen = 0;
  for (let i = 0; i + 2 < n; i++) {
    const h = Math.imul((inp[i]! << 16) | (inp[i + 1]! << 8) | inp[i + 2]!, 0x9e3779b1) >>> (32 - HASH_BITS);
    let cand = head[h]!;
    prev[i] = cand;
    head[h] = i;
    const maxLen = Math.min(MAX_REF, n - i);
    if (maxLen < 3) continue;
    let bestLen = 0;
    let bestDist = 0;
    // The previous position's match, one byte on, is still a match here.
    if (carryLen > 3) {
      const d = carryOff;
      let l = Math.min(carryLen - 1, maxLen);
      while (l < maxLen && inp[i - d + l] === inp[i + l]) l++;
      bestLen = l;
      bestDist = d;
    }
    if (bestLen < maxLen) {
      let depth = CHAIN_DEPTH;
      while (cand >= 0 && depth-- > 0) {
        const dist = i - cand;
        if (dist > MAX_OFF) break;
        if (
          inp[cand + bestLen] === inp[i + bestLen] &&
          inp[cand] === inp[i] &&
          inp[cand + 1] === inp[i + 1] &&
          inp[cand + 2] === inp[i + 2]
        ) {
          let l = 3;
          while (l < maxLen && inp[cand + l] === inp[i + l]) l++;
          if (l > bestLen) {
            bestLen = l;
            bestDist = dist;
            if (l >= maxLen) break;
          }
        }
        cand = prev[cand]!;
      }
    }
    if (bestLen >= 3) {
      mlen[i] = bestLen;
      moff[i] = bestDist - 1;
      carryOff = bestDist;
      carryLen = bestLen;
    } else {
      carryLen = 0;
    }
  }

  // 2. Shortest path. cost[i]: bytes to encode the first i bytes; run[i]:
  // length of the literal chunk the best path ends with (0 after a match).
  const INF = 0x7fffffff;
  const cost = new Int32Array(n + 1).fill(INF);
  const from = new Int32Array(n + 1);
  const run = new Uint8Array(n + 1);
  cost[0] = 0;
  for (let i = 0; i < n; i++) {
    const c = cost[i]!;
    // one literal: continues the current chunk or starts a new one
    const r = run[i]!;
    const lc = c + (r > 0 && r < 32 ? 1 : 2);
    if (lc < cost[i + 1]!) {
      cost[i + 1] = lc;
      from[i + 1] = i;
      run[i + 1] = r > 0 && r < 32 ? r + 1 : 1;
    }
    const L = mlen[i]!;
    if (L >= 3) {
      const top = Math.min(L, 8);
      for (let l = 3; l <= top; l++) {
        const mc = c + 2;
        if (mc < cost[i + l]! || (mc === cost[i + l]! && run[i + l]! > 0)) {
          cost[i + l] = mc;
          from[i + l] = -(i + 1);
          run[i + l] = 0;
        }
      }
      if (L > 8) {
        const mc = c + 3;
        // lengths 9..L all cost 3; try the shortest few and the longest few
        const lo = Math.min(L, 12);
        for (let l = 9; l <= L; l++) {
          if (l > lo && l < L - 3) l = L - 3;
          if (mc < cost[i + l]! || (mc === cost[i + l]! && run[i + l]! > 0)) {
            cost[i + l] = mc;
            from[i + l] = -(i + 1);
            run[i + l] = 0;
          }
        }
      }
    }
  }

  // 3. Walk back, then emit.
  const steps: number[] = [];
  for (let i = n; i > 0; ) {
    const f = from[i]!;
    if (f >= 0) {
      steps.push(-1);
      i = f;
    } else {
      const s = -f - 1;
      steps.push(i - s);
      i = s;
    }
  }
  const out = new Uint8Array(bound(n));
  let op = 0;
  let ip = 0;
  let litStart = -1;
  let lit = 0;
  const flush = (): void => {
    if (lit > 0) {
      out[litStart] = lit - 1;
      lit = 0;
    }
  };
  for (let k = steps.length - 1; k >= 0; k--) {
    const s = steps[k]!;
    if (s < 0) {
      if (lit === 0) litStart = op++;
      out[op++] = inp[ip++]!;
      if (++lit === 32) flush();
    } else {
      flush();
      const off = moff[ip - 0]!;
      // the match chosen at ip uses ip's longest-match offset
      const l = s - 2;
      if (l < 7) {
        out[op++] = (off >> 8) + (l << 5);
      } else {
        out[op++] = (off >> 8) + 224;
        out[op++] = l - 7;
      }
      out[op++] = off & 255;
      ip += s;
    }
  }
  flush();
  return op < fallback.length ? out.slice(0, op) : fallback;
}
