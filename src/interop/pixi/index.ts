/**
 * PixiJS 8's multi-pack sprite sheets: one JSON hash per page
 * (`NAME.json`, `NAME-1.json`, ...), each with its `frames`, the
 * `animations` whose frames are all on its page, and `meta` naming its
 * `image`, `size`, `scale` and, in `related_multi_packs`, the other pages'
 * files, so `Assets.load('NAME.json')` loads them all.
 *
 * Format: PixiJS 8's Spritesheet (`_processFrames`: `frame` is the frame's
 * own size, its place on the page swapped to `h` x `w` when `rotated`, a
 * quarter turn clockwise, texture `rotate` 2; `spriteSourceSize` and
 * `sourceSize` the trim; `anchor` the default anchor as a fraction of the
 * untrimmed frame; `meta.scale` the resolution) and its spritesheetAsset
 * loader (`meta.related_multi_packs`, relative to the file).
 */
import type { Atlas, AtlasExporter, AtlasFile } from '../../model/atlas.js';
import { atlasLosses, pageAnimations, pageDataName, pageMeta, requireTurn } from '../atlasfile.js';
import { jsonFile } from '../../binary/json-chunks.js';

function write(atlas: Atlas, dataName: string): AtlasFile[] {
  requireTurn(atlas, 'pixi', 'clockwise');
  const names = atlas.pages.map((_, page) => pageDataName(dataName, page));
  const base = (n: string) => n.replace(/^.*\//, '');
  return atlas.pages.map((p, page) => {
    const frames: Record<string, unknown> = {};
    for (const f of atlas.frames) {
      if (f.page !== page) continue;
      frames[f.name] = {
        frame: { ...f.frame },
        rotated: f.rotated,
        trimmed: f.trimmed,
        spriteSourceSize: { ...f.spriteSourceSize },
        sourceSize: { ...f.sourceSize },
        ...(f.pivot ? { anchor: { ...f.pivot } } : {}),
      };
    }
    const animations = Object.fromEntries(pageAnimations(atlas, page));
    const meta: Record<string, unknown> = pageMeta(atlas, page);
    if (names.length > 1) meta.related_multi_packs = names.filter((_, i) => i !== page).map(base);
    const doc = { frames, ...(Object.keys(animations).length ? { animations } : {}), meta };
    return jsonFile(names[page]!, doc);
  });
}

export const pixiExporter: AtlasExporter = {
  name: 'pixi',
  description: 'PixiJS 8 multi-pack sprite sheets (one JSON per page, linked by related_multi_packs), with animations',
  extension: '.json',
  rotation: true,
  multipage: true,
  write,
  losses: (atlas) => atlasLosses(atlas, 'pixi', { pivot: true, animations: true }),
};
