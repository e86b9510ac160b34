/**
 * JsonReader keeps the bytes it parsed, not their text (memory: the text was a second copy of
 * the document for as long as the document lived), and decodes them again to place a later error. If the
 * caller has changed the bytes since, the error is left without a place rather than placed wrong.
 */
import { describe, expect, it } from 'vitest';
import { errorIn, JsonReader } from '../../src/interop/json.js';
import { tiledHandler } from '../../src/interop/tiled/index.js';

const enc = (s: string) => new TextEncoder().encode(s);

describe('JsonReader: later errors placed from the bytes', () => {
  it('places an error found after parsing at its line and column', () => {
    const r = new JsonReader('x');
    const v = r.parse(enc('{\n  "a": 1,\n  "b": [1, 2,\n    "three"]\n}')) as { b: unknown[] };
    expect(r.error('$.b[2]', 'bad').toString()).toMatch(/line 4, column 5/);
    expect(r.at('$.a')).toEqual({ line: 2, column: 8 });
    expect(v.b).toEqual([1, 2, 'three']);
  });

  it('a document read from JSON names the place of a later error (render, convert)', () => {
    const doc = tiledHandler.read(
      enc('{"type":"map","width":1,"height":1,"tilewidth":8,"tileheight":8,\n"orientation":"hexagonal","layers":[],"tilesets":[]}'),
    );
    expect(errorIn(doc, 'tiled', '$.orientation', 'no').toString()).toMatch(/line 2, column 15/);
  });

  it('leaves the error unplaced when the bytes were changed after parsing', () => {
    const bytes = enc('{\n  "a": 1\n}');
    const r = new JsonReader('x');
    r.parse(bytes);
    bytes[0] = 0x20; // the caller reused its buffer
    expect(r.at('$.a')).toEqual({});
    expect(r.error('$.a', 'bad').message).toMatch(/\$\.a: bad/);
  });
});
