// Types for test/meta/bench.test.ts.
export const SUITES: string[];
export interface BenchFailure {
  suite: string;
  message: string;
  mismatch: boolean;
}
export function runBench(
  argv: string[],
  io?: { out?: (s: string) => void; err?: (s: string) => void },
): Promise<{ failures: BenchFailure[]; results: BenchResult[] }>;
export interface BenchRow {
  peer: string;
  medianMs: number;
  minMs: number;
  maxMs: number;
  rate: number | null;
  check: string;
  ratio?: number;
  ratioMin?: number;
  ratioMax?: number;
}
export interface BenchResult {
  kind: string;
  suite: string;
  title: string;
  rows: BenchRow[] & Record<string, unknown>[];
  [key: string]: unknown;
}
