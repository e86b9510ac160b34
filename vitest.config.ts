import { defineConfig } from 'vitest/config';

/**
 * Three tiers. `npm test` runs `fast` (the library, the CLI in-process, every codec's round trips and
 * properties, the corpus); `npm run test:all` adds `browser` (Chromium: the viewer, PixiJS, Phaser)
 * and `tools` (real tools and whole-tree sweeps: the AnimationEncoder, the real-file collection, the
 * hostile and every-file sweeps, the packed tarball, the benchmark harness, Godot 3). CI runs them all.
 */
const BROWSER = [
  'test/web/**/*.test.ts',
  'test/interop/clients.test.ts',
  'test/interop/real-clients.test.ts',
  'test/interop/exports-clients.test.ts',
  'test/interop/atlas-clients.test.ts',
];
const TOOLS = [
  'test/formats/cthg-script/encoder.test.ts',
  'test/interop/real-collection.test.ts',
  'test/hostile/sweep.test.ts',
  'test/cli/sweep.test.ts',
  'test/meta/package.test.ts',
  'test/meta/bench.test.ts',
  'test/interop/godot3.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    pool: 'threads',
    // Vitest's default is one worker fewer than the cores: on a 2-core machine, one file at a time. Many files
    // wait on child processes and Chromium; the heavy ones judge CPU time, not wall time.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'fast', include: ['test/**/*.test.ts'], exclude: [...BROWSER, ...TOOLS] } },
      { extends: true, test: { name: 'browser', include: BROWSER } },
      { extends: true, test: { name: 'tools', include: TOOLS } },
    ],
  },
});
