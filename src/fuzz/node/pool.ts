/**
 * The fuzzer's pool: the shared worker-thread pool (src/node/pool.ts) with a
 * heap limit (resourceLimits) and a CPU-time limit per job, a generous wall
 * time for a job that never answers (reported as a hang with the CPU time it
 * used) and a watch on the process's resident memory (array buffers live
 * outside the V8 heap; the jobs running then are run again alone, so that a
 * finding names the right input). A stopped job is a finding.
 */
import type { FuzzJob, Outcome } from '../commands.js';
import { ThreadPool, workerModule } from '../../node/pool.js';
import type { WorkerReply, WorkerRequest } from './worker.js';

export interface PoolOptions {
  jobs: number;
  /** CPU time one job may use (ms). */
  cpuMs: number;
  /** Wall time after which a job that has not answered is stopped (ms). */
  wallMs: number;
  /** The worker's V8 old-generation heap (MB). */
  heapMb: number;
  /** Resident memory of the whole process (MB) that stops the running jobs. */
  rssMb: number;
}

export const DEFAULT_POOL: PoolOptions = { jobs: 2, cpuMs: 10_000, wallMs: 120_000, heapMb: 512, rssMb: 3072 };

export interface JobResult extends Outcome {
  /** CPU time the job used (ms), as measured for the limit. */
  cpuMs: number;
}

export class FuzzPool {
  private pool: ThreadPool<WorkerRequest, WorkerReply>;
  private nextId = 1;

  constructor(readonly options: PoolOptions = DEFAULT_POOL) {
    this.pool = new ThreadPool(workerModule(import.meta.url, 'worker'), options);
  }

  /** Runs one job; resolves with its outcome (never rejects). */
  async run(job: FuzzJob, dir: string): Promise<JobResult> {
    const r = await this.pool.run({ ...job, id: this.nextId++, dir });
    if (r.stopped) return { cls: r.stopped.cls, finding: true, message: r.stopped.message, stack: r.stopped.stack, cpuMs: r.cpuMs };
    const { cls, finding, message, stack } = r.reply;
    return { cls, finding, message, stack, cpuMs: r.cpuMs };
  }

  /** Jobs waiting or running. */
  get pending(): number {
    return this.pool.pending;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
