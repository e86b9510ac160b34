/**
 * libGDX's and Spine's texture atlas (`.atlas`, the text format libGDX 1.9.12
 * and Spine 4 write and read): per page its image name, `size`, `format`,
 * `filter` and `repeat`, then its regions, each a name line and indented
 * `bounds: x,y,w,h`, `offsets: left,bottom,origW,origH` (trimmed frames) and
 * `index: N` (animation frames); a blank line ends a page.
 *
 * Format: libGDX's TextureAtlas.TextureAtlasData and Spine's
 * spine-core TextureAtlas (esotericsoftware/spine-runtimes). `offsets` counts
 * the cut-off edges from the left and the bottom (y up). `rotate: true` is a
 * frame stored a quarter turn counterclockwise (libGDX's AtlasRegion
 * "rotated 90 degrees counter clockwise"; spine-core's RegionAttachment maps
 * the region's top-left corner to the stored bottom-left), `bounds` keeping
 * the frame's upright width and height (the stored pixels are height x
 * width): the exporter's `turn` is counterclockwise, so packAtlas stores
 * its rotated frames that way; an atlas turned clockwise is refused.
 *
 * Animation frames are regions named by their animation with their place in
 * it as `index` (libGDX's `findRegions(name)`, Spine's sequences); a frame in
 * no animation keeps its own name (no index). A name line cannot hold `:`
 * (the reader would take it for a field) or a line break.
 */
import type { Atlas, AtlasExporter, AtlasFrame } from '../../model/atlas.js';
import { atlasLosses, requireNameWithout, requireTurn, textFile } from '../atlasfile.js';

const NAME_BAD = /[:\r\n]/;
const WHY = "libGDX's reader takes a line with ':' for a field";

function region(lines: string[], name: string, f: AtlasFrame, index: number): void {
  requireNameWithout('libgdx', 'region', name, NAME_BAD, WHY);
  requireNameWithout('libgdx', 'region', name, /^\s|\s$|^$/, 'libGDX trims the name line');
  lines.push(name, `  bounds: ${f.frame.x}, ${f.frame.y}, ${f.frame.w}, ${f.frame.h}`);
  const s = f.spriteSourceSize;
  if (f.trimmed || s.x !== 0 || s.y !== 0 || f.sourceSize.w !== f.frame.w || f.sourceSize.h !== f.frame.h) {
    const bottom = f.sourceSize.h - s.y - f.frame.h;
    lines.push(`  offsets: ${s.x}, ${bottom}, ${f.sourceSize.w}, ${f.sourceSize.h}`);
  }
  if (f.rotated) lines.push('  rotate: true');
  if (index >= 0) lines.push(`  index: ${index}`);
}

function write(atlas: Atlas): string {
  requireTurn(atlas, 'libgdx', 'counterclockwise');
  const inAnimation = new Set(atlas.animations.flatMap((a) => a.frames));
  const lines: string[] = [];
  atlas.pages.forEach((p, page) => {
    requireNameWithout('libgdx', 'page', p.file, NAME_BAD, WHY);
    if (page > 0) lines.push('');
    lines.push(p.file, `size: ${p.image.width}, ${p.image.height}`, 'format: RGBA8888', 'filter: Nearest, Nearest', 'repeat: none');
    atlas.frames.forEach((f, i) => {
      if (f.page === page && !inAnimation.has(i)) region(lines, f.name, f, -1);
    });
    for (const a of atlas.animations) {
      a.frames.forEach((i, index) => {
        const f = atlas.frames[i];
        if (f && f.page === page) region(lines, a.name, f, index);
      });
    }
  });
  lines.push('');
  return lines.join('\n');
}

export const libgdxExporter: AtlasExporter = {
  name: 'libgdx',
  description: 'libGDX / Spine texture atlas (.atlas): regions with offsets, rotated frames, animations as indexed regions',
  extension: '.atlas',
  rotation: true,
  turn: 'counterclockwise',
  multipage: true,
  write: (atlas, dataName) => [textFile(dataName, write(atlas))],
  losses: (atlas) => {
    const out = atlasLosses(atlas, 'libgdx', { animations: true, crossPageAnimations: true });
    const named = new Set(atlas.animations.flatMap((a) => a.frames)).size;
    if (named > 0) out.push(`libgdx names animation frames by their animation and index: ${named} frames' own names are not written`);
    return out;
  },
};
