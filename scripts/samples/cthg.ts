/**
 * The bundled CTHG sample: a desk fan drawn in code. Four views of four
 * frames each (the blades turn 22.5° per tick), recoloured blades (layer 1:
 * the grey ramp by default, try `--recolour 1=fan_palette.png`), a shadow
 * with partial alpha, the back view's blades at 50 % (flag 0x4), a breeze at
 * 25 % (flag 0x8), the west view made from the east sprites flipped (flag
 * 0x2), a sound on the south view's first frame, and a sticker on layer
 * class 1 (`--layers 1=1` red, `--layers 1=2` blue).
 *
 * The parts are drawn into one sheet (fan_sheet.png) with a recolour map
 * (fan_recolour.png, red channel = layer), and fan.dat is built from the
 * JSON description fan.json with buildCthg, as a user would.
 */
import {
  buildCthgFromImages,
  type CthgDescription,
  type CthgElementDescription,
  type CthgFrameDescription,
} from '../../src/formats/cthg/build.js';
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

/** Packs canvases left to right into one sheet (and a recolour map image: red channel = layer). */
class Sheet {
  parts: { c: Canvas; left: number }[] = [];
  width = 0;
  height = 0;
  add(c: Canvas): { left: number; top: number; width: number; height: number } {
    const left = this.width;
    this.parts.push({ c, left });
    this.width += c.w + 1;
    this.height = Math.max(this.height, c.h);
    return { left, top: 0, width: c.w, height: c.h };
  }
  images(): { sheet: RgbaImage; map: RgbaImage } {
    const sheet = createImage(this.width, this.height);
    const map = createImage(this.width, this.height);
    for (const { c, left } of this.parts) {
      for (let y = 0; y < c.h; y++) {
        for (let x = 0; x < c.w; x++) {
          const i = y * c.w + x;
          const o = (y * this.width + left + x) * 4;
          sheet.data.set(c.img.data.subarray(i * 4, i * 4 + 4), o);
          map.data.set([c.map[i]!, 0, 0, 255], o);
        }
      }
    }
    return { sheet, map };
  }
}

/** The sample's JSON description and its images (before encoding). */
export function fanDescription(): { description: CthgDescription; images: Map<string, RgbaImage> } {
  const sheet = new Sheet();
  const shadow = new Canvas(22, 6);
  for (let y = 0; y < 6; y++)
    for (let x = 0; x < 22; x++) if (((x - 10.5) / 11) ** 2 + ((y - 2.5) / 3) ** 2 <= 1) shadow.set(x, y, [0, 0, 0, 96]);
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

  const IMG = 'fan_sheet.png';
  const MAP = 'fan_recolour.png';
  const rShadow = sheet.add(shadow);
  const rBase = sheet.add(base);
  const rPole = sheet.add(pole);
  const rRed = sheet.add(sticker([220, 40, 40]));
  const rBlue = sheet.add(sticker([40, 80, 220]));
  const rBack = sheet.add(back());
  const rBreeze = sheet.add(breeze);
  const rFronts = [0, 22.5, 45, 67.5].map((a) => sheet.add(front(a)));
  const rSides = [0, 22.5, 45, 67.5].map((a) => sheet.add(side(a)));

  type Region = { left: number; top: number; width: number; height: number };
  const el = (r: Region, x: number, y: number, more: Partial<CthgElementDescription> = {}): CthgElementDescription => ({
    image: IMG,
    ...r,
    x,
    y,
    ...more,
  });
  const stand = (): CthgElementDescription[] => [
    el(rShadow, -11, -3),
    el(rBase, -8, -6),
    el(rRed, -2, -4, { layerClass: 1, layerId: 1 }),
    el(rBlue, -2, -4, { layerClass: 1, layerId: 2 }),
    el(rPole, -1, -17),
  ];
  const blades = { recolour: MAP };
  const frames = (f: (k: number) => CthgFrameDescription) => [0, 1, 2, 3].map(f);
  const description: CthgDescription = {
    animations: [
      {
        name: 'desk_fan',
        tileSize: 64,
        views: {
          north: frames((k) => ({
            elements: [...stand(), el(rBack, -10, -37), el(rFronts[(4 - k) % 4]!, -10, -37, { flags: 0x4, ...blades })],
          })),
          east: frames((k) => ({ elements: [...stand(), el(rSides[k]!, -3, -37, blades)] })),
          south: frames((k) => ({
            sound: k === 0 ? 7 : 0,
            elements: [...stand(), el(rFronts[k]!, -10, -37, blades), ...(k % 2 ? [el(rBreeze, -4, -30, { flags: 0x8 })] : [])],
          })),
          west: frames((k) => ({ elements: [...stand(), el(rSides[k]!, -4, -37, { flags: 0x2, ...blades })] })),
        },
      },
    ],
  };
  const { sheet: sheetImg, map } = sheet.images();
  return {
    description,
    images: new Map([
      [IMG, sheetImg],
      [MAP, map],
    ]),
  };
}

/** JSON with two-space indents, and objects that hold no objects or arrays on one line. */
function formatJson(v: unknown): string {
  return (
    JSON.stringify(v, null, 2).replace(/\{[^{}[\]]*\}/g, (m) =>
      m
        .replace(/\s*\n\s*/g, ' ')
        .replace('{ ', '{')
        .replace(' }', '}'),
    ) + '\n'
  );
}

export function makeCthgSample(): { files: { name: string; bytes: Uint8Array }[] } {
  const { description, images } = fanDescription();
  const doc = buildCthgFromImages(description, images);

  // A 256-entry palette for recolour layer 1: a blue-to-cyan ramp.
  const pal = createImage(256, 1);
  for (let i = 0; i < 256; i++) pal.data.set([Math.round(i * 0.3), Math.round(60 + i * 0.75), Math.min(255, 90 + i), 255], i * 4);

  return {
    files: [
      { name: 'fan.dat', bytes: writeCthg(doc) },
      { name: 'fan_palette.png', bytes: encodePng(pal) },
      { name: 'fan.json', bytes: new TextEncoder().encode(formatJson(description)) },
      { name: 'fan_sheet.png', bytes: encodePng(images.get('fan_sheet.png')!) },
      { name: 'fan_recolour.png', bytes: encodePng(images.get('fan_recolour.png')!) },
    ],
  };
}

/** The folder under samples/ that this generator's file names are relative to. */
export const SAMPLE_DIR = 'cthg';
