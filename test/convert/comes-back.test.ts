/**
 * Conversions that come back: X -> Y -> X plays the same wherever Y can hold
 * it (`sprat diff --playback`), through what the sheet formats keep in
 * `meta.sprat` (src/interop/sheetextras.ts, docs/interop.md "What comes back").
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type AsepriteDoc, asepriteHandler, asepriteModel } from '../../src/interop/aseprite/index.js';
import { runCli } from '../helpers/cli.js';
import { CORPUS, SAMPLES } from '../helpers/paths.js';

const HERO = path.join(CORPUS, 'solarus/quest-editor-initial/data/sprites/hero');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-comes-back-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The source's files copied into a folder of their own, so converting never writes beside them. */
function copyInto(dir: string, from: string, files: string[]): void {
  fs.mkdirSync(dir, { recursive: true });
  for (const f of files) fs.copyFileSync(path.join(from, f), path.join(dir, f));
}

async function convert(input: string, output: string, to: string): Promise<string> {
  const r = await runCli(['convert', input, output, '--to', to]);
  expect(r.stderr.replace(/^(.*: )?note: .*\n/gm, ''), `${input} -> ${output}`).toBe('');
  expect(r.code).toBe(0);
  return r.stderr;
}

async function playbackDiff(a: string, b: string): Promise<string> {
  const r = await runCli(['diff', a, b, '--playback']);
  return r.stdout + r.stderr.replace(/^(.*: )?note: .*\n/gm, '');
}

/** Animation name -> the direction count, from a Solarus sheet's text. */
function solarusAnimations(text: string): Map<string, { directions: number; delay: number }> {
  const out = new Map<string, { directions: number; delay: number }>();
  for (const block of text.split(/^animation\{/m).slice(1)) {
    const name = /name = "([^"]*)"/.exec(block)![1]!;
    const delay = Number(/frame_delay = (\d+)/.exec(block)?.[1] ?? 0);
    out.set(name, { directions: (block.match(/\{ x = /g) ?? []).length, delay });
  }
  return out;
}

describe('tunic1.dat through the sheet formats and back', () => {
  // Inside a sprites/ folder, as in the quest: the sheet names its images from there (hero/walking.tunic.png).
  const src = path.join(tmp, 'quest/sprites/hero');
  copyInto(
    src,
    HERO,
    fs.readdirSync(HERO).filter((f) => f.endsWith('.png') || f === 'tunic1.dat'),
  );
  const original = solarusAnimations(fs.readFileSync(path.join(src, 'tunic1.dat'), 'latin1'));

  for (const via of ['aseprite', 'texturepacker']) {
    it(`through ${via}: the same 32 animations, 4 directions each, frame_delay 0 kept, plays the same`, async () => {
      const dir = path.join(tmp, `tunic-${via}`);
      fs.mkdirSync(dir);
      const sheet = path.join(dir, 'tunic.json');
      await convert(path.join(src, 'tunic1.dat'), sheet, via);
      // In sprites/ itself: a redrawn sheet's image is named from there.
      const back = path.join(src, '..', `back-${via}.dat`);
      await convert(sheet, back, 'solarus-lua');
      const got = solarusAnimations(fs.readFileSync(back, 'latin1'));
      expect(original.size).toBe(32); // the Quest Editor's hero: 32 animations, 4 directions each
      for (const a of original.values()) expect(a.directions).toBe(4);
      expect([...got.keys()]).toEqual([...original.keys()]);
      for (const [name, a] of original) {
        expect(got.get(name)!.directions, name).toBe(a.directions);
        expect(got.get(name)!.delay, name).toBe(a.delay);
      }
      expect([...original.values()].some((a) => a.delay === 0)).toBe(true);
      expect(await playbackDiff(path.join(src, 'tunic1.dat'), back)).toBe('');
    });
  }

  it('notes each kind of loss once, naming the animations and directions', async () => {
    const dir = path.join(tmp, 'tunic-notes');
    fs.mkdirSync(dir);
    const notes = await convert(path.join(src, 'tunic1.dat'), path.join(dir, 'tunic.json'), 'aseprite');
    const lines = notes.split('\n').filter(Boolean);
    expect(new Set(lines).size).toBe(lines.length);
    const loops = lines.filter((l) => l.includes('loops back to a frame other than the first'));
    expect(loops.length).toBeLessThanOrEqual(1);
    for (const l of loops) expect(l).toMatch(/\(4 directions\)/);
    const forever = lines.filter((l) => l.includes('shown forever'));
    expect(forever).toHaveLength(1);
    expect(forever[0]).toMatch(/\(4 directions\)/);
  });
});

describe('samples through the sheet formats and back', () => {
  it('hero.json -> TexturePacker -> Aseprite keeps the tags, their direction and repeat, and the frame names', async () => {
    const dir = path.join(tmp, 'hero');
    copyInto(dir, path.join(SAMPLES, 'interop'), ['hero.json', 'hero.png']);
    await convert(path.join(dir, 'hero.json'), path.join(dir, 'tp.json'), 'texturepacker');
    await convert(path.join(dir, 'tp.json'), path.join(dir, 'back.json'), 'aseprite');
    const src = JSON.parse(fs.readFileSync(path.join(dir, 'hero.json'), 'utf8'));
    const back = JSON.parse(fs.readFileSync(path.join(dir, 'back.json'), 'utf8'));
    const tags = (j: { meta: { frameTags: Record<string, unknown>[] } }) =>
      j.meta.frameTags.map((t) => [t.name, t.direction, t.repeat ?? null, Number(t.to) - Number(t.from)]);
    expect(tags(back)).toEqual(tags(src));
    // The source's frame names come back as the frames' names (meta.sprat), and as the file names with {label}.
    await convert(path.join(dir, 'tp.json'), path.join(dir, 'named.json'), 'aseprite');
    const r = await runCli([
      'convert',
      path.join(dir, 'tp.json'),
      path.join(dir, 'labels.json'),
      '--to',
      'aseprite',
      '--filename-format',
      '{label}',
    ]);
    expect(r.code).toBe(0);
    const labels = JSON.parse(fs.readFileSync(path.join(dir, 'labels.json'), 'utf8'));
    expect(Object.keys(labels.frames).sort()).toEqual(Object.keys(src.frames).sort());
    expect(await playbackDiff(path.join(dir, 'hero.json'), path.join(dir, 'back.json'))).toBe('');
  });

  const cases = [
    { name: 'ISPRITE hero', dir: 'isprite', files: ['hero.isprite', 'hero.png'], input: 'hero.isprite', to: 'isprite', ext: 'isprite' },
    { name: 'CTHG fan', dir: 'cthg', files: fs.readdirSync(path.join(SAMPLES, 'cthg')), input: 'fan.dat', to: 'cthg', ext: 'dat' },
  ];
  for (const c of cases) {
    for (const via of ['aseprite', 'texturepacker']) {
      it(`${c.name} -> ${via} -> back plays the same`, async () => {
        const dir = path.join(tmp, `${c.dir}-${via}`);
        copyInto(dir, path.join(SAMPLES, c.dir), c.files);
        const notes = await convert(path.join(dir, c.input), path.join(dir, 'sheet.json'), via);
        await convert(path.join(dir, 'sheet.json'), path.join(dir, `back.${c.ext}`), c.to);
        const diff = await playbackDiff(path.join(dir, c.input), path.join(dir, `back.${c.ext}`));
        expect(diff, notes).toBe('');
        if (c.to === 'isprite') {
          // Points, collision shapes and triggers come back from meta.sprat, frame for frame.
          expect(await frameData(path.join(dir, `back.${c.ext}`))).toEqual(await frameData(path.join(dir, c.input)));
          expect(notes).toContain(`${via}: players do not read points and collision shapes (sprat reads them back from meta.sprat)`);
        }
      });
    }
  }
});

/** Each ISPRITE frame's triggers and non-graphic elements (names resolved), from `inspect --json`. */
async function frameData(file: string): Promise<unknown[]> {
  const r = await runCli(['inspect', '--json', file]);
  expect(r.code).toBe(0);
  const doc = JSON.parse(r.stdout) as {
    names: string[];
    frames: { label: string; triggers: string; elements: { type: string; name: number | null }[] }[];
  };
  return doc.frames.map((f) => ({
    triggers: f.triggers,
    shapes: f.elements
      .filter((e) => e.type !== 'graphic')
      .map(({ id: _id, ...e }: { type: string; name: number | null; id?: number }) => ({
        ...e,
        name: e.name === null ? null : doc.names[e.name],
      })),
  }));
}

describe('a Solarus sprite in a folder under sprites/ comes back naming its image from sprites/', () => {
  // quest-editor-initial's entities/items.dat (src_image "entities/items.png"), in a copy of the quest.
  const QUEST = path.join(CORPUS, 'solarus/quest-editor-initial/data');
  const data = path.join(tmp, 'items-quest/data');
  const entities = path.join(data, 'sprites/entities');
  copyInto(data, QUEST, ['quest.dat']);
  copyInto(entities, path.join(QUEST, 'sprites/entities'), ['items.dat', 'items.png']);
  const images = (dat: string) => [...fs.readFileSync(dat, 'utf8').matchAll(/src_image = "([^"]*)"/g)].map((m) => m[1]!);

  for (const [via, out] of [
    ['isprite', 'items.via.isprite'],
    ['aseprite', 'items.ase.json'],
    ['texturepacker', 'items.tp.json'],
  ] as const) {
    it(`items.dat -> ${via} -> Solarus: every src_image is a file under the quest's sprites/, and it plays the same`, async () => {
      await convert(path.join(entities, 'items.dat'), path.join(entities, out), via);
      const back = path.join(entities, `items.from-${via}.dat`);
      await convert(path.join(entities, out), back, 'solarus-lua');
      const named = images(back);
      expect(named.length).toBeGreaterThan(0);
      for (const image of named) {
        expect(image, image).toMatch(/^entities\//);
        expect(fs.existsSync(path.join(data, 'sprites', image)), image).toBe(true);
      }
      expect(await playbackDiff(path.join(entities, 'items.dat'), back)).toBe('');
    });
  }

  it("outside a quest, the image is named from the sheet's own folder, as before", async () => {
    const dir = path.join(tmp, 'items-loose');
    fs.mkdirSync(dir);
    await convert(path.join(entities, 'items.dat'), path.join(dir, 'items.json'), 'aseprite');
    await convert(path.join(dir, 'items.json'), path.join(dir, 'items.dat'), 'solarus-lua');
    const named = images(path.join(dir, 'items.dat'));
    expect(named).toEqual(named.map(() => 'items.png'));
    expect(fs.existsSync(path.join(dir, 'items.png'))).toBe(true);
  });

  // A sheet written in another folder than its input's names the input's image from where it is read.
  const art = path.join(tmp, 'art');
  copyInto(art, path.join(SAMPLES, 'hallgeir'), ['hero.spr', 'hero.png']);
  const toSolarus = async (out: string) => {
    const r = await runCli(['convert', path.join(art, 'hero.spr'), out, '--to', 'solarus', '--frame-size', '16x16']);
    expect(r.code, r.stderr).toBe(0);
    return r.stderr;
  };

  it("outside a quest, an image in the input's folder is named from the sheet's folder (../art/hero.png) and renders", async () => {
    const out = path.join(tmp, 'loose-out/hero.dat');
    fs.mkdirSync(path.dirname(out));
    await toSolarus(out);
    expect(new Set(fs.readFileSync(out, 'utf8').match(/\S+\.png/g))).toEqual(new Set(['../art/hero.png']));
    const r = await runCli(['render', out, '-o', path.join(tmp, 'loose-out/r.png')]);
    expect(r.code, r.stderr).toBe(0);
  });

  it('in a quest, an image outside sprites/ is named from sprites/ with one note: Solarus reads none there', async () => {
    const out = path.join(tmp, 'q2/data/sprites/hero/hero.dat');
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(path.join(tmp, 'q2/data/quest.dat'), '');
    const notes = await toSolarus(out);
    const rel = path.relative(path.join(tmp, 'q2/data/sprites'), path.join(art, 'hero.png'));
    expect(new Set(fs.readFileSync(out, 'utf8').match(/\S+\.png/g))).toEqual(new Set([rel]));
    expect(notes.match(/reads images only from the quest's sprites\/ folder/g)).toHaveLength(1);
    expect(notes).toContain(`"${rel}"`);
    const r = await runCli(['render', out, '-o', path.join(tmp, 'q2/r.png')]);
    expect(r.code, r.stderr).toBe(0);
  });
});

describe('meta.sprat is read as untrusted input', () => {
  const sheet = (sprat: unknown) =>
    new TextEncoder().encode(
      JSON.stringify({
        frames: [{ filename: '0', frame: { x: 0, y: 0, w: 1, h: 1 }, sourceSize: { w: 1, h: 1 }, duration: 100 }],
        meta: { sprat, app: 'https://www.aseprite.org/', frameTags: [{ name: 'a/0', from: 0, to: 0, direction: 'forward' }] },
      }),
    );

  it('a wrong value is an error at its place', () => {
    expect(() => asepriteHandler.read(sheet({ animations: [{ key: 'a/0', name: 'a', forever: ['x'] }] }))).toThrow(
      /\$\.meta\.sprat\.animations\[0\]\.forever\[0\].*\(at line 1, column \d+\)/,
    );
  });

  it('indices out of range are left out; the name and direction are taken', () => {
    const doc = asepriteHandler.read(sheet({ animations: [{ key: 'a/0', name: 'a', direction: '0', forever: [5], loopTo: 9 }] }));
    const model = asepriteModel(doc as AsepriteDoc);
    expect(model.animations.map((a) => [a.name, a.direction, a.loopTo, a.frames.map((f) => f.durationMs)])).toEqual([['a', '0', 0, [100]]]);
  });
});

describe('what a format cannot hold of the frames is said once per kind', () => {
  it('ISPRITE hero -> Solarus, Hallgeir: points and collision shapes, and frame events, each one note naming the animations', async () => {
    const dir = path.join(tmp, 'frame-data');
    copyInto(dir, path.join(SAMPLES, 'isprite'), ['hero.isprite', 'hero.png']);
    for (const [to, out] of [
      ['solarus', 'out.dat'],
      ['hallgeir-sprite', 'out2.spr'],
    ] as const) {
      const notes = await convert(path.join(dir, 'hero.isprite'), path.join(dir, out), to);
      expect(notes).toContain(`${to}: points and collision shapes are not stored and were dropped: idle, walk, Armed/attack, Armed/idle\n`);
      expect(notes).toContain(`${to}: frame events are not stored and were dropped: walk, Armed/attack\n`);
    }
  });
});

describe("Aseprite slices are the frames' rectangles", () => {
  const FACES = path.join(CORPUS, 'interop/josh-perry+peachy/examples');
  const shapesOf = (file: string) => {
    const doc = asepriteHandler.read(new Uint8Array(fs.readFileSync(file))) as AsepriteDoc;
    return asepriteModel(doc).animations.flatMap((a) => a.frames.map((f) => f.shapes ?? []));
  };

  it('faces.json -> TexturePacker -> Aseprite: every slice comes back with its bounds, colour and user data', async () => {
    const dir = path.join(tmp, 'faces');
    copyInto(dir, FACES, ['faces.json', 'faces.png']);
    const original = shapesOf(path.join(dir, 'faces.json'));
    expect(original.flat().map((s) => s.name)).toEqual(['Skull', 'Smile', 'UpsideDown', 'Heart', 'Nerd']);
    expect(original[0]![0]).toMatchObject({ type: 'rect', width: 32, height: 32, color: '#fe5b59ff', userData: 'ded' });
    await convert(path.join(dir, 'faces.json'), path.join(dir, 'tp.json'), 'texturepacker');
    await convert(path.join(dir, 'tp.json'), path.join(dir, 'back.json'), 'aseprite');
    expect(shapesOf(path.join(dir, 'back.json'))).toEqual(original);
  });

  it('to ISPRITE they are collision rectangles, and what a rectangle cannot hold is one note naming the slices', async () => {
    const dir = path.join(tmp, 'faces-isprite');
    copyInto(dir, FACES, ['faces.json', 'faces.png']);
    const notes = await convert(path.join(dir, 'faces.json'), path.join(dir, 'out.isprite'), 'isprite');
    expect(notes).toContain('those of these slices were dropped: "Skull", "Smile", "UpsideDown", "Heart", "Nerd"');
    const r = await runCli(['inspect', '--json', path.join(dir, 'out.isprite')]);
    const doc = JSON.parse(r.stdout) as { frames: { elements: { type: string }[] }[] };
    expect(doc.frames[0]!.elements.filter((e) => e.type === 'rect')).toHaveLength(5);
  });
});
