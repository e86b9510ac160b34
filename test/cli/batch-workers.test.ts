/**
 * How many workers a batch runs (src/cli/batch.ts workerPlan): at most the cores unless
 * --oversubscribe, at most what the machine's memory holds at WORKER_MEMORY_MB each, with a note
 * when --jobs is lowered; and a batch whose file crashes its worker (out of memory) goes on to the
 * others and to its summary line, whatever the count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { WORKER_MEMORY_MB, workerPlan } from '../../src/cli/batch.js';
import { runCli } from '../helpers/cli.js';
import { encodePng } from '../../src/render/png.js';
import { createImage } from '../../src/render/image.js';

const machine = { cores: 2, memoryMb: 16 * 1024 };

describe('workerPlan', () => {
  it('caps --jobs at the cores, with a note, unless --oversubscribe', () => {
    expect(workerPlan({ jobs: '64' }, 1000, machine)).toEqual({
      workers: 2,
      notes: ['--jobs 64 is more than the 2 cores: 2 workers (--oversubscribe for more)'],
    });
    expect(workerPlan({ jobs: '8', oversubscribe: true }, 1000, machine)).toEqual({ workers: 8, notes: [] });
    expect(workerPlan({ jobs: '2' }, 1000, machine)).toEqual({ workers: 2, notes: [] });
    // no more workers than files: no note for what would not run anyway
    expect(workerPlan({ jobs: '64' }, 2, machine)).toEqual({ workers: 2, notes: [] });
  });

  it("counts each worker's memory: no more than the machine holds, even with --oversubscribe", () => {
    const small = { cores: 64, memoryMb: 4 * WORKER_MEMORY_MB + 100 };
    const plan = workerPlan({ jobs: '64' }, 1000, small);
    expect(plan.workers).toBe(4);
    expect(plan.notes).toEqual([
      `64 workers would need ${64 * WORKER_MEMORY_MB} MiB, more than the machine's ${small.memoryMb} MiB: 4 workers`,
    ]);
    expect(workerPlan({ jobs: '64', oversubscribe: true }, 1000, { cores: 2, memoryMb: 2 * WORKER_MEMORY_MB }).workers).toBe(2);
    expect(workerPlan({}, 1000, { cores: 8, memoryMb: 1000 }).workers).toBe(1);
  });

  it('runs every batch of two files or more in workers (one for a few files); one file alone here', () => {
    expect(workerPlan({}, 1, machine).workers).toBe(0);
    expect(workerPlan({}, 2, machine).workers).toBe(1);
    expect(workerPlan({}, 15, machine).workers).toBe(1);
    expect(workerPlan({}, 16, machine).workers).toBe(2);
    expect(workerPlan({ jobs: '1' }, 5, machine).workers).toBe(1);
  });
});

describe('a batch with a file that crashes its worker', () => {
  let dir = '';
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-crash-'));
    fs.mkdirSync(path.join(dir, 'in'));
    fs.writeFileSync(path.join(dir, 'in', 'x.png'), encodePng(createImage(1, 1)));
    // 10^9 frames asked for, and --max-items raised far past them: the conversion runs out of its worker's heap
    fs.writeFileSync(path.join(dir, 'in', 'a-huge.dat'), 'a x.png 1 100 0\n0\t0\t1\t1\t0\t0\t1000000000\t1\n');
    fs.writeFileSync(path.join(dir, 'in', 'b-small.dat'), 'a x.png 1 100 0\n0\t0\t1\t1\t0\t0\t2\t1\n');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('fails that file alone ("ran out of memory"), converts the others and prints its summary line (3 files, no --jobs)', async () => {
    const r = await runCli(
      ['convert', 'in', 'out', '--to', 'aseprite', '--max-items', '100000000000', '--max-work', '1000000000000000'],
      dir,
    );
    expect(r.stderr).toMatch(/^sprat: error: in[/\\]a-huge\.dat: ran out of memory$/m);
    expect(r.stdout).toMatch(/wrote out[/\\]b-small\.json/);
    expect(r.stdout).toMatch(/^convert: 1 written, 0 unchanged, 1 failed \(1 other files skipped\)$/m);
    expect(r.code).toBe(1);
  }, 120_000);
});
