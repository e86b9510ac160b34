/**
 * `inspect --json` of a CTHG document writes its animations, frames and
 * sprites as text straight from the records (src/formats/cthg/inspect.ts,
 * JsonText through src/binary/json-out.ts): the text is JSON.stringify's of
 * the objects the lists hold, at any depth, for any field values; the CLI
 * reads the file with keepBytes (the sprites' pixel data are views of the
 * file, not copies).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { JsonText, plainJson } from '../../src/binary/json-array.js';
import { stringifyJson } from '../../src/binary/json-chunks.js';
import { createCthg, inspectCthgJson, readCthg, writeCthg, type CthgDocument } from '../../src/formats/cthg/index.js';
import { makeInput } from '../../bench/inputs.mjs';
import { CORPUS, SAMPLES } from '../helpers/paths.js';
import { runCli } from '../helpers/cli.js';

type Lists = { animations: unknown; frames: unknown; sprites: unknown };

/** The text sprat writes, checked against JSON.stringify of the same lists made as objects. */
function checkSame(doc: CthgDocument, asText = true): string {
  const j = inspectCthgJson(doc) as Lists;
  for (const k of ['animations', 'frames', 'sprites'] as const) {
    if (asText) expect(j[k], k).toBeInstanceOf(JsonText);
    else expect(j[k], k).not.toBeInstanceOf(JsonText);
  }
  const want = JSON.stringify(j, null, 2);
  expect(stringifyJson(j)).toBe(want);
  expect(JSON.stringify(plainJson(inspectCthgJson(doc)), null, 2)).toBe(want);
  return want;
}

const file = (p: string) => new Uint8Array(readFileSync(p));

describe('CTHG inspect --json lists written from the records', () => {
  it('give JSON.stringify’s text: the sample, the real file, the benchmark input, an empty document', async () => {
    checkSame(readCthg(file(path.join(SAMPLES, 'cthg', 'fan.dat'))));
    checkSame(readCthg(file(path.join(CORPUS, 'cthg', 'plant_anim.dat'))));
    const big = await makeInput('cthg', 300_000);
    checkSame(readCthg(big.bytes));
    checkSame(readCthg(big.bytes, { keepBytes: true }));
    expect(stringifyJson((inspectCthgJson(createCthg()) as Lists).frames)).toBe('[]');
  });

  it('property: any numbers (fractions, negatives, -0, NaN, huge), any names, null sprites, frames with no elements', () => {
    const num = fc.oneof(
      fc.integer({ min: -70000, max: 70000 }),
      fc.double(),
      fc.constantFrom(-0, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, -(2 ** 60), 1e21, 1.5e-7),
    );
    const doc = fc.record({
      animations: fc.array(
        fc.record({
          name: fc.string({ unit: 'grapheme-composite' }),
          tileSize: num,
          frameCount: num,
          views: fc.record({ north: fc.option(num), east: fc.option(num), south: fc.option(num), west: fc.option(num) }),
        }),
        { maxLength: 4 },
      ),
      frames: fc.array(
        fc.record({
          sound: num,
          elements: fc.array(fc.record({ sprite: fc.option(num), x: num, y: num, layerClass: num, layerId: num, flags: num }), {
            maxLength: 3,
          }),
        }),
        { maxLength: 5 },
      ),
      sprites: fc.array(fc.record({ width: num, height: num, data: fc.uint8Array({ maxLength: 5 }) }), { maxLength: 3 }),
    });
    fc.assert(
      fc.property(doc, (d) => {
        checkSame({ ...createCthg(), ...d } as CthgDocument);
      }),
      { numRuns: 200 },
    );
  });

  it('fields JSON would leave out or nest (undefined, objects, a lone surrogate) are written as objects, the same text', () => {
    const base = readCthg(file(path.join(SAMPLES, 'cthg', 'fan.dat')));
    const odd = structuredClone(base) as unknown as { animations: any[]; frames: any[]; sprites: any[] };
    odd.animations[0].tileSize = undefined;
    odd.frames[0].elements[0].x = { toJSON: () => 'x' };
    odd.sprites[0].width = [1, 2];
    checkSame(odd as unknown as CthgDocument, false);
    const named = structuredClone(base);
    named.animations[0]!.name = 'a\uD800b "q" \\ \n é';
    checkSame(named);
  });

  it('are the same text at any depth, past the deepest indentation too', () => {
    const j = inspectCthgJson(readCthg(file(path.join(SAMPLES, 'cthg', 'fan.dat')))) as Lists;
    const plain = JSON.parse(JSON.stringify(j));
    for (const depth of [0, 1, 5, 99, 100, 101, 130]) {
      let a: unknown = j;
      let b: unknown = plain;
      for (let i = 0; i < depth; i++) {
        a = { k: a };
        b = { k: b };
      }
      expect(stringifyJson(a), `depth ${depth}`).toBe(stringifyJson(b));
    }
  });

  it('sprite data: views of the file with keepBytes (the CLI), copies without', () => {
    const bytes = file(path.join(SAMPLES, 'cthg', 'fan.dat'));
    expect(readCthg(bytes, { keepBytes: true }).sprites[0]!.data.buffer).toBe(bytes.buffer);
    expect(readCthg(bytes).sprites[0]!.data.buffer).not.toBe(bytes.buffer);
    expect(writeCthg(readCthg(bytes, { keepBytes: true }))).toEqual(bytes);
  });

  it('the CLI prints the same text', async () => {
    const p = path.join(SAMPLES, 'cthg', 'fan.dat');
    const r = await runCli(['inspect', p, '--json']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${JSON.stringify(plainJson(inspectCthgJson(readCthg(file(p)))), null, 2)}\n`);
  });
});
