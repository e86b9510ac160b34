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
import { why } from '../../bench/sweep.mjs';

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

  it('tables: a run up to 100 MB shows every size, memory at 10 and 100 MB, and the growth of each step', () => {
    const machine = {
      date: '2026-11-24T09:02:00Z',
      cpu: 'AMD EPYC',
      cores: 2,
      platform: 'linux x64',
      node: 'v20.20.2',
      loadavg: [0.2, 0.8, 1.6],
    };
    const point = (
      op: string,
      label: string,
      mb: number,
      cpuMs: number,
      extraKB: number,
      t: number | null,
      m: number | null,
      error: string | null = null,
    ) => ({
      format: 'cthg',
      op,
      label,
      mb,
      size: mb * 1e6,
      cpuMs: error ? null : cpuMs,
      extraKB: error ? null : extraKB,
      timeGrowth: t,
      memoryGrowth: m,
      error,
    });
    const sweep = (sizesMB: number[], rows: unknown[]) => ({ kind: 'sweep', suite: 'sweep', sizesMB, rows });
    const full = tables({
      machine,
      loadavgAtEnd: [1.5],
      mode: 'full',
      lib: 'dist',
      results: [
        sweep(
          [1, 10, 100],
          [
            point('read', 'read', 1, 10, 1000, null, null),
            point('read', 'read', 10, 60, 12000, 6, 12),
            point('read', 'read', 100, 2000, 200000, 33.3, 16.7),
            point('convert:aseprite', 'sheet', 1, 200, 21000, null, null),
            point('convert:aseprite', 'sheet', 10, 1200, 135000, 6, 6.4),
            point('convert:aseprite', 'sheet', 100, 0, 0, null, null, 'failed (exit 1): LimitError: too big'),
          ],
        ),
        {
          kind: 'memory',
          suite: 'sweep',
          sizesMB: [10, 100],
          rows: [
            {
              format: 'cthg',
              read: 1.5,
              inspect: 1.6,
              bySize: [
                { mb: 10, read: 1.2, inspect: 1.6 },
                { mb: 100, read: 1.5, inspect: null },
              ],
            },
          ],
        },
      ],
      failures: [],
    });
    expect(full).toContain('| format | read 10 MB | read 100 MB | inspect --json 10 MB | inspect --json 100 MB |');
    expect(full).toContain('| cthg | 1.20x | 1.50x | 1.60x | failed |');
    expect(full).toContain(
      '| format | operation | 1 MB | 10 MB | 100 MB | time per 10x (1→10 MB, 10→100 MB) | memory per 10x (1→10 MB, 10→100 MB) |',
    );
    expect(full).toContain(
      '| cthg | read | 0.01 s / 1 MB | 0.06 s / 11.7 MB | 2.00 s / 195 MB | 6.0x / 33.3x **superlinear** | 12.0x / 16.7x (too small to judge) |',
    );
    expect(full).toContain(
      '| cthg | sheet | 0.20 s / 20.5 MB | 1.20 s / 132 MB | failed (exit 1): LimitError: too big | 6.0x / - | 6.4x / - |',
    );
    // A run to 10 MB: the memory table of the largest size, one growth per row (as before).
    const short = tables({
      machine,
      loadavgAtEnd: [1.5],
      mode: 'default',
      lib: 'dist',
      results: [
        sweep([1, 10], [point('read', 'read', 1, 10, 1000, null, null), point('read', 'read', 10, 60, 12000, 6, 12)]),
        {
          kind: 'memory',
          suite: 'sweep',
          sizesMB: [10],
          rows: [{ format: 'cthg', readMB: 9.8, read: 1.2, inspectMB: 9.8, inspect: 1.6, bySize: [{ mb: 10, read: 1.2, inspect: 1.6 }] }],
        },
      ],
      failures: [],
    });
    expect(short).toContain('| format | input MB | read | inspect --json |');
    expect(short).toContain('| cthg | 9.8 | 1.20x | 1.60x |');
    expect(short).toContain('| cthg | read | 0.01 s / 1 MB | 0.06 s / 11.7 MB | 6.0x | 12.0x |');
  });

  it('the sweep names the error a failed point threw, not node’s version line', () => {
    const stderr =
      'file:///x/api.js:127\n    throw e;\n    ^\n\nLimitError: the sheet would need 70104481 pixels (raise it with --max-pixels)\n    at asepriteFromModel (file:///x.js:1:2)\n  {\n  needed: 70104481\n}\n\nNode.js v20.20.2\n';
    expect(why(stderr)).toBe('LimitError: the sheet would need 70104481 pixels (raise it with --max-pixels)');
    expect(why('something odd\nNode.js v20.20.2\n')).toBe('something odd');
    expect(why('')).toBe('');
  });
});
