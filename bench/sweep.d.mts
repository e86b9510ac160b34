// Types for test/meta/bench.test.ts.
export function why(stderr: string): string;
export function run(): Promise<void>;
