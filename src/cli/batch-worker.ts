/**
 * A worker thread of a batch command (src/cli/batch.ts): runs one file's
 * job at a time (batch-job.ts) through the same command-line code as the
 * main thread.
 */
import './main.js';
import { serveJobs } from '../node/pool.js';
import { runBatchJob, type BatchJob, type BatchReply } from './batch-job.js';

serveJobs<BatchJob, BatchReply>(async (job) => {
  try {
    return await runBatchJob(job);
  } catch (e) {
    const message = `internal error: ${(e as Error)?.message ?? String(e)}`;
    if (job.kind === 'check')
      return { kind: 'check', report: { path: job.shown, format: null, problems: [{ severity: 'error', message }] } };
    return { kind: 'file', result: { status: 'failed', out: '', err: `sprat: error: ${job.input}: ${message}\n` } };
  }
});
