/**
 * Phaser 3's multi-atlas JSON (TexturePacker's "Phaser 3" data format, what
 * `this.load.multiatlas(key, url)` reads): `textures`, one entry per page
 * with its `image`, `size`, `scale` and `frames` (`filename`, `frame`,
 * `rotated`, `trimmed`, `spriteSourceSize`, `sourceSize`, `pivot` when the
 * frame has one), and `meta`.
 *
 * Format: Phaser 3's JSONArray texture parser (src/textures/parsers/JSONArray.js,
 * `json.textures[sourceIndex].frames`): `frame` is the frame's own
 * (unrotated) size at its place on the page; `anchor` or `pivot` the origin
 * as a fraction of the untrimmed frame. The file can say `rotated` (a
 * quarter turn clockwise, TexturePacker's meaning), and it is written when a
 * frame is, but Phaser 3 (3.90) draws such a frame mirrored and stretched
 * (Frame.updateUVsInverted maps the frame's left edge to the stored right
 * edge; atlas-clients.test.ts shows it), so the exporter says it cannot
 * rotate and the packer stores frames upright for it.
 */
import type { Atlas, AtlasExporter } from '../../model/atlas.js';
import { atlasLosses, requireTurn } from '../atlasfile.js';
import { jsonFile } from '../../binary/json-chunks.js';

function doc(atlas: Atlas): unknown {
  requireTurn(atlas, 'phaser3', 'clockwise');
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
  description: 'Phaser 3 multi-atlas JSON (load.multiatlas): every page in one file, trimmed frames, pivots',
  extension: '.json',
  rotation: false,
  whyNoRotation: 'Phaser 3 draws a frame its file marks `rotated` mirrored and stretched',
  multipage: true,
  write: (atlas, dataName) => [jsonFile(dataName, doc(atlas))],
  losses: (atlas) => atlasLosses(atlas, 'phaser3', { pivot: true }),
};
