/**
 * One fuzzing worker thread: runs jobs (one command on one input) as they
 * come and answers each with its outcome (src/node/pool.ts serveJobs).
 */
import { fsResourceLoader } from '../../node/fs.js';
import { serveJobs } from '../../node/pool.js';
import { useNodeZlib } from '../../node/zlib.js';
import { runCommand, type FuzzJob } from '../commands.js';

// PNG and APNG written with node's zlib, as the command line writes them (src/cli/main.ts): the CPU a
// command costs is the command line's.
useNodeZlib();

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

serveJobs<WorkerRequest, WorkerReply>(async (req) => {
  const outcome = await runCommand(req, fsResourceLoader(req.dir));
  return { id: req.id, ...outcome, message: outcome.message?.slice(0, 2000), stack: outcome.stack?.slice(0, 4000) };
});
