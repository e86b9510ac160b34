/** `sprat render --origin` (Solarus): the origin point of each frame marked with a magenta cross (issue 12). */
import { afterAll, describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
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
    for (const [x, y] of [[8, 13], [6, 13], [10, 13], [8, 11], [8, 15]]) expect(at(marked, x!, y!), `${x},${y}`).toEqual([255, 0, 255, 255]);
    expect(at(marked, 2, 2)).toEqual(at(plain, 2, 2));
  });

  it('does not apply to other formats', async () => {
    const r = await runCli(['render', path.join(SAMPLES, 'isprite/hero.isprite'), '--origin', '-o', path.join(out, 'x.png')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--origin does not apply to isprite files/);
  });
});
