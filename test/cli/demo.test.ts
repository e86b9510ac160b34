import { describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { decodePng } from '../../src/render/png.js';
import { runCli } from '../helpers/cli.js';
import { demoScale } from '../../src/cli/demo.js';

describe('sprat demo', () => {
  it('runs from any working folder and writes into ./out there', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-demo-'));
    try {
      const r = await runCli(['demo'], dir);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      // Progress first, then the table, where the renders are, and what to do next.
      expect(r.stdout).toMatch(/^\[1\/\d+\] spritetile\/level\.bytes \(1 render\)\n/);
      expect(r.stdout).toMatch(
        /renders in out\/ \(open out\/index\.html to see them all\)\nnext: sprat view \S*samples +\(every sample, live in the browser\)\n$/,
      );
      const written = fs.readdirSync(path.join(dir, 'out'));
      expect(written).toContain('isprite-hero-walk.gif');
      // The contact sheet shows every render with its caption.
      const index = fs.readFileSync(path.join(dir, 'out', 'index.html'), 'utf8');
      for (const f of written.filter((f) => f !== 'index.html')) expect(index, f).toContain(`<img src="${f}"`);
      expect(index).toContain('--animation walk');
      // Pictures at a readable scale: the longer side at least 128 px.
      for (const f of written.filter((f) => f.endsWith('.png'))) {
        const png = decodePng(fs.readFileSync(path.join(dir, 'out', f)));
        expect(Math.max(png.width, png.height), f).toBeGreaterThanOrEqual(128);
      }
      // A second run replaces what the first wrote (its index.html says demo wrote the folder).
      const again = await runCli(['demo'], dir);
      expect([again.code, again.stderr]).toEqual([0, '']);
      expect(fs.readdirSync(path.join(dir, 'out')).sort()).toEqual([...written].sort());
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('never replaces a file it did not write, unless --overwrite', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-demo-'));
    try {
      // Someone else's index.html: nothing is written at all.
      fs.mkdirSync(path.join(dir, 'out'));
      fs.writeFileSync(path.join(dir, 'out', 'index.html'), '<p>my page</p>');
      let r = await runCli(['demo'], dir);
      expect([r.code, r.stdout, r.stderr]).toEqual([
        1,
        '',
        'sprat: error: out/index.html: already exists and was not written by sprat demo; nothing was written (--overwrite replaces it, or choose --out DIR)\n',
      ]);
      expect(fs.readdirSync(path.join(dir, 'out'))).toEqual(['index.html']);
      expect(fs.readFileSync(path.join(dir, 'out', 'index.html'), 'utf8')).toBe('<p>my page</p>');
      // A file named as a render in a folder no demo wrote: that render is refused, the others written.
      fs.mkdirSync(path.join(dir, 'mine'));
      fs.writeFileSync(path.join(dir, 'mine', 'isprite-hero-walk.gif'), 'my gif');
      r = await runCli(['demo', '--out', 'mine'], dir);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        'sprat: error: mine/isprite-hero-walk.gif: already exists and is not the output named; nothing was written (--overwrite replaces it)\n',
      );
      expect(fs.readFileSync(path.join(dir, 'mine', 'isprite-hero-walk.gif'), 'utf8')).toBe('my gif');
      expect(fs.existsSync(path.join(dir, 'mine', 'index.html'))).toBe(true);
      // --overwrite replaces them.
      r = await runCli(['demo', '--overwrite'], dir);
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(fs.readFileSync(path.join(dir, 'out', 'index.html'), 'utf8')).toContain('<title>sprat demo</title>');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('enlarges small pictures to about 128 px, by at most 8x', () => {
    expect(demoScale(16, 16)).toBe(8);
    expect(demoScale(16, 40)).toBe(4);
    expect(demoScale(100, 20)).toBe(2);
    expect(demoScale(300, 200)).toBe(1);
    expect(demoScale(1, 1)).toBe(8);
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
