/**
 * What the viewer animates for a document: every picture the document
 * offers (`renderViews`: its animations, views, directions), each drawn by
 * the very call `sprat render` makes (`render`, through the one picture
 * pipeline), so the viewer shows the pixels and delays the command line
 * writes.
 */
import { render, renderViews, type Loaded } from '../src/api.js';
import type { ResourceLoader } from '../src/formats/types.js';
import type { RgbaImage } from '../src/render/image.js';
import { nextFrame } from '../src/render/pipeline.js';

export interface PreviewAnimation {
  label: string;
  /** The render options that select this animation (what `sprat render` would be given). */
  options: Record<string, string>;
  frames: RgbaImage[];
  /** One per frame for an animation; empty for a still picture. */
  delaysMs: number[];
  /** As `render` gives it: 0 = forever, 1 = once, undefined for a still picture. */
  loops?: number;
  /** The frame after `frame`, or null when playback stops. */
  next(frame: number): number | null;
}

export interface Preview {
  animations: PreviewAnimation[];
  note?: string;
}

/**
 * Renders every picture of a document for the viewer; `options` are added
 * to each (e.g. a Hallgeir `frame-size`). A picture that cannot be drawn
 * is named in the note; when none can, the first error is thrown.
 */
export async function previewOf(loaded: Loaded, resources: ResourceLoader, options: Record<string, string> = {}): Promise<Preview> {
  const views = renderViews(loaded);
  if (views.length === 0) return { animations: [], note: `${loaded.handler.name} files have no picture to show` };
  const animations: PreviewAnimation[] = [];
  const failed: string[] = [];
  let first: unknown;
  for (const v of views) {
    const opts: Record<string, string> = {};
    for (const [k, x] of Object.entries({ ...v.options, ...options })) if (typeof x === 'string') opts[k] = x;
    try {
      const r = await render(loaded, { ...v.options, ...options }, resources);
      const n = r.frames.length;
      animations.push({ label: v.label, options: opts, frames: r.frames, delaysMs: r.delaysMs ?? [], loops: r.loops, next: (f) => nextFrame(f, n, r.loops) });
    } catch (e) {
      first ??= e;
      failed.push(`${v.label}: ${(e as Error).message}`);
    }
  }
  if (animations.length === 0) throw first;
  return { animations, note: failed.length ? `not shown: ${failed.join('; ')}` : undefined };
}
