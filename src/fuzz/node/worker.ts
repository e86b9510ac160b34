/**
 * One fuzzing worker thread: runs jobs (one command on one input) as they
 * come and answers each with its outcome. It tells the parent its OS thread
 * id first, so the parent can read the thread's CPU time while a job runs.
 */
import { parentPort } from 'node:worker_threads';
import { readlinkSync } from 'node:fs';
import { fsResourceLoader } from '../../node/fs.js';
import { runCommand, type FuzzJob } from '../commands.js';

export interface WorkerRequest extends FuzzJob {
  id: number;
  /** The folder the input's resources are read from. */
  dir: string;
}

export interface WorkerReply {
  id: number;
  cls: string;
  finding: boolean;
  message?: string;
  stack?: string;
}

let tid: number | undefined;
try {
  // "PID/task/TID"
  tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
} catch {
  tid = undefined;
}

const port = parentPort!;
port.on('message', async (req: WorkerRequest) => {
  const outcome = await runCommand(req, fsResourceLoader(req.dir));
  const reply: WorkerReply = { id: req.id, ...outcome, message: outcome.message?.slice(0, 2000), stack: outcome.stack?.slice(0, 4000) };
  port.postMessage(reply);
});
port.postMessage({ ready: true, tid });
