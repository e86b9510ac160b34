/**
 * Conversions keep frames no animation plays (TexturePacker ->
 * Aseprite turned 5 frames into 4, Aseprite -> TexturePacker 25 into 6):
 * Aseprite and TexturePacker write them outside any tag or animation; the
 * other formats get an animation "unused" and a note that lists them.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readIsprite } from '../../src/formats/isprite/read.js';
import { encodePng } from '../../src/render/png.js';
import { runCli } from '../helpers/cli.js';
import { patternImage } from '../interop/helpers.js';

let dir: string;
const read = (name: string) => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
const frameNames = (doc: { frames: unknown }) =>
  Array.isArray(doc.frames) ? doc.frames.map((f: { filename: string }) => f.filename) : Object.keys(doc.frames as object);

function cell(i: number) {
  return {
    frame: { x: (i % 5) * 8, y: Math.floor(i / 5) * 8, w: 8, h: 8 },
    rotated: false,
    trimmed: false,
    spriteSourceSize: { x: 0, y: 0, w: 8, h: 8 },
    sourceSize: { w: 8, h: 8 },
  };
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-unused-'));
  fs.writeFileSync(path.join(dir, 'grid.png'), encodePng(patternImage(40, 40, 5)));
  // TexturePacker: 5 frames, the animations play 4 of them.
  const tp = {
    frames: Object.fromEntries([0, 1, 2, 3, 4].map((i) => [`f${i}.png`, { ...cell(i), pivot: { x: 0, y: 0 } }])),
    animations: { run: ['f0.png', 'f1.png', 'f2.png'], hit: ['f4.png'] },
    meta: {
      app: 'https://www.codeandweb.com/texturepacker',
      version: '1.1',
      image: 'grid.png',
      format: 'RGBA8888',
      size: { w: 40, h: 40 },
      scale: '1',
    },
  };
  fs.writeFileSync(path.join(dir, 'tp.json'), JSON.stringify(tp));
  // Aseprite: 25 frames, tags over 6 of them.
  const ase = {
    frames: Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`a ${i}.aseprite`, { ...cell(i), duration: 100 }])),
    meta: {
      app: 'https://www.aseprite.org/',
      version: '1.3.7',
      image: 'grid.png',
      format: 'RGBA8888',
      size: { w: 40, h: 40 },
      scale: '1',
      frameTags: [
        { name: 'idle', from: 0, to: 2, direction: 'forward', color: '#000000ff' },
        { name: 'jump', from: 10, to: 12, direction: 'forward', color: '#000000ff' },
      ],
      layers: [],
      slices: [],
    },
  };
  fs.writeFileSync(path.join(dir, 'ase.json'), JSON.stringify(ase));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('frames no animation plays are kept', () => {
  it('TexturePacker -> Aseprite: all 5 frames, the unplayed one in no tag', async () => {
    const r = await runCli(['convert', 'tp.json', 'tp-ase.json', '--to', 'aseprite', '--filename-format', '{label}'], dir);
    expect(r.code).toBe(0);
    const out = read('tp-ase.json');
    expect(frameNames(out).sort()).toEqual(['f0.png', 'f1.png', 'f2.png', 'f3.png', 'f4.png']);
    expect(out.meta.frameTags.map((t: { name: string }) => t.name)).toEqual(['run', 'hit']);
    expect(r.stderr).not.toMatch(/unused/);
  });

  it('Aseprite -> TexturePacker: all 25 frames, the 19 unplayed ones in no animation', async () => {
    const r = await runCli(['convert', 'ase.json', 'ase-tp.json', '--to', 'texturepacker'], dir);
    expect(r.code).toBe(0);
    const out = read('ase-tp.json');
    expect(frameNames(out)).toHaveLength(25);
    expect(new Set(frameNames(out))).toEqual(new Set(Array.from({ length: 25 }, (_, i) => `a ${i}.aseprite`)));
    expect(Object.keys(out.animations)).toEqual(['idle', 'jump']);
  });

  it('Aseprite -> TexturePacker -> Aseprite keeps the tags and all 25 frames', async () => {
    const r = await runCli(['convert', 'ase-tp.json', 'ase-back.json', '--to', 'aseprite'], dir);
    expect(r.code).toBe(0);
    const out = read('ase-back.json');
    expect(frameNames(out)).toHaveLength(25);
    expect(out.meta.frameTags.map((t: { name: string; from: number; to: number }) => [t.name, t.to - t.from + 1])).toEqual([
      ['idle', 3],
      ['jump', 3],
    ]);
  });

  it('Aseprite -> TexturePacker: untagged frames before a tagged one move after the tagged frames, with a note', async () => {
    const r = await runCli(['convert', 'ase.json', 'ase-order.json', '--to', 'texturepacker'], dir);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /note: aseprite: frames no tag plays are stored after the tagged frames \(their order among the frames changes\): a 3\.aseprite, a 4\.aseprite, .*a 9\.aseprite, a 13\.aseprite/,
    );
    expect(frameNames(read('ase-order.json')).slice(0, 7)).toEqual([
      'a 0.aseprite',
      'a 1.aseprite',
      'a 2.aseprite',
      'a 10.aseprite',
      'a 11.aseprite',
      'a 12.aseprite',
      'a 3.aseprite',
    ]);
    // untagged frames only after the last tagged one keep their place: no note
    const tail = JSON.parse(fs.readFileSync(path.join(dir, 'ase.json'), 'utf8'));
    tail.meta.frameTags = [{ name: 'idle', from: 0, to: 2, direction: 'forward', color: '#000000ff' }];
    fs.writeFileSync(path.join(dir, 'ase-tail.json'), JSON.stringify(tail));
    const t = await runCli(['convert', 'ase-tail.json', 'ase-tail-tp.json', '--to', 'texturepacker'], dir);
    expect(t.code).toBe(0);
    expect(t.stderr).not.toMatch(/order among the frames/);
  });

  it('Aseprite -> ISPRITE: an animation "unused" holds them, and a note lists them by name', async () => {
    const r = await runCli(['convert', 'tp.json', 'tp.isprite'], dir);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('tp.json: note: frames no animation plays are kept as the animation "unused": f3.png\n');
    const doc = readIsprite(new Uint8Array(fs.readFileSync(path.join(dir, 'tp.isprite'))));
    expect(doc.frames).toHaveLength(5);
    expect(doc.tree.map((n) => n.name)).toEqual(['run', 'hit', 'unused']);
  });

  it('ISPRITE frames no sequence plays are kept too (ISPRITE -> Aseprite)', async () => {
    const r1 = await runCli(['convert', 'tp.isprite', 'tp2.isprite'], dir);
    expect(r1.code).toBe(0);
    const doc = readIsprite(new Uint8Array(fs.readFileSync(path.join(dir, 'tp.isprite'))));
    // Drop the "unused" sequence: frame 4 of the file is then in no sequence.
    doc.tree = doc.tree.filter((n) => n.name !== 'unused');
    const { writeIsprite } = await import('../../src/formats/isprite/write.js');
    fs.writeFileSync(path.join(dir, 'orphan.isprite'), writeIsprite(doc));
    const r = await runCli(['convert', 'orphan.isprite', 'orphan.json', '--to', 'aseprite'], dir);
    expect(r.code).toBe(0);
    expect(frameNames(read('orphan.json'))).toHaveLength(5);
  });

  it('a source animation named "unused" is not mixed up with the kept frames', async () => {
    const tp = read('tp.json');
    tp.animations = { unused: ['f0.png'] };
    fs.writeFileSync(path.join(dir, 'named.json'), JSON.stringify(tp));
    const r = await runCli(['convert', 'named.json', 'named.isprite'], dir);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('kept as the animation "unused 2": f1.png, f2.png, f3.png, f4.png');
  });
});

describe('CTHG frames no view plays', () => {
  it('are kept as the animation "unused", labelled by their index', async () => {
    const { createCthg } = await import('../../src/formats/cthg/model.js');
    const { cthgToModel } = await import('../../src/formats/cthg/convert.js');
    const doc = createCthg();
    doc.frames.push({ sound: 0, elements: [] }, { sound: 0, elements: [] }, { sound: 3, elements: [] });
    doc.animations.push({ name: 'fan', tileSize: 64, frameCount: 2, views: { north: 0, east: null, south: null, west: null } });
    const model = cthgToModel(doc);
    expect(model.animations.map((a) => [a.name, a.frames.length, !!a.unused])).toEqual([
      ['fan', 2, false],
      ['unused', 1, true],
    ]);
    expect(model.animations[1]!.frames[0]).toMatchObject({ label: 'frame 2', events: ['3'] });
  });
});
