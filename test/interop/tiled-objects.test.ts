/**
 * Tiled's shape and point objects: sprat draws them as Debian's
 * `tmxrasterizer` (Tiled 1.8.2, Qt 5.15) does, pixel for pixel, on maps
 * written here: every shape kind, colours from the object layer (or Tiled's
 * gray), object types (tmxrasterizer reads no object types: the layer's
 * colour still applies), rotation, fractional places and sizes, hidden
 * objects and layers, top-down and index draw order, the layer's opacity,
 * tint (tiles only) and offset, templates, zero-sized rectangles and
 * ellipses, over tiles and over nothing; and on random maps (fast-check).
 * sprat's src/render/qtraster.ts ports what Qt's raster engine does for these
 * calls (its stroker, outline mapper, gray raster, rectangle rasterizer and
 * ARGB32 blending), so no tolerance is left. Text objects are drawn with
 * sprat's own 3 × 5 font, not Qt's: only where the text goes (box,
 * alignment) and its colour are checked.
 * Skipped where `tmxrasterizer` is missing, except in CI.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createImage, type RgbaImage } from '../../src/render/image.js';
import { decodePng, encodePng } from '../../src/render/png.js';
import { runCli } from '../helpers/cli.js';
import { machineReciprocals, qtUnpremultiplyTolerance } from '../helpers/qt-rcp.js';

const TMXRASTERIZER = '/usr/bin/tmxrasterizer';
const haveTiled = fs.existsSync(TMXRASTERIZER);
if (!haveTiled && process.env.CI) throw new Error("CI must have Debian's tiled (tmxrasterizer) for the Tiled object tests");
const ENV = { ...process.env, QT_QPA_PLATFORM: 'offscreen' };

function map(body: string, w = 16, h = 12): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" tiledversion="1.8.2" orientation="orthogonal" renderorder="right-down" width="${w}" height="${h}" tilewidth="8" tileheight="8" infinite="0" nextlayerid="20" nextobjectid="90">
 <tileset firstgid="1" name="t" tilewidth="8" tileheight="8" tilecount="4" columns="2">
  <image source="tiles.png" width="16" height="16"/>
 </tileset>
${body}
</map>
`;
}

/** A tile layer of tiles 1..4 over the map's left half (shapes are drawn over tiles and over nothing). */
const TILES = `<layer id="1" name="tiles" width="16" height="12"><data encoding="csv">\n${Array.from({ length: 16 * 12 }, (_, i) =>
  i % 16 < 8 ? (i % 4) + 1 : 0,
).join(',')}\n</data></layer>`;

const MAPS: Record<string, { text: string }> = {
  // Whole-pixel rectangles: the layer's colour, Tiled's gray, a colour with alpha, zero-sized ones.
  rects: {
    text: map(`${TILES}
 <objectgroup id="2" name="red" color="#ff0000">
  <object id="1" x="4" y="4" width="20" height="10"/>
  <object id="2" x="40" y="8" width="30" height="20" type="door"/>
  <object id="3" x="100" y="40"/>
 </objectgroup>
 <objectgroup id="3" name="gray">
  <object id="4" x="10" y="40" width="50" height="30"/>
  <object id="5" x="70" y="60" width="0" height="12"/>
 </objectgroup>
 <objectgroup id="4" name="alpha" color="#8000c0ff" offsetx="3" offsety="-2">
  <object id="6" x="20" y="70" width="40" height="16"/>
 </objectgroup>`),
  },
  rotated: {
    text: map(`${TILES}
 <objectgroup id="2" name="o" color="#20a040">
  <object id="1" x="40" y="6" width="30" height="16" rotation="30"/>
  <object id="2" x="20" y="50" width="24" height="12" rotation="-75"/>
  <object id="3" x="90" y="40" width="20" height="20" rotation="45"><ellipse/></object>
  <object id="4" x="70" y="70" rotation="120"><polygon points="0,0 20,5 10,20 -5,12"/></object>
  <object id="5" x="4.5" y="4.25" width="20" height="10.5"/>
 </objectgroup>`),
  },
  ellipses: {
    text: map(`${TILES}
 <objectgroup id="2" name="o" color="#ff8000">
  <object id="1" x="6" y="6" width="30" height="20"><ellipse/></object>
  <object id="2" x="50" y="10" width="12" height="40"><ellipse/></object>
  <object id="3" x="100" y="30"><ellipse/></object>
  <object id="4" x="70" y="60" width="24" height="0"><ellipse/></object>
  <object id="5" x="10.5" y="50.25" width="33" height="33"><ellipse/></object>
 </objectgroup>`),
  },
  lines: {
    text: map(`${TILES}
 <objectgroup id="2" name="o" color="#4060ff">
  <object id="1" x="50" y="40"><polygon points="0,0 20,5 10,20 -5,12"/></object>
  <object id="2" x="10" y="60"><polyline points="0,0 20,5 30,-10 45,10"/></object>
  <object id="3" x="8" y="8"><polygon points="0,0 40,0 0,30 40,30"/></object>
  <object id="4" x="80" y="10"><polyline points="0,0 30,0 30,20 0,20 0,4"/></object>
  <object id="5" x="100" y="70"><polyline points="0,0"/></object>
 </objectgroup>`),
  },
  points: {
    text: map(`${TILES}
 <objectgroup id="2" name="o" color="#c000c0">
  <object id="1" x="20" y="40"><point/></object>
  <object id="2" x="60" y="30"><point/></object>
  <object id="3" x="100" y="60" rotation="30"><point/></object>
 </objectgroup>`),
  },
  // Draw order (top-down by y; index as listed), hidden objects and layers, opacity, tint (tiles only), offsets, templates.
  layers: {
    text: map(`${TILES}
 <objectgroup id="2" name="topdown" color="#ff0000">
  <object id="1" x="10" y="30" width="30" height="20"/>
  <object id="2" x="20" y="20" width="30" height="20"><ellipse/></object>
  <object id="3" x="30" y="10" width="10" height="10" visible="0"/>
 </objectgroup>
 <objectgroup id="3" name="index" color="#0000ff" draworder="index" offsetx="60" offsety="4">
  <object id="4" x="10" y="30" width="30" height="20"/>
  <object id="5" x="20" y="20" width="30" height="20"><ellipse/></object>
 </objectgroup>
 <objectgroup id="4" name="hidden" visible="0"><object id="6" x="0" y="0" width="50" height="50"/></objectgroup>
 <group id="5" name="g" opacity="0.5" tintcolor="#00ff00">
  <objectgroup id="6" name="faded" color="#ffff00" opacity="0.8">
   <object id="7" x="10" y="60" width="40" height="20"/>
   <object id="8" x="60" y="60"><polygon points="0,0 20,5 10,20"/></object>
  </objectgroup>
 </group>`),
  },
};

/**
 * A shape template. tmxrasterizer 1.8.2 leaves shape templates out (an instance is drawn as a plain
 * rectangle of its own size, 20 × 20 without one); sprat draws the template's shape and size, as Tiled's
 * editor shows them: compared with the same objects written out in full.
 */
const TEMPLATE = `<?xml version="1.0" encoding="UTF-8"?>
<template>
 <object width="16" height="12"><ellipse/></object>
</template>
`;

function tilesImage(): RgbaImage {
  const img = createImage(16, 16);
  for (let i = 0; i < 256; i++) img.data.set([(i * 37) & 255, (i * 11) & 255, 200 - (i & 63), 255], i * 4);
  return img;
}

function tmxrasterize(file: string, out: string): RgbaImage {
  execFileSync(TMXRASTERIZER, ['--no-smoothing', file, out], { env: ENV, stdio: 'pipe' });
  return decodePng(fs.readFileSync(out));
}

async function spratRender(dir: string, file: string, out: string): Promise<RgbaImage> {
  const r = await runCli(['render', file, '-o', out], dir);
  expect(r.code, r.stderr).toBe(0);
  return decodePng(fs.readFileSync(path.join(dir, out)));
}

/**
 * The pixels that differ (transparent ones equal whatever their colour), and the first described.
 * Exact where this CPU's RCPSS is the one the Qt port measured; else a translucent pixel may differ
 * by one level in its colour (test/helpers/qt-rcp.ts says why).
 */
function compare(a: RgbaImage, b: RgbaImage): { off: number; first?: string } {
  expect([b.width, b.height]).toEqual([a.width, a.height]);
  const tol = qtUnpremultiplyTolerance();
  let off = 0;
  let first: string | undefined;
  for (let i = 0; i < a.data.length; i += 4) {
    if (a.data[i + 3] === 0 && b.data[i + 3] === 0) continue;
    if ([0, 1, 2, 3].every((c) => a.data[i + c] === b.data[i + c])) continue;
    if (
      tol &&
      a.data[i + 3] === b.data[i + 3] &&
      a.data[i + 3]! < 255 &&
      [0, 1, 2].every((c) => Math.abs(a.data[i + c]! - b.data[i + c]!) <= tol)
    )
      continue;
    off++;
    first ??= `(${(i / 4) % a.width}, ${Math.floor(i / 4 / a.width)}): tiled ${a.data.subarray(i, i + 4).join(',')}, sprat ${b.data.subarray(i, i + 4).join(',')}`;
  }
  return { off, first };
}

describe.skipIf(!haveTiled)('tiled: shape and point objects drawn as tmxrasterizer draws them', () => {
  if (haveTiled && !machineReciprocals().same)
    console.warn(`tiled-objects: one level allowed on translucent pixels: ${machineReciprocals().why}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-tiled-objects-'));
  fs.writeFileSync(path.join(dir, 'tiles.png'), encodePng(tilesImage()));
  fs.writeFileSync(path.join(dir, 'shape.tx'), TEMPLATE);
  for (const [name, m] of Object.entries(MAPS)) fs.writeFileSync(path.join(dir, `${name}.tmx`), m.text);

  for (const name of Object.keys(MAPS)) {
    it(`${name}: every pixel as tmxrasterizer draws it`, async () => {
      const tiled = tmxrasterize(path.join(dir, `${name}.tmx`), path.join(dir, `${name}-tiled.png`));
      const sprat = await spratRender(dir, `${name}.tmx`, `${name}-sprat.png`);
      expect(compare(tiled, sprat)).toEqual({ off: 0, first: undefined });
    });
  }

  it('template instances draw as their template (the same pixels as the objects written out)', async () => {
    const objects = (t: boolean) => `
 <objectgroup id="2" name="o" color="#ff00ff" opacity="0.7">
  ${t ? '<object id="1" x="20" y="30" template="shape.tx"/>' : '<object id="1" x="20" y="30" width="16" height="12"><ellipse/></object>'}
  ${t ? '<object id="2" x="60" y="30" template="shape.tx" width="30" height="10" rotation="20"/>' : '<object id="2" x="60" y="30" width="30" height="10" rotation="20"><ellipse/></object>'}
 </objectgroup>`;
    fs.writeFileSync(path.join(dir, 'tpl.tmx'), map(`${TILES}${objects(true)}`));
    fs.writeFileSync(path.join(dir, 'inline.tmx'), map(`${TILES}${objects(false)}`));
    const a = await spratRender(dir, 'tpl.tmx', 'tpl-sprat.png');
    const b = await spratRender(dir, 'inline.tmx', 'inline-sprat.png');
    expect(compare(a, b).off).toBe(0);
    const tiled = tmxrasterize(path.join(dir, 'inline.tmx'), path.join(dir, 'inline-tiled.png'));
    expect(compare(tiled, b)).toEqual({ off: 0, first: undefined });
  });

  it('random maps: every pixel as tmxrasterizer draws it (fast-check)', async () => {
    /** A coordinate: whole, or in halves, quarters, eighths or hundredths. */
    const coord = (lo: number, hi: number) =>
      fc
        .tuple(fc.integer({ min: lo * 100, max: hi * 100 }), fc.constantFrom(100, 50, 25, 12.5, 1))
        .map(([v, step]) => (Math.round(v / step) * step) / 100);
    const shape = fc.oneof(
      fc.record({ kind: fc.constantFrom('rect', 'ellipse'), w: coord(0, 50), h: coord(0, 40) }),
      fc.record({
        kind: fc.constantFrom('polygon', 'polyline'),
        pts: fc.array(fc.tuple(coord(-30, 30), coord(-30, 30)), { minLength: 1, maxLength: 6 }),
      }),
      fc.record({ kind: fc.constant('point') }),
    );
    const object = fc.record({
      x: coord(-10, 130),
      y: coord(-10, 100),
      rotation: fc.constantFrom(0, 0, 0, 30, 45, 90, -75, 120, 180, 12.5),
      shape,
    });
    const layer = fc.record({
      colour: fc.constantFrom('', ' color="#ff0000"', ' color="#20a040"', ' color="#8000c0ff"', ' color="#c000c0"'),
      opacity: fc.constantFrom('', ' opacity="0.5"', ' opacity="0.8"', ' opacity="0.35"'),
      offset: fc.constantFrom('', ' offsetx="3" offsety="-2"', ' offsetx="0.5" offsety="1.25"'),
      objects: fc.array(object, { minLength: 1, maxLength: 4 }),
    });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(layer, { minLength: 1, maxLength: 3 }), fc.boolean(), async (layers, tiles) => {
        let id = 1;
        const body = layers
          .map((l, i) => {
            const objects = l.objects.map((o) => {
              const at = `id="${id++}" x="${o.x}" y="${o.y}"${o.rotation ? ` rotation="${o.rotation}"` : ''}`;
              const sh = o.shape;
              if (sh.kind === 'rect' || sh.kind === 'ellipse')
                return `<object ${at} width="${sh.w}" height="${sh.h}">${sh.kind === 'ellipse' ? '<ellipse/>' : ''}</object>`;
              if (!('pts' in sh)) return `<object ${at}><point/></object>`;
              return `<object ${at}><${sh.kind} points="${sh.pts.map(([a, b]) => `${a},${b}`).join(' ')}"/></object>`;
            });
            return ` <objectgroup id="${i + 2}" name="l${i}"${l.colour}${l.opacity}${l.offset}>\n  ${objects.join('\n  ')}\n </objectgroup>`;
          })
          .join('\n');
        const name = `random-${run++}`;
        fs.writeFileSync(path.join(dir, `${name}.tmx`), map(`${tiles ? TILES : ''}\n${body}`));
        const tiled = tmxrasterize(path.join(dir, `${name}.tmx`), path.join(dir, `${name}-tiled.png`));
        const sprat = await spratRender(dir, `${name}.tmx`, `${name}-sprat.png`);
        const d = compare(tiled, sprat);
        if (d.off) throw new Error(`${d.off} pixels differ, first ${d.first}, in\n${body}`);
      }),
      { numRuns: 24 },
    );
  }, 120_000);

  it('text objects: drawn in their box, aligned and coloured as Tiled places them (in sprat’s own font)', async () => {
    const text = map(`
 <objectgroup id="2" name="o" color="#ff0000">
  <object id="1" x="10" y="10" width="60" height="30"><text wrap="1" color="#0000ff">Hello world, this is text</text></object>
  <object id="2" x="10" y="50" width="60" height="30"><text halign="right" valign="bottom">Right</text></object>
  <object id="3" x="80" y="10" width="40" height="40"><text halign="center" valign="center" color="#00a000">Mid</text></object>
 </objectgroup>`);
    fs.writeFileSync(path.join(dir, 'text.tmx'), text);
    const tiled = tmxrasterize(path.join(dir, 'text.tmx'), path.join(dir, 'text-tiled.png'));
    // render says so, in one note line.
    const r = await runCli(['render', 'text.tmx', '-o', 'text-sprat.png'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(
      "text.tmx: note: 3 text object(s) drawn in sprat's own 3x5 font (in their boxes, colours and alignment), not in Tiled's fonts: their pixels differ from Tiled's\n",
    );
    const sprat = decodePng(fs.readFileSync(path.join(dir, 'text-sprat.png')));
    /** The box of the pixels of colour near `rgb` inside (x0, y0, x1, y1), and whether any pixel lies outside the box. */
    const inked = (img: RgbaImage, x0: number, y0: number, x1: number, y1: number) => {
      let b = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
      const colours = new Set<string>();
      for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) {
          const o = (y * img.width + x) * 4;
          if (img.data[o + 3]! < 128) continue;
          colours.add([...img.data.subarray(o, o + 3)].join());
          b = { x0: Math.min(b.x0, x), y0: Math.min(b.y0, y), x1: Math.max(b.x1, x + 1), y1: Math.max(b.y1, y + 1) };
        }
      }
      return { ...b, colours };
    };
    // Nothing outside the three boxes (the text stays in its box; no shadow, no outline).
    const outside = (img: RgbaImage) => {
      let n = 0;
      for (let y = 0; y < img.height; y++) {
        for (let x = 0; x < img.width; x++) {
          const inBox =
            (x >= 10 && x < 70 && y >= 10 && y < 40) ||
            (x >= 10 && x < 70 && y >= 50 && y < 80) ||
            (x >= 80 && x < 120 && y >= 10 && y < 50);
          if (!inBox && img.data[(y * img.width + x) * 4 + 3]) n++;
        }
      }
      return n;
    };
    expect(outside(sprat)).toBe(0);
    const boxes = [
      [10, 10, 70, 40],
      [10, 50, 70, 80],
      [80, 10, 120, 50],
    ] as const;
    const [s1, s2, s3] = boxes.map(([a, b, c, d]) => inked(sprat, a, b, c, d));
    const [t1, t2, t3] = boxes.map(([a, b, c, d]) => inked(tiled, a, b, c, d));
    // Colours: the text's own (default black); Tiled's antialiased glyphs hold the same colour at full coverage.
    expect([...s1!.colours]).toEqual(['0,0,255']);
    expect([...s2!.colours]).toEqual(['0,0,0']);
    expect([...s3!.colours]).toEqual(['0,160,0']);
    expect(t1!.colours.has('0,0,255') && t2!.colours.has('0,0,0') && t3!.colours.has('0,160,0')).toBe(true);
    // Where the text goes: top-left text starts at the box's left edge and top, as Tiled's (within Qt's bearing and ascent),
    // right/bottom text ends at the box's right and bottom, centred text is centred.
    expect(s1!.x0).toBe(10);
    expect(s1!.y0).toBe(10);
    expect(Math.abs(t1!.x0 - s1!.x0)).toBeLessThanOrEqual(3);
    expect(s2!.x1).toBe(70);
    expect(s2!.y1).toBe(80);
    expect(Math.abs(t2!.x1 - s2!.x1)).toBeLessThanOrEqual(3);
    expect(Math.abs((s3!.x0 + s3!.x1) / 2 - 100)).toBeLessThanOrEqual(1);
    expect(Math.abs((s3!.y0 + s3!.y1) / 2 - 30)).toBeLessThanOrEqual(1);
    expect(Math.abs((t3!.x0 + t3!.x1) / 2 - 100)).toBeLessThanOrEqual(3);
    expect(Math.abs((t3!.y0 + t3!.y1) / 2 - 30)).toBeLessThanOrEqual(4);
    // The wrapped text takes two lines in sprat's font.
    expect(s1!.y1 - s1!.y0).toBe(11);
  });
});

describe('tiled: hostile shape objects', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-tiled-hostile-'));
  fs.writeFileSync(path.join(dir, 'tiles.png'), encodePng(tilesImage()));

  it('huge, negative, non-numeric and degenerate shapes draw (clipped to the map) without a crash', async () => {
    fs.writeFileSync(
      path.join(dir, 'odd.tmx'),
      map(`
 <objectgroup id="2" name="o">
  <object id="1" x="10" y="10" width="1e12" height="1e12"><ellipse/></object>
  <object id="2" x="60" y="40" width="-20" height="-10"/>
  <object id="3" x="1e300" y="5" width="10" height="10"/>
  <object id="4" x="20" y="60"><polygon points="0,0 nan,5 1e300,-1e300 10,10"/></object>
  <object id="5" x="30" y="30"><polyline points=""/></object>
  <object id="6" x="40" y="40" rotation="1e308"><point/></object>
  <object id="7" x="50" y="50" width="10" height="10"><text/></object>
 </objectgroup>`),
    );
    const r = await runCli(['render', 'odd.tmx', '-o', 'odd.png'], dir);
    expect(r.code, r.stderr).toBe(0);
    const img = decodePng(fs.readFileSync(path.join(dir, 'odd.png')));
    expect([img.width, img.height]).toEqual([128, 96]);
  });

  it('a shape whose filling and stroking would cost too much stops at --max-work before it is painted, in one line', async () => {
    const pts = Array.from({ length: 20_000 }, (_, i) => `${(i * 7) % 128},${i % 2 ? 0 : 95}`).join(' ');
    fs.writeFileSync(
      path.join(dir, 'zigzag.tmx'),
      map(`<objectgroup id="2" name="o"><object id="1" x="0" y="0"><polygon points="${pts}"/></object></objectgroup>`),
    );
    const r = await runCli(['render', 'zigzag.tmx', '-o', 'zigzag.png', '--max-work', '100000000'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/drawing the map would need \d+ steps, more than the limit of 100000000 \(raise it with --max-work\)/);
    expect(fs.existsSync(path.join(dir, 'zigzag.png'))).toBe(false);
  });
});
