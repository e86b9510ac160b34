/** Attachment points, collision shapes and interpolation. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyMatrix } from '../../src/render/matrix.js';
import { attach, attachmentPoints } from '../../src/formats/isprite/attach.js';
import { collisionShapes, firstOverlap, pointInShape, shapesOverlap, type WorldShape } from '../../src/formats/isprite/collide.js';
import type { IspriteAttachment, IspriteCircle, IspriteElement, IspriteGraphic, IspriteRect } from '../../src/formats/isprite/model.js';
import { Player } from '../../src/formats/isprite/play.js';
import { frame, seq, sprite } from './build.js';

const point = (name: number | null, over: Partial<IspriteAttachment> = {}): IspriteAttachment => ({
  type: 'attachment',
  name,
  id: 0,
  x: 0,
  y: 0,
  flipX: false,
  flipY: false,
  rotation: 0,
  scaleX: 1,
  scaleY: 1,
  opacity: 65535,
  ...over,
});
const rect = (name: number | null, x: number, y: number, width: number, height: number, rotation = 0): IspriteRect => ({
  type: 'rect',
  name,
  id: 0,
  x,
  y,
  width,
  height,
  rotation,
});
const circle = (name: number | null, x: number, y: number, radius: number): IspriteCircle => ({
  type: 'circle',
  name,
  id: 1,
  x,
  y,
  radius,
});
const graphic = (name: number | null, over: Partial<IspriteGraphic> = {}): IspriteGraphic => ({
  type: 'graphic',
  expanded: false,
  name,
  slice: 0,
  x: 0,
  y: 0,
  flipX: false,
  flipY: false,
  ...over,
});

function playerWith(...frames: IspriteElement[][]): Player {
  const d = sprite(
    [
      seq(
        'a',
        frames.map((_, i) => i),
      ),
    ],
    frames.map((els) => frame(1, '', els)),
    {
      extraMeta: [['default-sequence', 'Root/a']],
    },
  );
  d.names = ['hand', 'hurt', 'hit', 'body'];
  d.slices = [{ texture: 0, rotated: false, x: 0, y: 0, width: 10, height: 20 }];
  return new Player(d);
}

const close = (a: readonly number[], b: readonly number[]): void => {
  expect(a.length).toBe(b.length);
  a.forEach((v, i) => expect(v).toBeCloseTo(b[i]!, 9));
};

describe('attachment points', () => {
  it('"an attached sprite is drawn at every attachment point of that name in the current frame"', () => {
    const p = playerWith([point(0, { x: 4, y: -12 }), point(1), point(0, { x: -4, y: -12 })]);
    const pts = attachmentPoints(p, 'hand');
    expect(pts.map((i) => applyMatrix(i.matrix, 0, 0))).toEqual([
      [4, -12],
      [-4, -12],
    ]);
    expect(pts.map((i) => i.index)).toEqual([0, 2]);
  });

  it('"none if the name is absent"', () => {
    const p = playerWith([point(1)], [point(0)]);
    expect(attachmentPoints(p, 'hand')).toEqual([]);
    expect(attachmentPoints(p, 'HAND')).toEqual([]);
    p.step();
    expect(attachmentPoints(p, 'hand')).toHaveLength(1);
  });

  it('"with the parent\'s transform, then the point\'s transform, then its own"', () => {
    const parent = playerWith([point(0, { x: 10, y: 0, rotation: 90, scaleX: 2, scaleY: 2, opacity: 32768 })]);
    const child = playerWith([]);
    const a = attach(parent, 'hand', child, { x: 1, y: 0, opacity: 0.5 });
    const [inst] = a.instances({ x: 100, y: 50, rotation: 90, flipX: false, opacity: 0.5 });
    // child origin: own (1,0) -> point: scale 2 -> (2,0), rotate 90 cw -> (0,2), move -> (10,2);
    // parent: rotate 90 cw -> (-2,10), move -> (98,60).
    close(applyMatrix(inst!.child.matrix, 0, 0), [98, 60]);
    close(applyMatrix(inst!.matrix, 0, 0), [100, 60]);
    expect(inst!.child.opacity).toBeCloseTo(0.5 * (32768 / 65535) * 0.5, 12);
  });

  it("attachments nest: a child's placement is the parent placement of its own points", () => {
    const parent = playerWith([point(0, { x: 10, y: 0 })]);
    const child = playerWith([point(0, { x: 0, y: 5, rotation: 90 })]);
    const [inst] = attach(parent, 'hand', child).instances({ x: 1, y: 1, scaleX: 2, scaleY: 2 });
    const [grand] = attachmentPoints(child, 'hand', inst!.child);
    close(applyMatrix(grand!.matrix, 0, 0), [21, 11]);
    close(applyMatrix(grand!.matrix, 1, 0), [21, 13]);
  });

  it("mirroring flips the point's axes", () => {
    const p = playerWith([point(0, { x: 5, y: 3, flipX: true })]);
    const [inst] = attachmentPoints(p, 'hand', { flipY: true });
    close(applyMatrix(inst!.matrix, 1, 1), [4, -4]);
  });
});

describe('collision', () => {
  it('"rotated rectangles (rotation about the upper-left corner, clockwise, degrees)"', () => {
    const p = playerWith([rect(1, 10, 20, 4, 2, 90)]);
    const [s] = collisionShapes(p);
    expect(s!.kind).toBe('rect');
    close((s as Extract<WorldShape, { kind: 'rect' }>).points.flat(), [10, 20, 10, 24, 8, 24, 8, 20]);
    expect(pointInShape(s!, 9, 22)).toBe(true);
    expect(pointInShape(s!, 11, 22)).toBe(false);
  });

  it('"filterable by element name"', () => {
    const p = playerWith([rect(1, 0, 0, 1, 1), circle(2, 0, 0, 1), circle(null, 0, 0, 1)]);
    expect(collisionShapes(p).length).toBe(3);
    expect(collisionShapes(p, undefined, 'hurt').map((s) => s.kind)).toEqual(['rect']);
    expect(collisionShapes(p, undefined, ['hit', 'hurt']).map((s) => s.name)).toEqual(['hurt', 'hit']);
  });

  it('the sprite transform applies (position, rotation, uniform scale, mirroring)', () => {
    const p = playerWith([circle(2, 10, 0, 3)]);
    const [s] = collisionShapes(p, { x: 100, y: 100, rotation: 90, scaleX: 2, scaleY: 2, flipX: true });
    // flip: (-10,0), scale: (-20,0), rotate 90 cw: (0,-20), move: (100,80)
    expect(s).toMatchObject({ kind: 'circle', radius: 6 });
    const c = s as Extract<WorldShape, { kind: 'circle' }>;
    close([c.x, c.y], [100, 80]);
  });

  it('non-uniform scale turns a circle into an exact ellipse', () => {
    const p = playerWith([circle(2, 0, 0, 1)]);
    const [s] = collisionShapes(p, { scaleX: 3, scaleY: 1, rotation: 90 });
    expect(s!.kind).toBe('ellipse');
    const e = s as Extract<WorldShape, { kind: 'ellipse' }>;
    expect(e.radiusX).toBeCloseTo(3);
    expect(e.radiusY).toBeCloseTo(1);
    expect(pointInShape(s!, 0, 2.9)).toBe(true);
    expect(pointInShape(s!, 2.9, 0)).toBe(false);
  });

  it('overlap tests: circle/circle, circle/rect, rect/rect', () => {
    const p = playerWith([circle(0, 0, 0, 1), circle(1, 2, 0, 1), circle(2, 3.1, 0, 1), rect(3, 1.5, -1, 2, 2)]);
    const [c0, c1, c2, r] = collisionShapes(p);
    expect(shapesOverlap(c0!, c1!)).toBe(true);
    expect(shapesOverlap(c0!, c2!)).toBe(false);
    expect(shapesOverlap(c1!, r!)).toBe(true);
    expect(shapesOverlap(r!, c0!)).toBe(false);
    const q = playerWith([rect(0, 0, 0, 2, 2), rect(1, 2.5, 0, 2, 2), rect(2, 2.5, 0, 2, 2, 315)]);
    const [a, b, c] = collisionShapes(q);
    expect(shapesOverlap(a!, b!)).toBe(false);
    expect(shapesOverlap(a!, c!)).toBe(false);
    expect(shapesOverlap(b!, c!)).toBe(true);
    expect(firstOverlap([a!], [b!, c!, a!])).toEqual([a, a]);
  });

  it('property: shapes overlap exactly when some point is in both (sampled), for circles, rects and ellipses', () => {
    const shape = fc.oneof(
      fc
        .record({ x: fc.integer({ min: -8, max: 8 }), y: fc.integer({ min: -8, max: 8 }), r: fc.integer({ min: 1, max: 6 }) })
        .map((c) => circle(0, c.x, c.y, c.r)),
      fc
        .record({
          x: fc.integer({ min: -8, max: 8 }),
          y: fc.integer({ min: -8, max: 8 }),
          w: fc.integer({ min: 1, max: 8 }),
          h: fc.integer({ min: 1, max: 8 }),
          rot: fc.integer({ min: 0, max: 359 }),
        })
        .map((r) => rect(0, r.x, r.y, r.w, r.h, r.rot)),
    );
    fc.assert(
      fc.property(shape, shape, fc.constantFrom(1, 2, 0.5), (ea, eb, sx) => {
        const pa = playerWith([ea]);
        const pb = playerWith([eb]);
        const [a] = collisionShapes(pa, { scaleX: sx, rotation: 30 });
        const [b] = collisionShapes(pb, { scaleX: sx, rotation: 30 });
        let both = false;
        for (let y = -30; y <= 30 && !both; y += 0.5)
          for (let x = -30; x <= 30 && !both; x += 0.5) both = pointInShape(a!, x, y) && pointInShape(b!, x, y);
        const o = shapesOverlap(a!, b!);
        expect(shapesOverlap(b!, a!)).toBe(o);
        // A found common point proves overlap; no overlap must mean no common point.
        if (both) expect(o).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});

/** Points along a shape's outline. */
function outline(s: WorldShape, n: number): [number, number][] {
  const pts: [number, number][] = [];
  if (s.kind === 'rect') {
    for (let i = 0; i < 4; i++) {
      const a = s.points[i]!;
      const b = s.points[(i + 1) % 4]!;
      for (let k = 0; k < n / 4; k++) pts.push([a[0] + ((b[0] - a[0]) * k) / (n / 4), a[1] + ((b[1] - a[1]) * k) / (n / 4)]);
    }
    return pts;
  }
  const [rx, ry, th] = s.kind === 'circle' ? [s.radius, s.radius, 0] : [s.radiusX, s.radiusY, (s.rotation * Math.PI) / 180];
  for (let k = 0; k < n; k++) {
    const a = (2 * Math.PI * k) / n;
    const x = rx * Math.cos(a);
    const y = ry * Math.sin(a);
    pts.push([s.x + x * Math.cos(th) - y * Math.sin(th), s.y + x * Math.sin(th) + y * Math.cos(th)]);
  }
  return pts;
}

describe('collision against sampled outlines', () => {
  it('shapesOverlap agrees with "an outline point of one is in the other, or one contains the other" (circles, ellipses, rects)', () => {
    let seed = 7;
    const rnd = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const mk = (): IspriteElement =>
      rnd() < 0.6
        ? circle(0, rnd() * 20 - 10, rnd() * 20 - 10, 0.5 + rnd() * 5)
        : rect(0, rnd() * 20 - 10, rnd() * 20 - 10, 0.5 + rnd() * 6, 0.5 + rnd() * 6, rnd() * 360);
    let overlaps = 0;
    for (let i = 0; i < 300; i++) {
      const tr = { scaleX: 0.3 + rnd() * 3, scaleY: 0.3 + rnd() * 3, rotation: rnd() * 360 };
      const [a] = collisionShapes(playerWith([mk()]), tr);
      const [b] = collisionShapes(playerWith([mk()]), { ...tr, rotation: tr.rotation + rnd() * 50 });
      const inside = (s: WorldShape, t: WorldShape): boolean => {
        const p = s.kind === 'rect' ? s.points[0]! : [s.x, s.y];
        return pointInShape(t, p[0]!, p[1]!) && outline(s, 64).every(([x, y]) => pointInShape(t, x, y));
      };
      const truth =
        outline(a!, 720).some(([x, y]) => pointInShape(b!, x, y)) ||
        outline(b!, 720).some(([x, y]) => pointInShape(a!, x, y)) ||
        inside(a!, b!) ||
        inside(b!, a!);
      expect(shapesOverlap(a!, b!)).toBe(truth);
      if (truth) overlaps++;
    }
    expect(overlaps).toBeGreaterThan(20);
  });
});

describe('interpolation', () => {
  it('"sample(t) with 0 ≤ t < 1 gives the current frame\'s elements ... linearly interpolated toward the element of the same name in the frame that will follow"', () => {
    const p = playerWith(
      [graphic(3, { x: 0, y: 0 }), point(0, { x: 10, rotation: 0, opacity: 0 })],
      [
        graphic(3, { x: 10, y: -4, expanded: true, rotation: 90, scaleX: 2, scaleY: 1, opacity: 0, originX: 0, originY: 0 }),
        point(0, { x: 20, rotation: 40, opacity: 65535 }),
      ],
    );
    const s = p.sample(0.25);
    expect(s[0]).toMatchObject({
      type: 'graphic',
      x: 2.5,
      y: -1,
      rotation: 22.5,
      scaleX: 1.25,
      scaleY: 1,
      opacity: 49151,
      originX: 5,
      originY: 10,
    });
    expect(s[1]).toMatchObject({ x: 12.5, rotation: 10, opacity: 16384 });
    expect(p.sample(0)[0]).toMatchObject({ x: 0, rotation: 0 });
  });

  it('"only where that name occurs exactly once in both frames"', () => {
    const p = playerWith(
      [graphic(3, { x: 0 }), graphic(0, { x: 0 }), graphic(null, { x: 0 })],
      [graphic(3, { x: 10 }), graphic(3, { x: 10 }), graphic(0, { x: 10 }), graphic(null, { x: 10 })],
    );
    expect(p.sample(0.5).map((e) => (e as IspriteGraphic).x)).toEqual([0, 5, 0]);
  });

  it('the following frame is the loop target, and nothing when playback will stop', () => {
    const d = sprite(
      [seq('a', [0, 1], 0), seq('b', [0, 1], null)],
      [frame(1, '', [circle(0, 0, 0, 1)]), frame(1, '', [circle(0, 8, 0, 1)])],
    );
    d.names = ['c'];
    const p = new Player(d);
    p.setAnimation('a');
    p.step();
    expect((p.sample(0.5)[0] as IspriteCircle).x).toBe(4);
    p.setAnimation('b');
    p.step();
    expect((p.sample(0.5)[0] as IspriteCircle).x).toBe(8);
  });

  it('default t is the progress through the current frame', () => {
    const d = sprite([seq('a', [0, 1])], [frame(4, '', [circle(0, 0, 0, 1)]), frame(1, '', [circle(0, 8, 0, 1)])], { frameRate: 8 });
    d.names = ['c'];
    const p = new Player(d);
    p.setAnimation('a');
    p.update(0.25 + 1 / 16);
    expect(p.progress).toBeCloseTo(2.5 / 4, 12);
    expect((p.sample()[0] as IspriteCircle).x).toBeCloseTo(5, 9);
  });
});
