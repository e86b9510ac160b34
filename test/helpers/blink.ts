/**
 * A small ISPRITE sprite to attach (`render --attach`): three 4x4 frames of
 * pure red, green and blue (frame IDs 0, 1, 2), one looping default sequence
 * `Root/blink` held 100, 300 and 200 ms (hold times 1, 3, 2 at 10 steps a
 * second), made by `sprat new` and written by the ISPRITE writer into `dir`
 * as `blink.isprite` and its texture `blink.png`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { load, newSprite } from '../../src/api.js';
import type { IspriteDocument } from '../../src/formats/isprite/model.js';
import { listSequences, setDefaultSequence } from '../../src/formats/isprite/paths.js';
import { writeIsprite } from '../../src/formats/isprite/write.js';
import { getFormat } from '../../src/registry.js';
import { createImage } from '../../src/render/image.js';

export const BLINK_COLOURS: [number, number, number][] = [
  [255, 0, 0],
  [0, 255, 0],
  [0, 0, 255],
];

export async function writeBlinkSprite(dir: string): Promise<string> {
  const frames = BLINK_COLOURS.map(([r, g, b]) => {
    const im = createImage(4, 4);
    for (let i = 0; i < 16; i++) im.data.set([r, g, b, 255], i * 4);
    return im;
  });
  const { files } = await newSprite(
    { frames, animations: 'blink:0@100+1@300+2@200', origin: { x: 2, y: 2 } },
    getFormat('isprite')!,
    'blink.isprite',
  );
  for (const f of files) fs.writeFileSync(path.join(dir, f.name), f.bytes);
  const file = path.join(dir, 'blink.isprite');
  const doc = load(fs.readFileSync(file), 'blink.isprite').doc as IspriteDocument;
  setDefaultSequence(doc, listSequences(doc)[0]!.path);
  fs.writeFileSync(file, writeIsprite(doc));
  return file;
}

/** Pixels of each BLINK_COLOURS colour (opaque, exact) in RGBA data. */
export function blinkCounts(data: ArrayLike<number>): number[] {
  const c = [0, 0, 0];
  for (let i = 0; i < data.length; i += 4) {
    if (data[i + 3] !== 255) continue;
    BLINK_COLOURS.forEach(([r, g, b], k) => {
      if (data[i] === r && data[i + 1] === g && data[i + 2] === b) c[k]!++;
    });
  }
  return c;
}
