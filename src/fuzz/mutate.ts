/**
 * Deterministic input mutation for fuzzing readers: a seeded generator and
 * the usual byte-level mutations (flip, set to an edge value, insert,
 * delete, duplicate a block, truncate). Browser-safe.
 */

/** A small, fast, seeded PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EDGES = [0, 1, 0x7f, 0x80, 0xfe, 0xff];

/** One to four random mutations of `input` (never modifies it). */
export function mutate(input: Uint8Array, random: () => number): Uint8Array {
  let b: Uint8Array = input.slice();
  const n = 1 + Math.floor(random() * 4);
  const pick = (len: number) => Math.floor(random() * Math.max(1, len));
  for (let k = 0; k < n; k++) {
    const kind = Math.floor(random() * 7);
    const at = pick(b.length);
    switch (kind) {
      case 0:
        if (b.length) b[at] = b[at]! ^ (1 << Math.floor(random() * 8));
        break;
      case 1:
        if (b.length) b[at] = EDGES[pick(EDGES.length)]!;
        break;
      case 2: {
        // Overwrite a 32-bit field with a large or negative number.
        const v = [0xffffffff, 0x7fffffff, 0x80000000, 0x10000, 0xffff][pick(5)]!;
        for (let i = 0; i < 4 && at + i < b.length; i++) b[at + i] = (v >>> (8 * i)) & 0xff;
        break;
      }
      case 3: {
        const len = 1 + pick(16);
        const ins = new Uint8Array(len).map(() => pick(256));
        b = concat(b.subarray(0, at), ins, b.subarray(at));
        break;
      }
      case 4: {
        const len = 1 + pick(16);
        b = concat(b.subarray(0, at), b.subarray(Math.min(b.length, at + len)));
        break;
      }
      case 5: {
        const len = 1 + pick(64);
        const block = b.slice(at, at + len);
        b = concat(b.subarray(0, at), block, b.subarray(at));
        break;
      }
      default:
        b = b.slice(0, at);
    }
  }
  return b;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
