import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asepriteHandler } from '../../src/interop/aseprite/index.js';
import { texturePackerHandler } from '../../src/interop/texturepacker/index.js';
import type { FormatHandler } from '../../src/formats/types.js';
import { renderModelFrame } from '../../src/model/bake.js';
import type { ModelFrame, ModelPart, SpriteModel } from '../../src/model/types.js';
import { memoryLoader, patternImage } from './helpers.js';

const sheetImage = patternImage(24, 20, 11);
// Some transparent pixels in the sheet, so trimming has work to do.
for (let i = 3; i < sheetImage.data.length; i += 4 * 7) sheetImage.data[i] = 0;

const partArb: fc.Arbitrary<ModelPart> = fc
  .record({
    sx: fc.integer({ min: 0, max: 20 }),
    sy: fc.integer({ min: 0, max: 16 }),
    sw: fc.integer({ min: 1, max: 4 }),
    sh: fc.integer({ min: 1, max: 4 }),
    x: fc.integer({ min: -10, max: 10 }),
    y: fc.integer({ min: -10, max: 10 }),
    originX: fc.integer({ min: 0, max: 3 }),
    originY: fc.integer({ min: 0, max: 3 }),
    flipX: fc.boolean(),
    flipY: fc.boolean(),
    rotation: fc.constantFrom(0, 90, 180, 270, 30),
    scaleX: fc.constantFrom(1, 2),
    opacity: fc.constantFrom(1, 0.5),
    rotatedInSheet: fc.boolean(),
  })
  .map((p) => ({ sheet: 0, ...p }));

const frameArb: fc.Arbitrary<ModelFrame> = fc.record({
  durationMs: fc.integer({ min: 1, max: 500 }),
  parts: fc.array(partArb, { minLength: 0, maxLength: 3 }),
});

const modelArb: fc.Arbitrary<SpriteModel> = fc
  .array(
    fc.record({
      name: fc.constantFrom('walk', 'run', 'idle', 'hit'),
      frames: fc.array(frameArb, { minLength: 1, maxLength: 4 }),
      loop: fc.boolean(),
    }),
    {
      minLength: 1,
      maxLength: 3,
    },
  )
  .map((anims) => ({
    kind: 'sprite' as const,
    name: 'rt',
    sheets: [{ path: 'rt', image: sheetImage }],
    animations: anims.map((a, i) => ({ name: `${a.name}${i}`, frames: a.frames, loopTo: a.loop ? 0 : null })),
  }));

/** Every sprite-space pixel of two renders of a frame agrees (outside an image = transparent). */
function sameFrame(a: ReturnType<typeof renderModelFrame>, b: ReturnType<typeof renderModelFrame>): boolean {
  const x0 = Math.min(-a.originX, -b.originX);
  const y0 = Math.min(-a.originY, -b.originY);
  const x1 = Math.max(a.image.width - a.originX, b.image.width - b.originX);
  const y1 = Math.max(a.image.height - a.originY, b.image.height - b.originY);
  const px = (f: typeof a, x: number, y: number) => {
    const ix = x + f.originX;
    const iy = y + f.originY;
    if (ix < 0 || iy < 0 || ix >= f.image.width || iy >= f.image.height) return [0, 0, 0, 0];
    const o = (iy * f.image.width + ix) * 4;
    const p = Array.from(f.image.data.subarray(o, o + 4));
    return p[3] === 0 ? [0, 0, 0, 0] : p;
  };
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (px(a, x, y).join() !== px(b, x, y).join()) return false;
  return true;
}

async function roundTrip(h: FormatHandler, model: SpriteModel): Promise<SpriteModel> {
  const files = await h.writeFiles!(await h.fromModel!(structuredClone(model)), 'rt.json');
  return (await h.toModel!(h.read(files[0]!.bytes), memoryLoader({ [files[1]!.name]: files[1]!.bytes }))) as SpriteModel;
}

describe('model → sheet files → model keeps every frame as drawn', () => {
  for (const h of [asepriteHandler, texturePackerHandler]) {
    it(h.name, async () => {
      await fc.assert(
        fc.asyncProperty(modelArb, async (model) => {
          const back = await roundTrip(h, model);
          expect(back.animations.map((a) => a.name)).toEqual(model.animations.map((a) => a.name));
          model.animations.forEach((a, ai) => {
            const b = back.animations[ai]!;
            expect(b.frames.map((f) => f.durationMs)).toEqual(a.frames.map((f) => f.durationMs));
            if (h === asepriteHandler) expect(b.loopTo).toBe(a.loopTo);
            a.frames.forEach((_, fi) => {
              expect(sameFrame(renderModelFrame(model, ai, fi), renderModelFrame(back, ai, fi)), `${a.name} frame ${fi}`).toBe(true);
            });
          });
        }),
        { numRuns: 40 },
      );
    });
  }
});
