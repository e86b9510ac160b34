/**
 * The sheets and Aseprite files of the real-file collection (test/fixtures/REAL-FILES.md), and how their
 * clients read them, computed from the JSON alone: shared by test/interop/real-sheets.test.ts (against
 * sprat's renders) and test/interop/real-clients.test.ts (against PixiJS 8 and Phaser 3 in Chromium).
 */
import { expect } from 'vitest';
import { type Loaded, renderLaidOut } from '../../src/api.js';
import type { CommandOptions } from '../../src/formats/types.js';
import type { SpriteModel } from '../../src/model/types.js';
import { fsResourceLoader } from '../../src/node/fs.js';
import { createImage, type RgbaImage } from '../../src/render/image.js';
import { type RealSource, SOURCES } from './real.js';

export interface SheetSet {
  source: RealSource;
  match: RegExp;
  /**
   * Phaser atlases that name no image: the image the game passes to load.atlas (sprat: --sheet-image).
   * create-game's games load `NAME_atlas.json` with `NAME.png` beside it; its other two atlases are not
   * loaded by its code, and are taken with their image named the same way.
   */
  sheetImage?: (file: string) => string | undefined;
  /** The client names frames `TAG N` (aseprite-atlas's `--filename-format '{tag} {frame}'`, N counted in each file). */
  tagFrameNames?: boolean;
}

export const SHEETS: SheetSet[] = [
  {
    source: SOURCES.phaserGames,
    match: /(_atlas|^coin)\.json$/,
    sheetImage: (file) => (/_atlas\.json$/.test(file) ? file.replace(/^.*\//, '').replace(/_atlas\.json$/, '.png') : undefined),
  },
  { source: SOURCES.pixiExamples, match: /^(fighter|mc|monsters)\.json$/ },
  { source: SOURCES.asepriteAtlas, match: /^atlas\.json$/, tagFrameNames: true },
];

/** Native Aseprite files, each with the sheet export of it (made by Aseprite) its package ships. */
export const ASE_FILES: { source: RealSource; files: string[]; export: string }[] = [
  { source: SOURCES.asepriteAtlas, files: ['backpacker.aseprite', 'frog.aseprite'], export: 'atlas.json' },
];

export type Json = Record<string, any>;
export interface JsonFrame {
  name: string;
  image: string;
  frame: { x: number; y: number; w: number; h: number };
  rotated: boolean;
  sss: { x: number; y: number };
  size: { w: number; h: number };
  /** The sprite origin on the canvas. */
  ox: number;
  oy: number;
  duration?: number;
}

/** The frames of a sheet JSON as its clients read them (hash or array, or a multi-texture `textures` list). */
export function jsonFrames(doc: Json, sheetImage?: string): JsonFrame[] {
  const origin = (doc.meta?.slices ?? []).find((s: Json) => s.name === 'origin')?.keys?.[0];
  const groups: [string, Json[]][] = doc.textures
    ? doc.textures.map((t: Json) => [t.image, t.frames])
    : [
        [
          doc.meta.image ?? sheetImage,
          Array.isArray(doc.frames) ? doc.frames : Object.entries(doc.frames).map(([filename, f]) => ({ filename, ...(f as Json) })),
        ],
      ];
  return groups.flatMap(([image, frames]) =>
    frames.map((f) => {
      const size = f.sourceSize ?? { w: f.frame.w, h: f.frame.h };
      // PixiJS reads `anchor`, Phaser `anchor` else `pivot`; Aseprite's origin is the `origin` slice's pivot.
      const pivot = f.anchor ?? f.pivot;
      const ox = pivot ? pivot.x * size.w : origin?.pivot ? origin.bounds.x + origin.pivot.x : 0;
      const oy = pivot ? pivot.y * size.h : origin?.pivot ? origin.bounds.y + origin.pivot.y : 0;
      return {
        name: f.filename,
        image,
        frame: f.frame,
        rotated: f.rotated === true,
        sss: f.spriteSourceSize ?? { x: 0, y: 0 },
        size,
        ox,
        oy,
        duration: f.duration,
      };
    }),
  );
}

/** The frame as its clients draw it: a `sourceSize` canvas with the frame's pixels at `spriteSourceSize`. */
export function clientCanvas(f: JsonFrame, sheet: RgbaImage): RgbaImage {
  const out = createImage(f.size.w, f.size.h);
  for (let v = 0; v < f.frame.h; v++) {
    for (let u = 0; u < f.frame.w; u++) {
      // A rotated frame is stored turned 90° clockwise: its w x h picture fills h x w pixels of the sheet.
      const sx = f.rotated ? f.frame.x + f.frame.h - 1 - v : f.frame.x + u;
      const sy = f.rotated ? f.frame.y + u : f.frame.y + v;
      const si = (sy * sheet.width + sx) * 4;
      const di = ((f.sss.y + v) * out.width + f.sss.x + u) * 4;
      out.data.set(sheet.data.subarray(si, si + 4), di);
    }
  }
  return out;
}

/** `--sheet-image` for a document that names no image; no options otherwise. */
export function sheetOptions(sheetImage?: string): CommandOptions {
  return sheetImage ? { 'sheet-image': sheetImage } : {};
}

export async function modelOf(loaded: Loaded, dir: string, options: CommandOptions = {}): Promise<SpriteModel> {
  return (await loaded.handler.toModel!(loaded.doc, fsResourceLoader(dir), options)) as SpriteModel;
}

/** Every (animation, frame) of the model with the frame's label. */
export function framesOf(m: SpriteModel) {
  return m.animations.flatMap((a) => a.frames.map((f, k) => ({ anim: a.name, k, label: f.label })));
}

/** Frame k of animation `anim` as sprat draws it (each animation drawn once: a large sheet is decoded once per animation). */
export function drawer(loaded: Loaded, dir: string, options: CommandOptions = {}) {
  const res = fsResourceLoader(dir);
  const drawn = new Map<string, Promise<{ frames: RgbaImage[]; originX: number; originY: number }>>();
  return async (anim: string, k: number) => {
    let d = drawn.get(anim);
    if (!d) drawn.set(anim, (d = renderLaidOut(loaded, { ...options, animation: anim }, res).then((r) => r.result)));
    const { frames, originX, originY } = await d;
    expect(frames.length, anim).toBeGreaterThan(k);
    return { frames: [frames[k]!], originX, originY };
  };
}
