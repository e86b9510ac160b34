/**
 * Phaser 3's multi-atlas JSON (TexturePacker's "Phaser 3" data format, what
 * `this.load.multiatlas(key, url)` reads): `textures`, one entry per page
 * with its `image`, `size`, `scale` and `frames` (`filename`, `frame`,
 * `rotated`, `trimmed`, `spriteSourceSize`, `sourceSize`, `pivot` when the
 * frame has one), and `meta`.
 *
 * Format: Phaser 3's JSONArray texture parser (src/textures/parsers/JSONArray.js,
 * `json.textures[sourceIndex].frames`): `frame` is the frame's own
 * (unrotated) size at its place on the page; `rotated` a quarter turn
 * clockwise (Frame.updateUVsInverted); `anchor` or `pivot` the origin as a
 * fraction of the untrimmed frame.
 */
import type { Atlas, AtlasExporter } from '../../model/atlas.js';
import { atlasLosses, textFile } from '../atlasfile.js';

function doc(atlas: Atlas): unknown {
  return {
    textures: atlas.pages.map((p, page) => ({
      image: p.file,
      format: 'RGBA8888',
      size: { w: p.image.width, h: p.image.height },
      scale: atlas.scale,
      frames: atlas.frames
        .filter((f) => f.page === page)
        .map((f) => ({
          filename: f.name,
          rotated: f.rotated,
          trimmed: f.trimmed,
          sourceSize: { ...f.sourceSize },
          spriteSourceSize: { ...f.spriteSourceSize },
          frame: { ...f.frame },
          ...(f.pivot ? { pivot: { ...f.pivot } } : {}),
        })),
    })),
    meta: { app: 'sprat', version: '1.0' },
  };
}

export const phaser3Exporter: AtlasExporter = {
  name: 'phaser3',
  description: 'Phaser 3 multi-atlas JSON (load.multiatlas): every page in one file, trimmed and rotated frames',
  extension: '.json',
  rotation: true,
  multipage: true,
  write: (atlas, dataName) => [textFile(dataName, `${JSON.stringify(doc(atlas), null, 2)}\n`)],
  losses: (atlas) => atlasLosses(atlas, 'phaser3', { pivot: true }),
};
