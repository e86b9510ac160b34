import { describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkFile } from '../../src/check.js';
import { formatByName } from '../../src/api.js';
import type { ResourceLoader } from '../../src/formats/types.js';
import { fsResourceLoader } from '../../src/node/fs.js';
import { SAMPLES } from '../helpers/paths.js';

describe('check: one file costs its read and its check', () => {
  it('asks the disk each question once per file, however many animations and directions draw from it', async () => {
    const file = path.join(SAMPLES, 'solarus/sprites/slime.dat');
    const bytes = new Uint8Array(fs.readFileSync(file));
    const disk = fsResourceLoader(path.dirname(file));
    const asked = new Map<string, number>();
    const count = (k: string) => asked.set(k, (asked.get(k) ?? 0) + 1);
    const counting: ResourceLoader = {
      load: (p) => (count(`load ${p}`), disk.load(p)),
      exists: (p) => (count(`exists ${p}`), disk.exists(p)),
    };
    const problems = await checkFile(bytes, file, formatByName('solarus'), counting);
    expect(problems).toEqual([]);
    expect(asked.size).toBeGreaterThan(0);
    for (const [k, n] of asked) expect(n, k).toBe(1);
  });
});
