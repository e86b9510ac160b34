// Worker bootstrap when sprat runs from its TypeScript sources (tests,
// `npm run fuzz`, tsx): registers tsx in this thread, then loads the real
// worker module (src/node/pool.ts workerModule).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
