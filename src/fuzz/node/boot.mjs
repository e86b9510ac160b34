// Worker bootstrap when the fuzzer runs from the TypeScript sources (tests,
// `npm run fuzz`): registers tsx in this thread, then loads the real worker.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
