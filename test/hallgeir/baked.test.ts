/**
 * A Hallgeir sprite made from frames that name no texture of their own (a
 * native .aseprite's cels, trimmed sheet frames): the frames are drawn into a
 * new texture STEM.png beside the sprite, in cells of one frame size
 * (src/formats/hallgeir/convert.ts), and the trip plays the same.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { roundTrip } from '../../src/matrix.js';
import { fsResourceLoader } from '../../src/node/fs.js';
import { runCli } from '../helpers/cli.js';
import { CORPUS, SAMPLES } from '../helpers/paths.js';

const ASE = path.join(CORPUS, 'interop/viniciusgerevini+godot-aseprite-wizard/test/sample_test_file.aseprite');
const TRIMMED = path.join(CORPUS, 'interop/pixijs+particle-emitter/docs/examples/images');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-hallgeir-baked-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('-> hallgeir-sprite from frames with no texture of their own', () => {
  it('a native .aseprite: writes STEM.png beside the sprite, says the frame size, and never replaces an existing file', async () => {
    fs.copyFileSync(ASE, path.join(tmp, 's.aseprite'));
    const r = await runCli(['convert', 's.aseprite', 's.spr'], tmp);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('wrote s.spr\nwrote s.png\n');
    expect(r.stderr).toContain(
      'note: hallgeir-sprite: the frames were drawn into a new texture beside the sprite, named after it (.png), in frames of 11x11: read the sprite with --frame-size 11x11',
    );
    const inspect = await runCli(['inspect', 's.spr', '--json'], tmp);
    expect(JSON.parse(inspect.stdout).texture).toBe('s.png');
    // Again: s.png is there now and is not the output named.
    const again = await runCli(['convert', 's.aseprite', 's.spr', '--overwrite'], tmp);
    expect(again.code).toBe(0);
    fs.rmSync(path.join(tmp, 's.png'));
    fs.writeFileSync(path.join(tmp, 's.png'), 'mine');
    const refused = await runCli(['convert', 's.aseprite', 's.spr'], tmp);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/s\.png: already exists and is not the output named; nothing was written/);
    expect(fs.readFileSync(path.join(tmp, 's.png'), 'utf8')).toBe('mine');
  });

  it('a native .aseprite comes back (as Aseprite JSON) with every frame the same', async () => {
    const cell = await roundTrip(
      {
        bytes: new Uint8Array(fs.readFileSync(ASE)),
        name: 's.aseprite',
        resources: fsResourceLoader(path.dirname(ASE)),
        dir: path.dirname(ASE),
      },
      'hallgeir-sprite',
    );
    expect(cell.status).not.toBe('error');
    if (cell.status === 'lossy') {
      // Only the stopping tags' last frames, which a Hallgeir sprite holds (said by a note).
      expect(cell.losses.map((l) => l.kind)).toEqual(['duration']);
      expect(cell.losses[0]!.note).toMatch(/the last frame of an animation that stops holds forever/);
    }
  });

  it('a trimmed TexturePacker sheet: each frame untrimmed to its canvas; the origin at the centre moves to the corner, said once', async () => {
    const cell = await roundTrip(
      {
        bytes: new Uint8Array(fs.readFileSync(path.join(TRIMMED, 'pop_anim.json'))),
        name: 'pop_anim.json',
        resources: fsResourceLoader(TRIMMED),
        dir: TRIMMED,
      },
      'hallgeir-sprite',
    );
    expect(cell.status).toBe('lossy');
    if (cell.status !== 'lossy') return;
    expect(cell.losses.map((l) => [l.kind, l.note])).toEqual([
      [
        'pixels',
        'hallgeir-sprite: a frame is drawn from its upper-left corner; the sprite origin moved there, 50,50 pixels up and left of where it was: "pop_anim"',
      ],
    ]);
    expect(cell.notes).toContain(
      'hallgeir-sprite: the frames were drawn into a new texture beside the sprite, named after it (.png), in frames of 100x100: read the sprite with --frame-size 100x100',
    );
  });

  it('hallgeir-sprite -> CTHG -> back: the frames come back drawn into the new texture; only the view CTHG adds changes, said once', async () => {
    const dir = path.join(SAMPLES, 'hallgeir');
    const cell = await roundTrip(
      {
        bytes: new Uint8Array(fs.readFileSync(path.join(dir, 'hero.spr'))),
        name: 'hero.spr',
        options: { 'frame-size': '16x16' },
        resources: fsResourceLoader(dir),
        dir,
      },
      'cthg',
    );
    expect(cell.status).toBe('lossy');
    if (cell.status !== 'lossy') return;
    expect(cell.losses.map((l) => l.kind)).toEqual(['added', 'removed']);
    for (const l of cell.losses)
      expect(l.note).toMatch(/^cthg: animations with no view are written as view north|^hallgeir-sprite: a sprite has no directions/);
    expect(cell.notes.some((n) => n.startsWith('hallgeir-sprite: the frames were drawn into a new texture'))).toBe(true);
  });
});
