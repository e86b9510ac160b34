import { describe, expect, it } from 'vitest';
import * as fc from 'fast-check';
import * as path from 'node:path';
import { didYouMean, nearNames } from '../../src/formats/options.js';
import { runCli } from '../helpers/cli.js';
import { SAMPLES } from '../helpers/paths.js';

const S = (p: string) => path.join(SAMPLES, p);

describe('nearNames (the one "did you mean")', () => {
  it('finds a typo, a name that differs only in case, and a name the value begins', () => {
    expect(nearNames('rendr', ['inspect', 'render', 'play'])).toEqual(['render']);
    expect(nearNames('walkin', ['idle', 'walking'])).toEqual(['walking']);
    expect(nearNames('Run', ['run', 'walk'])).toEqual(['run']);
    expect(nearNames('anim', ['animation', 'frame'])).toEqual(['animation']);
    // a case-only difference beats a one-letter typo
    expect(nearNames('Idle', ['idle', 'idles', 'Idl'])).toEqual(['idle']);
    expect(didYouMean('walkin', ['walking', 'walkig'])).toBe(', did you mean "walking" or "walkig"?');
  });

  it('suggests nothing far off, nor for a value that is one of the names', () => {
    expect(nearNames('frobnicate', ['inspect', 'render', 'play'])).toEqual([]);
    expect(nearNames('nope', ['json', 'format', 'help', 'debug'])).toEqual([]);
    expect(nearNames('walk', ['walk', 'Walk'])).toEqual([]);
    expect(didYouMean('x', ['render'])).toBe('');
  });

  it('property: a name differing only in case is always suggested; never more than 3', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 12 }), fc.array(fc.string({ maxLength: 12 }), { maxLength: 8 }), (name, others) => {
        const upper = name.toUpperCase();
        const near = nearNames(upper, [...others, name]);
        expect(near.length).toBeLessThanOrEqual(3);
        if (upper !== name && !others.includes(upper)) expect(near).toContain(name);
      }),
    );
  });
});

describe('"did you mean" on the command line (one line, exit 2)', () => {
  it('an unknown command', async () => {
    for (const argv of [['rendr'], ['help', 'rendr']]) {
      const r = await runCli(argv);
      expect([r.code, r.stdout, r.stderr]).toEqual([
        2,
        '',
        'sprat: error: unknown command "rendr", did you mean "render"? (see sprat --help)\n',
      ]);
    }
  });

  it('an unknown option: a typo, or the start of one', async () => {
    const hero = S('isprite/hero.isprite');
    let r = await runCli(['render', hero, '-o', 'x.png', '--animaton', 'walk']);
    expect([r.code, r.stderr]).toEqual([2, 'sprat: error: unknown option --animaton, did you mean --animation?\n']);
    r = await runCli(['render', hero, '-o', 'x.png', '--anim', 'walk']);
    expect([r.code, r.stderr]).toEqual([2, 'sprat: error: unknown option --anim, did you mean --animation?\n']);
  });

  it('a format name that differs only in case is suggested, not taken', async () => {
    const r = await runCli(['convert', S('interop/hero.json'), 'x.json', '--to', 'Aseprite']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^sprat: error: unknown format "Aseprite" for --to, did you mean "aseprite"\? \(known: isprite, [^\n]*\)\n$/);
  });

  it('a choice that differs only in case (CTHG --view)', async () => {
    const r = await runCli(['render', S('cthg/fan.dat'), '-o', 'x.png', '--view', 'North']);
    expect([r.code, r.stderr]).toEqual([
      2,
      'sprat: error: option --view must be one of north, east, south, west, not "North", did you mean "north"?\n',
    ]);
  });

  it('animation names: exact for Aseprite and Hallgeir, with a suggestion', async () => {
    const sheet = S('interop/hero.json');
    let r = await runCli(['render', sheet, '-o', 'x.png', '--animation', 'Walk']);
    expect([r.code, r.stderr]).toEqual([
      2,
      `sprat: error: ${sheet}: option --animation "Walk" names no animation, did you mean "walk"? (the sheet has: walk, back, idle)\n`,
    ]);
    const spr = S('hallgeir/hero.spr');
    r = await runCli(['play', spr, '--animation', 'wakl', '--json']);
    expect([r.code, r.stderr]).toEqual([
      2,
      `sprat: error: ${spr}: option --animation "wakl" names no animation, did you mean "walk"? (the sprite has: walk, stand)\n`,
    ]);
  });

  it('ISPRITE names are case-insensitive (its spec, "Setting Animation"); a near miss gets a suggestion', async () => {
    const hero = S('isprite/hero.isprite');
    const exact = await runCli(['play', hero, '--ticks', '3', '--script', '0:play walk', '--json']);
    const folded = await runCli(['play', hero, '--ticks', '3', '--script', '0:play WALK', '--json']);
    expect(folded.code, folded.stderr).toBe(0);
    expect(folded.stdout).toBe(exact.stdout);
    const r = await runCli(['render', hero, '-o', 'x.png', '--animation', 'walkin']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/option --animation "walkin" names no sequence, did you mean "walk"\? \(the sprite has: Root\/idle, /);
  });
});
