import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { SAMPLES } from '../helpers/paths.js';
import { tempTree } from '../helpers/tree.js';

const { dir: tmp, place } = tempTree('sprat-diff-playback-');
for (const f of ['isprite/hero.isprite', 'isprite/hero.png', 'cthg/fan.dat']) place(f, fs.readFileSync(path.join(SAMPLES, f)));

async function convert(from: string, to: string, format: string): Promise<void> {
  fs.mkdirSync(path.join(tmp, path.dirname(to)), { recursive: true });
  const r = await runCli(['convert', from, to, '--to', format], tmp);
  expect(r.code, r.stderr).toBe(0);
}

describe('sprat diff --playback', () => {
  it('an ISPRITE sprite against its Aseprite export: what the conversion changed in what plays, one line each', async () => {
    await convert('isprite/hero.isprite', 'out/hero.json', 'aseprite');
    const r = await runCli(['diff', 'isprite/hero.isprite', 'out/hero.json', '--playback'], tmp);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean)).toEqual([
      'animation Armed/attack: frame 0 duration 66.667 -> 67 ms',
      'animation Armed/attack: frame 1 duration 133.333 -> 133 ms',
    ]);
    const e = await runCli(['diff', 'isprite/hero.isprite', 'out/hero.json', '--playback', '--exit-code'], tmp);
    expect(e.code).toBe(1);
    const j = await runCli(['diff', 'isprite/hero.isprite', 'out/hero.json', '--playback', '--json'], tmp);
    expect(JSON.parse(j.stdout)).toEqual({
      a: 'isprite/hero.isprite',
      b: 'out/hero.json',
      same: false,
      formats: ['isprite', 'aseprite'],
      changes: [
        { kind: 'duration', animation: 'Armed/attack', frame: 0, from: 200 / 3, to: 67 },
        { kind: 'duration', animation: 'Armed/attack', frame: 1, from: 400 / 3, to: 133 },
      ],
    });
  });

  it('a CTHG file and its ISPRITE conversion play the same: nothing printed, exit 0 with --exit-code', async () => {
    await convert('cthg/fan.dat', 'out/fan.isprite', 'isprite');
    const r = await runCli(['diff', 'cthg/fan.dat', 'out/fan.isprite', '--playback', '--exit-code'], tmp);
    expect(r).toMatchObject({ code: 0, stdout: '' });
    // what the CTHG model leaves out is said, once per note, on stderr
    expect(r.stderr).toMatch(/^cthg\/fan\.dat: note: .*selectable layer/m);
    const j = await runCli(['diff', 'cthg/fan.dat', 'out/fan.isprite', '--playback', '--json'], tmp);
    expect(JSON.parse(j.stdout)).toMatchObject({ same: true, formats: ['cthg', 'isprite'], changes: [] });
  });

  it('a frame whose pixels changed: the first differing frame and its pixel count', async () => {
    await convert('isprite/hero.isprite', 'out2/hero.json', 'texturepacker');
    const png = fs.readFileSync(path.join(tmp, 'out2/hero.png'));
    const { decodePng, encodePng } = await import('../../src/render/png.js');
    const img = decodePng(png);
    // every opaque pixel of the sheet made darker
    for (let i = 0; i < img.data.length; i += 4) if (img.data[i + 3]) img.data[i] = img.data[i]! ^ 0x80;
    place('out3/hero.json', fs.readFileSync(path.join(tmp, 'out2/hero.json')));
    place('out3/hero.png', encodePng(img));
    const r = await runCli(['diff', 'out2/hero.json', 'out3/hero.json', '--playback'], tmp);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^animation walk, frame 0: \d+ pixels differ \(and \d+ more frames\)$/m);
  });

  it('two folders pair files by path; --render does not go with --playback; a level is refused', async () => {
    place('fa/hero.isprite', fs.readFileSync(path.join(SAMPLES, 'isprite/hero.isprite')));
    place('fa/hero.png', fs.readFileSync(path.join(SAMPLES, 'isprite/hero.png')));
    place('fb/hero.isprite', fs.readFileSync(path.join(SAMPLES, 'isprite/hero.isprite')));
    place('fb/hero.png', fs.readFileSync(path.join(SAMPLES, 'isprite/hero.png')));
    const r = await runCli(['diff', 'fa', 'fb', '--playback', '--exit-code'], tmp);
    expect(r).toMatchObject({ code: 0, stdout: '' });
    const u = await runCli(['diff', 'isprite/hero.isprite', 'out/hero.json', '--playback', '--render', 'px'], tmp);
    expect(u.code).toBe(2);
    place('level.bytes', fs.readFileSync(path.join(SAMPLES, 'spritetile/level.bytes')));
    const l = await runCli(['diff', 'level.bytes', 'level.bytes', '--playback'], tmp);
    expect(l.code).toBe(1);
    expect(l.stderr).toMatch(/^sprat: error: level\.bytes: .*compares sprites.*level$/m);
  });
});
