/**
 * Cocos2d(-x)'s sprite sheet property list, format 3: `frames` maps each
 * frame's name to its `textureRect` (`{{x,y},{w,h}}`, the frame's own size),
 * `spriteSize`, `spriteOffset` (the trimmed rectangle's centre from the
 * canvas's centre, y up), `spriteSourceSize`, `textureRotated` (stored a
 * quarter turn clockwise) and `aliases` (other names for the same pixels);
 * `metadata` holds `format` 3, `size`, `textureFileName` and
 * `realTextureFileName`. One texture per file: an atlas of several pages is
 * one file per page (`NAME.plist`, `NAME-1.plist`, ...).
 *
 * Format: cocos2d-x's SpriteFrameCache::addSpriteFramesWithDictionary
 * (cocos/2d/CCSpriteFrameCache.cpp, `format == 3`) and Sprite::setTextureCoords,
 * which maps a rotated frame's top-left corner to the stored top-right one
 * (a clockwise turn, as packed atlases store it). Apple's property list DTD 1.0.
 */
import type { Atlas, AtlasExporter, AtlasFile, AtlasFrame } from '../../model/atlas.js';
import { atlasLosses, decimal, pageDataName, requireTurn, requireXmlText, textFile, xmlEscape } from '../atlasfile.js';

const HEAD = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
  '<plist version="1.0">',
];

const key = (indent: string, k: string) => `${indent}<key>${xmlEscape(k)}</key>`;
const string = (indent: string, s: string) => `${indent}<string>${xmlEscape(s)}</string>`;
const pair = (a: number, b: number) => `{${decimal(a)},${decimal(b)}}`;

function frameDict(lines: string[], f: AtlasFrame, aliases: string[]): void {
  const i = '            ';
  const s = f.spriteSourceSize;
  const ox = s.x + f.frame.w / 2 - f.sourceSize.w / 2;
  const oy = f.sourceSize.h / 2 - s.y - f.frame.h / 2;
  lines.push(`        <dict>`, key(i, 'aliases'));
  if (aliases.length === 0) lines.push(`${i}<array/>`);
  else lines.push(`${i}<array>`, ...aliases.map((a) => string(`${i}    `, a)), `${i}</array>`);
  lines.push(key(i, 'spriteOffset'), string(i, pair(ox, oy)));
  lines.push(key(i, 'spriteSize'), string(i, pair(f.frame.w, f.frame.h)));
  lines.push(key(i, 'spriteSourceSize'), string(i, pair(f.sourceSize.w, f.sourceSize.h)));
  lines.push(key(i, 'textureRect'), string(i, `{${pair(f.frame.x, f.frame.y)},${pair(f.frame.w, f.frame.h)}}`));
  lines.push(key(i, 'textureRotated'), `${i}<${f.rotated ? 'true' : 'false'}/>`, '        </dict>');
}

/** The frame an alias stands for, when that frame is on the same page and no alias itself. */
function original(atlas: Atlas, f: AtlasFrame): number | undefined {
  const a = f.aliasOf;
  const o = a === undefined ? undefined : atlas.frames[a];
  return o && o.aliasOf === undefined && o.page === f.page ? a : undefined;
}

function write(atlas: Atlas, dataName: string): AtlasFile[] {
  requireTurn(atlas, 'cocos2d', 'clockwise');
  for (const p of atlas.pages) requireXmlText('cocos2d', 'page', p.file);
  for (const f of atlas.frames) requireXmlText('cocos2d', 'frame', f.name);
  return atlas.pages.map((p, page) => {
    const aliases = new Map<number, string[]>();
    atlas.frames.forEach((f) => {
      const o = original(atlas, f);
      if (f.page === page && o !== undefined) aliases.set(o, [...(aliases.get(o) ?? []), f.name]);
    });
    const lines = [...HEAD, '<dict>', key('    ', 'frames'), '    <dict>'];
    atlas.frames.forEach((f, n) => {
      if (f.page !== page || original(atlas, f) !== undefined) return;
      lines.push(key('        ', f.name));
      frameDict(lines, f, aliases.get(n) ?? []);
    });
    const m = '        ';
    lines.push('    </dict>', key('    ', 'metadata'), '    <dict>');
    lines.push(key(m, 'format'), `${m}<integer>3</integer>`);
    lines.push(key(m, 'pixelFormat'), string(m, 'RGBA8888'));
    lines.push(key(m, 'premultiplyAlpha'), `${m}<false/>`);
    lines.push(key(m, 'realTextureFileName'), string(m, p.file));
    lines.push(key(m, 'size'), string(m, pair(p.image.width, p.image.height)));
    lines.push(key(m, 'textureFileName'), string(m, p.file));
    lines.push('    </dict>', '</dict>', '</plist>', '');
    return textFile(pageDataName(dataName, page), lines.join('\n'));
  });
}

export const cocos2dExporter: AtlasExporter = {
  name: 'cocos2d',
  description: 'Cocos2d-x sprite sheet plist, format 3 (one file per page): trimmed and rotated frames, aliases',
  extension: '.plist',
  rotation: true,
  multipage: false,
  write,
  losses: (atlas) => atlasLosses(atlas, 'cocos2d', {}),
};
