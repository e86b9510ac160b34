/**
 * Issue 10: render has a budget across frames and elements. Small hostile
 * files that would make gigabytes of canvas or billions of composited
 * pixels stop at once with a one-line LimitError (exit 1) naming the option
 * that raises it; raising the option makes a (modest) file work.
 */
import { afterAll, describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createIsprite, writeIsprite, type IspriteDocument } from '../../src/formats/isprite/index.js';
import { encodePixels } from '../../src/formats/cthg/index.js';
import { createImage } from '../../src/render/image.js';
import { encodePng } from '../../src/render/png.js';
import { runCli } from '../helpers/cli.js';
import { rawFile, type RawBlock } from '../cthg/helpers.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-hostile-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const texture = createImage(1, 1);
texture.data.set([200, 10, 10, 255]);
fs.writeFileSync(path.join(dir, 'tex.png'), encodePng(texture));

/** An ISPRITE of one 1x1 slice: `frames` frames (one sequence) of `elements` graphics each, scaled `scale` times. */
function isprite(name: string, frames: number, elements: number, scale: number): string {
  const doc: IspriteDocument = createIsprite(10);
  doc.textures.push({ path: 'tex', nearest: true });
  doc.slices.push({ texture: 0, rotated: false, x: 0, y: 0, width: 1, height: 1 });
  doc.frames.push({
    holdTime: 1,
    loopPoint: false,
    label: '',
    triggers: '',
    notes: '',
    elements: Array.from({ length: elements }, () => ({
      type: 'graphic' as const,
      expanded: true,
      name: null,
      slice: 0,
      x: 0,
      y: 0,
      flipX: false,
      flipY: false,
      originX: 0,
      originY: 0,
      rotation: 0,
      scaleX: scale,
      scaleY: scale,
      opacity: 65535,
    })),
  });
  doc.tree.push({ kind: 'sequence', name: 'boom', loopPoint: 0, followUp: '', frames: Array.from({ length: frames }, () => 0) });
  const file = path.join(dir, name);
  fs.writeFileSync(file, writeIsprite(doc));
  return file;
}

/** A CTHG file: one transparent size × size sprite drawn `elements` times in one frame of one animation. */
function cthg(name: string, size: number, elements: number): string {
  const sprite: RawBlock = { t: 'SP', width: size, height: size, data: encodePixels(createImage(size, size)) };
  const bytes = rawFile([
    sprite,
    { t: 'FR', elements: Array.from({ length: elements }, () => ({ sprite: 0 })) },
    { t: 'CA', name: 'boom', frameCount: 1, views: [0, 0xffffffff, 0xffffffff, 0xffffffff] },
  ]);
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}

async function render(file: string, out: string, ...extra: string[]) {
  const t = Date.now();
  const r = await runCli(['render', file, '-o', out, ...extra], dir);
  return { ...r, ms: Date.now() - t };
}

describe('render budgets', () => {
  it('a tiny ISPRITE whose frames would need GiBs of canvas fails at once with --max-pixels', async () => {
    const file = isprite('canvas.isprite', 5, 1, 30000);
    expect(fs.statSync(file).size).toBeLessThan(300);
    const r = await render(file, 'canvas.apng');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^sprat: error: [^\n]*canvas\.isprite: the ISPRITE frames \(5 frames of 30000x30000\) would need 4500000000 pixels, more than the limit of 67108864 \(raise it with --max-pixels\)\n$/,
    );
    expect(r.ms).toBeLessThan(3000);
    expect(fs.existsSync(path.join(dir, 'canvas.apng'))).toBe(false);
  });

  it('raising --max-pixels a little makes a file just over it work', async () => {
    const file = isprite('canvas-small.isprite', 5, 1, 100);
    const low = await render(file, 'small.apng', '--max-pixels', '49999');
    expect(low.code).toBe(1);
    expect(low.stderr).toMatch(
      /5 frames of 100x100\) would need 50000 pixels, more than the limit of 49999 \(raise it with --max-pixels\)/,
    );
    const ok = await render(file, 'small.apng', '--max-pixels', '50000');
    expect([ok.code, ok.stderr]).toEqual([0, '']);
  });

  it('an ISPRITE with many large elements stops at --max-draw-pixels before drawing', async () => {
    const file = isprite('elements.isprite', 1, 2000, 1000);
    const r = await render(file, 'elements.png');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^sprat: error: [^\n]*elements\.isprite: drawing the ISPRITE frames \(1000x1000\) would need 2000000000 pixels, more than the limit of 1073741824 \(raise it with --max-draw-pixels\)\n$/,
    );
    expect(r.ms).toBeLessThan(3000);
    const few = isprite('elements-few.isprite', 1, 10, 100);
    expect((await render(few, 'few.png', '--max-draw-pixels', '99999')).stderr).toMatch(/would need 100000 pixels.*--max-draw-pixels/);
    expect((await render(few, 'few.png', '--max-draw-pixels', '100000')).code).toBe(0);
  });

  it('a CTHG frame with many large elements stops at --max-draw-pixels before drawing', async () => {
    const file = cthg('elements.dat', 600, 4000);
    expect(fs.statSync(file).size).toBeLessThan(100_000);
    const r = await render(file, 'elements.png');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^sprat: error: [^\n]*elements\.dat: drawing the north view of "boom" \(600x600\) would need 1440000000 pixels, more than the limit of 1073741824 \(raise it with --max-draw-pixels\)\n$/,
    );
    expect(r.ms).toBeLessThan(3000);
    const few = cthg('few.dat', 100, 10);
    expect((await render(few, 'few.png', '--max-draw-pixels', '99999')).stderr).toMatch(/would need 100000 pixels.*--max-draw-pixels/);
    expect((await render(few, 'few.png', '--max-draw-pixels', '100000')).code).toBe(0);
  });

  it('a Tiled tileset with margin, spacing and a huge tilecount renders at once (only the tiles inside its image are cut)', async () => {
    const map = {
      type: 'map',
      version: '1.10',
      orientation: 'orthogonal',
      renderorder: 'right-down',
      infinite: false,
      width: 1,
      height: 1,
      tilewidth: 4,
      tileheight: 4,
      nextlayerid: 2,
      nextobjectid: 1,
      layers: [{ type: 'tilelayer', id: 1, name: 'g', x: 0, y: 0, width: 1, height: 1, opacity: 1, visible: true, data: [1] }],
      tilesets: [
        {
          firstgid: 1,
          name: 'big',
          image: 'tex.png',
          imagewidth: 1,
          imageheight: 1,
          tilewidth: 4,
          tileheight: 4,
          margin: 1,
          spacing: 1,
          columns: 1,
          tilecount: 2 ** 28 - 1,
        },
      ],
    };
    const file = path.join(dir, 'big.tmj');
    fs.writeFileSync(file, JSON.stringify(map));
    const r = await render(file, 'big.png');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.ms).toBeLessThan(3000);
  });
});
