/**
 * An unexpected exception (a bug) anywhere in a command is one line on
 * stderr, `sprat: internal error: MESSAGE (run with --debug for the stack)`,
 * and exit 70 (EX_SOFTWARE of sysexits.h); --debug adds the stack; never the
 * source text Node's own report quotes. Provoked here from outside the
 * shipped code: a handler's method replaced in-process (vi.spyOn), and for
 * the built binary a module preloaded into the child (`node -r`) that breaks
 * a Node function the command calls, or throws from a timer nothing awaits.
 *
 * The binary tests run the build in dist/ (`npm run build`; `npm install`
 * builds it through `prepare`).
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { formatByName } from '../../src/api.js';
import { internalErrorText } from '../../src/cli/io.js';
import { runCli } from '../helpers/cli.js';
import { ROOT, SAMPLES } from '../helpers/paths.js';

const FAN = path.join(SAMPLES, 'cthg', 'fan.dat');
const HINT = ' (run with --debug for the stack)';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-internal-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
afterEach(() => {
  vi.restoreAllMocks();
});

/** The handler method `name` of CTHG throws `thrown` (a bug in sprat, as far as the command line can tell). */
function breakCthg(name: 'read' | 'inspectText' | 'inspectJson' | 'validate' | 'picture' | 'write', thrown: unknown) {
  vi.spyOn(formatByName('cthg'), name).mockImplementation(() => {
    throw thrown;
  });
}

/** No stack frame, no line of the bundle or of the source: only `lines` lines, each short. */
function clean(stderr: string, lines = 1) {
  const all = stderr.split('\n');
  expect(all.at(-1)).toBe('');
  expect(all.length - 1, stderr).toBe(lines);
  for (const l of all) {
    expect(l).not.toMatch(/^\s+at /);
    expect(l.length).toBeLessThanOrEqual(400);
  }
}

describe('an internal error, in-process', () => {
  it('is one line with the file, the error class and its message escaped, and exit 70', async () => {
    breakCthg('inspectText', new TypeError('boom\nsecond line'));
    const r = await runCli(['inspect', FAN]);
    expect([r.code, r.stdout, r.stderr]).toEqual([70, '', `sprat: internal error: ${FAN}: TypeError: boom\\nsecond line${HINT}\n`]);
  });

  it('--debug: the line, then the stack', async () => {
    breakCthg('inspectText', new TypeError('boom'));
    const r = await runCli(['inspect', FAN, '--debug']);
    expect(r.code).toBe(70);
    const [first, second, ...frames] = r.stderr.split('\n');
    expect(first).toBe(`sprat: internal error: ${FAN}: TypeError: boom`);
    expect(second).toBe('TypeError: boom');
    expect(frames.some((l) => /^\s+at /.test(l))).toBe(true);
  });

  it('whatever is thrown: a string, an object whose message cannot be read, a very long message', async () => {
    breakCthg('inspectText', 'a string');
    expect((await runCli(['inspect', FAN])).stderr).toBe(`sprat: internal error: ${FAN}: a string${HINT}\n`);
    vi.restoreAllMocks();
    const hostile = {
      get message(): string {
        throw new Error('no');
      },
    };
    breakCthg('inspectText', hostile);
    const h = await runCli(['inspect', FAN]);
    expect([h.code, h.stderr]).toEqual([70, `sprat: internal error: ${FAN}: an exception that cannot be shown${HINT}\n`]);
    vi.restoreAllMocks();
    breakCthg('inspectText', new Error('x'.repeat(10_000)));
    const long = await runCli(['inspect', FAN]);
    expect(long.code).toBe(70);
    clean(long.stderr);
    expect(long.stderr).toMatch(/x\.\.\. \(run with --debug for the stack\)\n$/);
  });

  it('every command: inspect --json, validate, render, convert', async () => {
    breakCthg('inspectJson', new RangeError('inspect --json'));
    const j = await runCli(['inspect', '--json', FAN]);
    expect([j.code, j.stdout, j.stderr]).toEqual([70, '', `sprat: internal error: ${FAN}: RangeError: inspect --json${HINT}\n`]);
    breakCthg('validate', new Error('validate'));
    const v = await runCli(['validate', FAN]);
    expect([v.code, v.stderr]).toEqual([70, `sprat: internal error: validate${HINT}\n`]);
    breakCthg('picture', new Error('render'));
    const r = await runCli(['render', FAN, '-o', path.join(tmp, 'fan.png')]);
    expect([r.code, r.stderr]).toEqual([70, `sprat: internal error: ${FAN}: render${HINT}\n`]);
    expect(fs.existsSync(path.join(tmp, 'fan.png'))).toBe(false);
    breakCthg('write', new Error('convert'));
    const outDir = fs.mkdtempSync(path.join(tmp, 'convert-'));
    const c = await runCli(['convert', FAN, path.join(outDir, 'copy.dat'), '--to', 'cthg']);
    expect([c.code, c.stderr]).toEqual([70, `sprat: internal error: ${FAN}: convert${HINT}\n`]);
    expect(fs.readdirSync(outDir)).toEqual([]);
  });

  it('a batch: the file that failed gets the line and the summary counts it, exit 70', async () => {
    // A batch of one file runs in this thread (two or more run in workers, where a crash fails
    // its file alone: test/cli/batch-workers.test.ts), so the broken handler is the one used.
    const dir = path.join(tmp, 'batch');
    fs.mkdirSync(dir);
    fs.copyFileSync(FAN, path.join(dir, 'fan.dat'));
    breakCthg('picture', new Error('render'));
    const out = path.join(tmp, 'renders');
    const r = await runCli(['render', 'batch', '-o', 'renders'], tmp);
    expect(r.code).toBe(70);
    expect(r.stderr).toContain(`sprat: internal error: batch/fan.dat: render${HINT}\n`);
    expect(r.stdout).toMatch(/0 written, 0 unchanged, 1 failed/);
    fs.rmSync(dir, { recursive: true });
    fs.rmSync(out, { recursive: true, force: true });
  });

  it('diff of two folders: the pair that failed is an error entry, exit 70', async () => {
    for (const d of ['a', 'b']) {
      fs.mkdirSync(path.join(tmp, d));
      fs.copyFileSync(FAN, path.join(tmp, d, 'fan.dat'));
    }
    breakCthg('read', new Error('diff'));
    const r = await runCli(['diff', 'a', 'b', '--json'], tmp);
    expect(r.code).toBe(70);
    expect(r.stderr).toMatch(/^sprat: internal error: .*diff \(run with --debug for the stack\)\n$/);
    expect(JSON.parse(r.stdout).files[0].error).toMatch(/^internal error: /);
    for (const d of ['a', 'b']) fs.rmSync(path.join(tmp, d), { recursive: true });
  });

  it('internalErrorText: one line whatever the message holds', () => {
    expect(internalErrorText(new Error('a\r\nb\u0000c\u2028'), false, 'x\ny')).toBe(
      `sprat: internal error: x\\ny: a\\r\\nb\\x00c\\u2028${HINT}\n`,
    );
  });
});

/** `node [-r PRELOAD] bin/sprat.js ARGS`: its exit status and output. */
function sprat(args: string[], preload?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const pre = preload ? ['-r', path.join(tmp, `${preload}.cjs`)] : [];
  const child = spawn(process.execPath, [...pre, path.join(ROOT, 'bin', 'sprat.js'), ...args], {
    cwd: tmp,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('an internal error, through the built binary (bin/sprat.js and the bundle)', () => {
  const preloads: Record<string, string> = {
    // A Node function the command calls fails in a way no input can make it (a TypeError without a code).
    'broken-open': "require('node:fs').promises.open = async () => { throw new TypeError('open is broken\\nsecond line'); };",
    // Something nothing awaits: an exception from a timer, a promise rejected with no handler.
    'stray-exception': "setTimeout(() => { throw new RangeError('a stray exception'); }, 0);",
    'stray-rejection': "setImmediate(() => Promise.reject(new Error('a stray rejection')));",
  };
  for (const [name, text] of Object.entries(preloads)) fs.writeFileSync(path.join(tmp, `${name}.cjs`), text);

  it('the build is there (npm run build)', () => {
    expect(fs.existsSync(path.join(ROOT, 'dist', 'cli', 'sprat.cjs'))).toBe(true);
  });

  it('a failing library call: one line, exit 70; --debug adds the stack', async () => {
    const r = await sprat(['inspect', FAN], 'broken-open');
    expect([r.code, r.stdout, r.stderr]).toEqual([
      70,
      '',
      `sprat: internal error: ${FAN}: TypeError: open is broken\\nsecond line${HINT}\n`,
    ]);
    const d = await sprat(['inspect', FAN, '--debug'], 'broken-open');
    expect(d.code).toBe(70);
    expect(d.stderr.split('\n')[0]).toBe(`sprat: internal error: ${FAN}: TypeError: open is broken\\nsecond line`);
    expect(d.stderr).toMatch(/\n\s+at /);
  }, 30_000);

  it("an uncaught exception and an unhandled rejection: the process's own guard, one line, exit 70", async () => {
    for (const [preload, message] of [
      ['stray-exception', 'RangeError: a stray exception'],
      ['stray-rejection', 'a stray rejection'],
    ] as const) {
      const r = await sprat(['inspect', FAN], preload);
      expect(r.code, preload).toBe(70);
      expect(r.stderr, preload).toBe(`sprat: internal error: ${message}${HINT}\n`);
    }
  }, 30_000);

  it('the Solarus sheet mixing a PNG and the tileset converts (it crashed with 10 KB of the bundle)', async () => {
    fs.writeFileSync(path.join(tmp, 's.dat'), 'a x.png 1 100 -1\n0 0 8 8 0 0 1 1\n\nb tileset 1 100 -1\n0 0 8 8 0 0 1 1\n');
    const r = await sprat(['convert', 's.dat', 'o.dat']);
    expect([r.code, r.stdout, r.stderr]).toEqual([0, 'wrote o.dat\n', '']);
  }, 30_000);

  it('errors of bad input stay exit 1, one line', async () => {
    const r = await sprat(['inspect', 'missing.dat']);
    expect(r.code).toBe(1);
    clean(r.stderr);
    expect(r.stderr).toMatch(/^sprat: error: missing\.dat: /);
  }, 30_000);
});
