import { describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { reportError } from '../../src/cli/io.js';
import { runCli } from '../helpers/cli.js';
import { CORPUS } from '../helpers/paths.js';

describe('limits', () => {
  it('a --scale that would make a gigantic picture is a clean error, not an internal one', async () => {
    const level = path.join(CORPUS, 'spritetile', 'space-soldier-tiletesting-51a81b4.bytes');
    if (!fs.existsSync(level)) return;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-lim-'));
    try {
      const r = await runCli(['render', level, '--scale', '64', '-o', 'big.png'], dir);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        /^sprat: error: [^\n]*tiletesting[^\n]*: --scale 64 would make 102400x102400 pixels, more than the limit of 256 megapixels\n$/,
      );
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an allocation that fails is one line, "too large", exit 1', () => {
    let err = '';
    const io = { out: () => {}, err: (t: string) => (err += t), cwd: '.', debug: false };
    let e: unknown;
    try {
      new Uint8Array(2 ** 40);
    } catch (x) {
      e = x;
    }
    expect(e).toBeInstanceOf(RangeError);
    expect(reportError(io, e, 'f.bytes')).toBe(1);
    expect(err).toMatch(/^sprat: error: f\.bytes: the result is too large to make \([^\n]*\)\n$/);
  });
});
