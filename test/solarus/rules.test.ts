import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/binary/errors.js';
import { parseLines, parseLua, solarusHandler, solarusLuaHandler, type SolarusSheet } from '../../src/formats/solarus/index.js';
import { enc, warnings } from './helpers.js';
import { errorOf } from '../helpers/errors.js';

function at(e: FormatError): [number, number] {
  return [e.line!, e.column!];
}

const lines = (t: string) => parseLines(t);
const lua = (t: string) => parseLua(t);
const DIR = '{ x = 0, y = 0, frame_width = 8, frame_height = 8, num_frames = 2 }';
const luaAnim = (fields: string) => `animation{\n  name = "a",\n  src_image = "s.png",\n${fields}  directions = { ${DIR} },\n}\n`;

describe('Solarus line syntax', () => {
  it('reads the spec example, white space of any kind, empty lines and CR LF', () => {
    const t =
      '\r\n  stopped hero/stopped.tunic.png\t4 0 -1  \r\n0\t0\t24\t24\t12\t21\t1\t1\r\n 24 0  24 24 12 21 1 1\r\n\r\n\t\r\n72\t0\t24\t24\t12\t21\t1\t1\n96\t0\t24\t24\t12\t21\t1\t1\n\n' +
      'walking hero/walking.tunic.png 4 100 0\n0\t0\t24\t32\t12\t29\t8\t8\n0\t32\t24\t32\t12\t29\t8\t8\n0\t96\t24\t32\t12\t29\t8\t8\n0\t128\t24\t32\t12\t29\t8\t8';
    const w = warnings();
    const s = parseLines(t, { warn: w.warn });
    expect(w.list).toEqual([]);
    expect(s.animations.map((a) => [a.name, a.image, a.directions.length, a.frameDelay, a.loopOnFrame])).toEqual([
      ['stopped', 'hero/stopped.tunic.png', 4, 0, -1],
      ['walking', 'hero/walking.tunic.png', 4, 100, 0],
    ]);
    expect(s.animations[0]!.directions[1]).toEqual({
      x: 24,
      y: 0,
      frameWidth: 24,
      frameHeight: 24,
      originX: 12,
      originY: 21,
      frameCount: 1,
      columns: 1,
    });
  });

  it('rule 1: a line cut short is an error at the end of the line', () => {
    expect(at(errorOf(() => lines('walk hero.png 1 100\n')))).toEqual([1, 20]);
    expect(errorOf(() => lines('walk hero.png 1 100\n')).reason).toMatch(/expected loop_on_frame/);
    expect(at(errorOf(() => lines('walk hero.png 1 100 -1\n0 0 16 16 8 8 2\n')))).toEqual([2, 16]);
    expect(at(errorOf(() => lines('walk\n')))).toEqual([1, 5]);
  });

  it('rule 1: a non-integer token is an error at the token', () => {
    expect(at(errorOf(() => lines('walk hero.png x 100 -1\n')))).toEqual([1, 15]);
    expect(at(errorOf(() => lines('walk hero.png 1 1.5 -1\n')))).toEqual([1, 17]);
    expect(at(errorOf(() => lines('walk hero.png 1 +5 -1\n')))).toEqual([1, 17]);
    expect(at(errorOf(() => lines('walk hero.png 1 5 -\n')))).toEqual([1, 19]);
    expect(at(errorOf(() => lines('a b 1 0 -1\n\n  0 0 8 8 0 0 1 z\n')))).toEqual([3, 17]);
    expect(at(errorOf(() => lines('a b 1 0 -1\n0 0 8 8 0 0 1 99999999999\n')))).toEqual([2, 15]);
  });

  it('rule 1: end of file inside an animation', () => {
    const e = errorOf(() => lines('walk hero.png 2 100 -1\n0 0 16 16 8 8 2 2\n'));
    expect(at(e)).toEqual([3, 1]);
    expect(e.reason).toMatch(/end of file inside animation "walk".*2 directions announced, 1 found/);
    expect(at(errorOf(() => lines('walk hero.png 2 100 -1\n0 0 16 16 8 8 2 2')))).toEqual([2, 18]);
  });

  it('rule 2: extra tokens are a warning at the first extra token', () => {
    const w = warnings();
    const s = parseLines('a b 1 0 -1 x\n0 0 8 8 0 0 1 1\t9 9\n', { warn: w.warn });
    expect(s.animations.length).toBe(1);
    expect(w.list.map((d) => [d.severity, d.line, d.column])).toEqual([
      ['warning', 1, 12],
      ['warning', 2, 17],
    ]);
  });

  it('rule 3: two animations with the same name', () => {
    const e = errorOf(() => lines('a b 1 0 -1\n0 0 8 8 0 0 1 1\n\n a c 1 0 -1\n0 0 8 8 0 0 1 1\n'));
    expect(at(e)).toEqual([4, 2]);
    expect(e.reason).toMatch(/duplicate animation name "a"/);
  });

  it('rule 4: directions, frames, columns < 1; frame_delay < 0; loop_on_frame < -1', () => {
    expect(at(errorOf(() => lines('a b 0 0 -1\n')))).toEqual([1, 5]);
    expect(at(errorOf(() => lines('a b 1 -1 -1\n')))).toEqual([1, 7]);
    expect(at(errorOf(() => lines('a b 1 0 -2\n')))).toEqual([1, 9]);
    expect(at(errorOf(() => lines('a b 1 0 -1\n0 0 8 8 0 0 0 1\n')))).toEqual([2, 13]);
    expect(at(errorOf(() => lines('a b 1 0 -1\n0 0 8 8 0 0 1 0\n')))).toEqual([2, 15]);
    expect(at(errorOf(() => lines('a b 1 0 -1\n0 0 0 8 0 0 1 1\n')))).toEqual([2, 5]);
  });

  it('rule 5: loop_on_frame out of range: error in validate, warning elsewhere', () => {
    const t = 'a b 2 100 2\n0 0 8 8 0 0 3 3\n0 8 8 8 0 0 2 2\n';
    const w = warnings();
    expect(parseLines(t, { warn: w.warn }).animations[0]!.loopOnFrame).toBe(2);
    expect(w.list.map((d) => [d.line, d.column])).toEqual([[1, 11]]);
    expect(w.list[0]!.message).toMatch(/loop_on_frame 2 is not a frame of direction 1/);
    const v = solarusHandler.validate(enc(t));
    expect(v.map((d) => [d.severity, d.line, d.column])).toEqual([['error', 1, 11]]);
  });

  it('rule 6: columns > frames is accepted as one row', () => {
    const w = warnings();
    const s = parseLines('a b 1 100 0\n0 0 8 8 0 0 3 7\n', { warn: w.warn });
    expect(w.list).toEqual([]);
    expect(s.animations[0]!.directions[0]!.columns).toBe(7);
    expect(solarusHandler.validate(enc('a b 1 100 0\n0 0 8 8 0 0 3 7\n'))).toEqual([]);
  });

  it('rule 7: frame_delay 0 with several frames is a warning', () => {
    const w = warnings();
    parseLines('a b 1 0 -1\n0 0 8 8 0 0 3 3\n', { warn: w.warn });
    expect(w.list.map((d) => [d.severity, d.line, d.column])).toEqual([['warning', 1, 7]]);
    expect(w.list[0]!.message).toMatch(/first frame shows forever/);
  });

  it('writes header fields with spaces, direction fields with tabs, an empty line after each animation', () => {
    const s = parseLines('a  img.png\t1 100 0\n 1 2 3 4 5 6 7 8\n');
    expect(new TextDecoder().decode(solarusHandler.write!(s))).toBe('a img.png 1 100 0\n1\t2\t3\t4\t5\t6\t7\t8\n\n');
    expect(() => solarusHandler.write!({ animations: [{ ...s.animations[0]!, name: 'two words' }] })).toThrow(FormatError);
  });

  it('an empty file has no animation (a warning)', () => {
    const w = warnings();
    expect(parseLines('\n\n', { warn: w.warn })).toEqual({ animations: [] });
    expect(w.list.length).toBe(1);
  });
});

describe('Solarus Lua syntax', () => {
  const expected: SolarusSheet = {
    animations: [
      {
        name: 'a',
        image: 's.png',
        frameDelay: 0,
        loopOnFrame: -1,
        directions: [{ x: 0, y: 0, frameWidth: 8, frameHeight: 8, originX: 0, originY: 0, frameCount: 2, columns: 2 }],
      },
    ],
  };

  it('README: strings are decoded as UTF-8 (invalid sequences: the replacement character, and a validation warning), also from escapes', () => {
    const w = warnings();
    const s = parseLua(
      'animation{\n  name = "a\\xffb", src_image = "\\xc3\\xa9.png",\n  directions = { { x = 0, y = 0, frame_width = 8, frame_height = 8 } } }\n',
      { warn: w.warn },
    );
    expect(s.animations[0]!.name).toBe('a\ufffdb');
    expect(s.animations[0]!.image).toBe('\u00e9.png');
    expect(w.list.map((d) => [d.severity, d.line, d.column])).toEqual([['warning', 2, 10]]);
    expect(w.list[0]!.message).toMatch(/invalid UTF-8/);
    const v = solarusLuaHandler.validate(
      enc('animation{ name = "\\xff", src_image = "b", directions = { { x = 0, y = 0, frame_width = 8, frame_height = 8 } } }'),
    );
    expect(v.map((d) => d.severity)).toEqual(['warning']);
  });

  it('fills defaults and accepts both call forms, separators, comments, quotes and escapes', () => {
    expect(lua(luaAnim(''))).toEqual(expected);
    const t = `-- a comment\n--[==[ a\n long ]] comment ]==]\nanimation ( { name = 'a'; src_image = "s\\x2epng" ; directions = { ${DIR}; }; } ) ;\n`;
    expect(lua(t)).toEqual(expected);
    const s = lua(`animation{name="\\u{48}\\105\\z\n   \\"\\\\\\n\\t'",src_image="s.png",directions={${DIR}}}`);
    expect(s.animations[0]!.name).toBe('Hi"\\\n\t\'');
    expect(lua(`animation{ name = "\\195\\169", src_image = "s", directions = { ${DIR} } }`).animations[0]!.name).toBe('é');
  });

  it('reads negative numbers and the optional fields', () => {
    const s = lua(
      'animation{ name = "a", src_image = "s", frame_delay = 10, frame_to_loop_on = 1, directions = { { x = -4, y = - 2, frame_width = 8, frame_height = 9, origin_x = -1, origin_y = 3, num_frames = 4, num_columns = 2 } } }',
    );
    expect(s.animations[0]).toEqual({
      name: 'a',
      image: 's',
      frameDelay: 10,
      loopOnFrame: 1,
      directions: [{ x: -4, y: -2, frameWidth: 8, frameHeight: 9, originX: -1, originY: 3, frameCount: 4, columns: 2 }],
    });
  });

  it('an unknown key is a warning and is dropped', () => {
    const w = warnings();
    const s = parseLua(luaAnim('  speed = { 1, 2, { deep = true } },\n'), { warn: w.warn });
    expect(s).toEqual(expected);
    const unknown = w.list.filter((d) => /unknown key/.test(d.message));
    expect(unknown.map((d) => [d.severity, d.line, d.column])).toEqual([['warning', 4, 3]]);
    expect(unknown[0]!.message).toMatch(/unknown key "speed"/);
  });

  it('anything that is not data is an error with line and column', () => {
    expect(at(errorOf(() => lua('local x = 1\n')))).toEqual([1, 1]);
    expect(at(errorOf(() => lua('print("x")\n')))).toEqual([1, 1]);
    expect(at(errorOf(() => lua('animation{ name = "a" .. "b" }')))).toEqual([1, 23]);
    expect(at(errorOf(() => lua('animation{ name = foo }')))).toEqual([1, 19]);
    expect(at(errorOf(() => lua('animation{ name = "a", src_image = x .. y }')))).toEqual([1, 36]);
    expect(at(errorOf(() => lua('animation "x"')))).toEqual([1, 11]);
    expect(at(errorOf(() => lua('animation{ [1] = 2 }')))).toEqual([1, 12]);
    expect(at(errorOf(() => lua('animation{ name = function() end }')))).toEqual([1, 19]);
    expect(at(errorOf(() => lua(luaAnim('  frame_delay = 1.5,\n'))))).toEqual([4, 17]);
    expect(at(errorOf(() => lua(luaAnim('  frame_delay = 0x10,\n'))))).toEqual([4, 17]);
    expect(at(errorOf(() => lua(luaAnim('  frame_delay = "1",\n'))))).toEqual([4, 17]);
    expect(at(errorOf(() => lua(luaAnim('  frame_delay = 99999999999,\n'))))).toEqual([4, 17]);
    expect(at(errorOf(() => lua('animation{ name = [[x]] }')))).toEqual([1, 19]);
  });

  it('unbalanced braces, unfinished strings and comments', () => {
    expect(at(errorOf(() => lua('animation{ name = "a",\n')))).toEqual([2, 1]);
    expect(errorOf(() => lua('animation{ name = "a",\n')).reason).toMatch(/the end of the file/);
    expect(at(errorOf(() => lua(luaAnim('') + '}\n')))).toEqual([6, 1]);
    expect(at(errorOf(() => lua(`animation({ name = "a", src_image = "s", directions = { ${DIR} } }\n`)))).toEqual([2, 1]);
    expect(at(errorOf(() => lua('animation{ name = "abc\n }')))).toEqual([1, 19]);
    expect(at(errorOf(() => lua('\n  --[[ never closed\n')))).toEqual([2, 3]);
    expect(at(errorOf(() => lua('animation{ name = "a\\q" }')))).toEqual([1, 21]);
    expect(at(errorOf(() => lua('animation{ directions = { { x = 1 } } }')))).toEqual([1, 27]);
  });

  it('missing fields are errors at the table', () => {
    expect(errorOf(() => lua('animation{ src_image = "s", directions = {} }')).reason).toMatch(/directions must hold at least one/);
    expect(at(errorOf(() => lua(`\n animation{ src_image = "s", directions = { ${DIR} } }`)))).toEqual([2, 11]);
    expect(errorOf(() => lua(`animation{ name = "a", directions = { ${DIR} } }`)).reason).toMatch(/no src_image/);
    expect(errorOf(() => lua('animation{ name = "a", src_image = "s" }')).reason).toMatch(/no directions/);
  });

  it('rules 3-7 in the Lua syntax', () => {
    // 3
    const dup = luaAnim('') + luaAnim('');
    expect(at(errorOf(() => lua(dup)))).toEqual([7, 10]);
    // 4
    expect(at(errorOf(() => lua(luaAnim('  frame_delay = -1,\n'))))).toEqual([4, 17]);
    expect(at(errorOf(() => lua(luaAnim('  frame_to_loop_on = -2,\n'))))).toEqual([4, 22]);
    expect(
      at(
        errorOf(() =>
          lua(
            'animation{ name = "a", src_image = "s", directions = { { x = 0, y = 0, frame_width = 8, frame_height = 8, num_frames = 0 } } }',
          ),
        ),
      ),
    ).toEqual([1, 120]);
    expect(
      at(
        errorOf(() =>
          lua(
            'animation{ name = "a", src_image = "s", directions = { { x = 0, y = 0, frame_width = 8, frame_height = 8, num_columns = 0 } } }',
          ),
        ),
      ),
    ).toEqual([1, 121]);
    // 5
    const loop = luaAnim('  frame_delay = 100,\n  frame_to_loop_on = 2,\n');
    const w = warnings();
    parseLua(loop, { warn: w.warn });
    expect(w.list.map((d) => [d.line, d.column])).toEqual([[5, 22]]);
    expect(solarusLuaHandler.validate(enc(loop)).map((d) => [d.severity, d.line, d.column])).toEqual([['error', 5, 22]]);
    // 6
    const w6 = warnings();
    parseLua(
      'animation{ name = "a", src_image = "s", frame_delay = 9, directions = { { x = 0, y = 0, frame_width = 8, frame_height = 8, num_frames = 2, num_columns = 5 } } }',
      { warn: w6.warn },
    );
    expect(w6.list.map((d) => d.message)).toEqual([expect.stringMatching(/num_columns 5 > num_frames 2/)]);
    // 7
    const w7 = warnings();
    parseLua(luaAnim(''), { warn: w7.warn });
    expect(w7.list.map((d) => [d.line, d.column])).toEqual([[1, 10]]);
    const w7b = warnings();
    parseLua(luaAnim('  frame_delay = 0,\n'), { warn: w7b.warn });
    expect(w7b.list.map((d) => [d.line, d.column])).toEqual([[4, 17]]);
  });

  it('a key given twice: the last counts, with a warning', () => {
    const w = warnings();
    const s = parseLua(luaAnim('  frame_delay = 5, frame_delay = 7,\n'), { warn: w.warn });
    expect(s.animations[0]!.frameDelay).toBe(7);
    expect(w.list.map((d) => [d.line, d.column])).toEqual([[4, 20]]);
  });

  it('writes as the official converter, with Lua escapes where needed', () => {
    const s: SolarusSheet = {
      animations: [
        {
          name: 'q"\\\n\r',
          image: 'tileset',
          frameDelay: 0,
          loopOnFrame: -1,
          directions: [{ x: 1, y: 2, frameWidth: 3, frameHeight: 4, originX: 0, originY: 5, frameCount: 1, columns: 1 }],
        },
      ],
    };
    const text = new TextDecoder().decode(solarusLuaHandler.write!(s));
    expect(text).toBe(
      'animation{\n  name = "q\\"\\\\\\n\\013",\n  src_image = "tileset",\n  directions = {\n    { x = 1, y = 2, frame_width = 3, frame_height = 4, origin_y = 5 },\n  },\n}\n\n',
    );
    expect(parseLua(text)).toEqual(s);
  });
});

describe('Solarus numbers', () => {
  it('"-0" reads as 0 in both syntaxes', () => {
    const a = parseLines('a b 1 -0 -1\n-0 0 8 8 -0 0 1 1\n').animations[0]!;
    expect(Object.is(a.frameDelay, 0)).toBe(true);
    expect(Object.is(a.directions[0]!.x, 0)).toBe(true);
    const b = parseLua(
      'animation{ name = "a", src_image = "s", frame_delay = -0, directions = { { x = -0, y = 0, frame_width = 8, frame_height = 8 } } }',
    ).animations[0]!;
    expect(Object.is(b.frameDelay, 0)).toBe(true);
    expect(Object.is(b.directions[0]!.x, 0)).toBe(true);
  });
});
