import { describe, expect, it } from 'vitest';
import { validateIsprite, writeIsprite, type IspriteDocument } from '../../src/formats/isprite/index.js';
import { makeHeroDocument } from '../../scripts/samples/isprite.js';

function check(change: (d: IspriteDocument) => void): { errors: string[]; warnings: string[] } {
  const doc = makeHeroDocument();
  change(doc);
  const d = validateIsprite(writeIsprite(doc));
  return {
    errors: d.filter((x) => x.severity === 'error').map((x) => x.message),
    warnings: d.filter((x) => x.severity === 'warning').map((x) => x.message),
  };
}

describe('ISPRITE validate: semantic checks', () => {
  it('the sample is clean', () => {
    expect(check(() => {})).toEqual({ errors: [], warnings: [] });
  });

  it('references out of range are errors, with the offset of the record', () => {
    const r = check((d) => {
      d.slices[0]!.texture = 3;
      d.slices[1]!.width = 0;
      (d.frames[0]!.elements[0] as { slice: number }).slice = 99;
      d.frames[0]!.elements[1]!.name = 40;
      (d.tree[0] as { frames: number[] }).frames.push(11);
    });
    expect(r.errors).toEqual([
      expect.stringMatching(/^slice 0 uses texture 3, but there is 1 texture \(at byte \d+\)$/),
      expect.stringMatching(/^slice 1 is 0x24 pixels/),
      expect.stringMatching(/^frame 0 element 0 uses slice 99, but there are 10 slices \(at byte \d+\)$/),
      expect.stringMatching(/^frame 0 element 1 uses name 40, but there are 4 names/),
      expect.stringMatching(/^sequence Root\/idle position 2 uses frame 11, but there are 11 frames \(at byte \d+\)$/),
    ]);
  });

  it('erratum 7: a loop flag no sequence loops to; erratum 10: hold time 0', () => {
    const r = check((d) => {
      d.frames[1]!.loopPoint = true;
      d.frames[3]!.holdTime = 0;
    });
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([
      expect.stringMatching(/^frame 3 has hold time 0 \(invalid; played as 1\)/),
      expect.stringMatching(/^frame 1 is flagged as a loop point, but no sequence/),
    ]);
  });

  it('follow-ups resolve up the group tree, case-insensitively', () => {
    expect(check((d) => ((d.tree[2] as { children: { followUp: string }[] }).children[0]!.followUp = 'WALK')).warnings).toEqual([]);
    const r = check((d) => ((d.tree[2] as { children: { followUp: string }[] }).children[0]!.followUp = 'jump'));
    expect(r.warnings).toEqual([expect.stringMatching(/^sequence Root\/Armed\/attack has follow-up "jump", which names no sequence/)]);
    // A follow-up in a sibling group is not found (lookup goes up only).
    const r2 = check((d) => {
      d.tree.push({
        kind: 'group',
        name: 'Other',
        children: [{ kind: 'sequence', name: 'x', loopPoint: null, followUp: 'attack', frames: [0] }],
      });
    });
    expect(r2.warnings).toEqual([expect.stringMatching(/Root\/Other\/x has follow-up "attack"/)]);
  });

  it('a loop point at or past the end is fine (the sequence stops)', () => {
    expect(
      check((d) => {
        (d.tree[0] as { loopPoint: number }).loopPoint = 7;
        d.frames[0]!.loopPoint = false;
      }),
    ).toEqual({ errors: [], warnings: [] });
  });

  it('erratum 6: malformed MET+ keys and values warn', () => {
    const r = check((d) => {
      d.extraMeta = [
        ['default-sequence', 'idle'],
        ['sequence-frame-rate:Root/armed/ATTACK', '12'], // case-insensitive: fine
        ['sequence-frame-rate:Root/Armed/attack', '256'],
        ['sequence-frame-rate:Root/Armed', '5'],
        ['some-other-key', 'anything'],
      ];
    });
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([
      expect.stringMatching(/^MET\+ default-sequence "idle" names no sequence/),
      expect.stringMatching(/^MET\+ sequence-frame-rate:Root\/Armed\/attack value "256" is not a frame rate/),
      expect.stringMatching(/^MET\+ sequence-frame-rate:Root\/Armed names no sequence/),
    ]);
  });

  it('duplicate names in one group and empty sequences warn', () => {
    const r = check((d) => {
      d.tree.push({ kind: 'sequence', name: 'IDLE', loopPoint: 0, followUp: '', frames: [] });
    });
    expect(r.warnings).toEqual([
      expect.stringMatching(/^sequence Root\/IDLE has no frames/),
      expect.stringMatching(/^Root has more than one sequence named "IDLE"/),
    ]);
  });

  it('many problems of one kind are summarised', () => {
    const r = check((d) => {
      for (const f of d.frames) f.holdTime = 0;
      for (let i = 0; i < 30; i++) d.frames.push({ holdTime: 0, loopPoint: false, label: '', triggers: '', notes: '', elements: [] });
    });
    expect(r.warnings.filter((w) => /hold time 0/.test(w))).toHaveLength(20);
    expect(r.warnings).toContain('21 more problems like the ones above (not listed)');
  });
});
