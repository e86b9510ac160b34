/** fast-check arbitraries for ISPRITE documents whose values survive a write exactly. */
import fc from 'fast-check';
import type {
  IspriteDate,
  IspriteDocument,
  IspriteElement,
  IspriteFrame,
  IspriteMeta,
  IspriteNode,
} from '../../src/formats/isprite/index.js';

const fixed = fc.integer({ min: -32768 * 256, max: 32767 * 256 + 255 }).map((n) => n / 256);
const smallFixed = fc.integer({ min: -4096, max: 4096 }).map((n) => n / 256);
const u8 = fc.integer({ min: 0, max: 255 });
const u16 = fc.integer({ min: 0, max: 0xffff });
const name = fc.option(fc.integer({ min: 0, max: 0xfffe }), { nil: null });
const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 4 }),
  fc.constantFrom('', 'idle', 'Hero ✓', 'step,swing'),
);

const date: fc.Arbitrary<IspriteDate | null> = fc.option(
  fc
    .record({ year: u16, month: u8, day: u8, hour: u8, minute: u8, second: u8, centisecond: u8 })
    .filter((d) => d.year + d.month + d.day + d.hour + d.minute + d.second + d.centisecond > 0),
  { nil: null },
);

const meta: fc.Arbitrary<IspriteMeta | null> = fc.option(
  fc.record({
    created: date,
    saved: date,
    workTimeMs: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
    tags: text,
    title: text,
    project: text,
    author: text,
    company: text,
    contact: text,
    url: text,
    copyright: text,
    comments: text,
    originatingProgram: text,
    program: text,
  }),
  { nil: null },
);

export const element: fc.Arbitrary<IspriteElement> = fc.oneof(
  fc.record({
    type: fc.constant('graphic' as const),
    expanded: fc.constant(false),
    name,
    slice: u16,
    x: fixed,
    y: fixed,
    flipX: fc.boolean(),
    flipY: fc.boolean(),
  }),
  fc.record({
    type: fc.constant('graphic' as const),
    expanded: fc.constant(true),
    name,
    slice: u16,
    x: smallFixed,
    y: smallFixed,
    flipX: fc.boolean(),
    flipY: fc.boolean(),
    originX: smallFixed,
    originY: smallFixed,
    rotation: fixed,
    scaleX: smallFixed,
    scaleY: smallFixed,
    opacity: u16,
  }),
  fc.record({
    type: fc.constant('attachment' as const),
    name,
    id: u16,
    x: fixed,
    y: fixed,
    flipX: fc.boolean(),
    flipY: fc.boolean(),
    rotation: fixed,
    scaleX: smallFixed,
    scaleY: smallFixed,
    opacity: u16,
  }),
  fc.record({ type: fc.constant('rect' as const), name, id: u16, x: fixed, y: fixed, width: fixed, height: fixed, rotation: fixed }),
  fc.record({ type: fc.constant('circle' as const), name, id: u16, x: fixed, y: fixed, radius: fixed }),
  fc.record({
    type: fc.constant('unknown' as const),
    marker: u8.filter((m) => ![0x67, 0x47, 0x41, 0x43].includes(m)),
    name,
    data: fc.uint8Array({ maxLength: 20 }),
  }),
);

const frame: fc.Arbitrary<IspriteFrame> = fc.record({
  holdTime: u16,
  loopPoint: fc.boolean(),
  label: text,
  triggers: text,
  notes: text,
  elements: fc.array(element, { maxLength: 6 }),
});

const sequence = fc.record({
  kind: fc.constant('sequence' as const),
  name: text,
  loopPoint: fc.option(fc.integer({ min: 0, max: 0xfffffffe }), { nil: null }),
  followUp: text,
  frames: fc.array(fc.integer({ min: 0, max: 0xffffffff }), { maxLength: 5 }),
});

const tree = fc.letrec<{ node: IspriteNode; nodes: IspriteNode[] }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    sequence,
    fc.record({ kind: fc.constant('group' as const), name: text, children: tie('nodes') }),
  ),
  nodes: fc.array(tie('node'), { maxLength: 4 }),
})).nodes;

export const ispriteDocument: fc.Arbitrary<IspriteDocument> = fc.record({
  version: fc.tuple(fc.constant(1), u8),
  nonStandard: fc.boolean(),
  workFile: fc.boolean(),
  nonStandardId: fc.stringMatching(/^[A-Za-z0-9]{0,3}$/),
  frameRate: u8,
  meta,
  extraMeta: fc.option(fc.array(fc.tuple(text, text), { maxLength: 4 }), { nil: null }),
  textures: fc.array(fc.record({ path: text, nearest: fc.boolean() }), { maxLength: 3 }),
  slices: fc.array(fc.record({ texture: u8, rotated: fc.boolean(), x: u16, y: u16, width: u16, height: u16 }), { maxLength: 4 }),
  names: fc.array(text, { maxLength: 4 }),
  tree,
  frames: fc.array(frame, { maxLength: 5 }),
  unknownChunks: fc.array(
    fc.record({
      id: fc.stringMatching(/^[A-Z0-9+ ]{4}$/).filter((id) => !['META', 'MET+', 'TEX ', 'SLIC', 'NAME', 'TIER', 'FRAM'].includes(id)),
      data: fc.uint8Array({ maxLength: 16 }),
    }),
    { maxLength: 2 },
  ),
});
