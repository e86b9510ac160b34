/** `sprat render --origin`: the origin point of each frame marked with a magenta cross. */
import { afterAll, describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { load, render } from '../../src/api.js';
import type { CommandOptions } from '../../src/formats/types.js';
import { fsResourceLoader } from '../../src/node/fs.js';
import type { DrawnPicture } from '../../src/render/pipeline.js';
import { decodePng } from '../../src/render/png.js';
import { runCli } from '../helpers/cli.js';
import { SAMPLES } from '../helpers/paths.js';

const out = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-origin-'));
afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

describe('render --origin', () => {
  it('marks the Solarus origin (8, 13 in the slime) and leaves the rest of the frame as it was', async () => {
    const slime = path.join(SAMPLES, 'solarus/sprites/slime.dat');
    const plainFile = path.join(out, 'plain.png');
    const markedFile = path.join(out, 'marked.png');
    const args = ['render', slime, '--animation', 'walking', '--direction', '3', '--frame', '0'];
    expect((await runCli([...args, '-o', plainFile])).code).toBe(0);
    const r = await runCli([...args, '--origin', '-o', markedFile]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const plain = decodePng(fs.readFileSync(plainFile));
    const marked = decodePng(fs.readFileSync(markedFile));
    expect([marked.width, marked.height]).toEqual([16, 16]);
    const at = (img: typeof plain, x: number, y: number) => [...img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4)];
    for (const [x, y] of [
      [8, 13],
      [6, 13],
      [10, 13],
      [8, 11],
      [8, 15],
    ])
      expect(at(marked, x!, y!), `${x},${y}`).toEqual([255, 0, 255, 255]);
    expect(at(marked, 2, 2)).toEqual(at(plain, 2, 2));
  });

  it('marks ISPRITE sprite space (0, 0) and the CTHG anchor, the canvas grown to hold the cross', async () => {
    const cases: [string, CommandOptions][] = [
      ['isprite/hero.isprite', { animation: 'walk', origin: true }],
      ['cthg/fan.dat', { animation: 'desk_fan', view: 'south', frame: '0', origin: true }],
    ];
    for (const [file, options] of cases) {
      const full = path.join(SAMPLES, file);
      const loaded = load(fs.readFileSync(full), path.basename(file));
      const r = (await render(loaded, options, fsResourceLoader(path.dirname(full)))) as DrawnPicture;
      const f = r.frames[0]!;
      const at = (x: number, y: number) => [...f.data.subarray((y * f.width + x) * 4, (y * f.width + x) * 4 + 4)];
      for (const [dx, dy] of [
        [0, 0],
        [-2, 0],
        [2, 0],
        [0, -2],
        [0, 2],
      ])
        expect(at(r.originX + dx!, r.originY + dy!), `${file} ${dx},${dy}`).toEqual([255, 0, 255, 255]);
    }
  });

  it('does not apply to other formats', async () => {
    const r = await runCli(['render', path.join(SAMPLES, 'hallgeir/level1.map'), '--origin', '-o', path.join(out, 'x.png')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--origin does not apply to hallgeir-map files/);
  });
});
