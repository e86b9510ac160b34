/**
 * The benchmarks run (bench/, `npm run bench`): every suite in its tiny mode
 * (small inputs, 5 short rounds), so their output comparisons are exercised
 * (sprat against liblzf C, lzfjs, Skia, pngjs, the reference compositor, the
 * C CTHG decoder, ...). No timing is asserted: on a shared machine the
 * figures mean nothing here. The tiny run takes well under a minute on a quiet
 * machine (the sweep and CLI suites start child processes through tsx).
 */
import { describe, expect, it } from 'vitest';
import { BenchMismatch, compare, pixelsWithin, sameBytes, setMode } from '../../bench/lib.mjs';
import { runBench } from '../../bench/run.mjs';
import { replaceInReadme, tables } from '../../bench/table.mjs';

describe('benchmarks', () => {
  it('run in the tiny mode, every output compared with its peers, and make the README tables', { timeout: 600_000 }, async () => {
    let json = '';
    let text = '';
    const { failures } = await runBench(['--tiny', '--json'], { out: (s) => (json += s), err: (s) => (text += s) });
    expect(failures, text).toEqual([]);
    const run = JSON.parse(json) as { results: { kind: string; suite: string; title: string; rows: { check: string }[] }[] };
    const suites = new Set(run.results.map((r) => r.suite));
    for (const s of ['lzf', 'render', 'isprite', 'isprite-play', 'cthg', 'solarus', 'hallgeir', 'interop', 'cli', 'sweep'])
      expect(suites).toContain(s);
    const checks = run.results.filter((r) => r.kind === 'compare').flatMap((r) => r.rows.slice(1).map((row) => `${r.title}: ${row.check}`));
    // The byte-for-byte comparisons that matter ran (C when gcc and liblzf-dev are there: always in CI).
    expect(checks.some((c) => c.startsWith('LZF compress') && c.endsWith('equal bytes'))).toBe(true);
    expect(checks.some((c) => c.startsWith('compositor: blit opaque') && c.includes('pixels'))).toBe(true);
    expect(checks.some((c) => c.startsWith('PNG decode') && c.endsWith('pixels equal'))).toBe(true);
    const md = tables(JSON.parse(json));
    expect(md).toContain('| benchmark | sprat | peer |');
    expect(md).toContain('| format | input MB | read | inspect --json |');
    expect(replaceInReadme('a\n<!-- bench-table:start -->\nold\n<!-- bench-table:end -->\nb', 'new')).toBe(
      'a\n<!-- bench-table:start -->\nnew\n<!-- bench-table:end -->\nb',
    );
    expect(text).toContain('sprat vs peer');
  });

  it('fails a comparison whose outputs differ, before timing anything', async () => {
    setMode('tiny', { log: () => {} });
    let timed = 0;
    await expect(
      compare('differs', {
        peers: [
          { name: 'a', fn: () => new Uint8Array([1, 2, 3]) },
          {
            name: 'b',
            fn: () => {
              timed++;
              return new Uint8Array([1, 2, 4]);
            },
          },
        ],
      }),
    ).rejects.toBeInstanceOf(BenchMismatch);
    expect(timed).toBe(1); // only the output call
    expect(sameBytes(new Uint8Array([1, 2]), new Uint8Array([1, 2, 3]))).toMatch(/lengths differ/);
    expect(pixelsWithin(new Uint8Array([10, 10, 10, 255]), new Uint8Array([12, 10, 10, 255]), { tol: 2 })).toBeNull();
    expect(pixelsWithin(new Uint8Array([10, 10, 10, 255]), new Uint8Array([13, 10, 10, 255]), { tol: 2 })).toMatch(/differ by more than 2/);
  });
});
