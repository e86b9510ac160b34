/**
 * The WebAssembly LZF codec (src/lzf/lzf.wat): about twice as fast as the
 * JavaScript loops on large data, with the same results. Each function
 * returns null where WebAssembly is unavailable; callers then use the
 * JavaScript code.
 *
 * No memory is ever grown: `WebAssembly.Memory.grow` detaches
 * the old buffer, and once any buffer of a process has been detached V8
 * checks for detachment on every typed-array access of optimized code (up
 * to 2x slower byte loops for the rest of the process). Where a job needs
 * more room, a new instance is bound to a new, bigger memory (what must
 * survive copied over) and the old one is left to the garbage collector;
 * memories are sized for the whole job from the start wherever the size is
 * known or can be guessed, so that this stays rare.
 */
import { SPLIT_WASM_BASE64 } from './split-wasm-bytes.js';
import { LZF_WASM_BASE64 } from './wasm-bytes.js';

interface Decoder {
  memory: WebAssembly.Memory;
  compress: (n: number, out: number, htab: number, lib: number) => number;
  run: (ip: number, inEnd: number, op: number, outStart: number, cap: number, limitEnd: number) => number;
  gip: WebAssembly.Global;
  gop: WebAssembly.Global;
  split: (src: number, n: number, le: number, dst: number) => number;
}

let module: WebAssembly.Module | null | undefined;
/** The SIMD split (src/lzf/split.wat): null where the engine has no WebAssembly SIMD (lzf.wat's scalar split is used). */
let splitModule: WebAssembly.Module | null | undefined;
let shared: Decoder | null = null;
/** Memory kept between calls is at most this big; larger jobs get a throwaway instance. */
const KEEP_BYTES = 64 * 1024 * 1024;
/** Outputs that would grow the memory past this are measured (and checked) first. */
const BIG_OUTPUT = 32 * 1024 * 1024;

export function base64ToBytes(b64: string): Uint8Array<ArrayBuffer> {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function compile(): WebAssembly.Module | null {
  if (module !== undefined) return module;
  try {
    module = typeof WebAssembly === 'object' ? new WebAssembly.Module(base64ToBytes(LZF_WASM_BASE64)) : null;
  } catch {
    module = null;
  }
  return module;
}

function compileSplit(): WebAssembly.Module | null {
  if (splitModule !== undefined) return splitModule;
  try {
    const bytes = base64ToBytes(SPLIT_WASM_BASE64);
    // Engines without SIMD reject the module here.
    splitModule = WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
  } catch {
    splitModule = null;
  }
  return splitModule;
}

/**
 * Set when a WebAssembly memory could not be had (an address-space limit: `ulimit -v`): the
 * JavaScript code runs for the rest of the process instead of each call asking again (each failed
 * `new WebAssembly.Memory` costs V8 full garbage collections first), as the compositor does
 * (src/render/simd.ts).
 */
let memoryRefused = false;

/** Whether a WebAssembly memory was refused in this process (LZF then stays in JavaScript). */
export function lzfMemoryRefused(): boolean {
  return memoryRefused;
}

/** An instance over a new memory of at least `bytes` bytes (throws when there is no memory for it, or none was once). */
function instantiate(bytes: number): Decoder | null {
  const m = compile();
  if (!m) return null;
  if (memoryRefused) throw new RangeError('WebAssembly memory was refused before');
  let memory: WebAssembly.Memory;
  try {
    memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(bytes / 65536)) });
  } catch (e) {
    memoryRefused = true;
    throw e;
  }
  const inst = new WebAssembly.Instance(m, { env: { mem: memory } });
  const s = compileSplit();
  const split = s
    ? new WebAssembly.Instance(s, { env: { mem: memory, splitFrom: inst.exports.splitFrom as WebAssembly.ImportValue } }).exports.split
    : inst.exports.split;
  return {
    memory,
    compress: inst.exports.compress as Decoder['compress'],
    run: inst.exports.run as Decoder['run'],
    gip: inst.exports.gip as WebAssembly.Global,
    gop: inst.exports.gop as WebAssembly.Global,
    split: split as Decoder['split'],
  };
}

/** The shared instance when its memory holds `need` bytes, else a new shared one that does (the old one is garbage). */
function sharedWith(need: number): Decoder | null {
  if (shared && shared.memory.buffer.byteLength >= need) return shared;
  return (shared = instantiate(need));
}

/** A decoder for a job of `need` bytes: the shared one, or a throwaway one for a big job. */
function decoderFor(need: number): Decoder | null {
  return need > KEEP_BYTES ? instantiate(need) : sharedWith(need);
}

/**
 * `d` when its memory holds `need` bytes, else a new instance over a new
 * memory that does, with the first `keep` bytes of d's memory copied into
 * it (it replaces d as the shared instance). Never grows a memory.
 */
function withRoom(d: Decoder, need: number, keep: number): Decoder {
  if (d.memory.buffer.byteLength >= need) return d;
  const e = instantiate(need);
  if (!e) throw new Error('unreachable: the module compiled before');
  new Uint8Array(e.memory.buffer).set(new Uint8Array(d.memory.buffer, 0, keep));
  if (d === shared) shared = e;
  return e;
}

/**
 * The output size a stream's first PREFIX bytes suggest: their output per
 * input byte (walked without checks, as `measure` walks) times the input
 * length. A guess, to size the memory once: a wrong one only costs a copy.
 */
function guessOutput(input: Uint8Array): number {
  const n = input.length;
  const end = Math.min(n, PREFIX);
  let ip = 0;
  let op = 0;
  while (ip < end) {
    const ctrl = input[ip]!;
    if (ctrl < 32) {
      ip += ctrl + 2;
      op += ctrl + 1;
    } else {
      const len = ctrl >> 5;
      ip += len === 7 ? 3 : 2;
      op += (len === 7 ? 7 + (input[ip - 2] ?? 0) : len) + 2;
    }
  }
  return ip > 0 ? Math.ceil((op / ip) * n) : 0;
}

/** The input bytes guessOutput looks at (SpriteTile levels: their first 8 KiB are much less compressed than the rest). */
const PREFIX = 65536;

type Measure = (input: Uint8Array, limit: number) => number;

/**
 * Checks and decodes a whole stream into the shared memory, in one pass,
 * with `extra` bytes of room kept after the output. A new memory is sized
 * once, from the start: room for 8 times the input, or twice the output
 * its first 64 KiB suggest up to BIG_OUTPUT (pages never written cost no
 * RAM), or, when the suggested output comes near that room, the exact size
 * `measure` finds (which throws for a damaged stream or one over the
 * limit, so a small bomb cannot make it allocate much). The shared memory
 * is used whole when it holds 8 times the input. A stream that outgrows
 * its room anyway is measured then (before its memory would pass
 * BIG_OUTPUT, as ever) and moved, once, to a new memory of the exact size.
 * The output is at [outAt, end).
 */
function decodeIntoMemory(
  input: Uint8Array,
  limit: number,
  measure: Measure,
  extra = 0,
): { d: Decoder; outAt: number; end: number } | 'damaged' | null {
  const n = input.length;
  const outAt = (n + 7) & ~7;
  const limitEnd = outAt + Math.min(limit, 0x7fff0000 - outAt);
  let cap = Math.min(limitEnd, outAt + n * 8 + 65536);
  let measured = false;
  if (!compile()) return null;
  if (!shared || shared.memory.buffer.byteLength < cap + extra) {
    // A new memory: room for twice the output the stream's first bytes suggest, or the exact size when that is big.
    const guess = guessOutput(input);
    const room = Math.max(n * 8 + 65536, Math.min(guess * 2 + 65536, BIG_OUTPUT));
    cap = Math.min(limitEnd, outAt + room);
    if (guess * 1.25 > room) {
      cap = outAt + measure(input, limit); // throws for a damaged stream or one over the limit
      measured = true;
    }
  }
  let d: Decoder | null;
  try {
    d = sharedWith(cap + extra);
    if (!d) return null;
  } catch {
    return null; // no memory for it: the caller falls back
  }
  cap = Math.min(limitEnd, d.memory.buffer.byteLength - extra); // all the room the memory has
  new Uint8Array(d.memory.buffer).set(input, 0);
  let ip = 0;
  let op = outAt;
  for (;;) {
    const r = d.run(ip, n, op, outAt, cap, limitEnd);
    if (r === 0) break;
    if (r < 0) return 'damaged';
    ip = d.gip.value as number;
    op = d.gop.value as number;
    const next = Math.min(limitEnd, Math.max(cap * 2, op + 65536));
    if (!measured && (cap * 2 > BIG_OUTPUT || next + extra > d.memory.buffer.byteLength)) {
      // (measured before a new memory is made, so that it is made once, at the exact size)
      cap = outAt + measure(input, limit);
      measured = true;
    } else {
      cap = next;
    }
    try {
      d = withRoom(d, cap + extra, op);
    } catch {
      release(d);
      return null;
    }
  }
  return { d, outAt, end: d.gop.value as number };
}

/** Drops the shared instance when its memory has become big. */
function release(d: Decoder): void {
  if (d === shared && d.memory.buffer.byteLength > KEEP_BYTES) shared = null;
}

/**
 * Checks and decodes a whole stream in WebAssembly. Returns the output,
 * 'damaged' when the stream is bad or passes `limit` (the caller finds the
 * exact problem with the JavaScript `measure`), or null when WebAssembly
 * cannot be used.
 */
export function decompressWasm(input: Uint8Array, limit: number, measure: Measure): Uint8Array | 'damaged' | null {
  const r = decodeIntoMemory(input, limit, measure);
  if (r === null || r === 'damaged') return r;
  const out = new Uint8Array(r.d.memory.buffer).slice(r.outAt, r.end);
  release(r.d);
  return out;
}

/**
 * Decodes a whole stream in WebAssembly and returns a view of the output in
 * the module's memory (no copy): valid until the next call into this
 * module. 'damaged' or null as for decompressWasm.
 */
export function decompressViewWasm(input: Uint8Array, limit: number, measure: Measure): Uint8Array | 'damaged' | null {
  const r = decodeIntoMemory(input, limit, measure);
  if (r === null || r === 'damaged') return r;
  const view = new Uint8Array(r.d.memory.buffer, r.outAt, r.end - r.outAt);
  // (A big memory is let go of here; the view keeps it alive while it is used.)
  release(r.d);
  return view;
}

/** decompressIntoWasm's window: the part of the output decoded in WebAssembly memory before it is copied into `dest`. */
const WINDOW = 128 * 1024;
/** The farthest an LZF back reference reaches: (31 << 8 | 255) + 1 bytes. */
const HISTORY = 8192;

/**
 * Decodes a whole stream in WebAssembly into `dest` (whose length is the
 * limit), a window at a time: each window of output is copied into `dest`
 * while it is still in the cache, and its last 8 KiB (what later back
 * references can reach) moved before the next one. So the module's memory
 * stays small (the input plus 136 KiB) whatever the output size, and the
 * output is written to main memory once, as a C decoder writes it. Returns
 * the output length, 'damaged' (the stream is bad or does not fit `dest`),
 * or null without WebAssembly.
 */
export function decompressIntoWasm(input: Uint8Array, dest: Uint8Array): number | 'damaged' | null {
  const n = input.length;
  const hist = (n + 7) & ~7;
  const win = hist + HISTORY;
  const winEnd = win + WINDOW;
  let d: Decoder | null;
  try {
    // (32 bytes past the window: the word reads of the last tokens, never kept)
    d = decoderFor(winEnd + 64);
    if (!d) return null;
  } catch {
    return null;
  }
  const mem = new Uint8Array(d.memory.buffer);
  mem.set(input, 0);
  const limit = dest.length;
  let ip = 0;
  let done = 0; // bytes already in dest
  let outStart = win; // the oldest byte a reference may reach
  for (;;) {
    const limitEnd = win + Math.min(limit - done, 0x7fff0000 - win);
    const r = d.run(ip, n, win, outStart, Math.min(winEnd, limitEnd), limitEnd);
    const op = d.gop.value as number;
    if (r < 0 || (r === 1 && op === win)) return 'damaged';
    dest.set(mem.subarray(win, op), done);
    done += op - win;
    if (r === 0) return done;
    ip = d.gip.value as number;
    const keep = Math.min(HISTORY, done);
    mem.copyWithin(win - keep, op - keep, op);
    outStart = win - keep;
  }
}

/** Four arrays split from 7-byte records (SpriteTile cells). */
export interface Records7 {
  a: Int16Array;
  b: Uint16Array;
  c: Int16Array;
  d: Uint8Array;
}

/** Typed arrays use the platform's byte order; the module writes little-endian. */
const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function splitAt(d: Decoder, src: number, n: number, le: boolean, dst: number): Records7 | number {
  const bad = d.split(src, n, le ? 1 : 0, dst);
  if (bad >= 0) return bad;
  const b = d.memory.buffer.slice(dst, dst + n * 7);
  return { a: new Int16Array(b, 0, n), b: new Uint16Array(b, 2 * n, n), c: new Int16Array(b, 4 * n, n), d: new Uint8Array(b, 6 * n, n) };
}

/**
 * The decompressed data left in WebAssembly memory, with a splitter that
 * works on it where it is (no copies). Valid until `done()`, and only until
 * the next call into this module.
 */
export interface Retained {
  data: Uint8Array;
  /** The `n` records at data[at]: their arrays, or the index of the first bad one. */
  split(at: number, n: number, littleEndian: boolean): Records7 | number | null;
  done(): void;
}

/**
 * Like decompressWasm, but leaves the output in memory (with room after it
 * to split records into) for a caller that only reads it once, right away.
 */
export function decompressRetained(input: Uint8Array, limit: number, measure: Measure): Retained | 'damaged' | null {
  if (!LITTLE_ENDIAN_HOST) return null;
  // Room after the output for one slice of split records, not for all of them (the memory stays the input and the output).
  const r = decodeIntoMemory(input, limit, measure, 8 + SLICE_RECORDS * 7);
  if (r === null || r === 'damaged') return r;
  const { d, outAt, end } = r;
  const scratch = (end + 7) & ~7;
  if (d.memory.buffer.byteLength < scratch + SLICE_RECORDS * 7) {
    // (not reached: decodeIntoMemory kept the room)
    const data = new Uint8Array(d.memory.buffer).slice(outAt, end);
    release(d);
    return { data, split: () => null, done: () => {} };
  }
  const data = new Uint8Array(d.memory.buffer, outAt, end - outAt);
  return {
    data,
    split: (at, n, le) => (at >= 0 && n * 7 <= end - outAt - at ? splitSlices(d, outAt + at, n, le, scratch) : null),
    done: () => {
      // The first big level a process reads lets the memory go (a command reads one level: memory);
      // from the second on it is kept for the next read (up to KEEP_BYTES), as for every other call.
      const big = d.memory.buffer.byteLength > LET_GO_FIRST_BYTES;
      if (big && !bigBefore && d === shared) shared = null;
      else release(d);
      bigBefore ||= big;
    },
  };
}

/** decompressRetained's memory above this is let go after the first such read of a process (see its done). */
const LET_GO_FIRST_BYTES = 4 * 1024 * 1024;
let bigBefore = false;

/** Records split per call of the module's split by splitSlices: 32768 (224 KiB of scratch). */
const SLICE_RECORDS = 1 << 15;

/**
 * Splits `n` 7-byte records at memory[src] into four new arrays, a slice of
 * SLICE_RECORDS at a time through the scratch at `dst`, each slice copied
 * into the arrays while it is in the cache: the arrays or the index of the
 * first bad record.
 */
function splitSlices(d: Decoder, src: number, n: number, le: boolean, dst: number): Records7 | number {
  if (n <= SLICE_RECORDS) return splitAt(d, src, n, le, dst);
  const out: Records7 = { a: new Int16Array(n), b: new Uint16Array(n), c: new Int16Array(n), d: new Uint8Array(n) };
  const buf = d.memory.buffer;
  for (let i = 0; i < n; i += SLICE_RECORDS) {
    const m = Math.min(SLICE_RECORDS, n - i);
    const bad = d.split(src + i * 7, m, le ? 1 : 0, dst);
    if (bad >= 0) return i + bad;
    out.a.set(new Int16Array(buf, dst, m), i);
    out.b.set(new Uint16Array(buf, dst + 2 * m, m), i);
    out.c.set(new Int16Array(buf, dst + 4 * m, m), i);
    out.d.set(new Uint8Array(buf, dst + 6 * m, m), i);
  }
  return out;
}

/** Splits `n` 7-byte records at data[at] (copied into memory first); null without WebAssembly. */
export function splitRecords7(data: Uint8Array, at: number, n: number, littleEndian: boolean): Records7 | number | null {
  if (!LITTLE_ENDIAN_HOST) return null;
  const size = n * 7;
  const dst = (size + 7) & ~7;
  let d: Decoder | null;
  try {
    d = decoderFor(dst + size);
    if (!d) return null;
  } catch {
    return null;
  }
  new Uint8Array(d.memory.buffer).set(data.subarray(at, at + size), 0);
  return splitAt(d, 0, n, littleEndian, dst);
}

/**
 * The `clzf2` or `liblzf` flavour in WebAssembly (the same bytes as the
 * JavaScript compressors), or null when WebAssembly cannot be used.
 */
export function compressWasm(input: Uint8Array, flavour: 'clzf2' | 'liblzf'): Uint8Array | null {
  const n = input.length;
  const out = (n + 7) & ~7;
  const htab = (out + n + (n >>> 5) + 3 + 7) & ~7;
  const need = htab + (1 << 18);
  let d: Decoder | null;
  try {
    d = decoderFor(need);
    if (!d) return null;
  } catch {
    return null;
  }
  new Uint8Array(d.memory.buffer).set(input, 0);
  const len = d.compress(n, out, htab, flavour === 'liblzf' ? 1 : 0);
  return new Uint8Array(d.memory.buffer).slice(out, out + len);
}
