/**
 * The WebAssembly SIMD kernels of the compositor (src/render/compose.wat,
 * assembled by scripts/build-lzf-wasm.mjs). One private instance whose
 * memory only this module and compose.ts see (callers never hold views of
 * it): a draw that needs more gets a new, bigger memory (never a grown one,
 * which would detach the old buffer). Null where WebAssembly or its SIMD
 * instructions are unavailable (the module then fails validation): the
 * compositor uses its JavaScript loops.
 */
import { base64ToBytes } from '../lzf/wasm.js';
import { COMPOSE_WASM_BASE64 } from './compose-wasm-bytes.js';

type I = number;
type F = number;

export interface ComposeKernels {
  memory: WebAssembly.Memory;
  /** A view of the whole memory. */
  bytes: Uint8Array;
  over: (d: I, s: I, n: I, lut: I) => void;
  blit: (d: I, ds: I, s: I, ss: I, n: I, h: I, lut: I) => void;
  table: (t: I, cols: I, n: I, base: I, mul: I, d: I, lut: I) => void;
  table4: (t: I, masks: I, bases: I, cols: I, n: I, row: I, d: I, lut: I) => void;
  // biome-ignore format: one parameter per kernel argument
  nearest: (t: I, org: I, stride: I, i0: F, i1: F, ru: F, rv: F, sx: F, sy: F, sw: F, sh: F, bx0: F, bx1: F, by0: F, by1: F, xa: I, xb: I, ia: I, ib: I, d: I, lut: I) => void;
  // biome-ignore format: one parameter per kernel argument
  bilinear: (t: I, org: I, stride: I, i0: F, i1: F, ru: F, rv: F, sx: F, sy: F, sw: F, sh: F, bx0: F, bx1: F, by0: F, by1: F, xa: I, xb: I, ia: I, ib: I, dU: I, dV: I, d: I, lut: I, opaqueA: I, aligned: I) => void;
}

let module: WebAssembly.Module | null | undefined;
let shared: ComposeKernels | null = null;
/**
 * Set when a WebAssembly memory could not be had (an address-space limit: `ulimit -v`): the
 * JavaScript kernels draw for the rest of the process instead of every draw asking again (each
 * failed `new WebAssembly.Memory` costs V8 full garbage collections first).
 */
let memoryRefused = false;

/** A new memory of `pages` pages (fixed when `fixed`), or null, for good, once one is refused. */
function newMemory(pages: number, fixed: boolean): WebAssembly.Memory | null {
  if (memoryRefused) return null;
  try {
    return new WebAssembly.Memory(fixed ? { initial: pages, maximum: pages } : { initial: pages });
  } catch {
    memoryRefused = true;
    return null;
  }
}

/** Whether a WebAssembly memory was refused in this process (the compositor then stays in JavaScript). */
export function wasmMemoryRefused(): boolean {
  return memoryRefused;
}

function compile(): WebAssembly.Module | null {
  if (module !== undefined) return module;
  try {
    const bytes = base64ToBytes(COMPOSE_WASM_BASE64);
    // Engines without SIMD reject the module here (no exception path needed).
    module = typeof WebAssembly === 'object' && WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
  } catch {
    module = null;
  }
  return module;
}

/** An instance of the kernels over `memory`. */
function bind(m: WebAssembly.Module, memory: WebAssembly.Memory): ComposeKernels {
  const e = new WebAssembly.Instance(m, { env: { mem: memory } }).exports;
  return {
    memory,
    bytes: new Uint8Array(memory.buffer),
    over: e.over as ComposeKernels['over'],
    blit: e.blit as ComposeKernels['blit'],
    table: e.table as ComposeKernels['table'],
    table4: e.table4 as ComposeKernels['table4'],
    nearest: e.nearest as ComposeKernels['nearest'],
    bilinear: e.bilinear as ComposeKernels['bilinear'],
  };
}

/** Whether the kernels can run here (WebAssembly with SIMD). */
export function simdAvailable(): boolean {
  return compile() !== null;
}

/**
 * The kernels with at least `need` bytes of memory, or null (no
 * WebAssembly SIMD, or the memory cannot grow that far).
 */
export function composeKernels(need: number): ComposeKernels | null {
  const m = compile();
  if (!m) return null;
  // A bigger draw gets a new memory, never a grown one (growing detaches the old buffer: src/lzf/wasm.ts).
  if (!shared || shared.memory.buffer.byteLength < need) {
    const memory = newMemory(Math.max(16, Math.ceil(need / 65536)), false);
    if (!memory) return null;
    try {
      shared = bind(m, memory);
    } catch {
      return null;
    }
  }
  return shared;
}

/** Lets go of the memory when a draw made it big (the next draw starts a small one). */
export function releaseKernels(keepBytes: number): void {
  if (shared && shared.memory.buffer.byteLength > keepBytes) shared = null;
}

/** An image made by createCanvasImage: its kernels (over its memory) and the scratch area after its pixels. */
export interface CanvasKernels {
  k: ComposeKernels;
  /** First byte of the scratch area (after the pixels and the sources placed there), and the end of the memory. */
  scratch: number;
  end: number;
}

/** Scratch room a canvas image keeps when sources are placed in its memory (the draws' tables and temporary rows). */
const MIN_SCRATCH = 256 * 1024;

// A cache of derived data: the kernels instantiated over each canvas image's memory (keyed by its
// buffer, so they go with the image).
const canvases = new WeakMap<ArrayBufferLike, CanvasKernels>();

/** The kernels of an image made by createCanvasImage (any view of its pixels), else undefined. */
export function canvasKernels(data: Uint8Array): CanvasKernels | undefined {
  return canvases.get(data.buffer);
}

/**
 * Width × height pixels in a WebAssembly memory of their own (fixed size:
 * it never grows, so `data` stays valid), followed by a scratch area for
 * the source texels; null when WebAssembly SIMD or the memory is
 * unavailable. `scratchBytes`: sources whose texels need more are drawn
 * through the shared memory instead.
 */
export function canvasMemory(bytes: number, scratchBytes: number): Uint8Array | null {
  const m = compile();
  if (!m) return null;
  const scratch = (bytes + 15) & ~15;
  const pages = Math.ceil((scratch + scratchBytes) / 65536);
  const memory = newMemory(pages, true);
  if (!memory) return null;
  try {
    canvases.set(memory.buffer, { k: bind(m, memory), scratch, end: pages * 65536 });
    return new Uint8Array(memory.buffer, 0, bytes);
  } catch {
    return null;
  }
}

/**
 * `bytes` bytes for a source image in the memory of the canvas image whose
 * pixels are `canvas` (taken from the start of its scratch area, for good:
 * they go with the canvas), or null when `canvas` is not a canvas image or
 * the scratch area would keep less than MIN_SCRATCH.
 */
export function canvasAlloc(canvas: Uint8Array, bytes: number): Uint8Array | null {
  const c = canvases.get(canvas.buffer);
  if (!c) return null;
  // 16 bytes after it: a kernel may read a whole vector from its last texel.
  const next = (c.scratch + bytes + 16 + 15) & ~15;
  if (next + MIN_SCRATCH > c.end) return null;
  const at = c.scratch;
  c.scratch = next;
  return new Uint8Array(c.k.memory.buffer, at, bytes);
}
