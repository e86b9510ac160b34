/**
 * The round-trip matrix (src/matrix.ts, scripts/matrix.ts): every sample and
 * a few corpus files of each sprite format, X -> Y -> X through every format
 * Y, judged by comparePlayback. A cell may be lossy; every loss must be said
 * by a note the conversions printed (one per kind, naming the animations), or
 * be listed in KNOWN_OPEN below with why. No step may crash. The README's
 * table is what `npm run matrix` writes.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { computeMatrix, END, MATRIX_FORMATS, START, withTable } from '../../scripts/matrix.js';
import { createImage } from '../../src/render/image.js';
import { Budget } from '../../src/binary/limits.js';
import { FormatError } from '../../src/binary/errors.js';
import { formatByName } from '../../src/api.js';
import type { FormatHandler } from '../../src/formats/types.js';
import { lossesOf, matrixRowOf, matrixTable, roundTrip, type MatrixCell, type MatrixRow } from '../../src/matrix.js';
import { encodePng } from '../../src/render/png.js';
import { writeIsprite, createIsprite } from '../../src/index.js';
import { ROOT } from '../helpers/paths.js';
import { memoryLoader } from '../interop/helpers.js';

/**
 * Losses no note explains today: the row (source format), the format it went
 * through, the kind of loss, and why it is still open. Each must still occur
 * (a fixed one is taken off this list).
 */
const KNOWN_OPEN: { from: string; via: string; kind: string; why: string }[] = [];

/**
 * Trips that convert there but do not come back today (`stage: 'back'`), by
 * row and format gone through, with why. Each must still occur. Those marked
 * "output" are written files that name an image nobody wrote: silently broken
 * conversions, for the format's owner to fix.
 */
const KNOWN_NOT_BACK: { from: string; via: string; why: string }[] = [];

/**
 * Notes that say a kind of loss without naming every animation it affects,
 * with why. Each must still occur.
 */
const KNOWN_UNNAMED: { note: RegExp; why: string }[] = [
  { note: /… \(\d+ in all\)$|\.\.\. \(\d+ in all\)$/, why: 'a list cut at its first 20 names (formats/options.ts listed)' },
  {
    note: /; \d+ more animations\)$/,
    why: 'timingNotes (model/timing.ts) names the first 4 animations a change of duration affects and counts the rest (a note is one line)',
  },
];

let rows: MatrixRow[] = [];

beforeAll(async () => {
  rows = await computeMatrix();
}, 240_000);

const cellsOf = (r: MatrixRow) => Object.entries(r.cells) as [string, MatrixCell][];

describe('the round-trip matrix over the samples and the corpus', () => {
  it('takes files of every sprite format (and the source-only ones) through every format', () => {
    const rowsSeen = new Set(rows.map((r) => matrixRowOf(r.format)));
    expect([...rowsSeen].sort()).toEqual([...MATRIX_FORMATS].sort());
    // Formats read but never written come back as the format they compile to.
    expect(matrixRowOf('ase')).toBe('aseprite');
    expect(matrixRowOf('cthg-script')).toBe('cthg');
    for (const f of ['ase', 'cthg-script'])
      expect(
        rows.some((r) => r.format === f),
        f,
      ).toBe(true);
    for (const r of rows) expect(Object.keys(r.cells).sort(), r.file).toEqual([...MATRIX_FORMATS].sort());
  });

  it('no step crashes: every error is a one-line refusal', () => {
    const crashes = rows.flatMap((r) =>
      cellsOf(r).flatMap(([via, c]) => (c.status === 'error' && c.crash ? [`${r.file} via ${via}: ${c.message}`] : [])),
    );
    expect(crashes).toEqual([]);
    for (const r of rows) for (const [, c] of cellsOf(r)) if (c.status === 'error') expect(c.message).not.toMatch(/\n/);
  });

  it('every loss is said by a note of the conversions, or is a known-open cell', () => {
    const unexplained: string[] = [];
    const open = new Set<string>();
    for (const r of rows) {
      const from = matrixRowOf(r.format);
      for (const [via, c] of cellsOf(r)) {
        if (c.status !== 'lossy') continue;
        for (const l of c.losses) {
          if (l.note !== undefined) continue;
          const known = KNOWN_OPEN.find((k) => k.from === from && k.via === via && k.kind === l.kind);
          if (known) open.add(`${known.from} ${known.via} ${known.kind}`);
          else unexplained.push(`${r.file} via ${via}: ${l.kind} (${l.animations.join(', ')}); notes: ${c.notes.join(' | ')}`);
        }
      }
    }
    expect(unexplained).toEqual([]);
    // A known-open cell that is explained now is taken off the list.
    expect(KNOWN_OPEN.map((k) => `${k.from} ${k.via} ${k.kind}`).filter((k) => !open.has(k))).toEqual([]);
  });

  it('the note that says a loss names the animations it affects, or is a known-unnamed note', () => {
    const unnamed: string[] = [];
    const used = new Set<RegExp>();
    for (const r of rows)
      for (const [via, c] of cellsOf(r)) {
        if (c.status !== 'lossy') continue;
        for (const l of c.losses) {
          if (!l.unnamed) continue;
          const known = KNOWN_UNNAMED.find((k) => k.note.test(l.note!));
          if (known) used.add(known.note);
          else unnamed.push(`${r.file} via ${via}: ${l.kind}: "${l.note}" does not name ${l.unnamed.join(', ')}`);
        }
      }
    expect(unnamed).toEqual([]);
    expect(KNOWN_UNNAMED.filter((k) => !used.has(k.note)).map((k) => String(k.note))).toEqual([]);
  });

  it('every trip that does not come back is a known-open cell', () => {
    const open = new Set<string>();
    const unknown: string[] = [];
    for (const r of rows) {
      const from = matrixRowOf(r.format);
      for (const [via, c] of cellsOf(r)) {
        if (c.status !== 'error' || c.stage !== 'back') continue;
        if (KNOWN_NOT_BACK.some((k) => k.from === from && k.via === via)) open.add(`${from} ${via}`);
        else unknown.push(`${r.file} via ${via}: ${c.message}`);
      }
    }
    expect(unknown).toEqual([]);
    expect(KNOWN_NOT_BACK.map((k) => `${k.from} ${k.via}`).filter((k) => !open.has(k))).toEqual([]);
  });

  it('the same format there and back plays the same (a re-encode loses nothing)', () => {
    const lost = rows.flatMap((r) => {
      const c = r.cells[matrixRowOf(r.format)];
      return c && c.status !== 'same' ? [`${r.file}: ${c.status === 'error' ? c.message : c.losses.map((l) => l.kind).join(', ')}`] : [];
    });
    expect(lost).toEqual([]);
  });

  it('the writers name what they cannot hold: a view, a direction, a name', () => {
    const cell = (file: string, via: string) => rows.find((r) => r.file === file)!.cells[via]!;
    const notes = (file: string, via: string) => (cell(file, via) as { notes: string[] }).notes;
    expect(notes('samples/interop/hero.json', 'cthg')).toContain(
      'cthg: animations with no view are written as view north: "walk", "back", "idle"',
    );
    expect(notes('samples/interop/hero.json', 'solarus')).toContain(
      'solarus: animations with no direction are written as direction 0: "walk", "back", "idle"',
    );
    // Sheets carry directions (tags NAME/DIRECTION, told apart in meta.sprat): the views come back, with no note.
    // (The way back says the ping-pong tags the Aseprite writer found are written as frames: a tag direction, not a view.)
    expect(
      notes('samples/cthg/fan.dat', 'aseprite').filter((n) => /direction/.test(n) && !/tag directions|players do not read/.test(n)),
    ).toEqual([]);
    expect(cell('samples/cthg/fan.dat', 'aseprite').status).toBe('same');
    expect(notes('corpus/interop/HaxeFlixel+flixel-demos/Graphics/FlxAsepriteUtils/assets/player.json', 'hallgeir-sprite')).toContain(
      'hallgeir-sprite: the last frame of an animation that stops holds forever: "climb", "cheer", "walk", "hold", "action"',
    );
    expect(notes('samples/hallgeir/coin.spr', 'solarus')).toContain(
      'hallgeir-sprite: a sprite has no directions; they are written into the animation names: "spin_0"',
    );
  });

  it('the README table is the one `npm run matrix` writes', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain(START);
    expect(readme).toContain(END);
    expect(withTable(readme, matrixTable(rows, MATRIX_FORMATS)), 'run `npm run matrix`').toBe(readme);
  });
});

describe('roundTrip', () => {
  // A one-frame ISPRITE sprite with its sheet, in memory.
  const sheet = createImage(4, 4);
  for (let i = 0; i < sheet.data.length; i += 4) sheet.data.set([200, 40, 10, 255], i);
  const sprite = createIsprite(10);
  sprite.textures.push({ path: 'tiny', nearest: true });
  sprite.slices.push({ texture: 0, rotated: false, x: 0, y: 0, width: 4, height: 4 });
  sprite.frames.push({
    holdTime: 1,
    loopPoint: false,
    label: '',
    triggers: '',
    notes: '',
    elements: [{ type: 'graphic', expanded: false, name: null, slice: 0, x: 0, y: 0, flipX: false, flipY: false }],
  });
  sprite.tree.push({ kind: 'sequence', name: 'idle', loopPoint: 0, followUp: '', frames: [0] });
  const source = { bytes: writeIsprite(sprite), name: 'tiny.isprite', resources: memoryLoader({ 'tiny.png': encodePng(sheet) }) };

  it('judges a trip in memory: the files written are read back from memory', async () => {
    expect(await roundTrip(source, 'aseprite', new Budget())).toMatchObject({ status: 'same' });
    expect(await roundTrip(source, 'isprite')).toMatchObject({ status: 'same' });
  });

  it('a step that throws anything but a refusal is a crash', async () => {
    const broken: FormatHandler = {
      ...formatByName('aseprite'),
      fromModel: () => {
        throw new TypeError('x is undefined');
      },
    };
    const c = await roundTrip(source, broken);
    expect(c).toMatchObject({ status: 'error', crash: true, message: 'isprite -> aseprite: x is undefined' });
  });

  it('a refusal (FormatError) is an error cell with its one line, not a crash', async () => {
    const refusing: FormatHandler = {
      ...formatByName('aseprite'),
      fromModel: () => {
        throw new FormatError('aseprite', 'cannot hold\nthis');
      },
    };
    const c = await roundTrip(source, refusing);
    expect(c).toEqual({ status: 'error', stage: 'there', message: 'isprite -> aseprite: cannot hold\\nthis', notes: [] });
  });
});

describe('lossesOf and matrixTable', () => {
  it('groups changes by kind, each with the note that says it and the animations it does not name', () => {
    const losses = lossesOf(
      [
        { kind: 'duration', animation: 'walk', frame: 0, from: 100, to: 90 },
        { kind: 'duration', animation: 'run', direction: 'north', frame: 1, from: 100, to: 90 },
        { kind: 'next', animation: 'attack', from: 'idle', to: null },
      ],
      ['cthg: every CTHG frame lasts one game tick (90 ms): 100 ms -> 90 ms ("walk" frame 0)'],
    );
    expect(losses).toEqual([
      {
        kind: 'duration',
        animations: ['walk', 'run/north'],
        note: 'cthg: every CTHG frame lasts one game tick (90 ms): 100 ms -> 90 ms ("walk" frame 0)',
        unnamed: ['run'],
      },
      { kind: 'next', animations: ['attack'] },
    ]);
  });

  it('a 7 x 7 table: same, lossy with the kinds, refused, — where no file went', () => {
    const same: MatrixCell = { status: 'same', notes: [] };
    const lossy: MatrixCell = {
      status: 'lossy',
      losses: [{ kind: 'loop', animations: ['a'] }],
      changes: [{ kind: 'loop', animation: 'a', from: 'x', to: 'y' }],
      notes: [],
    };
    const refused: MatrixCell = { status: 'error', stage: 'there', message: 'no', notes: [] };
    const notBack: MatrixCell = { status: 'error', stage: 'back', message: 'no', notes: [] };
    const table = matrixTable(
      [
        { file: 'a.isprite', format: 'isprite', cells: { isprite: same, aseprite: lossy, cthg: refused } },
        { file: 'b.isprite', format: 'isprite', cells: { isprite: same, aseprite: same, cthg: same, solarus: notBack } },
        { file: 'c.aseprite', format: 'ase', cells: { isprite: same } },
      ],
      MATRIX_FORMATS,
    ).split('\n');
    expect(table).toHaveLength(2 + MATRIX_FORMATS.length);
    expect(table[0]).toBe(`| from \\ via | ${MATRIX_FORMATS.join(' | ')} |`);
    expect(table[2]).toBe('| isprite | same | 1 of 2 refused | not back | — | — | lossy: loop | — |');
    expect(table.find((l) => l.startsWith('| aseprite |'))).toBe('| aseprite | same | — | — | — | — | — | — |');
  });
});
