/**
 * What the viewer animates for a document: a list of animations, each a list
 * of frames on one canvas with their delays and where playback goes next.
 */
import type { Loaded } from '../src/api.js';
import type { ResourceLoader } from '../src/formats/types.js';
import type { RgbaImage } from '../src/render/image.js';

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

export async function previewOf(loaded: Loaded, resources: ResourceLoader): Promise<Preview> {
  void resources;
  return { animations: [], note: `no preview for ${loaded.handler.name} files yet` };
}
