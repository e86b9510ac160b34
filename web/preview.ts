/**
 * What the viewer animates for a document: every format with a `toModel`
 * converts to the common model, whose animations are baked frame by frame
 * (src/model/bake.ts) and whose levels are drawn whole (bake-level.ts).
 */
import type { Loaded } from '../src/api.js';
import type { ResourceLoader } from '../src/formats/types.js';
import type { RgbaImage } from '../src/render/image.js';
import { renderModelAnimation } from '../src/model/bake.js';
import { renderLevelModel } from '../src/model/bake-level.js';

export interface PreviewAnimation {
  label: string;
  frames: RgbaImage[];
  delaysMs: number[];
  /** The frame after `frame`, or null when playback stops. */
  next(frame: number): number | null;
}

export interface Preview {
  animations: PreviewAnimation[];
  note?: string;
}

/** Formats whose drawing needs a size the file does not store. */
const DEFAULT_OPTIONS: Record<string, Record<string, string>> = {};

export async function previewOf(loaded: Loaded, resources: ResourceLoader, options: Record<string, string> = {}): Promise<Preview> {
  const h = loaded.handler;
  if (!h.toModel) {
    // No model (e.g. a Hallgeir map): the format's own renderer, with its defaults.
    if (!h.render) return { animations: [], note: `${h.name} files have no picture to show` };
    const r = await h.render(loaded.doc, options, resources);
    const n = r.frames.length;
    return {
      animations: [{ label: h.name, frames: r.frames, delaysMs: r.delaysMs ?? r.frames.map(() => 100), next: (f) => (f + 1 < n ? f + 1 : r.loops === 1 ? null : 0) }],
    };
  }
  const model = await h.toModel(loaded.doc, resources, { ...DEFAULT_OPTIONS[h.name], ...options });
  const note = model.notes?.length ? model.notes.join('; ') : undefined;
  if (model.kind === 'level') {
    const image = renderLevelModel(model);
    return { animations: [{ label: 'level', frames: [image], delaysMs: [0], next: () => null }], note };
  }
  const animations = model.animations.map((a, i) => {
    const baked = renderModelAnimation(model, i);
    const n = baked.frames.length;
    return {
      label: a.direction !== undefined ? `${a.name} (${a.direction})` : a.name,
      frames: baked.frames,
      delaysMs: baked.delaysMs,
      next: (frame: number) => (frame + 1 < n ? frame + 1 : a.loopTo === null || a.loopTo >= n ? null : a.loopTo),
    };
  });
  return { animations, note };
}
