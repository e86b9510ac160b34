import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/binary/errors.js';
import { render } from '../../src/api.js';
import { solarusHandler, solarusLuaHandler, type SolarusSheet } from '../../src/formats/solarus/index.js';
import type { ResourceLoader } from '../../src/formats/types.js';
import { renderModelAnimation } from '../../src/model/bake.js';
import type { SpriteModel } from '../../src/model/types.js';
import { createImage } from '../../src/render/image.js';
import { runCli } from '../helpers/cli.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { SAMPLES } from '../helpers/paths.js';

function memoryLoader(files: Record<string, Uint8Array>): ResourceLoader {
  return {
    load: async (p) => {
      const b = files[p];
      if (!b) throw new Error(`no ${p}`);
      return b;
    },
    exists: async (p) => p in files,
  };
}

/** A 4 × 2 sheet of distinct colours. */
function sheetImage() {
  const img = createImage(4, 2);
  for (let i = 0; i < 8; i++) img.data.set([i * 30, 255 - i * 30, i * 10, 255], i * 4);
  return img;
}

const model: SpriteModel = {
  kind: 'sprite',
  name: 'm',
  sheets: [{ path: 'm.png', image: sheetImage() }],
  animations: [
    {
      name: 'spin',
      direction: '0',
      loopTo: 0,
      frames: [
        {
          durationMs: 80,
          parts: [
            { sheet: 0, sx: 0, sy: 0, sw: 2, sh: 2, x: -1, y: -2 },
            { sheet: 0, sx: 2, sy: 0, sw: 1, sh: 1, x: 1, y: 0 },
          ],
        },
        { durationMs: 80, parts: [{ sheet: 0, sx: 0, sy: 0, sw: 2, sh: 2, x: -1, y: -2, flipX: true }] },
      ],
    },
    {
      name: 'spin',
      direction: '1',
      loopTo: 0,
      frames: [{ durationMs: 80, parts: [{ sheet: 0, sx: 1, sy: 1, sw: 3, sh: 1, x: 0, y: 0, rotation: 90 }] }],
    },
  ],
};

describe('Solarus from models that are not a grid: the frames are redrawn into a new sheet', () => {
  it('draws the same frames as the model, origin included', async () => {
    for (const h of [solarusHandler, solarusLuaHandler]) {
      const doc = (await h.fromModel!(model)) as SolarusSheet;
      expect(doc.bakedImage).toBeDefined();
      const files = await h.writeFiles!(doc, 'spin.dat');
      expect(files.map((f) => f.name)).toEqual(['spin.dat', 'spin.png']);
      const back = h.read(files[0]!.bytes) as SolarusSheet;
      expect(back.animations.map((a) => [a.name, a.image, a.frameDelay, a.loopOnFrame, a.directions.length])).toEqual([
        ['spin', 'spin.png', 80, 0, 2],
      ]);
      const loader = memoryLoader({ 'spin.png': files[1]!.bytes });
      for (const k of [0, 1]) {
        const expected = renderModelAnimation(model, k);
        const d = back.animations[0]!.directions[k]!;
        expect([d.originX, d.originY]).toEqual([expected.originX, expected.originY]);
        const got = await render({ handler: h, doc: back, warnings: [] }, { animation: 'spin', direction: String(k) }, loader);
        expect(got.frames).toEqual(expected.frames);
      }
    }
  });

  it('refuses when the sheets have no pixels to redraw from', () => {
    const blind: SpriteModel = { ...model, sheets: [{ path: 'm.png' }] };
    expect(() => solarusHandler.fromModel!(blind)).toThrow(FormatError);
    expect(() => solarusHandler.fromModel!(blind)).toThrow(/pixels are not available/);
  });

  it('sprat convert from CTHG writes the sprite and its new sheet, which render', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sprat-solarus-bake-'));
    try {
      const out = path.join(dir, 'fan.dat');
      const r = await runCli(['convert', path.join(SAMPLES, 'cthg', 'fan.dat'), out, '--to', 'solarus-lua']);
      expect(r.code, r.stderr).toBe(0);
      expect(readFileSync(out, 'utf8')).toMatch(/^animation\{\n {2}name = "desk_fan",\n {2}src_image = "fan.png",/);
      const v = await runCli(['validate', out]);
      expect(v.stdout).toBe(`${out}: ok\n`);
      const png = path.join(dir, 'sheet.png');
      expect((await runCli(['render', out, '--sheet', '-o', png])).code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
