import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { makeSpritetileSample } from '../../scripts/samples/spritetile.js';
import { SAMPLES } from '../helpers/paths.js';
import { readSpriteTile, validateSpriteTile } from '../../src/formats/spritetile/index.js';

/** SPRAT_WRITE_SAMPLES=1 npx vitest run test/spritetile/sample.test.ts rewrites the committed files. */
describe('SpriteTile sample', () => {
  const { files } = makeSpritetileSample();
  if (process.env.SPRAT_WRITE_SAMPLES) {
    for (const f of files) {
      mkdirSync(path.dirname(path.join(SAMPLES, f.name)), { recursive: true });
      writeFileSync(path.join(SAMPLES, f.name), f.bytes);
    }
  }
  for (const f of files) {
    it(`samples/${f.name} is what the generator makes`, () => {
      const p = path.join(SAMPLES, f.name);
      expect(existsSync(p)).toBe(true);
      expect(Buffer.from(readFileSync(p)).equals(Buffer.from(f.bytes))).toBe(true);
    });
  }
  it('is a valid two-layer level with flips, rotations and colliders', () => {
    const bytes = files.find((f) => f.name.endsWith('.bytes'))!.bytes;
    expect(validateSpriteTile(bytes)).toEqual([]);
    const level = readSpriteTile(bytes);
    expect(level.layers).toHaveLength(2);
    const flags = level.layers!.flatMap((l) => Array.from(l.flags));
    expect(flags.some((f) => f & 0x8000)).toBe(true);
    expect(flags.some((f) => f & 0x1000)).toBe(true);
    expect(flags.some((f) => f & 0x0800)).toBe(true);
    expect(flags.some((f) => (f & 0x7ff) === 450)).toBe(true);
  });
});
