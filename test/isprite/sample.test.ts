import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { SAMPLES } from '../helpers/paths.js';
import { makeIspriteSample } from '../../scripts/samples/isprite.js';
import { decodePng } from '../../src/render/png.js';
import { readIsprite } from '../../src/formats/isprite/index.js';

describe('the ISPRITE sample', () => {
  it('the committed files equal what the generator makes now', () => {
    const { files } = makeIspriteSample();
    expect(files.map((f) => f.name)).toEqual(['isprite/hero.isprite', 'isprite/hero.png']);
    for (const f of files) {
      const committed = readFileSync(path.join(SAMPLES, f.name));
      expect(Buffer.compare(committed, f.bytes), `${f.name} differs: run npm run samples`).toBe(0);
    }
  });

  it('every slice lies inside the sheet, and the demo lists the sample', () => {
    const doc = readIsprite(readFileSync(path.join(SAMPLES, 'isprite/hero.isprite')));
    const png = decodePng(readFileSync(path.join(SAMPLES, 'isprite/hero.png')));
    expect(doc.textures[0]!.path).toBe('hero');
    for (const s of doc.slices) {
      expect(s.x + s.width).toBeLessThanOrEqual(png.width);
      expect(s.y + s.height).toBeLessThanOrEqual(png.height);
    }
    const demo = JSON.parse(readFileSync(path.join(SAMPLES, 'demo.json'), 'utf8'));
    expect(demo.samples.some((s: { file: string }) => s.file === 'isprite/hero.isprite')).toBe(true);
  });
});
