/**
 * The engine atlas exporters (src/interop/{godot,libgdx,starling,cocos2d,
 * phaser,pixi,css,template}/) on a hand-built two-page atlas with trimmed,
 * rotated and aliased frames, a pivot and animations: each file read back by
 * the engine's own parser where one runs in Node (Spine's spine-core
 * TextureAtlas for `.atlas`; the `plist` package plus cocos2d-x's
 * SpriteFrameCache rules for format 3) or checked against the format's
 * documentation (Godot 4's SpriteFrames text resource, CSS sprites). The
 * engines that draw (Phaser, PixiJS, Godot 3) have their own tests:
 * atlas-clients.test.ts (Chromium) and godot3.test.ts (godot3-server).
 */
import { RegionAttachment, TextureAtlas, type TextureAtlasRegion } from '@esotericsoftware/spine-core';
import { XMLParser } from 'fast-xml-parser';
import { parse as parsePlist } from 'plist';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FormatError, OptionError } from '../../src/binary/errors.js';
import type { Atlas, AtlasExporter } from '../../src/model/atlas.js';
import { createImage, type RgbaImage } from '../../src/render/image.js';
import { packAtlas } from '../../src/model/packatlas.js';
import { ATLAS_EXPORTERS, getAtlasExporter } from '../../src/registry.js';
import { cssIdentifier } from '../../src/interop/css/index.js';
import { templateExporter } from '../../src/interop/template/index.js';
import { readTexturePacker } from '../../src/interop/texturepacker/index.js';
import { readAseprite } from '../../src/interop/aseprite/index.js';
import { atlasFixture } from '../helpers/atlas-fixture.js';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT } from '../helpers/paths.js';

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const exporter = (name: string): AtlasExporter => getAtlasExporter(name)!;
const upright = atlasFixture({ rotate: false }).atlas;
const turned = atlasFixture({ rotate: true }).atlas;
const turnedLeft = atlasFixture({ rotate: true, turn: 'counterclockwise' });

/**
 * A spine-core region's untrimmed canvas, sampled from its page where
 * spine-core's RegionAttachment.computeUVs maps each point of the upright
 * frame (its corners' UVs: `degrees` 90 turns the page's rectangle back, the
 * offsets place it on the canvas, y up), at each canvas pixel's centre.
 */
function canvasOfRegion(r: TextureAtlasRegion, page: RgbaImage): Uint8Array {
  const W = r.originalWidth;
  const H = r.originalHeight;
  const pos: number[] = new Array(8).fill(0);
  const uv = new Float32Array(8);
  RegionAttachment.computeUVs(r, 0, 0, 1, 1, 0, W, H, pos, uv);
  // Corners: 0 bottom-left, 1 top-left, 2 top-right, 3 bottom-right (x right, y up, the canvas centred on 0).
  const out = new Uint8Array(W * H * 4);
  for (let cy = 0; cy < H; cy++)
    for (let cx = 0; cx < W; cx++) {
      const lx = cx + 0.5 - W / 2;
      const ly = H / 2 - (cy + 0.5);
      const s = (lx - pos[0]!) / (pos[4]! - pos[0]!);
      const t = (ly - pos[1]!) / (pos[5]! - pos[1]!);
      if (s < 0 || s > 1 || t < 0 || t > 1) continue;
      const u = uv[0]! + s * (uv[6]! - uv[0]!) + t * (uv[2]! - uv[0]!);
      const v = uv[1]! + s * (uv[7]! - uv[1]!) + t * (uv[3]! - uv[1]!);
      const from = (Math.floor(v * page.height) * page.width + Math.floor(u * page.width)) * 4;
      out.set(page.data.subarray(from, from + 4), (cy * W + cx) * 4);
    }
  return out;
}

describe('the atlas exporters list', () => {
  it('holds every engine format once, by the names `sprat pack --to` takes', () => {
    expect(ATLAS_EXPORTERS.map((e) => e.name)).toEqual(
      expect.arrayContaining([
        'texturepacker',
        'aseprite',
        'godot4',
        'godot3',
        'libgdx',
        'starling',
        'cocos2d',
        'phaser3',
        'pixi',
        'css',
        'template',
      ]),
    );
    expect(new Set(ATLAS_EXPORTERS.map((e) => e.name)).size).toBe(ATLAS_EXPORTERS.length);
    for (const e of ATLAS_EXPORTERS) expect(e.extension, e.name).toMatch(/^\.[a-z0-9]+$/);
  });

  it('the formats that cannot say a frame is rotated refuse one, with the frame named', () => {
    // Starling and Phaser 3 files can say `rotated` (their exporters write it) though Phaser does not draw it right.
    expect(ATLAS_EXPORTERS.filter((x) => x.rotation).map((x) => [x.name, x.turn ?? 'clockwise'])).toEqual([
      ['texturepacker', 'clockwise'],
      ['libgdx', 'counterclockwise'],
      ['cocos2d', 'clockwise'],
      ['pixi', 'clockwise'],
    ]);
    for (const e of ['godot4', 'godot3', 'css', 'aseprite'].map(exporter)) {
      expect(() => e.write(turned, `hero${e.extension}`), e.name).toThrow(FormatError);
      expect(() => e.write(turned, `hero${e.extension}`), e.name).toThrow(/frame "walk\/0" is stored rotated/);
    }
  });

  it('a frame turned the other way than the format turns its rotated frames is refused, with the frame named', () => {
    expect(() => exporter('libgdx').write(turned, 'hero.atlas')).toThrow(
      /frame "walk\/0" is stored turned clockwise, and libgdx's rotated frames turn counterclockwise/,
    );
    for (const e of ['texturepacker', 'cocos2d', 'pixi', 'phaser3', 'starling'].map(exporter)) {
      expect(() => e.write(turnedLeft.atlas, `hero${e.extension}`), e.name).toThrow(FormatError);
      expect(() => e.write(turnedLeft.atlas, `hero${e.extension}`), e.name).toThrow(/frame "walk\/0" is stored turned counterclockwise/);
    }
    const t = getAtlasExporter('template')!.withTemplate!('<%= it.frames.length %>', 'n.txt.eta');
    expect(() => t.write(turnedLeft.atlas, 'n.txt')).toThrow(/stored turned counterclockwise/);
  });

  it('each says once what it cannot hold', () => {
    expect(exporter('css').losses!(upright)).toEqual([
      "css holds no pivots: 1 frames' pivots are not written",
      'css holds no animations: 2 animations are not written (their frames are)',
      "css holds no per-frame durations: 5 frames' durations are not written",
    ]);
    expect(exporter('godot4').losses!(upright)).toEqual(["godot4 holds no pivots: 1 frames' pivots are not written"]);
    // One speed per animation: "walk" shows for 80, 120 and 80 ms.
    expect(exporter('godot3').losses!(upright)).toContain("godot3 holds no per-frame durations: 5 frames' durations are not written");
    expect(exporter('pixi').losses!(upright)).toContain('pixi holds no loop flag: 1 animations\' "play once" is not written');
  });
});

describe('texturepacker and aseprite: sprat’s own sheet readers read the files back', () => {
  it('texturepacker: a JSON hash per page, linked by related_multi_packs; rotation, trim, pivot, duration, animations per page', () => {
    const files = exporter('texturepacker').write(turned, 'hero.json');
    expect(files.map((f) => f.name)).toEqual(['hero.json', 'hero-1.json']);
    const docs = files.map((f) => readTexturePacker(f.bytes));
    expect(docs.map((d) => [d.meta.image, d.meta.related_multi_packs])).toEqual([
      ['hero.png', ['hero-1.json']],
      ['hero-1.png', ['hero.json']],
    ]);
    for (const f of turned.frames) {
      const got = docs[f.page]!.frames.find((x) => x.filename === f.name)!;
      expect([got.frame, got.rotated, got.trimmed, got.spriteSourceSize, got.sourceSize, got.duration]).toEqual([
        f.frame,
        f.rotated,
        f.trimmed,
        f.spriteSourceSize,
        f.sourceSize,
        f.durationMs,
      ]);
    }
    expect(docs[0]!.animations).toEqual([['idle', ['idle/0', 'idle/1']]]);
    expect(exporter('texturepacker').losses!(turned)).toContain(
      'texturepacker holds an animation on one page only: "walk" span several pages and are not written',
    );
  });

  it('aseprite: a sheet per page, durations, animations of consecutive frames as tags', () => {
    const files = exporter('aseprite').write(upright, 'hero.json');
    expect(files.map((f) => f.name)).toEqual(['hero.json', 'hero-1.json']);
    const doc = readAseprite(files[0]!.bytes);
    expect(doc.frames.map((f) => [f.filename, f.duration])).toEqual([
      ['idle/0', 100],
      ['idle/1', 100],
      ['walk/1', 120],
    ]);
    expect(doc.meta.frameTags).toEqual([{ name: 'idle', from: 0, to: 1, direction: 'forward' }]);
    expect(exporter('aseprite').losses!(upright)).toContain(
      'aseprite holds an animation on one page only: "walk" span several pages and are not written',
    );
  });
});

describe('libgdx: Spine’s TextureAtlas reads the .atlas', () => {
  const [file] = exporter('libgdx').write(upright, 'hero.atlas');
  const atlas = new TextureAtlas(text(file!.bytes));

  it('every page with its size', () => {
    expect(file!.name).toBe('hero.atlas');
    expect(atlas.pages.map((p) => [p.name, p.width, p.height])).toEqual([
      ['hero.png', 16, 12],
      ['hero-1.png', 16, 12],
    ]);
  });

  it('every region: page, xy, size, rotate, offsets, orig and index as the Atlas has them', () => {
    const want = upright.animations.flatMap((a) => a.frames.map((i, index) => ({ f: upright.frames[i]!, name: a.name, index })));
    const got = atlas.regions.map((r) => ({
      name: r.name,
      page: r.page.name,
      x: r.x,
      y: r.y,
      width: r.width,
      height: r.height,
      degrees: r.degrees,
      offsetX: r.offsetX,
      offsetY: r.offsetY,
      originalWidth: r.originalWidth,
      originalHeight: r.originalHeight,
      index: r.index,
    }));
    const expected = want.map(({ f, name, index }) => ({
      name,
      page: upright.pages[f.page]!.file,
      x: f.frame.x,
      y: f.frame.y,
      width: f.frame.w,
      height: f.frame.h,
      degrees: 0,
      offsetX: f.spriteSourceSize.x,
      // libGDX counts the offset from the bottom (y up).
      offsetY: f.sourceSize.h - f.spriteSourceSize.y - f.frame.h,
      originalWidth: f.sourceSize.w,
      originalHeight: f.sourceSize.h,
      index,
    }));
    const key = (r: { page: string; name: string; index: number }) => `${r.page} ${r.name} ${r.index}`;
    expect([...got].sort((a, b) => key(a).localeCompare(key(b)))).toEqual([...expected].sort((a, b) => key(a).localeCompare(key(b))));
  });

  it('a rotated, trimmed frame: `rotate: true` (degrees 90), upright bounds and offsets; every region sampled where spine-core maps it is its source canvas', () => {
    const { atlas: left, sources } = turnedLeft;
    const parsed = new TextureAtlas(text(exporter('libgdx').write(left, 'hero.atlas')[0]!.bytes));
    const walk0 = left.frames.find((f) => f.name === 'walk/0')!;
    const r = parsed.regions.find((x) => x.name === 'walk' && x.index === 0)!;
    expect(walk0.rotated && walk0.trimmed).toBe(true);
    expect([r.degrees, r.x, r.y, r.width, r.height]).toEqual([90, walk0.frame.x, walk0.frame.y, walk0.frame.w, walk0.frame.h]);
    expect([r.offsetX, r.offsetY, r.originalWidth, r.originalHeight]).toEqual([
      walk0.spriteSourceSize.x,
      walk0.sourceSize.h - walk0.spriteSourceSize.y - walk0.frame.h,
      walk0.sourceSize.w,
      walk0.sourceSize.h,
    ]);
    for (const reg of parsed.regions) {
      const f = left.frames.find((x) => x.name === `${reg.name}/${reg.index}`)!;
      const page = left.pages.find((p) => p.file === reg.page.name)!.image;
      expect(canvasOfRegion(reg, page), f.name).toEqual(sources.get(f.name)!.data);
    }
  });

  it('packAtlas for libgdx with rotate and trim: frames too tall for the page stored turned, each where spine-core maps it', () => {
    // Canvases with transparent margins (trimmed) and a pattern no two pixels share; pages 6 high, so the tall ones turn.
    const frame = (w: number, h: number, seed: number) => {
      const img = createImage(w + 3, h + 2);
      for (let y = 1; y < h + 1; y++)
        for (let x = 2; x < w + 2; x++)
          img.data.set([(seed * 50 + x * 23) & 255, (y * 31 + seed) & 255, (x * y * 7 + 9) & 255, 255], (y * img.width + x) * 4);
      return img;
    };
    const frames = [
      { name: 'tall', image: frame(3, 9, 1) },
      { name: 'taller', image: frame(2, 11, 2) },
      { name: 'wide', image: frame(7, 3, 3) },
    ];
    const [packed] = packAtlas(frames, { trim: true, rotate: true, exporter: exporter('libgdx'), padding: 1, maxWidth: 64, maxHeight: 6 });
    expect(packed!.turn).toBe('counterclockwise');
    expect(packed!.frames.map((f) => [f.name, f.rotated, f.trimmed])).toEqual([
      ['tall', true, true],
      ['taller', true, true],
      ['wide', false, true],
    ]);
    const parsed = new TextureAtlas(text(exporter('libgdx').write(packed!, 'a.atlas')[0]!.bytes));
    for (const f of frames) {
      const r = parsed.findRegion(f.name)!;
      expect(r.degrees, f.name).toBe(f.name === 'wide' ? 0 : 90);
      expect(canvasOfRegion(r, packed!.pages[0]!.image), f.name).toEqual(f.image.data);
    }
  });

  it('a frame in no animation keeps its name, without an index', () => {
    const lone: Atlas = { ...upright, animations: [] };
    const regions = new TextureAtlas(text(exporter('libgdx').write(lone, 'a.atlas')[0]!.bytes)).regions;
    // Page by page, in atlas order; no `index` line: the reader's default (libGDX -1, spine-core 0).
    const none = new TextureAtlas('p.png\nsize: 1, 1\nr\n  bounds: 0, 0, 1, 1\n').regions[0]!.index;
    expect(regions.map((r) => [r.page.name, r.name, r.index])).toEqual([
      ['hero.png', 'idle/0', none],
      ['hero.png', 'idle/1', none],
      ['hero.png', 'walk/1', none],
      ['hero-1.png', 'walk/0', none],
      ['hero-1.png', 'walk/2', none],
    ]);
  });

  it('a name the reader would take for a field is an error, not a broken file', () => {
    const bad: Atlas = { ...upright, animations: [], frames: [{ ...upright.frames[0]!, name: 'size: 3' }] };
    expect(() => exporter('libgdx').write(bad, 'a.atlas')).toThrow(/region "size: 3" cannot be written/);
  });
});

describe('cocos2d: plist format 3 as cocos2d-x’s SpriteFrameCache reads it', () => {
  const files = exporter('cocos2d').write(turned, 'hero.plist');
  const docs = files.map((f) => parsePlist(text(f.bytes)) as Record<string, any>);
  /** cocos2d-x's SizeFromString / PointFromString / RectFromString: numbers in braces. */
  const nums = (s: string) => (s.match(/-?\d+(\.\d+)?/g) ?? []).map(Number);

  it('one file per page, each naming its texture, format 3', () => {
    expect(files.map((f) => f.name)).toEqual(['hero.plist', 'hero-1.plist']);
    docs.forEach((d, page) => {
      expect(d.metadata).toEqual({
        format: 3,
        pixelFormat: 'RGBA8888',
        premultiplyAlpha: false,
        realTextureFileName: turned.pages[page]!.file,
        size: '{16,12}',
        textureFileName: turned.pages[page]!.file,
      });
    });
  });

  it('every frame: spriteOffset, spriteSize, spriteSourceSize, textureRect, textureRotated, aliases', () => {
    const seen: string[] = [];
    turned.frames.forEach((f, i) => {
      const d = docs[f.page]!.frames;
      if (f.aliasOf !== undefined) {
        // An alias is a name of its original's entry (the cache maps it to that frame), not an entry.
        expect(d[f.name]).toBeUndefined();
        expect(d[turned.frames[f.aliasOf]!.name].aliases).toContain(f.name);
        return;
      }
      const e = d[f.name];
      seen.push(f.name);
      expect(Object.keys(e).sort()).toEqual(['aliases', 'spriteOffset', 'spriteSize', 'spriteSourceSize', 'textureRect', 'textureRotated']);
      expect(nums(e.spriteSize)).toEqual([f.frame.w, f.frame.h]);
      expect(nums(e.spriteSourceSize)).toEqual([f.sourceSize.w, f.sourceSize.h]);
      expect(nums(e.textureRect)).toEqual([f.frame.x, f.frame.y, f.frame.w, f.frame.h]);
      expect(e.textureRotated).toBe(f.rotated);
      // Sprite::setSpriteFrame: the trimmed rectangle's left and bottom edges are offset + (canvas - size) / 2, y up.
      const [ox, oy] = nums(e.spriteOffset);
      expect(ox! + (f.sourceSize.w - f.frame.w) / 2).toBe(f.spriteSourceSize.x);
      expect(oy! + (f.sourceSize.h - f.frame.h) / 2).toBe(f.sourceSize.h - f.spriteSourceSize.y - f.frame.h);
      expect(Array.isArray(e.aliases), `${i}`).toBe(true);
    });
    expect(seen).toContain('walk/0');
    expect(docs[1]!.frames['walk/0'].textureRotated).toBe(true);
  });
});

describe('godot4: the SpriteFrames text resource (format=3)', () => {
  const tres = text(exporter('godot4').write(upright, 'hero.tres')[0]!.bytes);

  it('the header, one Texture2D per page and one AtlasTexture per stored frame', () => {
    expect(tres.split('\n')[0]).toBe('[gd_resource type="SpriteFrames" load_steps=7 format=3]');
    expect(tres).toContain('[ext_resource type="Texture2D" path="hero.png" id="1"]');
    expect(tres).toContain('[ext_resource type="Texture2D" path="hero-1.png" id="2"]');
    const subs = [
      ...tres.matchAll(
        /\[sub_resource type="AtlasTexture" id="(\w+)"\]\natlas = ExtResource\("(\d)"\)\nregion = Rect2\(([^)]*)\)\n(?:margin = Rect2\(([^)]*)\)\n)?/g,
      ),
    ];
    // The alias shares its original's AtlasTexture.
    expect(subs.length).toBe(4);
    const stored = upright.frames.filter((f) => f.aliasOf === undefined);
    subs.forEach((m, i) => {
      const f = stored[i]!;
      expect(Number(m[2]) - 1).toBe(f.page);
      expect(m[3]).toBe(`${f.frame.x}, ${f.frame.y}, ${f.frame.w}, ${f.frame.h}`);
      const margin = [f.spriteSourceSize.x, f.spriteSourceSize.y, f.sourceSize.w - f.frame.w, f.sourceSize.h - f.frame.h];
      expect(m[4]).toBe(f.trimmed ? margin.join(', ') : undefined);
    });
  });

  it('animations: frames of {duration, texture}, loop, name, speed', () => {
    const resource = tres.slice(tres.indexOf('[resource]'));
    // Godot 4 text resources are Godot variants; with StringName's & and the resource calls made strings, JSON.
    const json = resource
      .replace('[resource]\nanimations = ', '')
      .replace(/&"/g, '"')
      .replace(/SubResource\("(\w+)"\)/g, '"$1"');
    const anims = JSON.parse(json) as { frames: { duration: number; texture: string }[]; loop: boolean; name: string; speed: number }[];
    expect(anims.map((a) => [a.name, a.loop, a.speed])).toEqual([
      ['idle', true, 10],
      ['walk', false, 12.5],
    ]);
    expect(anims[1]!.frames.map((f) => f.duration)).toEqual([1, 1.5, 1]);
    expect(anims[1]!.frames[1]!.texture).toBe(anims[0]!.frames[0]!.texture);
    expect(resource).toMatch(/"name": &"walk"/);
    expect(resource).toMatch(/"duration": 1\.5,/);
  });
});

describe('starling: the TextureAtlas XML', () => {
  const files = exporter('starling').write(turned, 'hero.xml');
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' });

  it('one file per page; stored rectangles, negated trim offsets, rotated, pivot in pixels', () => {
    expect(files.map((f) => f.name)).toEqual(['hero.xml', 'hero-1.xml']);
    files.forEach((file, page) => {
      const doc = parser.parse(text(file.bytes)).TextureAtlas;
      expect(doc.imagePath).toBe(turned.pages[page]!.file);
      const subs = [doc.SubTexture].flat() as Record<string, string>[];
      const want = turned.frames.filter((f) => f.page === page);
      expect(subs.map((s) => s.name)).toEqual(want.map((f) => f.name));
      subs.forEach((s, i) => {
        const f = want[i]!;
        const [w, h] = f.rotated ? [f.frame.h, f.frame.w] : [f.frame.w, f.frame.h];
        expect([s.x, s.y, s.width, s.height].map(Number)).toEqual([f.frame.x, f.frame.y, w, h]);
        expect(s.rotated === 'true').toBe(f.rotated);
        if (f.trimmed) {
          expect([s.frameX, s.frameY, s.frameWidth, s.frameHeight].map(Number)).toEqual([
            -f.spriteSourceSize.x,
            -f.spriteSourceSize.y,
            f.sourceSize.w,
            f.sourceSize.h,
          ]);
        } else expect(s.frameX).toBeUndefined();
        if (f.pivot) expect([Number(s.pivotX), Number(s.pivotY)]).toEqual([f.pivot.x * f.sourceSize.w, f.pivot.y * f.sourceSize.h]);
      });
    });
  });
});

describe('css: CSS sprites', () => {
  const css = text(exporter('css').write(upright, 'out/hero.css')[0]!.bytes);

  it('every frame is a class of its canvas size showing its stored pixels', () => {
    for (const f of upright.frames) {
      const sel = `.${cssIdentifier(`hero-${f.name}`)} {`;
      const at = css.indexOf(sel);
      expect(at, f.name).toBeGreaterThan(0);
      const rule = css.slice(at, css.indexOf('}', at));
      const px = (n: number) => (n === 0 ? '0' : `${n}px`);
      const s = f.spriteSourceSize;
      expect(rule).toContain(`width: ${px(f.frame.w)};\n  height: ${px(f.frame.h)};`);
      const pad = [s.y, f.sourceSize.w - s.x - f.frame.w, f.sourceSize.h - s.y - f.frame.h, s.x];
      expect(rule).toContain(`padding: ${pad.map(px).join(' ')};`);
      expect(rule).toContain(`background-image: url("${upright.pages[f.page]!.file}");`);
      expect(rule).toContain(`background-position: ${px(-f.frame.x)} ${px(-f.frame.y)};`);
      expect(rule).toContain('background-size: 16px 12px;');
    }
    expect(css).toContain('background-clip: content-box;');
    expect(css).toContain('background-origin: content-box;');
  });

  it('a 2x atlas shows at 1x: sizes are page pixels over the scale', () => {
    const twice = text(exporter('css').write({ ...upright, scale: 2 }, 'hero.css')[0]!.bytes);
    expect(twice).toContain('background-size: 8px 6px;');
    expect(twice).toContain('width: 3px;\n  height: 2.5px;');
  });

  it('class names are CSS identifiers (CSSOM serialize an identifier)', () => {
    expect(cssIdentifier('hero-walk/0')).toBe('hero-walk\\/0');
    expect(cssIdentifier('0a')).toBe('\\30 a');
    expect(cssIdentifier('-1')).toBe('-\\31 ');
    expect(cssIdentifier('a b.c')).toBe('a\\ b\\.c');
  });
});

describe('phaser3 and pixi: the JSON files', () => {
  it('phaser3: one multi-atlas file, a textures entry per page', () => {
    const files = exporter('phaser3').write(turned, 'hero.json');
    expect(files.map((f) => f.name)).toEqual(['hero.json']);
    const doc = JSON.parse(text(files[0]!.bytes));
    expect(doc.textures.map((t: any) => [t.image, t.size, t.frames.length])).toEqual([
      ['hero.png', { w: 16, h: 12 }, 3],
      ['hero-1.png', { w: 16, h: 12 }, 2],
    ]);
    expect(doc.textures[1].frames[0]).toMatchObject({ filename: 'walk/0', rotated: true, frame: { x: 1, y: 1, w: 5, h: 6 } });
    expect(doc.textures[1].frames[1].pivot).toEqual({ x: 0.5, y: 1 });
  });

  it('pixi: one sheet per page, linked by related_multi_packs; animations whose frames share a page', () => {
    const files = exporter('pixi').write(turned, 'sheets/hero.json');
    expect(files.map((f) => f.name)).toEqual(['sheets/hero.json', 'sheets/hero-1.json']);
    const [a, b] = files.map((f) => JSON.parse(text(f.bytes)));
    expect(a.meta.related_multi_packs).toEqual(['hero-1.json']);
    expect(b.meta.related_multi_packs).toEqual(['hero.json']);
    expect(a.animations).toEqual({ idle: ['idle/0', 'idle/1'] });
    expect(b.animations).toBeUndefined();
    expect(exporter('pixi').losses!(turned)).toContain(
      'pixi holds an animation on one page only: "walk" span several pages and are not written',
    );
    expect(b.frames['walk/2'].anchor).toEqual({ x: 0.5, y: 1 });
  });
});

describe('template: any format through an Eta template', () => {
  const example = path.join(ROOT, 'docs/templates/solar2d.lua.eta');

  it('the documented example writes a Solar2D image sheet module', () => {
    const e = templateExporter(fs.readFileSync(example, 'utf8'), 'solar2d.lua.eta');
    expect(e.extension).toBe('.lua');
    const [file] = e.write(upright, 'hero.lua');
    const lua = text(file!.bytes);
    expect(lua).toBe(fs.readFileSync(path.join(ROOT, 'test/interop/fixtures/atlas-solar2d.lua'), 'utf8'));
  });

  it("the docs' small example writes a line per frame", () => {
    const doc = fs.readFileSync(path.join(ROOT, 'docs/atlas-formats.md'), 'utf8');
    const example = /```\n(<% for[\s\S]*?)```/.exec(doc)![1]!;
    const out = text(templateExporter(example, 'frames.txt.eta').write(upright, 'frames.txt')[0]!.bytes);
    expect(out.split('\n')).toEqual([
      'idle/0 hero.png 1 1 6 5',
      'idle/1 hero.png 9 1 4 3',
      'walk/0 hero-1.png 1 1 5 6',
      'walk/1 hero.png 1 1 6 5',
      'walk/2 hero-1.png 10 2 4 6',
      '',
    ]);
  });

  it('through the registry: a template is needed, and its errors name the line', () => {
    const t = getAtlasExporter('template')!;
    expect(() => t.write(upright, 'a.txt')).toThrow(OptionError);
    const e = t.withTemplate!("<% for (const f of it.frames) { %><%= f.name + ' ' + f.x + '\\n' %><% } %>", 'list.txt.eta');
    expect(text(e.write(upright, 'a.txt')[0]!.bytes)).toBe('idle/0 1\nidle/1 9\nwalk/0 1\nwalk/1 1\nwalk/2 10\n');
    expect(() => t.withTemplate!('a\n<%= it.pages', 'x.eta')).toThrow(/the template failed: unclosed tag \(at line 2, column 1\)/);
    expect(() => t.withTemplate!('<%= it.nothing.here %>', 'x.eta').write(upright, 'x.txt')).toThrow(FormatError);
  });
});

describe('generated atlases read back by the engines’ parsers', () => {
  const nameChars = fc.constantFrom(...'ab/_.-09 &<>"\'é漢😀');
  const name = fc
    .array(nameChars, { minLength: 1, maxLength: 8 })
    .map((cs) => cs.join(''))
    .filter((n) => n.trim() === n);
  const frame = fc.record({
    page: fc.nat(1),
    x: fc.nat(40),
    y: fc.nat(40),
    w: fc.integer({ min: 1, max: 20 }),
    h: fc.integer({ min: 1, max: 20 }),
    left: fc.nat(5),
    top: fc.nat(5),
    right: fc.nat(5),
    bottom: fc.nat(5),
    rotated: fc.boolean(),
  });
  const atlasArb = fc.uniqueArray(name, { minLength: 1, maxLength: 6 }).chain((names) =>
    fc.tuple(fc.constant(names), fc.array(frame, { minLength: names.length, maxLength: names.length })).map(([ns, fs]): Atlas => {
      const img = { width: 64, height: 64, data: new Uint8Array(0) };
      return {
        pages: [
          { file: 'a&b.png', image: img },
          { file: 'c "d".png', image: img },
        ],
        frames: ns.map((n, i) => {
          const f = fs[i]!;
          const trimmed = f.left + f.top + f.right + f.bottom > 0;
          return {
            name: n,
            page: f.page,
            frame: { x: f.x, y: f.y, w: f.w, h: f.h },
            rotated: f.rotated,
            trimmed,
            spriteSourceSize: { x: f.left, y: f.top, w: f.w, h: f.h },
            sourceSize: { w: f.left + f.w + f.right, h: f.top + f.h + f.bottom },
          };
        }),
        animations: [],
        scale: 1,
      };
    }),
  );

  it('libgdx: spine-core finds every region where the Atlas has it', () => {
    fc.assert(
      fc.property(atlasArb, (generated) => {
        const atlas: Atlas = { ...generated, turn: 'counterclockwise' };
        const parsed = new TextureAtlas(text(exporter('libgdx').write(atlas, 'a.atlas')[0]!.bytes));
        expect(parsed.regions.length).toBe(atlas.frames.length);
        for (const f of atlas.frames) {
          const r = parsed.findRegion(f.name)!;
          expect(r.page.name).toBe(atlas.pages[f.page]!.file);
          expect([r.x, r.y, r.width, r.height, r.degrees]).toEqual([f.frame.x, f.frame.y, f.frame.w, f.frame.h, f.rotated ? 90 : 0]);
          expect([r.offsetX, r.offsetY, r.originalWidth, r.originalHeight]).toEqual([
            f.spriteSourceSize.x,
            f.sourceSize.h - f.spriteSourceSize.y - f.frame.h,
            f.sourceSize.w,
            f.sourceSize.h,
          ]);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('cocos2d and starling: the plist and XML parsers read every name, rectangle and turn back', () => {
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', parseAttributeValue: false, htmlEntities: true });
    fc.assert(
      fc.property(atlasArb, (atlas) => {
        const plists = exporter('cocos2d')
          .write(atlas, 'a.plist')
          .map((f) => parsePlist(text(f.bytes)) as Record<string, any>);
        const sheets = exporter('starling')
          .write(atlas, 'a.xml')
          .map((f) => [xml.parse(text(f.bytes)).TextureAtlas.SubTexture].flat().filter(Boolean) as Record<string, string>[]);
        atlas.pages.forEach((p, i) => {
          expect(plists[i]!.metadata.textureFileName).toBe(p.file);
          expect(sheets[i]!.map((s) => s.name)).toEqual(atlas.frames.filter((f) => f.page === i).map((f) => f.name));
        });
        for (const f of atlas.frames) {
          const e = plists[f.page]!.frames[f.name];
          expect(e.textureRect).toBe(`{{${f.frame.x},${f.frame.y}},{${f.frame.w},${f.frame.h}}}`);
          expect(e.textureRotated).toBe(f.rotated);
          const s = sheets[f.page]!.find((x) => x.name === f.name)!;
          expect(Number(s.width)).toBe(f.rotated ? f.frame.h : f.frame.w);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('a name XML cannot hold is an error naming it', () => {
    const bad: Atlas = { ...upright, frames: [{ ...upright.frames[0]!, name: 'a\u0001b' }], animations: [] };
    expect(() => exporter('cocos2d').write(bad, 'a.plist')).toThrow(
      /frame "a\\x01b" cannot be written: XML cannot hold the character U\+0001/,
    );
    expect(() => exporter('starling').write(bad, 'a.xml')).toThrow(FormatError);
  });
});
