/**
 * Converting between the two Solarus syntaxes goes straight from one to the
 * other (the handler's convertTo), not through the common model: no image
 * loaded, no notes but true ones, every field kept (num_columns 5
 * of a 3-frame direction became 3, every PNG was loaded, false notes).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { convert, formatByName, load } from '../../src/api.js';
import { readLines, readLua, solarusHandler, solarusLuaHandler } from '../../src/formats/solarus/index.js';
import type { ResourceLoader } from '../../src/formats/types.js';
import type { SpriteModel } from '../../src/model/types.js';
import { runCli } from '../helpers/cli.js';
import { corpusBytes, corpusFiles, enc } from './helpers.js';

/** A loader that fails the test if anything is loaded. */
const NOTHING: ResourceLoader = {
  load: async (p) => {
    throw new Error(`the conversion loaded ${p}`);
  },
  exists: async (p) => {
    throw new Error(`the conversion looked for ${p}`);
  },
};

async function convertBytes(bytes: Uint8Array, name: string, to: 'solarus' | 'solarus-lua') {
  const loaded = load(bytes, name);
  const { files, notes } = await convert(loaded, formatByName(to), 'out.dat', NOTHING);
  expect(files).toHaveLength(1);
  return { bytes: files[0]!.bytes, notes };
}

describe('Solarus line <-> Lua without the model', () => {
  const files = corpusFiles();

  it('line -> Lua gives the official converter output byte for byte for all 207 corpus sprites, loading nothing, no notes', async () => {
    expect(files.length).toBe(207);
    for (const id of files) {
      const r = await convertBytes(corpusBytes('old', id), id, 'solarus-lua');
      expect(Buffer.from(r.bytes).equals(Buffer.from(corpusBytes('new', id))), id).toBe(true);
      expect(r.notes, id).toEqual([]);
    }
  });

  it('Lua -> line gives back the same sheet as the old file, and line -> Lua of it the Lua file again (round trip)', async () => {
    for (const id of files) {
      const back = await convertBytes(corpusBytes('new', id), id, 'solarus');
      expect(back.notes, id).toEqual([]);
      expect(readLines(back.bytes), id).toEqual(readLines(corpusBytes('old', id)));
      const again = await convertBytes(back.bytes, id, 'solarus-lua');
      expect(Buffer.from(again.bytes).equals(Buffer.from(corpusBytes('new', id))), id).toBe(true);
    }
  });

  it('keeps num_columns above num_frames (one row), with the true note that Solarus 1.x rejects it', async () => {
    const line = enc('walk hero/walk.png 1 100 0\n0\t0\t16\t16\t8\t13\t3\t5\n\n');
    const lua = await convertBytes(line, 'walk.dat', 'solarus-lua');
    const text = new TextDecoder().decode(lua.bytes);
    expect(text).toContain('num_frames = 3, num_columns = 5');
    expect(lua.notes).toEqual([
      'animation "walk" direction 0: num_columns 5 > num_frames 3, which Solarus 1.x rejects (kept: one row) (at line 2, column 1)',
    ]);
    const sheet = readLua(lua.bytes);
    expect(sheet.animations[0]!.directions[0]).toMatchObject({ frameCount: 3, columns: 5 });
    const back = await convertBytes(lua.bytes, 'walk.dat', 'solarus');
    expect(new TextDecoder().decode(back.bytes)).toBe('walk hero/walk.png 1 100 0\n0\t0\t16\t16\t8\t13\t3\t5\n\n');
  });

  it('a name the line syntax cannot hold is refused, exit 1, nothing written', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-syntax-'));
    try {
      fs.writeFileSync(
        path.join(dir, 'sp.dat'),
        'animation{ name = "two words", src_image = "a.png", directions = { { x = 0, y = 0, frame_width = 8, frame_height = 8 } } }\n',
      );
      const r = await runCli(['convert', 'sp.dat', 'sp-old.dat', '--to', 'solarus'], dir);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^sprat: error: sp\.dat: .*animation name "two words" cannot be written in the line syntax/);
      expect(fs.existsSync(path.join(dir, 'sp-old.dat'))).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('from the command line: a sprite whose image does not exist converts with no note', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-syntax-'));
    try {
      fs.writeFileSync(path.join(dir, 'sp.dat'), 'walk hero/none.png 1 100 0\n0\t0\t16\t16\t8\t13\t3\t5\n\n');
      const r = await runCli(['convert', 'sp.dat', 'sp.lua'], dir);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe(
        'sp.dat: note: animation "walk" direction 0: num_columns 5 > num_frames 3, which Solarus 1.x rejects (kept: one row) (at line 2, column 1)\n',
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the hook answers only for the other Solarus syntax', () => {
    const sheet = readLines(enc('a b.png 1 0 -1\n0 0 1 1 0 0 1 1\n'));
    expect(solarusHandler.convertTo!(sheet, solarusLuaHandler)).toEqual({ doc: sheet, notes: [] });
    expect(solarusLuaHandler.convertTo!(sheet, solarusHandler)).toEqual({ doc: sheet, notes: [] });
    expect(solarusHandler.convertTo!(sheet, formatByName('aseprite'))).toBeUndefined();
  });
});

describe('a lone CR inside a line-syntax token', () => {
  it('is refused with its line and column (the engine splits tokens there), so read -> write -> read is stable', () => {
    const text = 'wa\rlk hero/walk.png 1 100 0\n0\t0\t16\t16\t8\t13\t3\t3\n';
    expect(() => readLines(enc(text))).toThrow(
      'a carriage return not followed by a line feed inside a token (separate tokens with spaces or tabs) (at line 1, column 3)',
    );
    expect(() => readLines(enc('walk hero/walk.png 1 100 0\n0\t0\t16\t16\t8\t13\t3\r\t3\n'))).toThrow(/at line 2, column 17/);
    expect(() => readLines(enc('walk a.png 1 100 0\n0 0 1 1 0 0 1 1 \r \n'))).toThrow(/carriage return/);
    expect(() => readLines(enc('walk a\vb.png 1 100 0\n0 0 1 1 0 0 1 1\n'))).toThrow(/vertical tab inside a token/);
  });

  it('CR before LF and a CR at the very end stay accepted', () => {
    const a = readLines(enc('walk a.png 1 100 0\r\n0 0 1 1 0 0 1 1\r\n\r\n'));
    const b = readLines(enc('walk a.png 1 100 0\r\n0 0 1 1 0 0 1 1\r'));
    expect(a).toEqual(b);
    expect(a.animations[0]!.name).toBe('walk');
  });

  it('validate and the CLI report it in one line, exit 1', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-cr-'));
    try {
      fs.writeFileSync(path.join(dir, 'cr.dat'), 'wa\rlk hero/walk.png 1 100 0\n0\t0\t16\t16\t8\t13\t3\t3\n');
      const v = await runCli(['validate', 'cr.dat', '--format', 'solarus'], dir);
      expect(v.code).toBe(1);
      expect(v.stdout).toMatch(
        /^cr\.dat: error: a carriage return not followed by a line feed inside a token .*\(at line 1, column 3\)\n$/,
      );
      const c = await runCli(['convert', 'cr.dat', 'cr2.dat', '--from', 'solarus'], dir);
      expect(c.code).toBe(1);
      expect(c.stderr.trim().split('\n')).toHaveLength(1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the Solarus writers refuse numbers the readers would reject', () => {
  it('names the animation, the field and the value; --clamp (modelToSheet) clamps a delay with a note', async () => {
    const { formatLines, formatLua, modelToSheet } = await import('../../src/formats/solarus/index.js');
    const sheet = readLines(enc('walk a.png 1 100 0\n0 0 8 8 0 0 2 2\n'));
    sheet.animations[0]!.frameDelay = 1e10;
    expect(() => formatLines(sheet)).toThrow(
      'animation "walk" frame_delay 10000000000 cannot be written: it must be a whole number from 0 to 2147483647',
    );
    expect(() => formatLua(sheet)).toThrow(/animation "walk" frame_delay 10000000000 cannot be written/);
    sheet.animations[0]!.frameDelay = 100;
    sheet.animations[0]!.directions[0]!.originX = 1.5;
    expect(() => formatLua(sheet)).toThrow(/direction 0 origin_x 1.5 cannot be written/);
    const part = { sheet: 0, sx: 0, sy: 0, sw: 8, sh: 8, x: 0, y: 0 };
    const model: SpriteModel = {
      kind: 'sprite',
      name: 's',
      sheets: [{ path: 'a.png' }],
      animations: [{ name: 'slow', frames: [{ durationMs: 1e10, parts: [part] }], loopTo: 0 }],
    };
    const clamped = modelToSheet('solarus-lua', model, { clamp: true });
    expect(clamped.animations[0]!.frameDelay).toBe(2147483647);
    expect(model.notes).toContain('animation "slow" frame_delay 10000000000 clamped to 2147483647 (the engine reads a C int)');
    expect(() => formatLua(modelToSheet('solarus-lua', { ...model, notes: [] }))).toThrow(/frame_delay 10000000000 cannot be written/);
  });
});

describe('whatever a Solarus reader accepts, the writers write and the readers read back the same', () => {
  it('line syntax and Lua syntax, from damaged corpus lines with CR, VT, FF and spaces inserted (fuzz finding: a lone CR)', async () => {
    const fc = (await import('fast-check')).default;
    const { formatLines, formatLua, parseLines, parseLua } = await import('../../src/formats/solarus/index.js');
    const { FormatError } = await import('../../src/binary/errors.js');
    const ids = corpusFiles();
    const bits = ['\r', '\v', '\f', ' ', '\t', '\r\n', '\n', 'x', '-', '0'];
    fc.assert(
      fc.property(
        fc.nat(ids.length - 1),
        fc.boolean(),
        fc.array(fc.tuple(fc.nat(1 << 20), fc.constantFrom(...bits)), { maxLength: 3 }),
        (k, old, edits) => {
          let text = new TextDecoder().decode(corpusBytes(old ? 'old' : 'new', ids[k]!));
          for (const [at, s] of edits) {
            const i = at % (text.length + 1);
            text = text.slice(0, i) + s + text.slice(i);
          }
          const parse = old ? parseLines : parseLua;
          let sheet;
          try {
            sheet = parse(text);
          } catch (e) {
            if (e instanceof FormatError) return;
            throw e;
          }
          // The same syntax: written, read back equal.
          const again = old ? parseLines(formatLines(sheet)) : parseLua(formatLua(sheet));
          expect(again).toEqual(sheet);
          // The other syntax: Lua always; the line syntax unless a name or image holds white space.
          expect(parseLua(formatLua(sheet))).toEqual(sheet);
          try {
            expect(parseLines(formatLines(sheet))).toEqual(sheet);
          } catch (e) {
            if (!(e instanceof FormatError) || !/cannot be written in the line syntax/.test(e.message)) throw e;
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('Solarus from the model: direction order', () => {
  const part = (sx: number) => ({ sheet: 0, sx, sy: 0, sw: 8, sh: 8, x: 0, y: 0 });
  const anim = (direction: string, sx: number) => ({
    name: 'walk',
    direction,
    loopTo: 0,
    frames: [{ durationMs: 100, parts: [part(sx)] }],
  });
  it('directions named by numbers go to their number, whatever the model order, without a note', async () => {
    const { modelToSheet } = await import('../../src/formats/solarus/index.js');
    const model: SpriteModel = { kind: 'sprite', name: 's', sheets: [{ path: 'a.png' }], animations: [anim('1', 8), anim('0', 0)] };
    const sheet = modelToSheet('solarus-lua', model);
    expect(sheet.animations[0]!.directions.map((d) => d.x)).toEqual([0, 8]);
    expect(model.notes ?? []).toEqual([]);
  });
  it('other names keep the model order, and a note says which number each became', async () => {
    const { modelToSheet } = await import('../../src/formats/solarus/index.js');
    const model: SpriteModel = { kind: 'sprite', name: 's', sheets: [{ path: 'a.png' }], animations: [anim('left', 0), anim('up', 8)] };
    modelToSheet('solarus', model);
    expect(model.notes).toEqual(['solarus: animation "walk": directions left -> 0, up -> 1 (Solarus numbers its directions)']);
  });
  it('compass names (CTHG views) go to the number the one table gives them (0 east, 1 north, 2 west, 3 south), with a note', async () => {
    const { modelToSheet } = await import('../../src/formats/solarus/index.js');
    const model: SpriteModel = {
      kind: 'sprite',
      name: 's',
      sheets: [{ path: 'a.png' }],
      animations: [anim('north', 0), anim('east', 8), anim('south', 16), anim('west', 24)],
    };
    const sheet = modelToSheet('solarus', model);
    expect(sheet.animations[0]!.directions.map((d) => d.x)).toEqual([8, 0, 24, 16]);
    expect(model.notes).toEqual([
      'solarus: compass directions are written as Solarus numbers them (0 east, 1 north, 2 west, 3 south; one direction: 0): "walk" north -> 1, east -> 0, south -> 3, west -> 2',
    ]);
  });
  it('compass names that do not fill 0 … n-1 keep the model order, with the note', async () => {
    const { modelToSheet } = await import('../../src/formats/solarus/index.js');
    const model: SpriteModel = { kind: 'sprite', name: 's', sheets: [{ path: 'a.png' }], animations: [anim('north', 0), anim('south', 8)] };
    const sheet = modelToSheet('solarus', model);
    expect(sheet.animations[0]!.directions.map((d) => d.x)).toEqual([0, 8]);
    expect(model.notes).toEqual(['solarus: animation "walk": directions north -> 0, south -> 1 (Solarus numbers its directions)']);
  });
});
