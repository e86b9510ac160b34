import { describe, expect, it } from 'vitest';
import { createImage, fillImage } from '../../src/render/image.js';
import { drawBounds, drawImage, opaqueBounds } from '../../src/render/compose.js';
import type { RgbaImage } from '../../src/render/image.js';
import { compose, rotate, scale, translate } from '../../src/render/matrix.js';

describe('drawImage', () => {
  it('copies an opaque region at an integer offset', () => {
    const src = createImage(2, 2);
    src.data.set([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 9, 9, 9, 255]);
    const dst = createImage(4, 4);
    drawImage(dst, src, { transform: translate(1, 2) });
    expect([...dst.data.subarray((2 * 4 + 1) * 4, (2 * 4 + 3) * 4)]).toEqual([255, 0, 0, 255, 0, 255, 0, 255]);
    expect(dst.data[3]).toBe(0);
  });

  it('blends straight alpha with opacity', () => {
    const src = createImage(1, 1);
    src.data.set([255, 255, 255, 255]);
    const dst = createImage(1, 1);
    fillImage(dst, 0, 0, 0, 255);
    drawImage(dst, src, { opacity: 0.5 });
    expect([...dst.data]).toEqual([128, 128, 128, 255]);
  });

  it('flips and rotates by multiples of 90 degrees exactly', () => {
    const src = createImage(2, 1);
    src.data.set([1, 1, 1, 255, 2, 2, 2, 255]);
    const dst = createImage(1, 2);
    drawImage(dst, src, { transform: compose(rotate(90), translate(1, 0)) });
    expect(dst.data[0]).toBe(1);
    expect(dst.data[4]).toBe(2);
    const flipped = createImage(2, 1);
    drawImage(flipped, src, { transform: compose(scale(-1, 1), translate(2, 0)) });
    expect(flipped.data[0]).toBe(2);
  });
});

function solid(w: number, h: number, px: number[]): RgbaImage {
  const img = createImage(w, h);
  for (let i = 0; i < w * h; i++) img.data.set(px, i * 4);
  return img;
}

describe('source-over with straight alpha', () => {
  it('mixes two half-transparent colours as the exact rational result, rounded', () => {
    const dst = solid(1, 1, [0, 0, 255, 128]);
    drawImage(dst, solid(1, 1, [255, 0, 0, 128]));
    // alpha: (255·128 + 128·127) / 255 = 191.75; red: 255·128·255 / 48896 = 170.2; blue: 127·128·255 / 48896 = 84.8
    expect([...dst.data]).toEqual([170, 0, 85, 192]);
  });

  it('leaves the destination alone under transparent pixels, and copies onto transparent ones', () => {
    const dst = solid(2, 1, [1, 2, 3, 4]);
    const src = createImage(2, 1);
    src.data.set([9, 9, 9, 0, 50, 60, 70, 80]);
    const under = solid(2, 1, [0, 0, 0, 0]);
    drawImage(dst, src);
    expect([...dst.data.subarray(0, 4)]).toEqual([1, 2, 3, 4]);
    drawImage(under, src);
    expect([...under.data]).toEqual([0, 0, 0, 0, 50, 60, 70, 80]);
  });

  it('scales alpha by opacity, rounding', () => {
    const dst = solid(1, 1, [0, 0, 0, 0]);
    drawImage(dst, solid(1, 1, [10, 20, 30, 255]), { opacity: 0.3 });
    expect([...dst.data]).toEqual([10, 20, 30, 77]);
    drawImage(dst, solid(1, 1, [10, 20, 30, 255]), { opacity: 0 });
    expect([...dst.data]).toEqual([10, 20, 30, 77]);
  });

  it('bilinear scaling does not darken edges against transparent texels', () => {
    const src = createImage(3, 3);
    src.data.set([255, 255, 255, 255], 4 * 4); // one white pixel in the middle
    const dst = createImage(12, 12);
    drawImage(dst, src, { transform: scale(4), filter: 'bilinear' });
    let seen = 0;
    for (let i = 0; i < dst.data.length; i += 4) {
      if (dst.data[i + 3]) {
        seen++;
        expect([...dst.data.subarray(i, i + 3)]).toEqual([255, 255, 255]);
      }
    }
    expect(seen).toBeGreaterThan(16);
  });

  it('draws a sub-rectangle', () => {
    const src = createImage(3, 1);
    src.data.set([1, 1, 1, 255, 2, 2, 2, 255, 3, 3, 3, 255]);
    const dst = createImage(2, 1);
    drawImage(dst, src, { sx: 1, sw: 2 });
    expect([dst.data[0], dst.data[4]]).toEqual([2, 3]);
  });
});

describe('bounds and layer composition', () => {
  it('finds the opaque bounds', () => {
    const img = createImage(5, 4);
    expect(opaqueBounds(img)).toBeNull();
    img.data[(1 * 5 + 3) * 4 + 3] = 1;
    img.data[(2 * 5 + 1) * 4 + 3] = 255;
    expect(opaqueBounds(img)).toEqual({ x: 1, y: 1, width: 3, height: 2 });
  });

  it('gives integer draw bounds without a spurious extra column for exact turns', () => {
    expect(drawBounds(createImage(4, 2), { transform: compose(rotate(90), translate(3, 1)) })).toEqual({ x: 1, y: 1, width: 2, height: 4 });
    expect(drawBounds(createImage(4, 2), { transform: translate(0.5, 0) })).toEqual({ x: 0, y: 0, width: 5, height: 2 });
    expect(drawBounds(createImage(4, 2), { sw: 0 })).toBeNull();
    expect(drawBounds(createImage(4, 2), { transform: scale(0) })).toBeNull();
  });
});
