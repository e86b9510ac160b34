/**
 * No import cycles in src/ (CONTRIBUTING.md, the house rules): a cycle is a sign that a shared piece
 * lives in the wrong file, and it decides module evaluation order for the bundles. The graph is built
 * from the sources with the scanner the layering test uses; every import counts (`import type`,
 * re-exports and dynamic imports too), so a cycle cannot be hidden by changing how it is imported.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { resolveSpecifier, specifiersOf, tsFiles } from '../helpers/imports.js';
import { ROOT } from '../helpers/paths.js';

/**
 * Cycles not yet broken. This list only shrinks: a cycle that no longer exists must be taken off it,
 * and a new one is never added.
 */
const ALLOWED: string[] = [
  'src/formats/solarus/compact.ts -> src/formats/solarus/model.ts -> src/formats/solarus/compact.ts',
  'src/formats/solarus/compact.ts -> src/formats/solarus/model.ts -> src/formats/solarus/json.ts -> src/formats/solarus/compact.ts',
  'src/formats/solarus/compact.ts -> src/formats/solarus/model.ts -> src/formats/solarus/style.ts -> src/formats/solarus/compact.ts',
  'src/formats/solarus/model.ts -> src/formats/solarus/style.ts -> src/formats/solarus/model.ts',
  'src/interop/aseprite/file.ts -> src/interop/aseprite/index.ts -> src/interop/aseprite/file.ts',
  'src/interop/aseprite/file.ts -> src/interop/aseprite/play.ts -> src/interop/aseprite/index.ts -> src/interop/aseprite/file.ts',
  'src/interop/aseprite/index.ts -> src/interop/aseprite/play.ts -> src/interop/aseprite/index.ts',
  'src/interop/tiled/check.ts -> src/interop/tiled/index.ts -> src/interop/tiled/check.ts',
  'src/interop/tiled/draw.ts -> src/interop/tiled/index.ts -> src/interop/tiled/draw.ts',
];

/** The import graph: each file (relative to the checkout) to the files it imports. */
function importGraph(files: string[], read: (file: string) => string): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = specifiersOf(read(file))
      .map((spec) => resolveSpecifier(file, spec))
      .filter((t) => known.has(t));
    graph.set(file, [...new Set(targets)].sort());
  }
  return graph;
}

/**
 * Every elementary cycle of the graph, each once: it starts at its smallest file and ends back there.
 * Each start only walks files after it, so a cycle is found from its smallest file alone.
 */
function cyclesOf(graph: Map<string, string[]>): string[][] {
  const out: string[][] = [];
  for (const start of [...graph.keys()].sort()) {
    const trail = [start];
    const onTrail = new Set(trail);
    const walk = (from: string): void => {
      for (const to of graph.get(from) ?? []) {
        if (to === start) out.push([...trail, start]);
        else if (to > start && !onTrail.has(to)) {
          trail.push(to);
          onTrail.add(to);
          walk(to);
          trail.pop();
          onTrail.delete(to);
        }
      }
    };
    walk(start);
  }
  return out;
}

function srcCycles(): string[] {
  const files = tsFiles(path.join(ROOT, 'src'));
  const graph = importGraph(files, (f) => readFileSync(f, 'utf8'));
  return cyclesOf(graph)
    .map((cycle) => cycle.map((f) => path.relative(ROOT, f).split(path.sep).join('/')).join(' -> '))
    .sort();
}

describe('import cycles', () => {
  it('src/ has no import cycles (besides the allow-list, which only shrinks)', () => {
    const found = srcCycles();
    expect(
      found.filter((c) => !ALLOWED.includes(c)),
      'new cycles: move the shared piece to the module that owns it',
    ).toEqual([]);
    expect(
      ALLOWED.filter((c) => !found.includes(c)),
      'gone: take these off ALLOWED',
    ).toEqual([]);
  });

  it('finds each cycle once, named from its smallest file', () => {
    const files = ['/s/a.ts', '/s/b.ts', '/s/c.ts', '/s/d.ts'];
    const sources: Record<string, string> = {
      '/s/a.ts': "import type { B } from './b.js';\nexport * from './c.js';",
      '/s/b.ts': "import {\n  a,\n} from './a.js';",
      '/s/c.ts': "const d = await import('./d.js');",
      '/s/d.ts': "import './c.js';\nimport { x } from 'fflate';",
    };
    expect(cyclesOf(importGraph(files, (f) => sources[f]!))).toEqual([
      ['/s/a.ts', '/s/b.ts', '/s/a.ts'],
      ['/s/c.ts', '/s/d.ts', '/s/c.ts'],
    ]);
  });
});
