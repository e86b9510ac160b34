import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { SAMPLES } from '../helpers/paths.js';
import { decodePng } from '../../src/render/png.js';

describe('converting another format to ISPRITE', () => {
  it('writes the sheets it brings along as one packed texture beside the sprite, and renders the same', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sprat-toisprite-'));
    const r = await runCli(['convert', path.join(SAMPLES, 'cthg', 'fan.dat'), 'fan.isprite'], dir);
    expect(r.code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['fan.isprite', 'fan.png']);
    expect((await runCli(['validate', 'fan.isprite'], dir)).code).toBe(0);
    expect((await runCli(['render', 'fan.isprite', '--animation', 'Root/desk_fan/south', '--frame', '0', '-o', 'a.png'], dir)).code).toBe(
      0,
    );
    expect(
      (
        await runCli(
          ['render', path.join(SAMPLES, 'cthg', 'fan.dat'), '--animation', 'desk_fan', '--view', 'south', '--frame', '0', '-o', 'b.png'],
          dir,
        )
      ).code,
    ).toBe(0);
    const a = decodePng(new Uint8Array(readFileSync(path.join(dir, 'a.png'))));
    const b = decodePng(new Uint8Array(readFileSync(path.join(dir, 'b.png'))));
    expect([a.width, a.height]).toEqual([b.width, b.height]);
    expect(Buffer.from(a.data).equals(Buffer.from(b.data))).toBe(true);
    // And back to CTHG: the same animation with its four views.
    expect((await runCli(['convert', 'fan.isprite', 'back.dat', '--to', 'cthg'], dir)).code).toBe(0);
    const back = await runCli(['inspect', '--json', 'back.dat'], dir);
    const json = JSON.parse(back.stdout) as { animations: { name: string; views: Record<string, number | null> }[] };
    expect(json.animations.map((x) => x.name)).toEqual(['desk_fan']);
    expect(Object.values(json.animations[0]!.views).every((v) => v !== null)).toBe(true);
  });

  it('re-encoding an ISPRITE file writes that file alone, byte for byte', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sprat-isprite-same-'));
    expect((await runCli(['convert', path.join(SAMPLES, 'isprite', 'hero.isprite'), 'same.isprite'], dir)).code).toBe(0);
    expect(readdirSync(dir)).toEqual(['same.isprite']);
    expect(readFileSync(path.join(dir, 'same.isprite')).equals(readFileSync(path.join(SAMPLES, 'isprite', 'hero.isprite')))).toBe(true);
  });
});
