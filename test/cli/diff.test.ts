import { describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { tempTree } from '../helpers/tree.js';
import { CORPUS, SAMPLES } from '../helpers/paths.js';
import { readCthg, writeCthg } from '../../src/formats/cthg/index.js';
import { readSpriteTile, writeSpriteTile } from '../../src/formats/spritetile/index.js';
import { decodePng, isPng } from '../../src/render/png.js';

const { dir: tmp, place } = tempTree('sprat-diff-');

const slime = fs.readFileSync(path.join(SAMPLES, 'solarus/sprites/slime.dat'), 'utf8');
const slimePng = fs.readFileSync(path.join(SAMPLES, 'solarus/sprites/enemies/slime.png'));
// A: the sample; B: the walking animation's second direction one pixel to the right, a slower delay, "hurt" renamed "ouch"
const slimeB = slime
  .replace(
    'walking enemies/slime.png 4 150 0\n0\t0\t16\t16\t8\t13\t4\t2\n32\t0',
    'walking enemies/slime.png 4 120 0\n0\t0\t16\t16\t8\t13\t4\t2\n33\t0',
  )
  .replace('hurt enemies/slime.png', 'ouch enemies/slime.png');
place('a/sprites/slime.dat', slime);
place('a/sprites/enemies/slime.png', slimePng);
place('a/sprites/old.dat', slime);
place('a/notes.txt', 'one\n');
place('b/sprites/slime.dat', slimeB);
place('b/sprites/enemies/slime.png', slimePng);
place('b/sprites/new.dat', slime);
place('b/notes.txt', 'two\n');

const expected = [
  'animation walking: frameDelay 150 -> 120',
  'animation walking, direction 1: x 32 -> 33',
  '- animation hurt',
  '+ animation ouch',
];

describe('sprat diff', () => {
  it('a Solarus frame moved: one line per change, named by animation and direction; exit 0, 1 with --exit-code', async () => {
    const r = await runCli(['diff', 'a/sprites/slime.dat', 'b/sprites/slime.dat'], tmp);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(expected.join('\n') + '\n');
    const e = await runCli(['diff', 'a/sprites/slime.dat', 'b/sprites/slime.dat', '--exit-code'], tmp);
    expect(e.code).toBe(1);
    expect(e.stdout).toBe(r.stdout);
  });

  it('identical files: no output, exit 0 (also with --exit-code); animations matched by name, not place', async () => {
    const same = await runCli(['diff', 'a/sprites/slime.dat', 'a/sprites/old.dat', '--exit-code'], tmp);
    expect(same).toEqual({ code: 0, stdout: '', stderr: '' });
    // the same animations in another order
    const blocks = slime.trim().split(/\n\n/);
    const swapped = place('swapped/slime.dat', [blocks[1], blocks[0], ...blocks.slice(2)].join('\n\n') + '\n');
    const r = await runCli(['diff', 'a/sprites/slime.dat', swapped, '--exit-code'], tmp);
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('the two Solarus syntaxes of one sprite differ only in their format', async () => {
    const r = await runCli(['diff', path.join(SAMPLES, 'solarus/sprites/slime.dat'), path.join(SAMPLES, 'solarus/sprites/slime_lua.dat')]);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('format "solarus" -> "solarus-lua"');
  });

  it('--json: the changes with their paths', async () => {
    const r = await runCli(['diff', 'a/sprites/slime.dat', 'b/sprites/slime.dat', '--json'], tmp);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({ a: 'a/sprites/slime.dat', b: 'b/sprites/slime.dat', same: false, format: 'solarus' });
    expect(j.changes[1]).toEqual({ op: 'changed', path: ['animation walking', 'direction 1'], name: 'x', from: 32, to: 33 });
    expect(j.changes[2]).toMatchObject({ op: 'removed', path: [], name: 'animation hurt', from: { name: 'hurt' } });
    expect(j.changes[3]).toMatchObject({ op: 'added', path: [], name: 'animation ouch', to: { name: 'ouch', frameDelay: 60 } });
    const same = await runCli(['diff', 'a/sprites/slime.dat', 'a/sprites/old.dat', '--json'], tmp);
    expect(JSON.parse(same.stdout)).toMatchObject({ same: true, changes: [] });
  });

  it('a CTHG frame changed through the library: frame, element and field named', async () => {
    const doc = readCthg(new Uint8Array(fs.readFileSync(path.join(CORPUS, 'cthg/plant_anim.dat'))));
    const el = doc.frames[3]!.elements[0]!;
    const x = el.x;
    el.x += 2;
    doc.animations[0]!.tileSize += 1;
    const b = place('cthg/plant_b.dat', writeCthg(doc));
    const r = await runCli(['diff', path.join(CORPUS, 'cthg/plant_anim.dat'), b, '--exit-code']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`frame 3, element 0: x ${x} -> ${x + 2}\n`);
    expect(r.stdout).toMatch(new RegExp(`^animation ${doc.animations[0]!.name}: tileSize \\d+ -> ${doc.animations[0]!.tileSize}$`, 'm'));
    expect(r.stdout.trim().split('\n')).toHaveLength(2);
  });

  it('--render: a PNG of A, B and the changed pixels for each changed CTHG frame, and nothing for the others', async () => {
    const doc = readCthg(new Uint8Array(fs.readFileSync(path.join(CORPUS, 'cthg/plant_anim.dat'))));
    doc.frames[3]!.elements[0]!.x += 2;
    const b = place('cthg-render/plant_b.dat', writeCthg(doc));
    const out = path.join(tmp, 'cthg-render/out');
    const r = await runCli(['diff', path.join(CORPUS, 'cthg/plant_anim.dat'), b, '--render', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const written = fs.readdirSync(out);
    const lines = r.stdout.split('\n').filter((l) => /pixels differ/.test(l));
    expect(written).toEqual(['plant_dying_north-frame-0.png']);
    expect(lines).toHaveLength(written.length);
    for (const l of lines) expect(l).toMatch(/^.+, frame \d+: \d+ pixels differ \(.+\.png\)$/);
    const img = decodePng(new Uint8Array(fs.readFileSync(path.join(out, written[0]!))));
    // three panels side by side, with the changed pixels in the third
    expect(img.width).toBeGreaterThan(img.height);
    let marked = 0;
    for (let i = 0; i < img.data.length; i += 4) if (img.data[i] === 255 && img.data[i + 1] === 0 && img.data[i + 2] === 64) marked++;
    expect(marked).toBeGreaterThan(0);
    // the input is untouched, and an unchanged document draws nothing
    const same = await runCli([
      'diff',
      path.join(CORPUS, 'cthg/plant_anim.dat'),
      path.join(CORPUS, 'cthg/plant_anim.dat'),
      '--render',
      path.join(tmp, 'none'),
    ]);
    expect(same).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(fs.existsSync(path.join(tmp, 'none'))).toBe(false);
  });

  it('a SpriteTile cell changed through the library: layer and cell (x, y) named', async () => {
    const file = path.join(CORPUS, 'spritetile', fs.readdirSync(path.join(CORPUS, 'spritetile')).find((f) => f.endsWith('.bytes'))!);
    const level = readSpriteTile(new Uint8Array(fs.readFileSync(file)));
    const layer = level.layers![0]!;
    const i = layer.width + 3; // x 3, y 1
    const before = layer.tiles[i]!;
    layer.tiles[i] = before === 5 ? 6 : 5;
    const b = place('spritetile/level_b.bytes', writeSpriteTile(level, { lzf: 'clzf2' }));
    const r = await runCli(['diff', file, b]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`layer 0, cell (3, 1): tile ${before} -> ${layer.tiles[i]}\n`);
  });

  it('two folders: files paired by relative path, added and removed files, per-file diffs', async () => {
    const r = await runCli(['diff', 'a', 'b'], tmp);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        'notes.txt: files differ',
        '+ file sprites/new.dat',
        '- file sprites/old.dat',
        ...expected.map((l) => `sprites/slime.dat: ${l}`),
        '',
      ].join('\n'),
    );
    const j = JSON.parse((await runCli(['diff', 'a', 'b', '--json'], tmp)).stdout);
    expect(j.same).toBe(false);
    expect(j.files.map((f: { path: string; status: string }) => `${f.status} ${f.path}`)).toEqual([
      'changed notes.txt',
      'added sprites/new.dat',
      'removed sprites/old.dat',
      'changed sprites/slime.dat',
    ]);
    const same = await runCli(['diff', 'a', 'a', '--exit-code'], tmp);
    expect(same).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('--render with selection options: only the pictures they name', async () => {
    const r = await runCli(['diff', 'a/sprites/slime.dat', 'b/sprites/slime.dat', '--render', 'sel-out', '--animation', 'walking'], tmp);
    expect(r.code).toBe(0);
    expect(fs.readdirSync(path.join(tmp, 'sel-out')).sort()).toEqual([0, 1, 2, 3].map((i) => `walking_up-frame-${i}.png`));
    const none = await runCli(
      ['diff', 'a/sprites/slime.dat', 'b/sprites/slime.dat', '--render', 'sel-none', '--animation', 'stopped'],
      tmp,
    );
    expect(none.stdout).not.toMatch(/pixels differ/);
    expect(fs.existsSync(path.join(tmp, 'sel-none'))).toBe(false);
  });

  it('--render never replaces a file of either folder', async () => {
    place('p/sprites/slime.dat', slime);
    place('p/sprites/enemies/slime.png', slimePng);
    const kept = place('p/out/sprites/slime.dat/walking_up-frame-0.png', 'keep');
    place('q/sprites/slime.dat', slimeB);
    place('q/sprites/enemies/slime.png', slimePng);
    const r = await runCli(['diff', 'p', 'q', '--render', 'p/out'], tmp);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^sprat: error: p\/out\/sprites\/slime\.dat\/walking_up-frame-0\.png: is the input or a file it uses/);
    expect(fs.readFileSync(kept, 'utf8')).toBe('keep');
  });

  it('--render replaces a file already in OUT_DIR only with --overwrite', async () => {
    const unrelated = place('clobber-out/walking_up-frame-0.png', 'mine');
    const args = ['diff', 'a/sprites/slime.dat', 'b/sprites/slime.dat', '--render', 'clobber-out'];
    const r = await runCli(args, tmp);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'sprat: error: clobber-out/walking_up-frame-0.png: already exists and is not the output named; nothing was written (--overwrite replaces it)\n',
    );
    expect(fs.readFileSync(unrelated, 'utf8')).toBe('mine');
    expect(fs.readdirSync(path.join(tmp, 'clobber-out'))).toEqual(['walking_up-frame-0.png']);
    const o = await runCli([...args, '--overwrite'], tmp);
    expect(o.code).toBe(0);
    expect(isPng(new Uint8Array(fs.readFileSync(unrelated)))).toBe(true);
  });

  it('folders with --render: the pixel diffs go under OUT_DIR by relative path', async () => {
    const r = await runCli(['diff', 'a', 'b', '--render', 'folder-out'], tmp);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^sprites\/slime\.dat: walking \(up\), frame 0: \d+ pixels differ \(folder-out\/sprites\/slime\.dat\/walking_up-frame-0\.png\)$/m,
    );
    expect(fs.existsSync(path.join(tmp, 'folder-out/sprites/slime.dat/walking_up-frame-0.png'))).toBe(true);
  });

  it('a corrupt file is one error line naming it (exit 1); a file against a folder is a usage error (exit 2)', async () => {
    place('bad/slime.dat', 'walking enemies/slime.png 4 x 0\n');
    const r = await runCli(['diff', 'a/sprites/slime.dat', 'bad/slime.dat'], tmp);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^sprat: error: bad\/slime\.dat: .*\(at line 1, column \d+\)\n$/);
    const u = await runCli(['diff', 'a', 'b/sprites/slime.dat'], tmp);
    expect(u.code).toBe(2);
    expect(u.stderr).toMatch(/^sprat: error: a is a folder/);
    const m = await runCli(['diff', 'a/sprites/slime.dat', 'nowhere.dat'], tmp);
    expect(m.code).toBe(1);
    expect(m.stderr).toMatch(/^sprat: error: nowhere\.dat: /);
    expect((await runCli(['diff', 'a/sprites/slime.dat'], tmp)).code).toBe(2);
  });

  it('a corrupt file in a folder diff: its error line, the other files still compared, exit 1', async () => {
    place('fa/x.isprite', fs.readFileSync(path.join(SAMPLES, 'isprite/hero.isprite')));
    place('fb/x.isprite', fs.readFileSync(path.join(SAMPLES, 'isprite/hero.isprite')).subarray(0, 40));
    place('fa/slime.dat', slime);
    place('fb/slime.dat', slimeB);
    const r = await runCli(['diff', 'fa', 'fb'], tmp);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^sprat: error: fb\/x\.isprite: .*\(at byte \d+\)\n$/);
    expect(r.stdout).toBe(expected.map((l) => `slime.dat: ${l}\n`).join(''));
  });

  it('--textconv: one line per object with its path, stable', async () => {
    const r = await runCli(['diff', '--textconv', 'a/sprites/slime.dat'], tmp);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('format "solarus"');
    expect(lines).toContain(
      'animation walking, direction 1: x 32, y 0, frameWidth 16, frameHeight 16, originX 8, originY 13, frameCount 4, columns 2',
    );
    expect((await runCli(['diff', '--textconv', 'a/sprites/slime.dat'], tmp)).stdout).toBe(r.stdout);
  });
});
