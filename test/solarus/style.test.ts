/**
 * Issue 14 (Solarus part): files are written again in the style they were
 * read in (the official converter's or the Quest Editor's, line endings,
 * indentation, BOM, line breaks; the line syntax line by line), and
 * `convert --style converter|editor` chooses the Lua syntax's style.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { validate } from '../../src/api.js';
import {
  formatLines,
  formatLua,
  readLines,
  readLua,
  solarusHandler,
  solarusLuaHandler,
  type SolarusStyle,
} from '../../src/formats/solarus/index.js';
import { runCli } from '../helpers/cli.js';
import { CORPUS } from '../helpers/paths.js';
import { enc, warnings } from './helpers.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'sprat-solstyle-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const FOLDERS = {
  old: path.join(CORPUS, 'solarus/zsdx/old'),
  new: path.join(CORPUS, 'solarus/zsdx/new'),
  editor: path.join(CORPUS, 'solarus/quest-editor-initial/data/sprites'),
};
function files(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .map(String)
    .filter((f) => f.endsWith('.dat'))
    .map((f) => f.split(path.sep).join('/'))
    .sort();
}
const bytesOf = (dir: string, id: string) => new Uint8Array(readFileSync(path.join(dir, id)));
// ignoreBOM: a BOM is kept in the text (compared, not dropped).
const dec = new TextDecoder('utf-8', { ignoreBOM: true });
const kindOf = (bytes: Uint8Array) => {
  const s = readLua(bytes).style?.() as SolarusStyle | undefined;
  return s?.syntax === 'solarus-lua' ? s.kind : undefined;
};

describe('Solarus styles: every corpus file re-writes to its own bytes', () => {
  it('the corpus folders hold 207 + 207 + 55 files', () => {
    expect([files(FOLDERS.old).length, files(FOLDERS.new).length, files(FOLDERS.editor).length]).toEqual([207, 207, 55]);
  });

  for (const [which, dir] of Object.entries(FOLDERS)) {
    it(`sprat convert X Y (same format) gives X's bytes: ${which}`, async () => {
      const out = path.join(tmp, which);
      mkdirSync(out, { recursive: true });
      for (const id of files(dir)) {
        const target = path.join(out, id.replace(/\//g, '__'));
        const r = await runCli(['convert', path.join(dir, id), target]);
        expect(r.code, `${id}: ${r.stderr}`).toBe(0);
        expect(Buffer.from(readFileSync(target)).equals(Buffer.from(bytesOf(dir, id))), id).toBe(true);
      }
    });
  }

  it('the library does the same (handler read, then write)', () => {
    for (const [which, dir] of Object.entries(FOLDERS)) {
      const h = which === 'old' ? solarusHandler : solarusLuaHandler;
      for (const id of files(dir)) {
        const b = bytesOf(dir, id);
        expect(Buffer.from(h.write!(h.read(b))).equals(Buffer.from(b)), `${which}/${id}`).toBe(true);
      }
    }
  });

  it('finds the style: the converter for zsdx, the editor for 40 of the 55 quest-editor files (15 are still in the converter style)', () => {
    expect(new Set(files(FOLDERS.new).map((id) => kindOf(bytesOf(FOLDERS.new, id))))).toEqual(new Set(['converter']));
    const kinds = files(FOLDERS.editor).map((id) => kindOf(bytesOf(FOLDERS.editor, id)));
    expect(kinds.filter((k) => k === 'editor').length).toBe(40);
    expect(kinds.filter((k) => k === 'converter').length).toBe(15);
  });

  it('re-encodes rather than copies: a changed value is written in the file style, the rest unchanged', () => {
    const id = 'citizens/old_man.dat';
    const b = bytesOf(FOLDERS.editor, id);
    const sheet = solarusLuaHandler.read(b);
    sheet.animations[0]!.frameDelay = 650;
    const want = dec.decode(b).replace('frame_delay = 600,', 'frame_delay = 650,');
    expect(dec.decode(solarusLuaHandler.write!(sheet))).toBe(want);
  });
});

describe('--style converter|editor', () => {
  it('editor -> converter -> editor gives back the editor files, converter -> editor -> converter the zsdx files', async () => {
    for (const [dir, there, back] of [
      [FOLDERS.editor, 'converter', 'editor'],
      [FOLDERS.new, 'editor', 'converter'],
    ] as const) {
      for (const id of files(dir)) {
        const b = bytesOf(dir, id);
        if (dir === FOLDERS.editor && kindOf(b) !== 'editor') continue;
        const mid = formatLua(readLua(b), undefined, there);
        expect(kindOf(enc(mid)), id).toBe(there);
        expect(formatLua(readLua(enc(mid)), undefined, back), id).toBe(dec.decode(b));
      }
    }
  });

  it("writes the editor's rules: default animation first, origins always, no empty line, frame_to_loop_on only with a delay", () => {
    const text = [
      'animation{ name = "b", src_image = "x.png", frame_delay = 100, frame_to_loop_on = 1, directions = {',
      '  { x = 0, y = 0, frame_width = 8, frame_height = 8, num_frames = 3, num_columns = 2 } } }',
      'animation{ name = "a", src_image = "x.png", directions = { { x = 8, y = 0, frame_width = 8, frame_height = 8, origin_x = 4 } } }',
    ].join('\n');
    expect(formatLua(readLua(enc(text)), undefined, 'editor')).toBe(
      [
        'animation{',
        '  name = "b",',
        '  src_image = "x.png",',
        '  frame_delay = 100,',
        '  frame_to_loop_on = 1,',
        '  directions = {',
        '    { x = 0, y = 0, frame_width = 8, frame_height = 8, origin_x = 0, origin_y = 0, num_frames = 3, num_columns = 2 },',
        '  },',
        '}',
        'animation{',
        '  name = "a",',
        '  src_image = "x.png",',
        '  directions = {',
        '    { x = 8, y = 0, frame_width = 8, frame_height = 8, origin_x = 4, origin_y = 0 },',
        '  },',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('keeps frame_to_loop_on with frame_delay 0 (the editor drops it; nothing read is lost)', () => {
    const text =
      'animation{ name = "a", src_image = "x.png", frame_to_loop_on = 0, directions = { { x = 0, y = 0, frame_width = 8, frame_height = 8 } } }';
    const out = formatLua(readLua(enc(text)), undefined, 'editor');
    expect(out).toContain('  frame_to_loop_on = 0,\n');
    expect(readLua(enc(out))).toEqual(readLua(enc(text)));
  });

  it('keeps line endings, indentation and BOM of the input when another style is asked for', () => {
    const text =
      '\ufeffanimation{\r\n\tname = "a",\r\n\tsrc_image = "x.png",\r\n\tdirections = {\r\n\t\t{ x = 0, y = 0, frame_width = 8, frame_height = 8 },\r\n\t},\r\n}\r\n\r\n';
    const b = enc(text);
    expect(dec.decode(solarusLuaHandler.write!(solarusLuaHandler.read(b)))).toBe(text);
    expect(dec.decode(solarusLuaHandler.write!(solarusLuaHandler.read(b), { style: 'editor' }))).toBe(
      '\ufeffanimation{\r\n\tname = "a",\r\n\tsrc_image = "x.png",\r\n\tdirections = {\r\n\t\t{ x = 0, y = 0, frame_width = 8, frame_height = 8, origin_x = 0, origin_y = 0 },\r\n\t},\r\n}\r\n',
    );
  });

  it('on the command line: line syntax to Lua in the editor style; a bad value or the line syntax as output is exit 2', async () => {
    const OLD = path.join(FOLDERS.old, 'hud/magic_bar.dat');
    const out = path.join(tmp, 'magic_bar_editor.lua');
    const r = await runCli(['convert', OLD, out, '--style', 'editor']);
    expect(r.code, r.stderr).toBe(0);
    const written = readFileSync(out, 'utf8');
    expect(written).toContain('origin_x = 0, origin_y = 0');
    expect(written).not.toContain('\n\n');
    expect(readLua(enc(written))).toEqual(readLines(bytesOf(FOLDERS.old, 'hud/magic_bar.dat')));
    const bad = await runCli(['convert', OLD, path.join(tmp, 'x.lua'), '--style', 'pretty']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^sprat: error: .*--style/);
    const line = await runCli([
      'convert',
      path.join(FOLDERS.new, 'hud/magic_bar.dat'),
      path.join(tmp, 'y.dat'),
      '--to',
      'solarus',
      '--style',
      'editor',
    ]);
    expect(line.code).toBe(2);
    expect(line.stderr).toMatch(/--style editor applies to the Lua syntax \(solarus-lua\) only/);
    expect(line.stderr.split('\n').length).toBe(2);
  });
});

describe('the line syntax keeps its layout', () => {
  const text =
    '\r\n  walk  hero.png 2 100\t-1  \r\n0\t0\t8\t8\t4\t8\t2\t2\r\n 8 0 8 8 4 8 2 2\r\n\r\n\r\nstop hero.png 1 0 -1\r\n0   8   8   8   4   8   1   1';

  it('every line as it was, CR LF, no final line break', () => {
    expect(formatLines(readLines(enc(text)))).toBe(text);
  });

  it('changed values and new animations or directions: the new ones in the contract layout', () => {
    const sheet = solarusHandler.read(enc(text));
    sheet.animations[1]!.frameDelay = 50;
    sheet.animations[1]!.directions.push({ ...sheet.animations[1]!.directions[0]!, y: 16 });
    sheet.animations.push({
      name: 'new',
      image: 'hero.png',
      frameDelay: 0,
      loopOnFrame: -1,
      directions: [{ ...sheet.animations[1]!.directions[0]! }],
    });
    expect(dec.decode(solarusHandler.write!(sheet))).toBe(
      text.replace('stop hero.png 1 0 -1', 'stop hero.png 2 50 -1') +
        '\r\n0   16   8   8   4   8   1   1\r\nnew hero.png 1 0 -1\r\n0\t8\t8\t8\t4\t8\t1\t1\r\n\r\n',
    );
  });

  it('a sheet not read from a file, or style null: the contract layout', () => {
    const sheet = readLines(enc(text));
    const plain =
      'walk hero.png 2 100 -1\n0\t0\t8\t8\t4\t8\t2\t2\n8\t0\t8\t8\t4\t8\t2\t2\n\nstop hero.png 1 0 -1\n0\t8\t8\t8\t4\t8\t1\t1\n\n';
    expect(formatLines(sheet, null)).toBe(plain);
    expect(formatLines({ animations: sheet.animations })).toBe(plain);
  });
});

describe('num_columns > num_frames (contract rule 6: accepted, one row, in both syntaxes)', () => {
  it('the Lua syntax: a warning with its place (Solarus 1.2+ refuses to load it), valid; written as it is in both styles', () => {
    const text =
      'animation{ name = "a", src_image = "x.png", frame_delay = 9, directions = { { x = 0, y = 0, frame_width = 8, frame_height = 8, num_frames = 2, num_columns = 5 } } }';
    const w = warnings();
    const sheet = readLua(enc(text), { warn: w.warn });
    expect(w.list.map((d) => [d.message, d.line, d.column])).toEqual([
      [expect.stringContaining('animation "a" direction 0: num_columns 5 > num_frames 2 (one row; Solarus 1.x rejects this)'), 1, 77],
    ]);
    const v = validate(enc(text), 'a.dat');
    expect(v.format).toBe('solarus-lua');
    expect(v.valid).toBe(true);
    expect(v.diagnostics.map((d) => d.severity)).toEqual(['warning']);
    for (const style of ['converter', 'editor'] as const) {
      const notes: string[] = [];
      const out = formatLua(sheet, (n) => notes.push(n), style);
      expect(out).toContain('num_frames = 2, num_columns = 5 }');
      expect(notes).toEqual(['animation "a" direction 0: num_columns 5 > num_frames 2, which Solarus 1.x rejects']);
    }
  });

  it('the line syntax: accepted without a warning (the 0.9 engine drew one row)', () => {
    const w = warnings();
    const sheet = readLines(enc('a x.png 1 9 -1\n0 0 8 8 0 0 2 5\n'), { warn: w.warn });
    expect(w.list).toEqual([]);
    expect(sheet.animations[0]!.directions[0]!.columns).toBe(5);
    expect(validate(enc('a x.png 1 9 -1\n0 0 8 8 0 0 2 5\n'), 'a.dat').diagnostics).toEqual([]);
  });
});
