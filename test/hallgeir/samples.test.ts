import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeHallgeirSample } from '../../scripts/samples/hallgeir.js';
import { SAMPLES } from '../helpers/paths.js';
import { validate } from '../../src/api.js';

const DIR = path.join(SAMPLES, 'hallgeir');

describe('samples/hallgeir', () => {
  it('the committed files equal the generator output', async () => {
    const { files } = makeHallgeirSample();
    if (process.env.SPRAT_WRITE_SAMPLES === '1') {
      await fsp.mkdir(DIR, { recursive: true });
      for (const f of files) await fsp.writeFile(path.join(DIR, f.name), f.bytes);
    }
    for (const f of files) {
      const committed = new Uint8Array(await fsp.readFile(path.join(DIR, f.name)));
      expect(committed, f.name).toEqual(f.bytes);
    }
    const listed = (await fsp.readdir(DIR)).sort();
    expect(listed).toEqual(files.map((f) => f.name).sort());
  });

  it('every sample file validates without warnings, and demo.json lists them', async () => {
    for (const name of ['level1.map', 'hero.obj', 'coin.obj', 'hero.spr', 'coin.spr']) {
      const bytes = new Uint8Array(await fsp.readFile(path.join(DIR, name)));
      expect(validate(bytes, name), name).toMatchObject({ valid: true, diagnostics: [] });
    }
    const demo = JSON.parse(await fsp.readFile(path.join(SAMPLES, 'demo.json'), 'utf8')) as { samples: { file: string }[] };
    const listed = demo.samples.map((s) => s.file).filter((f) => f.startsWith('hallgeir/'));
    expect(listed.sort()).toEqual([
      'hallgeir/coin.obj',
      'hallgeir/coin.spr',
      'hallgeir/hero.obj',
      'hallgeir/hero.spr',
      'hallgeir/level1.map',
    ]);
  });
});
