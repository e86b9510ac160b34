/**
 * CorsixTH scripts on the command line: validate, inspect, check, render,
 * compile errors at a line and column, the kept and fixed quirks
 * (--fix-crop, --keep-sprites), and decompiling as one atomic group of files.
 */
import { describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { encode } from 'fast-png';
import { CORPUS, SAMPLES } from '../../helpers/paths.js';
import { runCli } from '../../helpers/cli.js';
import { createCthg, encodePixels, readCthg, writeCthg } from '../../../src/formats/cthg/index.js';
import { decompileCthg } from '../../../src/formats/cthg/script/index.js';

const TEST_DIR = path.join(CORPUS, 'cthg', 'encoder-test');

/** A temp folder with a copy of the shared test script and its PNGs. */
function testFolder(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sprat-script-cli-'));
  for (const f of readdirSync(TEST_DIR)) copyFileSync(path.join(TEST_DIR, f), path.join(dir, f));
  return dir;
}

const rgbaPng = (width: number, height: number, px: number[]) => encode({ width, height, data: new Uint8Array(px), channels: 4, depth: 8 });

describe('scripts on the command line', () => {
  it('validate: ok, the dropped sounds as warnings', async () => {
    const r = await runCli(['validate', path.join(TEST_DIR, 'anims.txt')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/anims\.txt: ok\n$/);
    expect(r.stderr).toMatch(
      /warning: sound 3: the real encoder drops frame sounds \(compile with --fix-sounds to keep them\) \(at line 5, column 5\)/,
    );
  });

  it('inspect --json: a plain structure of the script', async () => {
    const r = await runCli(['inspect', path.join(TEST_DIR, 'anims.txt'), '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.format).toBe('cthg-script');
    expect(j.animations).toHaveLength(5);
    expect(j.animations[0]).toMatchObject({ name: 'walker', tileSize: 64, view: 'north', line: 2 });
    expect(j.animations[0].frames[0].sound).toBe(3);
    expect(j.animations[0].frames[0].elements[1]).toEqual({
      base: 'head_a.png',
      recolour: null,
      layer: null,
      left: 0,
      top: 0,
      width: -1,
      height: -1,
      xOffset: -8,
      yOffset: -62,
      alpha: 100,
      horFlip: false,
      vertFlip: false,
      displayIf: { layerClass: 2, layerId: 1 },
    });
    const t = await runCli(['inspect', path.join(TEST_DIR, 'anims.txt')]);
    expect(t.stdout).toMatch(/^CorsixTH AnimationEncoder script: 5 animations\n {2}"walker" north \(tile size 64, line 2\): 3 frames\n/);
  });

  it('check: a folder with a script and its PNGs is fine; a missing PNG is an error at its line and column', async () => {
    const dir = testFolder();
    // A .txt file is a script only by its content (the Solarus line syntax claims a text of two words or more).
    writeFileSync(path.join(dir, 'README.txt'), 'notes\n');
    let r = await runCli(['check', dir, '--json']);
    const j = JSON.parse(r.stdout);
    const script = j.files.find((f: { path: string }) => f.path.endsWith('anims.txt'));
    expect(script.format).toBe('cthg-script');
    expect(script.problems.filter((p: { severity: string }) => p.severity === 'error')).toEqual([]);
    expect(j.files.some((f: { path: string }) => f.path.endsWith('README.txt'))).toBe(false);
    writeFileSync(path.join(dir, 'anims.txt'), readFileSync(path.join(dir, 'anims.txt'), 'utf8').replace('"head_b.png"', '"head_c.png"'));
    r = await runCli(['check', dir]);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toMatch(/anims\.txt: error: image "head_c\.png" not found \(looked for [^)]*\) \(at line 9, column 19\)/);
  });

  it('render draws a view of the compiled script', async () => {
    const dir = testFolder();
    const r = await runCli([
      'render',
      path.join(dir, 'anims.txt'),
      '--animation',
      'walker',
      '--view',
      'east',
      '-o',
      path.join(dir, 'w.gif'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(path.join(dir, 'w.gif'))).toBe(true);
  });

  it('converts to other formats through the compiled file (Aseprite JSON and sheet)', async () => {
    const dir = testFolder();
    const r = await runCli(['convert', path.join(dir, 'anims.txt'), path.join(dir, 'out.json'), '--to', 'aseprite']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path.join(dir, 'out.json'), 'utf8')).meta.frameTags.length).toBeGreaterThan(0);
  });

  it('compile errors name the file, the line and the column; nothing is written', async () => {
    const dir = testFolder();
    writeFileSync(path.join(dir, 'bad.txt'), 'animation "a" {\n  view = north;\n  frame { element { base = "nope.png"; } }\n}\n');
    let r = await runCli(['convert', path.join(dir, 'bad.txt'), path.join(dir, 'bad.dat')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^sprat: error: [^\n]*bad\.txt: image "nope\.png" not found \(looked for [^\n]*\) \(at line 3, column 21\)\n$/,
    );
    expect(existsSync(path.join(dir, 'bad.dat'))).toBe(false);
    // The encoder reads only 8-bit RGBA bases and 8-bit indexed recolour maps.
    writeFileSync(path.join(dir, 'rgb.png'), encode({ width: 1, height: 1, data: new Uint8Array([1, 2, 3]), channels: 3, depth: 8 }));
    writeFileSync(path.join(dir, 'bad.txt'), 'animation "a" { view = north; frame { element { base = "rgb.png"; } } }\n');
    r = await runCli(['convert', path.join(dir, 'bad.txt'), path.join(dir, 'bad.dat')]);
    expect(r.stderr).toMatch(/image "rgb\.png" is 8-bit RGB; the encoder reads only 8-bit RGBA PNGs \(at line 1, column 49\)\n$/);
    writeFileSync(
      path.join(dir, 'bad.txt'),
      'animation "a" { view = north; frame { element { base = "body.png"; recolour = "body.png"; } } }\n',
    );
    r = await runCli(['convert', path.join(dir, 'bad.txt'), path.join(dir, 'bad.dat')]);
    expect(r.stderr).toMatch(/recolour image "body\.png" is 8-bit RGBA; the encoder reads only 8-bit indexed \(palette\) PNGs/);
    writeFileSync(
      path.join(dir, 'bad.txt'),
      'animation "a" { view = north; frame { element { base = "body.png"; left = 70; width = 20; } } }\n',
    );
    r = await runCli(['convert', path.join(dir, 'bad.txt'), path.join(dir, 'bad.dat')]);
    expect(r.stderr).toMatch(
      /image "body\.png" is not wide enough: the sprite needs 90 columns \(70 \+ 20\), the image has 80 \(at line 1, column 39\)/,
    );
  });

  it('--format cthg-script on a file that is not a script: exit 1, the place of the problem', async () => {
    const r = await runCli(['inspect', path.join(SAMPLES, 'isprite', 'hero.isprite'), '--format', 'cthg-script']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^sprat: error: [^\n]*hero\.isprite: [^\n]* \(at line 1, column \d+\)\n$/);
  });

  it('compiling works within --max-draw-pixels; --fix-sounds refuses a sound past 16 bits', async () => {
    const dir = testFolder();
    const el = 'element { base = "body.png"; } ';
    writeFileSync(path.join(dir, 'many.txt'), `animation "a" { view = north; frame { ${el.repeat(10)} } }\n`);
    let r = await runCli(['convert', path.join(dir, 'many.txt'), path.join(dir, 'many.dat'), '--max-draw-pixels', '20000']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/more than the limit of 20000 \(raise it with --max-draw-pixels\)\n$/);
    expect(existsSync(path.join(dir, 'many.dat'))).toBe(false);
    writeFileSync(path.join(dir, 'loud.txt'), 'animation "a" { view = north; frame { sound = 70000; element { base = "body.png"; } } }\n');
    r = await runCli(['convert', path.join(dir, 'loud.txt'), path.join(dir, 'loud.dat'), '--fix-sounds']);
    expect(r.stderr).toMatch(/sound 70000 does not fit the file's 16-bit field \(at line 1, column 31\)\n$/);
  });

  it('re-writing a script (the same format) prints it again, without PNGs', async () => {
    const dir = testFolder();
    const r = await runCli(['convert', path.join(dir, 'anims.txt'), path.join(dir, 'again.txt')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`wrote ${path.join(dir, 'again.txt')}\n`);
    expect(readFileSync(path.join(dir, 'again.txt'), 'utf8')).toMatch(
      /^animation "walker" \{\n {4}tile_size = 64;\n {4}view = north;\n {4}frame \{\n {8}sound = 3;\n/,
    );
  });
});

describe('the crop quirk', () => {
  // 4x1: transparent, opaque (0, 5, 5), opaque red, opaque white. The encoder tests column x's
  // alpha at byte x + 3 of the row: column 1 reads the red of pixel 1 (0) and is cut, though opaque.
  const png = rgbaPng(4, 1, [0, 0, 0, 0, 0, 5, 5, 255, 255, 0, 0, 255, 255, 255, 255, 255]);
  const script = 'animation "a" { view = north; frame { element { base = "q.png"; x_offset = 10; } } }\n';

  it('kept by default (the encoder cuts a visible pixel); --fix-crop crops by alpha', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sprat-crop-'));
    writeFileSync(path.join(dir, 'q.png'), png);
    writeFileSync(path.join(dir, 'q.txt'), script);
    expect((await runCli(['convert', path.join(dir, 'q.txt'), path.join(dir, 'a.dat')])).code).toBe(0);
    expect((await runCli(['convert', path.join(dir, 'q.txt'), path.join(dir, 'b.dat'), '--fix-crop'])).code).toBe(0);
    const a = readCthg(new Uint8Array(readFileSync(path.join(dir, 'a.dat'))));
    const b = readCthg(new Uint8Array(readFileSync(path.join(dir, 'b.dat'))));
    expect([a.sprites[0]!.width, a.frames[0]!.elements[0]!.x]).toEqual([2, 12]);
    expect([b.sprites[0]!.width, b.frames[0]!.elements[0]!.x]).toEqual([3, 11]);
  });
});

describe('decompiling', () => {
  it('writes the script and PNGs as one group: an existing PNG stops it (nothing written) unless --overwrite', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sprat-decompile-'));
    writeFileSync(path.join(dir, 'plant-1.png'), 'mine');
    const out = path.join(dir, 'plant.txt');
    let r = await runCli(['convert', path.join(CORPUS, 'cthg', 'plant_anim.dat'), out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/plant-1\.png: already exists and is not the output named; nothing was written \(--overwrite replaces it\)/);
    expect(readdirSync(dir)).toEqual(['plant-1.png']);
    r = await runCli(['convert', path.join(CORPUS, 'cthg', 'plant_anim.dat'), out, '--overwrite']);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['plant-0.png', 'plant-1.png', 'plant-2.png', 'plant-3.png', 'plant-4.png', 'plant.txt']);
    expect(readFileSync(out, 'utf8')).toMatch(
      /^\/\/ decompiled by sprat; compile with: sprat convert plant\.txt plant\.dat\n\/\/ sprat: compile\nanimation "plant_dead" \{/,
    );
  });

  it('a sprite the crop quirk would cut is written beside a white band (left = N), recolour table 0 through a spare layer', async () => {
    // Sprite 0: transparent, then (0, 5, 5): the encoder would cut both columns of a plain PNG.
    // Sprite 1: recoloured with tables 0 and 3.
    const doc = createCthg();
    const img0 = {
      width: 3,
      height: 2,
      data: new Uint8Array([0, 0, 0, 0, 0, 5, 5, 255, 9, 9, 9, 255, 0, 0, 0, 0, 0, 5, 5, 255, 9, 9, 9, 255]),
    };
    const img1 = { width: 2, height: 1, data: new Uint8Array([40, 40, 40, 255, 90, 90, 90, 200]) };
    const numbers = Uint8Array.from({ length: 256 }, (_, i) => (i === 1 ? 0 : i));
    doc.sprites.push({ width: 3, height: 2, data: encodePixels(img0) });
    doc.sprites.push({ width: 2, height: 1, data: encodePixels(img1, { recolour: new Uint8Array([1, 3]), layerNumbers: numbers }) });
    doc.frames.push({
      sound: 0,
      elements: [
        { sprite: 0, x: -3, y: 4, layerClass: 0, layerId: 0, flags: 0 },
        { sprite: 1, x: 0, y: 0, layerClass: 3, layerId: 1, flags: 6 },
      ],
    });
    doc.animations.push({ name: 'odd', tileSize: 64, frameCount: 1, views: { north: null, east: 0, south: null, west: null } });
    const bytes = writeCthg(doc);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sprat-decompile-odd-'));
    writeFileSync(path.join(dir, 'odd.dat'), bytes);
    let r = await runCli(['convert', path.join(dir, 'odd.dat'), path.join(dir, 'o.txt')]);
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(path.join(dir, 'o.txt'), 'utf8');
    expect(text).toContain('element { base = "o-0.png"; left = 2; x_offset = -3; y_offset = 4; }');
    expect(text).toContain(
      'element { base = "o-1.png"; recolour = "o-1-recolour.png"; layer 1 = 0; x_offset = 0; y_offset = 0; alpha = 50; diplay_if 3 = 1; hor_flip }',
    );
    r = await runCli(['convert', path.join(dir, 'o.txt'), path.join(dir, 'back.dat')]);
    expect(r.code, r.stderr).toBe(0);
    expect(new Uint8Array(readFileSync(path.join(dir, 'back.dat')))).toEqual(bytes);
  });

  it('notes a layout the encoder does not write and blocks no animation shows', () => {
    const doc = createCthg();
    const px = { width: 1, height: 1, data: new Uint8Array([9, 9, 9, 255]) };
    doc.sprites.push({ width: 1, height: 1, data: encodePixels(px) }, { width: 1, height: 1, data: encodePixels(px) });
    const el = { sprite: 0, x: 0, y: 0, layerClass: 0, layerId: 0, flags: 0 };
    doc.frames.push({ sound: 0, elements: [el] }, { sound: 0, elements: [el] }, { sound: 0, elements: [el] });
    doc.animations.push({ name: 'a', tileSize: 64, frameCount: 1, views: { north: 1, east: 0, south: null, west: null } });
    const notes = decompileCthg(doc, 'x').notes;
    expect(notes).toContain('1 frame(s) and 1 sprite(s) that no animation shows are not in the script');
    expect(notes).toContain(
      "the file's blocks are not in the encoder's order: the compiled file holds the same animations in its own layout",
    );
  });

  it('--to cthg-script with any extension; a file the encoder cannot make again gets notes', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sprat-decompile-fan-'));
    const r = await runCli(['convert', path.join(SAMPLES, 'cthg', 'fan.dat'), path.join(dir, 'fan.script'), '--to', 'cthg-script']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /note: frames have sounds: the real encoder drops them; the script's "\/\/ sprat: compile" line has --fix-sounds, with which sprat keeps them\n/,
    );
    expect(r.stderr).toMatch(
      /note: sprites \d+ and \d+ have the same bytes, which the encoder stores once; the script's "\/\/ sprat: compile" line has --keep-sprites, with which sprat keeps both\n/,
    );
    expect(readFileSync(path.join(dir, 'fan.script'), 'utf8').split('\n').slice(0, 2)).toEqual([
      '// decompiled by sprat; compile with: sprat convert fan.script fan.dat',
      '// sprat: compile --fix-sounds --keep-sprites',
    ]);
  });
});
