/** Independent conformance review: ISPRITE against ../shared/contract/isprite.md, one test per contract sentence. */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { writeIsprite } from '../../src/formats/isprite/write.js';
import { readIsprite } from '../../src/formats/isprite/read.js';
import { Player } from '../../src/formats/isprite/play.js';
import { playIsprite } from '../../src/formats/isprite/play-cli.js';
import { inspectIspriteJson } from '../../src/formats/isprite/inspect.js';
import { validateIsprite } from '../../src/formats/isprite/validate.js';
import type { IspriteDocument } from '../../src/formats/isprite/model.js';
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
