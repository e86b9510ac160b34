/**
 * CSS sprites: a stylesheet that shows each frame as the background of an
 * element of the frame's untrimmed size. Each frame is a class
 * `.NAME-FRAME` (NAME: the stylesheet's name without `.css`; the frame's
 * name as a CSS identifier, escaped as CSSOM's "serialize an identifier"
 * does, so `class="hero-walk/0"` matches `.hero-walk\/0`); `.NAME` holds what
 * every frame shares. A trimmed frame's cut edges are padding, and the
 * background is clipped to the content box (CSS Backgrounds 3,
 * `background-origin` and `background-clip`), so the element is the full
 * canvas and shows only the frame's pixels. Sizes are CSS pixels: page pixels
 * divided by the atlas's scale, so a 2x atlas shows at 1x.
 *
 * CSS cannot turn a background: the exporter says it cannot rotate.
 */
import type { Atlas, AtlasExporter } from '../../model/atlas.js';
import { atlasLosses, decimal, requireUnrotated, textFile } from '../atlasfile.js';

/** CSSOM, "serialize an identifier". */
export function cssIdentifier(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ch = s[i]!;
    if (c === 0) out += '\uFFFD';
    else if ((c >= 1 && c <= 0x1f) || c === 0x7f) out += `\\${c.toString(16)} `;
    else if (i === 0 && c >= 0x30 && c <= 0x39) out += `\\${c.toString(16)} `;
    else if (i === 1 && c >= 0x30 && c <= 0x39 && s[0] === '-') out += `\\${c.toString(16)} `;
    else if (i === 0 && ch === '-' && s.length === 1) out += '\\-';
    else if (c >= 0x80 || ch === '-' || ch === '_' || /[0-9A-Za-z]/.test(ch)) out += ch;
    else out += `\\${ch}`;
  }
  return out;
}

/** A CSS string (CSSOM, "serialize a string"). */
function cssString(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.charCodeAt(0);
    if (c === 0) out += '\uFFFD';
    else if (c < 0x20 || c === 0x7f) out += `\\${c.toString(16)} `;
    else out += ch === '"' || ch === '\\' ? `\\${ch}` : ch;
  }
  return `"${out}"`;
}

function write(atlas: Atlas, dataName: string): string {
  requireUnrotated(atlas, 'css', 'CSS cannot turn a background image');
  const base = dataName.replace(/^.*\//, '').replace(/\.css$/i, '');
  const px = (n: number) => (n === 0 ? '0' : `${decimal(n / atlas.scale)}px`);
  const lines = [
    `/* CSS sprites: <span class="${base} ${base}-FRAME"></span> shows FRAME. */`,
    `.${cssIdentifier(base)} {`,
    '  display: inline-block;',
    '  box-sizing: content-box;',
    '  background-repeat: no-repeat;',
    '  background-origin: content-box;',
    '  background-clip: content-box;',
    '}',
  ];
  for (const f of atlas.frames) {
    const p = atlas.pages[f.page]!;
    const s = f.spriteSourceSize;
    const right = f.sourceSize.w - s.x - f.frame.w;
    const bottom = f.sourceSize.h - s.y - f.frame.h;
    lines.push(
      `.${cssIdentifier(`${base}-${f.name}`)} {`,
      `  width: ${px(f.frame.w)};`,
      `  height: ${px(f.frame.h)};`,
      `  padding: ${px(s.y)} ${px(right)} ${px(bottom)} ${px(s.x)};`,
      `  background-image: url(${cssString(p.file)});`,
      `  background-position: ${px(-f.frame.x)} ${px(-f.frame.y)};`,
      `  background-size: ${px(p.image.width)} ${px(p.image.height)};`,
      '}',
    );
  }
  lines.push('');
  return lines.join('\n');
}

export const cssExporter: AtlasExporter = {
  name: 'css',
  description: 'CSS sprites: a stylesheet with one class per frame (trimmed frames padded to their canvas)',
  extension: '.css',
  rotation: false,
  multipage: true,
  write: (atlas, dataName) => [textFile(dataName, write(atlas, dataName))],
  losses: (atlas) => atlasLosses(atlas, 'css', {}),
};
