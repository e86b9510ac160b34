/**
 * Document extras live in the document types as optional, non-enumerable
 * fields (not in WeakMaps beside them): Solarus `sources`, ISPRITE
 * `convertedSheets`, the JSON formats' `jsonSource`. They are there for the
 * code that needs them, and out of the document's data: inspect JSON,
 * equality and copies leave them out. A WeakMap in src/ is only a cache of
 * derived data, and says so.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { ROOT, SAMPLES } from '../helpers/paths.js';
import { fsResourceLoader } from '../../src/node/fs.js';
import { solarusHandler, solarusLuaHandler } from '../../src/formats/solarus/index.js';
import { positionsOf } from '../../src/formats/solarus/model.js';
import { ispriteHandler } from '../../src/formats/isprite/index.js';
import { asepriteHandler } from '../../src/interop/aseprite/index.js';
import { errorIn } from '../../src/interop/json.js';

function tsFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) tsFiles(p, out);
    else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
}

function expectHidden(doc: object, field: string): void {
  expect(Object.hasOwn(doc, field), field).toBe(true);
  expect(Object.keys(doc)).not.toContain(field);
  expect(JSON.stringify(doc)).not.toContain(`"${field}"`);
  expect(field in { ...doc }).toBe(false);
}

describe('document extras', () => {
  it('Solarus: a sheet read from a file knows where its animations were (sources), outside its data', () => {
    for (const [handler, file] of [
      [solarusHandler, 'slime.dat'],
      [solarusLuaHandler, 'slime_lua.dat'],
    ] as const) {
      const bytes = new Uint8Array(readFileSync(path.join(SAMPLES, 'solarus', 'sprites', file)));
      const sheet = handler.read(bytes);
      expectHidden(sheet, 'sources');
      expect(typeof sheet.sources).toBe('function');
      expect(positionsOf(sheet, 0)?.name.line).toBeGreaterThan(0);
      expect(JSON.stringify(handler.inspectJson(sheet))).toBe(JSON.stringify(handler.inspectJson(structuredClone({ ...sheet }))));
      expect({ ...sheet }).toEqual(sheet);
    }
  });

  it('ISPRITE: a converted document carries the sheets it brought (convertedSheets), outside its data', async () => {
    const json = new Uint8Array(readFileSync(path.join(SAMPLES, 'interop', 'hero.json')));
    const ase = asepriteHandler.read(json);
    const model = await asepriteHandler.toModel!(ase, fsResourceLoader(path.join(SAMPLES, 'interop')), {});
    const doc = await ispriteHandler.fromModel!(model, {});
    expectHidden(doc, 'convertedSheets');
    expect(doc.convertedSheets?.some((i) => i)).toBe(true);
    expect(JSON.stringify(ispriteHandler.inspectJson(doc))).toBe(JSON.stringify(ispriteHandler.inspectJson({ ...doc })));
    const files = await ispriteHandler.writeFiles!(doc, 'out/hero.isprite', {});
    expect(files).toHaveLength(2);
    expect(files[0]!.name).toBe('out/hero.isprite');
    expect(files[1]!.name).toMatch(/\.png$/);
    // A document read from a file has none: re-encoding writes that file alone.
    const read = ispriteHandler.read(new Uint8Array(readFileSync(path.join(SAMPLES, 'isprite', 'hero.isprite'))));
    expect(read.convertedSheets).toBeUndefined();
  });

  it('JSON formats: a document read from text keeps its reader (jsonSource) for placed errors, outside its data', () => {
    const doc = asepriteHandler.read(new Uint8Array(readFileSync(path.join(SAMPLES, 'interop', 'hero.json'))));
    expectHidden(doc, 'jsonSource');
    expect(errorIn(doc, 'aseprite', '$.meta.image', 'x').message).toMatch(/line \d+, column \d+/);
    expect(errorIn({ ...doc }, 'aseprite', '$.meta.image', 'x').message).not.toMatch(/line \d+/);
    expect(Object.keys(asepriteHandler.inspectJson(doc) as object)).not.toContain('jsonSource');
  });

  it('a WeakMap in src/ is a cache of derived data, and its comment says so', () => {
    const offenders: string[] = [];
    for (const file of tsFiles(path.join(ROOT, 'src'))) {
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (/new WeakMap\b/.test(line) && !/cache/i.test(lines.slice(Math.max(0, i - 3), i + 1).join('\n'))) {
          offenders.push(`${path.relative(ROOT, file)}:${i + 1}`);
        }
      });
    }
    expect(offenders).toEqual([]);
  });
});
