// Types for test/meta/bench.test.ts.
export function tables(run: unknown): string;
export function replaceInReadme(readme: string, text: string): string;
