/**
 * The entry point the hostile sweep runs in each child process (bundled with
 * esbuild from the sources by sweep.test.ts): the real command line, plus its
 * resource use written to $SPRAT_SWEEP_USAGE when it ends.
 */
import { writeFileSync } from 'node:fs';
import { main } from '../../src/cli/main.js';

const usage = process.env.SPRAT_SWEEP_USAGE;
if (usage) process.on('exit', () => writeFileSync(usage, JSON.stringify(process.resourceUsage())));
main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
