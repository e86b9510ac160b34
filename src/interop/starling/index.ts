/**
 * Starling's and Sparrow's texture atlas XML: a `TextureAtlas` element
 * naming its image, one `SubTexture` per frame (`x`, `y`, `width`, `height`
 * of the stored pixels; `frameX`/`frameY` (the negated trim offset),
 * `frameWidth`/`frameHeight` for trimmed frames; `rotated="true"` for a frame
 * stored a quarter turn clockwise; `pivotX`/`pivotY` in pixels of the
 * untrimmed frame). One image per file: an atlas of several pages is one
 * file per page (`NAME.xml`, `NAME-1.xml`, ...).
 *
 * Format: Starling's TextureAtlas (starling.textures.TextureAtlas, "parseAtlasXml")
 * and Phaser 3's atlasXML parser (src/textures/parsers/AtlasXML.js), which
 * reads the same attributes but not `rotated` or the pivot (it draws a
 * rotated frame as stored, on its side; atlas-clients.test.ts shows it): the
 * exporter says it cannot rotate, so the packer stores frames upright for it.
 */
import type { Atlas, AtlasExporter, AtlasFile } from '../../model/atlas.js';
import { atlasLosses, decimal, pageDataName, requireTurn, storedSize, requireXmlText, textFile, xmlEscape } from '../atlasfile.js';

function write(atlas: Atlas, dataName: string): AtlasFile[] {
  requireTurn(atlas, 'starling', 'clockwise');
  for (const p of atlas.pages) requireXmlText('starling', 'page', p.file);
  for (const f of atlas.frames) requireXmlText('starling', 'frame', f.name);
  return atlas.pages.map((p, page) => {
    const lines = ['<?xml version="1.0" encoding="UTF-8"?>', `<TextureAtlas imagePath="${xmlEscape(p.file)}">`];
    for (const f of atlas.frames) {
      if (f.page !== page) continue;
      const s = storedSize(f);
      let attrs = `name="${xmlEscape(f.name)}" x="${f.frame.x}" y="${f.frame.y}" width="${s.w}" height="${s.h}"`;
      const ss = f.spriteSourceSize;
      if (f.trimmed || ss.x !== 0 || ss.y !== 0 || f.sourceSize.w !== f.frame.w || f.sourceSize.h !== f.frame.h) {
        attrs += ` frameX="${-ss.x}" frameY="${-ss.y}" frameWidth="${f.sourceSize.w}" frameHeight="${f.sourceSize.h}"`;
      }
      if (f.rotated) attrs += ' rotated="true"';
      if (f.pivot) attrs += ` pivotX="${decimal(f.pivot.x * f.sourceSize.w)}" pivotY="${decimal(f.pivot.y * f.sourceSize.h)}"`;
      lines.push(`  <SubTexture ${attrs}/>`);
    }
    lines.push('</TextureAtlas>', '');
    return textFile(pageDataName(dataName, page), lines.join('\n'));
  });
}

export const starlingExporter: AtlasExporter = {
  name: 'starling',
  description: 'Starling / Sparrow texture atlas XML (one file per page), as Phaser 3 load.atlasXML reads it',
  extension: '.xml',
  rotation: false,
  whyNoRotation: "Phaser 3's load.atlasXML reads no `rotated`, though Starling does",
  multipage: false,
  write,
  losses: (atlas) => atlasLosses(atlas, 'starling', { pivot: true }),
};
