/**
 * Godot's SpriteFrames resources in the text format (`.tres`): one
 * AtlasTexture sub-resource per stored frame (`region` on the page,
 * `margin` for the trimmed edges), the pages as external textures, and the
 * animations. Godot 3 (`format=2`, read by `load()` in Godot 3.x) and
 * Godot 4 (`format=3`, per-frame relative durations).
 *
 * Formats: Godot's docs, "TSCN file format" (tutorials/io/data_paths and
 * engine_details/file_formats/tscn), and the SpriteFrames and AtlasTexture
 * class references: `margin` is a Rect2 whose position is where the region
 * goes on the full texture and whose size is what the full texture adds to
 * the region's size; an AtlasTexture cannot be rotated. `ext_resource`
 * paths without `res://` are relative to the `.tres` (Godot 3.1 and later).
 */
import type { Atlas, AtlasExporter, AtlasFrame } from '../../model/atlas.js';
import { animationsOfEveryFrame, atlasLosses, decimal, frameMs, requireUnrotated, textFile } from '../atlasfile.js';

/** A Godot string literal (String or, with `&`, StringName). */
function str(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

/** A float as Godot writes one: always with a decimal point. */
function real(n: number): string {
  const s = decimal(n);
  return s.includes('.') ? s : `${s}.0`;
}

/** The frame whose pixels a frame shows (itself, or the frame it is an alias of). */
function stored(atlas: Atlas, i: number): number {
  const a = atlas.frames[i]!.aliasOf;
  return a !== undefined && atlas.frames[a] && atlas.frames[a]!.aliasOf === undefined ? a : i;
}

interface Layout {
  /** Stored frame index → its sub-resource's number (1-based, in frame order). */
  sub: Map<number, number>;
}

function layout(atlas: Atlas, frames: number[]): Layout {
  const sub = new Map<number, number>();
  for (const i of [...new Set(frames.map((i) => stored(atlas, i)))].sort((a, b) => a - b)) sub.set(i, sub.size + 1);
  return { sub };
}

function margin(f: AtlasFrame): [number, number, number, number] | undefined {
  const s = f.spriteSourceSize;
  const m: [number, number, number, number] = [s.x, s.y, f.sourceSize.w - f.frame.w, f.sourceSize.h - f.frame.h];
  return m.some((v) => v !== 0) ? m : undefined;
}

/** The most common duration of an animation's frames: the unit of Godot 4's relative durations. */
function commonMs(atlas: Atlas, frames: number[]): number {
  const count = new Map<number, number>();
  for (const i of frames) {
    const ms = frameMs(atlas.frames[i]!);
    count.set(ms, (count.get(ms) ?? 0) + 1);
  }
  let best = frames.length ? frameMs(atlas.frames[frames[0]!]!) : 100;
  for (const [ms, n] of count) if (n > (count.get(best) ?? 0)) best = ms;
  return best;
}

/** The mean duration of an animation's frames: Godot 3 has one speed per animation. */
function meanMs(atlas: Atlas, frames: number[]): number {
  if (frames.length === 0) return 100;
  return frames.reduce((t, i) => t + frameMs(atlas.frames[i]!), 0) / frames.length;
}

function write(atlas: Atlas, version: 3 | 4): string {
  requireUnrotated(atlas, `godot${version}`, "Godot's AtlasTexture cannot be rotated");
  const animations = animationsOfEveryFrame(atlas);
  const { sub } = layout(
    atlas,
    animations.flatMap((a) => a.frames),
  );
  const g3 = version === 3;
  const rect = (v: number[]) => (g3 ? `Rect2( ${v.join(', ')} )` : `Rect2(${v.join(', ')})`);
  const ext = (p: number) => (g3 ? `ExtResource( ${p + 1} )` : `ExtResource("${p + 1}")`);
  const subRef = (n: number) => (g3 ? `SubResource( ${n} )` : `SubResource("AtlasTexture_${n}")`);
  const lines: string[] = [];
  const steps = atlas.pages.length + sub.size + 1;
  lines.push(`[gd_resource type="SpriteFrames" load_steps=${steps} format=${g3 ? 2 : 3}]`, '');
  atlas.pages.forEach((p, i) => {
    lines.push(
      g3
        ? `[ext_resource path=${str(p.file)} type="Texture" id=${i + 1}]`
        : `[ext_resource type="Texture2D" path=${str(p.file)} id="${i + 1}"]`,
    );
  });
  lines.push('');
  for (const [i, n] of sub) {
    const f = atlas.frames[i]!;
    lines.push(g3 ? `[sub_resource type="AtlasTexture" id=${n}]` : `[sub_resource type="AtlasTexture" id="AtlasTexture_${n}"]`);
    lines.push(`atlas = ${ext(f.page)}`, `region = ${rect([f.frame.x, f.frame.y, f.frame.w, f.frame.h])}`);
    const m = margin(f);
    if (m) lines.push(`margin = ${rect(m)}`);
    lines.push('');
  }
  const anims = animations.map((a) => {
    if (g3) {
      const frames = a.frames.map((i) => subRef(sub.get(stored(atlas, i))!));
      return `{\n"frames": [ ${frames.join(', ')} ],\n"loop": ${a.loop},\n"name": ${str(a.name)},\n"speed": ${real(1000 / meanMs(atlas, a.frames))}\n}`;
    }
    const unit = commonMs(atlas, a.frames);
    const frames = a.frames.map(
      (i) => `{\n"duration": ${real(frameMs(atlas.frames[i]!) / unit)},\n"texture": ${subRef(sub.get(stored(atlas, i))!)}\n}`,
    );
    return `{\n"frames": [${frames.join(', ')}],\n"loop": ${a.loop},\n"name": &${str(a.name)},\n"speed": ${real(1000 / unit)}\n}`;
  });
  lines.push('[resource]', g3 ? `animations = [ ${anims.join(', ')} ]` : `animations = [${anims.join(', ')}]`, '');
  return lines.join('\n');
}

export const godot4Exporter: AtlasExporter = {
  name: 'godot4',
  description: 'Godot 4 SpriteFrames (.tres): AtlasTexture regions, animations with relative frame durations',
  extension: '.tres',
  rotation: false,
  multipage: true,
  write: (atlas, dataName) => [textFile(dataName, write(atlas, 4))],
  losses: (atlas) => atlasLosses(atlas, 'godot4', { animations: true, durations: 'frame', loop: true, crossPageAnimations: true }),
};

export const godot3Exporter: AtlasExporter = {
  name: 'godot3',
  description: 'Godot 3 SpriteFrames (.tres): AtlasTexture regions, animations with one speed each',
  extension: '.tres',
  rotation: false,
  multipage: true,
  write: (atlas, dataName) => [textFile(dataName, write(atlas, 3))],
  losses: (atlas) => atlasLosses(atlas, 'godot3', { animations: true, durations: 'animation', loop: true, crossPageAnimations: true }),
};
