/**
 * One option layer: every option value is checked against its spec
 * (choices, range, syntax) before any file is read, with one wording for
 * every command and format; selections that name nothing in the file exit 2
 * with one wording; the library gives the same messages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { load, render, convert } from '../../src/api.js';
import { OptionError } from '../../src/binary/errors.js';
import { COMMANDS } from '../../src/cli/main.js';
import { LIMIT_OPTIONS } from '../../src/cli/command.js';
import { FORMATS } from '../../src/registry.js';
import {
  checkOptionValue,
  choiceOption,
  flagOption,
  intOption,
  namesNothing,
  requireOption,
  selectIndex,
  selectNamed,
  sizeOption,
} from '../../src/formats/options.js';
import { ScriptError, playIsprite } from '../../src/formats/isprite/play-cli.js';
import type { OptionSpec } from '../../src/formats/types.js';
import { fsResourceLoader } from '../../src/node/fs.js';
import { runCli } from '../helpers/cli.js';
import { ROOT, SAMPLES } from '../helpers/paths.js';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-options-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Values each spec must reject (none for free text). */
function badValues(spec: OptionSpec): string[] {
  switch (spec.type) {
    case 'flag':
      return [];
    case 'int':
    case 'number': {
      const out = ['x'];
      if (spec.min !== undefined) out.push(String(spec.min - 1));
      if (spec.max !== undefined) out.push(String(spec.max + 1));
      return out;
    }
    case 'size':
      return [
        'x',
        ...(spec.min !== undefined ? [`${spec.min - 1}x${spec.min}`] : []),
        ...(spec.max !== undefined ? [`${spec.max}x${spec.max + 1}`] : []),
      ];
    default:
      if (spec.choices) return [`${spec.choices[0]}-nope`];
      if (spec.parse) {
        for (const v of ['x', '0:jump', '1=x=']) {
          try {
            if (spec.parse(v) === undefined) return [v];
          } catch {
            return [v];
          }
        }
      }
      return [];
  }
}

/** A command line naming a file that does not exist, in format `format` (or none). */
function argvFor(command: string, format: string | undefined): string[] {
  const ext = format ? (FORMATS.find((f) => f.name === format)!.extensions[0] ?? '.x') : '.x';
  const file = `missing${ext}`;
  switch (command) {
    case 'inspect':
    case 'validate':
    case 'play':
      return [command, file, ...(format ? ['--format', format] : [])];
    case 'render':
      return [command, file, '-o', 'out.png', ...(format ? ['--format', format] : [])];
    case 'convert':
      return [command, file, `out${ext}`, ...(format ? ['--from', format, '--to', format] : [])];
    case 'view':
      return [command, file];
    case 'diff':
      return [command, file, file, ...(format ? ['--format', format] : [])];
    default:
      return [command];
  }
}

describe('option values are checked against their specs before any file is read', () => {
  it('every command x format x option with a bad value: exit 2, one wording, not the missing file', async () => {
    let checked = 0;
    const seen = new Set<string>();
    for (const cmd of COMMANDS) {
      const formats: (string | undefined)[] = cmd.formatOptionKeys ? FORMATS.map((f) => f.name) : [undefined];
      for (const format of formats) {
        const handler = FORMATS.find((f) => f.name === format);
        const specs: OptionSpec[] = [...cmd.options, ...LIMIT_OPTIONS];
        for (const k of cmd.formatOptionKeys ?? []) specs.push(...(handler?.[k] ?? []));
        for (const spec of specs) {
          for (const value of badValues(spec)) {
            const argv = [...argvFor(cmd.name, format), `--${spec.name}`, value];
            const key = argv.join('\0');
            if (seen.has(key)) continue;
            seen.add(key);
            const r = await runCli(argv, dir);
            const what = argv.join(' ');
            expect(r.code, what).toBe(2);
            expect(r.stdout, what).toBe('');
            expect(r.stderr, what).toMatch(
              new RegExp(
                `^sprat: error: option --${escapeRe(spec.name)} must be [^\\n]+, not ${escapeRe(JSON.stringify(value))}( \\([^\\n]*\\))?\\n$`,
              ),
            );
            checked++;
          }
        }
        // a flag given a value, and a value-taking option given none
        for (const spec of specs.filter((s) => s.name !== 'help')) {
          const argv = [...argvFor(cmd.name, format), spec.type === 'flag' ? `--${spec.name}=yes` : `--${spec.name}`];
          const r = await runCli(argv, dir);
          expect([r.code, r.stderr], argv.join(' ')).toEqual([
            2,
            `sprat: error: option --${spec.name} ${spec.type === 'flag' ? 'takes no value' : 'needs a value'}\n`,
          ]);
        }
      }
    }
    expect(checked).toBeGreaterThan(300);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('the wording is the same whatever the format; the library gives the same message', () => {
    const scale: OptionSpec = { name: 'scale', type: 'int', min: 1, max: 64, description: '' };
    expect(() => checkOptionValue(scale, '99')).toThrow(new OptionError('option --scale must be 1 to 64, not "99"'));
    expect(() => checkOptionValue(scale, 'big')).toThrow(new OptionError('option --scale must be a whole number, not "big"'));
    expect(() => checkOptionValue(scale, true)).toThrow(new OptionError('option --scale needs a value'));
    expect(checkOptionValue(scale, ' 7 ')).toBe(7);
  });

  it('--layout arrray is a command-line error for both JSON sheet formats (it was accepted silently)', async () => {
    const hero = path.join(SAMPLES, 'interop', 'hero.json');
    for (const to of ['aseprite', 'texturepacker']) {
      const r = await runCli(['convert', hero, path.join(dir, 'x.json'), '--to', to, '--layout', 'arrray'], dir);
      expect([r.code, r.stderr]).toEqual([
        2,
        'sprat: error: option --layout must be one of hash, array, not "arrray", did you mean "array"?\n',
      ]);
    }
    expect(fs.readdirSync(dir)).toEqual([]);
    // the library: the same message
    const loaded = load(fs.readFileSync(hero), 'hero.json');
    const target = FORMATS.find((f) => f.name === 'texturepacker')!;
    await expect(convert(loaded, target, 'x.json', fsResourceLoader(path.dirname(hero)), { layout: 'arrray' })).rejects.toThrow(
      new OptionError('option --layout must be one of hash, array, not "arrray", did you mean "array"?'),
    );
  });

  it('with --format, a name two formats declare differently is checked by that format (--tileset)', async () => {
    const r = await runCli(['render', 'missing.bytes', '--format', 'spritetile', '-o', 'x.png', '--tileset', 'tiles.png'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^sprat: error: option --tileset must be SET=IMAGE\.png:WxH,\.\.\., not "tiles\.png" \(/);
    // Solarus takes any image path: the file is read, and is missing
    const s = await runCli(['render', 'missing.dat', '--format', 'solarus', '-o', 'x.png', '--tileset', 'tiles.png'], dir);
    expect([s.code, s.stderr]).toEqual([1, 'sprat: error: missing.dat: no such file\n']);
    // found from the content: the format's own spec once it is known
    const level = path.join(SAMPLES, 'spritetile', 'level.bytes');
    const t = await runCli(['render', level, '-o', 'x.png', '--tileset', 'tiles.png'], dir);
    expect(t.code).toBe(2);
    expect(t.stderr).toMatch(/^sprat: error: option --tileset must be SET=IMAGE\.png:WxH/);
  });

  it("--help shows each option's choices and range", async () => {
    const render = (await runCli(['render', '--help', '--all'])).stdout;
    expect(render).toMatch(/--scale N +enlarge [^\n]*\[1 to 64\]\n/);
    expect(render).toMatch(/--view north\|east\|south\|west /);
    expect(render).toMatch(/--frame-size WxH +[^\n]*\[each side 1 to 65536\]\n/);
    expect(render).toMatch(/--filter nearest\|bilinear /);
    expect(render).toMatch(/--max-pixels N +[^\n]*\[at least 1\]\n/);
    expect((await runCli(['convert', '--help', '--all'])).stdout).toMatch(/--layout hash\|array /);
    expect((await runCli(['convert', '--help', '--all'])).stdout).toMatch(/--lzf clzf2\|liblzf\|best /);
    expect((await runCli(['view', '--help'])).stdout).toMatch(/--port N +[^\n]*\[0 to 65535\]\n/);
  });
});

const S = (p: string) => path.join(SAMPLES, p);
const TEXTUREPACKER = path.join(ROOT, 'test', 'interop', 'fixtures', 'coins-pixi.json');

/** Every format with a sample that `render --frame` applies to, and the extra options it needs. */
const FRAME_SAMPLES: [string, string, string[]][] = [
  ['isprite', S('isprite/hero.isprite'), []],
  ['cthg', S('cthg/fan.dat'), []],
  ['solarus', S('solarus/sprites/slime.dat'), []],
  ['solarus-lua', S('solarus/sprites/slime_lua.dat'), []],
  ['hallgeir-sprite', S('hallgeir/hero.spr'), ['--frame-size', '16x16']],
  ['aseprite', S('interop/hero.json'), []],
  ['texturepacker', TEXTUREPACKER, []],
];

describe('selections that name nothing in the file: exit 2, one wording, every format', () => {
  it('render --frame 99 exits 2 for every format with a sample', async () => {
    for (const [format, file, extra] of FRAME_SAMPLES) {
      const r = await runCli(['render', file, '-o', 'x.png', '--frame', '99', ...extra], dir);
      expect(r.code, format).toBe(2);
      expect(r.stderr, format).toMatch(
        new RegExp(
          `^sprat: error: ${escapeRe(file)}: option --frame 99 is past the last frame \\([^\\n]+ has \\d+ frames?: 0(-\\d+)?\\)\\n$`,
        ),
      );
    }
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('--animation nope exits 2 for every format (render and play)', async () => {
    const cases: [string[], string][] = FRAME_SAMPLES.map(([, file, extra]) => [
      ['render', file, '-o', 'x.png', '--animation', 'nope', ...extra],
      file,
    ]);
    for (const f of ['cthg/fan.dat', 'solarus/sprites/slime.dat', 'hallgeir/hero.spr'])
      cases.push([['play', S(f), '--animation', 'nope'], S(f)]);
    for (const [argv, file] of cases) {
      const r = await runCli(argv, dir);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr, argv.join(' ')).toMatch(
        new RegExp(
          `^sprat: error: ${escapeRe(file)}: option --animation "nope" names no (animation|sequence) \\(the (file|sheet|sprite) has: [^\\n]+\\)\\n$`,
        ),
      );
    }
  });

  it('--direction, --tile-size, --sprite, --frame-id, a --tileset set past what the file has exit 2', async () => {
    const cases: [string[], RegExp][] = [
      [
        ['render', S('solarus/sprites/slime.dat'), '-o', 'x.png', '--direction', '9'],
        /option --direction 9 is past the last direction \(animation "stopped" has 4 directions: 0-3\)/,
      ],
      [
        ['play', S('solarus/sprites/slime_lua.dat'), '--direction', '9'],
        /option --direction 9 is past the last direction \(animation "stopped" has 4 directions: 0-3\)/,
      ],
      [
        ['render', S('cthg/fan.dat'), '-o', 'x.png', '--sprite', '999'],
        /option --sprite 999 is past the last sprite \(the file has 15 sprites: 0-14\)/,
      ],
      [['render', S('cthg/fan.dat'), '-o', 'x.png', '--tile-size', '7'], /option --tile-size 7 names no tile size \(the file has: 64\)/],
      [
        ['play', S('cthg/fan.dat'), '--animation', 'desk_fan', '--tile-size', '7'],
        /option --tile-size 7 names no tile size \(animation "desk_fan" has: 64\)/,
      ],
      [
        ['render', S('isprite/hero.isprite'), '-o', 'x.png', '--frame-id', '999'],
        /option --frame-id 999 is past the last frame ID \(the sprite has 11 frame IDs: 0-10\)/,
      ],
      [
        ['render', S('spritetile/level.bytes'), '-o', 'x.png', '--tileset', '99=tiles.png:16x16'],
        /option --tileset 99 is past the last tile set \(the level has \d+ tile sets: 0-\d+\)/,
      ],
    ];
    for (const [argv, message] of cases) {
      const r = await runCli(argv, dir);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr, argv.join(' ')).toMatch(message);
    }
  });

  it("the library gives the command line's message (render through the API)", async () => {
    const file = S('solarus/sprites/slime.dat');
    const loaded = load(fs.readFileSync(file), file);
    await expect(render(loaded, { frame: '99' }, fsResourceLoader(path.dirname(file)))).rejects.toThrow(
      new OptionError('option --frame 99 is past the last frame (animation "stopped" direction 0 has 1 frame: 0)'),
    );
    expect(() => selectIndex('frame', 4, 4, 'frame', 'the animation')).toThrow(
      new OptionError('option --frame 4 is past the last frame (the animation has 4 frames: 0-3)'),
    );
    expect(() => selectIndex('frame', 0, 0, 'frame', 'the animation')).toThrow(
      new OptionError('option --frame 0 is past the last frame (the animation has no frames)'),
    );
  });
});

describe('the library readers (src/formats/options.ts)', () => {
  const frame: OptionSpec = { name: 'frame', type: 'int', min: 0, description: '' };
  const layout = { name: 'layout', type: 'string', choices: ['hash', 'array'], description: '' } as const satisfies OptionSpec;
  const size: OptionSpec = { name: 'frame-size', type: 'size', min: 1, max: 65536, description: '' };
  const flag: OptionSpec = { name: 'shapes', type: 'flag', description: '' };

  it('read values by their spec, absent as undefined, numbers from programs as the command line would', () => {
    expect(intOption({}, frame)).toBeUndefined();
    expect(intOption({ frame: false }, frame)).toBeUndefined();
    expect(intOption({ frame: 3 as unknown as string }, frame)).toBe(3);
  });

  it('give the one wording', () => {
    expect(() => intOption({ frame: '-1' }, frame)).toThrow(new OptionError('option --frame must be at least 0, not "-1"'));
    expect(choiceOption({ layout: 'array' }, layout)).toBe('array');
    expect(() => choiceOption({ layout: 'Array' }, layout)).toThrow(
      new OptionError('option --layout must be one of hash, array, not "Array", did you mean "array"?'),
    );
    expect(sizeOption({ 'frame-size': '16x8' }, size)).toEqual({ width: 16, height: 8 });
    expect(() => sizeOption({ 'frame-size': '16' }, size)).toThrow(
      new OptionError('option --frame-size must be WxH (e.g. 32x32), not "16"'),
    );
    expect(() => sizeOption({ 'frame-size': '0x8' }, size)).toThrow(
      new OptionError('option --frame-size must be 1 to 65536 each way, not "0x8"'),
    );
    expect(flagOption({ shapes: true }, flag)).toBe(true);
    expect(() => flagOption({ shapes: 'yes' }, flag)).toThrow(new OptionError('option --shapes takes no value'));
    expect(() => requireOption({}, frame, 'render')).toThrow(new OptionError('render needs option --frame N'));
  });

  it("a parser's own OptionError class is kept (ISPRITE --script: ScriptError), with the one wording", () => {
    const doc = load(fs.readFileSync(S('isprite/hero.isprite')), 'hero.isprite').doc as Parameters<typeof playIsprite>[0];
    let err: unknown;
    try {
      playIsprite(doc, { ticks: '2', script: '0:jump' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ScriptError);
    expect((err as Error).message).toMatch(
      /^option --script must be T:COMMAND;\.\.\., not "0:jump" \(item 1 \("0:jump"\): unknown command "jump"/,
    );
  });

  it('selections: named and indexed, one wording', () => {
    const items = [{ name: 'idle' }, { name: 'walk' }];
    expect(selectNamed('animation', 'walk', items, (x) => x.name, 'animation', 'the file')).toBe(items[1]);
    expect(() => selectNamed('animation', 'run', items, (x) => x.name, 'animation', 'the file')).toThrow(
      new OptionError('option --animation "run" names no animation (the file has: idle, walk)'),
    );
    expect(namesNothing('tile-size', 32, 'tile size', 'animation "a"', []).message).toBe(
      'option --tile-size 32 names no tile size (animation "a" has none)',
    );
    const many = Array.from({ length: 30 }, (_, i) => `a${i}`);
    expect(namesNothing('animation', 'x', 'animation', 'the file', many).message).toMatch(/a19, \.\.\. \(30 in all\)\)$/);
    expect(selectIndex('direction', 3, 4, 'direction', 'animation "walk"')).toBe(3);
    expect(() => selectIndex('direction', 1, 1, 'direction', 'animation "walk"')).toThrow(
      new OptionError('option --direction 1 is past the last direction (animation "walk" has 1 direction: 0)'),
    );
  });
});
