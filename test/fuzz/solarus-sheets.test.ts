/**
 * Whole multi-animation Solarus sheets (both syntaxes) whose animations draw
 * from an image sheet, the map's tileset, a missing image or a file that is
 * no image, in any order, through every command of the command line
 * (in-process): no crash, no unhandled rejection, exit 0, 1 or 2 with one
 * clean line, and the inputs untouched. The fuzzer makes the same sheets
 * (src/fuzz/solarus.ts); this is its fast-check property.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { SolarusSheet } from '../../src/formats/solarus/model.js';
import { rng } from '../../src/fuzz/mutate.js';
import { generatedSolarusSheet, randomSolarusSheet, SHEET_IMAGES, solarusSheetBytes } from '../../src/fuzz/solarus.js';
import { readLines, readLua } from '../../src/formats/solarus/index.js';
import { runCli } from '../helpers/cli.js';
import { problemOf } from '../helpers/clean-output.js';
import { SAMPLES } from '../helpers/paths.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-solarus-sheets-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const int = (min: number, max: number) => fc.integer({ min, max });
const sheetArb: fc.Arbitrary<SolarusSheet> = fc
  .array(
    fc.record({
      image: fc.constantFrom(...SHEET_IMAGES),
      frameDelay: fc.oneof(fc.constant(0), int(1, 300)),
      loopOnFrame: int(-1, 3),
      directions: fc.array(
        fc.record({
          x: int(0, 64),
          y: int(0, 64),
          frameWidth: int(1, 32),
          frameHeight: int(1, 32),
          originX: int(-4, 16),
          originY: int(-4, 16),
          frameCount: int(1, 4),
          columns: int(1, 4),
        }),
        { minLength: 1, maxLength: 3 },
      ),
    }),
    { minLength: 1, maxLength: 5 },
  )
  .map((list) => ({ animations: list.map((a, i) => ({ name: `a${i}`, ...a })) }));

const sum = (p: string) => createHash('sha256').update(fs.readFileSync(p)).digest('hex');
let case_ = 0;

/** A folder with the sample's sprites (enemies/slime.png, slime.dat) and the sheet as s.dat; in a quest or not. */
function place(bytes: Uint8Array, inQuest: boolean): string {
  const root = path.join(tmp, String(case_++));
  const sprites = inQuest ? path.join(root, 'data', 'sprites') : root;
  fs.cpSync(path.join(SAMPLES, 'solarus', 'sprites'), sprites, { recursive: true });
  if (inQuest) fs.writeFileSync(path.join(root, 'data', 'quest.dat'), 'quest{}\n');
  fs.writeFileSync(path.join(sprites, 's.dat'), bytes);
  return sprites;
}

describe('generated Solarus sheets through every command', () => {
  it('the generator writes sheets that read, in both syntaxes, with every kind of image', () => {
    const random = rng(7);
    const images = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const g = generatedSolarusSheet(random, i);
      const sheet = g.format === 'solarus' ? readLines(g.bytes) : readLua(g.bytes);
      expect(sheet.animations.length).toBeGreaterThan(0);
      for (const a of sheet.animations) images.add(a.image);
    }
    expect([...images].sort()).toEqual([...SHEET_IMAGES].sort());
    expect(randomSolarusSheet(rng(3))).toEqual(randomSolarusSheet(rng(3)));
  });

  it('no crash: exit 0, 1 or 2 with one clean line; nothing rejected unhandled; the inputs untouched', async () => {
    const rejected: unknown[] = [];
    const onRejection = (e: unknown) => rejected.push(e);
    process.on('unhandledRejection', onRejection);
    try {
      await fc.assert(
        fc.asyncProperty(sheetArb, fc.constantFrom('solarus', 'solarus-lua'), fc.boolean(), async (sheet, format, inQuest) => {
          const dir = place(solarusSheetBytes(sheet, format), inQuest);
          const other = format === 'solarus' ? 'solarus-lua' : 'solarus';
          const before = ['s.dat', 'slime.dat', 'enemies/slime.png'].map((f) => sum(path.join(dir, f)));
          const runs: [string, string[]][] = [
            ['inspect', ['inspect', 's.dat']],
            ['inspect --json', ['inspect', '--json', 's.dat']],
            ['validate', ['validate', 's.dat']],
            ['check', ['check', 's.dat']],
            ['render', ['render', 's.dat', '-o', 'out/x.png']],
            ['render --tileset', ['render', 's.dat', '--tileset', 'enemies/slime.png', '-o', 'out/y.gif']],
            ['play --json', ['play', 's.dat', '--json']],
            ['convert', ['convert', 's.dat', 'out/o.dat']],
            [`convert --to ${other}`, ['convert', 's.dat', 'out/p.dat', '--to', other]],
            ['convert --to aseprite', ['convert', 's.dat', 'out/q.json', '--to', 'aseprite']],
            ['convert --to aseprite --tileset', ['convert', 's.dat', 'out/r.json', '--to', 'aseprite', '--tileset', 'enemies/slime.png']],
            ['diff', ['diff', 's.dat', 's.dat']],
          ];
          fs.mkdirSync(path.join(dir, 'out'));
          for (const [name, argv] of runs) {
            const r = await runCli(argv, dir);
            const problem = problemOf(name.split(' --')[0]!, r, true);
            expect(problem, `${argv.join(' ')} on\n${fs.readFileSync(path.join(dir, 's.dat'), 'utf8')}`).toBeNull();
          }
          expect(['s.dat', 'slime.dat', 'enemies/slime.png'].map((f) => sum(path.join(dir, f)))).toEqual(before);
          // A turn of the event loop, for a rejection nothing handled to be reported.
          await new Promise((resolve) => setImmediate(resolve));
          expect(rejected).toEqual([]);
          fs.rmSync(dir, { recursive: true, force: true });
        }),
        { numRuns: 40 },
      );
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  }, 120_000);
});
