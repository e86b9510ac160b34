import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as sprat from '../../src/index.js';
import { ROOT } from '../helpers/paths.js';

describe('the README and the library guide', () => {
  it("docs/library.md's sprite example works as written", () => {
    const { createIsprite, writeIsprite, prepareSprite, Player, load } = sprat;
    const sprite = createIsprite(12);
    sprite.textures.push({ path: 'hero', nearest: true });
    sprite.slices.push({ texture: 0, rotated: false, x: 0, y: 0, width: 16, height: 24 });
    sprite.frames.push({
      holdTime: 1,
      loopPoint: false,
      label: '',
      triggers: 'step',
      notes: '',
      elements: [{ type: 'graphic', expanded: false, name: null, slice: 0, x: -8, y: -24, flipX: false, flipY: false }],
    });
    sprite.tree.push({ kind: 'sequence', name: 'idle', loopPoint: 0, followUp: '', frames: [0] });
    const file: Uint8Array = writeIsprite(sprite);
    const player = new Player(prepareSprite(sprite));
    player.setAnimation('idle');
    player.update(1 / 60);
    const { handler, doc } = load(file, 'hero.isprite');
    expect(handler.name).toBe('isprite');
    expect((handler.inspectJson(doc) as { frames: unknown[] }).frames).toHaveLength(1);
    expect(sprat.validate(file, 'hero.isprite').valid).toBe(true);
  });

  it('names the two quick-start commands', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain('npm install && npx sprat demo\nnpm test\n');
  });
});

describe('docs/limits.md', () => {
  it('lists every budget of src/binary/limits.ts with its default and what it limits', async () => {
    const { LIMIT_SPECS } = await import('../../src/binary/limits.js');
    const section = readFileSync(path.join(ROOT, 'docs', 'limits.md'), 'utf8');
    const rows = [...section.matchAll(/^\| `--([a-z-]+)` \| ([\d,]+) (\w+) \| (.*) \|$/gm)].map((m) => [
      m[1],
      Number(m[2]!.replace(/,/g, '')),
      m[3],
      m[4],
    ]);
    expect(rows).toEqual(LIMIT_SPECS.map((s) => [s.option, s.default, s.unit, s.description]));
  });
});
