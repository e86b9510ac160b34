// The random draws the compositor's property tests share (compose-diff: the
// fast paths against the reference; compose-simd: the SIMD kernels against
// the JS paths): offsets, flips and scales, quarter and free rotations, any
// matrix; source rectangles, opacity and filter.
import fc from 'fast-check';
import type { DrawOptions } from '../../src/render/compose.js';
import { compose, type Matrix, rotate, scale, translate } from '../../src/render/matrix.js';

export interface DrawRanges {
  /** The largest whole-pixel offset (the smallest is -6). */
  maxShift: number;
  /** The largest translation of a free matrix (the smallest is -8). */
  maxMatrixShift: number;
  /** The largest source rectangle side. */
  maxSource: number;
}

export function drawArbitraries(r: DrawRanges) {
  const small = fc.integer({ min: -6, max: r.maxShift });
  const factor = fc.constantFrom(-3, -2, -1.5, -1, -0.5, 0.5, 1, 1.25, 2, 3);
  const transform: fc.Arbitrary<Matrix | undefined> = fc.oneof(
    fc.constant(undefined),
    fc.tuple(small, small).map(([x, y]) => translate(x, y)),
    fc.tuple(factor, factor, small, small).map(([a, b, x, y]) => compose(scale(a, b), translate(x, y))),
    fc
      .tuple(fc.constantFrom(90, 180, 270, -90), factor, small, small)
      .map(([deg, k, x, y]) => compose(scale(k, 1), rotate(deg), translate(x, y))),
    fc
      .tuple(fc.double({ min: -360, max: 360, noNaN: true }), fc.double({ min: 0.3, max: 3, noNaN: true }), small, small)
      .map(([deg, k, x, y]) => compose(rotate(deg), scale(k, k * 0.8), translate(x + 0.37, y - 0.21))),
    fc
      .tuple(
        fc.double({ min: -2, max: 2, noNaN: true }),
        fc.double({ min: -2, max: 2, noNaN: true }),
        fc.double({ min: -2, max: 2, noNaN: true }),
        fc.double({ min: -2, max: 2, noNaN: true }),
        fc.double({ min: -8, max: r.maxMatrixShift, noNaN: true }),
        fc.double({ min: -8, max: r.maxMatrixShift, noNaN: true }),
      )
      .map((m) => m as Matrix),
  );
  const options: fc.Arbitrary<DrawOptions> = fc.record(
    {
      sx: fc.integer({ min: -3, max: 8 }),
      sy: fc.integer({ min: -3, max: 8 }),
      sw: fc.integer({ min: 0, max: r.maxSource }),
      sh: fc.integer({ min: 0, max: r.maxSource }),
      transform,
      opacity: fc.oneof(fc.constant(1), fc.constant(0.5), fc.double({ min: 0, max: 1, noNaN: true })),
      filter: fc.constantFrom('nearest' as const, 'bilinear' as const),
    },
    { requiredKeys: ['transform', 'filter'] },
  );
  return { small, transform, options };
}
