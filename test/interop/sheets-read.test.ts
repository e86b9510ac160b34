/**
 * Sheet files as people have them: a Phaser multiatlas and a
 * TexturePacker multipack read as one document (siblings through the
 * resource layer), an Aseprite 1.3 batch export of several files split into
 * one animation set per file, and an absolute `meta.image` (a Windows or
 * another machine's path) found next to the JSON, with a note.
 */
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/binary/errors.js';
import { load, references } from '../../src/api.js';
import { asepriteHandler, type AsepriteDoc } from '../../src/interop/aseprite/index.js';
import { texturePackerHandler, type TexturePackerDoc } from '../../src/interop/texturepacker/index.js';
import { renderModelFrame } from '../../src/model/bake.js';
import type { SpriteModel } from '../../src/model/types.js';
import { cropImage } from '../../src/render/image.js';
import { encodePng } from '../../src/render/png.js';
import { memoryLoader, patternImage } from './helpers.js';

const enc = (v: unknown) => new TextEncoder().encode(JSON.stringify(v, null, 1));
const red = patternImage(8, 8, 1);
const blue = patternImage(8, 8, 2);
const cell = (x: number, name: string) => ({ filename: name, frame: { x, y: 0, w: 4, h: 8 }, sourceSize: { w: 4, h: 8 } });

/** The model frame drawn, as the sheet rectangle it shows. */
function shows(model: SpriteModel, anim: string, frame: number) {
  const a = model.animations.findIndex((x) => x.name === anim);
  expect(a, anim).toBeGreaterThanOrEqual(0);
  return renderModelFrame(model, a, frame).image;
}

describe('Phaser multiatlas (textures: [...])', () => {
  const atlas = {
    textures: [
      { image: 'red.png', format: 'RGBA8888', size: { w: 8, h: 8 }, scale: 1, frames: [cell(0, 'r0'), cell(4, 'r1')] },
      { image: 'blue.png', format: 'RGBA8888', size: { w: 8, h: 8 }, scale: 1, frames: [cell(4, 'b1')] },
    ],
    animations: { mixed: ['r1', 'b1'] },
    meta: { app: 'https://www.codeandweb.com/texturepacker', version: '1.0' },
  };
  const loader = memoryLoader({ 'red.png': encodePng(red), 'blue.png': encodePng(blue) });

  it('reads every texture as one document, each frame from its own sheet', async () => {
    const loaded = load(enc(atlas), 'atlas.json');
    expect(loaded.handler.name).toBe('texturepacker');
    const doc = loaded.doc as TexturePackerDoc;
    expect(doc.textures?.map((t) => t.image)).toEqual(['red.png', 'blue.png']);
    expect(doc.frames.map((f) => [f.filename, f.sheet])).toEqual([
      ['r0', 0],
      ['r1', 0],
      ['b1', 1],
    ]);
    const model = (await texturePackerHandler.toModel!(doc, loader)) as SpriteModel;
    expect(model.sheets.map((s) => s.path)).toEqual(['red.png', 'blue.png']);
    expect(shows(model, 'mixed', 0)).toEqual(cropImage(red, 4, 0, 4, 8));
    expect(shows(model, 'mixed', 1)).toEqual(cropImage(blue, 4, 0, 4, 8));
    // Written back as a multiatlas; validated without a "no sheet image" warning.
    const again = texturePackerHandler.inspectJson(doc) as { textures: { image: string; frames: unknown[] }[] };
    expect(again.textures.map((t) => [t.image, t.frames.length])).toEqual([
      ['red.png', 2],
      ['blue.png', 1],
    ]);
    expect(texturePackerHandler.validate(enc(atlas))).toEqual([]);
    expect(await references(loaded, loader)).toEqual(['red.png', 'blue.png']);
  });

  it('an image that cannot be loaded is placed at its texture', async () => {
    const doc = texturePackerHandler.read(enc(atlas)) as TexturePackerDoc;
    const err = await texturePackerHandler.toModel!(doc, memoryLoader({ 'red.png': encodePng(red) })).catch((e) => e);
    expect(err).toBeInstanceOf(FormatError);
    expect((err as FormatError).message).toMatch(/\$\.textures\[1\]\.image: the sheet "blue\.png" not found/);
    expect((err as FormatError).line).toBeGreaterThan(1);
  });
});

describe('TexturePacker multipack (meta.related_multi_packs)', () => {
  const main = {
    frames: { r0: cell(0, 'r0'), r1: cell(4, 'r1') },
    animations: { walk: ['r0', 'r1', 'b0'] },
    meta: {
      app: 'https://www.codeandweb.com/texturepacker',
      image: 'red.png',
      size: { w: 8, h: 8 },
      related_multi_packs: ['more/pack-1.json'],
    },
  };
  const sibling = {
    frames: { b0: cell(0, 'b0') },
    animations: { blue: ['b0'] },
    meta: { app: 'https://www.codeandweb.com/texturepacker', image: 'blue.png', size: { w: 8, h: 8 } },
  };
  const files = { 'red.png': encodePng(red), 'more/pack-1.json': enc(sibling), 'more/blue.png': encodePng(blue) };

  it('loads the siblings (their images beside them) and plays animations across the packs', async () => {
    const loaded = load(enc(main), 'pack-0.json');
    const model = (await texturePackerHandler.toModel!(loaded.doc as TexturePackerDoc, memoryLoader(files))) as SpriteModel;
    expect(model.sheets.map((s) => s.path)).toEqual(['red.png', 'more/blue.png']);
    expect(model.animations.map((a) => [a.name, a.frames.length])).toEqual([
      ['walk', 3],
      ['blue', 1],
    ]);
    expect(shows(model, 'walk', 2)).toEqual(cropImage(blue, 0, 0, 4, 8));
    expect(shows(model, 'walk', 1)).toEqual(cropImage(red, 4, 0, 4, 8));
    expect(await references(loaded, memoryLoader(files))).toEqual(['more/pack-1.json', 'red.png', 'more/blue.png']);
    // The document itself re-encodes as it was (the siblings are not folded into it).
    expect(Object.keys((texturePackerHandler.inspectJson(loaded.doc as TexturePackerDoc) as { frames: object }).frames)).toEqual([
      'r0',
      'r1',
    ]);
  });

  it('a missing sibling is an error at its name, never silently ignored', async () => {
    const doc = texturePackerHandler.read(enc(main)) as TexturePackerDoc;
    const err = (await texturePackerHandler.toModel!(doc, memoryLoader({ 'red.png': encodePng(red) })).catch(
      (e: unknown) => e,
    )) as FormatError;
    expect(err).toBeInstanceOf(FormatError);
    expect(err.message).toMatch(
      /\$\.meta\.related_multi_packs\[0\]: "more\/pack-1\.json": the multipack sheet "more\/pack-1\.json" not found/,
    );
    expect(err.line).toBeGreaterThan(1);
    // An animation frame found in no file of the set.
    const typo = { ...main, animations: { walk: ['r0', 'b9'] } };
    const e2 = (await texturePackerHandler.toModel!(texturePackerHandler.read(enc(typo)), memoryLoader(files)).catch(
      (e: unknown) => e,
    )) as FormatError;
    expect(e2.message).toMatch(/\$\.animations\.walk\[1\]: names no frame "b9" in any file of the multipack/);
  });
});

describe('Aseprite 1.3 batch export of several files', () => {
  // aseprite -b a.aseprite b.aseprite c.aseprite --sheet s.png --data s.json --list-tags:
  // frames named "{title} {frame}.{extension}" from 0 in each file; each file's tags counted from its own first frame.
  const frames = [
    ['a 0.aseprite', 0],
    ['a 1.aseprite', 4],
    ['b 0.aseprite', 0],
    ['b 1.aseprite', 4],
    ['b 2.aseprite', 0],
    ['c.aseprite', 4],
  ] as const;
  const doc = {
    frames: Object.fromEntries(frames.map(([n, x]) => [n, { ...cell(x, n), duration: 100 }])),
    meta: {
      app: 'https://www.aseprite.org/',
      version: '1.3.7',
      image: 's.png',
      size: { w: 8, h: 8 },
      frameTags: [
        { name: 'idle', from: 0, to: 1, direction: 'forward' },
        { name: 'idle', from: 0, to: 0, direction: 'forward' },
        { name: 'walk', from: 1, to: 2, direction: 'pingpong' },
      ],
    },
  };

  it('gives one animation set per file, named FILE/TAG, frames from that file', async () => {
    const d = asepriteHandler.read(enc(doc)) as AsepriteDoc;
    const model = (await asepriteHandler.toModel!(d, memoryLoader({ 's.png': encodePng(red) }))) as SpriteModel;
    expect(model.animations.map((a) => [a.name, a.frames.map((f) => f.label)])).toEqual([
      ['a/idle', ['a 0.aseprite', 'a 1.aseprite']],
      ['b/idle', ['b 0.aseprite']],
      ['b/walk', ['b 1.aseprite', 'b 2.aseprite']],
      ['c', ['c.aseprite']],
    ]);
    expect(model.notes?.join('\n')).toMatch(/a batch export of 3 files \(a\.aseprite, b\.aseprite, c\.aseprite\)/);
  });

  it('a one-file export is read as before', async () => {
    const one = { ...doc, frames: Object.fromEntries(Object.entries(doc.frames).slice(0, 2)) };
    one.meta = { ...doc.meta, frameTags: [doc.meta.frameTags[0]!] };
    const model = (await asepriteHandler.toModel!(
      asepriteHandler.read(enc(one)),
      memoryLoader({ 's.png': encodePng(red) }),
    )) as SpriteModel;
    expect(model.animations.map((a) => a.name)).toEqual(['idle']);
    expect(model.notes).toBeUndefined();
  });
});

describe('Aseprite batch export named "{tag} {frame}" (aseprite-atlas-pack)', () => {
  // aseprite -b a.aseprite b.aseprite --filename-format '{tag} {frame}' --list-tags: no titles in the
  // names; each file's frames numbered from 0, its tags counted from its own first frame.
  const frames = [
    ['a-idle 0', 0],
    ['a-idle 1', 4],
    ['a-run 2', 0],
    ['b-eat 0', 4],
    ['b-eat 1', 0],
    ['b-idle 2', 4],
  ] as const;
  const tags = [
    { name: 'a-idle', from: 0, to: 1, direction: 'forward' },
    { name: 'a-run', from: 2, to: 2, direction: 'forward' },
    { name: 'b-eat', from: 0, to: 1, direction: 'forward' },
    { name: 'b-idle', from: 2, to: 2, direction: 'forward' },
  ];
  const sheet = (names: readonly (readonly [string, number])[], frameTags: typeof tags) => ({
    frames: Object.fromEntries(names.map(([n, x]) => [n, { ...cell(x, n), duration: 100 }])),
    meta: { app: 'http://www.aseprite.org/', version: '1.2.15', image: 's.png', size: { w: 8, h: 8 }, frameTags },
  });
  const model = async (doc: unknown) =>
    (await asepriteHandler.toModel!(asepriteHandler.read(enc(doc)), memoryLoader({ 's.png': encodePng(red) }))) as SpriteModel;

  it("gives each file's tags that file's frames, as the names say", async () => {
    const m = await model(sheet(frames, tags));
    expect(m.animations.map((a) => [a.name, a.frames.map((f) => f.label)])).toEqual([
      ['a-idle', ['a-idle 0', 'a-idle 1']],
      ['a-run', ['a-run 2']],
      ['b-eat', ['b-eat 0', 'b-eat 1']],
      ['b-idle', ['b-idle 2']],
    ]);
    expect(m.notes?.join('\n')).toMatch(/a batch export of 2 files \(file 1: frames 0-2, file 2: frames 3-5\)/);
  });

  it('a tag name two files use is named by its file', async () => {
    const same = tags.map((t) => ({ ...t, name: t.name.replace(/^[ab]-/, '') }));
    const m = await model(sheet(frames, same));
    expect(m.animations.map((a) => a.name)).toEqual(['file 1/idle', 'run', 'eat', 'file 2/idle']);
  });

  it('a one-file export named "{tag} {tagframe}" (numbers restarting, tags in order) is read as one file', async () => {
    const one = [
      ['idle 0', 0],
      ['idle 1', 4],
      ['run 0', 0],
      ['run 1', 4],
    ] as const;
    const m = await model(
      sheet(one, [
        { name: 'idle', from: 0, to: 1, direction: 'forward' },
        { name: 'run', from: 2, to: 3, direction: 'forward' },
      ]),
    );
    expect(m.animations.map((a) => [a.name, a.frames.map((f) => f.label)])).toEqual([
      ['idle', ['idle 0', 'idle 1']],
      ['run', ['run 0', 'run 1']],
    ]);
    expect(m.notes).toBeUndefined();
  });
});

describe('a sheet that names no image (a Phaser atlas: the game gives load.atlas the image)', () => {
  const atlas = { frames: [{ ...cell(4, 'b'), anchor: { x: 0.5, y: 1 } }], meta: { description: 'Atlas Packer Gamma' } };
  it('reads as TexturePacker (its anchors kept); --sheet-image names the image, for the model and references', async () => {
    const loaded = load(enc(atlas), 'b_atlas.json');
    expect(loaded.handler.name).toBe('texturepacker');
    const loader = memoryLoader({ 'b.png': encodePng(blue) });
    const err = (await loaded.handler.toModel!(loaded.doc, loader).catch((e) => e)) as FormatError;
    expect(err.message).toMatch(/^\$\.meta\.image: the document names no sheet image \(give it with --sheet-image IMAGE\)/);
    const model = (await loaded.handler.toModel!(loaded.doc, loader, { 'sheet-image': 'b.png' })) as SpriteModel;
    expect(model.sheets[0]!.image).toEqual(blue);
    expect(model.animations[0]!.frames[0]!.parts[0]).toMatchObject({ sx: 4, sw: 4, x: -2, y: -8 });
    expect(await references(loaded, loader, { 'sheet-image': 'b.png' })).toEqual(['b.png']);
    expect(await references(loaded, loader)).toEqual([]);
  });
});

describe('an absolute meta.image', () => {
  for (const image of ['C:\\Users\\art\\export\\hero.png', '/home/art/export/hero.png']) {
    it(`${image}: the file name next to the JSON, with a note`, async () => {
      const tp = { frames: { f: cell(0, 'f') }, meta: { app: 'https://www.codeandweb.com/texturepacker', image } };
      const loader = memoryLoader({ 'hero.png': encodePng(red) });
      const loaded = load(enc(tp), 'hero.json');
      const model = (await texturePackerHandler.toModel!(loaded.doc as TexturePackerDoc, loader)) as SpriteModel;
      expect(model.sheets[0]!.image).toEqual(red);
      expect(model.notes?.join('\n')).toContain(
        `$.meta.image "${image}" is an absolute path; the sheet was read from "hero.png" next to the document`,
      );
      expect(await references(loaded, loader)).toEqual(['hero.png']);
      // Nowhere: the error names both places.
      const err = (await texturePackerHandler.toModel!(loaded.doc as TexturePackerDoc, memoryLoader({})).catch((e) => e)) as FormatError;
      expect(err.message).toMatch(/not found \(looked for .*hero\.png/);
    });
  }
});
