// Types for test/meta/bench.test.ts.
export class BenchMismatch extends Error {}
export function setMode(mode: 'tiny' | 'quick' | 'default' | 'full', extra?: { log?: (s: string) => void; json?: boolean }): void;
export function sameBytes(a: Uint8Array | string, b: Uint8Array | string): string | null;
export function pixelsWithin(
  a: Uint8Array,
  b: Uint8Array,
  tolerance?: { tol?: number; share?: number; maxTol?: number; allowed?: number },
): string | null;
export interface Peer {
  name: string;
  fn?: () => unknown;
  afn?: () => Promise<unknown>;
  output?: () => unknown;
  check?: false | ((a: unknown, b: unknown) => string | null);
  checkNote?: string;
}
export function compare(
  title: string,
  options: { peers: Peer[]; amount?: number; unit?: string; check?: false | ((a: unknown, b: unknown) => string | null); target?: unknown },
): Promise<{ rows: { peer: string; medianMs: number; ratio?: number; check: string }[] }>;
