import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { CORPUS, SAMPLES } from '../helpers/paths.js';
import { decodePng } from '../../src/render/png.js';

const PLANT = path.join(CORPUS, 'cthg', 'plant_anim.dat');
const FAN = path.join(SAMPLES, 'cthg', 'fan.dat');

describe('sprat with CTHG files', () => {
  it('inspect --json prints the contract shape', async () => {
    const r = await runCli(['inspect', PLANT, '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const j = JSON.parse(r.stdout);
    expect(j.format).toBe('cthg');
    expect(j.blockOrder).toBe('SFASFASFASFASFA');
    expect(j.animations.map((a: any) => a.name)).toEqual([
      'plant_dead',
      'plant_drooping1',
      'plant_drooping2',
      'plant_dying',
      'plant_healthy',
    ]);
  });

  it('inspect without --json is readable', async () => {
    const r = await runCli(['inspect', FAN]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /desk_fan \(tile size 64, 4 frames per view\): north frames 0-3, east frames 4-7, south frames 8-11, west frames 12-15/,
    );
  });

  it('validate says ok', async () => {
    const r = await runCli(['validate', PLANT, FAN]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/plant_anim\.dat: ok/);
  });

  it('play --json prints one record per tick', async () => {
    const r = await runCli(['play', FAN, '--animation', 'desk_fan', '--view', 'south', '--ticks', '6', '--json']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      '[\n' +
        [
          { tick: 0, frame: 8, sound: 7 },
          { tick: 1, frame: 9, sound: 0 },
          { tick: 2, frame: 10, sound: 0 },
          { tick: 3, frame: 11, sound: 0 },
          { tick: 4, frame: 8, sound: 7 },
          { tick: 5, frame: 9, sound: 0 },
        ]
          .map((x) => '  ' + JSON.stringify(x))
          .join(',\n') +
        '\n]\n',
    );
  });

  it('play with a bad view or animation is a usage error', async () => {
    expect((await runCli(['play', FAN, '--view', 'up', '--json'])).code).toBe(2);
    const r = await runCli(['play', PLANT, '--animation', 'nope', '--json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/option --animation "nope" names no animation \(the file has: /);
  });

  it('render --sprite and --animation write PNGs', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sprat-cthg-'));
    try {
      const a = path.join(dir, 's.png');
      expect((await runCli(['render', PLANT, '--sprite', '0', '-o', a])).code).toBe(0);
      expect(decodePng(new Uint8Array(readFileSync(a)))).toMatchObject({ width: 31, height: 30 });
      const b = path.join(dir, 'f.png');
      const r = await runCli(['render', FAN, '--animation', 'desk_fan', '--view', 'west', '--frame', '2', '--layers', '1=2', '-o', b]);
      expect(r.code, r.stderr).toBe(0);
      expect(decodePng(new Uint8Array(readFileSync(b)))).toMatchObject({ width: 22, height: 40 });
      const c = path.join(dir, 'r.png');
      expect(
        (await runCli(['render', FAN, '--frame', '0', '--recolour', `1=${path.join(SAMPLES, 'cthg', 'fan_palette.png')}`, '-o', c])).code,
      ).toBe(0);
      const bad = await runCli(['render', PLANT, '--sprite', '9', '-o', path.join(dir, 'x.png')]);
      expect(bad.code).toBe(2);
      const flip = await runCli(['render', PLANT, '--flip-convention', 'sideways', '-o', path.join(dir, 'x.png')]);
      expect(flip.code).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('convert re-encodes to the same bytes', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sprat-cthg-'));
    try {
      const out = path.join(dir, 'copy.dat');
      const r = await runCli(['convert', PLANT, out]);
      expect(r.code, r.stderr).toBe(0);
      expect(new Uint8Array(readFileSync(out))).toEqual(new Uint8Array(readFileSync(PLANT)));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
