/**
 * A worker thread of a batch command (src/cli/batch.ts): runs one file's
 * job, or a chunk of them, at a time (batch-job.ts) through the same
 * command-line code as the main thread (loaded with the first convert or
 * render job; `check` needs only the library).
 */
import { serveJobs } from '../node/pool.js';
import { useNodeZlib } from '../node/zlib.js';
import { internalErrorReply, runBatchJob, type BatchJob, type BatchReply, type WireJob, type WireReply } from './batch-job.js';

// As the main thread (main.ts): node's zlib for PNG reading and writing, in this thread too.
useNodeZlib();

let commandLine: Promise<unknown> | undefined;

/** One job's reply, or its failure as its reply (a bug: one line, never the other files' end). */
async function one(job: BatchJob): Promise<BatchReply> {
  try {
    // The command line (every command) only for convert and render: a check worker starts on the library alone.
    if (job.kind === 'file') await (commandLine ??= import('./main.js'));
    return await runBatchJob(job);
  } catch (e) {
    return internalErrorReply(job, e);
  }
}

serveJobs<WireJob, WireReply>(async (job) => {
  // A chunk of files in one message: a file costs its work, not a round trip through the main thread.
  if (job.kind === 'chunk') {
    const replies: BatchReply[] = [];
    for (const j of job.jobs) replies.push(await one(j));
    return { kind: 'chunk', replies };
  }
  return one(job);
});
