/**
 * Editing in place (src/edit.ts and each format's `edits`): each edit the
 * viewer offers, written by the format's writer, reads back with the value
 * changed, and `diff` of the two documents (the library's and `sprat diff`)
 * names that change only; the file's style is kept (writing the edited
 * document back to the old value gives the file's bytes again); bad values
 * are one-line errors naming the item and the range.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { load, type Loaded } from '../../src/api.js';
import { applyEdit, editables, editedBytes } from '../../src/edit.js';
import { changeText, diffDocuments } from '../../src/diff.js';
import type { CommandOptions, EditableValue } from '../../src/formats/types.js';
import { runCli } from '../helpers/cli.js';
import { CORPUS, SAMPLES } from '../helpers/paths.js';

const QUEST = path.join(CORPUS, 'solarus/quest-editor-initial/data/sprites');
const ZSDX_OLD = path.join(CORPUS, 'solarus/zsdx/old');

function read(file: string): { bytes: Uint8Array; loaded: Loaded } {
  const bytes = new Uint8Array(readFileSync(file));
  return { bytes, loaded: load(bytes, path.basename(file)) };
}

function find(list: EditableValue[], key: RegExp): EditableValue {
  const v = list.find((e) => key.test(e.key));
  if (!v) throw new Error(`no editable ${key} among ${list.map((e) => e.key).join(', ')}`);
  return v;
}

/** Applies `values` to the editable `key` of view `view` at `frame`; the saved bytes, read back, and the changes diff names. */
function edit(file: string, view: CommandOptions, frame: number, key: RegExp, values: number[]) {
  const { bytes, loaded } = read(file);
  const value = find(editables(loaded, view, frame), key);
  const changed = applyEdit(loaded, value, values);
  const saved = editedBytes(changed);
  const back = load(saved, path.basename(file));
  const changes = diffDocuments(loaded, back).map(changeText);
  // Set back to what it was: the file's own bytes (its style kept).
  const again = editedBytes(
    applyEdit(
      changed,
      find(editables(changed, view, frame), key),
      value.parts.map((p) => p.value),
    ),
  );
  return { bytes, loaded, value, saved, back, changes, again };
}

describe('Solarus edits', () => {
  const lines = path.join(SAMPLES, 'solarus/sprites/slime.dat');
  const lua = path.join(SAMPLES, 'solarus/sprites/slime_lua.dat');

  it('offers frame_delay, the loop frame and the origin of the picture shown, in the syntax’s words', () => {
    const { loaded } = read(lua);
    const list = editables(loaded, { animation: 'walking', direction: '1' }, 0);
    expect(list.map((e) => e.label)).toEqual([
      'animation "walking" frame_delay',
      'animation "walking" frame_to_loop_on',
      'animation "walking" direction 1 origin',
    ]);
    const lineList = editables(read(lines).loaded, { animation: 'walking', direction: '1' }, 0);
    expect(lineList[1]!.label).toBe('animation "walking" loop_on_frame');
    // The whole sheet (no animation chosen) offers nothing.
    expect(editables(loaded, {}, 0)).toEqual([]);
  });

  for (const file of [lines, lua]) {
    const name = path.basename(file);
    it(`${name}: frame_delay, loop frame and origin each change alone, in the file's style`, () => {
      const delay = edit(file, { animation: 'walking', direction: '0' }, 0, /frameDelay$/, [321]);
      expect(delay.changes).toEqual([`animation walking: frameDelay ${delay.value.parts[0]!.value} -> 321`]);
      expect(delay.again).toEqual(delay.bytes);

      const loop = edit(file, { animation: 'walking', direction: '0' }, 0, /loopOnFrame$/, [-1]);
      expect(loop.changes).toEqual([`animation walking: loopOnFrame ${loop.value.parts[0]!.value} -> -1`]);
      expect(loop.again).toEqual(loop.bytes);

      const origin = edit(file, { animation: 'walking', direction: '2' }, 0, /origin$/, [5, -3]);
      const [ox, oy] = origin.value.parts.map((p) => p.value);
      expect(origin.changes).toEqual([
        `animation walking, direction 2: originX ${ox} -> 5`,
        `animation walking, direction 2: originY ${oy} -> -3`,
      ]);
      expect(origin.again).toEqual(origin.bytes);
    });
  }

  it('refuses values the engine would not take, in one line naming the animation and the range', () => {
    const { loaded } = read(lua);
    const list = editables(loaded, { animation: 'walking', direction: '0' }, 0);
    const [delay, loop, origin] = list as [EditableValue, EditableValue, EditableValue];
    expect(() => delay.apply([-1])).toThrow(
      /^animation "walking" frame_delay -1 cannot be set: it must be a whole number from 0 to 2147483647$/,
    );
    expect(() => delay.apply([1.5])).toThrow(/whole number/);
    const frames = loop.parts[0]!.max + 1;
    expect(() => loop.apply([frames])).toThrow(
      new RegExp(`^animation "walking" frame_to_loop_on ${frames} cannot be set: it must be a whole number from -1 to ${frames - 1}$`),
    );
    expect(() => loop.apply([-2])).toThrow(/from -1 to/);
    expect(() => origin.apply([0, 2 ** 31])).toThrow(/origin y 2147483648 cannot be set/);
    expect(() => origin.apply([Number.NaN, 0])).toThrow(/origin x NaN cannot be set/);
    expect(() => origin.apply([1])).toThrow(/2 values needed, 1 given/);
    // The document given is left as it was.
    expect(diffDocuments(loaded, read(lua).loaded)).toEqual([]);
  });

  const questFiles = [
    path.join(QUEST, 'hero/tunic1.dat'),
    path.join(QUEST, 'enemies/slime_green.dat'),
    path.join(ZSDX_OLD, 'hero/sword1.dat'),
  ];
  it.skipIf(!questFiles.every(existsSync))(
    'real quest files (Quest Editor Lua, 0.9 lines): saved with only the edit changed, byte for byte elsewhere',
    () => {
      for (const file of questFiles) {
        const { bytes, loaded } = read(file);
        // The file as read, written again: its own bytes (the style kept).
        expect(editedBytes(loaded), file).toEqual(bytes);
        const view = loaded.handler.renderViews!(loaded.doc)[0]!.options;
        const r = edit(file, view, 0, /frameDelay$/, [77]);
        expect(r.changes, file).toEqual([`animation ${view.animation}: frameDelay ${r.value.parts[0]!.value} -> 77`]);
        expect(r.again, file).toEqual(bytes);
        // Only the line that holds the value differs (or is added, where the file left a 0 delay out).
        const before = new TextDecoder().decode(bytes).split('\n');
        const after = new TextDecoder().decode(r.saved).split('\n');
        let head = 0;
        while (head < before.length && before[head] === after[head]) head++;
        let tail = 0;
        while (tail < before.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
        expect(before.length - head - tail, file).toBeLessThanOrEqual(1);
        expect(after.length - head - tail, file).toBe(1);
      }
    },
  );
});

describe('ISPRITE edits', () => {
  const file = path.join(SAMPLES, 'isprite/hero.isprite');

  it('offers the frame’s hold time and each element’s position; each changes alone', () => {
    const { loaded, bytes } = read(file);
    expect(editedBytes(loaded)).toEqual(bytes);
    const view = loaded.handler.renderViews!(loaded.doc)[0]!.options;
    const list = editables(loaded, view, 0);
    expect(list[0]!.label).toMatch(/^frame \d+ hold time$/);
    expect(list.length).toBeGreaterThan(1);
    expect(list[1]!.label).toMatch(/^frame \d+ element 0 \(\w+.*\) position$/);

    const hold = edit(file, view, 0, /holdTime$/, [7]);
    const id = /^frame (\d+)/.exec(hold.value.key)![1];
    expect(hold.changes).toEqual([`frame ${id}: holdTime ${hold.value.parts[0]!.value} -> 7`]);
    expect(hold.again).toEqual(bytes);

    const pos = edit(file, view, 0, /element 0 position$/, [12.5, -3]);
    const [x, y] = pos.value.parts.map((p) => p.value);
    expect(pos.changes).toEqual([`frame ${id}, element 0: x ${x} -> 12.5`, `frame ${id}, element 0: y ${y} -> -3`]);
    expect(pos.again).toEqual(bytes);
  });

  it('refuses a hold time outside 1-65535 and a position the fixed point cannot hold', () => {
    const { loaded } = read(file);
    const list = editables(loaded, loaded.handler.renderViews!(loaded.doc)[0]!.options, 0);
    const hold = list[0]!;
    expect(() => hold.apply([0])).toThrow(/^frame \d+ hold time 0 cannot be set: it must be a whole number from 1 to 65535$/);
    expect(() => hold.apply([65536])).toThrow(/from 1 to 65535/);
    const pos = list[1]!;
    expect(() => pos.apply([40000, 0])).toThrow(
      /position x 40000 cannot be set: it must be a multiple of 1\/256 from -32768 to 32767.996$/,
    );
    expect(() => pos.apply([0, 0.001])).toThrow(/position y 0.001 cannot be set: it must be a multiple of 1\/256/);
  });

  it('offers nothing for pictures not drawn one frame per position (an attached sprite)', () => {
    const { loaded } = read(file);
    const view = loaded.handler.renderViews!(loaded.doc)[0]!.options;
    expect(editables(loaded, { ...view, attach: 'hand=other.isprite' }, 0)).toEqual([]);
    expect(editables(loaded, view, 10_000)).toEqual([]);
  });
});

describe('CTHG edits', () => {
  const file = path.join(SAMPLES, 'cthg/fan.dat');

  it('offers each element’s offset in the frame shown; it changes alone, the rest byte for byte', () => {
    const { loaded, bytes } = read(file);
    expect(editedBytes(loaded)).toEqual(bytes);
    const view = loaded.handler.renderViews!(loaded.doc)[0]!.options;
    const list = editables(loaded, view, 1);
    expect(list.length).toBeGreaterThan(0);
    expect(list[0]!.label).toMatch(/^frame \d+ element 0 \(sprite \d+\) offset$/);
    const r = edit(file, view, 1, /element 0 offset$/, [-20, 31]);
    const id = /^frame (\d+)/.exec(r.value.key)![1];
    const [x, y] = r.value.parts.map((p) => p.value);
    expect(r.changes).toEqual([`frame ${id}, element 0: x ${x} -> -20`, `frame ${id}, element 0: y ${y} -> 31`]);
    expect(r.again).toEqual(bytes);
    // Only the element's four offset bytes differ.
    let differ = 0;
    for (let i = 0; i < bytes.length; i++) if (bytes[i] !== r.saved[i]) differ++;
    expect(r.saved.length).toBe(bytes.length);
    expect(differ).toBeLessThanOrEqual(4);
  });

  it('refuses an offset outside the 16-bit range', () => {
    const { loaded } = read(file);
    const [off] = editables(loaded, loaded.handler.renderViews!(loaded.doc)[0]!.options, 0);
    expect(() => off!.apply([32768, 0])).toThrow(/offset x 32768 cannot be set: it must be a whole number from -32768 to 32767$/);
  });
});

describe('sprat diff ORIGINAL SAVED', () => {
  it('names exactly the edits, for each format', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sprat-edit-'));
    try {
      const cases: [string, number, RegExp, number[], RegExp][] = [
        [path.join(SAMPLES, 'solarus/sprites/slime_lua.dat'), 0, /frameDelay$/, [250], /^animation \S+: frameDelay \d+ -> 250$/],
        [path.join(SAMPLES, 'isprite/hero.isprite'), 0, /holdTime$/, [9], /^frame \d+: holdTime \d+ -> 9$/],
        [
          path.join(SAMPLES, 'cthg/fan.dat'),
          0,
          /element 0 offset$/,
          [3, 4],
          /^frame \d+, element 0: x -?\d+ -> 3\nframe \d+, element 0: y -?\d+ -> 4$/,
        ],
      ];
      for (const [file, frame, key, values, want] of cases) {
        const { loaded } = read(file);
        const view = loaded.handler.renderViews!(loaded.doc)[0]!.options;
        const saved = editedBytes(applyEdit(loaded, find(editables(loaded, view, frame), key), values));
        const out = path.join(dir, `saved-${path.basename(file)}`);
        writeFileSync(out, saved);
        const r = await runCli(['diff', file, out]);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout.trim(), file).toMatch(want);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
