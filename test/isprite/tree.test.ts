import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  ispriteTree as T,
  readIsprite,
  validateIsprite,
  writeIsprite,
  inspectIspriteText,
  createIsprite,
  type IspriteNode,
} from '../../src/formats/isprite/index.js';
import { makeHeroDocument } from '../../scripts/samples/isprite.js';
import { ispriteDocument } from './arb.js';
import { chunk, file, str, u32 } from './bytes.js';

describe('ISPRITE group tree helpers', () => {
  it('paths and lookups follow the contract', () => {
    const doc = makeHeroDocument();
    expect(T.allSequences(doc).map((r) => r.path)).toEqual(['Root/idle', 'Root/walk', 'Root/Armed/attack', 'Root/Armed/idle']);
    expect(T.findGroup(doc, 'root/ARMED')!.path).toBe('Root/Armed');
    expect(T.findGroup(doc, 'Root')!.path).toBe('Root');
    expect(T.findGroup(doc, 'Armed')).toBeNull();
    expect(T.findSequenceByPath(doc, 'Root/Armed/Idle')!.sequence).toBe((doc.tree[2] as { children: IspriteNode[] }).children[1]);
    const armed = T.findGroup(doc, 'Root/Armed')!;
    expect(T.resolveSequence(armed, 'idle')!.path).toBe('Root/Armed/idle');
    expect(T.resolveSequence(armed, 'WALK')!.path).toBe('Root/walk');
    expect(T.resolveSequence(T.rootGroup(doc), 'attack')).toBeNull();
    expect(T.defaultSequence(doc)!.path).toBe('Root/idle');
    expect([...T.sequenceFrameRates(doc).values()]).toEqual([15]);
    // Only A-Z/a-z fold: other letters must match exactly.
    expect(T.namesEqual('ÉTÉ', 'été')).toBe(false);
    expect(T.namesEqual('Idle_2', 'iDLE_2')).toBe(true);
  });

  it('property: the one-pass resolvers agree with the simple ones', () => {
    fc.assert(
      fc.property(ispriteDocument, fc.array(fc.constantFrom('idle', 'IDLE', 'a', ''), { maxLength: 3 }), (doc, extra) => {
        // Give the tree some repeated names to find.
        for (const [i, n] of extra.entries())
          doc.tree.push({ kind: 'sequence', name: n, loopPoint: null, followUp: extra[(i + 1) % extra.length]!, frames: [] });
        const fast = T.resolveFollowUps(doc);
        const paths = T.makePathResolver(doc);
        for (const ref of T.allSequences(doc)) {
          if (ref.sequence.followUp !== '') {
            expect(fast.get(ref.sequence)?.sequence ?? null).toBe(T.resolveSequence(ref.group, ref.sequence.followUp)?.sequence ?? null);
          }
          expect(paths.findSequence(ref.path)?.sequence ?? null).toBe(T.findSequenceByPath(doc, ref.path)?.sequence ?? null);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('a deep, hostile tree validates and inspects quickly', () => {
    const depth = 20_000;
    const parts: number[][] = [];
    for (let i = 0; i < depth; i++) parts.push([0x47], str('g'), [0x53], u32(0), u32(0), str(`s${i}`), str(`missing${i}`));
    for (let i = 0; i < depth; i++) parts.push([0x43]);
    const bytes = file({}, chunk('TIER', ...parts));
    const t = Date.now();
    const d = validateIsprite(bytes);
    expect(d.filter((x) => /follow-up/.test(x.message))).toHaveLength(20);
    const text = inspectIspriteText(readIsprite(bytes));
    expect(text.length).toBeLessThan(5_000_000);
    expect(Date.now() - t).toBeLessThan(20_000); // a hang would take minutes
  });

  it('many MET+ keys against a wide group stay fast', () => {
    const doc = createIsprite();
    for (let i = 0; i < 20_000; i++) doc.tree.push({ kind: 'sequence', name: `s${i}`, loopPoint: null, followUp: '', frames: [] });
    doc.extraMeta = [];
    for (let i = 0; i < 20_000; i++) doc.extraMeta.push([`sequence-frame-rate:Root/x${i}`, '5']);
    const d = validateIsprite(writeIsprite(doc));
    expect(d.some((x) => /names no sequence/.test(x.message))).toBe(true);
  });
});
