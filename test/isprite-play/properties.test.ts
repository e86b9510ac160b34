/** Property tests of the player: a plain reference model, periods, update() pieces, robustness. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IspriteDocument, IspriteNode, IspriteSequence } from '../../src/formats/isprite/model.js';
import { listSequences } from '../../src/formats/isprite/paths.js';
import { Player, prepareSprite } from '../../src/formats/isprite/play.js';
import { attachmentPoints } from '../../src/formats/isprite/attach.js';
import { collisionShapes } from '../../src/formats/isprite/collide.js';
import { frame, seq, sprite } from './build.js';

const NAMES = ['a', 'A', 'b', 'B', 'c', 'é'];

const sequenceArb: fc.Arbitrary<IspriteSequence> = fc.record({
  kind: fc.constant('sequence' as const),
  name: fc.constantFrom(...NAMES),
  loopPoint: fc.constantFrom(null, 0, 1, 2, 5, 0xffffffff),
  followUp: fc.constantFrom('', '', '', 'a', 'B', 'c', 'zz'),
  frames: fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 5 }),
});

const treeArb: fc.Arbitrary<IspriteNode[]> = fc.letrec<{ nodes: IspriteNode[] }>((tie) => ({
  nodes: fc.array(
    fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      sequenceArb,
      fc.record({ kind: fc.constant('group' as const), name: fc.constantFrom('g', 'G', 'h'), children: tie('nodes') }),
    ),
    { maxLength: 4 },
  ),
})).nodes;

const docArb: fc.Arbitrary<IspriteDocument> = fc
  .record({
    tree: treeArb,
    holds: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 0, maxLength: 6 }),
    trig: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
    defaultPick: fc.option(fc.nat(), { nil: null }),
    rates: fc.array(fc.tuple(fc.nat(), fc.constantFrom('0', '1', '2', '4', '8', '255', 'x')), { maxLength: 3 }),
    master: fc.constantFrom(0, 1, 2, 4, 8, 16),
  })
  .map(({ tree, holds, trig, defaultPick, rates, master }) => {
    const d = sprite(
      tree,
      holds.map((h, i) => frame(h, trig[i] ? `t${i}` : '')),
      { frameRate: master },
    );
    const paths = listSequences(d).map((e) => e.path);
    const meta: [string, string][] = [];
    if (defaultPick !== null && paths.length) meta.push(['default-sequence', paths[defaultPick % paths.length]!]);
    for (const [i, v] of rates) if (paths.length) meta.push([`sequence-frame-rate:${paths[i % paths.length]}`, v]);
    d.extraMeta = meta.length ? meta : null;
    return d;
  });

type Cmd = { op: 'step' } | { op: 'play'; name: string } | { op: 'restart' } | { op: 'group'; path: string };
const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ op: 'step' } as Cmd) },
  { weight: 2, arbitrary: fc.constantFrom(...NAMES, 'zz').map((name) => ({ op: 'play', name }) as Cmd) },
  { weight: 1, arbitrary: fc.constant({ op: 'restart' } as Cmd) },
  { weight: 1, arbitrary: fc.constantFrom('Root', 'root/G', 'Root/g/h', 'Root/h', 'Root/x').map((path) => ({ op: 'group', path }) as Cmd) },
);

/**
 * The playback rules written as plainly as possible, straight on the
 * document objects: the reference the Player is checked against.
 */
class Reference {
  group: IspriteNode[][] = [];
  groupNodes: { children: IspriteNode[] }[];
  current: IspriteSequence | null = null;
  pos = 0;
  held = 0;
  stopped = true;
  triggers: string[] = [];
  constructor(readonly doc: IspriteDocument) {
    this.groupNodes = [{ children: doc.tree }];
    const def = this.defaultSeq();
    this.begin(def);
  }
  fold(s: string): string {
    return s.replace(/[A-Z]/g, (c) => c.toLowerCase());
  }
  defaultSeq(): IspriteSequence | null {
    const v = this.doc.extraMeta?.find(([k]) => k === 'default-sequence')?.[1];
    if (v === undefined) return null;
    const segs = v.split('/');
    if (this.fold(segs[0]!) !== 'root') return null;
    let node: { children: IspriteNode[] } = { children: this.doc.tree };
    for (const s of segs.slice(1, -1)) {
      const g = node.children.find((n) => n.kind === 'group' && this.fold(n.name) === this.fold(s));
      if (!g) return null;
      node = g as { children: IspriteNode[] };
    }
    return (
      (node.children.find((n) => n.kind === 'sequence' && this.fold(n.name) === this.fold(segs[segs.length - 1]!)) as IspriteSequence) ??
      null
    );
  }
  find(name: string): IspriteSequence | null {
    for (let i = this.groupNodes.length - 1; i >= 0; i--) {
      const s = this.groupNodes[i]!.children.find((n) => n.kind === 'sequence' && this.fold(n.name) === this.fold(name));
      if (s) return s as IspriteSequence;
    }
    return this.defaultSeq();
  }
  setGroup(path: string): void {
    const segs = path.split('/');
    if (this.fold(segs[0]!) !== 'root') return;
    const chain: { children: IspriteNode[] }[] = [{ children: this.doc.tree }];
    for (const s of segs.slice(1)) {
      const g = chain[chain.length - 1]!.children.find((n) => n.kind === 'group' && this.fold(n.name) === this.fold(s));
      if (!g) return;
      chain.push(g as { children: IspriteNode[] });
    }
    this.groupNodes = chain;
  }
  hold(): number {
    const f = this.doc.frames[this.current!.frames[this.pos]!];
    return f && f.holdTime > 0 ? f.holdTime : 1;
  }
  activate(): void {
    const t = this.doc.frames[this.current!.frames[this.pos]!]?.triggers ?? '';
    if (t) this.triggers.push(t);
  }
  begin(s: IspriteSequence | null): void {
    this.current = s;
    this.pos = 0;
    this.held = 0;
    this.stopped = !s || s.frames.length === 0;
    if (!this.stopped) this.activate();
  }
  play(name: string): void {
    const s = this.find(name);
    if (s !== this.current) this.begin(s);
  }
  step(): void {
    if (this.stopped) return;
    this.held++;
    if (this.held < this.hold()) return;
    this.held = 0;
    const s = this.current!;
    if (this.pos + 1 < s.frames.length) {
      this.pos++;
      this.activate();
    } else if (s.followUp !== '') {
      this.begin(this.find(s.followUp));
    } else if (s.loopPoint !== null && s.loopPoint < s.frames.length) {
      this.pos = s.loopPoint;
      this.activate();
    } else this.stopped = true;
  }
  state(): unknown {
    const shown = this.current && this.current.frames.length > 0;
    return [this.current, shown ? this.pos : null, shown ? this.current!.frames[this.pos] : null, this.stopped];
  }
}

const playerState = (p: Player): unknown => [p.sequence, p.position, p.frameId, p.stopped];

describe('player properties', () => {
  it('matches the plain reference model of the rules on random sprites and commands', () => {
    fc.assert(
      fc.property(docArb, fc.array(cmdArb, { maxLength: 60 }), (doc, cmds) => {
        const p = new Player(prepareSprite(doc));
        const r = new Reference(doc);
        expect(playerState(p)).toEqual(r.state());
        for (const c of cmds) {
          if (c.op === 'step') p.step(), r.step();
          else if (c.op === 'play') p.setAnimation(c.name), r.play(c.name);
          else if (c.op === 'restart') p.restart(), r.begin(r.current);
          else p.setGroup(c.path), r.setGroup(c.path);
          expect(playerState(p)).toEqual(r.state());
        }
        expect(p.takeTriggers()).toEqual(r.triggers);
      }),
      { numRuns: 400 },
    );
  });

  it("a looping sequence's frames repeat with the sum of its hold times as period", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 6 }), (holds) => {
        const d = sprite(
          [
            seq(
              'loop',
              holds.map((_, i) => i),
              0,
            ),
          ],
          holds.map((h) => frame(h)),
        );
        const p = new Player(d);
        p.setAnimation('loop');
        const period = holds.reduce((s, h) => s + Math.max(1, h), 0);
        const seen: number[] = [];
        for (let i = 0; i < period * 3; i++) {
          seen.push(p.frameId!);
          p.step();
        }
        for (let i = period; i < seen.length; i++) expect(seen[i]).toBe(seen[i - period]);
        expect(new Set(seen.slice(0, period)).size).toBe(holds.length);
      }),
    );
  });

  it('update(dt) in many small pieces = one big piece, at exact rates', () => {
    fc.assert(
      fc.property(
        docArb,
        fc.array(fc.integer({ min: 0, max: 200 }), { minLength: 1, maxLength: 30 }),
        fc.constantFrom(...NAMES),
        (doc, pieces, name) => {
          const a = new Player(doc);
          const b = new Player(doc);
          a.setAnimation(name);
          b.setAnimation(name);
          for (const k of pieces) a.update(k / 64);
          b.update(pieces.reduce((s, k) => s + k, 0) / 64);
          expect([playerState(a), a.held]).toEqual([playerState(b), b.held]);
          expect(a.takeTriggers()).toEqual(b.takeTriggers());
        },
      ),
      { numRuns: 300 },
    );
  });

  // Two cases the property found once (each with a change of frame rate inside one update).
  it('update carries the time left at a follow-up into the new rate, also after the last step of the old one', () => {
    const meta: [string, string][] = [
      ['default-sequence', 'Root/a'],
      ['sequence-frame-rate:Root/c', '8'],
      ['sequence-frame-rate:Root/a', '1'],
    ];
    const doc = sprite([seq('a', [0], null, 'c'), seq('c', [0], null)], [frame(2)], { frameRate: 0 });
    doc.extraMeta = meta;
    const a = new Player(doc);
    const b = new Player(doc);
    a.update(2);
    a.update(0.125);
    b.update(2.125);
    expect([playerState(b), b.held]).toEqual([playerState(a), a.held]);
    expect(b.held).toBe(1);
  });

  it('update does not skip loop passes of a new sequence with steps counted at the old rate', () => {
    const doc = sprite([seq('a', [1], 0), seq('b', [0], null, 'zz')], [frame(0), frame(2)], { frameRate: 0 });
    doc.extraMeta = [
      ['default-sequence', 'Root/a'],
      ['sequence-frame-rate:Root/a', '2'],
      ['sequence-frame-rate:Root/b', '8'],
    ];
    const a = new Player(doc);
    const b = new Player(doc);
    a.setAnimation('B');
    b.setAnimation('B');
    a.update(0.125);
    a.update(0.5);
    b.update(0.625);
    expect([playerState(b), b.held]).toEqual([playerState(a), a.held]);
    expect(b.held).toBe(1);
  });

  it('update(n / rate) = n calls of step() (catching up, including skipped loop passes)', () => {
    fc.assert(
      fc.property(
        docArb,
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 0, max: 500 }),
        fc.constantFrom(...NAMES),
        (doc, rate, n, name) => {
          doc.frameRate = rate;
          doc.extraMeta = doc.extraMeta?.filter(([k]) => !k.startsWith('sequence-frame-rate:')) ?? null;
          const a = new Player(doc);
          const b = new Player(doc);
          a.setAnimation(name);
          b.setAnimation(name);
          a.update(n / rate);
          for (let i = 0; i < n; i++) b.step();
          expect([playerState(a), a.held]).toEqual([playerState(b), b.held]);
          expect(a.takeTriggers()).toEqual(b.takeTriggers());
        },
      ),
      { numRuns: 300 },
    );
  });

  it('players never throw, and a playing player always shows a frame', () => {
    const weirdDoc = fc.tuple(docArb, fc.array(fc.oneof(fc.double(), fc.integer()), { maxLength: 6 })).map(([d, holds]) => {
      holds.forEach((h, i) => {
        if (d.frames[i]) d.frames[i]!.holdTime = h;
      });
      return d;
    });
    const anyCmd = fc.oneof(
      cmdArb,
      fc.double().map((t) => ({ op: 'update', t }) as const),
      fc.string().map((name) => ({ op: 'play', name }) as const),
      fc.string().map((path) => ({ op: 'group', path }) as const),
      fc.constant({ op: 'look' } as const),
    );
    fc.assert(
      fc.property(weirdDoc, fc.array(anyCmd, { maxLength: 40 }), (doc, cmds) => {
        const p = new Player(doc, { onTrigger: () => {}, collectTriggers: true });
        for (const c of cmds) {
          if (c.op === 'step') p.step();
          else if (c.op === 'play') p.setAnimation(c.name);
          else if (c.op === 'restart') p.restart();
          else if (c.op === 'group') p.setGroup(c.path);
          else if (c.op === 'update') p.update(c.t);
          else {
            p.sample(0.5);
            p.sample();
            p.nextFrame();
            collisionShapes(p, { scaleX: 2 });
            attachmentPoints(p, 'x');
          }
          if (!p.stopped) {
            expect(p.frameId).not.toBeNull();
            expect(p.position!).toBeLessThan(p.sequence!.frames.length);
          }
          if (p.sequence === null) expect(p.stopped).toBe(true);
          expect(p.held).toBeGreaterThanOrEqual(0);
        }
      }),
      { numRuns: 300 },
    );
  });
});
