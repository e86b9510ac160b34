import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { FormatError } from '../../src/binary/errors.js';
import { FORMATS } from '../../src/registry.js';
import { detectFormat } from '../../src/detect.js';
import { mutate, rng } from '../../src/fuzz/mutate.js';
import { SAMPLES } from '../helpers/paths.js';

/**
 * Every format's reader and validator, fed mutated bundled samples and random
 * bytes: a FormatError or a document, never any other exception.
 */
const manifest = JSON.parse(readFileSync(path.join(SAMPLES, 'demo.json'), 'utf8')) as {
  samples: { file: string; format?: string; optional?: boolean }[];
};

function expectOnlyFormatErrors(fn: () => unknown, what: string): void {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof FormatError)) {
      throw new Error(`${what}: ${(e as Error)?.stack ?? String(e)}`);
    }
  }
}

describe('fuzzing every reader', () => {
  for (const s of manifest.samples.filter((x) => !x.optional)) {
    it(`mutations of ${s.file}`, () => {
      const bytes = new Uint8Array(readFileSync(path.join(SAMPLES, s.file)));
      const handler = s.format ? FORMATS.find((f) => f.name === s.format)! : detectFormat(bytes, s.file)!;
      expect(handler, s.file).toBeDefined();
      const random = rng(0x5eed ^ bytes.length);
      for (let i = 0; i < 400; i++) {
        const m = mutate(bytes, random);
        expectOnlyFormatErrors(() => handler.read(m), `${s.file} read, mutation ${i}`);
        expectOnlyFormatErrors(() => handler.validate(m), `${s.file} validate, mutation ${i}`);
      }
    });
  }

  it('random bytes through detection and every reader', () => {
    const random = rng(42);
    for (let i = 0; i < 300; i++) {
      const len = Math.floor(random() * 200);
      const b = new Uint8Array(len).map(() => Math.floor(random() * 256));
      for (const f of FORMATS) {
        expectOnlyFormatErrors(() => f.sniff?.(b), `${f.name} sniff`);
        expectOnlyFormatErrors(() => f.read(b), `${f.name} read`);
        expectOnlyFormatErrors(() => f.validate(b), `${f.name} validate`);
      }
    }
  });
});
