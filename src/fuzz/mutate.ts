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

/** Number texts that sit on a boundary: zero, negatives, int32/uint32 edges, huge, not finite. */
export const BOUNDARY_NUMBERS = [
  '0',
  '-1',
  '1',
  '65535',
  '65536',
  '2147483647',
  '2147483648',
  '-2147483649',
  '4294967296',
  '1e15',
  '1e308',
  '1e999',
  '-1e15',
  '0.5',
  '9007199254740993',
  'NaN',
  '"NaN"',
  'null',
  '"12"',
];

const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
const STRING = /"(?:[^"\\\n]|\\.)*"/g;

/**
 * A mutation of a text document (JSON, Lua, Solarus lines) that keeps most of
 * its syntax: a number replaced by a boundary value, a string emptied or
 * lengthened, a line duplicated or removed. Falls back to `mutate` when the
 * text has nothing to change. Never modifies `input`.
 */
export function mutateText(input: Uint8Array, random: () => number): Uint8Array {
  let text = new TextDecoder().decode(input);
  const n = 1 + Math.floor(random() * 3);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  let changed = false;
  for (let k = 0; k < n; k++) {
    const kind = Math.floor(random() * 10);
    if (kind < 6) {
      const spans = [...text.matchAll(NUMBER)];
      if (!spans.length) continue;
      // Several numbers at once now and then, to break relations (w and h, counts and lists).
      const chosen = new Set<RegExpMatchArray>();
      const times = random() < 0.2 ? 3 : 1;
      for (let t = 0; t < times; t++) chosen.add(pick(spans));
      for (const m of [...chosen].sort((a, b) => b.index! - a.index!)) {
        text = text.slice(0, m.index!) + pick(BOUNDARY_NUMBERS) + text.slice(m.index! + m[0].length);
      }
      changed = true;
    } else if (kind < 8) {
      const spans = [...text.matchAll(STRING)];
      if (!spans.length) continue;
      const m = pick(spans);
      const repl = pick(['""', '"' + 'a'.repeat(5000) + '"', '"../x.png"', '"\\u0000"', '"a\\rb"', '"é"']);
      text = text.slice(0, m.index!) + repl + text.slice(m.index! + m[0].length);
      changed = true;
    } else {
      const lines = text.split('\n');
      const i = Math.floor(random() * lines.length);
      if (kind === 8) lines.splice(i, 0, lines[i]!);
      else lines.splice(i, 1);
      text = lines.join('\n');
      changed = true;
    }
  }
  return changed ? new TextEncoder().encode(text) : mutate(input, random);
}

const BIG = [0xffffffff, 0x7fffffff, 0x80000000, 0x10000, 0xffff, 0x8000, 0x3fffffff, 0];

/**
 * A mutation of a binary document that aims at counts and lengths: an aligned
 * 16- or 32-bit field (little or big endian, mostly in the header) set to a
 * big value, a truncation, or a splice with `other` (another file of the same
 * format). Never modifies `input`.
 */
export function mutateBinary(input: Uint8Array, random: () => number, other?: Uint8Array): Uint8Array {
  const kind = Math.floor(random() * 10);
  if (kind < 4 && input.length >= 4) {
    const b = input.slice();
    const width = random() < 0.5 ? 2 : 4;
    const span = random() < 0.7 ? Math.min(b.length, 128) : b.length;
    const at = Math.min(b.length - width, Math.floor((random() * span) / width) * width);
    const v = BIG[Math.floor(random() * BIG.length)]!;
    const big = random() < 0.3;
    for (let i = 0; i < width; i++) {
      const byte = (v >>> (8 * i)) & 0xff;
      b[big ? at + width - 1 - i : at + i] = byte;
    }
    return b;
  }
  if (kind < 5) return input.slice(0, Math.floor(random() * input.length));
  if (kind < 7 && other && other.length) {
    const at = Math.floor(random() * (input.length + 1));
    const from = Math.floor(random() * other.length);
    const len = 1 + Math.floor(random() * Math.min(256, other.length - from));
    const block = other.subarray(from, from + len);
    if (random() < 0.5) return concat(input.subarray(0, at), block, input.subarray(at));
    return concat(input.subarray(0, at), block, input.subarray(Math.min(input.length, at + len)));
  }
  return mutate(input, random);
}
