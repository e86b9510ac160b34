/**
 * A tiny built-in bitmap font for labels in rendered sheets: printable ASCII
 * in 3 × 5 pixel glyphs on a 4 × 6 cell (one column and one row of spacing).
 * Lower-case letters are drawn as small capitals; characters outside ASCII
 * are drawn as "?".
 */
import type { RgbaImage } from './image.js';

/** Cell size: every character advances GLYPH_ADVANCE pixels; lines are LINE_HEIGHT apart. */
export const GLYPH_ADVANCE = 4;
export const LINE_HEIGHT = 6;
/** Height of the glyphs themselves. */
export const GLYPH_HEIGHT = 5;

// Each glyph: five rows of three pixels, '#' set, '.' clear.
const GLYPHS: Record<string, string> = {
  ' ': '... ... ... ... ...',
  '!': '.#. .#. .#. ... .#.',
  '"': '#.# #.# ... ... ...',
  '#': '#.# ### #.# ### #.#',
  $: '.## ##. .#. .## ##.',
  '%': '#.. ..# .#. #.. ..#',
  '&': '.#. #.# .#. #.# .##',
  "'": '.#. .#. ... ... ...',
  '(': '..# .#. .#. .#. ..#',
  ')': '#.. .#. .#. .#. #..',
  '*': '... #.# .#. #.# ...',
  '+': '... .#. ### .#. ...',
  ',': '... ... ... .#. #..',
  '-': '... ... ### ... ...',
  '.': '... ... ... ... .#.',
  '/': '..# ..# .#. #.. #..',
  '0': '### #.# #.# #.# ###',
  '1': '.#. ##. .#. .#. ###',
  '2': '##. ..# .#. #.. ###',
  '3': '##. ..# .#. ..# ##.',
  '4': '#.# #.# ### ..# ..#',
  '5': '### #.. ##. ..# ##.',
  '6': '.## #.. ### #.# ###',
  '7': '### ..# .#. .#. .#.',
  '8': '### #.# ### #.# ###',
  '9': '### #.# ### ..# ##.',
  ':': '... .#. ... .#. ...',
  ';': '... .#. ... .#. #..',
  '<': '..# .#. #.. .#. ..#',
  '=': '... ### ... ### ...',
  '>': '#.. .#. ..# .#. #..',
  '?': '##. ..# .#. ... .#.',
  '@': '### #.# #.# #.. .##',
  A: '.#. #.# ### #.# #.#',
  B: '##. #.# ##. #.# ##.',
  C: '.## #.. #.. #.. .##',
  D: '##. #.# #.# #.# ##.',
  E: '### #.. ##. #.. ###',
  F: '### #.. ##. #.. #..',
  G: '.## #.. #.# #.# .##',
  H: '#.# #.# ### #.# #.#',
  I: '### .#. .#. .#. ###',
  J: '..# ..# ..# #.# .#.',
  K: '#.# #.# ##. #.# #.#',
  L: '#.. #.. #.. #.. ###',
  M: '#.# ### ### #.# #.#',
  N: '##. #.# #.# #.# #.#',
  O: '.#. #.# #.# #.# .#.',
  P: '##. #.# ##. #.. #..',
  Q: '.#. #.# #.# ##. .##',
  R: '##. #.# ##. #.# #.#',
  S: '.## #.. .#. ..# ##.',
  T: '### .#. .#. .#. .#.',
  U: '#.# #.# #.# #.# ###',
  V: '#.# #.# #.# #.# .#.',
  W: '#.# #.# ### ### #.#',
  X: '#.# #.# .#. #.# #.#',
  Y: '#.# #.# .#. .#. .#.',
  Z: '### ..# .#. #.. ###',
  '[': '##. #.. #.. #.. ##.',
  '\\': '#.. #.. .#. ..# ..#',
  ']': '.## ..# ..# ..# .##',
  '^': '.#. #.# ... ... ...',
  _: '... ... ... ... ###',
  '`': '#.. .#. ... ... ...',
  '{': '..# .#. ##. .#. ..#',
  '|': '.#. .#. .#. .#. .#.',
  '}': '#.. .#. .## .#. #..',
  '~': '... ##. ..# ... ...',
};

/** Per glyph: 15 bits, row-major from the top-left (bit 14 = row 0, column 0). */
const BITS = new Map<number, number>();
for (const [ch, rows] of Object.entries(GLYPHS)) {
  let v = 0;
  for (const c of rows.replace(/ /g, '')) v = (v << 1) | (c === '#' ? 1 : 0);
  BITS.set(ch.charCodeAt(0), v);
}

function glyphBits(code: number): number {
  if (code >= 97 && code <= 122) code -= 32;
  return BITS.get(code) ?? BITS.get(63)!;
}

/** The width in pixels of `text` drawn on one line (no spacing after the last character). */
export function textWidth(text: string): number {
  const n = [...text].length;
  return n === 0 ? 0 : n * GLYPH_ADVANCE - 1;
}

/**
 * Draws `text` with its upper-left corner at (x, y) in the given colour
 * (straight-alpha RGBA, the alpha blended over what is there). Pixels outside
 * the image are clipped.
 */
export function drawText(
  img: RgbaImage,
  x: number,
  y: number,
  text: string,
  color: [number, number, number, number] = [255, 255, 255, 255],
): void {
  const [r, g, b, a] = color;
  const d = img.data;
  let cx = Math.round(x);
  const top = Math.round(y);
  for (const ch of text) {
    const bits = glyphBits(ch.codePointAt(0)!);
    for (let row = 0; row < GLYPH_HEIGHT; row++) {
      const py = top + row;
      if (py < 0 || py >= img.height) continue;
      for (let col = 0; col < 3; col++) {
        if (!((bits >> (14 - row * 3 - col)) & 1)) continue;
        const px = cx + col;
        if (px < 0 || px >= img.width) continue;
        const o = (py * img.width + px) * 4;
        if (a >= 255) {
          d[o] = r;
          d[o + 1] = g;
          d[o + 2] = b;
          d[o + 3] = 255;
        } else if (a > 0) {
          const sa = a / 255;
          const da = d[o + 3]! / 255;
          const oa = sa + da * (1 - sa);
          const k = da * (1 - sa);
          d[o] = Math.round((r * sa + d[o]! * k) / oa);
          d[o + 1] = Math.round((g * sa + d[o + 1]! * k) / oa);
          d[o + 2] = Math.round((b * sa + d[o + 2]! * k) / oa);
          d[o + 3] = Math.round(oa * 255);
        }
      }
    }
    cx += GLYPH_ADVANCE;
  }
}
