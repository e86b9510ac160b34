/**
 * `sprat play` for Aseprite files: a tag played as Aseprite 1.3 plays it
 * (doc/playback.cpp: its direction, `repeat` passes, each frame for its own
 * duration), or every frame in order, looping. One record per step,
 * `{"time": t, "frame": j}` for t = 0, S, 2S, ... < N (`--ms N --step-ms S`),
 * as docs/spec/solarus.md and docs/spec/hallgeir.md print their playback; `frame` is the
 * sprite's frame number (from 0). A tag played N times stops on the last
 * frame it shows, which stays.
 *
 * Also the JSON sheet export's tags (its frames' `duration`).
 *
 * The sequence is kept as runs of frames, each played a number of times
 * (a ping-pong of 65535 passes is two half-passes, not a list of every
 * frame), so the frame at any time is found without walking the frames.
 */
import { FormatError, printableLines } from '../../binary/errors.js';
import { PLAY_MS_OPTION, PLAY_STEP_MS_OPTION } from '../../formats/selections.js';
import { budgetFrom } from '../../binary/limits.js';
import { intOption, selectNamed, stringOption } from '../../formats/options.js';
import type { CommandOptions, OptionSpec } from '../../formats/types.js';
import type { AsepriteTag } from './index.js';

/** The frame indices a tag plays, in order, for one pass. */
export function tagSequence(tag: AsepriteTag): number[] {
  const up: number[] = [];
  for (let i = tag.from; i <= tag.to; i++) up.push(i);
  const down = [...up].reverse();
  switch (tag.direction) {
    case 'reverse':
      return down;
    case 'pingpong':
      return [...up, ...down.slice(1, -1)];
    case 'pingpong_reverse':
      return [...down, ...up.slice(1, -1)];
    default:
      return up;
  }
}

/**
 * What a tag plays, as Aseprite 1.3 plays it (its doc/playback.cpp, and the
 * cases of its playback_tests.cpp): the frames in the tag's direction;
 * `repeat` N > 0 plays N passes and stops on the last frame shown, where a
 * ping-pong pass goes one way and the turning frame shows once (0-3
 * ping-pong, repeat 2: 0 1 2 3 2 1 0); no repeat (or 0) plays forever, a
 * ping-pong as the cycle 0 1 2 3 2 1. `times` caps N (the passes kept).
 */
export function tagPlayback(tag: AsepriteTag, times = tag.repeat ?? 0): { frames: number[]; loop: boolean } {
  const seq = tagSequence(tag);
  if (!(times > 0)) return { frames: seq, loop: true };
  const frames: number[] = [];
  const pingpong = tag.direction === 'pingpong' || tag.direction === 'pingpong_reverse';
  if (!pingpong || tag.from === tag.to) {
    for (let i = 0; i < times; i++) for (const f of pingpong ? [tag.from] : seq) frames.push(f);
    return { frames, loop: false };
  }
  // The first pass: up for a ping-pong, down for a reverse one.
  const first = seq.slice(0, tag.to - tag.from + 1);
  const back = [...first].reverse();
  for (const f of first) frames.push(f);
  for (let i = 1; i < times; i++) for (const f of (i % 2 ? back : first).slice(1)) frames.push(f);
  return { frames, loop: false };
}

/** A run of frames played `times` times in a row (Infinity: forever). */
export interface PlayRun {
  frames: number[];
  times: number;
}

/** The runs a tag plays, as Aseprite plays it (see tagPlayback in index.ts, the same sequence as one list). */
export function tagRuns(tag: AsepriteTag): PlayRun[] {
  const seq = tagSequence(tag);
  const n = tag.repeat ?? 0;
  if (!(n > 0)) return [{ frames: seq, times: Infinity }];
  const pingpong = tag.direction === 'pingpong' || tag.direction === 'pingpong_reverse';
  if (!pingpong) return [{ frames: seq, times: n }];
  if (tag.from === tag.to) return [{ frames: [tag.from], times: n }];
  // The first pass, then n - 1 passes each way without the frame it turns on.
  const first = seq.slice(0, tag.to - tag.from + 1);
  const out = first.slice(1);
  const back = [...first].reverse().slice(1);
  const runs: PlayRun[] = [{ frames: first, times: 1 }];
  const more = n - 1;
  if (more >= 2) runs.push({ frames: [...back, ...out], times: Math.floor(more / 2) });
  if (more % 2 === 1) runs.push({ frames: back, times: 1 });
  return runs;
}

/** The frame shown at time `t` (ms) by runs whose frames last `duration(frame)` ms; after the last run, its last frame. */
export class RunTimeline {
  private readonly prefix: number[][];
  private readonly total: number[];

  constructor(
    readonly runs: PlayRun[],
    duration: (frame: number) => number,
  ) {
    this.prefix = runs.map((r) => {
      const p = [0];
      for (const f of r.frames) p.push(p[p.length - 1]! + duration(f));
      return p;
    });
    this.total = this.prefix.map((p) => p[p.length - 1]!);
  }

  /** How long one pass of all runs lasts (Infinity for a run played forever). */
  get length(): number {
    return this.runs.reduce((s, r, i) => s + (r.frames.length ? r.times * this.total[i]! : 0), 0);
  }

  /** The length of a cycle of the run played forever, if any (its frames' durations added). */
  get cycle(): number | undefined {
    const i = this.runs.findIndex((r) => r.times === Infinity);
    return i < 0 ? undefined : this.total[i];
  }

  frameAt(t: number): number | null {
    let last: number | null = null;
    for (let i = 0; i < this.runs.length; i++) {
      const r = this.runs[i]!;
      const d = this.total[i]!;
      if (!r.frames.length || !(d > 0)) continue;
      last = r.frames[r.frames.length - 1]!;
      const span = r.times * d;
      if (t >= span) {
        t -= span;
        continue;
      }
      const within = t % d;
      // The last prefix at or before `within`: the frame showing.
      const p = this.prefix[i]!;
      let lo = 0;
      let hi = r.frames.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (p[mid]! <= within) lo = mid;
        else hi = mid - 1;
      }
      return r.frames[lo]!;
    }
    return last;
  }
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

/** One tag, or (none) every frame in order, looping. */
export interface PlayableSprite {
  /** Each frame's duration in ms (Aseprite: 1 or more). */
  durations: number[];
  tags: readonly AsepriteTag[];
  format: string;
  /** Without `--animation`: the first tag (a sheet, as its `render` draws it), else every frame in order. */
  firstTag?: boolean;
}

/** `sprat play`: `--animation TAG` (default: every frame in order, looping), `--ms`, `--step-ms`. */
export function playAseprite(
  sprite: PlayableSprite,
  options: CommandOptions,
  animationOption: OptionSpec,
): { records: { time: number; frame: number | null }[]; warnings: string[]; text: string } {
  const want = stringOption(options, animationOption) ?? (sprite.firstTag ? sprite.tags[0]?.name : undefined);
  const n = sprite.durations.length;
  if (n === 0) throw new FormatError(sprite.format, 'nothing to play: the sprite has no frames');
  let runs: PlayRun[];
  let what: string;
  if (want === undefined) {
    runs = [{ frames: sprite.durations.map((_, i) => i), times: Infinity }];
    what = `every frame (${n}) in order, looping`;
  } else {
    const tag = selectNamed('animation', want, sprite.tags, (t) => t.name, 'tag', 'the sprite');
    runs = tagRuns(tag);
    const times = tag.repeat ? `${tag.repeat} time${tag.repeat === 1 ? '' : 's'}, then stops on its last frame` : 'looping';
    what = `tag "${tag.name}": frames ${tag.from}-${tag.to}, ${tag.direction}, ${times}`;
  }
  // Aseprite's durations are 1 ms or more; a sheet's shorter one (0) plays as 1 ms, with a warning.
  const warnings: string[] = [];
  const short = new Set<number>();
  const duration = (f: number) => {
    const d = sprite.durations[f] ?? 0;
    if (d >= 1) return d;
    short.add(f);
    return 1;
  };
  const timeline = new RunTimeline(runs, duration);
  if (short.size) warnings.push(`frames shorter than 1 ms play for 1 ms: ${[...short].sort((a, b) => a - b).join(', ')}`);
  let step = intOption(options, PLAY_STEP_MS_OPTION);
  if (step === undefined) {
    step = 0;
    for (const r of runs) for (const f of r.frames) step = gcd(step, Math.min(2 ** 31, Math.round(duration(f))));
  }
  const loop = timeline.cycle;
  const ms = intOption(options, PLAY_MS_OPTION) ?? (loop !== undefined ? 2 * loop : timeline.length);
  budgetFrom(options).spend('maxRecords', Math.ceil(ms / step), `--ms ${ms} at --step-ms ${step}`);
  const records: { time: number; frame: number | null }[] = [];
  const lines = [what];
  const width = String(Math.max(0, ms - 1)).length;
  let last: number | null | undefined;
  for (let t = 0; t < ms; t += step) {
    const frame = timeline.frameAt(t);
    records.push({ time: t, frame });
    lines.push(`${String(t).padStart(width)} ms  frame ${frame}${last === undefined || frame === last ? '' : '  (changed)'}`);
    last = frame;
  }
  return { records, warnings, text: `${printableLines(lines)}\n` };
}
