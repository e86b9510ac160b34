import { describe, expect, it } from 'vitest';
import { createImage, fillImage } from '../../src/render/image.js';
import { drawImage } from '../../src/render/compose.js';
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
