/** Paths and the MET+ keys of erratum 6. */
import { describe, expect, it } from 'vitest';
import {
  checkPlaybackMeta,
  effectiveFrameRate,
  findGroup,
  findSequence,
  foldName,
  getDefaultSequence,
  getDefaultSequencePath,
  getSequenceFrameRate,
  listSequences,
  lookupSequence,
  namesEqual,
  sequencePath,
  setDefaultSequence,
  setSequenceFrameRate,
} from '../../src/formats/isprite/paths.js';
import { frame, group, seq, sprite } from './build.js';

const tree = () => [group('Armed', seq('attack', [0]), group('Bow', seq('shoot', [0]))), seq('idle', [0]), seq('attack', [0])];

describe('names', () => {
  it('"case insensitive for the 52 ASCII latin characters" and nothing else', () => {
    expect(foldName('AbZ-Éé')).toBe('abz-Éé');
    expect(namesEqual('Walk', 'wALK')).toBe(true);
    expect(namesEqual('É', 'é')).toBe(false);
    expect(namesEqual('ß', 'SS')).toBe(false);
  });
});

describe('paths', () => {
  it('"PATH is the sequence\'s group path from Root, segments joined by /, e.g. Root/Armed/attack"', () => {
    const d = sprite(tree(), [frame()]);
    expect(listSequences(d).map((e) => e.path)).toEqual(['Root/Armed/attack', 'Root/Armed/Bow/shoot', 'Root/idle', 'Root/attack']);
    const s = findSequence(d, 'root/armed/BOW/Shoot')!;
    expect(s.name).toBe('shoot');
    expect(sequencePath(d, s)).toBe('Root/Armed/Bow/shoot');
    expect(findGroup(d, 'ROOT/armed')!.name).toBe('Armed');
    expect(findGroup(d, 'Root')!.name).toBe('Root');
    expect(findGroup(d, 'Armed')).toBeNull();
    expect(findSequence(d, 'Root/Armed')).toBeNull();
    expect(findSequence(d, 'Root/Bow/shoot')).toBeNull();
  });

  it('lookupSequence: from the group up to Root, then the default', () => {
    const d = sprite(tree(), [frame()], { extraMeta: [['default-sequence', 'Root/idle']] });
    expect(sequencePath(d, lookupSequence(d, 'Root/Armed/Bow', 'ATTACK')!)).toBe('Root/Armed/attack');
    expect(sequencePath(d, lookupSequence(d, 'Root', 'attack')!)).toBe('Root/attack');
    expect(sequencePath(d, lookupSequence(d, 'Root', 'shoot')!)).toBe('Root/idle');
    expect(lookupSequence(d, 'Root/Nope', 'idle')).toBeNull();
  });
});

describe('MET+ keys (erratum 6)', () => {
  it('`default-sequence` = PATH: get and set', () => {
    const d = sprite(tree(), [frame()]);
    expect(getDefaultSequence(d)).toBeNull();
    setDefaultSequence(d, 'root/IDLE');
    expect(d.extraMeta).toEqual([['default-sequence', 'Root/idle']]);
    expect(getDefaultSequence(d)!.name).toBe('idle');
    d.extraMeta!.unshift(['title', 'x']);
    setDefaultSequence(d, findSequence(d, 'Root/Armed/attack'));
    expect(d.extraMeta).toEqual([
      ['title', 'x'],
      ['default-sequence', 'Root/Armed/attack'],
    ]);
    setDefaultSequence(d, null);
    expect(d.extraMeta).toEqual([['title', 'x']]);
    expect(() => setDefaultSequence(d, 'Root/none')).toThrow(RangeError);
  });

  it('removing the last key removes the MET+ chunk', () => {
    const d = sprite(tree(), [frame()]);
    setDefaultSequence(d, 'Root/idle');
    setDefaultSequence(d, null);
    expect(d.extraMeta).toBeNull();
  });

  it('only the first `default-sequence` counts', () => {
    const d = sprite(tree(), [frame()], {
      extraMeta: [
        ['default-sequence', 'Root/idle'],
        ['default-sequence', 'Root/attack'],
      ],
    });
    expect(getDefaultSequencePath(d)).toBe('Root/idle');
    expect(checkPlaybackMeta(d)).toHaveLength(1);
    setDefaultSequence(d, 'Root/attack');
    expect(d.extraMeta).toEqual([['default-sequence', 'Root/attack']]);
  });

  it('`sequence-frame-rate:PATH` = decimal 0-255 (255 = master rate)', () => {
    const d = sprite(tree(), [frame()], { frameRate: 24 });
    expect(getSequenceFrameRate(d, 'Root/idle')).toBeNull();
    expect(effectiveFrameRate(d, 'Root/idle')).toBe(24);
    setSequenceFrameRate(d, 'ROOT/Idle', 12);
    expect(d.extraMeta).toEqual([['sequence-frame-rate:Root/idle', '12']]);
    expect(getSequenceFrameRate(d, 'Root/idle')).toBe(12);
    expect(effectiveFrameRate(d, 'Root/idle')).toBe(12);
    setSequenceFrameRate(d, 'Root/idle', 255);
    expect(effectiveFrameRate(d, 'Root/idle')).toBe(24);
    setSequenceFrameRate(d, 'Root/idle', 0);
    expect(effectiveFrameRate(d, 'Root/idle')).toBe(0);
    setSequenceFrameRate(d, 'Root/idle', null);
    expect(d.extraMeta).toBeNull();
    expect(() => setSequenceFrameRate(d, 'Root/idle', 256)).toThrow(RangeError);
    expect(() => setSequenceFrameRate(d, 'Root/idle', 1.5)).toThrow(RangeError);
    expect(() => setSequenceFrameRate(d, 'Root/x', 1)).toThrow(RangeError);
  });

  it('a rate key written with another spelling of the path is replaced by the canonical one', () => {
    const d = sprite(tree(), [frame()], {
      extraMeta: [
        ['sequence-frame-rate:root/armed/ATTACK', '5'],
        ['other', 'x'],
        ['sequence-frame-rate:Root/attack', '7'],
      ],
    });
    expect(getSequenceFrameRate(d, 'Root/Armed/attack')).toBe(5);
    setSequenceFrameRate(d, 'Root/Armed/attack', 9);
    expect(d.extraMeta).toEqual([
      ['sequence-frame-rate:Root/Armed/attack', '9'],
      ['other', 'x'],
      ['sequence-frame-rate:Root/attack', '7'],
    ]);
  });

  it('bad values are ignored and reported by checkPlaybackMeta', () => {
    const d = sprite(tree(), [frame()], {
      extraMeta: [
        ['sequence-frame-rate:Root/idle', '300'],
        ['sequence-frame-rate:Root/idle', '-1'],
        ['sequence-frame-rate:Root/idle', ' 3'],
        ['sequence-frame-rate:Root/nope', '3'],
        ['default-sequence', 'Root/nope'],
      ],
    });
    expect(getSequenceFrameRate(d, 'Root/idle')).toBeNull();
    expect(getDefaultSequence(d)).toBeNull();
    expect(checkPlaybackMeta(d)).toHaveLength(5);
  });
});
