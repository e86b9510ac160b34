import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeSolarusSample } from '../../scripts/samples/solarus.js';
import { SAMPLES } from '../helpers/paths.js';
import { runCli } from '../helpers/cli.js';
import { decodePng } from '../../src/render/png.js';

describe('Solarus sample', () => {
  const { files } = makeSolarusSample();

  it('the committed files are the generator output (PNG: the same pixels) (SPRAT_WRITE_SAMPLES=1 rewrites them)', () => {
    for (const f of files) {
      const p = path.join(SAMPLES, f.name);
      if (process.env.SPRAT_WRITE_SAMPLES || process.env.UPDATE_SAMPLES) {
        mkdirSync(path.dirname(p), { recursive: true });
        writeFileSync(p, f.bytes);
      }
      const committed = new Uint8Array(readFileSync(p));
      if (f.name.endsWith('.png')) {
        // PNG bytes depend on the encoder's settings; the pixels must match exactly.
        expect(decodePng(committed), f.name).toEqual(decodePng(f.bytes));
      } else {
        expect(Buffer.from(committed).equals(f.bytes), f.name).toBe(true);
      }
    }
  });

  it('both syntaxes validate without warnings and describe the same sheet', async () => {
    const a = await runCli([
      'validate',
      path.join(SAMPLES, 'solarus/sprites/slime.dat'),
      path.join(SAMPLES, 'solarus/sprites/slime_lua.dat'),
    ]);
    expect(a.code).toBe(0);
    expect(a.stderr).toBe('');
    const j1 = JSON.parse((await runCli(['inspect', '--json', path.join(SAMPLES, 'solarus/sprites/slime.dat')])).stdout);
    const j2 = JSON.parse((await runCli(['inspect', '--json', path.join(SAMPLES, 'solarus/sprites/slime_lua.dat')])).stdout);
    expect(j1.format).toBe('solarus');
    expect(j2.format).toBe('solarus-lua');
    expect(j2.animations).toEqual(j1.animations);
  });

  it('is listed in samples/demo.json with renders', () => {
    const demo = JSON.parse(readFileSync(path.join(SAMPLES, 'demo.json'), 'utf8')) as { samples: { file: string; renders?: unknown[] }[] };
    const mine = demo.samples.filter((s) => s.file.startsWith('solarus/'));
    expect(mine.map((s) => s.file).sort()).toEqual(['solarus/sprites/slime.dat', 'solarus/sprites/slime_lua.dat']);
    expect(mine.flatMap((s) => s.renders ?? []).length).toBeGreaterThanOrEqual(2);
  });
});
