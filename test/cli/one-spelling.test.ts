import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/main.js';
import { allOptions } from '../../src/cli/command.js';
import { FORMATS } from '../../src/registry.js';
import { SELECTION_OPTIONS } from '../../src/formats/selections.js';
import type { OptionSpec } from '../../src/formats/types.js';

const KEYS = ['playOptions', 'renderOptions', 'resourceOptions', 'writeOptions', 'readOptions', 'convertOptions'] as const;

/** Options with their own syntax under a shared name (Aseprite's layers by name or group path). */
const OWN_SYNTAX = new Set(['ase:hide-layers', 'ase:layer-opacity']);

describe('one spelling: the shared selections are declared once (src/formats/selections.ts)', () => {
  it("every format's --animation, --frame, --direction, --origin, --ms, --step-ms, --hide-layers, --layer-opacity is the shared declaration", () => {
    const shared = new Map(SELECTION_OPTIONS.map((o) => [o.name, o]));
    let checked = 0;
    for (const f of FORMATS) {
      for (const k of KEYS) {
        for (const o of (f[k] ?? []) as readonly OptionSpec[]) {
          const one = shared.get(o.name);
          if (!one || OWN_SYNTAX.has(`${f.name}:${o.name}`)) continue;
          expect(o, `${f.name} ${k} --${o.name}`).toBe(one);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('no command lists one option twice under the same spelling with the same declaration', () => {
    for (const c of COMMANDS) {
      const specs = allOptions(c);
      expect(new Set(specs).size, c.name).toBe(specs.length);
    }
  });
});
