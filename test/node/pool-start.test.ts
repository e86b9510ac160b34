/**
 * A pool whose worker module cannot start gives up after a few tries (src/node/pool.ts START_TRIES):
 * every job gets why, instead of the pool starting workers for ever (a batch then still prints
 * each file's error and its summary).
 */
import { describe, expect, it } from 'vitest';
import { ThreadPool } from '../../src/node/pool.js';

describe('ThreadPool', () => {
  it('fails its jobs when the worker module is missing, without respawning for ever', async () => {
    const pool = new ThreadPool<number, number>({ url: new URL('./no-such-worker.mjs', import.meta.url) }, { jobs: 2 });
    const results = await Promise.all([pool.run(1), pool.run(2), pool.run(3)]);
    for (const r of results) {
      expect(r.reply).toBeUndefined();
      expect(r.stopped?.cls).toBe('worker-start');
      expect(r.stopped?.message).toMatch(/^the worker thread could not start: /);
    }
    // later jobs fail at once
    expect((await pool.run(4)).stopped?.cls).toBe('worker-start');
    await pool.close();
  });
});
