/**
 * `inspect --json` of a read ISPRITE file writes its frames as text straight
 * from the element records (src/formats/isprite/frames-json.ts, a JsonText):
 * the text is JSON.stringify's, and the text the object path gives, at any
 * depth, within the --max-json-bytes budget.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { JsonText, plainJson } from '../../src/binary/json-array.js';
import { LimitError } from '../../src/binary/limits.js';
import { jsonChunks, stringifyJson } from '../../src/binary/json-chunks.js';
import { inspectIspriteJson, readIsprite, writeIsprite, type IspriteDocument } from '../../src/formats/isprite/index.js';
import { makeHeroDocument } from '../../scripts/samples/isprite.js';
import { makeDoc } from '../../bench/isprite.mjs';
import { SAMPLES } from '../helpers/paths.js';
import { runCli } from '../helpers/cli.js';
import { ispriteDocument } from './arb.js';

/** The inspect JSON of `bytes` read as they are (frames as text) and with every frame's elements made (frames as objects). */
function both(bytes: Uint8Array): { text: unknown; objects: unknown } {
  const compact = readIsprite(bytes);
  const made = readIsprite(bytes);
  for (const f of made.frames) void f.elements;
  const text = inspectIspriteJson(compact) as { frames: unknown };
  const objects = inspectIspriteJson(made) as { frames: unknown };
  if (compact.frames.length) {
    expect(text.frames).toBeInstanceOf(JsonText);
    expect(objects.frames).not.toBeInstanceOf(JsonText);
  }
  return { text, objects };
}

function checkSame(bytes: Uint8Array): void {
  const { text, objects } = both(bytes);
  const want = JSON.stringify(objects, null, 2);
  expect(stringifyJson(text)).toBe(want);
  expect(stringifyJson(objects)).toBe(want);
  expect(JSON.stringify(text, null, 2)).toBe(want);
  expect(JSON.stringify(plainJson(text))).toBe(JSON.stringify(JSON.parse(want)));
}

describe('ISPRITE inspect --json frames written from the records', () => {
  it('give JSON.stringify’s text: the sample, the benchmark sprites (whole-pixel and fractional)', () => {
    checkSame(new Uint8Array(readFileSync(path.join(SAMPLES, 'isprite', 'hero.isprite'))));
    const hero = makeHeroDocument();
    hero.frames[0]!.label = 'ünïcödé ✓ "quoted" \\ \n\t\u0001 😀';
    hero.frames[1]!.elements.push({ type: 'unknown', marker: 0x5a, name: 3, data: new Uint8Array([1, 2, 3]) });
    checkSame(writeIsprite(hero));
    for (const fractional of [false, true]) checkSame(writeIsprite(makeDoc(80_000, fractional)));
  });

  it('property: random documents (every fixed-point value, any strings, every element kind)', () => {
    fc.assert(
      fc.property(ispriteDocument, (doc: IspriteDocument) => checkSame(writeIsprite(doc))),
      { numRuns: 150 },
    );
  });

  it('are the same text at any depth, past the deepest indentation too', () => {
    const doc = readIsprite(writeIsprite(makeHeroDocument()));
    const frames = (inspectIspriteJson(doc) as { frames: JsonText }).frames;
    const plain = JSON.parse(JSON.stringify(frames));
    for (const depth of [0, 1, 5, 99, 100, 101, 130]) {
      let a: unknown = frames;
      let b: unknown = plain;
      for (let i = 0; i < depth; i++) {
        a = { k: a };
        b = { k: b };
      }
      expect(stringifyJson(a), `depth ${depth}`).toBe(stringifyJson(b));
    }
    expect(
      stringifyJson({
        none: (inspectIspriteJson(readIsprite(writeIsprite({ ...makeHeroDocument(), frames: [] }))) as { frames: unknown }).frames,
      }),
    ).toBe('{\n  "none": []\n}');
  });

  it('count against --max-json-bytes', () => {
    const doc = readIsprite(writeIsprite(makeDoc(200_000)));
    const json = inspectIspriteJson(doc);
    const full = stringifyJson(json)!.length;
    expect(() => [...jsonChunks(json, 2, { maxJsonBytes: full - 1 })]).toThrow(LimitError);
    expect([...jsonChunks(json, 2, { maxJsonBytes: full })].join('').length).toBe(full);
  });

  it('fall back to objects when a frame was changed into something the text cannot say', () => {
    const doc = readIsprite(writeIsprite(makeHeroDocument()));
    doc.frames[2]!.holdTime = 1.5;
    const json = inspectIspriteJson(doc) as { frames: unknown };
    expect(json.frames).not.toBeInstanceOf(JsonText);
    expect(stringifyJson(json)).toBe(JSON.stringify(json, null, 2));
  });

  it('the command line prints the same text as before', async () => {
    const file = path.join(SAMPLES, 'isprite', 'hero.isprite');
    const r = await runCli(['inspect', file, '--json']);
    expect(r.code).toBe(0);
    const made = readIsprite(new Uint8Array(readFileSync(file)));
    for (const f of made.frames) void f.elements;
    expect(r.stdout).toBe(`${JSON.stringify(inspectIspriteJson(made), null, 2)}\n`);
  });
});
