import { describe, expect, it } from 'vitest';
import { drawText, GLYPH_ADVANCE, textWidth } from '../../src/render/font.js';
import { createImage } from '../../src/render/image.js';

function lit(img: ReturnType<typeof createImage>): string[] {
  const rows: string[] = [];
  for (let y = 0; y < img.height; y++) {
    let r = '';
    for (let x = 0; x < img.width; x++) r += img.data[(y * img.width + x) * 4 + 3] ? '#' : '.';
    rows.push(r);
  }
  return rows;
}

describe('built-in bitmap font', () => {
  it('measures text', () => {
    expect(textWidth('')).toBe(0);
    expect(textWidth('A')).toBe(3);
    expect(textWidth('walk 0')).toBe(6 * GLYPH_ADVANCE - 1);
  });

  it('draws glyphs, lower case as small capitals, unknown characters as "?"', () => {
    const img = createImage(7, 5);
    drawText(img, 0, 0, 'H1', [255, 0, 0, 255]);
    expect(lit(img)).toEqual(['#.#..#.', '#.#.##.', '###..#.', '#.#..#.', '#.#.###']);
    expect(img.data.subarray(0, 4)).toEqual(new Uint8Array([255, 0, 0, 255]));
    const a = createImage(3, 5);
    const b = createImage(3, 5);
    drawText(a, 0, 0, 'h');
    drawText(b, 0, 0, 'H');
    expect(a).toEqual(b);
    const q = createImage(3, 5);
    const u = createImage(3, 5);
    drawText(q, 0, 0, '?');
    drawText(u, 0, 0, 'é');
    expect(u).toEqual(q);
  });

  it('clips at the edges and blends translucent colours', () => {
    const img = createImage(4, 4);
    drawText(img, -2, -2, 'WW', [0, 0, 255, 128]);
    expect(img.data[3]).toBe(128);
    expect(() => drawText(img, 100, 100, 'X')).not.toThrow();
  });
});
