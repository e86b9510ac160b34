/**
 * CorsixTH AnimationEncoder scripts: compiling the shared test script gives
 * what the real encoder wrote; decompiling every CTHG file of the corpus and
 * samples and compiling the result gives its bytes again.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, existsSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CORPUS, SAMPLES } from '../../helpers/paths.js';
import { runCli } from '../../helpers/cli.js';

const TEST_DIR = path.join(CORPUS, 'cthg', 'encoder-test');
const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'sprat-cthg-script-'));

describe('compiling the shared test script', () => {
  it('gives exactly gen_anims.dat, with a note on the sounds the encoder drops', async () => {
    const dir = tmp();
    const out = path.join(dir, 'out.dat');
    const r = await runCli(['convert', path.join(TEST_DIR, 'anims.txt'), out]);
    expect(r.stderr).toContain('2 frame sounds are written as 0');
    expect(r.code).toBe(0);
    expect(new Uint8Array(readFileSync(out))).toEqual(new Uint8Array(readFileSync(path.join(TEST_DIR, 'gen_anims.dat'))));
  });

  it('--fix-sounds keeps them', async () => {
    const dir = tmp();
    const out = path.join(dir, 'out.dat');
    const r = await runCli(['convert', path.join(TEST_DIR, 'anims.txt'), out, '--fix-sounds']);
    expect(r.code).toBe(0);
    const j = JSON.parse((await runCli(['inspect', out, '--json'])).stdout);
    expect(j.frames.map((f: { sound: number }) => f.sound).filter((s: number) => s)).toEqual([3, 9]);
  });
});

const CTHG_FILES = [
  path.join(CORPUS, 'cthg', 'plant_anim.dat'),
  path.join(TEST_DIR, 'gen_anims.dat'),
  ...readdirSync(path.join(SAMPLES, 'cthg'))
    .filter((f) => f.endsWith('.dat'))
    .map((f) => path.join(SAMPLES, 'cthg', f)),
];

describe('decompile, then compile: the same bytes', () => {
  for (const file of CTHG_FILES) {
    it(path.relative(path.dirname(path.dirname(file)), file), async () => {
      const dir = tmp();
      const script = path.join(dir, 'anim.txt');
      const r = await runCli(['convert', file, script]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('wrote ');
      expect(existsSync(path.join(dir, 'anim-0.png'))).toBe(true);
      // The header's "// sprat: compile" line carries the options that give the bytes back (--fix-sounds, --keep-sprites).
      const header = readFileSync(script, 'utf8').split('\n').slice(0, 2);
      expect(header[0]).toBe('// decompiled by sprat; compile with: sprat convert anim.txt anim.dat');
      expect(header[1]).toMatch(/^\/\/ sprat: compile( --[a-z-]+)*$/);
      // No option on the command line: the same bytes.
      const back = path.join(dir, 'back.dat');
      const c = await runCli(['convert', script, back]);
      expect(c.code, c.stderr).toBe(0);
      expect(c.stderr).toBe('');
      expect(new Uint8Array(readFileSync(back))).toEqual(new Uint8Array(readFileSync(file)));
    });
  }
});
