/**
 * What the sheet formats (Aseprite JSON, TexturePacker JSON) cannot say
 * natively but the common model holds, written in the sheet's `meta.sprat`
 * so that reading the sheet back restores it (docs/interop.md, "What comes
 * back"): which animation and direction each tag (Aseprite) or `animations`
 * entry (TexturePacker) is, frames shown forever, loop points other than the
 * first frame, the tag direction and repeat (TexturePacker), user data and
 * the source's frame names, and each frame's points and collision shapes,
 * events and user data. Players ignore the key; the tag names and
 * `animations` keys stay `name/direction`, one per direction, as Phaser's
 * `createFromAseprite` (one animation per tag name) and PixiJS (name ->
 * frame names) load them.
 */
import type { ModelAnimation, ModelFrame, ModelShape } from '../model/types.js';
import { listed, NOTE_NAMES } from '../formats/options.js';
import { has, type JsonReader } from './json.js';

/** One tag or `animations` entry: what the model animation was. */
export interface AnimationExtra {
  /** The tag name or `animations` key this entry belongs to. */
  key: string;
  name: string;
  direction?: string;
  /** The frames (indices in the animation as it plays) shown forever. */
  forever?: number[];
  /** The loop point when it is not what the sheet says (a frame other than the first; null: stops). */
  loopTo?: number | null;
  /** Tag direction and repeat (TexturePacker, which has no tags). */
  playback?: ModelAnimation['playback'];
  userData?: string;
  /** The animation played when this one ends (ISPRITE follow-ups). */
  next?: string;
  /** The source's frame names, by index in the animation, when they differ from the sheet's frame names. */
  frameNames?: (string | null)[];
  /** What the sheet's frames cannot hold, by index in the animation (null: nothing). */
  frames?: (FrameExtra | null)[];
}

/** A frame's points and collision shapes, events and user data (the model's, as they are). */
export interface FrameExtra {
  shapes?: ModelShape[];
  events?: string[];
  userData?: string;
}

function frameExtra(f: ModelFrame): FrameExtra | null {
  const x: FrameExtra = {};
  if (f.shapes?.length) x.shapes = f.shapes.map((s) => ({ ...s }));
  if (f.events?.length) x.events = [...f.events];
  if (f.userData !== undefined) x.userData = f.userData;
  return Object.keys(x).length ? x : null;
}

export interface SheetExtras {
  animations: AnimationExtra[];
}

const PLAY_DIRECTIONS = ['forward', 'reverse', 'pingpong', 'pingpong_reverse'];

/** The extras entry for a model animation written under `key`; undefined when the sheet says it all. */
export function animationExtra(
  a: ModelAnimation,
  key: string,
  opts: { loopTo?: 'frame' | 'any'; playback?: boolean; sheetNames?: string[] } = {},
): AnimationExtra | undefined {
  const e: AnimationExtra = { key, name: a.name };
  let needed = key !== a.name || a.direction !== undefined;
  if (a.direction !== undefined) e.direction = a.direction;
  const forever = a.frames.flatMap((f, i) => (Number.isFinite(f.durationMs) ? [] : [i]));
  if (forever.length) {
    e.forever = forever;
    needed = true;
  }
  // 'frame': the sheet says loop-to-first and stop (Aseprite's repeat); 'any': it says nothing (TexturePacker).
  if (opts.loopTo && a.loopTo !== 0 && (a.loopTo !== null || opts.loopTo === 'any') && a.frames.length) {
    e.loopTo = a.loopTo;
    needed = true;
  }
  if (opts.playback && a.playback && (a.playback.direction !== 'forward' || a.playback.repeat)) {
    e.playback = { ...a.playback };
    needed = true;
  }
  if (a.userData !== undefined) {
    e.userData = a.userData;
    needed = true;
  }
  if (a.next !== undefined) {
    e.next = a.next;
    needed = true;
  }
  if (opts.sheetNames) {
    const names = a.frames.map((f, i) => {
      const n = f.name ?? f.label;
      return n !== undefined && n !== opts.sheetNames![i] ? n : null;
    });
    if (names.some((n) => n !== null)) {
      e.frameNames = names;
      needed = true;
    }
  }
  const frames = a.frames.map(frameExtra);
  if (frames.some((f) => f !== null)) {
    e.frames = frames;
    needed = true;
  }
  return needed ? e : undefined;
}

function readShape(r: JsonReader, v: unknown, p: string): ModelShape {
  const o = r.obj(v, p);
  const type = r.str(o.type, `${p}.type`);
  const name = r.str(o.name, `${p}.name`);
  const num = (k: string, min?: number) => r.num(o[k], `${p}.${k}`, min === undefined ? {} : { min });
  const rotation = r.optNum(o, 'rotation', p);
  const turned = rotation === undefined ? {} : { rotation };
  if (type === 'point') return { type, name, x: num('x'), y: num('y'), ...turned };
  if (type === 'rect') {
    const rect: ModelShape = { type, name, x: num('x'), y: num('y'), width: num('width', 0), height: num('height', 0), ...turned };
    if (has(o, 'center')) {
      const c = r.obj(o.center, `${p}.center`);
      const at = `${p}.center`;
      rect.center = {
        x: r.num(c.x, `${at}.x`),
        y: r.num(c.y, `${at}.y`),
        width: r.num(c.width, `${at}.width`, { min: 0 }),
        height: r.num(c.height, `${at}.height`, { min: 0 }),
      };
    }
    if (has(o, 'pivot')) {
      const v = r.obj(o.pivot, `${p}.pivot`);
      rect.pivot = { x: r.num(v.x, `${p}.pivot.x`), y: r.num(v.y, `${p}.pivot.y`) };
    }
    const color = r.optStr(o, 'color', p);
    if (color !== undefined) rect.color = color;
    const userData = r.optStr(o, 'userData', p);
    if (userData !== undefined) rect.userData = userData;
    return rect;
  }
  if (type === 'circle') return { type, name, x: num('x'), y: num('y'), radius: num('radius', 0) };
  throw r.error(`${p}.type`, `unknown shape type "${type}" (point, rect or circle)`);
}

function readFrameExtra(r: JsonReader, v: unknown, p: string): FrameExtra | null {
  if (v === null) return null;
  const o = r.obj(v, p);
  const x: FrameExtra = {};
  if (has(o, 'shapes')) x.shapes = r.arr(o.shapes, `${p}.shapes`).map((s, i) => readShape(r, s, `${p}.shapes[${i}]`));
  if (has(o, 'events')) x.events = r.arr(o.events, `${p}.events`).map((s, i) => r.str(s, `${p}.events[${i}]`));
  const userData = r.optStr(o, 'userData', p);
  if (userData !== undefined) x.userData = userData;
  return x;
}

/** `meta.sprat` of a read sheet, checked (every index in range is checked where it is applied). */
export function readExtras(r: JsonReader, meta: Record<string, unknown>): SheetExtras | undefined {
  if (!has(meta, 'sprat')) return undefined;
  const p = '$.meta.sprat';
  const o = r.obj(meta.sprat, p);
  const animations = r.arr(o.animations ?? [], `${p}.animations`).map((v, i) => {
    const ap = `${p}.animations[${i}]`;
    const ao = r.obj(v, ap);
    const e: AnimationExtra = { key: r.str(ao.key, `${ap}.key`), name: r.str(ao.name, `${ap}.name`) };
    const direction = r.optStr(ao, 'direction', ap);
    if (direction !== undefined) e.direction = direction;
    if (has(ao, 'forever'))
      e.forever = r.arr(ao.forever, `${ap}.forever`).map((n, j) => r.num(n, `${ap}.forever[${j}]`, { int: true, min: 0 }));
    if (has(ao, 'loopTo')) e.loopTo = ao.loopTo === null ? null : r.num(ao.loopTo, `${ap}.loopTo`, { int: true, min: 0 });
    if (has(ao, 'playback')) {
      const po = r.obj(ao.playback, `${ap}.playback`);
      const d = r.str(po.direction, `${ap}.playback.direction`);
      if (!PLAY_DIRECTIONS.includes(d)) throw r.error(`${ap}.playback.direction`, `unknown direction "${d}"`);
      e.playback = { direction: d as NonNullable<ModelAnimation['playback']>['direction'] };
      const repeat = r.optNum(po, 'repeat', `${ap}.playback`, { int: true, min: 0 });
      if (repeat !== undefined) e.playback.repeat = repeat;
    }
    const userData = r.optStr(ao, 'userData', ap);
    if (userData !== undefined) e.userData = userData;
    const next = r.optStr(ao, 'next', ap);
    if (next !== undefined) e.next = next;
    if (has(ao, 'frameNames'))
      e.frameNames = r.arr(ao.frameNames, `${ap}.frameNames`).map((n, j) => (n === null ? null : r.str(n, `${ap}.frameNames[${j}]`)));
    if (has(ao, 'frames')) e.frames = r.arr(ao.frames, `${ap}.frames`).map((f, j) => readFrameExtra(r, f, `${ap}.frames[${j}]`));
    return e;
  });
  return { animations };
}

/** The extras as JSON (`meta.sprat`). */
export function extrasJson(x: SheetExtras): Record<string, unknown> {
  return { animations: x.animations.map((e) => ({ ...e })) };
}

/**
 * Takes the extras entry for the next tag or `animations` entry named `key`
 * (entries are matched in order, so tags of one name each get theirs).
 */
export function extrasTaker(x: SheetExtras | undefined): (key: string) => AnimationExtra | undefined {
  const left = [...(x?.animations ?? [])];
  return (key) => {
    const i = left.findIndex((e) => e.key === key);
    return i < 0 ? undefined : left.splice(i, 1)[0];
  };
}

/**
 * Gives a model animation read from a sheet what its extras entry says:
 * its name and direction, frames shown forever, the loop point, the
 * playback mode, user data, frame names and what its frames hold. Indices out of range are
 * left out (a reader never trusts a count).
 */
export function applyExtra(a: ModelAnimation, e: AnimationExtra | undefined): void {
  if (!e) return;
  a.name = e.name;
  if (e.direction !== undefined) a.direction = e.direction;
  for (const i of e.forever ?? []) {
    const f: ModelFrame | undefined = a.frames[i];
    if (f) f.durationMs = Infinity;
  }
  if (e.loopTo !== undefined && (e.loopTo === null || e.loopTo < a.frames.length)) a.loopTo = e.loopTo;
  if (e.playback) a.playback = { ...e.playback };
  if (e.userData !== undefined) a.userData = e.userData;
  if (e.next !== undefined) a.next = e.next;
  e.frameNames?.forEach((n, i) => {
    const f = a.frames[i];
    if (f && n !== null) f.name = n;
  });
  // A frame's label stays the sheet's frame name (as the readers give it); the source's names are in frameNames.
  e.frames?.forEach((x, i) => {
    const f = a.frames[i];
    if (!f || !x) return;
    if (x.shapes) f.shapes = x.shapes;
    if (x.events) f.events = x.events;
    if (x.userData !== undefined) f.userData = x.userData;
  });
}

/**
 * The animations a note is about, each once: `dying (4 directions), hurt`
 * (a name with several directions counts them, one with one names it).
 */
export function animationList(anims: readonly Pick<ModelAnimation, 'name' | 'direction'>[]): string {
  const byName = new Map<string, (string | undefined)[]>();
  for (const a of anims) byName.set(a.name, [...(byName.get(a.name) ?? []), a.direction]);
  const names = [...byName].map(([name, dirs]) => {
    if (dirs.length > 1) return `${name} (${dirs.length} directions)`;
    return dirs[0] !== undefined ? `${name} (direction ${dirs[0]})` : name;
  });
  return listed(names, NOTE_NAMES);
}
