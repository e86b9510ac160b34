import { describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { SAMPLES } from '../helpers/paths.js';

describe('validate FILE...', () => {
  it('one line per file for a mix of good, bad, missing files and folders; exit 1', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-val-'));
    try {
      fs.copyFileSync(path.join(SAMPLES, 'cthg', 'fan.dat'), path.join(dir, 'fan.dat'));
      fs.writeFileSync(path.join(dir, 'empty'), '');
      // A folder is walked as check walks it: its sprite files validated, the others skipped quietly.
      fs.mkdirSync(path.join(dir, 'folder'));
      fs.copyFileSync(path.join(SAMPLES, 'cthg', 'fan.dat'), path.join(dir, 'folder', 'fan.dat'));
      fs.writeFileSync(path.join(dir, 'folder', 'notes.txt'), 'not a sprite');
      const files = ['fan.dat', 'empty', 'missing.isprite', 'folder'];
      const r = await runCli(['validate', ...files], dir);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe(
        'fan.dat: ok\n' +
          'empty: error: not a file of any format sprat knows (no known magic bytes or extension) (at byte 0)\n' +
          'missing.isprite: error: no such file\n' +
          `${path.join('folder', 'fan.dat')}: ok\n`,
      );
      expect(r.stderr).toBe('');
      const j = await runCli(['validate', '--json', ...files], dir);
      expect(j.code).toBe(1);
      const results = JSON.parse(j.stdout) as {
        file: string;
        format: string | null;
        valid: boolean;
        errors: string[];
        warnings: string[];
      }[];
      expect(results.map((x) => [x.file, x.format, x.valid, x.errors.length])).toEqual([
        ['fan.dat', 'cthg', true, 0],
        ['empty', 'unknown', false, 1],
        ['missing.isprite', null, false, 1],
        [path.join('folder', 'fan.dat'), 'cthg', true, 0],
      ]);
      expect(results.map((x) => Object.keys(x).join())).toEqual(Array(4).fill('file,format,valid,errors,warnings'));
      const ok = await runCli(['validate', 'fan.dat', 'fan.dat'], dir);
      expect([ok.code, ok.stdout]).toEqual([0, 'fan.dat: ok\nfan.dat: ok\n']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
