import { main } from '../../src/cli/main.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process with captured output. */
export async function runCli(argv: string[], cwd = process.cwd()): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    out: (t) => (stdout += t),
    err: (t) => (stderr += t),
    cwd,
    debug: argv.includes('--debug'),
  });
  return { code, stdout, stderr };
}
