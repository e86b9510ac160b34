/** Independent conformance review: ISPRITE against docs/spec/isprite.md, one test per contract sentence. */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { writeIsprite } from '../../src/formats/isprite/write.js';
import { readIsprite } from '../../src/formats/isprite/read.js';
import { Player } from '../../src/formats/isprite/play.js';
import { validateIsprite } from '../../src/formats/isprite/validate.js';
import { createIsprite, type IspriteDocument } from '../../src/formats/isprite/model.js';
import { frame, group, seq, sprite } from '../isprite-play/build.js';
import * as B from '../isprite/bytes.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'sprat-review-isprite-'));
let n = 0;
function save(bytes: Uint8Array): string {
  const f = path.join(dir, `t${n++}.isprite`);
  writeFileSync(f, bytes);
  return f;
}
async function play(doc: IspriteDocument, ticks: number, script?: string): Promise<Record<string, unknown>[]> {
  const args = ['play', save(writeIsprite(doc)), '--ticks', String(ticks), '--json'];
  if (script !== undefined) args.push('--script', script);
  const r = await runCli(args);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>[];
}
const brief = (rs: Record<string, unknown>[]) => rs.map((r) => [r.sequence, r.position, r.frame, r.triggers, r.stopped]);
const DEF = (p: string): [string, string][] => [['default-sequence', p]];

describe('ISPRITE play records (contract: `sprat play` for ISPRITE)', () => {
  it('no current sequence: sequence, position and frame null, stopped true', async () => {
    const rs = await play(sprite([seq('a', [0])], [frame()]), 2);
    expect(rs[0]).toEqual({ tick: 0, sequence: null, position: null, frame: null, triggers: [], stopped: true });
  });

  it('"On load the default sequence ... is current at position 0 (activated)": its trigger is in the first record', async () => {
    const rs = await play(sprite([seq('a', [0, 1])], [frame(1, 'x'), frame(1, 'y')], { extraMeta: DEF('Root/a') }), 3);
    expect(brief(rs)).toEqual([
      ['Root/a', 0, 0, ['x'], false],
      ['Root/a', 1, 1, ['y'], false],
      ['Root/a', 0, 0, ['x'], false],
    ]);
  });

  it('a sequence with no frames: sequence named, position and frame null, stopped', async () => {
    const rs = await play(sprite([seq('e', [])], [], { extraMeta: DEF('Root/e') }), 2);
    expect(rs[0]).toEqual({ tick: 0, sequence: 'Root/e', position: null, frame: null, triggers: [], stopped: true });
  });

  it('"else playback stops, still showing the last frame": stopped true, position and frame kept', async () => {
    for (const lp of [null, 2, 7]) {
      const rs = await play(sprite([seq('a', [0, 1], lp)], [frame(1, 'x'), frame(1, 'y')], { extraMeta: DEF('Root/a') }), 4);
      expect(brief(rs)).toEqual([
        ['Root/a', 0, 0, ['x'], false],
        ['Root/a', 1, 1, ['y'], false],
        ['Root/a', 1, 1, [], true],
        ['Root/a', 1, 1, [], true],
      ]);
    }
  });

  it('"including a loop back to the same frame": a one-frame loop emits its trigger every tick', async () => {
    const rs = await play(sprite([seq('a', [0], 0)], [frame(1, 'x')], { extraMeta: DEF('Root/a') }), 3);
    expect(rs.map((r) => r.triggers)).toEqual([['x'], ['x'], ['x']]);
  });

  it('erratum 11: a follow-up naming the sequence that just ended restarts it', async () => {
    const rs = await play(sprite([seq('a', [0, 1], null, 'A')], [frame(1, 'x'), frame(1, 'y')], { extraMeta: DEF('Root/a') }), 4);
    expect(brief(rs)).toEqual([
      ['Root/a', 0, 0, ['x'], false],
      ['Root/a', 1, 1, ['y'], false],
      ['Root/a', 0, 0, ['x'], false],
      ['Root/a', 1, 1, ['y'], false],
    ]);
  });

  it('a follow-up is looked up from the active group upwards (and wins over the loop point)', async () => {
    const doc = sprite(
      [group('G', seq('a', [0], 0, 'b'), seq('b', [1], 0)), seq('b', [2], 0)],
      [frame(1, 'a'), frame(1, 'gb'), frame(1, 'rb')],
    );
    const rs = await play(doc, 3, '0:group Root/G;0:play a');
    expect(brief(rs)).toEqual([
      ['Root/G/a', 0, 0, ['a'], false],
      ['Root/G/b', 0, 1, ['gb'], false],
      ['Root/G/b', 0, 1, ['gb'], false],
    ]);
    // The active group is Root: the follow-up "b" is Root's b, even though a is in G.
    const rs2 = await play(doc, 2, '0:group Root/G;0:play a;0:group Root');
    expect(brief(rs2)[1]).toEqual(['Root/b', 0, 2, ['rb'], false]);
  });

  it('a follow-up that names nothing, with no default: nothing shown, stopped', async () => {
    const rs = await play(sprite([seq('a', [0], 0, 'zz')], [frame()]), 2, '0:play a');
    expect(brief(rs)[1]).toEqual([null, null, null, [], true]);
  });

  it('"If the found sequence is the current one ... nothing changes, even when it has stopped"', async () => {
    const rs = await play(sprite([seq('a', [0, 1], null)], [frame(1, 'x'), frame(1, 'y')]), 5, '0:play a;3:play A;4:restart');
    expect(brief(rs)).toEqual([
      ['Root/a', 0, 0, ['x'], false],
      ['Root/a', 1, 1, ['y'], false],
      ['Root/a', 1, 1, [], true],
      ['Root/a', 1, 1, [], true],
      ['Root/a', 0, 0, ['x'], false],
    ]);
  });

  it('an unknown name falls back to the default; when that is current, nothing changes', async () => {
    const rs = await play(sprite([seq('a', [0, 1], 0)], [frame(1, 'x'), frame(1, 'y')], { extraMeta: DEF('Root/a') }), 2, '1:play nope');
    expect(brief(rs)[1]).toEqual(['Root/a', 1, 1, ['y'], false]);
  });

  it('script commands of one tick apply in the order given; triggers since the previous record, in order', async () => {
    const doc = sprite([seq('a', [0], 0), seq('b', [1], 0)], [frame(3, 'x'), frame(3, 'y')], { extraMeta: DEF('Root/a') });
    const rs = await play(doc, 2, '0:play b;0:play a;1:play b;1:restart');
    expect(brief(rs)).toEqual([
      ['Root/a', 0, 0, ['x', 'y', 'x'], false],
      ['Root/b', 0, 1, ['y', 'y'], false],
    ]);
  });

  it('erratum 10: hold time 0 is played as 1 (and validate warns)', async () => {
    const doc = sprite([seq('a', [0, 1], 0)], [frame(0, 'x'), frame(2, 'y')], { extraMeta: DEF('Root/a') });
    const rs = await play(doc, 4);
    expect(rs.map((r) => r.position)).toEqual([0, 1, 1, 0]);
    const bytes = writeIsprite(doc);
    expect(readIsprite(bytes).frames[0]!.holdTime).toBe(0);
    expect(validateIsprite(bytes).some((d) => d.severity === 'warning' && /hold time 0/.test(d.message ?? String(d)))).toBe(true);
  });

  it('group paths are matched case-insensitively from Root, including the Root segment', async () => {
    const doc = sprite([group('Armed', seq('a', [1], 0)), seq('a', [0], 0)], [frame(), frame()]);
    const rs = await play(doc, 1, '0:group root/ARMED;0:play a');
    expect(rs[0]!.sequence).toBe('Root/Armed/a');
  });

  it('a frame ID with no frame is still reported as the frame ID', async () => {
    const rs = await play(sprite([seq('a', [5], 0)], [frame()]), 1, '0:play a');
    expect(brief(rs)[0]).toEqual(['Root/a', 0, 5, [], false]);
  });
});

describe('ISPRITE update (contract: playback rules)', () => {
  it('"A rate of 0 means the application steps by hand: update does nothing" (master rate 0 and a sequence rate 0)', () => {
    const d1 = sprite([seq('a', [0, 1], 0)], [frame(), frame()], { frameRate: 0, extraMeta: DEF('Root/a') });
    const p1 = new Player(d1);
    p1.update(10);
    expect(p1.position).toBe(0);
    p1.step();
    expect(p1.position).toBe(1);
    const d2 = sprite([seq('a', [0, 1], 0)], [frame(), frame()], {
      frameRate: 30,
      extraMeta: [...DEF('Root/a'), ['sequence-frame-rate:Root/a', '0']],
    });
    const p2 = new Player(d2);
    p2.update(10);
    expect(p2.position).toBe(0);
  });

  it('update converts time into whole steps, carrying the remainder, and catches up', () => {
    const d = sprite([seq('a', [0, 1, 2], 0)], [frame(), frame(), frame()], { frameRate: 10, extraMeta: DEF('Root/a') });
    const p = new Player(d);
    p.update(0.05);
    expect(p.position).toBe(0);
    p.update(0.05);
    expect(p.position).toBe(1);
    p.update(0.2);
    expect(p.position).toBe(0);
    const q = new Player(d);
    q.update(0.25);
    q.update(0.05);
    expect(q.position).toBe(0);
  });
});

describe('ISPRITE inspect --json (contract: `sprat inspect --json` for ISPRITE)', () => {
  it('exact values: nonStandardId trimmed, dates, fixed point, raw opacity, null names, loopPoint null, unknown element size byte', async () => {
    const { u8, u16, u32, fx, fxp, str, chunk, element, frame: fr, fram, file, cat } = B;
    const bytes = file(
      { id: 'AB', flags: 1, frameRate: 0 },
      chunk(
        'META',
        u8(1),
        u8(2),
        u16(1992),
        u8(3),
        u8(4),
        u8(5),
        u8(6),
        new Array(8).fill(0),
        u32(5),
        u32(0),
        ...Array.from({ length: 11 }, (_, i) => str(`s${i}`)),
      ),
      chunk('MET+'),
      chunk('TEX ', u8(1), u8(1), u8(1), str('sheets/hero')),
      chunk('SLIC', u32(1), u8(10), u8(0), u8(1), u16(1), u16(2), u16(16), u16(24)),
      chunk('NAME', u16(2), str('hand'), str('hurtbox')),
      chunk('TIER', u8(0x47), str('Armed'), u8(0x53), u32(1), u32(0xffffffff), str('attack'), str('idle'), u32(0), u8(0x43)),
      fram(
        [
          fr(
            { hold: 0, flags: 1, label: 'L', triggers: 'T', notes: 'N' },
            element('g', 0xffff, cat(u16(0), fx(-8), fxp(-1, 128), u8(1))),
            element('G', 0, cat(u16(0), fx(2.5), fx(-10), u8(2), fx(3), fx(4), fx(45), fx(1), fx(0.5), u16(1234))),
            element('A', 0, cat(u16(7), fx(4), fx(-12), u16(3), fx(0), fx(1), fx(1), u16(0))),
            element('C', 1, cat(u8(0), u8(0x72), u16(0), fx(-6), fx(-20), fx(12), fx(20), u8(0), fx(30))),
            element('C', 1, cat(u8(0), u8(0x63), u16(1), fx(0), fx(-10), fx(6.5))),
            element('X', 0xffff, [1, 2, 3, 4]),
          ),
        ],
        6,
      ),
      chunk('XTRA', u32(1), u32(2), u32(3)),
    );
    const r = await runCli(['inspect', save(bytes), '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(Object.keys(j)).toEqual([
      'format',
      'version',
      'nonStandard',
      'workFile',
      'nonStandardId',
      'frameRate',
      'meta',
      'extraMeta',
      'textures',
      'slices',
      'names',
      'tree',
      'frames',
      'unknownChunks',
    ]);
    expect(j).toMatchObject({
      format: 'isprite',
      version: [1, 0],
      nonStandard: true,
      workFile: false,
      nonStandardId: 'AB',
      frameRate: 0,
      extraMeta: [],
    });
    expect(Object.keys(j.meta)).toEqual([
      'created',
      'saved',
      'workTimeMs',
      'tags',
      'title',
      'project',
      'author',
      'company',
      'contact',
      'url',
      'copyright',
      'comments',
      'originatingProgram',
      'program',
    ]);
    expect(j.meta.created).toEqual({ year: 1992, month: 2, day: 1, hour: 3, minute: 4, second: 5, centisecond: 6 });
    expect(Object.keys(j.meta.created)).toEqual(['year', 'month', 'day', 'hour', 'minute', 'second', 'centisecond']);
    expect(j.meta.saved).toBeNull();
    expect(j.meta.workTimeMs).toBe(5);
    expect(j.slices).toEqual([{ texture: 0, rotated: true, x: 1, y: 2, width: 16, height: 24 }]);
    expect(j.tree).toEqual([{ group: 'Armed', children: [{ sequence: 'attack', loopPoint: null, followUp: 'idle', frames: [0] }] }]);
    const f = j.frames[0];
    expect(Object.keys(f)).toEqual(['holdTime', 'loopPoint', 'label', 'triggers', 'notes', 'elements']);
    expect(f).toMatchObject({ holdTime: 0, loopPoint: true, label: 'L', triggers: 'T', notes: 'N' });
    const shapes = f.elements.map((e: object) => Object.keys(e).join(','));
    expect(shapes).toEqual([
      'type,expanded,name,slice,x,y,flipX,flipY',
      'type,expanded,name,slice,x,y,flipX,flipY,originX,originY,rotation,scaleX,scaleY,opacity',
      'type,name,id,x,y,flipX,flipY,rotation,scaleX,scaleY,opacity',
      'type,name,id,x,y,width,height,rotation',
      'type,name,id,x,y,radius',
      'type,marker,name,size',
    ]);
    expect(f.elements[0]).toMatchObject({ name: null, x: -8, y: -0.5, flipX: true, flipY: false });
    expect(f.elements[1]).toMatchObject({ name: 0, x: 2.5, flipY: true, rotation: 45, scaleY: 0.5, opacity: 1234 });
    expect(f.elements[2]).toMatchObject({ id: 7, flipX: true, flipY: true, opacity: 0 });
    expect(f.elements[3]).toMatchObject({ x: -6, y: -20, width: 12, height: 20, rotation: 30 });
    expect(f.elements[4]).toMatchObject({ radius: 6.5 });
    expect(f.elements[5]).toEqual({ type: 'unknown', marker: 88, name: null, size: 4 });
    expect(j.unknownChunks).toEqual([{ id: 'XTRA', size: 12 }]);
  });

  it('meta and extraMeta are null when there is no META / MET+ chunk', async () => {
    const r = await runCli(['inspect', save(B.file({})), '--json']);
    const j = JSON.parse(r.stdout);
    expect(j.meta).toBeNull();
    expect(j.extraMeta).toBeNull();
  });
});

describe('erratum 7 with follow-ups', () => {
  it('a frame flagged as a loop point is not looped to by a sequence whose follow-up makes its loop point ignored', () => {
    const doc = createIsprite();
    doc.frames.push({ holdTime: 1, loopPoint: true, label: '', triggers: '', notes: '', elements: [] });
    doc.tree.push({ kind: 'sequence', name: 'a', loopPoint: 0, followUp: 'b', frames: [0] });
    doc.tree.push({ kind: 'sequence', name: 'b', loopPoint: null, followUp: '', frames: [0] });
    const warnings = validateIsprite(writeIsprite(doc))
      .filter((d) => d.severity === 'warning')
      .map((d) => d.message);
    expect(warnings.some((m) => /frame 0 is flagged as a loop point/.test(m))).toBe(true);
    doc.tree[1] = { kind: 'sequence', name: 'b', loopPoint: 0, followUp: '', frames: [0] };
    const after = validateIsprite(writeIsprite(doc)).map((d) => d.message);
    expect(after.some((m) => /flagged as a loop point/.test(m))).toBe(false);
  });
});
