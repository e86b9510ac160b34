/**
 * A pool of worker threads that run jobs (plain data in, plain data out)
 * through one worker module, several at a time: the batch commands
 * (src/cli/batch.ts) and the fuzzer (src/fuzz/node/pool.ts) both use it.
 *
 * Optional limits per job: a V8 heap per worker (resourceLimits), CPU time,
 * wall time and the process's resident memory. The CPU time is the worker
 * thread's own, read from /proc/PID/task/TID/stat while the job runs (where
 * there is no /proc, the worker's event-loop busy time stands in). A job is
 * never judged by wall time alone unless `wallMs` is given. When the resident
 * memory passes `rssMb`, the running jobs are stopped and each is run again
 * alone, so that the report names the right job. A worker that dies (out of
 * memory, a crash, stopped) settles its job as `stopped` and is replaced:
 * one job never stops the others.
 *
 * Worker modules call `serveJobs`. From the TypeScript sources (tests, tsx)
 * a worker starts through boot.mjs, which registers tsx in its thread.
 */
import { readFileSync, readlinkSync } from 'node:fs';
import { parentPort, Worker } from 'node:worker_threads';

export interface ThreadPoolOptions {
  /** Worker threads (at least 1). */
  jobs: number;
  /** CPU time one job may use (ms). */
  cpuMs?: number;
  /** Wall time after which a job that has not answered is stopped (ms). */
  wallMs?: number;
  /** The worker's V8 old-generation heap (MB). */
  heapMb?: number;
  /** Resident memory of the whole process (MB) that stops the running jobs. */
  rssMb?: number;
}

/** Why a job has no reply: its worker was stopped or died. */
export interface Stopped {
  /** 'cpu-time-out', 'hang', 'rss', 'heap-out-of-memory', 'worker-crash:NAME', 'worker-exit'. */
  cls: string;
  message: string;
  stack?: string;
}

export type PoolResult<R> = { reply: R; stopped?: undefined; cpuMs: number } | { reply?: undefined; stopped: Stopped; cpuMs: number };

interface Running<Q, R> {
  id: number;
  job: Q;
  resolve: (r: PoolResult<R>) => void;
  wall0: number;
  cpu0: number;
  cpu: number;
  solo: boolean;
}

interface Slot<Q, R> {
  worker: Worker;
  tid?: number;
  ready: boolean;
  running?: Running<Q, R>;
  stopping?: Stopped;
}

interface Queued<Q, R> {
  id: number;
  job: Q;
  resolve: (r: PoolResult<R>) => void;
  solo: boolean;
}

const TICK_MS = 1000 / 100; // USER_HZ on Linux
/** Workers that may end before they are ready, in a row, before the pool gives up. */
const START_TRIES = 3;

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

export interface WorkerModule {
  url: URL;
  workerData?: unknown;
}

/**
 * The worker module `name` (without extension) beside the module at
 * `fromUrl` (its import.meta.url): the compiled `.js`, or from the
 * TypeScript sources the `.ts` started through boot.mjs.
 */
export function workerModule(fromUrl: string, name: string): WorkerModule {
  if (fromUrl.endsWith('.ts')) {
    return { url: new URL('./boot.mjs', import.meta.url), workerData: { entry: new URL(`./${name}.ts`, fromUrl).href } };
  }
  return { url: new URL(`./${name}.js`, fromUrl) };
}

export class ThreadPool<Q, R> {
  private slots: Slot<Q, R>[] = [];
  private queue: Queued<Q, R>[] = [];
  private timer?: ReturnType<typeof setInterval>;
  private nextId = 1;
  private closed = false;
  /** Workers in a row that ended before they were ready; past START_TRIES the pool gives up (no endless respawning). */
  private startFailures = 0;
  private broken: Stopped | undefined;

  constructor(
    readonly module: WorkerModule,
    readonly options: ThreadPoolOptions,
  ) {
    for (let i = 0; i < Math.max(1, options.jobs); i++) this.slots.push(this.spawn());
    if (options.cpuMs !== undefined || options.wallMs !== undefined || options.rssMb !== undefined) {
      this.timer = setInterval(() => this.watch(), 100);
    }
  }

  /** Runs one job; resolves with its reply, or why it has none (never rejects). */
  run(job: Q): Promise<PoolResult<R>> {
    if (this.broken) return Promise.resolve({ stopped: this.broken, cpuMs: 0 });
    return new Promise((resolve) => {
      this.queue.push({ id: this.nextId++, job, resolve, solo: false });
      this.dispatch();
    });
  }

  /** Jobs waiting or running. */
  get pending(): number {
    return this.queue.length + this.slots.filter((s) => s.running).length;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }

  private spawn(): Slot<Q, R> {
    const worker = new Worker(this.module.url, {
      workerData: this.module.workerData,
      resourceLimits: this.options.heapMb ? { maxOldGenerationSizeMb: this.options.heapMb } : undefined,
      stdout: true,
      stderr: true,
    });
    worker.stdout.resume();
    worker.stderr.resume();
    const slot: Slot<Q, R> = { worker, ready: false };
    worker.on('message', (m: { id: number; reply: R } | { ready: true; tid?: number }) => {
      if ('ready' in m) {
        slot.tid = m.tid;
        slot.ready = true;
        this.startFailures = 0;
        this.dispatch();
        return;
      }
      const running = slot.running;
      if (!running || running.id !== m.id) return;
      slot.running = undefined;
      running.resolve({ reply: m.reply, cpuMs: this.cpuOf(slot) - running.cpu0 });
      this.dispatch();
    });
    worker.on('error', (e: Error & { code?: string }) => {
      slot.stopping ??=
        e.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? { cls: 'heap-out-of-memory', message: e.message }
          : { cls: `worker-crash:${e.name}`, message: e.message, stack: e.stack };
    });
    worker.on('exit', () => this.replace(slot));
    return slot;
  }

  /** A worker ended (stopped by us, out of memory, crashed): settle its job and start a new one. */
  private replace(slot: Slot<Q, R>): void {
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    const running = slot.running;
    if (running) {
      const stopped = slot.stopping ?? { cls: 'worker-exit', message: 'the worker thread exited' };
      if (stopped.cls === 'rss' && !running.solo) {
        // Run it again alone to tell which job used the memory.
        this.queue.unshift({ id: running.id, job: running.job, resolve: running.resolve, solo: true });
      } else {
        running.resolve({ stopped, cpuMs: running.cpu });
      }
    }
    slot.running = undefined;
    if (this.closed || this.broken) return;
    if (!slot.ready && ++this.startFailures >= START_TRIES) {
      // The worker module cannot start (missing, or failing as it loads): every job waiting fails with why.
      const why = slot.stopping?.message ?? 'it exited as it started';
      this.broken = { cls: 'worker-start', message: `the worker thread could not start: ${why}` };
      for (const q of this.queue.splice(0)) q.resolve({ stopped: this.broken, cpuMs: 0 });
      return;
    }
    this.slots[i] = this.spawn();
    this.dispatch();
  }

  private cpuOf(slot: Slot<Q, R>): number {
    return threadCpuMs(slot.tid) ?? slot.worker.performance.eventLoopUtilization().active;
  }

  private dispatch(): void {
    if (this.closed) return;
    for (const slot of this.slots) {
      if (slot.running || slot.stopping || !slot.ready) continue;
      const head = this.queue[0];
      if (!head) return;
      // A job run alone waits for the others to finish, and nothing starts beside it.
      const busy = this.slots.some((s) => s.running);
      if (head.solo && busy) return;
      if (this.slots.some((s) => s.running?.solo)) return;
      this.queue.shift();
      const cpu0 = this.cpuOf(slot);
      slot.running = { id: head.id, job: head.job, resolve: head.resolve, wall0: Date.now(), cpu0, cpu: 0, solo: head.solo };
      slot.worker.postMessage({ id: head.id, job: head.job });
    }
  }

  private stop(slot: Slot<Q, R>, stopped: Stopped): void {
    if (slot.stopping) return;
    slot.stopping = stopped;
    void slot.worker.terminate();
  }

  private watch(): void {
    const { cpuMs, wallMs, rssMb: rssLimit } = this.options;
    const now = Date.now();
    const rssMb = rssLimit === undefined ? 0 : process.memoryUsage.rss() / 2 ** 20;
    for (const slot of this.slots) {
      const running = slot.running;
      if (!running || slot.stopping) continue;
      const cpu = this.cpuOf(slot) - running.cpu0;
      running.cpu = cpu;
      const wall = now - running.wall0;
      if (cpuMs !== undefined && cpu > cpuMs) {
        this.stop(slot, { cls: 'cpu-time-out', message: `used more than ${Math.round(cpu)} ms of CPU (limit ${cpuMs} ms)` });
      } else if (wallMs !== undefined && wall > wallMs) {
        this.stop(slot, {
          cls: 'hang',
          message: `no answer after ${Math.round(wall / 1000)} s of wall time, having used ${Math.round(cpu)} ms of CPU`,
        });
      } else if (rssLimit !== undefined && rssMb > rssLimit) {
        this.stop(slot, { cls: 'rss', message: `the process's resident memory reached ${Math.round(rssMb)} MB (limit ${rssLimit} MB)` });
      }
    }
  }
}

/**
 * In a worker module: answers each job the pool sends with `handle`'s reply
 * (which should not throw: a thrown error ends the worker, and the job is
 * reported as stopped). Tells the pool its OS thread id first, for the CPU
 * time of its jobs.
 */
export function serveJobs<Q, R>(handle: (job: Q) => Promise<R> | R): void {
  const port = parentPort;
  if (!port) throw new Error('serveJobs runs in a worker thread');
  let tid: number | undefined;
  try {
    // "PID/task/TID"
    tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  } catch {
    tid = undefined;
  }
  port.on('message', async (m: { id: number; job: Q }) => {
    const reply = await handle(m.job);
    port.postMessage({ id: m.id, reply });
  });
  port.postMessage({ ready: true, tid });
}
