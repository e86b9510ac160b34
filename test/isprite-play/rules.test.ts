/**
 * One test per playback rule of docs/spec/isprite.md ("Playback
 * rules", errata 6, 10, 11) and the document's Animation section; each test
 * name quotes the sentence it checks.
 */
import { describe, expect, it } from 'vitest';
import { Player, prepareSprite } from '../../src/formats/isprite/play.js';
import { listSequences } from '../../src/formats/isprite/paths.js';
import { frame, framesWithTriggers, group, seq, sprite } from './build.js';

/** Frame IDs seen over `n` steps (the current one first). */
function run(p: Player, n: number): (number | null)[] {
  const out: (number | null)[] = [];
  for (let i = 0; i < n; i++) {
    out.push(p.frameId);
    p.step();
  }
  return out;
}

const DEF = (path: string): [string, string][] => [['default-sequence', path]];

describe('state', () => {
  it('"State: the active group (initially Root)"', () => {
    const p = new Player(sprite([group('A', seq('x', [0]))], [frame()]));
    expect(p.groupPath).toBe('Root');
    expect(p.groupIndex).toBe(0);
  });
});

describe('setAnimation(name)', () => {
  const tree = [
    group('Armed', seq('attack', [1, 2], null), group('Mounted', seq('ride', [3]))),
    seq('attack', [4], null),
    seq('idle', [0]),
  ];
  const doc = sprite(tree, framesWithTriggers(5));

  it('"look for a sequence with that name among the direct sequences of the active group"', () => {
    const p = new Player(doc);
    p.setGroup('Root/Armed');
    expect(p.setAnimation('attack')).toBe(true);
    expect(p.sequencePath).toBe('Root/Armed/attack');
    expect(p.frameId).toBe(1);
  });

  it('"then of its parent, and so on up to Root"', () => {
    const p = new Player(doc);
    p.setGroup('Root/Armed/Mounted');
    p.setAnimation('idle');
    expect(p.sequencePath).toBe('Root/idle');
    p.setAnimation('attack');
    expect(p.sequencePath).toBe('Root/Armed/attack');
  });

  it('lookup never looks down into child groups ("up to Root")', () => {
    const p = new Player(doc);
    expect(p.setAnimation('ride')).toBe(false);
    expect(p.sequence).toBeNull();
  });

  it('"names compared case-insensitively for A-Z/a-z only"', () => {
    const d = sprite([seq('Ärger', [0]), seq('IDLE', [1]), seq('ärger', [2])], [frame(), frame(), frame()]);
    const p = new Player(d);
    p.setAnimation('idle');
    expect(p.sequencePath).toBe('Root/IDLE');
    p.setAnimation('äRGER');
    expect(p.sequencePath).toBe('Root/ärger');
    p.setAnimation('ÄRGER');
    expect(p.sequencePath).toBe('Root/Ärger');
  });

  it('"within one group the first match in file order wins"', () => {
    const d = sprite([seq('walk', [0]), seq('WALK', [1])], [frame(), frame()]);
    const p = new Player(d);
    p.setAnimation('Walk');
    expect(p.sequenceIndex).toBe(0);
    expect(p.frameId).toBe(0);
  });

  it('"If none is found, the default sequence is the one found"', () => {
    const d = sprite(tree, framesWithTriggers(5), { extraMeta: DEF('Root/idle') });
    const p = new Player(d);
    p.setAnimation('attack');
    expect(p.sequencePath).toBe('Root/attack');
    expect(p.setAnimation('nope')).toBe(false);
    expect(p.sequencePath).toBe('Root/idle');
  });

  it('"if there is no default, the sprite shows nothing (current = none)"', () => {
    const p = new Player(doc);
    p.setAnimation('idle');
    p.setAnimation('nope');
    expect(p.sequence).toBeNull();
    expect(p.sequencePath).toBeNull();
    expect(p.position).toBeNull();
    expect(p.frameId).toBeNull();
    expect(p.stopped).toBe(true);
  });

  it('"If the found sequence is the current one (same sequence, not merely same name), nothing changes"', () => {
    const d = sprite([seq('run', [0, 1, 2])], framesWithTriggers(3));
    const p = new Player(d);
    p.setAnimation('run');
    p.step();
    p.takeTriggers();
    p.setAnimation('RUN');
    expect(p.position).toBe(1);
    expect(p.takeTriggers()).toEqual([]);
  });

  it('same name in another group is another sequence: it starts at position 0', () => {
    const p = new Player(doc);
    p.setAnimation('attack');
    expect(p.sequencePath).toBe('Root/attack');
    p.setGroup('Root/Armed');
    p.setAnimation('attack');
    expect(p.sequencePath).toBe('Root/Armed/attack');
    expect(p.position).toBe(0);
  });

  it('"nothing changes, even when it has stopped (use restart() to replay it)"', () => {
    const d = sprite([seq('once', [0, 1], null)], framesWithTriggers(2));
    const p = new Player(d);
    p.setAnimation('once');
    p.step();
    p.step();
    expect(p.stopped).toBe(true);
    p.takeTriggers();
    p.setAnimation('once');
    expect(p.stopped).toBe(true);
    expect(p.position).toBe(1);
    expect(p.takeTriggers()).toEqual([]);
    p.restart();
    expect(p.stopped).toBe(false);
    expect(p.position).toBe(0);
  });

  it('"Otherwise it becomes current at position 0, unstopped, and frame 0 is activated"', () => {
    const d = sprite([seq('a', [0, 1], null), seq('b', [2, 1])], framesWithTriggers(3));
    const p = new Player(d);
    p.setAnimation('a');
    p.step();
    p.step();
    expect(p.stopped).toBe(true);
    p.takeTriggers();
    p.setAnimation('b');
    expect([p.position, p.frameId, p.stopped]).toEqual([0, 2, false]);
    expect(p.takeTriggers()).toEqual(['f2']);
  });
});

describe('paths', () => {
  it('"Paths ... are matched segment by segment with the same case-insensitive rule, from Root"', () => {
    const d = sprite([group('Armed', group('Sword', seq('x', [0])))], [frame()]);
    const p = new Player(d);
    expect(p.setGroup('root/ARMED/sword')).toBe(true);
    expect(p.groupPath).toBe('Root/Armed/Sword');
    expect(p.setGroup('Armed/Sword')).toBe(false);
    expect(p.setGroup('Root/Sword')).toBe(false);
    expect(p.setGroup('Root')).toBe(true);
    expect(p.groupPath).toBe('Root');
  });
});

describe('restart()', () => {
  it('"position 0 of the current sequence, unstopped, frame 0 activated"', () => {
    const d = sprite([seq('a', [3, 1, 2], 1)], framesWithTriggers(4));
    const p = new Player(d);
    p.setAnimation('a');
    run(p, 5);
    p.takeTriggers();
    p.restart();
    expect([p.position, p.frameId, p.stopped]).toEqual([0, 3, false]);
    expect(p.takeTriggers()).toEqual(['f3']);
  });

  it('restart with no current sequence shows nothing', () => {
    const p = new Player(sprite([], []));
    p.restart();
    expect(p.sequence).toBeNull();
    expect(p.stopped).toBe(true);
  });
});

describe('setGroup(path)', () => {
  it('"changes the active group only; the current sequence plays on"', () => {
    const d = sprite([group('G', seq('a', [1])), seq('a', [0, 2])], framesWithTriggers(3));
    const p = new Player(d);
    p.setAnimation('a');
    p.step();
    expect(p.setGroup('Root/G')).toBe(true);
    expect([p.sequencePath, p.position, p.frameId]).toEqual(['Root/a', 1, 2]);
  });

  it('"A path that names no group leaves the active group as it was (the API says so in its result)"', () => {
    const d = sprite([group('G', seq('a', [0]))], [frame()]);
    const p = new Player(d);
    p.setGroup('Root/G');
    expect(p.setGroup('Root/H')).toBe(false);
    expect(p.groupPath).toBe('Root/G');
    expect(p.setGroup('Root/G/a')).toBe(false);
  });
});

describe('load', () => {
  it('"On load the default sequence, if any, is current at position 0 (activated)"', () => {
    const d = sprite([seq('idle', [1, 0])], framesWithTriggers(2), { extraMeta: DEF('ROOT/Idle') });
    const p = new Player(prepareSprite(d));
    expect([p.sequencePath, p.position, p.frameId, p.stopped]).toEqual(['Root/idle', 0, 1, false]);
    expect(p.takeTriggers()).toEqual(['f1']);
  });

  it('with no default sequence nothing is current on load', () => {
    const p = new Player(sprite([seq('idle', [0])], [frame()]));
    expect(p.sequence).toBeNull();
    expect(p.stopped).toBe(true);
  });

  it('a default-sequence naming no sequence counts as no default', () => {
    const p = new Player(sprite([seq('idle', [0])], [frame()], { extraMeta: DEF('Root/nope') }));
    expect(p.sequence).toBeNull();
  });
});

describe('step()', () => {
  it('"The current frame\'s hold count goes up by one; when it reaches the frame\'s hold time ... the sprite moves on"', () => {
    const d = sprite([seq('a', [0, 1])], [frame(3), frame(2)]);
    const p = new Player(d);
    p.setAnimation('a');
    expect(run(p, 10)).toEqual([0, 0, 0, 1, 1, 0, 0, 0, 1, 1]);
  });

  it('"(0 counts as 1)" (erratum 10: hold time 0 is read and kept as 0, played as 1)', () => {
    const d = sprite([seq('a', [0, 1])], [frame(0), frame(0)]);
    const p = new Player(d);
    p.setAnimation('a');
    expect(run(p, 4)).toEqual([0, 1, 0, 1]);
    expect(d.frames[0]!.holdTime).toBe(0);
  });

  it('"to position + 1 if there is one"', () => {
    const d = sprite([seq('a', [2, 0, 1], null)], framesWithTriggers(3));
    const p = new Player(d);
    p.setAnimation('a');
    expect(run(p, 3)).toEqual([2, 0, 1]);
  });

  it('"at the end of the sequence, to the follow-up (by setAnimation(followUp) ...) if the follow-up is not empty"', () => {
    const d = sprite([group('G', seq('attack', [1, 2], null, 'IDLE')), seq('idle', [0])], framesWithTriggers(3));
    const p = new Player(d);
    p.setGroup('Root/G');
    p.setAnimation('attack');
    p.takeTriggers();
    expect(run(p, 2)).toEqual([1, 2]);
    expect([p.sequencePath, p.frameId]).toEqual(['Root/idle', 0]);
    expect(p.takeTriggers()).toEqual(['f2', 'f0']);
  });

  it('the follow-up is looked up from the active group at the time the sequence ends', () => {
    const d = sprite(
      [group('G', seq('next', [2]), seq('go', [0], null, 'next')), seq('next', [1]), seq('go', [0], null, 'next')],
      framesWithTriggers(3),
    );
    const p = new Player(d);
    p.setGroup('Root/G');
    p.setAnimation('go');
    p.setGroup('Root');
    p.step();
    expect(p.sequencePath).toBe('Root/next');
  });

  it('"This value [loop point] is ignored if a follow-up sequence is defined"', () => {
    const d = sprite([seq('a', [0, 1], 1, 'b'), seq('b', [2])], framesWithTriggers(3));
    const p = new Player(d);
    p.setAnimation('a');
    expect(run(p, 3)).toEqual([0, 1, 2]);
  });

  it('erratum 11: "a follow-up sequence name that resolves to the sequence that just ended restarts that sequence from its first frame"', () => {
    const d = sprite([seq('spin', [0, 1], null, 'SPIN')], framesWithTriggers(2));
    const p = new Player(d);
    p.setAnimation('spin');
    p.takeTriggers();
    expect(run(p, 5)).toEqual([0, 1, 0, 1, 0]);
    expect(p.stopped).toBe(false);
    expect(p.takeTriggers()).toEqual(['f1', 'f0', 'f1', 'f0', 'f1']);
  });

  it('erratum 11 also when the follow-up resolves to the ended sequence as the default', () => {
    const d = sprite([seq('idle', [0, 1], null, 'missing')], framesWithTriggers(2), { extraMeta: DEF('Root/idle') });
    const p = new Player(d);
    expect(run(p, 4)).toEqual([0, 1, 0, 1]);
  });

  it('a follow-up found nowhere with no default: the sprite shows nothing', () => {
    const d = sprite([seq('a', [0], null, 'missing')], [frame()]);
    const p = new Player(d);
    p.setAnimation('a');
    p.step();
    expect([p.sequence, p.frameId, p.stopped]).toEqual([null, null, true]);
  });

  it('"else to the loop point if it is less than the frame count"', () => {
    const d = sprite([seq('a', [0, 1, 2], 1)], framesWithTriggers(3));
    const p = new Player(d);
    p.setAnimation('a');
    expect(run(p, 8)).toEqual([0, 1, 2, 1, 2, 1, 2, 1]);
  });

  it('"the loop point may be set to a point equal to or exceeding the final frame ... [to] halt all playback"', () => {
    for (const lp of [3, 4, 0xffffffff, null]) {
      const d = sprite([seq('a', [0, 1, 2], lp)], framesWithTriggers(3));
      const p = new Player(d);
      p.setAnimation('a');
      expect(run(p, 5)).toEqual([0, 1, 2, 2, 2]);
      expect(p.stopped).toBe(true);
    }
  });

  it('"else playback stops, still showing the last frame, until the application sets an animation or restarts"', () => {
    const d = sprite([seq('a', [0, 1], null), seq('b', [2])], framesWithTriggers(3));
    const p = new Player(d);
    p.setAnimation('a');
    run(p, 2);
    expect([p.stopped, p.position, p.frameId]).toEqual([true, 1, 1]);
    p.takeTriggers();
    run(p, 3);
    expect([p.stopped, p.position, p.frameId]).toEqual([true, 1, 1]);
    expect(p.takeTriggers()).toEqual([]);
    p.setAnimation('b');
    expect([p.stopped, p.frameId]).toEqual([false, 2]);
  });

  it('a stopped sequence with a last frame held for several steps stops only after the hold', () => {
    const d = sprite([seq('a', [0], null)], [frame(3)]);
    const p = new Player(d);
    p.setAnimation('a');
    p.step();
    p.step();
    expect(p.stopped).toBe(false);
    p.step();
    expect(p.stopped).toBe(true);
  });
});

describe('frame loop flag', () => {
  it('erratum 7: "the sequence\'s loop point decides playback; the frame flag is kept as data"', () => {
    const frames = [frame(), frame(), frame()];
    frames[1]!.loopPoint = true;
    const p = new Player(sprite([seq('a', [0, 1, 2], 0)], frames));
    p.setAnimation('a');
    expect(run(p, 5)).toEqual([0, 1, 2, 0, 1]);
  });
});

describe('empty sequences', () => {
  it('"A sequence with no frames shows nothing and is stopped"', () => {
    const d = sprite([seq('empty', []), seq('a', [0])], [frame()]);
    const p = new Player(d);
    p.setAnimation('empty');
    expect([p.sequencePath, p.position, p.frameId, p.stopped]).toEqual(['Root/empty', null, null, true]);
    p.step();
    expect(p.stopped).toBe(true);
    p.setAnimation('empty');
    expect(p.sequencePath).toBe('Root/empty');
  });
});

describe('update(seconds)', () => {
  it('"converts elapsed time into whole steps at the current sequence\'s effective frame rate ... carrying the remainder"', () => {
    const d = sprite([seq('a', [0, 1, 2, 3])], framesWithTriggers(4), { frameRate: 4 });
    const p = new Player(d);
    p.setAnimation('a');
    p.update(0.125);
    expect(p.position).toBe(0);
    p.update(0.125);
    expect(p.position).toBe(1);
    p.update(0.2);
    expect(p.position).toBe(1);
    p.update(0.05);
    expect(p.position).toBe(2);
  });

  it('"its override, else the master rate" (erratum 6: `sequence-frame-rate:PATH`, 255 = master)', () => {
    const frames = framesWithTriggers(10);
    const d = sprite(
      [seq('fast', [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]), seq('master', [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]), seq('ff', [0, 1, 2, 3, 4, 5])],
      frames,
      {
        frameRate: 2,
        extraMeta: [
          ['sequence-frame-rate:Root/FAST', '8'],
          ['sequence-frame-rate:root/ff', '255'],
        ],
      },
    );
    const p = new Player(d);
    p.setAnimation('fast');
    p.update(0.5);
    expect(p.position).toBe(4);
    p.setAnimation('master');
    p.update(1);
    expect(p.position).toBe(2);
    p.setAnimation('ff');
    p.update(1);
    expect(p.position).toBe(2);
  });

  it('"it catches up with several steps when the time is long"', () => {
    const d = sprite([seq('a', [0, 1, 2], null)], [frame(2), frame(), frame()], { frameRate: 10 });
    const p = new Player(d);
    p.setAnimation('a');
    p.update(0.3);
    expect(p.position).toBe(2);
    p.update(100);
    expect([p.position, p.stopped]).toEqual([2, true]);
  });

  it('catching up emits every trigger on the way, in order', () => {
    const d = sprite([seq('a', [0, 1, 2], 1)], framesWithTriggers(3), { frameRate: 10 });
    const p = new Player(d);
    p.setAnimation('a');
    p.takeTriggers();
    p.update(0.5);
    expect(p.takeTriggers()).toEqual(['f1', 'f2', 'f1', 'f2', 'f1']);
  });

  it("catching up through a follow-up switches to the new sequence's rate", () => {
    const d = sprite([seq('a', [0, 0], null, 'b'), seq('b', [1, 1, 1, 1, 1, 1, 1, 1], null)], [frame(), frame()], {
      frameRate: 2,
      extraMeta: [['sequence-frame-rate:Root/b', '4']],
    });
    const p = new Player(d);
    p.setAnimation('a');
    // 1 s at 2/s = 2 steps (end of a -> b), then 1 s at 4/s = 4 steps.
    p.update(2);
    expect([p.sequencePath, p.position]).toEqual(['Root/b', 4]);
  });

  it('"A rate of 0 means the application steps by hand: update does nothing"', () => {
    const d = sprite([seq('a', [0, 1]), seq('manual', [0, 1])], [frame(), frame()], {
      frameRate: 0,
      extraMeta: [['sequence-frame-rate:Root/a', '10']],
    });
    const p = new Player(d);
    p.setAnimation('manual');
    p.update(100);
    expect(p.position).toBe(0);
    p.step();
    expect(p.position).toBe(1);
    p.setAnimation('a');
    p.update(0.1);
    expect(p.position).toBe(1);
  });

  it('negative, zero and NaN times do nothing', () => {
    const p = new Player(sprite([seq('a', [0, 1])], [frame(), frame()], { frameRate: 10, extraMeta: DEF('Root/a') }));
    for (const t of [0, -1, NaN, -Infinity]) p.update(t);
    expect(p.position).toBe(0);
  });

  it('a huge time in a loop without triggers is skipped in whole passes (exact, no hang)', () => {
    const d = sprite([seq('a', [0, 1, 2], 1)], [frame(2), frame(3), frame(5)], { frameRate: 1 });
    const p = new Player(d);
    p.setAnimation('a');
    p.update(2 + 8 * 1e12 + 3);
    expect([p.position, p.held]).toEqual([2, 0]);
    p.update(Infinity);
    expect(p.stopped).toBe(false);
  });
});

describe('triggers', () => {
  it('"Activating a frame (entering it by any of the moves above, including a loop back to the same frame) emits its trigger string"', () => {
    const d = sprite([seq('a', [0])], [frame(1, 'tick')]);
    const p = new Player(d);
    p.setAnimation('a');
    p.step();
    p.step();
    expect(p.takeTriggers()).toEqual(['tick', 'tick', 'tick']);
  });

  it('"... if it is not empty"', () => {
    const d = sprite([seq('a', [0, 1, 0])], [frame(1, 'x'), frame(1, '')]);
    const p = new Player(d);
    p.setAnimation('a');
    run(p, 2);
    expect(p.takeTriggers()).toEqual(['x', 'x']);
  });

  it('holding a frame does not activate it again', () => {
    const d = sprite([seq('a', [0, 1])], [frame(3, 'x'), frame(1, 'y')]);
    const p = new Player(d);
    p.setAnimation('a');
    run(p, 4);
    expect(p.takeTriggers()).toEqual(['x', 'y', 'x']);
  });

  it('the callback gets each trigger with its frame ID, and collection is off by default with a callback', () => {
    const d = sprite([seq('a', [1, 0])], framesWithTriggers(2));
    const seen: [string, number][] = [];
    const p = new Player(d, { onTrigger: (t, id) => seen.push([t, id]) });
    p.setAnimation('a');
    p.step();
    expect(seen).toEqual([
      ['f1', 1],
      ['f0', 0],
    ]);
    expect(p.pendingTriggers).toBe(0);
  });
});

describe('setSequence (by path or index, no lookup)', () => {
  it('plays the sequence a path names; the same-sequence rule applies', () => {
    const d = sprite([group('G', seq('a', [1, 0])), seq('a', [0])], framesWithTriggers(2));
    const p = new Player(d);
    expect(p.setSequence('root/g/A')).toBe(true);
    expect([p.sequencePath, p.frameId]).toEqual(['Root/G/a', 1]);
    p.step();
    expect(p.setSequence(0)).toBe(true);
    expect(p.position).toBe(1);
    expect(p.setSequence('Root/b')).toBe(false);
    expect(p.setSequence(5)).toBe(false);
    expect(p.setSequence(1)).toBe(true);
    expect(p.sequencePath).toBe('Root/a');
  });
});

describe('robustness', () => {
  it('a frame ID with no frame plays as an empty frame held 1 step', () => {
    const d = sprite([seq('a', [7, 0])], [frame(2, 'x')]);
    const p = new Player(d);
    p.setAnimation('a');
    expect(p.frameId).toBe(7);
    expect(p.frame).toBeNull();
    expect(run(p, 4)).toEqual([7, 0, 0, 7]);
  });

  it('the follow-up at the end of the sequence is what nextFrame() predicts', () => {
    const d = sprite([seq('a', [0, 1], null, 'b'), seq('b', [2], 0)], framesWithTriggers(3));
    const p = new Player(d);
    p.setAnimation('a');
    expect(p.nextFrame()).toEqual({ sequence: 0, position: 1 });
    p.step();
    expect(p.nextFrame()).toEqual({ sequence: 1, position: 0 });
    p.step();
    expect(p.nextFrame()).toEqual({ sequence: 1, position: 0 });
  });
});

describe('deep trees', () => {
  it('a tree nested 50,000 groups deep is prepared and played without recursion', () => {
    const root = group('g0');
    let g = root;
    for (let i = 1; i < 50_000; i++) {
      const c = group(`g${i}`);
      g.children.push(c);
      g = c;
    }
    g.children.push(seq('deep', [0]));
    const d = sprite([root, seq('top', [0])], [frame(1, 'x')]);
    const p = new Player(d);
    expect(p.setGroup('Root/g0/g1/g2')).toBe(true);
    expect(p.setAnimation('top')).toBe(true);
    expect(p.setAnimation('deep')).toBe(false);
    expect(listSequences(d).map((e) => e.sequence.name)).toEqual(['deep', 'top']);
    expect(listSequences(d)[0]!.path.length).toBeGreaterThan(250_000);
  });
});
