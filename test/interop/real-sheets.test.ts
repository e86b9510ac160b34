/**
 * The collection's sheets and Aseprite files: real TexturePacker, Phaser and Aseprite sheet
 * exports and native `.aseprite` files from public projects, read where their npm packages install them
 * (test/fixtures/REAL-FILES.md lists each source, version, path and licence; the project keeps no copies).
 *
 * A sheet that names its image: every frame sprat draws is the picture its tools' clients draw, computed
 * here from the JSON alone: the frame's rectangle of the sheet (turned back when `rotated`) placed at
 * `spriteSourceSize` on a `sourceSize` canvas, with the sprite's origin at the frame's pivot (anchor)
 * or the `origin` slice's. Each converts to the other sheet format and back, and draws the same there.
 * A Phaser atlas naming no image is drawn with the one its game gives load.atlas (`--sheet-image`).
 * Where the tool's client looks frames up by name (aseprite-atlas: `TAG N`), each animation holds the
 * frames that client would play. A native file: each frame flattened as Aseprite flattens it, equal pixel
 * for pixel and in duration to the export of the same file its package ships (made by Aseprite), and its
 * conversions to sheets draw the same frames. A missing source skips its tests here and fails them in CI.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { convert, formatByName, type Loaded, load } from '../../src/api.js';
import { aseHandler } from '../../src/interop/aseprite/file.js';
import type { SpriteModel } from '../../src/model/types.js';
import { fsResourceLoader } from '../../src/node/fs.js';
import { createImage, type RgbaImage } from '../../src/render/image.js';
import { drawPicture } from '../../src/render/pipeline.js';
import { decodePng } from '../../src/render/png.js';
import { runCli } from '../helpers/cli.js';
import { filesUnder, haveSource } from '../helpers/real.js';
import { ASE_FILES, clientCanvas, drawer, framesOf, type Json, jsonFrames, modelOf, SHEETS, sheetOptions } from '../helpers/real-sheets.js';
import type { CommandOptions } from '../../src/formats/types.js';

/** The w x h canvas of a drawn frame whose sprite origin is (ox, oy) on the canvas; nothing may be drawn outside it. */
function onCanvas(
  drawn: { frames: RgbaImage[]; originX: number; originY: number },
  w: number,
  h: number,
  ox: number,
  oy: number,
  what: string,
) {
  const img = drawn.frames[0]!;
  const x0 = drawn.originX - ox;
  const y0 = drawn.originY - oy;
  const out = createImage(w, h);
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const i = (y * img.width + x) * 4;
      const u = x - x0;
      const v = y - y0;
      if (u >= 0 && v >= 0 && u < w && v < h) out.data.set(img.data.subarray(i, i + 4), (v * w + u) * 4);
      else if (img.data[i + 3]) expect.fail(`${what}: drawn outside the canvas at (${u}, ${v})`);
    }
  }
  return out;
}

/** Equal pixels (any two fully transparent pixels are equal); the first difference in the message. */
function expectSame(got: RgbaImage, want: RgbaImage, what: string): void {
  expect([got.width, got.height], what).toEqual([want.width, want.height]);
  for (let i = 0; i < want.data.length; i += 4) {
    const a = want.data[i + 3] ? want.data.subarray(i, i + 4).join() : '0';
    const b = got.data[i + 3] ? got.data.subarray(i, i + 4).join() : '0';
    if (a !== b) expect.fail(`${what}: pixel (${(i / 4) % want.width}, ${Math.floor(i / 4 / want.width)}) is ${b}, its client draws ${a}`);
  }
}

/** An image with the sprite origin at (ox, oy) on it. */
interface Placed {
  img: RgbaImage;
  ox: number;
  oy: number;
}

/** Equal pixels about the sprite origin: everywhere either image covers (outside one, the other must be transparent). */
function expectSameAbout(got: Placed, want: Placed, what: string): void {
  const x0 = Math.min(-got.ox, -want.ox);
  const y0 = Math.min(-got.oy, -want.oy);
  const x1 = Math.max(got.img.width - got.ox, want.img.width - want.ox);
  const y1 = Math.max(got.img.height - got.oy, want.img.height - want.oy);
  const at = (p: Placed, x: number, y: number) => {
    const u = x + p.ox;
    const v = y + p.oy;
    if (u < 0 || v < 0 || u >= p.img.width || v >= p.img.height) return '0';
    const i = (v * p.img.width + u) * 4;
    return p.img.data[i + 3] ? p.img.data.subarray(i, i + 4).join() : '0';
  };
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const a = at(want, x, y);
      const b = at(got, x, y);
      if (a !== b) expect.fail(`${what}: pixel (${x}, ${y}) from the origin is ${b}, Aseprite's is ${a}`);
    }
  }
}

/** Writes the loaded file as `format` into a new folder and loads the result. */
async function converted(loaded: Loaded, from: string, format: string, name: string, options: CommandOptions = {}) {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-real-sheet-'));
  const { files } = await convert(loaded, formatByName(format), `${name}.json`, fsResourceLoader(from), options);
  for (const f of files) fs.writeFileSync(path.join(out, f.name), f.bytes);
  const file = path.join(out, `${name}.json`);
  const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as Json;
  // A same-format convert keeps the sheet where it was: the JSON names it.
  if (!doc.textures && !fs.existsSync(path.join(out, doc.meta.image)))
    fs.copyFileSync(path.join(from, doc.meta.image), path.join(out, doc.meta.image));
  return { dir: out, doc, loaded: load(new Uint8Array(fs.readFileSync(file)), file, format) };
}

/** Each frame of `doc` (a sheet export) drawn by sprat against its client's picture, by frame label. */
async function expectDrawsAsClient(loaded: Loaded, doc: Json, dir: string, what: string, sheetImage?: string): Promise<SpriteModel> {
  const byName = new Map(jsonFrames(doc, sheetImage).map((f) => [f.name, f]));
  const sheets = new Map<string, RgbaImage>();
  const model = await modelOf(loaded, dir, sheetOptions(sheetImage));
  const draw = drawer(loaded, dir, sheetOptions(sheetImage));
  const frames = framesOf(model);
  expect(frames.length).toBeGreaterThan(0);
  for (const { anim, k, label } of frames) {
    const f = byName.get(label ?? '');
    if (!f) expect.fail(`${what}: ${anim} frame ${k} is labelled "${label}", no frame of the JSON`);
    let sheet = sheets.get(f.image);
    if (!sheet) sheets.set(f.image, (sheet = decodePng(fs.readFileSync(path.join(dir, f.image)))));
    const drawn = await draw(anim, k);
    const at = `${what}: ${anim} frame ${k} ("${label}")`;
    expectSame(onCanvas(drawn, f.size.w, f.size.h, f.ox, f.oy, at), clientCanvas(f, sheet), at);
  }
  return model;
}

const counted = { sheets: 0, aseprite: 0 };

describe('real sheets from public projects', () => {
  for (const set of SHEETS) {
    const { source, match } = set;
    describe.skipIf(!haveSource(source))(`${source.name} (${source.package})`, () => {
      const files = haveSource(source) ? filesUnder(source.dir, match) : [];
      counted.sheets += files.length;
      it('ships the sheets this test expects', () => expect(files.length).toBeGreaterThan(0));
      for (const file of files) {
        const full = path.join(source.dir, file);
        const dir = path.dirname(full);
        const image = set.sheetImage?.(file);
        if (image) {
          it(`${file}: names no image; drawn with the one the game gives load.atlas (--sheet-image ${image})`, async () => {
            const v = await runCli(['validate', path.basename(full)], dir);
            expect(v.code, v.stdout + v.stderr).toBe(0);
            const out = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-real-sheet-'));
            const r = await runCli(['render', path.basename(full), '-o', path.join(out, 'never.png')], dir);
            expect(r.code).toBe(1);
            expect(r.stderr.trim().split('\n')).toHaveLength(1);
            expect(r.stderr).toMatch(/names no sheet image \(give it with --sheet-image IMAGE\)/);
            const ok = await runCli(['render', path.basename(full), '--sheet-image', image, '-o', path.join(out, 'render.png')], dir);
            expect(ok.code, ok.stderr).toBe(0);
            // convert takes it too, and writes the sheet the output names.
            const c = await runCli(
              ['convert', path.basename(full), path.join(out, 'x.json'), '--to', 'aseprite', '--sheet-image', image],
              dir,
            );
            expect(c.code, c.stderr).toBe(0);
            expect(JSON.parse(fs.readFileSync(path.join(out, 'x.json'), 'utf8')).meta.image).toBe('x.png');
          });
        }
        it(`${file}: reads, and each frame drawn is the frame its clients draw`, async () => {
          const v = await runCli(['validate', path.basename(full)], dir);
          expect(v.code, v.stdout + v.stderr).toBe(0);
          const doc = JSON.parse(fs.readFileSync(full, 'utf8')) as Json;
          const loaded = load(new Uint8Array(fs.readFileSync(full)), full);
          const model = await expectDrawsAsClient(loaded, doc, dir, file, image);
          if (set.tagFrameNames) {
            // aseprite-atlas plays tag T as the frames named "T from" ... "T to" (numbers counted in each file).
            for (const t of doc.meta.frameTags as Json[]) {
              const a = model.animations.find((x) => x.name === t.name);
              const want = Array.from({ length: t.to - t.from + 1 }, (_, i) => `${t.name} ${t.from + i}`);
              expect(
                a?.frames.map((f) => f.label),
                t.name,
              ).toEqual(want);
            }
          }
        });
        it(`${file}: converts to the other sheet format and back, drawing the same frames`, async () => {
          const loaded = load(new Uint8Array(fs.readFileSync(full)), full);
          const kind = loaded.handler.name;
          const other = kind === 'aseprite' ? 'texturepacker' : 'aseprite';
          const there = await converted(loaded, dir, other, 'there', sheetOptions(image));
          const back = await converted(there.loaded, there.dir, kind, 'back');
          const names = framesOf(await modelOf(loaded, dir, sheetOptions(image))).map((f) => [f.anim, f.k]);
          for (const c of [there, back]) {
            const m = await expectDrawsAsClient(c.loaded, c.doc, c.dir, `${file} as ${c.loaded.handler.name}`);
            expect(framesOf(m).map((f) => [f.anim, f.k])).toEqual(names);
          }
        });
      }
    });
  }
});

describe('real Aseprite files from public projects', () => {
  for (const { source, files, export: exported } of ASE_FILES) {
    describe.skipIf(!haveSource(source))(`${source.name} (${source.package})`, () => {
      counted.aseprite += files.length;
      for (const file of files) {
        const full = path.join(source.dir, file);
        it(`${file}: flattens as Aseprite does (its export ${exported}, frame for frame)`, async () => {
          const v = await runCli(['validate', file], source.dir);
          expect(v.code, v.stdout + v.stderr).toBe(0);
          const doc = aseHandler.read(new Uint8Array(fs.readFileSync(full)));
          const flat = drawPicture(await aseHandler.picture!(doc, {}, fsResourceLoader(source.dir))).frames;
          expect(flat).toHaveLength(doc.frames.length);
          // The export names frame i "TAG i" (aseprite-atlas-pack: --filename-format '{tag} {frame}'), TAG its tag in this file.
          const json = JSON.parse(fs.readFileSync(path.join(source.dir, exported), 'utf8')) as Json;
          const byName = new Map(jsonFrames(json).map((f) => [f.name, f]));
          const sheet = decodePng(fs.readFileSync(path.join(source.dir, json.meta.image)));
          flat.forEach((img, i) => {
            const tag = doc.tags.find((t) => t.from <= i && i <= t.to);
            const f = byName.get(`${tag?.name} ${i}`);
            if (!f) expect.fail(`${file}: frame ${i} is not in ${exported}`);
            expectSame(img, clientCanvas(f, sheet), `${file} frame ${i}`);
            expect(doc.frames[i]!.duration, `${file} frame ${i}: duration`).toBe(f.duration);
          });
        });
        it(`${file}: converts to Aseprite and TexturePacker sheets (and back) drawing the same frames`, async () => {
          const loaded = load(new Uint8Array(fs.readFileSync(full)), full);
          const doc = loaded.doc as ReturnType<typeof aseHandler.read>;
          const draw = drawer(loaded, source.dir);
          const model = await modelOf(loaded, source.dir);
          // Each tag's frames as Aseprite flattens them (the canvas, its origin at the upper-left corner: no origin slice).
          expect(doc.slices.some((sl) => sl.name === 'origin')).toBe(false);
          const want = new Map<string, Placed>();
          for (const { anim, k } of framesOf(model)) {
            const d = await draw(anim, k);
            const img = onCanvas(d, doc.header.width, doc.header.height, 0, 0, `${file} ${anim} ${k}`);
            want.set(`${anim}/${k}`, { img, ox: 0, oy: 0 });
          }
          const asJson = await converted(loaded, source.dir, 'aseprite', 'sheet');
          const asTp = await converted(loaded, source.dir, 'texturepacker', 'sheet');
          const back = await converted(asTp.loaded, asTp.dir, 'aseprite', 'back');
          for (const c of [asJson, asTp, back]) {
            const m = await modelOf(c.loaded, c.dir);
            expect(framesOf(m).map((f) => `${f.anim}/${f.k}`)).toEqual([...want.keys()]);
            const byName = new Map(jsonFrames(c.doc).map((f) => [f.name, f]));
            const sheets = new Map<string, RgbaImage>();
            const drawC = drawer(c.loaded, c.dir);
            for (const { anim, k, label } of framesOf(m)) {
              const f = byName.get(label ?? '')!;
              let sheet = sheets.get(f.image);
              if (!sheet) sheets.set(f.image, (sheet = decodePng(fs.readFileSync(path.join(c.dir, f.image)))));
              const at = `${file} as ${c.loaded.handler.name}: ${anim} frame ${k}`;
              // sprat may write a smaller canvas (the frames' bounds) with the origin moved to match: compared about the origin.
              expectSameAbout({ img: clientCanvas(f, sheet), ox: f.ox, oy: f.oy }, want.get(`${anim}/${k}`)!, `${at} (its client)`);
              const d = await drawC(anim, k);
              expectSameAbout({ img: d.frames[0]!, ox: d.originX, oy: d.originY }, want.get(`${anim}/${k}`)!, `${at} (sprat)`);
            }
          }
        });
      }
    });
  }
});

describe('the collection', () => {
  it.skipIf(!process.env.CI && ![...SHEETS, ...ASE_FILES].every((s) => fs.existsSync(s.source.dir)))(
    'holds the real sheets and Aseprite files listed in test/fixtures/REAL-FILES.md',
    () => {
      // 5 TexturePacker / Phaser atlases (create-game), 3 TexturePacker sheets (pixi-examples), 1 Aseprite batch
      // export and 2 native files (aseprite-atlas); ase-parser's indexed.aseprite is tested in ase.test.ts.
      expect(counted.sheets).toBe(9);
      expect(counted.aseprite).toBe(2);
    },
  );
});
