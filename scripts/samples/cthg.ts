/**
 * The bundled CTHG sample: a desk fan drawn in code. Four views of four
 * frames each (the blades turn 22.5° per tick), recoloured blades (layer 1:
 * the grey ramp by default, try `--recolour 1=fan_palette.png`), a shadow
 * with partial alpha, the back view's blades at 50 % (flag 0x4), a breeze at
 * 25 % (flag 0x8), the west view made from the east sprites flipped (flag
 * 0x2), a sound on the south view's first frame, and a sticker on layer
 * class 1 (`--layers 1=1` red, `--layers 1=2` blue).
 */
import { createCthg, type CthgDocument, type CthgElement, type CthgViewName } from '../../src/formats/cthg/model.js';
import { spriteFromImage } from '../../src/formats/cthg/rle.js';
import { writeCthg } from '../../src/formats/cthg/write.js';
import { createImage, type RgbaImage } from '../../src/render/image.js';
import { encodePng } from '../../src/render/png.js';

type Rgba = [number, number, number, number];

class Canvas {
  img: RgbaImage;
  map: Uint8Array;
  constructor(
    readonly w: number,
    readonly h: number,
  ) {
    this.img = createImage(w, h);
    this.map = new Uint8Array(w * h);
  }
  set(x: number, y: number, c: Rgba, layer = 0): void {
    if (x < 0 || y < 0 || x >= this.w || y >= this.h) return;
    this.img.data.set(c, (y * this.w + x) * 4);
    this.map[y * this.w + x] = layer;
  }
  rect(x: number, y: number, w: number, h: number, c: Rgba, layer = 0): void {
    for (let j = y; j < y + h; j++) for (let i = x; i < x + w; i++) this.set(i, j, c, layer);
  }
  sprite(recolour = false) {
    return spriteFromImage(this.img, { recolour: recolour ? this.map : null });
  }
}

const grey = (v: number, a = 255): Rgba => [v, v, v, a];

/** The fan head seen from the front, blades at `angle` degrees; blades are recolour layer 1. */
function front(angle: number): Canvas {
  const c = new Canvas(21, 21);
  for (let y = 0; y < 21; y++) {
    for (let x = 0; x < 21; x++) {
      const dx = x - 10;
      const dy = y - 10;
      const r = Math.hypot(dx, dy);
      const phi = ((Math.atan2(dy, dx) * 180) / Math.PI + 360 - angle) % 90;
      if (r > 10.5) continue;
      if (r > 9.3) c.set(x, y, grey(90));
      else if (r < 2.3) c.set(x, y, grey(40));
      else if (phi < 28) {
        const shade = Math.round(140 + 100 * (1 - phi / 28) - r * 4);
        c.set(x, y, [shade, shade, shade, 255], 1);
      } else if ((x + y) % 4 === 0) c.set(x, y, grey(120, 200));
    }
  }
  return c;
}

/** The back cover: a grey disc with a darker rim and a motor bump. */
function back(): Canvas {
  const c = new Canvas(21, 21);
  for (let y = 0; y < 21; y++) {
    for (let x = 0; x < 21; x++) {
      const r = Math.hypot(x - 10, y - 10);
      if (r <= 10.5) c.set(x, y, r > 9.3 ? grey(80) : r < 4 ? grey(70) : grey(150));
    }
  }
  return c;
}

/** The head from the side: a thin cage with the blade tips at `angle`. */
function side(angle: number): Canvas {
  const c = new Canvas(7, 21);
  c.rect(3, 0, 1, 21, grey(90));
  c.rect(0, 9, 3, 3, grey(60)); // motor
  for (let k = 0; k < 4; k++) {
    const y = Math.round(10 + 8.5 * Math.cos(((angle + 90 * k) * Math.PI) / 180));
    c.set(4, y, grey(220), 1);
    c.set(5, y, grey(180), 1);
  }
  return c;
}

export function makeCthgSample(): { files: { name: string; bytes: Uint8Array }[] } {
  const doc: CthgDocument = createCthg();
  const add = (c: Canvas, recolour = false) => {
    doc.sprites.push(c.sprite(recolour));
    return doc.sprites.length - 1;
  };
  const el = (sprite: number, x: number, y: number, flags = 0, layerClass = 0, layerId = 0): CthgElement => ({ sprite, x, y, layerClass, layerId, flags });

  // Shared parts.
  const shadow = new Canvas(22, 6);
  for (let y = 0; y < 6; y++) for (let x = 0; x < 22; x++) if (((x - 10.5) / 11) ** 2 + ((y - 2.5) / 3) ** 2 <= 1) shadow.set(x, y, [0, 0, 0, 96]);
  const base = new Canvas(16, 6);
  base.rect(1, 0, 14, 6, grey(70));
  base.rect(0, 1, 16, 4, grey(90));
  base.rect(2, 2, 12, 1, grey(200)); // a highlight
  const pole = new Canvas(2, 12);
  pole.rect(0, 0, 1, 12, grey(170));
  pole.rect(1, 0, 1, 12, grey(110));
  const sticker = (rgb: [number, number, number]) => {
    const s = new Canvas(4, 2);
    s.rect(0, 0, 4, 2, [...rgb, 255]);
    return s;
  };
  const breeze = new Canvas(9, 7);
  for (const y of [0, 3, 6]) breeze.rect(y === 3 ? 0 : 2, y, 7, 1, grey(255));

  const sShadow = add(shadow);
  const sBase = add(base);
  const sPole = add(pole);
  const sRed = add(sticker([220, 40, 40]));
  const sBlue = add(sticker([40, 80, 220]));
  const sBack = add(back());
  const sBreeze = add(breeze);
  const fronts = [0, 22.5, 45, 67.5].map((a) => add(front(a), true));
  const sides = [0, 22.5, 45, 67.5].map((a) => add(side(a), true));

  const stand = (): CthgElement[] => [
    el(sShadow, -11, -3),
    el(sBase, -8, -6),
    el(sRed, -2, -4, 0, 1, 1),
    el(sBlue, -2, -4, 0, 1, 2),
    el(sPole, -1, -17),
  ];
  const views: Record<CthgViewName, (k: number) => { sound: number; elements: CthgElement[] }> = {
    north: (k) => ({ sound: 0, elements: [...stand(), el(sBack, -10, -37), el(fronts[(4 - k) % 4]!, -10, -37, 0x4)] }),
    east: (k) => ({ sound: 0, elements: [...stand(), el(sides[k]!, -3, -37)] }),
    south: (k) => ({
      sound: k === 0 ? 7 : 0,
      elements: [...stand(), el(fronts[k]!, -10, -37), ...(k % 2 ? [el(sBreeze, -4, -30, 0x8)] : [])],
    }),
    west: (k) => ({ sound: 0, elements: [...stand(), el(sides[k]!, -4, -37, 0x2)] }),
  };
  const first = {} as Record<CthgViewName, number | null>;
  for (const v of ['north', 'east', 'south', 'west'] as const) {
    first[v] = doc.frames.length;
    for (let k = 0; k < 4; k++) doc.frames.push(views[v](k));
  }
  doc.animations.push({ name: 'desk_fan', tileSize: 64, frameCount: 4, views: first });

  // A 256-entry palette for recolour layer 1: a blue-to-cyan ramp.
  const pal = createImage(256, 1);
  for (let i = 0; i < 256; i++) pal.data.set([Math.round(i * 0.3), Math.round(60 + i * 0.75), Math.min(255, 90 + i), 255], i * 4);

  return {
    files: [
      { name: 'fan.dat', bytes: writeCthg(doc) },
      { name: 'fan_palette.png', bytes: encodePng(pal) },
    ],
  };
}
