/**
 * The godot3 exporter's SpriteFrames `.tres`, loaded by the real Godot 3
 * (Debian's headless `godot3-server`): a tiny project holds the `.tres` and
 * its PNG pages, a GDScript loads the resource and prints each animation's
 * speed, loop and frames (the AtlasTexture's page, region and margin), and
 * they match the Atlas (test/helpers/atlas-fixture.ts: two pages, trimmed
 * frames, an alias).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { godot3Exporter } from '../../src/interop/godot/index.js';
import { encodePng } from '../../src/render/png.js';
import { atlasFixture } from '../helpers/atlas-fixture.js';

const GODOT = ['/usr/games/godot3-server', '/usr/bin/godot3-server'].find((p) => fs.existsSync(p));
if (!GODOT && process.env.CI) throw new Error('CI must have godot3-server (.ci/run installs it) for the Godot 3 test');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sprat-godot3-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const SCRIPT = `extends SceneTree
func _init():
	var sf = load("res://sprites/hero.tres")
	if sf == null:
		print("SPRAT null")
		quit()
		return
	for a in sf.get_animation_names():
		var frames = []
		for i in range(sf.get_frame_count(a)):
			var t = sf.get_frame(a, i)
			frames.append([t.atlas.resource_path, t.region.position.x, t.region.position.y, t.region.size.x, t.region.size.y,
				t.margin.position.x, t.margin.position.y, t.margin.size.x, t.margin.size.y, t.get_width(), t.get_height()])
		print("SPRAT ", to_json({"name": a, "speed": sf.get_animation_speed(a), "loop": sf.get_animation_loop(a), "frames": frames}))
	quit()
`;

describe.skipIf(!GODOT)('godot3: Godot 3 loads the SpriteFrames', () => {
  it('every animation with its speed, loop and frames (page, region, margin, full size)', () => {
    const { atlas } = atlasFixture({ rotate: false });
    fs.mkdirSync(path.join(dir, 'sprites'));
    fs.writeFileSync(path.join(dir, 'project.godot'), 'config_version=4\n\n[application]\n\nconfig/name="sprat"\n');
    fs.writeFileSync(path.join(dir, 'print.gd'), SCRIPT);
    for (const p of atlas.pages) fs.writeFileSync(path.join(dir, 'sprites', p.file), encodePng(p.image));
    for (const f of godot3Exporter.write(atlas, 'hero.tres')) fs.writeFileSync(path.join(dir, 'sprites', f.name), f.bytes);
    const home = path.join(dir, 'home');
    fs.mkdirSync(home);
    const r = spawnSync(GODOT!, ['--no-window', '--path', dir, '-s', 'print.gd'], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, HOME: home, XDG_DATA_HOME: home, XDG_CONFIG_HOME: home, XDG_CACHE_HOME: home },
    });
    const printed = r.stdout
      .split('\n')
      .filter((l) => l.startsWith('SPRAT '))
      .map((l) => l.slice(6));
    expect(printed, `${r.stdout}\n${r.stderr}`).not.toContain('null');
    const got = printed.map((l) => JSON.parse(l));
    const want = atlas.animations.map((a) => {
      const mean = a.frames.reduce((t, i) => t + atlas.frames[i]!.durationMs!, 0) / a.frames.length;
      return {
        name: a.name,
        speed: 1000 / mean,
        loop: a.loop,
        frames: a.frames.map((i) => {
          // An alias shows its original's AtlasTexture.
          const f = atlas.frames[atlas.frames[i]!.aliasOf ?? i]!;
          const s = f.spriteSourceSize;
          return [
            `res://sprites/${atlas.pages[f.page]!.file}`,
            f.frame.x,
            f.frame.y,
            f.frame.w,
            f.frame.h,
            s.x,
            s.y,
            f.sourceSize.w - f.frame.w,
            f.sourceSize.h - f.frame.h,
            f.sourceSize.w,
            f.sourceSize.h,
          ];
        }),
      };
    });
    expect(got.map((a) => a.name).sort()).toEqual(want.map((a) => a.name).sort());
    for (const w of want) {
      const g = got.find((a) => a.name === w.name)!;
      expect(g.loop, w.name).toBe(w.loop);
      expect(g.speed, w.name).toBeCloseTo(w.speed, 5);
      expect(g.frames, w.name).toEqual(w.frames);
    }
  }, 90_000);
});
