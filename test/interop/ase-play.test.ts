/**
 * Native Aseprite files on the command line beyond reading: `sprat play`
 * (tags as Aseprite plays them, frame durations), and the layer choices
 * `--hide-layers` / `--layer-opacity` by number, name or group path in
 * `render`, `convert` and the library call the viewer makes.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { load, render } from '../../src/api.js';
import { fsResourceLoader } from '../../src/node/fs.js';
import { aseHandler } from '../../src/interop/aseprite/file.js';
import { type AsepriteDirection, type AsepriteTag, tagPlayback } from '../../src/interop/aseprite/index.js';
import { RunTimeline, tagRuns } from '../../src/interop/aseprite/play.js';
import { decodePng } from '../../src/render/png.js';
import { groupedAse } from '../helpers/ase-files.js';
import { aseFile, rgbaPixels, type WLayer } from '../helpers/ase-writer.js';
import { runCli } from '../helpers/cli.js';
import { ROOT } from '../helpers/paths.js';
import { memoryLoader } from './helpers.js';

const tag = (from: number, to: number, direction: AsepriteDirection, repeat?: number): AsepriteTag => ({
  name: 't',
  from,
  to,
  direction,
  ...(repeat ? { repeat } : {}),
});

/** The runs as one list (a run played forever: once). */
function expand(t: AsepriteTag): number[] {
  const out: number[] = [];
  for (const r of tagRuns(t)) for (let i = 0; i < (r.times === Infinity ? 1 : r.times); i++) out.push(...r.frames);
  return out;
}

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'ase-play-'));
}

describe('ase: tags play as Aseprite 1.3 plays them', () => {
  it("the cases of Aseprite's own doc/playback_tests.cpp", () => {
    // OnceTag, WithTagRepetitions, FourTags (B, C, D), SimplePingPong2/3, SimplePingPong3Repeats.
    const cases: [AsepriteTag, number[]][] = [
      [tag(1, 3, 'forward', 1), [1, 2, 3]],
      [tag(1, 3, 'reverse', 1), [3, 2, 1]],
      [tag(1, 2, 'forward', 2), [1, 2, 1, 2]],
      [tag(3, 5, 'reverse', 2), [5, 4, 3, 5, 4, 3]],
      [tag(6, 8, 'pingpong', 3), [6, 7, 8, 7, 6, 7, 8]],
      [tag(10, 12, 'pingpong_reverse', 2), [12, 11, 10, 11, 12]],
      [tag(0, 1, 'pingpong', 2), [0, 1, 0]],
      [tag(0, 1, 'pingpong', 3), [0, 1, 0, 1]],
      [tag(0, 2, 'pingpong', 3), [0, 1, 2, 1, 0, 1, 2]],
      [tag(0, 0, 'forward', 2), [0, 0]],
    ];
    for (const [t, want] of cases) {
      expect(tagPlayback(t), JSON.stringify(t)).toEqual({ frames: want, loop: false });
      expect(expand(t), JSON.stringify(t)).toEqual(want);
    }
    // Forever (no repeat): LoopTagInfinite; a ping-pong cycle turns on each end once.
    expect(tagPlayback(tag(1, 2, 'forward'))).toEqual({ frames: [1, 2], loop: true });
    expect(tagPlayback(tag(0, 3, 'pingpong'))).toEqual({ frames: [0, 1, 2, 3, 2, 1], loop: true });
    expect(tagPlayback(tag(0, 3, 'pingpong_reverse'))).toEqual({ frames: [3, 2, 1, 0, 1, 2], loop: true });
  });

  it('the runs play and the list the renderer draws are one sequence, for every direction and repeat', () => {
    for (const d of ['forward', 'reverse', 'pingpong', 'pingpong_reverse'] as const) {
      for (const [from, to] of [
        [0, 0],
        [2, 3],
        [1, 4],
      ] as const) {
        for (const repeat of [0, 1, 2, 3, 4, 7]) {
          const t = tag(from, to, d, repeat);
          const list = tagPlayback(t).frames;
          expect(expand(t), `${d} ${from}-${to} x${repeat}`).toEqual(list);
          // Each frame lasts 10 ms + 5 per frame number: the timeline finds each one at its start.
          const dur = (f: number) => 10 + 5 * f;
          const tl = new RunTimeline(tagRuns(t), dur);
          let at = 0;
          for (const f of list) {
            expect(tl.frameAt(at)).toBe(f);
            expect(tl.frameAt(at + dur(f) - 1)).toBe(f);
            at += dur(f);
          }
          if (repeat > 0) expect(tl.frameAt(at + 1000)).toBe(list[list.length - 1]);
          else expect(tl.frameAt(at)).toBe(list[0]);
        }
      }
    }
  });

  it('65535 passes of a ping-pong are found without listing them', () => {
    const t = tag(0, 999, 'pingpong', 65535);
    const tl = new RunTimeline(tagRuns(t), () => 1);
    // Pass k (from 0) covers 999 frames after the first 1000; an odd pass goes down.
    expect(tl.frameAt(0)).toBe(0);
    expect(tl.frameAt(999)).toBe(999);
    expect(tl.frameAt(1000)).toBe(998);
    expect(tl.frameAt(1000 + 999 * 2 - 1)).toBe(999);
    expect(tl.frameAt(1e12)).toBe(999); // 65535 passes: the last goes up, and stays
  });
});

describe('ase: sprat play', () => {
  const dir = tmp();
  const file = path.join(dir, 'grouped.aseprite');
  fs.writeFileSync(file, groupedAse());
  const play = async (...args: string[]) => runCli(['play', file, ...args]);

  it('plays a tag in its direction, each frame for its own duration, then stays on the last frame', async () => {
    // walk: 0-2 ping-pong 3 times = 0 1 2 1 0 1 2; durations 100, 150, 50 ms.
    const r = await play('--animation', 'walk', '--json');
    expect(r.code, r.stderr).toBe(0);
    const records = JSON.parse(r.stdout) as { time: number; frame: number }[];
    const want = [0, 0, 1, 1, 1, 2, 1, 1, 1, 0, 0, 1, 1, 1, 2];
    // Default: every 50 ms (the greatest common divisor of the durations), the whole run (750 ms).
    expect(records).toEqual(want.map((frame, i) => ({ time: 50 * i, frame })));
    const longer = JSON.parse((await play('--animation', 'walk', '--ms', '1000', '--step-ms', '250', '--json')).stdout);
    expect(longer).toEqual([
      { time: 0, frame: 0 },
      { time: 250, frame: 2 },
      { time: 500, frame: 0 },
      { time: 750, frame: 2 },
    ]);
    // back: reverse twice = 2 1 0 2 1 0 (50, 150, 100 ms each time).
    const back = JSON.parse((await play('--animation', 'back', '--ms', '800', '--step-ms', '100', '--json')).stdout);
    expect(back.map((x: { frame: number }) => x.frame)).toEqual([2, 1, 0, 2, 1, 0, 0, 0]);
  });

  it('a tag without repeat loops; without --animation every frame in order, looping', async () => {
    // bounce: ping-pong reverse forever = 2 1 0 1, 2 1 0 1, ...
    const bounce = JSON.parse((await play('--animation', 'bounce', '--json')).stdout) as { time: number; frame: number }[];
    expect(bounce.length).toBe(18); // two cycles of 450 ms at 50 ms
    expect(bounce.map((x) => x.frame)).toEqual([2, 1, 1, 1, 0, 0, 1, 1, 1, 2, 1, 1, 1, 0, 0, 1, 1, 1]);
    const all = JSON.parse((await play('--json')).stdout) as { time: number; frame: number }[];
    expect(all.map((x) => x.frame)).toEqual([0, 0, 1, 1, 1, 2, 0, 0, 1, 1, 1, 2]);
    const idle = JSON.parse((await play('--animation', 'idle', '--ms', '400', '--json')).stdout);
    expect(idle).toEqual([0, 150, 300].map((time) => ({ time, frame: 1 })));
  });

  it('prints the records the schema describes, or a timeline; a wrong tag or too many records is one error line', async () => {
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
    ajv.addSchema(JSON.parse(fs.readFileSync(path.join(ROOT, 'schemas/play.schema.json'), 'utf8')));
    const v = ajv.getSchema('https://sprat.invalid/schemas/play.schema.json#/$defs/timedRecords')!;
    expect(v(JSON.parse((await play('--animation', 'walk', '--json')).stdout)), ajv.errorsText(v.errors)).toBe(true);
    const text = await play('--animation', 'walk');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^tag "walk": frames 0-2, pingpong, 3 times, then stops on its last frame\n/);
    expect(text.stdout).toMatch(/\n100 ms {2}frame 1 {2}\(changed\)\n/);
    const bad = await play('--animation', 'run');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^sprat: error: .*--animation "run" names no tag \(the sprite has: walk, back, idle, bounce\)\n$/);
    const many = await play('--ms', '100000', '--step-ms', '1', '--max-records', '1000');
    expect(many.code).toBe(1);
    expect(many.stderr).toMatch(/--max-records/);
  });

  it('the JSON sheet export plays its tags the same way, each frame for its `duration`', async () => {
    // hero-aseprite-hash.json: durations 100, 150, 100, 250; walk 0-2 ping-pong (forever), idle 3-3 twice.
    const json = path.join(ROOT, 'test/interop/fixtures/hero-aseprite-hash.json');
    const walk = await runCli(['play', json, '--animation', 'walk', '--step-ms', '50', '--json']);
    expect(walk.code, walk.stderr).toBe(0);
    const frames = (JSON.parse(walk.stdout) as { frame: number }[]).map((r) => r.frame);
    expect(frames).toEqual([0, 0, 1, 1, 1, 2, 2, 1, 1, 1, 0, 0, 1, 1, 1, 2, 2, 1, 1, 1]);
    const idle = await runCli(['play', json, '--animation', 'idle', '--ms', '1000', '--step-ms', '250', '--json']);
    expect(JSON.parse(idle.stdout)).toEqual([0, 250, 500, 750].map((time) => ({ time, frame: 3 })));
    // Without --animation: the first tag, as render draws a sheet.
    const first = await runCli(['play', json, '--step-ms', '50', '--json']);
    expect(first.stdout).toBe(walk.stdout);
  });

  it('a sheet frame shorter than 1 ms plays for 1 ms, with a warning; a huge duration runs out of records, not memory', async () => {
    const doc = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/interop/fixtures/hero-aseprite-hash.json'), 'utf8'));
    const keys = Object.keys(doc.frames);
    [0, 16.5, 1e300, 100].forEach((d, i) => {
      doc.frames[keys[i]!].duration = d;
    });
    const dir = tmp();
    const file = path.join(dir, 'odd.json');
    fs.writeFileSync(file, JSON.stringify(doc));
    const r = await runCli(['play', file, '--animation', 'walk', '--ms', '40', '--step-ms', '10', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(`${file}: warning: frames shorter than 1 ms play for 1 ms: 0\n`);
    expect(JSON.parse(r.stdout).map((x: { frame: number }) => x.frame)).toEqual([0, 1, 2, 2]);
    const long = await runCli(['play', file, '--animation', 'walk', '--json']);
    expect(long.code).toBe(1);
    expect(long.stderr).toMatch(/--max-records/);
  });

  it("converted to Aseprite's JSON export, every tag plays the same pictures for the same times", async () => {
    const dir = tmp();
    const file = path.join(dir, 'g.aseprite');
    fs.writeFileSync(file, groupedAse());
    const c = await runCli(['convert', file, path.join(dir, 'g.json')]);
    expect(c.code, c.stderr).toBe(0);
    expect(c.stderr).toMatch(/hidden and reference layers \(not drawn\): "fx\/glow", "ref"/);
    /** Every picture shown, with its time, over the whole run (a loop count spelled out). */
    const shown = async (f: string, animation: string) => {
      const r = await render(load(fs.readFileSync(f), f), { animation }, fsResourceLoader(dir));
      const out: [string, number][] = [];
      for (let k = 0; k < Math.max(1, r.loops ?? 1); k++)
        r.frames.forEach((img, i) => out.push([Buffer.from(img.data).toString('base64'), r.delaysMs![i]!]));
      return out;
    };
    for (const t of ['walk', 'back', 'bounce']) {
      expect(await shown(path.join(dir, 'g.json'), t), t).toEqual(await shown(file, t));
    }
  });

  it('render draws the frames play shows, with their durations', async () => {
    const doc = aseHandler.read(groupedAse());
    const p = await aseHandler.picture!(doc, { animation: 'walk' }, memoryLoader({}));
    expect(p.frames.map((f) => f.delayMs)).toEqual([100, 150, 50, 150, 100, 150, 50]);
    expect(p.loops).toBe(1);
    // A forward or reverse tag played N times: its frames once, played N times (as a GIF stores it).
    const back = await aseHandler.picture!(doc, { animation: 'back' }, memoryLoader({}));
    expect(back.frames.map((f) => f.delayMs)).toEqual([50, 150, 100]);
    expect(back.loops).toBe(2);
    const bounce = await aseHandler.picture!(doc, { animation: 'bounce' }, memoryLoader({}));
    expect(bounce.frames.map((f) => f.delayMs)).toEqual([50, 150, 100, 150]);
    expect(bounce.loops).toBe(0);
  });
});

describe('ase: --hide-layers and --layer-opacity', () => {
  const loader = memoryLoader({});
  async function pixels(bytes: Uint8Array, options: Record<string, string> = {}): Promise<number[][]> {
    const r = await render(load(bytes, 'x.aseprite'), options, loader);
    return r.frames.map((f) => [...f.data]);
  }
  /** The expected picture: the same file with these layers hidden in it. */
  const hiddenInFile = (compose: boolean, ...names: string[]) =>
    groupedAse(compose, (ls: WLayer[]) => {
      for (const l of ls) if (names.includes(l.name)) l.flags = (l.flags ?? 3) & ~1;
    });

  for (const compose of [false, true]) {
    it(`hide layers by number, name or group path; a hidden group hides its children${compose ? ' (composed groups)' : ''}`, async () => {
      const bytes = groupedAse(compose);
      const shown = await pixels(bytes);
      const noArm = await pixels(hiddenInFile(compose, 'arm'));
      expect(noArm).not.toEqual(shown);
      expect(await pixels(bytes, { 'hide-layers': '2' })).toEqual(noArm);
      expect(await pixels(bytes, { 'hide-layers': 'arm' })).toEqual(noArm);
      expect(await pixels(bytes, { 'hide-layers': 'body/arm' })).toEqual(noArm);
      const noBody = await pixels(hiddenInFile(compose, 'body'));
      expect(noBody).toEqual(await pixels(hiddenInFile(compose, 'arm', 'hat')));
      expect(await pixels(bytes, { 'hide-layers': 'body' })).toEqual(noBody);
      expect(await pixels(bytes, { 'hide-layers': 'bg, top' })).toEqual(await pixels(hiddenInFile(compose, 'bg', 'top')));
      // Layers the file hides (and the reference layer) stay hidden: hiding them changes nothing.
      expect(await pixels(bytes, { 'hide-layers': 'fx,fx/glow,ref' })).toEqual(shown);
    });
  }

  it('fade a layer, or a group (its children; the composed image with composed groups), times its own opacity', async () => {
    const bytes = groupedAse();
    const opacity = (values: Record<string, number>, compose = false) =>
      groupedAse(compose, (ls) => {
        for (const l of ls) if (l.name in values) l.opacity = values[l.name];
      });
    expect(await pixels(bytes, { 'layer-opacity': 'top=0.5' })).toEqual(await pixels(opacity({ top: 50 })));
    // Without composed groups the group's own opacity does not count, the choice fades each child.
    expect(await pixels(bytes, { 'layer-opacity': 'body=0.5' })).toEqual(await pixels(opacity({ arm: 100, hat: 128 })));
    expect(await pixels(groupedAse(true), { 'layer-opacity': 'body=0.5' })).toEqual(await pixels(opacity({ body: 80 }, true)));
  });

  it('deep nesting: paths are matched and shown in linear time (a shown path keeps the last groups)', async () => {
    const n = 20000;
    const layers: WLayer[] = Array.from({ length: n }, (_, i) => ({ name: `g${i}`, type: 1, childLevel: i }));
    layers.push({ name: 'leaf', childLevel: n });
    const file = aseFile({
      width: 1,
      height: 1,
      layers,
      frames: [{ cels: [{ layer: n, w: 1, h: 1, pixels: rgbaPixels(1, 1, () => [5, 6, 7, 255]) }] }],
    });
    const deep = Array.from({ length: n }, (_, i) => `g${i}`).join('/');
    const started = performance.now();
    expect((await pixels(file))[0]!.slice(0, 4)).toEqual([5, 6, 7, 255]);
    expect((await pixels(file, { 'hide-layers': `${deep}/leaf` }))[0]!.slice(0, 4)).toEqual([0, 0, 0, 0]);
    expect((await pixels(file, { 'hide-layers': 'g0' }))[0]!.slice(0, 4)).toEqual([0, 0, 0, 0]);
    const p = await aseHandler.picture!(aseHandler.read(file), {}, loader);
    expect(p.layers![n]!.name).toBe(`…/${Array.from({ length: 8 }, (_, i) => `g${n - 8 + i}`).join('/')}/leaf`);
    await expect(aseHandler.picture!(aseHandler.read(file), { 'hide-layers': 'g1/leaf' }, loader)).rejects.toThrow(
      /--hide-layers "g1\/leaf" names no layer \(the sprite has: g0, g0\/g1, .*\(20001 in all\)\)/,
    );
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it('the picture lists every layer by its path, those the file hides marked, each with its group', async () => {
    const p = await aseHandler.picture!(aseHandler.read(groupedAse()), {}, loader);
    expect(p.layers).toEqual([
      { name: 'bg' },
      { name: 'body' },
      { name: 'body/arm', parent: 1 },
      { name: 'body/hat', parent: 1 },
      { name: 'fx', hidden: true },
      { name: 'fx/glow', hidden: true, parent: 4 },
      { name: 'ref', hidden: true },
      { name: 'top' },
    ]);
  });

  it('render and convert take them; a layer the sprite does not have is a command-line error (exit 2)', async () => {
    const dir = tmp();
    const file = path.join(dir, 'g.aseprite');
    fs.writeFileSync(file, groupedAse());
    const out = path.join(dir, 'f.png');
    const r = await runCli(['render', file, '--frame', '1', '--hide-layers', 'body', '--layer-opacity', 'top=0.25', '-o', out]);
    expect(r.code, r.stderr).toBe(0);
    const want = (await render(load(groupedAse(), file), { frame: '1', 'hide-layers': 'body', 'layer-opacity': 'top=0.25' }, loader))
      .frames[0]!;
    expect([...decodePng(fs.readFileSync(out)).data]).toEqual([...want.data]);
    // convert: the sheet holds every frame drawn with the choice.
    const c = await runCli(['convert', file, path.join(dir, 'g.json'), '--hide-layers', 'body/hat']);
    expect(c.code, c.stderr).toBe(0);
    const sheet = decodePng(fs.readFileSync(path.join(dir, 'g.png')));
    const frames = (await render(load(groupedAse(), file), { 'hide-layers': 'body/hat' }, loader)).frames;
    const json = JSON.parse(fs.readFileSync(path.join(dir, 'g.json'), 'utf8'));
    const list = Array.isArray(json.frames) ? json.frames : Object.values(json.frames);
    for (let i = 0; i < 3; i++) {
      const fr = (list as { frame: { x: number; y: number; w: number; h: number } }[])[i]!.frame;
      for (let y = 0; y < fr.h; y++) {
        for (let x = 0; x < fr.w; x++) {
          const o = ((fr.y + y) * sheet.width + fr.x + x) * 4;
          const w = (y * 6 + x) * 4;
          expect([...sheet.data.subarray(o, o + 4)], `frame ${i} ${x},${y}`).toEqual([...frames[i]!.data.subarray(w, w + 4)]);
        }
      }
    }
    const bad = await runCli(['render', file, '--hide-layers', 'body/leg', '-o', path.join(dir, 'x.png')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^sprat: error: .*option --hide-layers "body\/leg" names no layer \(the sprite has: bg, body, body\/arm/);
    const past = await runCli(['render', file, '--hide-layers', '8', '-o', path.join(dir, 'x.png')]);
    expect(past.code).toBe(2);
    expect(past.stderr).toMatch(/--hide-layers 8 is past the last layer/);
    expect(fs.existsSync(path.join(dir, 'x.png'))).toBe(false);
  });
});
