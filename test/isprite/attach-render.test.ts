/**
 * `sprat render --attach POINT=FILE.isprite`: another sprite drawn
 * at every attachment point of that name, placed by the point's transform,
 * where the point is in the display order; the viewer's attached sprite.
 */
import { afterAll, describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { load, render } from '../../src/api.js';
import { fsResourceLoader } from '../../src/node/fs.js';
import { decodePng } from '../../src/render/png.js';
import type { IspriteDocument } from '../../src/formats/isprite/model.js';
import { runCli } from '../helpers/cli.js';
import { SAMPLES } from '../helpers/paths.js';
import { blinkCounts, writeBlinkSprite } from '../helpers/blink.js';
import type { IspritePlayRecord } from '../../src/formats/isprite/play-cli.js';
import { play } from '../../src/api.js';

const HERO = path.join(SAMPLES, 'isprite/hero.isprite');
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-attach-'));
afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

describe('render --attach', () => {
  it('draws the attached sprite at the named points only, where the point is', async () => {
    const loaded = load(fs.readFileSync(HERO), HERO);
    const doc = loaded.doc as IspriteDocument;
    const hand = doc.names.indexOf('hand');
    const frame = doc.frames[7]!;
    const point = frame.elements.find((e) => e.type === 'attachment' && e.name === hand);
    expect(point).toBeDefined();
    const res = fsResourceLoader(path.dirname(HERO));
    const base = { animation: 'Root/Armed/attack', frame: '1' };
    const plain = await render(loaded, base, res);
    const withHero = await render(loaded, { ...base, attach: 'hand=hero.isprite' }, res);
    const elsewhere = await render(loaded, { ...base, attach: 'nothing-here=hero.isprite' }, res);
    // A name with no point draws nothing more.
    expect(elsewhere.frames[0]).toEqual(plain.frames[0]);
    expect(withHero.frames[0]).not.toEqual(plain.frames[0]);
    // The command line draws the same.
    const png = path.join(out, 'a.png');
    const r = await runCli(['render', HERO, '--animation', 'Root/Armed/attack', '--frame', '1', '--attach', `hand=${HERO}`, '-o', png]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const img = decodePng(fs.readFileSync(png));
    expect([img.width, img.height]).toEqual([withHero.frames[0]!.width, withHero.frames[0]!.height]);
    expect(Buffer.from(img.data).equals(Buffer.from(withHero.frames[0]!.data))).toBe(true);
  });

  it('a missing or broken sprite is an error naming it; a bad value exits 2', async () => {
    const png = path.join(out, 'b.png');
    const missing = await runCli(['render', HERO, '--attach', 'hand=nope.isprite', '-o', png]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/--attach sprite "nope\.isprite"/);
    const broken = path.join(out, 'broken.isprite');
    fs.writeFileSync(broken, 'ISPRITE garbage');
    const bad = await runCli(['render', HERO, '--attach', `hand=${broken}`, '-o', png]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--attach sprite/);
    expect((await runCli(['render', HERO, '--attach', 'hand', '-o', png])).code).toBe(2);
    expect(fs.existsSync(png)).toBe(false);
  });

  it('the attached sprite plays on its own hold times and rate (as `play` steps it), from the parent’s first frame', async () => {
    const dir = fs.mkdtempSync(path.join(out, 'blink-'));
    const blink = await writeBlinkSprite(dir);
    fs.copyFileSync(HERO, path.join(dir, 'hero.isprite'));
    fs.copyFileSync(path.join(SAMPLES, 'isprite/hero.png'), path.join(dir, 'hero.png'));
    const loaded = load(fs.readFileSync(path.join(dir, 'hero.isprite')), 'hero.isprite');
    const res = fsResourceLoader(dir);
    const plain = await render(loaded, { animation: 'Root/Armed/attack' }, res);
    const r = await render(loaded, { animation: 'Root/Armed/attack', attach: 'hand=blink.isprite' }, res);
    // The parent's frames (66.7, 133.3, 200 ms) cut where the child changes (100 ms a step; holds 1, 3, 2): the same time in all.
    expect(plain.delaysMs!.map((d) => Math.round(d * 10) / 10)).toEqual([66.7, 133.3, 200]);
    expect(r.delaysMs!.map((d) => Math.round(d * 10) / 10)).toEqual([66.7, 33.3, 100, 200]);
    expect(r.loops).toBe(plain.loops);
    // Each picture shows the frame `sprat play` gives for the child at that time.
    const ticks = play(load(fs.readFileSync(blink), 'blink.isprite'), { ticks: '10' }).records.map((x) => (x as IspritePlayRecord).frame);
    let t = 0;
    r.frames.forEach((f, k) => {
      const counts = blinkCounts(f.data);
      const want = ticks[Math.floor(t / 100 + 1e-9)]!;
      expect(
        counts.map((c, i) => (i === want ? c > 0 : c === 0)),
        `picture ${k} at ${t} ms`,
      ).toEqual([true, true, true]);
      t += r.delaysMs![k]!;
    });
    // One position: the child as it is when that position starts (position 2 at 200 ms: its frame 1); the parent's delay.
    const one = await render(loaded, { animation: 'Root/Armed/attack', frame: '2', attach: 'hand=blink.isprite' }, res);
    expect(blinkCounts(one.frames[0]!.data).map((c) => c > 0)).toEqual([false, true, false]);
    expect(one.delaysMs).toEqual([plain.delaysMs![2]]);
    // Every step of the child counts as a record.
    const cut = await runCli(
      ['render', 'hero.isprite', '--attach', 'hand=blink.isprite', '--max-records', '2', '-o', path.join(dir, 'x.apng')],
      dir,
    );
    expect(cut.code).toBe(1);
    expect(cut.stderr).toMatch(/--max-records/);
  });
});
