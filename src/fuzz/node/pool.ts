/**
 * A pool of fuzzing worker threads with a heap limit (resourceLimits) and a
 * CPU-time limit per job. The CPU time is the worker thread's own, read from
 * /proc/PID/task/TID/stat while the job runs (where there is no /proc, the
 * worker's event-loop busy time stands in). A job is never judged by wall
 * time alone: one that has not answered after a generous wall time is
 * stopped and reported as a hang with the CPU time it used. The process's
 * resident memory is watched too (array buffers live outside the V8 heap):
 * when it passes the limit the running jobs are stopped and each is run again
 * alone, so that a finding names the right input.
 */
import { Worker } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
import type { FuzzJob, Outcome } from '../commands.js';
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

interface Slot {
  worker: Worker;
  tid?: number;
  ready: boolean;
  job?: { req: WorkerRequest; resolve: (r: JobResult) => void; wall0: number; cpu0: number; cpu: number; solo: boolean };
  stopping?: Outcome;
}

const TICK_MS = 1000 / 100; // USER_HZ on Linux

/** CPU time (ms) of an OS thread of this process, or undefined without /proc. */
function threadCpuMs(tid: number | undefined): number | undefined {
  if (tid === undefined || !Number.isFinite(tid)) return undefined;
  try {
    const stat = readFileSync(`/proc/${process.pid}/task/${tid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 (utime, stime); f[0] is field 3.
    return (Number(f[11]) + Number(f[12])) * TICK_MS;
  } catch {
    return undefined;
  }
}

function workerUrl(): { url: URL; workerData?: unknown } {
  const self = import.meta.url;
  if (self.endsWith('.ts')) {
    return { url: new URL('./boot.mjs', self), workerData: { entry: new URL('./worker.ts', self).href } };
  }
  return { url: new URL('./worker.js', self) };
}

export class FuzzPool {
  private slots: Slot[] = [];
  private queue: { req: WorkerRequest; resolve: (r: JobResult) => void; solo: boolean }[] = [];
  private timer: ReturnType<typeof setInterval>;
  private nextId = 1;
  private closed = false;

  constructor(readonly options: PoolOptions = DEFAULT_POOL) {
    for (let i = 0; i < options.jobs; i++) this.slots.push(this.spawn());
    this.timer = setInterval(() => this.watch(), 100);
  }

  /** Runs one job; resolves with its outcome (never rejects). */
  run(job: FuzzJob, dir: string): Promise<JobResult> {
    return new Promise((resolve) => {
      this.queue.push({ req: { ...job, id: this.nextId++, dir }, resolve, solo: false });
      this.dispatch();
    });
  }

  /** Jobs waiting or running. */
  get pending(): number {
    return this.queue.length + this.slots.filter((s) => s.job).length;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }

  private spawn(): Slot {
    const { url, workerData } = workerUrl();
    const worker = new Worker(url, {
      workerData,
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb },
      stdout: true,
      stderr: true,
    });
    worker.stdout.resume();
    worker.stderr.resume();
    const slot: Slot = { worker, ready: false };
    worker.on('message', (m: WorkerReply | { ready: true; tid?: number }) => {
      if ('ready' in m) {
        slot.tid = m.tid;
        slot.ready = true;
        this.dispatch();
        return;
      }
      const job = slot.job;
      if (!job || job.req.id !== m.id) return;
      slot.job = undefined;
      job.resolve({ cls: m.cls, finding: m.finding, message: m.message, stack: m.stack, cpuMs: this.cpuOf(slot) - job.cpu0 });
      this.dispatch();
    });
    worker.on('error', (e: Error & { code?: string }) => {
      slot.stopping ??=
        e.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? { cls: 'heap-out-of-memory', finding: true, message: e.message }
          : { cls: `worker-crash:${e.name}`, finding: true, message: e.message, stack: e.stack };
    });
    worker.on('exit', () => this.replace(slot));
    return slot;
  }

  /** A worker ended (stopped by us, out of memory, crashed): settle its job and start a new one. */
  private replace(slot: Slot): void {
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    const job = slot.job;
    if (job) {
      const outcome = slot.stopping ?? { cls: 'worker-exit', finding: true, message: 'the worker thread exited' };
      if (outcome.cls === 'rss' && !job.solo) {
        // Run it again alone to tell which job used the memory.
        this.queue.unshift({ req: job.req, resolve: job.resolve, solo: true });
      } else {
        job.resolve({ ...outcome, cpuMs: job.cpu });
      }
    }
    slot.job = undefined;
    if (this.closed) return;
    this.slots[i] = this.spawn();
    this.dispatch();
  }

  private cpuOf(slot: Slot): number {
    return threadCpuMs(slot.tid) ?? slot.worker.performance.eventLoopUtilization().active;
  }

  private dispatch(): void {
    if (this.closed) return;
    for (const slot of this.slots) {
      if (slot.job || slot.stopping || !slot.ready) continue;
      const head = this.queue[0];
      if (!head) return;
      // A job run alone waits for the others to finish, and nothing starts beside it.
      const busy = this.slots.some((s) => s.job);
      if (head.solo && busy) return;
      if (this.slots.some((s) => s.job?.solo)) return;
      this.queue.shift();
      slot.job = { req: head.req, resolve: head.resolve, wall0: Date.now(), cpu0: this.cpuOf(slot), cpu: 0, solo: head.solo };
      slot.worker.postMessage(head.req);
    }
  }

  private stop(slot: Slot, outcome: Outcome): void {
    if (slot.stopping) return;
    slot.stopping = outcome;
    void slot.worker.terminate();
  }

  private watch(): void {
    const now = Date.now();
    const rssMb = process.memoryUsage.rss() / 2 ** 20;
    for (const slot of this.slots) {
      const job = slot.job;
      if (!job || slot.stopping) continue;
      const cpu = this.cpuOf(slot) - job.cpu0;
      job.cpu = cpu;
      const wall = now - job.wall0;
      if (cpu > this.options.cpuMs) {
        this.stop(slot, {
          cls: 'cpu-time-out',
          finding: true,
          message: `used more than ${Math.round(cpu)} ms of CPU (limit ${this.options.cpuMs} ms)`,
        });
      } else if (wall > this.options.wallMs) {
        this.stop(slot, {
          cls: 'hang',
          finding: true,
          message: `no answer after ${Math.round(wall / 1000)} s of wall time, having used ${Math.round(cpu)} ms of CPU`,
        });
      } else if (rssMb > this.options.rssMb) {
        this.stop(slot, {
          cls: 'rss',
          finding: true,
          message: `the process's resident memory reached ${Math.round(rssMb)} MB (limit ${this.options.rssMb} MB)`,
        });
      }
    }
  }
}
