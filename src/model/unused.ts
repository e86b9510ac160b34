/**
 * Frames no animation plays: a conversion keeps them ("no silent
 * change") as one more model animation marked `unused`, named "unused" (or
 * "unused 2", ... when the source has an animation of that name).
 */
import type { ModelAnimation, ModelFrame } from './types.js';

/** The animation holding `frames` (in source order), or null when there are none. */
export function unusedAnimation(animations: readonly ModelAnimation[], frames: ModelFrame[]): ModelAnimation | null {
  if (frames.length === 0) return null;
  const taken = new Set(animations.map((a) => a.name));
  let name = 'unused';
  for (let k = 2; taken.has(name); k++) name = `unused ${k}`;
  return { name, frames, loopTo: 0, unused: true };
}

/** The frames of an `unused` animation by name (their labels, else "frame N"), for notes. */
export function unusedFrameNames(a: ModelAnimation): string {
  const names = a.frames.map((f, i) => f.label || `frame ${i}`);
  const shown = names.slice(0, 20).join(', ');
  return names.length > 20 ? `${shown}, … (${names.length} in all)` : shown;
}
