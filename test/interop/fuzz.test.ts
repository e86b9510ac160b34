import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/binary/errors.js';
import { asepriteHandler } from '../../src/interop/aseprite/index.js';
import { texturePackerHandler } from '../../src/interop/texturepacker/index.js';
import { tiledHandler } from '../../src/interop/tiled/index.js';
import type { FormatHandler } from '../../src/formats/types.js';
import { fixture, memoryLoader, patternImage } from './helpers.js';
import { encodePng } from '../../src/render/png.js';

const handlers: [FormatHandler, string][] = [
  [asepriteHandler, 'hero-aseprite-hash.json'],
  [asepriteHandler, 'hero-aseprite-array.json'],
  [texturePackerHandler, 'coins-pixi.json'],
  [tiledHandler, 'dungeon.tmj'],
];

const png = encodePng(patternImage(64, 32));
const loader = memoryLoader({ 'hero.png': png, 'coins.png': png, 'tiles.png': png, 'props.png': png });

/** Reads, validates and converts; only FormatError may come out. */
async function exercise(h: FormatHandler, bytes: Uint8Array): Promise<void> {
  try {
    h.sniff?.(bytes);
  } catch (e) {
    throw new Error(`sniff threw ${String(e)}`);
  }
  const diags = h.validate(bytes);
  expect(Array.isArray(diags)).toBe(true);
  let doc: unknown;
  try {
    doc = h.read(bytes);
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    // Syntax or structure, every read error is placed in the text.
    expect(e.line, e.message).toBeGreaterThan(0);
    expect(e.column, e.message).toBeGreaterThan(0);
    expect(diags.some((d) => d.severity === 'error' && d.line === e.line && d.column === e.column)).toBe(true);
    return;
  }
  h.inspectJson(doc);
  h.inspectText(doc);
  try {
    await h.toModel!(doc, loader);
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
  }
}

/** Replaces the value at a random place in a JSON tree. */
function mutate(root: unknown, picks: number[], value: unknown): unknown {
  if (picks.length === 0 || typeof root !== 'object' || root === null) return value;
  const keys = Object.keys(root);
  if (keys.length === 0) return value;
  const k = keys[picks[0]! % keys.length]!;
  const copy: any = Array.isArray(root) ? [...root] : { ...root };
  copy[k] = mutate((root as any)[k], picks.slice(1), value);
  return copy;
}

describe('interop readers never crash', () => {
  it('random bytes, also after a "{"', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), fc.boolean(), async (b, brace) => {
        const bytes = brace ? new Uint8Array([0x7b, ...b]) : b;
        for (const [h] of handlers) await exercise(h, bytes);
      }),
      { numRuns: 200 },
    );
  });

  it('truncated and byte-flipped real-shaped files', async () => {
    for (const [h, name] of handlers) {
      const src = fixture(name);
      await fc.assert(
        fc.asyncProperty(fc.nat(src.length), fc.nat(src.length - 1), fc.integer({ min: 0, max: 255 }), async (cut, at, v) => {
          await exercise(h, src.subarray(0, cut));
          const flipped = src.slice();
          flipped[at] = v;
          await exercise(h, flipped);
        }),
        { numRuns: 80 },
      );
    }
  });

  it('wrong shapes: any JSON value anywhere in the tree', async () => {
    for (const [h, name] of handlers) {
      const tree = JSON.parse(new TextDecoder().decode(fixture(name)));
      await fc.assert(
        fc.asyncProperty(fc.array(fc.nat(), { maxLength: 6 }), fc.jsonValue({ maxDepth: 3 }), async (picks, value) => {
          await exercise(h, new TextEncoder().encode(JSON.stringify(mutate(tree, picks, value))));
        }),
        { numRuns: 150 },
      );
    }
  });

  it('deep nesting and malformed JSON give a line and a column', () => {
    const deep = '['.repeat(100000) + ']'.repeat(99999);
    for (const [h] of handlers) {
      expect(() => h.read(new TextEncoder().encode(deep))).toThrow(FormatError);
      try {
        h.read(new TextEncoder().encode('{\n"a": 1,\n"b": tru }'));
      } catch (e) {
        expect((e as FormatError).line).toBe(3);
        expect((e as FormatError).column).toBe(6);
      }
    }
  });

  it('sniffing is cheap and bounded on big binary files', () => {
    const big = new Uint8Array(50_000_000);
    for (const [h] of handlers) expect(h.sniff!(big)).toBe(false);
  });
});
