/**
 * One list of format names, one naming pattern for handlers:
 * - FORMAT_NAMES (src/formats/types.ts) and the registry's FORMATS
 *   (src/registry.ts) name the same formats in the same order;
 * - no other file in src/ holds a list of format names;
 * - every handler is exported as `<format>Handler` (the format's name
 *   without dashes, any case: `texturePackerHandler`, `hallgeirMapHandler`).
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { ROOT } from '../helpers/paths.js';
import { FORMAT_NAMES } from '../../src/formats/types.js';
import { FORMATS, formatNames } from '../../src/registry.js';
import * as isprite from '../../src/formats/isprite/index.js';
import * as cthg from '../../src/formats/cthg/index.js';
import * as spritetile from '../../src/formats/spritetile/index.js';
import * as solarus from '../../src/formats/solarus/index.js';
import * as hallgeir from '../../src/formats/hallgeir/index.js';
import * as aseprite from '../../src/interop/aseprite/index.js';
import * as texturepacker from '../../src/interop/texturepacker/index.js';
import * as tiled from '../../src/interop/tiled/index.js';

function tsFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) tsFiles(p, out);
    else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
}

describe('format names', () => {
  it('FORMAT_NAMES and the registry FORMATS match exactly, in order', () => {
    expect(formatNames()).toEqual([...FORMAT_NAMES]);
    expect(new Set(FORMAT_NAMES).size).toBe(FORMAT_NAMES.length);
  });

  it('no other list of format names in src/', () => {
    const names = new Set<string>(FORMAT_NAMES);
    const offenders: string[] = [];
    for (const file of tsFiles(path.join(ROOT, 'src'))) {
      if (path.relative(ROOT, file) === path.join('src', 'formats', 'types.ts')) continue;
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\[([^[\]]*)\]/g)) {
        const listed = [...m[1]!.matchAll(/['"]([a-z-]+)['"]/g)].map((q) => q[1]!).filter((q) => names.has(q));
        if (new Set(listed).size >= 3) offenders.push(`${path.relative(ROOT, file)}: [${listed.join(', ')}]`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('every handler is exported as <format>Handler from its folder', () => {
    const modules = [isprite, cthg, spritetile, solarus, hallgeir, aseprite, texturepacker, tiled] as Record<string, unknown>[];
    for (const handler of FORMATS) {
      const exported = modules.flatMap((m) =>
        Object.entries(m)
          .filter(([, v]) => v === handler)
          .map(([k]) => k),
      );
      expect(exported, handler.name).toEqual([expect.stringMatching(/Handler$/)]);
      expect(exported[0]!.toLowerCase(), handler.name).toBe(`${handler.name.replace(/-/g, '')}handler`);
    }
  });
});
