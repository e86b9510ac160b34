/**
 * Compass directions (CTHG views) and numbered directions (Solarus) through
 * the one table both ways (src/model/directions.ts): CTHG -> Solarus -> CTHG
 * and Solarus -> CTHG -> Solarus come back with their names.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { roundTrip } from '../../src/matrix.js';
import { compassNumbers, compassOfNumber, NUMBERED_COMPASS } from '../../src/model/directions.js';
import { fsResourceLoader } from '../../src/node/fs.js';
import { CORPUS, SAMPLES } from '../helpers/paths.js';

async function trip(file: string, via: string) {
  const bytes = new Uint8Array(readFileSync(file));
  return roundTrip({ bytes, name: path.basename(file), resources: fsResourceLoader(path.dirname(file)), dir: path.dirname(file) }, via);
}

describe('the direction table', () => {
  it('compassOfNumber undoes compassNumbers for every set of compass names it places', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray([...NUMBERED_COMPASS], { minLength: 1 }), (names) => {
        const numbers = compassNumbers(names);
        if (!numbers) return;
        const back = numbers.map((k) => compassOfNumber(k, names.length));
        // One direction faces every way: it comes back as north.
        expect(back).toEqual(names.length === 1 ? ['north'] : names);
      }),
    );
  });
  it('places 0 … n-1 only: east, north, west, south; one direction is 0', () => {
    expect(compassNumbers(['north', 'east', 'south', 'west'])).toEqual([1, 0, 3, 2]);
    expect(compassNumbers(['North', 'east'])).toEqual([1, 0]);
    expect(compassNumbers(['south'])).toEqual([0]);
    expect(compassNumbers(['north', 'south'])).toBeUndefined();
    expect(compassNumbers(['north', 'north'])).toBeUndefined();
    expect(compassNumbers(['up'])).toBeUndefined();
    expect(compassOfNumber(4, 5)).toBeUndefined();
  });
});

describe('CTHG <-> Solarus directions come back', () => {
  it('fan.dat (four views) -> Solarus -> CTHG plays the same, and the notes say which number each view became', async () => {
    for (const via of ['solarus', 'solarus-lua']) {
      const c = await trip(path.join(SAMPLES, 'cthg/fan.dat'), via);
      expect(c.status, JSON.stringify(c.notes)).toBe('same');
      expect(c.notes).toContain(
        `${via}: compass directions are written as Solarus numbers them (0 east, 1 north, 2 west, 3 south; one direction: 0): "desk_fan" north -> 1, east -> 0, south -> 3, west -> 2`,
      );
      expect(c.notes).toContain(
        'cthg: numbered directions are written as views (0 east, 1 north, 2 west, 3 south; a lone direction: north): "desk_fan"',
      );
    }
  });
  it('gen_anims.dat (north only, south only, three views) -> Solarus -> CTHG: a lone view other than north comes back north, said', async () => {
    const c = await trip(path.join(CORPUS, 'cthg/encoder-test/gen_anims.dat'), 'solarus');
    expect(c.status).not.toBe('error');
    if (c.status !== 'lossy') return;
    // Only the lone south view changes name; the note naming it explains it.
    expect(new Set(c.changes.map((x) => x.animation))).toEqual(new Set(['recoloured']));
    for (const l of c.losses) expect(l.note, l.kind).toMatch(/"recoloured" south -> 0/);
  });
  it('a Solarus sprite of four directions -> CTHG -> Solarus keeps its numbers', async () => {
    const c = await trip(path.join(SAMPLES, 'solarus/sprites/slime.dat'), 'cthg');
    expect(c.status, JSON.stringify(c).slice(0, 400)).not.toBe('error');
    if (c.status === 'lossy') expect(c.losses.map((l) => l.kind)).not.toContain('removed');
  });
});
