import { describe, expect, it } from 'vitest';
import { renderModelAnimation, renderModelFrame, partMatrix } from '../../src/model/bake.js';
import type { ModelPart, SpriteModel } from '../../src/model/types.js';
import { createImage, cropImage, type RgbaImage } from '../../src/render/image.js';
import { patternImage, pixel } from './helpers.js';

const sheet = patternImage(8, 6, 5);

function model(parts: ModelPart[][], durations?: number[]): SpriteModel {
  return {
    kind: 'sprite',
    name: 't',
    sheets: [{ path: 's', image: sheet }],
    animations: [{ name: 'a', frames: parts.map((p, i) => ({ durationMs: durations?.[i] ?? 100, parts: p })), loopTo: 0 }],
  };
}

/** The sheet sub-image turned 90° clockwise (how a packer stores a rotated slice). */
function rotateCW(img: RgbaImage): RgbaImage {
  const out = createImage(img.height, img.width);
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++) {
      // upright (x, y) → stored (H - 1 - y, x)
      const d = (x * out.width + (img.height - 1 - y)) * 4;
      out.data.set(img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4), d);
    }
  return out;
}

describe('renderModelFrame', () => {
  it('copies a plain part exactly, with the origin where the part puts it', () => {
    const m = model([[{ sheet: 0, sx: 2, sy: 1, sw: 4, sh: 3, x: -1, y: -2 }]]);
    const f = renderModelFrame(m, 0, 0);
    expect(f.image.width).toBe(4);
    expect(f.image.height).toBe(3);
    expect(f.originX).toBe(1);
    expect(f.originY).toBe(2);
    expect(f.image.data).toEqual(cropImage(sheet, 2, 1, 4, 3).data);
  });

  it('flips about the pivot', () => {
    const m = model([[{ sheet: 0, sx: 0, sy: 0, sw: 4, sh: 2, x: 0, y: 0, originX: 2, originY: 0, flipX: true }]]);
    const f = renderModelFrame(m, 0, 0);
    expect(f.image.width).toBe(4);
    // Pivot at x=2 stays at the origin: the part spans -2..2.
    expect(f.originX).toBe(2);
    expect(pixel(f.image, 0, 0)).toEqual(pixel(sheet, 3, 0));
    expect(pixel(f.image, 3, 1)).toEqual(pixel(sheet, 0, 1));
  });

  it('rotates clockwise about the pivot by 90 degrees exactly', () => {
    const m = model([[{ sheet: 0, sx: 0, sy: 0, sw: 3, sh: 2, x: 0, y: 0, rotation: 90 }]]);
    const f = renderModelFrame(m, 0, 0);
    expect([f.image.width, f.image.height]).toEqual([2, 3]);
    // Clockwise: the top row of the part becomes the right column.
    expect(pixel(f.image, 1, 0)).toEqual(pixel(sheet, 0, 0));
    expect(pixel(f.image, 1, 2)).toEqual(pixel(sheet, 2, 0));
    expect(pixel(f.image, 0, 0)).toEqual(pixel(sheet, 0, 1));
    expect(f.originX).toBe(2);
    expect(f.originY).toBe(0);
  });

  it('turns a slice stored rotated in the sheet back upright', () => {
    const upright = patternImage(3, 5, 9);
    const stored = rotateCW(upright);
    const m: SpriteModel = {
      kind: 'sprite',
      name: 'r',
      sheets: [{ path: 's', image: stored }],
      animations: [
        {
          name: 'a',
          frames: [{ durationMs: 1, parts: [{ sheet: 0, sx: 0, sy: 0, sw: 5, sh: 3, x: 0, y: 0, rotatedInSheet: true }] }],
          loopTo: 0,
        },
      ],
    };
    const f = renderModelFrame(m, 0, 0);
    expect([f.image.width, f.image.height]).toEqual([3, 5]);
    expect(f.image.data).toEqual(upright.data);
  });

  it('scales and applies opacity', () => {
    const m = model([[{ sheet: 0, sx: 0, sy: 0, sw: 2, sh: 2, x: 0, y: 0, scaleX: 2, scaleY: 3, opacity: 0.5 }]]);
    const f = renderModelFrame(m, 0, 0);
    expect([f.image.width, f.image.height]).toEqual([4, 6]);
    const p = pixel(f.image, 3, 5);
    expect(p.slice(0, 3)).toEqual(pixel(sheet, 1, 1).slice(0, 3));
    expect(p[3]).toBe(128);
  });

  it('draws parts in order, later on top', () => {
    const m = model([
      [
        { sheet: 0, sx: 0, sy: 0, sw: 2, sh: 2, x: 0, y: 0 },
        { sheet: 0, sx: 4, sy: 4, sw: 2, sh: 2, x: 1, y: 1 },
      ],
    ]);
    const f = renderModelFrame(m, 0, 0);
    expect([f.image.width, f.image.height]).toEqual([3, 3]);
    expect(pixel(f.image, 1, 1)).toEqual(pixel(sheet, 4, 4));
    expect(pixel(f.image, 0, 0)).toEqual(pixel(sheet, 0, 0));
    expect(pixel(f.image, 2, 0)[3]).toBe(0);
  });

  it('gives an empty image for a frame without parts and rejects bad indices', () => {
    const m = model([[]]);
    expect(renderModelFrame(m, 0, 0).image.width).toBe(0);
    expect(() => renderModelFrame(m, 1, 0)).toThrow(RangeError);
    expect(() => renderModelFrame(m, 0, 3)).toThrow(RangeError);
  });

  it('refuses absurd canvases', () => {
    const m = model([[{ sheet: 0, sx: 0, sy: 0, sw: 2, sh: 2, x: 0, y: 0, scaleX: 1e6, scaleY: 1e6 }]]);
    expect(() => renderModelFrame(m, 0, 0)).toThrow(/limit/);
  });

  it('partMatrix maps the pivot to (x, y)', () => {
    const p: ModelPart = {
      sheet: 0,
      sx: 0,
      sy: 0,
      sw: 4,
      sh: 4,
      x: 10,
      y: 20,
      originX: 1,
      originY: 3,
      rotation: 33,
      scaleX: 2,
      flipY: true,
    };
    const m = partMatrix(p);
    expect(m[0] * 1 + m[2] * 3 + m[4]).toBeCloseTo(10);
    expect(m[1] * 1 + m[3] * 3 + m[5]).toBeCloseTo(20);
  });
});

describe('renderModelAnimation', () => {
  it('puts every frame on one canvas around a common origin, with delays', () => {
    const m = model(
      [[{ sheet: 0, sx: 0, sy: 0, sw: 2, sh: 2, x: -2, y: 0 }], [{ sheet: 0, sx: 0, sy: 0, sw: 2, sh: 2, x: 3, y: 1 }]],
      [50, Infinity],
    );
    const a = renderModelAnimation(m, 0);
    expect(a.frames.length).toBe(2);
    expect([a.frames[0]!.width, a.frames[0]!.height]).toEqual([7, 3]);
    expect(a.originX).toBe(2);
    expect(a.originY).toBe(0);
    expect(a.delaysMs).toEqual([50, Infinity]);
    expect(pixel(a.frames[0]!, 0, 0)).toEqual(pixel(sheet, 0, 0));
    expect(pixel(a.frames[1]!, 5, 1)).toEqual(pixel(sheet, 0, 0));
    expect(a.loops).toBe(0);
  });
});
