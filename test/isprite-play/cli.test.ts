import { describe, expect, it } from 'vitest';
import * as path from 'node:path';
import { mkdtempSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import { runCli } from '../helpers/cli.js';
import { SAMPLES } from '../helpers/paths.js';
import { decodePng } from '../../src/render/png.js';

const HERO = path.join(SAMPLES, 'isprite', 'hero.isprite');

describe('sprat play on an ISPRITE file', () => {
  it('prints the contract records, with script commands applied before each record', async () => {
    const r = await runCli(['play', HERO, '--ticks', '4', '--json', '--script', '1:group Root/Armed;1:play attack']);
    expect(r.code).toBe(0);
    const records = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(records).toHaveLength(4);
    for (const rec of records) expect(Object.keys(rec)).toEqual(['tick', 'sequence', 'position', 'frame', 'triggers', 'stopped']);
    expect(records[0]).toEqual({ tick: 0, sequence: 'Root/idle', position: 0, frame: 0, triggers: [], stopped: false });
    expect(records[1]).toMatchObject({ tick: 1, sequence: 'Root/Armed/attack', position: 0 });
    expect(records.flatMap((x) => x.triggers as string[])).toContain('swing');
  });

  it('a bad script is a command-line error (exit 2, one line)', async () => {
    const r = await runCli(['play', HERO, '--ticks', '2', '--script', 'nonsense']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^sprat: error: /);
  });

  it('a group that does not exist warns and plays on', async () => {
    const r = await runCli(['play', HERO, '--ticks', '2', '--json', '--script', '0:group Root/Nope']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: .*Root\/Nope/);
    expect(JSON.parse(r.stdout)).toHaveLength(2);
  });
});

describe('sprat render on an ISPRITE file', () => {
  it('draws a frame, and a whole sequence as GIF and APNG', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sprat-isprite-'));
    const png = path.join(dir, 'f.png');
    expect((await runCli(['render', HERO, '--animation', 'walk', '--frame', '0', '-o', png])).code).toBe(0);
    const img = decodePng(new Uint8Array(readFileSync(png)));
    expect(img.width).toBeGreaterThan(4);
    expect(img.data.some((v, i) => i % 4 === 3 && v === 255)).toBe(true);
    for (const ext of ['gif', 'apng']) {
      const out = path.join(dir, `walk.${ext}`);
      expect((await runCli(['render', HERO, '--animation', 'Root/walk', '-o', out])).code).toBe(0);
      expect(readFileSync(out).length).toBeGreaterThan(50);
    }
    // A bare name finds the sequence anywhere in the tree.
    const attack = path.join(dir, 'attack.png');
    expect((await runCli(['render', HERO, '--animation', 'ATTACK', '--frame', '1', '-o', attack])).code).toBe(0);
    const idle = path.join(dir, 'idle.png');
    expect((await runCli(['render', HERO, '--animation', 'idle', '--frame', '1', '-o', idle])).code).toBe(0);
    expect(readFileSync(attack).equals(readFileSync(idle))).toBe(false);
    const bad = await runCli(['render', HERO, '--animation', 'nope', '-o', png]);
    expect(bad.code).toBe(2);
  });
});
