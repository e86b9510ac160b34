import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { readCthg, renderCthg, validateCthg } from '../../src/formats/cthg/index.js';
import { fsResourceLoader } from '../../src/node/fs.js';
import { SAMPLES } from '../helpers/paths.js';
import { rawFile, TINY_SPRITE, NONE } from './helpers.js';

const dir = path.join(SAMPLES, 'cthg');
const fan = readCthg(new Uint8Array(readFileSync(path.join(dir, 'fan.dat'))));

describe('CTHG render', () => {
  it('without --frame: every frame of the view, same size, 90 ms each, looping', async () => {
    const r = await renderCthg(fan, { animation: 'desk_fan', view: 'south' }, fsResourceLoader(dir));
    expect(r.frames).toHaveLength(4);
    expect(r.delaysMs).toEqual([90, 90, 90, 90]);
    expect(r.loops).toBe(0);
    expect(new Set(r.frames.map((f) => `${f.width}x${f.height}`)).size).toBe(1);
    // The blades turn: frames differ.
    expect(r.frames[0]!.data).not.toEqual(r.frames[1]!.data);
  });

  it('--frame K gives that frame alone, equal to the same frame of the whole view', async () => {
    const all = await renderCthg(fan, { view: 'east' }, fsResourceLoader(dir));
    const one = await renderCthg(fan, { view: 'east', frame: '2' }, fsResourceLoader(dir));
    expect(one.frames).toHaveLength(1);
    expect(one.delaysMs).toBeUndefined();
    expect(one.frames[0]).toEqual(all.frames[2]);
    await expect(renderCthg(fan, { view: 'east', frame: '4' }, fsResourceLoader(dir))).rejects.toThrow(
      /option --frame 4 is past the last frame/,
    );
  });

  it('--recolour changes only the recoloured pixels', async () => {
    const grey = await renderCthg(fan, { view: 'south', frame: '0' }, fsResourceLoader(dir));
    const blue = await renderCthg(fan, { view: 'south', frame: '0', recolour: '1=fan_palette.png' }, fsResourceLoader(dir));
    let changed = 0;
    for (let i = 0; i < grey.frames[0]!.data.length; i += 4) {
      if (grey.frames[0]!.data[i + 2] !== blue.frames[0]!.data[i + 2]) changed++;
    }
    expect(changed).toBeGreaterThan(50);
    // The stand (bottom rows) is not recoloured.
    const g = grey.frames[0]!;
    const b = blue.frames[0]!;
    expect(b.data.subarray((g.height - 4) * g.width * 4)).toEqual(g.data.subarray((g.height - 4) * g.width * 4));
  });

  it('an animation name that is not UTF-8 is a warning', () => {
    const bytes = rawFile([
      TINY_SPRITE,
      { t: 'FR', elements: [{ sprite: 0 }] },
      { t: 'CA', name: '\u00ff', frameCount: 1, views: [0, NONE, NONE, NONE] },
    ]);
    // str8 writes U+00FF as two UTF-8 bytes; replace them with one invalid byte and fix the length.
    const i = bytes.length - 16 - 3;
    const bad = new Uint8Array([...bytes.subarray(0, i), 1, 0xff, ...bytes.subarray(i + 3)]);
    const v = validateCthg(bad);
    expect(v).toHaveLength(1);
    expect(v[0]).toMatchObject({ severity: 'warning' });
    expect(v[0]!.message).toMatch(/not valid UTF-8/);
  });
});

describe('CTHG render limits', () => {
  it('a frame whose elements span a huge box is refused with a LimitError naming --max-pixels', async () => {
    const bytes = rawFile([
      TINY_SPRITE,
      {
        t: 'FR',
        elements: [
          { sprite: 0, x: -32768, y: -32768 },
          { sprite: 0, x: 32767, y: 32767 },
        ],
      },
      { t: 'CA', name: 'big', frameCount: 1, views: [0, NONE, NONE, NONE] },
    ]);
    const doc = readCthg(bytes);
    await expect(renderCthg(doc, { frame: '0' }, fsResourceLoader(dir))).rejects.toThrow(
      /frame 0 \(65537x65536\) would need \d+ pixels, more than the limit of \d+ \(raise it with --max-pixels\)/,
    );
    await expect(renderCthg(doc, {}, fsResourceLoader(dir))).rejects.toThrow(/--max-pixels/);
  });
});
