import { describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../helpers/cli.js';

describe('sprat demo', () => {
  it('runs from any working folder and writes into ./out there', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-demo-'));
    try {
      const r = await runCli(['demo'], dir);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/renders in out\/\n$/);
      expect(fs.readdirSync(path.join(dir, 'out'))).toContain('isprite-hero-walk.gif');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--out naming a file, or a path through a file, is one clean error line', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-demo-'));
    try {
      fs.writeFileSync(path.join(dir, 'plain'), 'x');
      let r = await runCli(['demo', '--out', 'plain'], dir);
      expect([r.code, r.stdout, r.stderr]).toEqual([1, '', 'sprat: error: plain: is a file, not a folder\n']);
      r = await runCli(['demo', '--out', 'plain/sub'], dir);
      expect([r.code, r.stdout, r.stderr]).toEqual([1, '', 'sprat: error: plain/sub: a part of the path is not a folder\n']);
      expect(fs.readFileSync(path.join(dir, 'plain'), 'utf8')).toBe('x');
      r = await runCli(['demo', 'extra'], dir);
      expect(r.code).toBe(2);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
