/**
 * A Map and a Set keyed by strings that stay fast for long strings. V8
 * hashes a string's characters only up to 16,383 of them; a longer string's
 * hash is its length, so a Map or Set of many long strings of one length
 * (frame names made from a 100 KB animation name) compares each new one with
 * every other: 2,000 names of 17,000 characters took 10 s to put in a Set.
 * Here a long string is filed under its length and two hashes of all its
 * characters, and compared in full only with the strings filed there.
 */

/** Longer strings than this are hashed by their length alone in V8's tables. */
const HASHED_CHARS = 16383;

/** A short key for a long string: its length and two 32-bit hashes (FNV-1a, and a multiply-xor) of every character. */
function longKey(s: string): string {
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
  }
  return `${s.length}:${(a >>> 0).toString(36)}:${(b >>> 0).toString(36)}`;
}

export class StringMap<V> {
  private readonly short = new Map<string, V>();
  /** Long strings by longKey: each entry's strings and values. */
  private readonly long = new Map<string, { keys: string[]; values: V[] }>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(k: string): V | undefined {
    if (k.length <= HASHED_CHARS) return this.short.get(k);
    const e = this.long.get(longKey(k));
    const i = e ? e.keys.indexOf(k) : -1;
    return i >= 0 ? e!.values[i] : undefined;
  }

  has(k: string): boolean {
    if (k.length <= HASHED_CHARS) return this.short.has(k);
    const e = this.long.get(longKey(k));
    return !!e && e.keys.includes(k);
  }

  set(k: string, v: V): this {
    if (k.length <= HASHED_CHARS) {
      if (!this.short.has(k)) this.count++;
      this.short.set(k, v);
      return this;
    }
    const lk = longKey(k);
    let e = this.long.get(lk);
    if (!e) {
      e = { keys: [], values: [] };
      this.long.set(lk, e);
    }
    const i = e.keys.indexOf(k);
    if (i >= 0) e.values[i] = v;
    else {
      e.keys.push(k);
      e.values.push(v);
      this.count++;
    }
    return this;
  }
}

export class StringSet {
  private readonly map = new StringMap<true>();

  constructor(items: Iterable<string> = []) {
    for (const s of items) this.add(s);
  }

  get size(): number {
    return this.map.size;
  }

  has(s: string): boolean {
    return this.map.has(s);
  }

  add(s: string): this {
    this.map.set(s, true);
    return this;
  }
}
