/**
 * The ISPRITE sample: a small pixel-art hero drawn in code into an RGBA
 * sheet, and a sprite with idle/walk/attack sequences in nested groups,
 * attachment points, hit boxes, triggers, a default sequence and a
 * per-sequence frame rate (MET+, erratum 6). Deterministic: fixed dates.
 * Files are named relative to samples/.
 */
import { createImage, type RgbaImage } from '../../src/render/image.js';
import { encodePng } from '../../src/render/png.js';
import {
  createIsprite,
  writeIsprite,
  type IspriteDocument,
  type IspriteElement,
  type IspriteFrame,
} from '../../src/formats/isprite/index.js';

type Rgba = [number, number, number, number];
const SKIN: Rgba = [240, 190, 150, 255];
const HAIR: Rgba = [110, 60, 30, 255];
const TUNIC: Rgba = [50, 90, 200, 255];
const BELT: Rgba = [90, 60, 20, 255];
const LEGS: Rgba = [70, 50, 40, 255];
const BOOTS: Rgba = [40, 30, 25, 255];
const EYE: Rgba = [20, 20, 30, 255];
const BLADE: Rgba = [200, 210, 220, 255];
const HILT: Rgba = [160, 120, 40, 255];

const CELL_W = 16;
const CELL_H = 24;
const GAP = 1;

function rect(img: RgbaImage, x: number, y: number, w: number, h: number, c: Rgba): void {
  for (let j = y; j < y + h; j++) {
    for (let i = x; i < x + w; i++) {
      if (i < 0 || j < 0 || i >= img.width || j >= img.height) continue;
      img.data.set(c, (j * img.width + i) * 4);
    }
  }
}

/** One hero pose in the cell at (ox, oy): leg and arm offsets make the animation. */
function drawHero(img: RgbaImage, ox: number, oy: number, pose: { bob: number; legL: number; legR: number; arm: number }): void {
  const b = pose.bob;
  rect(img, ox + 5, oy + 1 + b, 6, 2, HAIR); // hair
  rect(img, ox + 5, oy + 3 + b, 6, 5, SKIN); // face
  rect(img, ox + 4, oy + 3 + b, 1, 3, HAIR);
  rect(img, ox + 9, oy + 5 + b, 1, 1, EYE);
  rect(img, ox + 4, oy + 8 + b, 8, 7, TUNIC); // body
  rect(img, ox + 4, oy + 14 + b, 8, 1, BELT);
  rect(img, ox + 12, oy + 9 + b + pose.arm, 2, 5, SKIN); // front arm
  rect(img, ox + 2, oy + 9 + b, 2, 5, TUNIC); // back arm
  rect(img, ox + 5 + pose.legL, oy + 15, 2, 7, LEGS); // legs
  rect(img, ox + 9 + pose.legR, oy + 15, 2, 7, LEGS);
  rect(img, ox + 4 + pose.legL, oy + 22, 3, 2, BOOTS);
  rect(img, ox + 9 + pose.legR, oy + 22, 3, 2, BOOTS);
}

const POSES = [
  { bob: 0, legL: 0, legR: 0, arm: 0 }, // idle 0
  { bob: 1, legL: 0, legR: 0, arm: 1 }, // idle 1
  { bob: 0, legL: -1, legR: 1, arm: 0 }, // walk 0
  { bob: 1, legL: 0, legR: 0, arm: 1 }, // walk 1
  { bob: 0, legL: 1, legR: -1, arm: 0 }, // walk 2
  { bob: 1, legL: 0, legR: 0, arm: 1 }, // walk 3
  { bob: 0, legL: -1, legR: 0, arm: -2 }, // attack 0 (wind-up)
  { bob: 1, legL: -1, legR: 1, arm: 2 }, // attack 1 (swing)
  { bob: 0, legL: 0, legR: 1, arm: 1 }, // attack 2 (recover)
];

const SWORD = { x: POSES.length * (CELL_W + GAP), y: 0, w: 4, h: 14 };

export function makeHeroSheet(): RgbaImage {
  const img = createImage(SWORD.x + SWORD.w, CELL_H);
  POSES.forEach((p, i) => drawHero(img, i * (CELL_W + GAP), 0, p));
  rect(img, SWORD.x + 1, 0, 2, 10, BLADE);
  rect(img, SWORD.x, 10, 4, 1, HILT);
  rect(img, SWORD.x + 1, 11, 2, 3, HILT);
  return img;
}

export function makeHeroDocument(): IspriteDocument {
  const doc = createIsprite(10);
  doc.meta = {
    created: { year: 2026, month: 11, day: 21, hour: 3, minute: 0, second: 0, centisecond: 0 },
    saved: { year: 2026, month: 11, day: 21, hour: 4, minute: 30, second: 15, centisecond: 50 },
    workTimeMs: 5_400_000n,
    tags: 'hero,character,pixel art',
    title: 'Hero',
    project: 'sprat samples',
    author: 'sprat sample generator',
    company: '',
    contact: '',
    url: 'https://example.invalid/sprat',
    copyright: 'CC0',
    comments: 'Drawn in code by scripts/samples/isprite.ts.',
    originatingProgram: 'sprat',
    program: 'sprat',
  };
  doc.extraMeta = [
    ['default-sequence', 'Root/idle'],
    ['sequence-frame-rate:Root/Armed/attack', '15'],
  ];
  doc.textures = [{ path: 'hero', nearest: true }];
  doc.slices = POSES.map((_, i) => ({ texture: 0, rotated: false, x: i * (CELL_W + GAP), y: 0, width: CELL_W, height: CELL_H }));
  const swordSlice = doc.slices.length;
  doc.slices.push({ texture: 0, rotated: false, x: SWORD.x, y: SWORD.y, width: SWORD.w, height: SWORD.h });
  doc.names = ['hand', 'hurtbox', 'hitbox', 'sword'];
  const [HAND, HURT, HIT, SWORD_NAME] = [0, 1, 2, 3];

  const body = (slice: number): IspriteElement => ({
    type: 'graphic',
    expanded: false,
    name: null,
    slice,
    x: -8,
    y: -24,
    flipX: false,
    flipY: false,
  });
  const hand = (x: number, y: number, rotation = 0): IspriteElement => ({
    type: 'attachment',
    name: HAND,
    id: 0,
    x,
    y,
    flipX: false,
    flipY: false,
    rotation,
    scaleX: 1,
    scaleY: 1,
    opacity: 65535,
  });
  const hurtbox: IspriteElement = { type: 'rect', name: HURT, id: 0, x: -6, y: -23, width: 12, height: 23, rotation: 0 };
  const frame = (holdTime: number, elements: IspriteElement[], extra: Partial<IspriteFrame> = {}): IspriteFrame => ({
    holdTime,
    loopPoint: false,
    label: '',
    triggers: '',
    notes: '',
    elements,
    ...extra,
  });
  const sword = (x: number, y: number, rotation: number): IspriteElement => ({
    type: 'graphic',
    expanded: true,
    name: SWORD_NAME,
    slice: swordSlice,
    x,
    y,
    flipX: false,
    flipY: false,
    originX: 2,
    originY: 12.5,
    rotation,
    scaleX: 1,
    scaleY: 1,
    opacity: 65535,
  });

  doc.frames = [
    // 0-1: idle
    frame(4, [body(0), hand(5, -12), hurtbox], { loopPoint: true, label: 'idle' }),
    frame(4, [body(1), hand(5, -11), hurtbox]),
    // 2-5: walk
    frame(2, [body(2), hand(5, -12), hurtbox], { loopPoint: true, label: 'walk' }),
    frame(2, [body(3), hand(5, -11), hurtbox], { triggers: 'step' }),
    frame(2, [body(4), hand(5, -12), hurtbox]),
    frame(2, [body(5), hand(5, -11), hurtbox], { triggers: 'step' }),
    // 6-8: attack (Armed)
    frame(1, [sword(-5.5, -26, -60), body(6), hand(5, -15, -60), hurtbox], { label: 'wind-up' }),
    frame(
      2,
      [
        body(7),
        sword(3.5, -22, 80),
        hand(5, -10, 80),
        hurtbox,
        { type: 'circle', name: HIT, id: 1, x: 13, y: -12, radius: 6.5 },
        { type: 'rect', name: HIT, id: 2, x: 6, y: -16, width: 12, height: 5, rotation: 15.5 },
      ],
      { triggers: 'swing', label: 'swing' },
    ),
    frame(3, [body(8), sword(3.5, -20, 30), hand(5, -11, 30), hurtbox], { label: 'recover' }),
    // 9-10: idle while armed (overrides Root/idle inside Armed)
    frame(4, [sword(3.5, -22, 10), body(0), hand(5, -12, 10), hurtbox], { loopPoint: true, label: 'armed idle' }),
    frame(4, [sword(3.5, -21, 10), body(1), hand(5, -11, 10), hurtbox], { notes: 'the sword follows the hand' }),
  ];
  doc.tree = [
    { kind: 'sequence', name: 'idle', loopPoint: 0, followUp: '', frames: [0, 1] },
    { kind: 'sequence', name: 'walk', loopPoint: 0, followUp: '', frames: [2, 3, 4, 5] },
    {
      kind: 'group',
      name: 'Armed',
      children: [
        { kind: 'sequence', name: 'attack', loopPoint: null, followUp: 'idle', frames: [6, 7, 8] },
        { kind: 'sequence', name: 'idle', loopPoint: 0, followUp: '', frames: [9, 10] },
      ],
    },
  ];
  return doc;
}

export function makeIspriteSample(): { files: { name: string; bytes: Uint8Array }[] } {
  return {
    files: [
      { name: 'isprite/hero.isprite', bytes: writeIsprite(makeHeroDocument()) },
      { name: 'isprite/hero.png', bytes: encodePng(makeHeroSheet()) },
    ],
  };
}
