/**
 * What the sheet formats (Aseprite JSON, TexturePacker JSON) cannot say
 * natively but the common model holds, written in the sheet's `meta.sprat`
 * so that reading the sheet back restores it (docs/interop.md, "What comes
 * back"): which animation and direction each tag (Aseprite) or `animations`
 * entry (TexturePacker) is, frames shown forever, loop points other than the
 * first frame, the tag direction and repeat (TexturePacker), user data and
 * the source's frame names. Players ignore the key; the tag names and
 * `animations` keys stay `name/direction`, one per direction, as Phaser's
 * `createFromAseprite` (one animation per tag name) and PixiJS (name ->
 * frame names) load them.
 */
import type { ModelAnimation, ModelFrame } from '../model/types.js';
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
  return needed ? e : undefined;
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
 * playback mode, user data and frame names. Indices out of range are
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
