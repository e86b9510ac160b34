/** `sprat play` for ISPRITE: the contract's records, script and errors. */
import { describe, expect, it } from 'vitest';
import { ScriptError, parseScript, playIsprite } from '../../src/formats/isprite/play-cli.js';
import { OptionError } from '../../src/binary/errors.js';
import { frame, group, seq, sprite } from './build.js';

const doc = () =>
  sprite(
    [group('Armed', seq('attack', [12, 13], null, 'idle')), seq('idle', [0, 1]), seq('empty', [])],
    Array.from({ length: 14 }, (_, i) => frame(1, i === 12 ? 'swing' : i === 0 ? 'breath' : '')),
    { extraMeta: [['default-sequence', 'Root/idle']] },
  );

describe('sprat play records', () => {
  it('matches the contract example record, keys in order', () => {
    const { records } = playIsprite(doc(), { ticks: '1', script: '0:group Root/Armed;0:play attack' });
    expect(JSON.stringify(records[0])).toBe(
      '{"tick":0,"sequence":"Root/Armed/attack","position":0,"frame":12,"triggers":["breath","swing"],"stopped":false}',
    );
  });

  it('"For each tick t = 0 … N−1: apply, in the order given, the script commands whose T equals t; print one record; then step()"', () => {
    const { records, warnings } = playIsprite(doc(), { ticks: '6', script: '2:play attack;2:group Root/Armed;2:play attack' });
    expect(warnings).toEqual([]);
    expect(records.map((r) => [r.tick, r.sequence, r.position, r.frame, r.triggers, r.stopped])).toEqual([
      [0, 'Root/idle', 0, 0, ['breath'], false],
      [1, 'Root/idle', 1, 1, [], false],
      [2, 'Root/Armed/attack', 0, 12, ['breath', 'swing'], false],
      [3, 'Root/Armed/attack', 1, 13, [], false],
      [4, 'Root/idle', 0, 0, ['breath'], false],
      [5, 'Root/idle', 1, 1, [], false],
    ]);
  });

  it('"sequence ... (null when none), position and frame ... (both null when there is no current sequence or it has no frames)"', () => {
    const noDefault = sprite([seq('empty', [])], []);
    const { records } = playIsprite(noDefault, { ticks: '2', script: '1:play empty' });
    expect(records).toEqual([
      { tick: 0, sequence: null, position: null, frame: null, triggers: [], stopped: true },
      { tick: 1, sequence: 'Root/empty', position: null, frame: null, triggers: [], stopped: true },
    ]);
  });

  it('"stopped ... true at the end of a sequence that does not loop"', () => {
    const d = sprite([seq('once', [0, 1], null)], [frame(), frame()]);
    const { records } = playIsprite(d, { ticks: '4', script: '0:play once;3:restart' });
    expect(records.map((r) => [r.position, r.stopped])).toEqual([
      [0, false],
      [1, false],
      [1, true],
      [0, false],
    ]);
  });

  it('"a path that names no group ... sprat play prints a warning"', () => {
    const { warnings, records } = playIsprite(doc(), { ticks: '2', script: '1:group Root/Nope' });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('Root/Nope');
    expect(playIsprite(doc(), { ticks: '1', script: '0:group Armed' }).warnings[0]).toContain('paths start with Root');
    expect(records).toHaveLength(2);
  });

  it('--ticks 0 prints no records; commands after the last tick are a warning', () => {
    expect(playIsprite(doc(), { ticks: '0' }).records).toEqual([]);
    expect(playIsprite(doc(), { ticks: '2', script: '5:restart' }).warnings).toHaveLength(1);
  });

  it('the text is a readable timeline', () => {
    const { text } = playIsprite(doc(), { ticks: '5' });
    expect(text).toContain('Root/idle');
    expect(text.split('\n')[0]).toMatch(/^tick\s+sequence/);
  });
});

describe('script errors', () => {
  it('parses items, spaces and a trailing ;', () => {
    expect(parseScript(' 0:play  Big Jump ; 3 : restart;4:group Root/A;')).toEqual([
      { tick: 0, command: 'play', name: 'Big Jump' },
      { tick: 3, command: 'restart' },
      { tick: 4, command: 'group', path: 'Root/A' },
    ]);
  });

  for (const bad of ['play idle', 'x:play idle', '-1:play idle', '0:jump', '0:play', '0:restart now', '0:group', '1.5:restart', '0;']) {
    it(`rejects "${bad}" with a ScriptError`, () => {
      if (bad === '0;') expect(() => parseScript(bad)).toThrow(ScriptError);
      else expect(() => playIsprite(doc(), { ticks: '3', script: bad })).toThrow(ScriptError);
    });
  }

  it('--ticks is required, a whole number, and limited', () => {
    expect(() => playIsprite(doc(), {})).toThrow(OptionError);
    expect(() => playIsprite(doc(), { ticks: '-1' })).toThrow('option --ticks must be 0 to 1000000, not "-1"');
    expect(() => playIsprite(doc(), { ticks: 'x' })).toThrow('option --ticks must be a whole number, not "x"');
    expect(() => playIsprite(doc(), { ticks: '100000000' })).toThrow('option --ticks must be 0 to 1000000, not "100000000"');
  });
});
