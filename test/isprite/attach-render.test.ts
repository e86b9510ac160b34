/**
 * `sprat render --attach POINT=FILE.isprite` (issue 12): another sprite drawn
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
});
