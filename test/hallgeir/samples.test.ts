import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeHallgeirSample } from '../../scripts/samples/hallgeir.js';
import { SAMPLES } from '../helpers/paths.js';

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
});
