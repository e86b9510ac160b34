/**
 * A small packed atlas built by hand (not by the packer), for the atlas
 * exporters' tests: two pages, trimmed frames, a frame stored a quarter turn
 * (when `rotate`: clockwise, or counterclockwise with `turn`), an alias, a pivot, two animations with
 * durations. `sources` holds each frame's untrimmed canvas: what an engine
 * must draw for it.
 */
import { createImage, type RgbaImage } from '../../src/render/image.js';
import type { Atlas, AtlasFrame, AtlasTurn } from '../../src/model/atlas.js';

interface Spec {
  name: string;
  page: number;
  /** The canvas and, inside it, the opaque rectangle (everything else transparent). */
  canvas: { w: number; h: number };
  content: { x: number; y: number; w: number; h: number };
  /** Upper-left corner of the stored pixels on the page. */
  at: { x: number; y: number };
  rotated?: boolean;
  aliasOf?: number;
  pivot?: { x: number; y: number };
  durationMs?: number;
}

/** A canvas with a pattern no two pixels or frames share (so a misplaced pixel shows). */
function canvas(s: Spec, seed: number): RgbaImage {
  const img = createImage(s.canvas.w, s.canvas.h);
  for (let y = s.content.y; y < s.content.y + s.content.h; y++)
    for (let x = s.content.x; x < s.content.x + s.content.w; x++) {
      const o = (y * img.width + x) * 4;
      img.data.set([(seed * 67 + x * 23) & 255, (seed * 41 + y * 29 + 40) & 255, (seed * 13 + x * y * 7 + 90) & 255, 255], o);
    }
  return img;
}

export interface AtlasFixture {
  atlas: Atlas;
  /** Frame name → its untrimmed canvas. */
  sources: Map<string, RgbaImage>;
}

export function atlasFixture(opts: { rotate: boolean; turn?: AtlasTurn }): AtlasFixture {
  const ccw = opts.turn === 'counterclockwise';
  const specs: Spec[] = [
    { name: 'idle/0', page: 0, canvas: { w: 6, h: 5 }, content: { x: 0, y: 0, w: 6, h: 5 }, at: { x: 1, y: 1 }, durationMs: 100 },
    { name: 'idle/1', page: 0, canvas: { w: 9, h: 8 }, content: { x: 2, y: 3, w: 4, h: 3 }, at: { x: 9, y: 1 }, durationMs: 100 },
    {
      name: 'walk/0',
      page: 1,
      canvas: { w: 7, h: 9 },
      content: { x: 1, y: 2, w: 5, h: 6 },
      at: { x: 1, y: 1 },
      rotated: opts.rotate,
      durationMs: 80,
    },
    {
      name: 'walk/1',
      page: 0,
      canvas: { w: 6, h: 5 },
      content: { x: 0, y: 0, w: 6, h: 5 },
      at: { x: 1, y: 1 },
      aliasOf: 0,
      durationMs: 120,
    },
    {
      name: 'walk/2',
      page: 1,
      canvas: { w: 4, h: 6 },
      content: { x: 0, y: 0, w: 4, h: 6 },
      at: { x: 10, y: 2 },
      pivot: { x: 0.5, y: 1 },
      durationMs: 80,
    },
  ];
  const pages = [createImage(16, 12), createImage(16, 12)];
  const sources = new Map<string, RgbaImage>();
  const frames: AtlasFrame[] = specs.map((s, i) => {
    const seed = s.aliasOf ?? i;
    const src = canvas(s, seed);
    sources.set(s.name, src);
    const c = s.content;
    const page = pages[s.page]!;
    if (s.aliasOf === undefined) {
      // Stored pixels: the content, turned a quarter when rotated: clockwise, stored (x', y') = content (y', h - 1 - x');
      // counterclockwise, content (w - 1 - y', x').
      const sw = s.rotated ? c.h : c.w;
      const sh = s.rotated ? c.w : c.h;
      for (let y = 0; y < sh; y++)
        for (let x = 0; x < sw; x++) {
          const cx = s.rotated ? (ccw ? c.w - 1 - y : y) : x;
          const cy = s.rotated ? (ccw ? x : c.h - 1 - x) : y;
          const from = ((c.y + cy) * src.width + c.x + cx) * 4;
          page.data.set(src.data.subarray(from, from + 4), ((s.at.y + y) * page.width + s.at.x + x) * 4);
        }
    }
    const trimmed = c.w !== s.canvas.w || c.h !== s.canvas.h;
    const f: AtlasFrame = {
      name: s.name,
      page: s.page,
      frame: { x: s.at.x, y: s.at.y, w: c.w, h: c.h },
      rotated: s.rotated ?? false,
      trimmed,
      spriteSourceSize: { ...c },
      sourceSize: { ...s.canvas },
    };
    if (s.pivot) f.pivot = s.pivot;
    if (s.durationMs !== undefined) f.durationMs = s.durationMs;
    if (s.aliasOf !== undefined) f.aliasOf = s.aliasOf;
    return f;
  });
  const atlas: Atlas = {
    pages: [
      { file: 'hero.png', image: pages[0]! },
      { file: 'hero-1.png', image: pages[1]! },
    ],
    frames,
    animations: [
      { name: 'idle', frames: [0, 1], loop: true },
      { name: 'walk', frames: [2, 3, 4], loop: false },
    ],
    scale: 1,
  };
  if (ccw) atlas.turn = 'counterclockwise';
  return { atlas, sources };
}
