/**
 * What the engine atlas exporters (src/interop/godot/, libgdx/, starling/,
 * cocos2d/, phaser/, pixi/, css/, template/) share: text files, the names of
 * per-page data files, escaping, the frames' stored sizes and what a format
 * cannot hold. The Atlas they write is src/model/atlas.ts.
 */
import { FormatError } from '../binary/errors.js';
import type { Atlas, AtlasAnimation, AtlasFile, AtlasFrame, AtlasTurn } from '../model/atlas.js';

/** A UTF-8 text file. */
export function textFile(name: string, text: string): AtlasFile {
  return { name, bytes: new TextEncoder().encode(text) };
}

/**
 * The data file of page `page` for a format that names one image per file:
 * `dataName` for the first page, `NAME-1.EXT`, `NAME-2.EXT`, ... for the others.
 */
export function pageDataName(dataName: string, page: number): string {
  if (page === 0) return dataName;
  const slash = dataName.lastIndexOf('/');
  const dot = dataName.lastIndexOf('.');
  return dot > slash + 1 ? `${dataName.slice(0, dot)}-${page}${dataName.slice(dot)}` : `${dataName}-${page}`;
}

/**
 * The head of a TexturePacker-style JSON `meta` for page `page` (TexturePacker's JSON writers, which
 * Aseprite and PixiJS read too): `app`, `version`, `image`, `format`, `size` and `scale`.
 */
export function pageMeta(atlas: Atlas, page: number) {
  const p = atlas.pages[page]!;
  return {
    app: 'sprat',
    version: '1.0',
    image: p.file,
    format: 'RGBA8888',
    size: { w: p.image.width, h: p.image.height },
    scale: String(atlas.scale),
  };
}

/** The animations whose frames are all on page `page`, each with its frames' names (a multipack's per-page `animations`). */
export function pageAnimations(atlas: Atlas, page: number): [string, string[]][] {
  const out: [string, string[]][] = [];
  for (const a of atlas.animations) {
    const on = a.frames.map((i) => atlas.frames[i]!);
    if (on.length > 0 && on.every((f) => f.page === page)) out.push([a.name, on.map((f) => f.name)]);
  }
  return out;
}

/** An XML attribute value or text, escaped (XML 1.0, section 2.4 and 3.3.3). */
export function xmlEscape(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/[\t\n\r]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Throws when `s` holds a character XML 1.0 cannot hold, even as a reference (XML 1.0, section 2.2, "Char"). */
export function requireXmlText(format: string, what: string, s: string): void {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const bad = (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0xfffe || c === 0xffff;
    const lone = c >= 0xd800 && c <= 0xdfff && !(c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00);
    if (bad || lone)
      throw new FormatError(
        format,
        `${what} "${s}" cannot be written: XML cannot hold the character U+${c.toString(16).toUpperCase().padStart(4, '0')}`,
      );
    if (c >= 0xd800 && c <= 0xdbff) i++;
  }
}

/** The pixels a frame covers on its page: `h` x `w` when it is stored rotated. */
export function storedSize(f: AtlasFrame): { w: number; h: number } {
  return f.rotated ? { w: f.frame.h, h: f.frame.w } : { w: f.frame.w, h: f.frame.h };
}

/** Throws when a frame is stored rotated and `format` cannot say so (its exporter's `rotation` is false). */
export function requireUnrotated(atlas: Atlas, format: string, why: string): void {
  const f = atlas.frames.find((x) => x.rotated);
  if (f) throw new FormatError(format, `frame "${f.name}" is stored rotated, and ${why}: pack it without rotation`);
}

/** Throws when a frame is stored rotated the other way than `format`'s rotated frames turn (`Atlas.turn`, default clockwise). */
export function requireTurn(atlas: Atlas, format: string, turn: AtlasTurn): void {
  const has = atlas.turn ?? 'clockwise';
  const f = has !== turn ? atlas.frames.find((x) => x.rotated) : undefined;
  if (f)
    throw new FormatError(
      format,
      `frame "${f.name}" is stored turned ${has}, and ${format}'s rotated frames turn ${turn}: pack the atlas for ${format}`,
    );
}

/** Throws when a name holds a character `format` cannot write. */
export function requireNameWithout(format: string, what: string, name: string, bad: RegExp, why: string): void {
  if (bad.test(name)) throw new FormatError(format, `${what} "${name}" cannot be written: ${why}`);
}

/** How long frames show when the source does not say (milliseconds). */
export const DEFAULT_FRAME_MS = 100;

/** A frame's duration in milliseconds (DEFAULT_FRAME_MS when the source does not say, or says 0). */
export function frameMs(f: AtlasFrame): number {
  return f.durationMs && f.durationMs > 0 ? f.durationMs : DEFAULT_FRAME_MS;
}

/**
 * The animations a format that holds only animations writes (Godot's
 * SpriteFrames): the atlas's own, and the frames in none of them as one more,
 * named `default` (or `default-2`, ... when an animation has that name), in
 * atlas order, looping.
 */
export function animationsOfEveryFrame(atlas: Atlas): AtlasAnimation[] {
  const used = new Set(atlas.animations.flatMap((a) => a.frames));
  const rest = atlas.frames.map((_, i) => i).filter((i) => !used.has(i));
  if (rest.length === 0) return atlas.animations;
  const names = new Set(atlas.animations.map((a) => a.name));
  let name = 'default';
  for (let n = 2; names.has(name); n++) name = `default-${n}`;
  return [...atlas.animations, { name, frames: rest, loop: true }];
}

/** A number as the shortest decimal that reads back as it, at most 6 places (no exponent for these sizes). */
export function decimal(n: number): string {
  return String(Math.round(n * 1e6) / 1e6);
}

/**
 * What writing `atlas` in a format loses, each named once, for the caller to
 * print as notes: `holds` says which of the atlas's extras the format keeps
 * (`durations`: `frame` per frame, `animation` one speed per animation).
 */
export function atlasLosses(
  atlas: Atlas,
  format: string,
  holds: { pivot?: boolean; durations?: 'frame' | 'animation'; animations?: boolean; loop?: boolean; crossPageAnimations?: boolean },
): string[] {
  const out: string[] = [];
  const pivots = atlas.frames.filter((f) => f.pivot).length;
  if (!holds.pivot && pivots > 0) out.push(`${format} holds no pivots: ${pivots} frames' pivots are not written`);
  if (!holds.animations && atlas.animations.length > 0) {
    out.push(`${format} holds no animations: ${atlas.animations.length} animations are not written (their frames are)`);
  } else if (holds.animations) {
    const once = atlas.animations.filter((a) => !a.loop).length;
    if (!holds.loop && once > 0) out.push(`${format} holds no loop flag: ${once} animations' "play once" is not written`);
    if (!holds.crossPageAnimations) {
      const split = atlas.animations.filter((a) => new Set(a.frames.map((i) => atlas.frames[i]?.page)).size > 1);
      if (split.length > 0) {
        out.push(
          `${format} holds an animation on one page only: ${split.map((a) => `"${a.name}"`).join(', ')} span several pages and are not written`,
        );
      }
    }
  }
  const timed = atlas.frames.filter((f) => f.durationMs !== undefined);
  if (holds.durations !== 'frame' && timed.length > 0) {
    // One speed per animation keeps the durations of an animation whose frames all show as long.
    const differ =
      holds.durations === 'animation' && holds.animations
        ? atlas.animations.some((a) => new Set(a.frames.map((i) => frameMs(atlas.frames[i]!))).size > 1)
        : true;
    if (differ) out.push(`${format} holds no per-frame durations: ${timed.length} frames' durations are not written`);
  }
  return out;
}
